"""Timing a game's exact solver at a size: positions of that size, solved and timed, in words."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lib.games.core import get_game
from lib.games.search.exact_timing import (
    CAP_SECONDS,
    SolveTiming,
    sample_positions,
    solve_timing,
)


@pytest.mark.parametrize(("game", "empties"), [("othello", 10), ("connect_four", 14)])
def test_sample_positions_have_exactly_that_many_empty_squares_and_differ(game, empties):
    positions = sample_positions(get_game(game), empties, count=3)
    assert len(positions) == 3
    assert all(p.plies_left_hint() == empties and not p.is_terminal() for p in positions)
    assert len({repr(p) for p in positions}) == 3


def test_the_same_seed_gives_the_same_positions():
    game = get_game("othello")
    assert [repr(p) for p in sample_positions(game, 12)] == [
        repr(p) for p in sample_positions(game, 12)
    ]


@pytest.mark.parametrize(("game", "empties"), [("othello", 12), ("connect_four", 14)])
def test_every_sampled_position_is_solved_and_timed(game, empties):
    timing = solve_timing(get_game(game), empties)
    assert (timing.empties, timing.positions, timing.solved) == (empties, 3, 3)
    assert 0 < timing.median_seconds <= timing.worst_seconds < CAP_SECONDS
    assert timing.text().startswith(f"{empties} empty squares: ")
    assert "median" in timing.text()


def test_a_game_without_a_solver_is_refused():
    with pytest.raises(ValueError, match="no exact solver"):
        solve_timing(get_game("checkers"), 10)


@given(st.integers(1, 40), st.integers(0, 3), st.integers(0, 3))
def test_the_text_says_when_a_size_was_not_solved_or_not_reached(empties, positions, missed):
    solved = max(positions - missed, 0)
    text = SolveTiming(empties, positions, solved, 0.5, 1.5).text()
    if positions == 0:
        assert text == f"no position with {empties} empty squares was reached"
    elif solved < positions:
        assert f"for {positions - solved} of {positions} positions" in text
        # the hook may give up early, so the text names the budget, not a time it used
        assert "not solved with a 2 s budget here" in text
    else:
        assert text == f"{empties} empty squares: 500 ms here (median; worst 1.50 s of {positions})"
