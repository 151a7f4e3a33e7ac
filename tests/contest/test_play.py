"""The contest plays itself: claims under a lease, results recorded once, ratings."""

from __future__ import annotations

from urllib.parse import parse_qsl

import sqlalchemy as sa

from lib.contest.runner import ContestWorker, play_claim
from lib.contest.schedule import (
    REFINE_GAMES,
    claim_games,
    game_counts,
    live_games,
    record_result,
    refine_games,
    spread,
)
from lib.contest.schema import games, ratings
from lib.contest.standings import leaderboard
from lib.contest.store import Store
from lib.contest.tables import own_entry
from lib.games.arena.rating import fit_ratings
from lib.games.core import get_game
from lib.links import read_moves
from tests.contest.conftest import fill_class


def test_spread_takes_evenly_spaced_opponents() -> None:
    field = list(range(10))
    assert spread(field, 2) == [0, 9]
    assert spread(field, 4) == [0, 3, 6, 9]
    assert spread(field, 20) == field
    assert spread(field, 1) == [5]


def test_two_workers_never_hold_one_game_and_a_result_lands_once(store: Store) -> None:
    contest, _ = fill_class(store, size=4)
    total = game_counts(store, contest.id)["pending"]
    first = claim_games(store, "w1", 3, now=1000.0, lease=10)
    second = claim_games(store, "w2", 100, now=1001.0, lease=10)
    assert len(first) == 3 and len(second) == total - 3
    assert not {c.game_id for c in first} & {c.game_id for c in second}
    record = play_claim(first[0])
    assert not record_result(store, first[0], "w2", record)  # w2 does not hold it
    assert record_result(store, first[0], "w1", record)
    assert not record_result(store, first[0], "w1", record)  # recorded once
    # w1 dies: after its lease, its other two games go to w3, and w1's late result is refused
    assert claim_games(store, "w3", 100, now=1005.0) == []
    taken = claim_games(store, "w3", 100, now=1011.0)
    assert sorted(c.game_id for c in taken) == sorted(c.game_id for c in first[1:])
    assert not record_result(store, first[1], "w1", play_claim(first[1]))
    with store.read() as connection:
        attempts = connection.scalar(
            sa.select(games.c.attempts).where(games.c.id == first[1].game_id)
        )
    assert attempts == 2


def test_the_worker_plays_everything_and_the_leaderboard_is_the_ladders_fit(store: Store) -> None:
    contest, _ = fill_class(store, size=5)
    worker = ContestWorker(store, batch=8)
    while worker.schedule() + worker.step():
        pass
    counts = game_counts(store, contest.id)
    assert set(counts) == {"done"}
    table = leaderboard(store, contest.id)
    assert table.games.sum() == 2 * counts["done"]
    assert (table.wins + table.draws + table.losses == table.games).all()
    with store.read() as connection:
        played = connection.execute(
            sa.select(games.c.version_a, games.c.version_b, games.c.result_a)
        ).all()
        stored = connection.scalar(sa.select(sa.func.count()).select_from(ratings))
    oracle = fit_ratings([str(v) for v in range(1, 6)], [(str(a), str(b), s) for a, b, s in played])
    by_entry = dict(zip(table.entry, table.rating, strict=True))
    for entry in range(1, 6):  # entry i's only version is version i here
        assert abs(by_entry[entry] - oracle.rating(str(entry))) < 1e-6
    assert list(table.rating) == sorted(table.rating, reverse=True)
    assert stored >= 5  # the rating history was kept


def test_a_recorded_game_replays_on_the_game_page_from_its_link(store: Store) -> None:
    contest, tokens = fill_class(store, size=2)
    worker = ContestWorker(store, batch=8)
    while worker.step():
        pass
    _, _, own = own_entry(store, contest.code, tokens[0])
    game = get_game("tictactoe")
    for row in own.itertuples(index=False):
        page, _, query = row.replay.partition("?")
        params = dict(parse_qsl(query))
        assert page == "tictactoe" and params["replay"] == "yes"
        moves, note = read_moves(params["moves"], game.initial_state(), game.parse_move)
        assert note is None and len(moves) == row.plies
        end = game.initial_state()
        for move in moves:
            end = end.play(move)
        assert end.is_terminal()  # the whole recorded game, legal move by legal move


def test_refinement_pairs_unmet_neighbours_once_everything_is_played(store: Store) -> None:
    contest, _ = fill_class(store, size=6)
    with store.write() as connection:
        connection.execute(games.update().values(state="done", result_a=0.5, winner="draw"))
        before = live_games(connection, contest.id, range(1, 7))
        ranking = [3, 1, 6, 2, 5, 4]
        added = refine_games(connection, contest.id, contest.seed, 4, ranking, 0.0)
        after = live_games(connection, contest.id, range(1, 7))
        again = refine_games(connection, contest.id, contest.seed, 4, ranking, 0.0)
    met = before[1]
    new_pairs = after[1] - met
    assert added == 2 * len(new_pairs) > 0 and again == 0  # nothing more while games wait
    free = [v for v in ranking if before[0][v] < REFINE_GAMES]  # under the cap
    paired = {v for pair in new_pairs for v in pair}
    for pair in new_pairs:  # each with the nearest below that it had not met and is free
        assert pair <= set(free)
        a, b = sorted(free.index(v) for v in pair)
        for skipped in free[a + 1 : b]:
            assert frozenset((free[a], skipped)) in met or skipped in paired
    assert all(after[0][v] == before[0][v] + 2 * (v in paired) for v in range(1, 7))
    assert sum(len(p) for p in new_pairs) == len({v for p in new_pairs for v in p})
