"""Nothing is lost: 30 students at once, a server killed mid-contest, two servers at once.

Each test runs on SQLite and on a real PostgreSQL server (see conftest.py).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from lib.contest.contests import Submission, join, open_contest, submit
from lib.contest.identity import new_token
from lib.contest.schedule import game_counts
from lib.contest.schema import entries, games, versions
from lib.contest.standings import leaderboard
from lib.contest.store import Store
from tests.contest.conftest import FORMULAS, TICTACTOE, fill_class

ROOT = Path(__file__).resolve().parents[2]


def test_thirty_students_submitting_at_once_make_thirty_entries(store: Store) -> None:
    contest = open_contest(store, TICTACTOE)
    start = threading.Barrier(30)
    errors: list[BaseException] = []

    def student(i: int) -> None:
        try:
            token = new_token()
            start.wait()
            join(store, contest.code, f"Student {i}", token, actor=f"session-{i}")
            entry = Submission(formula=FORMULAS[i % len(FORMULAS)])
            for _ in range(2):  # the second is a retry of the same request
                submit(store, contest.code, token, entry, f"request-{i:04}", f"session-{i}")
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=student, args=(i,)) for i in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []
    with store.read() as connection:
        names = connection.scalars(sa.select(entries.c.name)).all()
        numbers = connection.scalars(sa.select(versions.c.number)).all()
        pairs = connection.execute(
            sa.select(games.c.version_a, games.c.version_b, games.c.game_index)
        ).all()
    assert sorted(names) == sorted(f"Student {i}" for i in range(30))
    assert numbers == [1] * 30
    assert len(set(pairs)) == len(pairs)  # no game scheduled twice


def _player(url: str, worker: str, *extra: str) -> subprocess.Popen:
    """``python -m lib.contest play`` on ``url`` as ``worker``, in its own process group."""
    return subprocess.Popen(
        [sys.executable, "-m", "lib.contest", "play", "--url", url, "--worker", worker,
         "--workers", "0", "--batch", "3", *extra],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )  # fmt: skip


def _done_games(store: Store) -> dict[int, tuple]:
    with store.read() as connection:
        rows = connection.execute(
            sa.select(games.c.id, games.c.winner, games.c.moves, games.c.finished_at).where(
                games.c.state == "done"
            )
        ).all()
    return {row.id: tuple(row[1:]) for row in rows}


SLOW = TICTACTOE.__class__(
    game="tictactoe", options={}, seconds_per_move=0.05, max_depth=9, games_per_entry=4
)
"""Games of about a second (full-depth search on a clock), so a kill lands mid-batch."""


@pytest.mark.slow
def test_a_server_killed_mid_contest_loses_and_doubles_nothing(
    store: Store, database_url: str
) -> None:
    contest, _ = fill_class(store, SLOW, size=8)
    total = game_counts(store, contest.id)["pending"]
    player = _player(database_url, "killed", "--lease", "2")
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:  # kill it once it recorded games and holds others
        assert player.poll() is None, player.stderr.read().decode()
        if len(_done_games(store)) >= 3 and game_counts(store, contest.id).get("claimed"):
            break
        time.sleep(0.05)
    os.killpg(player.pid, signal.SIGKILL)
    player.wait()
    before = _done_games(store)
    counts = game_counts(store, contest.id)
    assert 3 <= len(before) < total
    assert counts.get("claimed", 0) > 0  # it died holding games
    again = _player(database_url, "restarted", "--lease", "2", "--until-done")
    assert again.wait(180) == 0, again.stderr.read().decode()
    after = _done_games(store)
    assert {game: after[game] for game in before} == before  # every recorded game kept as it was
    assert set(game_counts(store, contest.id)) == {"done"}  # pending and orphaned games played
    assert len(after) >= total
    assert leaderboard(store, contest.id).games.sum() == 2 * len(after)  # none counted twice


@pytest.mark.slow
def test_two_servers_on_one_postgresql_database_share_the_work(postgres_server) -> None:
    database_url = postgres_server.create_database("two_servers")
    store = Store(database_url)
    contest, _ = fill_class(store, SLOW, size=8)
    total = game_counts(store, contest.id)["pending"]
    players = [_player(database_url, name, "--until-done") for name in ("one", "two")]
    for player in players:
        assert player.wait(180) == 0, player.stderr.read().decode()
    with store.read() as connection:
        rows = connection.execute(sa.select(games.c.claimed_by, games.c.attempts)).all()
    assert len(rows) >= total and all(attempts == 1 for _, attempts in rows)  # played once
    assert set(game_counts(store, contest.id)) == {"done"}
    assert {by for by, _ in rows} == {"one", "two"}  # both servers played
    other = Store(database_url)  # a second server's view
    first, second = leaderboard(store, contest.id), leaderboard(other, contest.id)
    assert first.equals(second) and first.games.sum() == 2 * len(rows)
    other.dispose()
    store.dispose()
