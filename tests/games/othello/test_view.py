"""The Othello view's exact move margins: every move's final margin in words, from the solver."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from lib.games import othello
from lib.games.othello import endgame, view
from tests.games.othello.test_endgame import late_position


@given(st.integers(-64, 64))
def test_margin_words_read_back_to_the_margin(margin):
    words = view.margin_words(margin)
    if margin == 0:
        assert words == "draws"
        return
    verb, discs, unit = re.fullmatch(r"(wins|loses) by (\d+) (discs?)", words).groups()
    assert int(discs) * (1 if verb == "wins" else -1) == margin
    assert unit == ("disc" if abs(margin) == 1 else "discs")


def test_every_moves_words_are_the_textbook_margin_of_the_position_after_it():
    view._every_move_solved.cache_clear()
    for seed in range(3):
        state = late_position(seed, 8)
        assert not state.is_terminal()
        insight = view.move_insight(state)
        assert sorted(insight) == sorted(state.legal_moves())
        for move, (words, line) in insight.items():
            child = state.play(move)
            # the position after the move is the opponent's to play (if only a pass)
            margin = -endgame.negamax_margin(child)
            assert words == view.margin_words(margin) and line == ""


def test_a_position_the_solver_cannot_finish_in_time_gets_no_words_and_is_not_cached(
    monkeypatch,
):
    view._every_move_solved.cache_clear()
    state = late_position(7, 12)
    assert not state.is_terminal()
    monkeypatch.setattr(view, "MOVE_VERDICT_SECONDS", 1e-9)
    assert view.move_insight(state) == {}
    monkeypatch.setattr(view, "MOVE_VERDICT_SECONDS", 30.0)
    assert sorted(view.move_insight(state)) == sorted(state.legal_moves())


def test_a_finished_game_has_no_moves_to_judge():
    full = othello.OthelloState(black=(1 << 64) - 1, white=0, to_move=0, size=8)
    assert full.is_terminal() and view.move_insight(full) == {}
