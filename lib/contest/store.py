"""The contest database: where it is, how to connect, transactions, and schema upgrades.

The URL comes from ``$AI_SEARCH_LAB_DATABASE_URL`` (any SQLAlchemy URL, e.g.
``postgresql+psycopg://user:password@host/db``), else from the caller (the page passes
Streamlit's secret ``[connections.contest] url = ...``, the shape ``st.connection`` reads),
else an SQLite file ``contest.sqlite3`` in the data folder (``$AI_SEARCH_LAB_DATA_DIR``,
by default ``~/.local/share/ai-search-lab``): nothing to set up.

SQLite runs in WAL mode with a busy timeout, and every write transaction starts with
``BEGIN IMMEDIATE`` so concurrent writers queue instead of failing halfway. The schema
is upgraded to the newest Alembic revision when a :class:`Store` opens (under an advisory
lock on PostgreSQL, so two servers starting together migrate once).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TypeVar

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from lib.errors import InputError
from lib.settings import DATA_DIR, data_folder

URL_ENV = "AI_SEARCH_LAB_DATABASE_URL"
"""Environment variable holding the contest database's SQLAlchemy URL."""

DATA_DIR_ENV = DATA_DIR
"""Environment variable naming the folder of the default SQLite file."""

SQLITE_FILE = "contest.sqlite3"
"""The default database's file name, in the data folder."""

BUSY_TIMEOUT_MS = 15_000
"""How long an SQLite writer waits for another one's lock before failing."""

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
"""The Alembic script folder."""

MIGRATION_LOCK = 31_415_926
"""The PostgreSQL advisory lock key held while a server upgrades the schema."""

T = TypeVar("T")


def data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The folder of the default SQLite database: the app's data folder
    (:func:`lib.settings.data_folder`)."""
    return data_folder(environ)


def database_url(secret_url: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The database URL: the environment's, else ``secret_url``, else the SQLite file's."""
    environ = os.environ if environ is None else environ
    url = environ.get(URL_ENV, "").strip() or (secret_url or "").strip()
    if url:
        return url
    return f"sqlite:///{data_dir(environ) / SQLITE_FILE}"


def safe_url(url: str) -> str:
    """``url`` with its password hidden, for messages and logs."""
    try:
        return sa.make_url(url).render_as_string(hide_password=True)
    except sa.exc.ArgumentError:
        return "(an unreadable URL)"


def _sqlite_engine(url: sa.URL) -> sa.Engine:
    """An SQLite engine: WAL, busy timeout, foreign keys, explicit BEGIN (see module doc)."""
    if url.database and url.database != ":memory:":
        Path(url.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = sa.create_engine(
        url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000, "check_same_thread": False}
    )

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself (below)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _on_begin(connection: sa.Connection) -> None:
        immediate = connection.info.get("immediate", True)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def make_engine(url: str) -> sa.Engine:
    """An engine for ``url`` (SQLite tuned as the module says; others pooled with pre-ping).

    Raises :class:`InputError` for a URL SQLAlchemy cannot read or whose driver is missing.
    """
    try:
        parsed = sa.make_url(url)
        if parsed.get_backend_name() == "sqlite":
            return _sqlite_engine(parsed)
        return sa.create_engine(parsed, pool_pre_ping=True, pool_size=5, max_overflow=5)
    except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError, ImportError) as error:
        raise InputError(
            f"The contest database URL {safe_url(url)} cannot be used: {error}. "
            f"Set {URL_ENV} to an SQLAlchemy URL such as "
            "postgresql+psycopg://user:password@host:5432/contest."
        ) from None


def alembic_config(connection: sa.Connection | None = None) -> Config:
    """Alembic's configuration for this package's migrations (on ``connection`` if given)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest migration's revision id."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: sa.Engine) -> str | None:
    """The revision the database at ``engine`` is at (None: no schema yet)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def migrate(engine: sa.Engine, revision: str = "head") -> None:
    """Upgrade the database at ``engine`` to ``revision`` (a no-op when it is there)."""
    with engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_lock({MIGRATION_LOCK})")
            connection.commit()
        try:
            command.upgrade(alembic_config(connection), revision)
            connection.commit()
        finally:
            if connection.dialect.name == "postgresql":
                connection.exec_driver_sql(f"SELECT pg_advisory_unlock({MIGRATION_LOCK})")
                connection.commit()


def _retryable(error: sa.exc.DBAPIError) -> bool:
    """Whether ``error`` is a lock or serialisation conflict worth trying again."""
    text = str(error.orig).lower()
    return any(
        word in text for word in ("database is locked", "deadlock", "could not serialize", "busy")
    )


class Store:
    """The contest database: an engine, its schema upgraded, and transactions.

    >>> store = Store("sqlite://")  # doctest: +SKIP
    >>> with store.write() as connection: ...  # doctest: +SKIP
    """

    def __init__(self, url: str | None = None, *, upgrade: bool = True) -> None:
        self.url = url or database_url()
        self.engine = make_engine(self.url)
        if upgrade:
            try:
                migrate(self.engine)
            except sa.exc.OperationalError as error:
                raise InputError(
                    f"The contest database {safe_url(self.url)} cannot be reached: "
                    f"{str(error.orig).strip()[:300]}"
                ) from None

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"`` (or another backend's name)."""
        return self.engine.dialect.name

    @contextlib.contextmanager
    def write(self) -> Iterator[sa.Connection]:
        """A write transaction: committed when the block ends, rolled back on an error."""
        with self.engine.connect() as connection:
            connection.info["immediate"] = True
            with connection.begin():
                yield connection

    @contextlib.contextmanager
    def read(self) -> Iterator[sa.Connection]:
        """A read-only transaction (SQLite: a plain deferred BEGIN, so it does not queue)."""
        with self.engine.connect() as connection:
            connection.info["immediate"] = False
            with connection.begin():
                yield connection
            connection.info["immediate"] = True

    def transact(self, work: Callable[[sa.Connection], T], attempts: int = 8) -> T:
        """``work(connection)`` in a write transaction, retried on a lock conflict."""
        for attempt in range(attempts):
            try:
                with self.write() as connection:
                    return work(connection)
            except sa.exc.OperationalError as error:
                if attempt == attempts - 1 or not _retryable(error):
                    raise
                time.sleep(0.05 * (attempt + 1))
        raise AssertionError("unreachable")

    def dispose(self) -> None:
        """Close the engine's pooled connections."""
        self.engine.dispose()
