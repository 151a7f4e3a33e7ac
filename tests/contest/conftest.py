"""Fixtures of the contest tests: a store on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from lib.contest.contests import Contest, ContestSettings, Submission, join, open_contest, submit
from lib.contest.identity import new_token
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


TICTACTOE = ContestSettings(
    game="tictactoe",
    options={},
    seconds_per_move=0.05,
    max_depth=2,
    games_per_entry=4,
    max_entries=40,
)
"""A contest whose games take milliseconds: tic-tac-toe, depth 2."""

FORMULAS = ("lines", "lines + centre", "2*lines + corners", "twos - ones", "centre", "corners")
"""Tic-tac-toe formulas the test classes submit (entry i takes number i mod 6)."""


def fill_class(
    store: Store, settings: ContestSettings = TICTACTOE, size: int = 4
) -> tuple[Contest, list[str]]:
    """Open a contest and have ``size`` students join and submit one formula each."""
    contest = open_contest(store, settings)
    tokens = []
    for i in range(size):
        token = new_token()
        join(store, contest.code, f"Student {i}", token, actor=f"session-{i}")
        submit(
            store,
            contest.code,
            token,
            Submission(formula=FORMULAS[i % len(FORMULAS)]),
            request_key=f"first-submit-{i}",
            actor=f"session-{i}",
        )
        tokens.append(token)
    return contest, tokens
