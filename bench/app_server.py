"""A local ``streamlit run`` of the app, and Chromium as the browser tests and benchmarks run it.

The server runs headless on a free port of 127.0.0.1 in its own process group
and is stopped by killing that group, so nothing it started (job-pool workers
included) outlives its ``with`` block. Its output goes to a temporary file,
shown in the error when it fails to start.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Debian's Chromium, as the browser tests and benchmarks drive it (no sandbox in containers).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def running_app(
    root: Path = ROOT, port: int | None = None, env: dict[str, str] | None = None
) -> Iterator[tuple[str, subprocess.Popen]]:
    """Start ``streamlit run streamlit_app.py`` in ``root``; yield its base URL and process.

    ``env``: environment variables set for the server beside this process's own.

    Raises ``RuntimeError`` (with the end of the server's output) when it exits
    early or is not healthy within 60 s.
    """
    port = port or free_port()
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                "streamlit_app.py",
                "--server.headless=true",
                "--server.address=127.0.0.1",
                f"--server.port={port}",
                "--server.fileWatcherType=none",
                "--browser.gatherUsageStats=false",
            ],
            cwd=root,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, **(env or {})},
        )
        url = f"http://127.0.0.1:{port}"

        def failed(why: str) -> RuntimeError:
            log.seek(0)
            return RuntimeError(f"streamlit {why}:\n{log.read().decode(errors='replace')[-2000:]}")

        try:
            deadline = time.monotonic() + 60
            while True:
                if process.poll() is not None:
                    raise failed("exited early")
                try:
                    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                        if reply.status == 200:
                            break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    raise failed("was not healthy within 60 s")
                time.sleep(0.25)
            yield url, process
        finally:
            try:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
