"""The compiled search of the exact Othello endgame solver: fail-soft alpha-beta on bitboards.

:mod:`lib.games.othello.endgame` drives it (the narrow-window tests, the root, the
clock); everything below a root move runs here as machine code (numba, cached on
disk like :mod:`lib.games.othello.endgame_kernels`), with no Python object in the loop:

* :func:`deep`, far from the end: **fastest-first** ordering (moves leaving the
  opponent the fewest replies first, then those giving the mover more discs made
  safe by a corner), a **transposition table** held in a NumPy array (bounds and
  best move of each position, two slots per bucket, the position nearer the root
  kept), the table's best move searched first, and **enhanced transposition
  cut-offs** (a child already known to refute the window ends the node at once);
* :func:`shallow`, for the last :data:`SHALLOW_EMPTIES` empty squares: no move
  generation, the empty squares tried in **parity** order (squares in regions with
  an odd number of empties first: whoever plays last in a region tends to keep its
  discs), and one unrolled function for each of the last four (:func:`last4` ...
  :func:`last1`, which only counts flips).

Everything a search writes lives in a :class:`Workspace` made per solve: the table,
the per-ply buffers of children and empty squares, and the control array (nodes
visited, the node budget, the "stopped" flag). Nothing is shared between solves or
sessions. A search stops (returning 0 with the flag set, storing nothing on the way
up) once the node count reaches the budget, so its caller can look at the clock and
start it again: the table keeps the work done, and the search resumes quickly.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from lib.games.jit import njit
from lib.games.othello.endgame_kernels import (
    BOARD,
    CORNERS,
    FULL,
    INNER,
    NEIGHBOURS,
    ONE,
    RANK,
    REGION,
    SQUARES,
    ZERO,
    bit_count,
    corner_stable,
    final_margin,
    flips,
    legal_moves,
    lowest_square,
)

MAX_MARGIN = 64
"""No final margin exceeds the number of squares (64 on 8x8)."""

SHALLOW_EMPTIES = 6
"""At this many empty squares or fewer the dedicated last-empties solver takes over."""

SHALLOW_TABLE_EMPTIES = 6
"""Positions handed to the last-empties solver with this many empties keep their bounds in
the table too: the narrow-window tests search the same positions again and again."""

TABLE_MIN_EMPTIES = 7
"""Positions far from the end (at least this many empties) keep bounds and best move."""

STABLE_WEIGHT = 2
"""In the fastest-first key, one reply of the opponent weighs 16 and one disc of the mover made
unflippable by a corner weighs this much (a tie-break among moves leaving as many replies)."""

UNKNOWN = np.uint64(2**64 - 1)
"""``moves`` argument of :func:`deep` when the legal moves are not known yet."""

NODES, BUDGET, STOPPED = 0, 1, 2
"""Slots of the control array: positions visited, the count at which to stop, the flag."""

MAX_CHILDREN = 64
_KEY_OFFSET = 1024  # keeps fastest-first keys (which may be negative) in a uint64
# the columns of a child in the buffer of children: sort key, square, the mover's discs
# after the move, the opponent's, the opponent's legal moves there
_KEY, _SQUARE, _PLAYER, _OPPONENT, _REPLIES = range(5)
_HASH_1, _HASH_2 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F)
_MIX_1, _MIX_2 = np.uint64(0xFF51AFD7ED558CCD), np.uint64(0xC4CEB9FE1A85EC53)


class Workspace(NamedTuple):
    """What one solve's searches write (see the module docstring)."""

    table: np.ndarray  # uint64 (entries, 3): the two boards of a position, its packed data
    children: np.ndarray  # uint64 (65, MAX_CHILDREN, 5): each ply's children (by empties)
    squares: np.ndarray  # int64 (65, 64): each ply's empty squares near the end (by empties)
    control: np.ndarray  # int64 (3,): NODES, BUDGET, STOPPED


def new_workspace(table_bits: int, budget: int = 2**62) -> Workspace:
    """A fresh workspace with a table of ``2 ** table_bits`` entries (at least 2)."""
    control = np.zeros(3, dtype=np.int64)
    control[BUDGET] = budget
    return Workspace(
        np.zeros((1 << max(1, table_bits), 3), dtype=np.uint64),
        np.zeros((65, MAX_CHILDREN, 5), dtype=np.uint64),
        np.zeros((65, 64), dtype=np.int64),
        control,
    )


# -- the transposition table ----------------------------------------------------------------


@njit()
def _bucket(table: np.ndarray, player: np.uint64, opponent: np.uint64) -> int:
    """The first of the two slots where a position may be kept.

    A product's low bits depend only on its factor's low bits, so the two products are
    mixed again (MurmurHash3's finaliser): otherwise positions differing only near the
    end of the board (its highest bits) would share one bucket and evict each other.
    """
    mixed = (player * _HASH_1) ^ (opponent * _HASH_2)
    mixed ^= mixed >> np.uint64(33)
    mixed *= _MIX_1
    mixed ^= mixed >> np.uint64(33)
    mixed *= _MIX_2
    mixed ^= mixed >> np.uint64(33)
    return np.int64(mixed & np.uint64(table.shape[0] - 2))


@njit()
def probe(table: np.ndarray, player: np.uint64, opponent: np.uint64) -> int:
    """The slot holding the position, or -1."""
    slot = _bucket(table, player, opponent)
    for index in range(slot, slot + 2):
        if table[index, 0] == player and table[index, 1] == opponent:
            return index
    return -1


@njit()
def lower_bound(table: np.ndarray, slot: int) -> int:
    """The lower bound of the margin kept in ``slot``."""
    return int(table[slot, 2] & np.uint64(0xFF)) - 128


@njit()
def upper_bound(table: np.ndarray, slot: int) -> int:
    """The upper bound of the margin kept in ``slot``."""
    return int((table[slot, 2] >> np.uint64(8)) & np.uint64(0xFF)) - 128


@njit()
def best_square(table: np.ndarray, slot: int) -> int:
    """The best move kept in ``slot`` (-1: none)."""
    return int((table[slot, 2] >> np.uint64(16)) & np.uint64(0xFF)) - 1


@njit()
def store(
    table: np.ndarray,
    player: np.uint64,
    opponent: np.uint64,
    empties: int,
    lower: int,
    upper: int,
    square: int,
) -> None:
    """Keep bounds and best move; a new position takes the slot of its bucket that is
    free, else the one nearer the end (fewer empties: cheaper to search again)."""
    slot = _bucket(table, player, opponent)
    if not (table[slot, 0] == player and table[slot, 1] == opponent):
        other = slot + 1
        held = table[slot, 0] | table[slot, 1]
        if (table[other, 0] == player and table[other, 1] == opponent) or (
            held and table[other, 2] >> np.uint64(24) <= table[slot, 2] >> np.uint64(24)
        ):
            slot = other
    table[slot, 0] = player
    table[slot, 1] = opponent
    table[slot, 2] = (
        np.uint64(lower + 128)
        | (np.uint64(upper + 128) << np.uint64(8))
        | (np.uint64(square + 1) << np.uint64(16))
        | (np.uint64(empties) << np.uint64(24))
    )


@njit()
def _record(
    table: np.ndarray,
    player: np.uint64,
    opponent: np.uint64,
    empties: int,
    lower: int,
    upper: int,
    alpha: int,
    beta: int,
    value: int,
    square: int,
) -> None:
    """Record what a fail-soft search with window (alpha, beta) proved, narrowing the bounds
    ``lower``, ``upper`` known when the search began (read then: the search below may have
    given the position's slot to another since)."""
    if value <= alpha:
        upper = min(upper, value)
    elif value >= beta:
        lower = max(lower, value)
    else:
        lower = upper = value
    store(table, player, opponent, empties, lower, upper, square)


# -- near the end: the last empties, by parity --------------------------------------------


@njit()
def parity_order(player: np.uint64, opponent: np.uint64, tables: np.ndarray, out: np.ndarray):
    """Write the empty squares into ``out``, those in regions with an odd number of
    empties first, by static rank within each group, then by square; return their count."""
    empty = tables[BOARD, FULL] & ~(player | opponent)
    parity = ZERO
    rest = empty
    while rest:
        square = lowest_square(rest)
        rest &= rest - ONE
        parity ^= tables[square, REGION]
    count = 0
    for odd in (True, False):
        for rank in range(4):
            rest = empty
            while rest:
                square = lowest_square(rest)
                rest &= rest - ONE
                if (
                    int(tables[square, RANK]) == rank
                    and bool(parity & tables[square, REGION]) == odd
                ):
                    out[count] = square
                    count += 1
    return count


@njit()
def last1(player: np.uint64, square: int, tables: np.ndarray, control: np.ndarray) -> int:
    """Margin with one empty square: only the number of flipped discs matters."""
    control[NODES] += 1
    squares = int(tables[BOARD, SQUARES])
    opponent = tables[BOARD, FULL] & ~player & ~(ONE << square)
    mine = bit_count(player)
    count = bit_count(flips(square, player, opponent, tables))
    if count:  # I play the square
        return 2 * (mine + 1 + count) - squares
    count = bit_count(flips(square, opponent, player, tables))
    if count:  # I pass, the opponent plays it
        return 2 * (mine - count) - squares
    # nobody can play there: the empty square goes to the winner
    difference = 2 * mine + 1 - squares
    return difference + 1 if difference > 0 else difference - 1


@njit()
def last2(player, opponent, alpha, beta, first, second, tables, control) -> int:
    """Margin with two empty squares ``first`` and ``second``."""
    control[NODES] += 1
    best = -MAX_MARGIN - 1
    if opponent & tables[first, NEIGHBOURS]:
        flipped = flips(first, player, opponent, tables)
        if flipped:
            best = -last1(opponent ^ flipped, second, tables, control)
            if best >= beta:
                return best
    if opponent & tables[second, NEIGHBOURS]:
        flipped = flips(second, player, opponent, tables)
        if flipped:
            value = -last1(opponent ^ flipped, first, tables, control)
            if value > best:
                best = value
    if best > -MAX_MARGIN - 1:
        return best
    if flips(first, opponent, player, tables) or flips(second, opponent, player, tables):
        return -last2(opponent, player, -beta, -alpha, first, second, tables, control)
    return final_margin(player, opponent, 2)


@njit()
def last3(player, opponent, alpha, beta, first, second, third, tables, control) -> int:
    """Margin with three empty squares (in parity order)."""
    control[NODES] += 1
    best = -MAX_MARGIN - 1
    for index in range(3):
        square, one, two = first, second, third
        if index == 1:
            square, one, two = second, first, third
        elif index == 2:
            square, one, two = third, first, second
        if not opponent & tables[square, NEIGHBOURS]:
            continue
        flipped = flips(square, player, opponent, tables)
        if not flipped:
            continue
        value = -last2(
            opponent ^ flipped,
            player | flipped | (ONE << square),
            -beta,
            -max(alpha, best),
            one,
            two,
            tables,
            control,
        )
        if value > best:
            best = value
            if value >= beta:
                return best
    if best > -MAX_MARGIN - 1:
        return best
    if (
        flips(first, opponent, player, tables)
        or flips(second, opponent, player, tables)
        or flips(third, opponent, player, tables)
    ):
        return -last3(opponent, player, -beta, -alpha, first, second, third, tables, control)
    return final_margin(player, opponent, 3)


@njit()
def last4(player, opponent, alpha, beta, first, second, third, fourth, tables, control) -> int:
    """Margin with four empty squares (in parity order)."""
    control[NODES] += 1
    best = -MAX_MARGIN - 1
    for index in range(4):
        square, one, two, three = first, second, third, fourth
        if index == 1:
            square, one = second, first
        elif index == 2:
            square, one, two = third, first, second
        elif index == 3:
            square, one, two, three = fourth, first, second, third
        if not opponent & tables[square, NEIGHBOURS]:
            continue
        flipped = flips(square, player, opponent, tables)
        if not flipped:
            continue
        value = -last3(
            opponent ^ flipped,
            player | flipped | (ONE << square),
            -beta,
            -max(alpha, best),
            one,
            two,
            three,
            tables,
            control,
        )
        if value > best:
            best = value
            if value >= beta:
                return best
    if best > -MAX_MARGIN - 1:
        return best
    for square in (first, second, third, fourth):
        if flips(square, opponent, player, tables):
            return -last4(
                opponent, player, -beta, -alpha, first, second, third, fourth, tables, control
            )
    return final_margin(player, opponent, 4)


@njit()
def shallow(player, opponent, alpha, beta, count, tables, squares, control) -> int:
    """Fail-soft alpha-beta over the ``count`` empty squares in ``squares[count]`` (in
    parity order; each ply writes its own row), the last four by :func:`last4` ..."""
    empties = squares[count]
    if count == 4:
        return last4(
            player,
            opponent,
            alpha,
            beta,
            empties[0],
            empties[1],
            empties[2],
            empties[3],
            tables,
            control,
        )
    if count == 3:
        return last3(
            player, opponent, alpha, beta, empties[0], empties[1], empties[2], tables, control
        )
    if count == 2:
        return last2(player, opponent, alpha, beta, empties[0], empties[1], tables, control)
    if count == 1:  # the side to move may have to pass: last1 counts both sides' flips
        return last1(player, empties[0], tables, control)
    if count == 0:
        return final_margin(player, opponent, 0)
    control[NODES] += 1
    best = -MAX_MARGIN - 1
    below = squares[count - 1]
    for index in range(count):
        square = empties[index]
        if not opponent & tables[square, NEIGHBOURS]:
            continue
        flipped = flips(square, player, opponent, tables)
        if not flipped:
            continue
        below[:index] = empties[:index]
        below[index : count - 1] = empties[index + 1 : count]
        value = -shallow(
            opponent ^ flipped,
            player | flipped | (ONE << square),
            -beta,
            -max(alpha, best),
            count - 1,
            tables,
            squares,
            control,
        )
        if value > best:
            best = value
            if value >= beta:
                return best
    if best > -MAX_MARGIN - 1:
        return best
    # no move: pass if the opponent can play, else the game is over
    for index in range(count):
        if flips(empties[index], opponent, player, tables):
            return -shallow(opponent, player, -beta, -alpha, count, tables, squares, control)
    return final_margin(player, opponent, count)


@njit()
def shallow_with_table(player, opponent, alpha, beta, tables, table, squares, control) -> int:
    """:func:`shallow` at :data:`SHALLOW_TABLE_EMPTIES` empties behind the table's bounds (no
    best move: the last-empties solver keeps its own parity order)."""
    slot = probe(table, player, opponent)
    lower, upper = -MAX_MARGIN, MAX_MARGIN
    if slot >= 0:
        lower, upper = lower_bound(table, slot), upper_bound(table, slot)
        if lower >= beta:
            return lower
        if upper <= alpha or lower == upper:
            return upper
        alpha, beta = max(alpha, lower), min(beta, upper)
    count = parity_order(player, opponent, tables, squares[SHALLOW_TABLE_EMPTIES])
    value = shallow(player, opponent, alpha, beta, count, tables, squares, control)
    _record(table, player, opponent, count, lower, upper, alpha, beta, value, -1)
    return value


# -- far from the end: move generation, fastest first, the table ------------------------


@njit()
def ordered_children(player, opponent, moves, tables, out) -> int:
    """Write the children of a position into ``out`` (rows: sort key, square, the mover's
    discs, the opponent's, the opponent's replies), best-looking first; return their count.

    Fastest first: fewest opponent replies (weighted by 16, a corner reply twice) first,
    then most discs made safe by a corner (:data:`STABLE_WEIGHT`), corners before other
    squares before X-squares, then the lower square.
    """
    full, inner, corners = tables[BOARD, FULL], tables[BOARD, INNER], tables[BOARD, CORNERS]
    count = 0
    while moves:
        square = lowest_square(moves)
        moves &= moves - ONE
        flipped = flips(square, player, opponent, tables)
        new_player = player | flipped | (ONE << square)
        new_opponent = opponent ^ flipped
        replies = legal_moves(new_opponent, new_player, full, inner)
        key = (
            _KEY_OFFSET
            + 16 * (bit_count(replies) + bit_count(replies & corners))
            - STABLE_WEIGHT * bit_count(corner_stable(new_player, tables))
            + int(tables[square, RANK])
        )
        # insertion sort, stable: ties stay in increasing square order
        index = count
        while index > 0 and out[index - 1, _KEY] > key:
            out[index] = out[index - 1]
            index -= 1
        out[index, _KEY] = key
        out[index, _SQUARE] = square
        out[index, _PLAYER] = new_player
        out[index, _OPPONENT] = new_opponent
        out[index, _REPLIES] = replies
        count += 1
    return count


@njit()
def _refuting_child(table, children, count, beta):
    """Enhanced transposition cut-off: (the index of a child the table already knows to
    refute the window, the mover's margin it proves), or (-1, 0)."""
    for index in range(count):
        child = probe(table, children[index, _OPPONENT], children[index, _PLAYER])
        if child >= 0 and -upper_bound(table, child) >= beta:
            return index, -upper_bound(table, child)
    return -1, 0


@njit(nogil=True)
def deep(player, opponent, alpha, beta, empties, moves, memory):
    """Fail-soft alpha-beta with fastest-first ordering and the transposition table.

    ``moves``: the legal moves of ``player`` when known (the parent found them while
    ordering its children), else :data:`UNKNOWN`. ``memory``: the search's working
    arrays, one tuple passed down unchanged (``tables, table, children, squares,
    control``). Returns 0 with ``control[STOPPED]`` set when the node budget ran out
    (nothing is stored on the way up then).
    """
    tables, table, children, squares, control = memory
    if empties <= SHALLOW_EMPTIES:
        if empties < SHALLOW_TABLE_EMPTIES:
            count = parity_order(player, opponent, tables, squares[empties])
            return shallow(player, opponent, alpha, beta, count, tables, squares, control)
        return shallow_with_table(player, opponent, alpha, beta, tables, table, squares, control)
    control[NODES] += 1
    if control[NODES] >= control[BUDGET]:
        control[STOPPED] = 1
        return 0
    slot = probe(table, player, opponent)
    lower, upper, hint = -MAX_MARGIN, MAX_MARGIN, -1
    if slot >= 0:
        lower, upper = lower_bound(table, slot), upper_bound(table, slot)
        hint = best_square(table, slot)
        if lower >= beta:
            return lower
        if upper <= alpha or lower == upper:
            return upper
        alpha, beta = max(alpha, lower), min(beta, upper)
    if moves == UNKNOWN:
        moves = legal_moves(player, opponent, tables[BOARD, FULL], tables[BOARD, INNER])
    if not moves:
        if not legal_moves(opponent, player, tables[BOARD, FULL], tables[BOARD, INNER]):
            return final_margin(player, opponent, empties)
        value = deep(opponent, player, -beta, -alpha, empties, UNKNOWN, memory)
        return -value
    best, best_move = -MAX_MARGIN - 1, -1
    if hint >= 0 and (moves >> np.uint64(hint)) & ONE:
        # the table's best move first, before the cost of ordering the others
        flipped = flips(hint, player, opponent, tables)
        best = -deep(
            opponent ^ flipped,
            player | flipped | (ONE << hint),
            -beta,
            -alpha,
            empties - 1,
            UNKNOWN,
            memory,
        )
        if control[STOPPED]:
            return 0
        best_move = hint
        if best >= beta:
            _record(table, player, opponent, empties, lower, upper, alpha, beta, best, best_move)
            return best
        moves ^= ONE << hint
    mine = children[empties]
    count = ordered_children(player, opponent, moves, tables, mine)
    if empties - 1 >= TABLE_MIN_EMPTIES:
        index, value = _refuting_child(table, mine, count, beta)
        if index >= 0:
            square = np.int64(mine[index, _SQUARE])
            _record(table, player, opponent, empties, lower, upper, alpha, beta, value, square)
            return value
    for index in range(count):
        value = -deep(
            mine[index, _OPPONENT],
            mine[index, _PLAYER],
            -beta,
            -max(alpha, best),
            empties - 1,
            mine[index, _REPLIES],
            memory,
        )
        if control[STOPPED]:
            return 0
        if value > best:
            best, best_move = value, np.int64(mine[index, _SQUARE])
            if value >= beta:
                break
    _record(table, player, opponent, empties, lower, upper, alpha, beta, best, best_move)
    return best
