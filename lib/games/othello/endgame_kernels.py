"""Bitboard kernels of the exact Othello endgame solver (:mod:`lib.games.othello.endgame`).

Everything here works on two integer bitboards (the side to move's discs and the
opponent's, the layout of :mod:`lib.games.othello`: square ``(row, col)`` is bit
``row * 8 + col``) and on read-only tables built once per board size:

* :func:`kernels` gives ``flips(square, player, opponent)``, the discs a move turns
  over, walking only the rays that start next to an opponent disc, and
  ``moves(player, opponent)``, every legal move at once by run-doubling shifts of
  the whole board in the eight directions (Kogge-Stone style: a run of opponent
  discs is extended by 1, then 2, then 2 more squares, instead of one square a step);
* ``moves`` also works on **packed** boards, several positions side by side in one
  integer, :data:`LANE` bits apart (:func:`pack`): one call finds the legal moves of
  every child of a position, which is how the solver counts each child's replies to
  order the moves (a Python integer operation costs about the same on 64 bits as
  on a few thousand, so the packed call costs little more than a single one);
* :attr:`EndgameTables.last_lines` counts the flips of the very last empty square
  without computing them: on a full board the four lines through the square decide
  both players' counts, looked up by the side to move's discs on each line.

Tests check each kernel against the plain state methods of :mod:`lib.games.othello`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import NamedTuple

from lib.games.othello import GEOMETRY

LANE = 82
"""Bits between two positions packed in one integer: 64 squares and 18 guard bits, the
longest shift of :func:`kernels`' ``moves`` (so no shift carries a disc into the next
position, and the board masks clear what spills into the guard bits)."""

MAX_LANES = 64
"""Most positions ``moves`` handles packed in one call (more than any move count)."""

_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # the four lines: row, column, two diagonals


class EndgameTables(NamedTuple):
    """Read-only masks and tables of one board size."""

    size: int
    squares: int  # size * size
    full: int  # every square
    full_lanes: int  # every square, in each of MAX_LANES lanes
    inner_lanes: int  # squares off the first and last column (stops wrap-around), per lane
    neighbours: tuple[int, ...]  # per square: its (up to 8) neighbouring squares
    # per square: the opponent discs among its neighbours -> (rays up, rays down) that
    # start with one of them (the only rays along which a move can flip): rays going to
    # higher square indices and rays going to lower ones
    rays_by_neighbours: tuple[dict[int, tuple[tuple[int, ...], tuple[int, ...]]], ...]
    # per square, on a board full but for it: (line mask, {player discs on the line:
    # player's flips + 256 * opponent's flips}) for each of the four lines, flattened
    last_lines: tuple[tuple[int | dict[int, int], ...], ...]
    region: tuple[int, ...]  # per square: the bit of its parity region (quadrant)
    square_rank: tuple[int, ...]  # per square: static preference (corners 0 ... X-squares 3)
    corners: int
    # every lane's (corners in the first column, last column, first row, last row): a
    # corner's discs along the edges next to it cannot be flipped (see corner_stable)
    corner_sides_lanes: tuple[int, int, int, int]
    corners_lanes: int  # every corner, in each lane


def _rays(row: int, col: int, size: int) -> list[tuple[int, int, int]]:
    """(direction index step, next square bit, ray mask) of the directions from a square
    with room for a flip (an opponent disc and one of mine beyond)."""
    rays = []
    for d_row in (-1, 0, 1):
        for d_col in (-1, 0, 1):
            if not d_row and not d_col:
                continue
            ray, length = 0, 0
            r, c = row + d_row, col + d_col
            while 0 <= r < size and 0 <= c < size:
                ray |= 1 << (r * 8 + c)
                length += 1
                r, c = r + d_row, c + d_col
            if length >= 2:
                next_square = 1 << ((row + d_row) * 8 + col + d_col)
                rays.append((d_row * 8 + d_col, next_square, ray))
    return rays


@functools.cache
def _line_counts(length: int, position: int) -> tuple[int, ...]:
    """On a line of ``length`` squares, full but for square ``position``: for each subset
    of the other squares held by the side to move (bit j: the j-th other square), its
    flips there + 256 * the opponent's flips there."""
    counts = []
    for subset in range(1 << (length - 1)):
        mine = [bool(subset >> j & 1) for j in range(length - 1)]
        mine.insert(position, False)
        packed = 0
        for shift, owner in ((0, True), (8, False)):
            for step in (-1, 1):
                # walk over the other side's discs; they flip if one of owner's ends them
                run, index = 0, position + step
                while 0 <= index < length and mine[index] != owner:
                    run, index = run + 1, index + step
                if 0 <= index < length:
                    packed += run << shift
        counts.append(packed)
    return tuple(counts)


def _line_flip_counts(cells: list[int], position: int) -> dict[int, int]:
    """:func:`_line_counts` keyed by the side to move's discs on the line ``cells`` (bits)."""
    keys = [0]
    for bit in cells[:position] + cells[position + 1 :]:
        keys += [key | bit for key in keys]
    return dict(zip(keys, _line_counts(len(cells), position), strict=True))


def _build_tables(size: int) -> EndgameTables:
    geometry = GEOMETRY[size]
    rays_by_neighbours: list[dict[int, tuple[tuple[int, ...], tuple[int, ...]]]] = []
    neighbours: list[int] = []
    last_lines: list[tuple[int | dict[int, int], ...]] = []
    region: list[int] = []
    square_rank: list[int] = []
    half = size // 2
    first_col = sum(1 << (row * 8) for row in range(size))
    for index in range(64):
        row, col = divmod(index, 8)
        on_board = row < size and col < size
        rays = _rays(row, col, size) if on_board else []
        around = 0
        for d_row in (-1, 0, 1):
            for d_col in (-1, 0, 1):
                r, c = row + d_row, col + d_col
                if (d_row or d_col) and on_board and 0 <= r < size and 0 <= c < size:
                    around |= 1 << (r * 8 + c)
        neighbours.append(around)
        bits = [1 << i for i in range(64) if around >> i & 1]
        by_mask = {}
        for subset in range(1 << len(bits)):
            mask = sum(bit for j, bit in enumerate(bits) if subset >> j & 1)
            by_mask[mask] = (
                tuple(ray for step, start, ray in rays if step > 0 and start & mask),
                tuple(ray for step, start, ray in rays if step < 0 and start & mask),
            )
        rays_by_neighbours.append(by_mask)
        lines: list[int | dict[int, int]] = []
        for d_row, d_col in _DIRECTIONS:
            cells = []
            if on_board:
                r, c = row, col
                while 0 <= r - d_row < size and 0 <= c - d_col < size:
                    r, c = r - d_row, c - d_col
                while 0 <= r < size and 0 <= c < size:
                    cells.append((r, c))
                    r, c = r + d_row, c + d_col
            if len(cells) < 3:  # no room for a flip along this line
                lines += [0, {0: 0}]
                continue
            bits_along = [1 << (r * 8 + c) for r, c in cells]
            position = cells.index((row, col))
            lines += [sum(bits_along) ^ (1 << index), _line_flip_counts(bits_along, position)]
        last_lines.append(tuple(lines))
        region.append(1 << ((row >= half) * 2 + (col >= half)))
        bit = 1 << index
        if bit & geometry.corners:
            rank = 0
        elif bit & geometry.regions["x_square"]:
            rank = 3
        elif bit & geometry.regions["c_square"]:
            rank = 2
        else:
            rank = 1
        square_rank.append(rank)
    return EndgameTables(
        size,
        size * size,
        geometry.full,
        _lanes(geometry.full),
        _lanes(geometry.inner_cols),
        tuple(neighbours),
        tuple(rays_by_neighbours),
        tuple(last_lines),
        tuple(region),
        tuple(square_rank),
        geometry.corners,
        tuple(
            _lanes(geometry.corners & side)
            for side in (first_col, first_col << (size - 1), 0xFF, 0xFF << (8 * (size - 1)))
        ),
        _lanes(geometry.corners),
    )


def _lanes(mask: int) -> int:
    """``mask`` repeated in each of the :data:`MAX_LANES` lanes."""
    return sum(mask << (lane * LANE) for lane in range(MAX_LANES))


@functools.cache
def endgame_tables(size: int) -> EndgameTables:
    """The tables of one board size, built on first use (a fraction of a second for 8x8)
    and then shared: they are constants, never mutated."""
    return _build_tables(size)


def pack(boards: list[int]) -> int:
    """Boards side by side in one integer, :data:`LANE` bits apart, the first lowest."""
    packed = 0
    for lane, board in enumerate(boards):
        packed |= board << (lane * LANE)
    return packed


def unpack(packed: int, count: int) -> list[int]:
    """The ``count`` boards of a packed integer (see :func:`pack`)."""
    lane_mask = (1 << 64) - 1
    return [packed >> (lane * LANE) & lane_mask for lane in range(count)]


def corner_stable(discs: int, tables: EndgameTables) -> int:
    """The discs that can never be flipped because they are a corner or touch one of the
    same colour along an edge (a cheap part of stability), of packed boards (:func:`pack`)."""
    first_col, last_col, first_row, last_row = tables.corner_sides_lanes
    return (
        (discs & first_col) << 1
        | (discs & last_col) >> 1
        | (discs & first_row) << 8
        | (discs & last_row) >> 8
        | tables.corners_lanes
    ) & discs


def kernels(
    tables: EndgameTables,
) -> tuple[Callable[[int, int, int], int], Callable[[int, int], int]]:
    """``flips(square, player, opponent)`` and ``moves(player, opponent)`` for one size.

    Closures over the size's masks (so the hot loops read no attributes). ``moves``
    accepts packed boards (:func:`pack`, at most :data:`MAX_LANES`) as well as single ones.
    """
    rays_by_neighbours, neighbours = tables.rays_by_neighbours, tables.neighbours
    full, inner = tables.full_lanes, tables.inner_lanes

    def flips(square: int, player: int, opponent: int) -> int:
        """The discs ``player`` flips by playing ``square`` (0: not a legal move)."""
        # only rays that start with an opponent disc can flip anything
        ups, downs = rays_by_neighbours[square][opponent & neighbours[square]]
        flipped = 0
        for ray in ups:
            # the nearest square along the ray that is not the opponent's: the lowest bit
            # (positive integers only: cheaper than ``ray & ~opponent`` and ``x & -x``)
            stop = (ray | opponent) ^ opponent
            stop ^= stop & (stop - 1)
            if stop & player:
                flipped |= ray & (stop - 1)
        for ray in downs:
            # going down, the nearest such square is the highest bit
            stop = (ray | opponent) ^ opponent
            if stop:
                length = stop.bit_length()
                if player >> (length - 1) & 1:
                    flipped |= ray >> length << length
        return flipped

    def moves(player: int, opponent: int) -> int:
        """Bitboard of the legal moves (a run-doubling fill in each of the 8 directions)."""
        edge_safe = opponent & inner
        run = edge_safe & (player << 1)
        run |= edge_safe & (run << 1)
        pairs = edge_safe & (edge_safe << 1)
        run |= pairs & (run << 2)
        run |= pairs & (run << 2)
        found = run << 1
        run = edge_safe & (player >> 1)
        run |= edge_safe & (run >> 1)
        pairs >>= 1
        run |= pairs & (run >> 2)
        run |= pairs & (run >> 2)
        found |= run >> 1
        run = opponent & (player << 8)
        run |= opponent & (run << 8)
        pairs = opponent & (opponent << 8)
        run |= pairs & (run << 16)
        run |= pairs & (run << 16)
        found |= run << 8
        run = opponent & (player >> 8)
        run |= opponent & (run >> 8)
        pairs >>= 8
        run |= pairs & (run >> 16)
        run |= pairs & (run >> 16)
        found |= run >> 8
        run = edge_safe & (player << 7)
        run |= edge_safe & (run << 7)
        pairs = edge_safe & (edge_safe << 7)
        run |= pairs & (run << 14)
        run |= pairs & (run << 14)
        found |= run << 7
        run = edge_safe & (player >> 7)
        run |= edge_safe & (run >> 7)
        pairs >>= 7
        run |= pairs & (run >> 14)
        run |= pairs & (run >> 14)
        found |= run >> 7
        run = edge_safe & (player << 9)
        run |= edge_safe & (run << 9)
        pairs = edge_safe & (edge_safe << 9)
        run |= pairs & (run << 18)
        run |= pairs & (run << 18)
        found |= run << 9
        run = edge_safe & (player >> 9)
        run |= edge_safe & (run >> 9)
        pairs >>= 9
        run |= pairs & (run >> 18)
        run |= pairs & (run >> 18)
        found |= run >> 9
        return found & full & ~(player | opponent)

    return flips, moves
