"""Compiled bitboard kernels of the exact Othello endgame solver: legal moves, flips, counts.

The compiled search (:mod:`lib.games.othello.endgame_search`) is built from these.
They run as machine code (numba, :func:`lib.games.jit.njit`: compiled on first use and kept
on disk beside this file, so later processes load them in a fraction of a second) on
two ``numpy.uint64`` bitboards, the side to move's discs and the opponent's, in the
layout of :mod:`lib.games.othello` (square ``(row, col)`` is bit ``row * 8 + col``,
whatever the board size), and on one read-only table of masks per board size
(:func:`endgame_tables`):

* :func:`legal_moves`, every legal move at once by run-doubling shifts of the whole
  board in the eight directions (Kogge-Stone style: a run of opponent discs is
  extended by 1, then 2, then 2 more squares, instead of one square a step);
* :func:`flips`, the discs a move turns over, along precomputed rays: going up the
  board the first square that is not the opponent's is the ray's lowest such bit,
  going down its highest (one machine instruction each, see :func:`highest_square`);
* :func:`corner_stable`, a cheap part of stability used to order moves.

Bitboards stay ``uint64`` throughout: numba turns a mix of ``uint64`` and a plain
integer into a signed or floating type, so every constant mixed with a board is
a ``uint64`` constant too. Tests check each kernel against the plain state methods
of :mod:`lib.games.othello`.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import types
from numba.extending import intrinsic

from lib.games.jit import njit
from lib.games.othello import GEOMETRY

ZERO, ONE, ALL = np.uint64(0), np.uint64(1), np.uint64(2**64 - 1)

# columns of a square's row in the table of masks (rows 0-63: one per square)
UP_RAYS = 0
"""Columns 0-3: the rays from the square towards higher bits (east, south-west, south,
south-east); columns 4-7 the rays towards lower bits (west, north-east, north, north-west).
A ray holds every square of the board along its direction."""
NEIGHBOURS = 8  # the (up to 8) squares around the square
REGION = 9  # the bit of the square's parity region (its quadrant)
RANK = 10  # static preference: corners 0, X-squares 3, C-squares 2, the rest 1
# row BOARD of the table: masks of the whole board
BOARD = 64
FULL, INNER, CORNERS = 0, 1, 2  # every square; squares off the first and last column; corners
CORNER_SIDES = 3
"""Columns 3-6: the corners in the first column, last column, first row, last row."""
SQUARES = 7  # the number of squares (size * size)
_STEPS = (1, 7, 8, 9)  # bit steps of the four directions, taken up and down the board


def endgame_tables(size: int) -> np.ndarray:
    """The read-only table of masks of one board size (a ``uint64`` array of shape
    ``(65, 11)``: a row per square, then the board's row; see the column constants)."""
    return _endgame_tables(size).copy()


@functools.cache
def _endgame_tables(size: int) -> np.ndarray:
    """:func:`endgame_tables`, built once per size (callers get copies: nothing shared
    between sessions can be written)."""
    geometry = GEOMETRY[size]
    table = np.zeros((BOARD + 1, 11), dtype=np.uint64)
    half = size // 2
    for row in range(size):
        for col in range(size):
            square, bit = row * 8 + col, 1 << (row * 8 + col)
            for index, step in enumerate(_STEPS):
                d_row, d_col = (step + 1) // 8, step - 8 * ((step + 1) // 8)
                table[square, UP_RAYS + index] = _ray(row, col, d_row, d_col, size)
                table[square, UP_RAYS + 4 + index] = _ray(row, col, -d_row, -d_col, size)
            table[square, NEIGHBOURS] = sum(
                _ray(row, col, d_row, d_col, size) & _ring(row, col)
                for d_row in (-1, 0, 1)
                for d_col in (-1, 0, 1)
                if d_row or d_col
            )
            table[square, REGION] = 1 << ((row >= half) * 2 + (col >= half))
            if bit & geometry.corners:
                table[square, RANK] = 0
            elif bit & geometry.regions["x_square"]:
                table[square, RANK] = 3
            elif bit & geometry.regions["c_square"]:
                table[square, RANK] = 2
            else:
                table[square, RANK] = 1
    first_col = sum(1 << (row * 8) for row in range(size))
    sides = (first_col, first_col << (size - 1), 0xFF, 0xFF << (8 * (size - 1)))
    table[BOARD, FULL] = geometry.full
    table[BOARD, INNER] = geometry.inner_cols
    table[BOARD, CORNERS] = geometry.corners
    for index, side in enumerate(sides):
        table[BOARD, CORNER_SIDES + index] = geometry.corners & side
    table[BOARD, SQUARES] = size * size
    table.flags.writeable = False
    return table


def _ray(row: int, col: int, d_row: int, d_col: int, size: int) -> int:
    """The squares from ``(row, col)`` (excluded) to the board's edge in one direction."""
    ray = 0
    r, c = row + d_row, col + d_col
    while 0 <= r < size and 0 <= c < size:
        ray |= 1 << (r * 8 + c)
        r, c = r + d_row, c + d_col
    return ray


def _ring(row: int, col: int) -> int:
    """The squares around ``(row, col)`` on an unbounded 8-column grid (a mask to cut rays)."""
    ring = 0
    for r in (row - 1, row, row + 1):
        for c in (col - 1, col, col + 1):
            if (r, c) != (row, col) and 0 <= r < 8 and 0 <= c < 8:
                ring |= 1 << (r * 8 + c)
    return ring


# -- one machine instruction each ----------------------------------------------------------


@intrinsic
def bit_count(typingctx, board):
    """The number of discs of a ``uint64`` board (the CPU's population count)."""
    signature = types.int64(types.uint64)

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return signature, codegen


@intrinsic
def lowest_square(typingctx, board):
    """The index of the lowest set bit of a non-zero ``uint64`` board."""
    signature = types.int64(types.uint64)

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return signature, codegen


@intrinsic
def _leading_zeros(typingctx, board):
    signature = types.int64(types.uint64)

    def codegen(context, builder, sig, args):
        return builder.ctlz(args[0], context.get_constant(types.boolean, True))

    return signature, codegen


@njit(inline="always")
def highest_square(board: np.uint64) -> int:
    """The index of the highest set bit of a non-zero ``uint64`` board."""
    return 63 - _leading_zeros(board)


# -- the kernels ---------------------------------------------------------------------------


@njit()
def legal_moves(player: np.uint64, opponent: np.uint64, full: np.uint64, inner: np.uint64):
    """Bitboard of the legal moves of ``player`` (a run-doubling fill in each direction)."""
    edge_safe = opponent & inner
    found = ZERO
    for step, runs in ((1, edge_safe), (8, opponent), (7, edge_safe), (9, edge_safe)):
        double = 2 * step
        run = runs & (player << step)
        run |= runs & (run << step)
        pairs = runs & (runs << step)
        run |= pairs & (run << double)
        run |= pairs & (run << double)
        found |= run << step
        run = runs & (player >> step)
        run |= runs & (run >> step)
        pairs >>= step
        run |= pairs & (run >> double)
        run |= pairs & (run >> double)
        found |= run >> step
    return found & full & ~(player | opponent)


@njit()
def flips(square: int, player: np.uint64, opponent: np.uint64, tables: np.ndarray):
    """The discs ``player`` turns over by playing ``square`` (0: not a legal move there)."""
    flipped = ZERO
    free = ~opponent
    for index in range(4):
        # up the board: the nearest square along the ray that is not the opponent's
        ray = tables[square, UP_RAYS + index]
        stop = ray & free
        stop &= ~stop + ONE  # its lowest bit
        if stop & player:
            flipped |= ray & (stop - ONE)
        # down the board: the nearest is the highest bit
        ray = tables[square, UP_RAYS + 4 + index]
        stop = ray & free
        if stop:
            highest = highest_square(stop)
            if (player >> highest) & ONE:
                flipped |= ray & ((ALL << highest) << ONE)
    return flipped


@njit()
def corner_stable(discs: np.uint64, tables: np.ndarray):
    """The discs that can never be flipped because they are a corner or touch one of the
    same colour along an edge (a cheap part of stability)."""
    board = tables[BOARD]
    return (
        (discs & board[CORNER_SIDES]) << ONE
        | (discs & board[CORNER_SIDES + 1]) >> ONE
        | (discs & board[CORNER_SIDES + 2]) << np.uint64(8)
        | (discs & board[CORNER_SIDES + 3]) >> np.uint64(8)
        | board[CORNERS]
    ) & discs


@njit()
def final_margin(player: np.uint64, opponent: np.uint64, empty_count: int) -> int:
    """Margin of a finished game for ``player``, empties to the winner."""
    difference = bit_count(player) - bit_count(opponent)
    if difference > 0:
        return difference + empty_count
    if difference < 0:
        return difference - empty_count
    return 0
