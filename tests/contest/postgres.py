"""A throwaway PostgreSQL server for the contest tests: ``initdb`` and ``pg_ctl`` in a
temporary folder, on a free port of 127.0.0.1, as a non-root user when run as root.

The binaries are Debian's (``apt-get install postgresql``; ``/usr/lib/postgresql/*/bin``)
or any ``initdb`` on the PATH. :func:`server_binaries` returns None where there are none,
and the fixtures then skip the PostgreSQL half with the reason.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

NO_SERVER = "no PostgreSQL server on this machine: ran the SQLite half"
"""The skip reason where no PostgreSQL binaries exist."""


def server_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl`` (the newest Debian version), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def _version(path: str) -> float:
    """The major version in a ``/usr/lib/postgresql/<version>/bin`` path."""
    try:
        return float(Path(path).parts[4])
    except (IndexError, ValueError):
        return 0.0


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgresServer:
    """A cluster in a temporary folder; :meth:`start`, :meth:`url`, :meth:`stop`."""

    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.folder = Path(tempfile.mkdtemp(prefix="contest-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.user = "postgres" if os.geteuid() == 0 else None

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        subprocess.run(
            [*prefix, *command], check=True, capture_output=True, timeout=120, cwd=self.folder
        )

    def start(self) -> PostgresServer:
        """Create the cluster (trust login for ``postgres`` on 127.0.0.1) and start it."""
        if self.user:
            shutil.chown(self.folder, self.user)
            os.chmod(self.folder, 0o700)
        self._run(
            str(self.binaries / "initdb"), "-D", str(self.data), "-U", "postgres",
            "--auth=trust", "--no-sync", "-E", "UTF8",
        )  # fmt: skip
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} "
            "-c fsync=off -c max_connections=100"
        )
        self._run(
            str(self.binaries / "pg_ctl"), "-D", str(self.data), "-o", options,
            "-l", str(self.folder / "log"), "-w", "start",
        )  # fmt: skip
        return self

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of ``database`` on this server."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """Create database ``name``; returns its URL."""
        import sqlalchemy as sa

        engine = sa.create_engine(self.url(), isolation_level="AUTOCOMMIT")
        with engine.connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        engine.dispose()
        return self.url(name)

    def stop(self) -> None:
        """Stop the server and delete its folder."""
        with contextlib.suppress(subprocess.SubprocessError):
            self._run(
                str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"
            )
        shutil.rmtree(self.folder, ignore_errors=True)
