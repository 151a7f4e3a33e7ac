"""The game interface: registry, heuristics with weights, generic perft."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games import core, othello
from tests.games.toy import AIMA_TREE, ToyState


def test_get_game_and_available_games():
    assert core.get_game("othello").title == "Othello"
    assert "othello" in core.available_games()
    with pytest.raises(InputError, match="Unknown game 'chess'"):
        core.get_game("chess")


def test_every_registered_game_satisfies_the_interface(game):
    assert core.get_game(game.name) is game
    state = game.initial_state()
    assert isinstance(state, core.GameState)
    moves = state.legal_moves()
    assert moves and not state.is_terminal()
    hash(state.key)
    for move in moves:
        assert game.parse_move(game.format_move(move), state) == move
    assert game.default_heuristic in game.heuristics


@pytest.mark.parametrize("name", list(core.available_games()))
@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=20))
def test_parse_move_rejects_any_text_with_input_error_only(name, text):
    # after one move, so "square taken" / "line already coloured" paths are reached too
    game = core.get_game(name)
    start = game.initial_state()
    state = start.play(start.legal_moves()[0])
    try:
        move = game.parse_move(text, state)
    except InputError as error:
        assert str(error)
    else:
        assert move in state.legal_moves()


def test_perft_counts_finished_games_before_the_depth_as_leaves():
    finished = ToyState(((1, 2), 3), finished=True)  # leaf "3" ends the game at ply 1
    assert core.perft(finished, 1) == 2
    assert core.perft(finished, 2) == 3  # 2 leaves below move 0, plus the finished game
    assert core.perft(finished, 5) == 3
    assert core.perft(ToyState(AIMA_TREE, finished=True), 2) == 9


def test_perft_uses_count_moves_consistently():
    state = othello.initial_state(6)

    class NoHook:
        """The same state without the count_moves fast path."""

        def __init__(self, inner):
            self.inner = inner

        def legal_moves(self):
            return self.inner.legal_moves()

        def play(self, move):
            return NoHook(self.inner.play(move))

    for depth in range(1, 6):
        assert core.perft(NoHook(state), depth) == core.perft(state, depth)


def test_heuristic_bind_with_names_tuples_and_errors():
    table = othello.HEURISTICS["table"]
    state = othello.state_from_text("X.......\n" + "........\n" * 7)
    assert table.bind()(state, 0) == 100
    assert table.bind({"corner": 7})(state, 0) == 7
    assert table.bind((1, 0, 0, 0, 0, 0, 0))(state, 1) == -1
    with pytest.raises(InputError, match="no weight named 'bogus'"):
        table.bind({"bogus": 1})
    with pytest.raises(InputError, match="takes 7 weights"):
        table.bind((1, 2))
    with pytest.raises(ValueError, match="one default weight"):
        core.Heuristic("bad", "", lambda s, p, w: 0.0, ("a",), ())
