"""The Connect Four solver's negamax compiled by numba: the readable search, about 20x faster.

:class:`lib.games.connect_four.solver._Search` is the textbook version a student reads;
this module is the same algorithm written for numba's ``nopython`` mode, so it runs as
machine code on unsigned 64-bit bitboards:

* the same **position + mask** bitboards, **non-losing moves**, **threat ordering**
  (an insertion sort of at most seven moves, centre first on ties) and opponent's
  threats passed down to the child;
* a **transposition table in two NumPy arrays** (Pons' design): ``TABLE_SIZE`` slots,
  a prime number of them; a position's key ``position + mask`` (49 bits) picks the slot
  ``key % TABLE_SIZE`` and the slot keeps the key's low 32 bits and one byte for the
  bound. Two keys with the same slot and the same low 32 bits would differ by a multiple
  of both ``TABLE_SIZE`` and ``2**32``, so of more than ``2**49``: a match is the
  position itself. A new position overwrites the slot (only work is lost, never a
  right answer). The arrays belong to one solve (:func:`new_table`), never to the
  module, so two visitors never share one;
* the **book** as a sorted array of keys (binary search) and a bit set of its plies;
* a **node budget** instead of a clock: numba cannot read Python's clock cheaply, so
  :func:`negamax` returns :data:`ABORT` once ``counter[0]`` passes ``counter[1]``, storing
  nothing on the way up. The caller reads the clock, raises the budget and searches the
  same window again; the table keeps what the earlier chunks proved, so little is redone.

Compiled on first use and cached on disk (:func:`lib.games.jit.njit`): a fresh process loads the
machine code instead of compiling again (see ``bench/connect_four_solver.py``). The
search releases the GIL (``nogil=True``; it touches only its own arrays), so two
visitors' solves can run on two cores and the server stays responsive meanwhile.
"""

from __future__ import annotations

import numpy as np

from lib.games.connect_four import COLUMNS, STRIDE
from lib.games.jit import njit

TABLE_SIZE = 8_388_593
"""Slots of the transposition table: a prime just under ``2**23`` (about 42 MB with the bytes
of the bounds), so ``key % TABLE_SIZE`` and the low 32 bits together identify a 49-bit key."""
ABORT = 127
"""What :func:`negamax` returns when the node budget ran out (never a score: scores are ±21)."""
UNLIMITED = 1 << 62
"""A node budget no search reaches."""
_UPPER = 32
"""An upper bound ``b`` is stored as ``b + _UPPER`` (11..53), a lower bound as ``b + _LOWER``
(75..117); 0 is an empty slot."""
_LOWER = 96
_SQUARES = 42
_ONE = np.uint64(1)
_BOTTOM = np.uint64(sum(1 << (STRIDE * column) for column in range(COLUMNS)))
_BOARD = np.uint64(sum(((1 << 6) - 1) << (STRIDE * column) for column in range(COLUMNS)))
_CENTRE_FIRST = np.array([3, 2, 4, 1, 5, 0, 6], dtype=np.int64)
_LOW32 = np.uint64(0xFFFFFFFF)


def new_table(size: int = TABLE_SIZE) -> tuple[np.ndarray, np.ndarray]:
    """An empty transposition table for one solve: the keys' low 32 bits, and the bounds."""
    return np.zeros(size, dtype=np.uint32), np.zeros(size, dtype=np.int8)


def new_scratch() -> np.ndarray:
    """Room for each ply's ordered moves: ``[ply, 0, i]`` the square, ``[ply, 1, i]`` the
    threats it creates, ``[ply, 2, i]`` its rank (allocated once per solve, not per node)."""
    return np.zeros((_SQUARES + 1, 3, COLUMNS), dtype=np.uint64)


@njit()
def popcount(bits: np.uint64) -> int:
    """The number of set bits (SWAR: add neighbouring bit counts in parallel)."""
    bits = bits - ((bits >> np.uint64(1)) & np.uint64(0x5555555555555555))
    bits = (bits & np.uint64(0x3333333333333333)) + (
        (bits >> np.uint64(2)) & np.uint64(0x3333333333333333)
    )
    bits = (bits + (bits >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((bits * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit()
def winning_squares(position: np.uint64, mask: np.uint64) -> np.uint64:
    """The empty squares completing a four for the owner of ``position`` (as in the solver)."""
    p = position
    found = (p << np.uint64(1)) & (p << np.uint64(2)) & (p << np.uint64(3))
    for shift in (np.uint64(7), np.uint64(6), np.uint64(8)):
        up, up2 = p << shift, p << (shift + shift)
        down, down2 = p >> shift, p >> (shift + shift)
        found |= up & up2 & ((p << (np.uint64(3) * shift)) | down)
        found |= down & down2 & ((p >> (np.uint64(3) * shift)) | up)
    return found & (_BOARD ^ mask)


@njit()
def mirror_key(key: np.uint64) -> np.uint64:
    """The key of the left-right mirror image."""
    mirrored = np.uint64(0)
    lane_mask = np.uint64((1 << STRIDE) - 1)
    for column in range(COLUMNS):
        lane = (key >> np.uint64(STRIDE * column)) & lane_mask
        mirrored |= lane << np.uint64(STRIDE * (COLUMNS - 1 - column))
    return mirrored


@njit()
def _book_score(key: np.uint64, book_keys: np.ndarray, book_scores: np.ndarray) -> int:
    """The book's score of the position with ``key`` (or its mirror), :data:`ABORT` if absent."""
    twin = mirror_key(key)
    wanted = twin if twin < key else key
    index = np.searchsorted(book_keys, wanted)
    if index < book_keys.size and book_keys[index] == wanted:
        return int(book_scores[index])
    return ABORT


@njit()
def _ordered_moves(
    position: np.uint64, mask: np.uint64, possible: np.uint64, row: np.ndarray
) -> int:
    """Write the ``possible`` moves to ``row``, most new winning squares first, centre first on
    ties (insertion sort, stable); return how many."""
    count = 0
    for rank_index in range(COLUMNS):
        column = _CENTRE_FIRST[rank_index]
        move = possible & (np.uint64(0x3F) << np.uint64(STRIDE * column))
        if move:
            created = winning_squares(position | move, mask)
            rank = np.uint64(popcount(created))
            slot = count
            while slot > 0 and row[2, slot - 1] < rank:  # strictly fewer: earlier ties stay first
                row[0, slot], row[1, slot], row[2, slot] = (
                    row[0, slot - 1],
                    row[1, slot - 1],
                    row[2, slot - 1],
                )
                slot -= 1
            row[0, slot], row[1, slot], row[2, slot] = move, created, rank
            count += 1
    return count


@njit(nogil=True)
def negamax(
    position: np.uint64,
    mask: np.uint64,
    played: int,
    alpha: int,
    beta: int,
    threats: np.uint64,
    keys: np.ndarray,
    values: np.ndarray,
    book_keys: np.ndarray,
    book_scores: np.ndarray,
    book_plies: np.uint64,
    scratch: np.ndarray,
    counter: np.ndarray,
) -> int:
    """The score if it lies strictly inside ``(alpha, beta)``, else a bound beyond it, or
    :data:`ABORT` when ``counter[0]`` (nodes) passes ``counter[1]`` (the budget).

    Line for line :meth:`lib.games.connect_four.solver._Search.negamax`; ``threats`` are
    the opponent's winning squares. Precondition: the mover cannot win at once.
    """
    counter[0] += 1
    if counter[0] > counter[1]:
        return ABORT
    possible = (mask + _BOTTOM) & _BOARD
    forced = possible & threats
    if forced:
        if forced & (forced - _ONE):  # two threats to block: the opponent wins next move
            return -((_SQUARES - played) // 2)
        possible = forced
    possible &= ~(threats >> _ONE)  # never play right under an opponent's winning square
    if not possible:
        return -((_SQUARES - played) // 2)
    if played >= _SQUARES - 2:  # the last two discs cannot win for either side
        return 0
    lowest = -((_SQUARES - 2 - played) // 2)  # the opponent cannot win at once
    if alpha < lowest:
        alpha = lowest
        if alpha >= beta:
            return alpha
    highest = (_SQUARES - 1 - played) // 2  # the mover cannot win at once
    key = position + mask
    slot = key % np.uint64(keys.size)
    stored = int(values[slot])
    if stored and keys[slot] == np.uint32(key & _LOW32):
        if stored > (_UPPER + _LOWER) // 2:
            if alpha < stored - _LOWER:
                alpha = stored - _LOWER
                if alpha >= beta:
                    return alpha
        else:
            highest = min(highest, stored - _UPPER)
    if beta > highest:
        beta = highest
        if alpha >= beta:
            return beta
    if (book_plies >> np.uint64(played)) & _ONE:
        known = _book_score(key, book_keys, book_scores)
        if known != ABORT:
            return known
    row = scratch[played]
    count = _ordered_moves(position, mask, possible, row)
    opponent = position ^ mask
    for index in range(count):
        found = negamax(
            opponent, mask | row[0, index], played + 1, -beta, -alpha, row[1, index],
            keys, values, book_keys, book_scores, book_plies, scratch, counter,
        )  # fmt: skip
        if found == ABORT:  # out of nodes: unwind, storing nothing unproved
            return ABORT
        score = -found
        if score >= beta:
            keys[slot], values[slot] = np.uint32(key & _LOW32), np.int8(score + _LOWER)
            return score
        if score > alpha:
            alpha = score
    keys[slot], values[slot] = np.uint32(key & _LOW32), np.int8(alpha + _UPPER)
    return alpha


def load_compiled() -> None:
    """Have the compiled search ready before a solve's clock starts: run it once on a
    tiny budget. The first call in a process loads the machine code from numba's cache
    (about 0.5 s), or compiles it when the cache is cold (2-3 s, once per install); the
    first real solve, often on a clock of a quarter second, must not pay for that."""
    if negamax.signatures:  # already loaded in this process
        return
    keys, values = new_table(1)
    counter = np.array([0, 1], dtype=np.int64)
    empty = np.uint64(0)
    negamax(empty, empty, 0, -1, 1, empty, keys, values, np.zeros(0, dtype=np.uint64),
            np.zeros(0, dtype=np.int8), empty, new_scratch(), counter)  # fmt: skip
