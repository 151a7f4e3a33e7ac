"""Fixtures of the contest tests: a store on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from lib.contest.store import Store
from tests.contest.postgres import NO_SERVER, PostgresServer, server_binaries

_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the session (skipped where the machine has none)."""
    binaries = server_binaries()
    if binaries is None:
        pytest.skip(NO_SERVER)
    server = PostgresServer(binaries).start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """A fresh, empty database's URL: an SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'contest.sqlite3'}"
    server = request.getfixturevalue("postgres_server")
    return server.create_database(f"contest_{next(_numbers)}")


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    """A store on a fresh database of each kind, its schema at the newest revision."""
    opened = Store(database_url)
    yield opened
    opened.dispose()
