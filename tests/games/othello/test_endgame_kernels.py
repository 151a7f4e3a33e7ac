"""The endgame solver's compiled bitboard kernels against the plain move generation of
lib.games.othello (``move_mask``, ``flip_mask``) on arbitrary boards of every size: legal
moves, flips, corner-stable discs and final margins."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.games.othello import GEOMETRY, SIZES, flip_mask, move_mask
from lib.games.othello.endgame_kernels import (
    BOARD,
    FULL,
    INNER,
    NEIGHBOURS,
    RANK,
    SQUARES,
    corner_stable,
    endgame_tables,
    final_margin,
    flips,
    legal_moves,
)


@st.composite
def boards(draw, size=None):
    """(size, player, opponent): two disjoint sets of discs on the board, any density."""
    size = size or draw(st.sampled_from(SIZES))
    full = GEOMETRY[size].full
    player = draw(st.integers(0, 2**64 - 1)) & full
    opponent = draw(st.integers(0, 2**64 - 1)) & full & ~player
    return size, player, opponent


def squares_of(mask: int) -> list[int]:
    return [square for square in range(64) if mask >> square & 1]


@settings(max_examples=300, deadline=None)
@given(boards())
def test_flips_and_moves_equal_the_plain_move_generation(board):
    size, player, opponent = board
    geometry = GEOMETRY[size]
    tables = endgame_tables(size)
    p, o = np.uint64(player), np.uint64(opponent)
    expected_moves = move_mask(player, opponent, geometry.full, geometry.inner_cols)
    assert int(legal_moves(p, o, tables[BOARD, FULL], tables[BOARD, INNER])) == expected_moves
    empty = geometry.full & ~(player | opponent)
    for square in squares_of(empty):
        expected = flip_mask(square, player, opponent, geometry.inner_cols)
        assert int(flips(square, p, o, tables)) == expected
        assert bool(expected) == bool(expected_moves >> square & 1)


def corner_safe_discs(discs: int, size: int) -> int:
    """The plain definition: each corner held, and the held squares next to it along an edge."""
    last = size - 1
    safe = 0
    for row, col in ((0, 0), (0, last), (last, 0), (last, last)):
        if not discs >> (row * 8 + col) & 1:
            continue
        safe |= 1 << (row * 8 + col)
        for r, c in ((row, 1 if col == 0 else last - 1), (1 if row == 0 else last - 1, col)):
            safe |= discs & 1 << (r * 8 + c)
    return safe


@settings(max_examples=200, deadline=None)
@given(boards())
def test_corner_stable_discs_equal_the_plain_definition(board):
    size, player, _ = board
    assert int(corner_stable(np.uint64(player), endgame_tables(size))) == corner_safe_discs(
        player, size
    )


@settings(max_examples=200, deadline=None)
@given(boards(), st.integers(0, 64))
def test_final_margin_gives_the_empties_to_the_winner(board, empties):
    _, player, opponent = board
    difference = player.bit_count() - opponent.bit_count()
    expected = difference + (empties if difference > 0 else -empties if difference < 0 else 0)
    assert final_margin(np.uint64(player), np.uint64(opponent), empties) == expected


def test_the_tables_hold_each_sizes_board_neighbours_and_ranks():
    for size in SIZES:
        geometry = GEOMETRY[size]
        tables = endgame_tables(size)
        assert int(tables[BOARD, FULL]) == geometry.full
        assert int(tables[BOARD, SQUARES]) == size * size
        for square in range(64):
            row, col = divmod(square, 8)
            around = {
                (row + dr) * 8 + col + dc
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if (dr or dc) and 0 <= row + dr < size and 0 <= col + dc < size
            }
            on_board = row < size and col < size
            assert set(squares_of(int(tables[square, NEIGHBOURS]))) == (
                around if on_board else set()
            )
        ranks = {int(tables[s, RANK]) for s in squares_of(geometry.corners)}
        assert ranks == {0}
    # every caller gets its own copy: writing to one cannot reach another session
    first, second = endgame_tables(8), endgame_tables(8)
    first[BOARD, FULL] = 0
    assert int(second[BOARD, FULL]) == GEOMETRY[8].full
