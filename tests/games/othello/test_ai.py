"""Othello AI strength: depth-3 alpha-beta against a random player (a separate file so that
pytest-xdist can run it beside the rules tests)."""

from __future__ import annotations

import numpy as np
import pytest

from lib.games import othello
from lib.games.othello import initial_state
from lib.games.search.players import PlayerConfig, make_player


def _win_rate_against_random(size: int, games: int, seed: int) -> float:
    game = othello.GAME
    ai = make_player(PlayerConfig(kind="alphabeta", depth=3), game)
    rand = make_player(PlayerConfig(kind="random"), game)
    wins = 0
    for index in range(games):
        rng = np.random.default_rng([seed, index])
        ai_colour = index % 2
        state = initial_state(size)
        while not state.is_terminal():
            player = ai if state.to_move == ai_colour else rand
            state = state.play(player.choose(state, rng).move)
        wins += state.winner() == ai_colour
    return wins / games


@pytest.mark.slow
@pytest.mark.parametrize("size", [6, 8])
def test_depth_3_alphabeta_beats_random(size):
    # the course reports 98–100 %; the issue asks for at least 95 of 100 games
    assert _win_rate_against_random(size, 100, seed=2024) >= 0.95
