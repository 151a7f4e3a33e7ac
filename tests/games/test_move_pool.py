"""AI moves searched in the move pool's workers: the same move, progress and cancel as here."""

from __future__ import annotations

import os
import time
from dataclasses import replace

import numpy as np
import pytest

from lib.errors import InputError
from lib.games import compiled_code, move_pool
from lib.games.core import get_game
from lib.games.move_pool import (
    decide_anywhere,
    move_workers,
    new_move_pool,
    search_move,
    warm_up,
)
from lib.games.search.players import parse_player_spec
from lib.games.session import GameSession, decide
from lib.jobs import CANCELLED, RUNNING


def warmed(pool, timeout: float = 120.0):
    """``pool`` with every worker up and idle (their warm-ups done)."""
    pool.fill(warm_up, (False,))
    deadline = time.monotonic() + timeout
    while pool.idle_workers() < pool.max_workers:
        assert time.monotonic() < deadline, "the move workers' warm-up did not finish"
        time.sleep(0.05)
    return pool


def searched_here(*_args, **_kwargs):
    raise AssertionError("the move was searched in this process, not in the worker")


@pytest.fixture(scope="module")
def pool():
    pool = new_move_pool(1)
    yield warmed(pool)
    pool.shutdown()


def start_of(name: str, plies: int = 0, seed: int = 0):
    """A position ``plies`` random moves into game ``name``."""
    game = get_game(name)
    state = GameSession.new(game, {}).state
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        legal = state.legal_moves()
        state = state.play(legal[int(rng.integers(len(legal)))])
    return game, state


@pytest.mark.parametrize("name", ["tictactoe", "othello", "connect_four", "checkers", "sim"])
def test_a_move_searched_in_a_worker_is_the_move_searched_here(pool, name, monkeypatch):
    game, state = start_of(name, plies=4)
    config = parse_player_spec("alphabeta:depth=3")
    here_rng, there_rng = np.random.default_rng(7), np.random.default_rng(7)
    here = decide(state, config, game, here_rng, default_time=5.0, exact_root_scores=True)
    monkeypatch.setattr(move_pool, "decide", searched_here)
    there = decide_anywhere(
        pool, state, config, game, there_rng, default_time=5.0, exact_root_scores=True
    )
    assert pool.idle_workers() == 1  # it ran there, and the worker waits for the next move
    assert (there.move, there.value) == (here.move, here.value)
    assert there.stats.nodes == here.stats.nodes
    assert there_rng.random() == here_rng.random()  # the generator goes on where it stopped


def test_a_random_player_draws_from_the_sessions_generator_in_the_worker(pool):
    game, state = start_of("othello")
    config = parse_player_spec("random")
    here = [
        decide(state, config, game, np.random.default_rng(s), default_time=1).move for s in range(6)
    ]
    there = [
        decide_anywhere(pool, state, config, game, np.random.default_rng(s), default_time=1).move
        for s in range(6)
    ]
    assert there == here
    assert len(set(here)) > 1  # the seeds matter: the generator really was used


def test_progress_comes_back_and_a_handler_that_raises_cancels_the_search(pool):
    game, state = start_of("othello", plies=6)
    config = parse_player_spec("alphabeta:time=30")
    seen = []

    def progress(stats):
        seen.append(stats)
        if len(seen) == 3:
            raise KeyboardInterrupt("the page's run was replaced")

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        decide_anywhere(
            pool,
            state,
            config,
            game,
            np.random.default_rng(0),
            default_time=30,
            on_progress=progress,
        )
    assert time.monotonic() - started < 10  # not the 30 s budget
    assert [s.depth_reached for s in seen] == sorted(s.depth_reached for s in seen)
    deadline = time.monotonic() + 10
    while pool.idle_workers() != 1:  # the worker stopped the search and waits again
        assert time.monotonic() < deadline, "the cancelled search still runs"
        time.sleep(0.05)
    quick = decide_anywhere(
        pool, state, parse_player_spec("greedy"), game, np.random.default_rng(0), default_time=1
    )
    assert quick.move in state.legal_moves()


def test_a_players_error_in_the_worker_reaches_the_page_as_it_would_here(pool):
    game, state = start_of("othello")
    config = replace(parse_player_spec("alphabeta:depth=2"), weights=(1.0,) * 50)
    with pytest.raises(InputError) as here:
        decide(state, config, game, np.random.default_rng(0), default_time=1)
    with pytest.raises(InputError) as there:
        decide_anywhere(pool, state, config, game, np.random.default_rng(0), default_time=1)
    assert str(there.value) == str(here.value)


def test_while_the_server_compiles_the_solver_elsewhere_the_worker_leaves_it_out_too(
    pool, monkeypatch
):
    monkeypatch.setattr(move_pool, "decide", searched_here)
    game, state = start_of("connect_four", plies=16, seed=3)
    config = parse_player_spec(game.default_player)
    normal = decide_anywhere(pool, state, config, game, np.random.default_rng(0), default_time=1)
    assert not normal.stats.solver_compiling
    with compiled_code.warming_up():
        waiting = decide_anywhere(
            pool, state, config, game, np.random.default_rng(0), default_time=1
        )
    assert waiting.stats.solver_compiling
    assert pool.idle_workers() == 1  # both ran in the worker


def test_with_no_idle_worker_the_move_is_searched_here_and_the_workers_start():
    cold = new_move_pool(1)
    try:
        game, state = start_of("tictactoe")
        config = parse_player_spec("alphabeta:depth=9")
        decision = decide_anywhere(
            cold, state, config, game, np.random.default_rng(0), default_time=5
        )
        here = decide(state, config, game, np.random.default_rng(0), default_time=5)
        assert (decision.move, decision.value) == (here.move, here.value)
        assert cold.counts() in ((1, 0), (0, 1), (0, 0))  # the warm-up, not the move
        warmed(cold)
        assert cold.idle_workers() == 1
    finally:
        cold.shutdown()


def test_a_busy_worker_sends_the_next_move_here_instead_of_queueing_it(pool):
    game, state = start_of("othello", plies=6)
    long_search = pool.submit_if_idle(
        search_move,
        (state, parse_player_spec("alphabeta:time=20"), "othello", np.random.default_rng(0)),
        {
            "default_time": 20,
            "record_tree": False,
            "exact_root_scores": False,
            "compiling_elsewhere": False,
        },
        callbacks={"on_progress": "latest"},
    )
    assert long_search is not None
    try:
        handed = time.monotonic() + 30  # a busy machine may take a moment to hand it over
        while long_search.state != RUNNING and time.monotonic() < handed:
            time.sleep(0.05)
        assert long_search.state == RUNNING
        started = time.monotonic()
        quick = decide_anywhere(
            pool, state, parse_player_spec("greedy"), game, np.random.default_rng(0), default_time=1
        )
        assert quick.move in state.legal_moves()
        assert time.monotonic() - started < 5  # not behind the 20 s search
        assert pool.counts() == (1, 0)  # nothing queued
    finally:
        long_search.cancel()
        while not long_search.wait(0.1):
            pass
    assert long_search.state == CANCELLED


def test_move_workers_read_the_environment(monkeypatch):
    assert move_workers({"AI_SEARCH_LAB_MOVE_WORKERS": "0"}) == 0
    assert move_workers({"AI_SEARCH_LAB_MOVE_WORKERS": "3"}) == 3
    for cores, workers in ((8, 2), (2, 2), (1, 1), (None, 1)):  # the cores, at most 2
        monkeypatch.setattr(os, "cpu_count", lambda cores=cores: cores)
        assert move_workers({}) == workers
    with pytest.raises(InputError, match="AI_SEARCH_LAB_MOVE_WORKERS"):
        move_workers({"AI_SEARCH_LAB_MOVE_WORKERS": "-1"})
    assert new_move_pool(0) is None
