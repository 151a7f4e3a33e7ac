"""Tic-tac-toe: the whole game tree counted, perfect play draws, alpha-beta equals minimax, a
perfect player never loses against any opponent, notation and heuristics."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games import core, tictactoe
from lib.games.arena import MatchConfig
from lib.games.search.fast import choose_move
from lib.games.tictactoe import (
    CROSS,
    GAME,
    HEURISTICS,
    NOUGHT,
    format_move,
    initial_state,
    parse_move,
    state_from_text,
)


def naive_winner(state: tictactoe.TicTacToeState) -> int | None:
    """The winner read off a 3x3 grid with explicit rows, columns and diagonals."""
    grid = [[state.cell(r, c) for c in range(3)] for r in range(3)]
    lines = [grid[r] for r in range(3)]
    lines += [[grid[r][c] for r in range(3)] for c in range(3)]
    lines += [[grid[i][i] for i in range(3)], [grid[i][2 - i] for i in range(3)]]
    for line in lines:
        if line[0] is not None and line.count(line[0]) == 3:
            return line[0]
    return None


def outcomes(state: tictactoe.TicTacToeState, memo: dict | None = None) -> dict[int | None, int]:
    """How many move sequences from ``state`` end in each result (X, O, None = draw)."""
    memo = {} if memo is None else memo
    if state in memo:
        return memo[state]
    if state.is_terminal():
        return {state.winner(): 1}
    total: dict[int | None, int] = {}
    for move in state.legal_moves():
        for result, count in outcomes(state.play(move), memo).items():
            total[result] = total.get(result, 0) + count
    memo[state] = total
    return total


def test_the_whole_tree_has_255168_games():
    # perft to depth 9 counts every game once (a finished game is a leaf)
    assert core.perft(initial_state(), 9) == 255_168
    # the well-known split: 131,184 won by X, 77,904 by O, 46,080 drawn
    assert outcomes(initial_state()) == {CROSS: 131_184, NOUGHT: 77_904, None: 46_080}


def test_there_are_5478_reachable_positions():
    seen = {initial_state()}
    frontier = [initial_state()]
    while frontier:
        state = frontier.pop()
        for move in state.legal_moves():
            child = state.play(move)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    assert len(seen) == 5478


def test_minimax_to_the_end_says_draw_and_alphabeta_agrees():
    start = initial_state()
    minimax = choose_move(start, algorithm="minimax", depth=9)
    assert minimax.value == 0
    assert minimax.stats.solved
    assert minimax.stats.nodes == 549_946  # every node of the game tree, root included
    for ordering, table in itertools.product((False, True), repeat=2):
        pruned = choose_move(
            start, algorithm="alphabeta", depth=9, ordering=ordering, transposition=table
        )
        assert pruned.value == 0
        assert pruned.stats.nodes < minimax.stats.nodes / 20


def _never_loses(player: int, depth: int) -> int:
    """Play the AI (``player``) against every possible sequence of opponent moves.

    Returns the number of finished games; fails if the AI loses one.
    """
    finished = 0
    stack = [initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            assert state.winner() != 1 - player, state
            finished += 1
        elif state.to_move == player:
            stack.append(state.play(choose_move(state, algorithm="alphabeta", depth=depth).move))
        else:
            stack.extend(state.play(move) for move in state.legal_moves())
    return finished


@pytest.mark.parametrize("depth", [8, 9])
@pytest.mark.parametrize("player", [CROSS, NOUGHT])
def test_a_full_depth_player_never_loses_to_any_opponent(player, depth):
    # depth 8 (the page's default AI) reaches the end from every position but the empty
    # board, where every first move draws with perfect play
    assert _never_loses(player, depth) > 50


def test_a_full_depth_player_wins_when_it_can():
    # X to move can win at once (c1) or through a fork; it must finish the game now
    state = state_from_text("XX.\nOO.\n...")
    result = choose_move(state, algorithm="alphabeta", depth=9)
    assert format_move(result.move) == "c1"
    assert result.value == core.WIN_VALUE  # WIN_VALUE + margin 1 - 1 ply: a win in one


def random_position(seed: int) -> tictactoe.TicTacToeState:
    """A position after 0–7 random moves (seeded), not finished."""
    rng = np.random.default_rng(seed)
    state = initial_state()
    for _ in range(int(rng.integers(0, 8))):
        moves = state.legal_moves()
        child = state.play(moves[int(rng.integers(len(moves)))])
        if child.is_terminal():
            break
        state = child
    return state


@pytest.mark.parametrize("seed", range(40))
def test_alphabeta_equals_minimax_on_random_positions(seed):
    state = random_position(seed)
    heuristic = list(HEURISTICS)[seed % len(HEURISTICS)]
    depth = 1 + seed % 4
    expected = choose_move(state, algorithm="minimax", depth=depth, heuristic=heuristic).value
    for ordering in (False, True):
        for table in (False, True):
            result = choose_move(
                state,
                algorithm="alphabeta",
                depth=depth,
                heuristic=heuristic,
                ordering=ordering,
                transposition=table,
            )
            assert result.value == expected


@settings(max_examples=150, deadline=None)
@given(moves=st.lists(st.integers(0, 8), max_size=12))
def test_random_playouts_agree_with_a_grid_reading_of_the_rules(moves):
    state = initial_state()
    for pick in moves:
        legal = state.legal_moves()
        winner = naive_winner(state)
        assert state.winner() == winner
        full = all(state.cell(r, c) is not None for r in range(3) for c in range(3))
        assert state.is_terminal() == (winner is not None or full) == (not legal)
        assert state.count_moves() == len(legal)
        assert state.to_move == (CROSS if len(squares(state)) % 2 == 0 else NOUGHT)
        if not legal:
            break
        move = legal[pick % len(legal)]
        child = state.play(move)
        assert child.cell(*divmod(move, 3)) == state.to_move
        assert squares(child) == squares(state) | {move}
        state = child


def squares(state: tictactoe.TicTacToeState) -> set[int]:
    """The marked squares."""
    return {r * 3 + c for r in range(3) for c in range(3) if state.cell(r, c) is not None}


def test_notation_round_trips_and_reads_numbers():
    state = initial_state()
    for move in range(9):
        assert parse_move(format_move(move), state) == move
        assert parse_move(str(move + 1), state) == move
    assert [format_move(m) for m in (0, 4, 8, 2, 6)] == ["a1", "b2", "c3", "c1", "a3"]
    assert parse_move("  B2 ", state) == 4


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("d1", "not a square"),
        ("0", "not a square"),
        ("10", "not a square"),
        ("", "not a square"),
        ("b", "not a square"),
        ("a1", "already holds an X"),
        ("1", "already holds an X"),
    ],
)
def test_bad_moves_are_refused_with_a_plain_message(text, message):
    state = initial_state().play(0)
    with pytest.raises(InputError, match=message):
        parse_move(text, state)


def test_play_refuses_a_marked_or_missing_square():
    state = initial_state().play(4)
    with pytest.raises(InputError, match="b2 is already marked"):
        state.play(4)
    with pytest.raises(InputError, match="no square 9"):
        state.play(9)


def test_no_move_in_a_finished_game():
    state = state_from_text("XXX\nOO.\n...")
    assert state.is_terminal() and state.winner() == CROSS and state.legal_moves() == []
    assert state.score(CROSS) == 1 and state.score(NOUGHT) == -1
    with pytest.raises(InputError, match="over"):
        parse_move("c2", state)
    draw = state_from_text("XOX\nXOO\nOXX")
    assert draw.is_terminal() and draw.winner() is None and draw.score(CROSS) == 0


def test_state_from_text_checks_the_board():
    assert state_from_text("...\n.X.\n...") == initial_state().play(4)
    with pytest.raises(InputError, match="three rows"):
        state_from_text("...\n...")
    with pytest.raises(InputError, match="unknown symbol"):
        state_from_text("..Z\n...\n...")
    with pytest.raises(InputError, match="X moves first"):
        state_from_text("OO.\n...\n...")


def test_heuristics_by_hand():
    centre = initial_state().play(4)  # X in the centre: four lines through it
    assert HEURISTICS["lines"].evaluate(centre, CROSS) == 1 * 4 + 3 * 1
    assert HEURISTICS["lines"].evaluate(centre, NOUGHT) == -(1 * 4 + 3 * 1)
    assert HEURISTICS["open lines"].evaluate(centre, CROSS) == 8 - 4
    # X: a1 b1, O: a2 b2. X has an open two (top row) and no other open line; O has an
    # open two (middle row) and an open one (the diagonal c1-b2-a3)
    state = state_from_text("XX.\nOO.\n...")
    assert tictactoe.line_counts(state, CROSS) == (1, 0, 1, 1)
    assert tictactoe.line_counts(state, NOUGHT) == (1, 1, 1, 0)
    # 10·(1−1) + 1·(0−1) + 3·(O holds the centre: −1) + 1·(X's corner a1: +1)
    assert HEURISTICS["lines"].evaluate(state, CROSS) == -3
    assert HEURISTICS["lines"].evaluate(state, NOUGHT) == 3


def test_game_spec():
    assert core.get_game("tictactoe") is GAME
    assert GAME.order < min(g.order for g in core.available_games().values() if g is not GAME)
    assert GAME.tree_depth == 9
    keys = [preset.key for preset in GAME.presets]
    for preset in GAME.presets:  # every player spec of the presets is valid for this game
        for _, spec_a, spec_b in preset.pairs:
            match = MatchConfig(GAME.name, (spec_a, spec_b), options=dict(preset.options))
            match.validate()
    assert len(set(keys)) == len(keys) and all(k.startswith("tictactoe_") for k in keys)
    state = state_from_text("XO.\n.X.\n..O")
    for heuristic in GAME.heuristics.values():
        assert abs(heuristic.evaluate(state, CROSS)) < core.WIN_VALUE / 10
