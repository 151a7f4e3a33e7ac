"""The endgame solver's bitboard kernels against the plain move generation of lib.games.othello
(``move_mask``, ``flip_mask``) on arbitrary boards of every size: flips, legal moves (single
and packed side by side), and the table count of the last empty square's flips."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lib.games.othello import GEOMETRY, SIZES, flip_mask, move_mask
from lib.games.othello.endgame_kernels import (
    LANE,
    MAX_LANES,
    corner_stable,
    endgame_tables,
    kernels,
    pack,
    unpack,
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
    flips, moves = kernels(endgame_tables(size))
    expected_moves = move_mask(player, opponent, geometry.full, geometry.inner_cols)
    assert moves(player, opponent) == expected_moves
    empty = geometry.full & ~(player | opponent)
    for square in squares_of(empty):
        expected = flip_mask(square, player, opponent, geometry.inner_cols)
        assert flips(square, player, opponent) == expected
        assert bool(expected) == bool(expected_moves >> square & 1)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(SIZES).flatmap(lambda size: st.lists(boards(size), min_size=1, max_size=40)))
def test_packed_moves_equal_each_boards_moves(many):
    size = many[0][0]
    geometry = GEOMETRY[size]
    _, moves = kernels(endgame_tables(size))
    players, opponents = [p for _, p, _ in many], [o for _, _, o in many]
    assert unpack(pack(players), len(players)) == players
    packed = moves(pack(players), pack(opponents))
    expected = [move_mask(p, o, geometry.full, geometry.inner_cols) for _, p, o in many]
    assert unpack(packed, len(many)) == expected
    assert packed >> (len(many) * LANE) == 0  # nothing spills past the last board


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


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(SIZES).flatmap(lambda size: st.lists(boards(size), min_size=1, max_size=40)))
def test_corner_stable_discs_of_packed_boards_equal_each_boards(many):
    size = many[0][0]
    players = [player for _, player, _ in many]
    stable = corner_stable(pack(players), endgame_tables(size))
    assert unpack(stable, len(many)) == [corner_safe_discs(p, size) for p in players]
    assert stable >> (len(many) * LANE) == 0


def test_packed_moves_handle_the_most_lanes_with_discs_on_every_edge():
    size = 8
    geometry = GEOMETRY[size]
    _, moves = kernels(endgame_tables(size))
    # rows alternate so that runs reach every edge, shifted per lane
    players = [(0x8142241818244281 >> lane | 1 << 63) & geometry.full for lane in range(MAX_LANES)]
    opponents = [geometry.full & ~p & ~(1 << (lane % 64)) for lane, p in enumerate(players)]
    packed = moves(pack(players), pack(opponents))
    expected = [
        move_mask(p, o, geometry.full, geometry.inner_cols)
        for p, o in zip(players, opponents, strict=True)
    ]
    assert unpack(packed, MAX_LANES) == expected


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SIZES), st.data())
def test_last_square_counts_equal_both_sides_flips_on_a_full_board(size, data):
    geometry = GEOMETRY[size]
    tables = endgame_tables(size)
    square = data.draw(st.sampled_from(squares_of(geometry.full)))
    player = data.draw(st.integers(0, 2**64 - 1)) & geometry.full & ~(1 << square)
    opponent = geometry.full & ~player & ~(1 << square)
    lines = tables.last_lines[square]
    counts = sum(lines[i + 1][player & lines[i]] for i in range(0, 8, 2))
    mine = flip_mask(square, player, opponent, geometry.inner_cols).bit_count()
    theirs = flip_mask(square, opponent, player, geometry.inner_cols).bit_count()
    assert counts == mine + 256 * theirs
