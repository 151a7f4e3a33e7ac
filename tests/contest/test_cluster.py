"""A contest played on a real Dask cluster: the command line's ``--scheduler`` plays every
game on the cluster's workers, and each recorded game is the one this process plays."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from lib.contest.__main__ import main
from lib.contest.runner import play_claim
from lib.contest.schedule import claims_of, game_counts
from lib.contest.schema import games
from lib.contest.store import Store
from tests.contest.conftest import fill_class

pytest.importorskip("dask.distributed")
from tests.games.arena.test_dask_cluster import dask_cluster

pytestmark = pytest.mark.slow


def test_the_command_line_plays_a_contest_on_a_dask_cluster(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'contest.sqlite3'}"
    store = Store(url)
    contest, _ = fill_class(store, size=4)
    total = game_counts(store, contest.id)["pending"]
    with dask_cluster(tmp_path, workers=2) as (address, _):
        assert main(["play", "--url", url, "--scheduler", address, "--until-done"]) == 0
    counts = game_counts(store, contest.id)  # the schedule, and the refinement after it
    assert set(counts) == {"done"} and counts["done"] >= total
    with store.read() as connection:
        rows = connection.execute(sa.select(games.c.id, games.c.moves, games.c.winner)).all()
        claims = {claim.game_id: claim for claim in claims_of(connection, [r.id for r in rows])}
    for row in rows:  # the cluster's game is the game: the same moves, the same winner
        record = play_claim(claims[row.id])
        assert (row.moves, row.winner) == (record.moves, record.winner)
    store.dispose()


def test_an_unreachable_scheduler_is_said_and_nothing_is_played(tmp_path, capsys) -> None:
    url = f"sqlite:///{tmp_path / 'contest.sqlite3'}"
    store = Store(url)
    contest, _ = fill_class(store, size=2)
    assert main(["play", "--url", url, "--scheduler", "tcp://127.0.0.1:9", "--until-done"]) == 2
    assert "Could not connect to the Dask scheduler" in capsys.readouterr().err
    assert "done" not in game_counts(store, contest.id)
    store.dispose()
