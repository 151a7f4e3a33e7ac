"""Othello rules on bitboards: perft tables, a naive oracle, random-game invariants, notation,
heuristics, and the AI beating a random player."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games import core, othello
from lib.games.othello import PASS, format_move, initial_state, parse_move
from tests.games.naive import othello as othello_naive

# shared/REFERENCE.md: pass counted as a move, finished games as leaves
PERFT_8X8 = {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396, 6: 8200, 7: 55092, 8: 390216}


def random_state(seed: int, plies: int, size: int = 8) -> othello.OthelloState:
    """The position after up to ``plies`` random moves from the start."""
    rng = np.random.default_rng(seed)
    state = initial_state(size)
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        state = state.play(moves[int(rng.integers(len(moves)))])
    return state


def to_naive(state: othello.OthelloState) -> list[list[int | None]]:
    return [[state.cell(r, c) for c in range(state.size)] for r in range(state.size)]


def naive_move(move: int) -> tuple[int, int] | None:
    return None if move == PASS else divmod(move, 8)


@pytest.mark.parametrize("depth", range(1, 8))
def test_perft_8x8_start(depth):
    assert core.perft(initial_state(8), depth) == PERFT_8X8[depth]


@pytest.mark.slow
def test_perft_8x8_depth_8():
    assert core.perft(initial_state(8), 8) == 390216


@pytest.mark.slow
def test_perft_8x8_depth_9():
    # depth 9 has the first forced passes; 3,005,320 would mean passes are not counted
    assert core.perft(initial_state(8), 9) == 3_005_288


@pytest.mark.parametrize(("size", "depth"), [(4, 9), (6, 5), (8, 4)])
def test_perft_matches_the_naive_implementation(size, depth):
    # 4x4 to depth 9 reaches passes (from ply 4) and finished games (from ply 7)
    naive = othello_naive.perft(othello_naive.initial_board(size), 0, depth)
    assert core.perft(initial_state(size), depth) == naive


def test_count_moves_hook_agrees_with_legal_moves():
    for seed in range(40):
        state = random_state(seed, seed + 20)
        assert state.count_moves() == len(state.legal_moves())


def test_standard_first_moves_and_start_position():
    state = initial_state(8)
    assert [format_move(m) for m in state.legal_moves()] == ["d3", "c4", "f5", "e6"]
    assert state.cell(3, 3) == othello.WHITE and state.cell(4, 4) == othello.WHITE
    assert state.cell(3, 4) == othello.BLACK and state.cell(4, 3) == othello.BLACK
    assert state.to_move == othello.BLACK
    assert state.counts() == (2, 2)
    six = initial_state(6)
    assert [format_move(m) for m in six.legal_moves()] == ["c2", "b3", "e4", "d5"]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([4, 6, 8]))
def test_random_games_keep_the_invariants(seed, size):
    rng = np.random.default_rng(seed)
    state = initial_state(size)
    board = othello_naive.initial_board(size)
    while True:
        moves = state.legal_moves()
        naive = othello_naive.legal_moves(board, state.to_move)
        assert [naive_move(m) for m in moves] == naive
        if not moves:
            # game end only when neither side can move
            assert state.is_terminal()
            assert not othello_naive.placing_moves(board, 0)
            assert not othello_naive.placing_moves(board, 1)
            break
        assert not state.is_terminal()
        if moves == [PASS]:
            # pass only when there is no other move, and the opponent can move
            assert state.move_mask() == 0
            assert othello_naive.placing_moves(board, 1 - state.to_move)
        move = moves[int(rng.integers(len(moves)))]
        black, white = state.counts()
        mover = state.to_move
        occupied = state.black | state.white
        flipped = state.flips(move)
        new = state.play(move)
        if move == PASS:
            assert new.counts() == (black, white)
        else:
            assert not occupied >> move & 1  # never on an occupied square
            gained = 1 + flipped.bit_count()
            expected = (black + gained, white - gained + 1)
            if mover == othello.WHITE:
                expected = (black - gained + 1, white + gained)
            assert new.counts() == expected
            assert flipped.bit_count() >= 1
        assert new.black & new.white == 0
        assert new.to_move == 1 - mover
        board = othello_naive.play(board, mover, naive_move(move))
        assert to_naive(new) == board
        state = new
    black, white = state.counts()
    assert state.winner() == (None if black == white else (0 if black > white else 1))
    assert state.score(0) == black - white == -state.score(1)


def test_play_refuses_an_illegal_square():
    state = initial_state(8)
    with pytest.raises(InputError):
        state.play(othello.square(0, 0))
    with pytest.raises(InputError):
        state.play(othello.square(3, 3))  # occupied


def test_parse_and_format_moves():
    state = initial_state(8)
    for move in state.legal_moves():
        assert parse_move(format_move(move), state) == move
    assert parse_move(" D3 ", state) == othello.square(2, 3)
    assert format_move(PASS) == "pass"
    for bad, fragment in [
        ("z9", "not a move"),
        ("a1", "not legal"),
        ("pass", "not legal"),
        ("", "not a move"),
        ("d33", "not a move"),
    ]:
        with pytest.raises(InputError, match=fragment):
            parse_move(bad, state)
    with pytest.raises(InputError, match="off the 6x6 board"):
        parse_move("h8", initial_state(6))


def test_forced_pass_is_parsed_and_played():
    # White has no move on this board but Black has: White must pass.
    state = othello.state_from_text(
        """
        XXXX
        XOO.
        XXXX
        XXXX
        """,
        to_move=othello.WHITE,
    )
    assert state.legal_moves() == [PASS]
    assert parse_move("pass", state) == PASS
    after = state.play(PASS)
    assert after.to_move == othello.BLACK and after.counts() == state.counts()
    assert format_move(after.legal_moves()[0]) == "d2"


def test_state_from_text_round_trip_and_errors():
    state = random_state(3, 25)
    text = "\n".join(state.to_text().splitlines()[:-1])
    assert othello.state_from_text(text, state.to_move) == state
    with pytest.raises(InputError, match="rows"):
        othello.state_from_text("XO\nOX")
    with pytest.raises(InputError, match="Row 2, column 3"):
        othello.state_from_text("....\n..?.\n....\n....")


def test_initial_state_rejects_odd_sizes():
    with pytest.raises(InputError, match="size"):
        initial_state(7)


def _symmetries(state: othello.OthelloState) -> list[othello.OthelloState]:
    """The 8 rotations/reflections of a position."""
    n = state.size
    cells = [(r, c) for r in range(n) for c in range(n)]
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (c, n - 1 - r),
        lambda r, c: (n - 1 - r, n - 1 - c),
        lambda r, c: (n - 1 - c, r),
        lambda r, c: (r, n - 1 - c),
        lambda r, c: (n - 1 - r, c),
        lambda r, c: (c, r),
        lambda r, c: (n - 1 - c, n - 1 - r),
    ]
    result = []
    for transform in maps:
        black = white = 0
        for r, c in cells:
            owner = state.cell(r, c)
            tr, tc = transform(r, c)
            if owner == othello.BLACK:
                black |= 1 << othello.square(tr, tc)
            elif owner == othello.WHITE:
                white |= 1 << othello.square(tr, tc)
        result.append(othello.OthelloState(black, white, state.to_move, n))
    return result


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 60), size=st.sampled_from([4, 6, 8]))
def test_heuristics_are_antisymmetric_and_symmetric_under_board_symmetries(seed, plies, size):
    state = random_state(seed, plies, size)
    for heuristic in othello.HEURISTICS.values():
        value = heuristic.evaluate(state, 0)
        assert value == pytest.approx(-heuristic.evaluate(state, 1), abs=1e-9)
        assert abs(value) < core.WIN_VALUE / 10
        for image in _symmetries(state):
            assert heuristic.evaluate(image, 0) == pytest.approx(value, abs=1e-9)


def test_normalised_heuristics_match_their_formulas():
    state = random_state(11, 30)
    black, white = state.counts()
    assert othello.disc_difference(state, 0) == pytest.approx((black - white) / (black + white))
    moves_black = othello.OthelloState(state.black, state.white, 0, 8).move_mask().bit_count()
    moves_white = othello.OthelloState(state.black, state.white, 1, 8).move_mask().bit_count()
    assert othello.mobility(state, 0) == pytest.approx(
        (moves_black - moves_white) / (moves_black + moves_white)
    )
    table = othello.HEURISTICS["table"]
    one_corner = othello.state_from_text("X.......\n" + "........\n" * 7)
    assert table.evaluate(one_corner, 0) == 100
    mix = othello.HEURISTICS["weighted"]
    assert mix.evaluate(one_corner, 0) == pytest.approx(5 * 1 + 2 * 1)


def test_positional9_has_nine_named_weights_and_normalised_features():
    heuristic = othello.HEURISTICS["positional9"]
    assert len(heuristic.weight_names) == 9 == len(heuristic.default_weights)
    regions = othello.GEOMETRY[8].region_sizes
    assert regions["corner"] == 4 and regions["x_square"] == 4 and regions["c_square"] == 8
    assert regions["mid_ring"] + regions["centre"] == 12 + 4  # the centre 4x4
    assert sum(regions.values()) == 64
    for seed in range(20):
        state = random_state(seed, 40)
        features = othello.positional_features(state, 0)
        assert len(features) == 9
        assert all(-1.0 <= f <= 1.0 for f in features)
        weights = tuple(float(w) for w in range(1, 10))
        assert heuristic.evaluate(state, 0, weights) == pytest.approx(
            sum(w * f for w, f in zip(weights, features, strict=True))
        )
    # a region filled with my discs gives feature 1
    full_corners = othello.state_from_text("X......X\n" + "........\n" * 6 + "X......X")
    assert othello.positional_features(full_corners, 0)[0] == 1.0


def test_game_spec_is_registered():
    game = core.get_game("othello")
    assert game is othello.GAME
    assert game.options["size"] == (6, 8)
    assert game.default_heuristic in game.heuristics
