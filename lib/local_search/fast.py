"""The fast paths: steepest ascent and min-conflicts on n-queens, compiled, O(1) per neighbour.

A board is four integer arrays: each column's row, and the number of queens on
each row, each diagonal (``row - column + n - 1``) and each anti-diagonal
(``row + column``). A neighbour's ``h`` is then three look-ups, and a move four
updates. The kernels read their random numbers from a
:class:`~lib.local_search.randomness.Uniforms` buffer in the order the textbook
code (:mod:`lib.local_search.textbook`) draws them, so from the same stream they
make the same choices and end on the same board; a kernel that runs short of
numbers returns, and its Python caller tops the buffer up and calls it again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from lib.games.jit import njit
from lib.local_search.randomness import Uniforms
from lib.local_search.textbook import GREEDY_TRIES

GOAL, STUCK, MORE, LIMIT = 0, 1, 2, 3
"""What a kernel stopped on: a solution, a local minimum, numbers used up, its step limit."""

STEP_CHUNK = 256
"""Min-conflicts steps per kernel call (progress and cancel are looked at between calls)."""


@dataclass
class Arrays:
    """A board as arrays: ``rows`` and the queens counted per row and per diagonal; ``h``."""

    rows: np.ndarray
    on_row: np.ndarray
    diagonal: np.ndarray
    anti: np.ndarray
    h: int

    @classmethod
    def of(cls, rows: np.ndarray | list[int]) -> Arrays:
        """The arrays of a full board."""
        rows = np.asarray(rows, dtype=np.int64)
        n = len(rows)
        columns = np.arange(n)
        on_row = np.bincount(rows, minlength=n).astype(np.int64)
        diagonal = np.bincount(rows - columns + n - 1, minlength=2 * n - 1).astype(np.int64)
        anti = np.bincount(rows + columns, minlength=2 * n - 1).astype(np.int64)
        h = sum(int((c * (c - 1) // 2).sum()) for c in (on_row, diagonal, anti))
        return cls(rows.copy(), on_row, diagonal, anti, h)

    @classmethod
    def empty(cls, n: int) -> Arrays:
        """An empty board (every row ``-1``)."""
        zeros = np.zeros(2 * n - 1, dtype=np.int64)
        return cls(np.full(n, -1, dtype=np.int64), np.zeros(n, np.int64), zeros, zeros.copy(), 0)

    def random(n: int, rand: Uniforms) -> Arrays:  # type: ignore[misc]
        """A random board, drawn as :meth:`lib.local_search.queens.Board.random` draws it."""
        rand.ensure(n)
        u = rand.buffer[rand.position : rand.position + n]
        rand.position += n
        return Arrays.of(np.minimum((u * n).astype(np.int64), n - 1))

    random = staticmethod(random)  # type: ignore[assignment]


@njit()
def _attacks(column, row, rows, on_row, diagonal, anti):  # pragma: no cover - compiled
    n = len(rows)
    here = 3 if rows[column] == row else 0
    return on_row[row] + diagonal[row - column + n - 1] + anti[row + column] - here


@njit()
def _move(column, row, rows, on_row, diagonal, anti, h):  # pragma: no cover - compiled
    n = len(rows)
    old = rows[column]
    if old >= 0:
        h -= _attacks(column, old, rows, on_row, diagonal, anti)
        on_row[old] -= 1
        diagonal[old - column + n - 1] -= 1
        anti[old + column] -= 1
        rows[column] = -1
    h += _attacks(column, row, rows, on_row, diagonal, anti)
    rows[column] = row
    on_row[row] += 1
    diagonal[row - column + n - 1] += 1
    anti[row + column] += 1
    return h


@njit()
def _climb(
    rows, on_row, diagonal, anti, h, sideways, max_sideways, u, pos, max_steps
):  # pragma: no cover
    """Steepest ascent from the board given; returns (h, sideways, pos, steps, why stopped)."""
    n = len(rows)
    best_columns = np.empty(n * (n - 1), np.int64)
    best_rows = np.empty(n * (n - 1), np.int64)
    steps = 0
    while h > 0:
        if steps == max_steps:
            return h, sideways, pos, steps, LIMIT
        if pos >= len(u):
            return h, sideways, pos, steps, MORE
        best = np.iinfo(np.int64).max
        count = 0
        for column in range(n):
            old = rows[column]
            base = h - _attacks(column, old, rows, on_row, diagonal, anti)
            for row in range(n):
                if row == old:
                    continue
                value = base + on_row[row] + diagonal[row - column + n - 1] + anti[row + column]
                if value < best:
                    best = value
                    count = 0
                if value == best:
                    best_columns[count] = column
                    best_rows[count] = row
                    count += 1
        if best > h:
            return h, sideways, pos, steps, STUCK
        if best == h:
            if sideways == max_sideways:
                return h, sideways, pos, steps, STUCK
            sideways += 1
        else:
            sideways = 0
        k = min(int(u[pos] * count), count - 1)
        pos += 1
        h = _move(best_columns[k], best_rows[k], rows, on_row, diagonal, anti, h)
        steps += 1
    return h, sideways, pos, steps, GOAL


def hill_climbing(
    board: Arrays, rand: Uniforms, max_sideways: int = 0, max_steps: int = 10**9
) -> tuple[int, bool]:
    """:func:`lib.local_search.textbook.hill_climbing` on ``board`` (changed in place).

    Returns the steps taken and whether ``max_steps`` cut the climb short.
    """
    sideways, steps = 0, 0
    while True:
        rand.ensure(64)
        h, sideways, pos, taken, why = _climb(
            board.rows, board.on_row, board.diagonal, board.anti, board.h,
            sideways, max_sideways, rand.buffer, rand.position, max_steps - steps,
        )  # fmt: skip
        board.h, rand.position, steps = int(h), int(pos), steps + int(taken)
        if why != MORE:
            return steps, why == LIMIT


def random_restart(
    n: int, rand: Uniforms, max_sideways: int = 0, max_restarts: int = 1_000
) -> tuple[Arrays, int, int]:
    """:func:`lib.local_search.textbook.random_restart`: the board, the steps and the restarts."""
    board = Arrays.random(n, rand)
    steps = hill_climbing(board, rand, max_sideways)[0]
    restarts = 0
    while board.h > 0 and restarts < max_restarts:
        restarts += 1
        board = Arrays.random(n, rand)
        steps += hill_climbing(board, rand, max_sideways)[0]
    return board, steps, restarts


@njit()
def _greedy(column, tries, free, rows, on_row, diagonal, anti, h, u, pos):  # pragma: no cover
    """Place queens from ``column`` on; (next column, h, pos) when done or short of numbers."""
    n = len(rows)
    while column < n:
        if pos + tries > len(u):
            return column, h, pos
        best, best_j = np.iinfo(np.int64).max, column
        for _ in range(min(tries, n - column)):
            j = column + min(int(u[pos] * (n - column)), n - column - 1)
            pos += 1
            conflicts = _attacks(column, free[j], rows, on_row, diagonal, anti)
            if conflicts < best:
                best, best_j = conflicts, j
            if conflicts == 0:
                break
        free[column], free[best_j] = free[best_j], free[column]
        h = _move(column, free[column], rows, on_row, diagonal, anti, h)
        column += 1
    return column, h, pos


def greedy_start(n: int, rand: Uniforms, tries: int = GREEDY_TRIES) -> Arrays:
    """:func:`lib.local_search.textbook.greedy_start` on arrays."""
    board = Arrays.empty(n)
    free = np.arange(n, dtype=np.int64)
    column = 0
    while column < n:
        rand.ensure(max(tries, 1 << 16))
        column, h, pos = _greedy(
            column, tries, free, board.rows, board.on_row, board.diagonal, board.anti,
            board.h, rand.buffer, rand.position,
        )  # fmt: skip
        board.h, rand.position = int(h), int(pos)
    return board


@njit()
def _conflicted(rows, on_row, diagonal, anti, candidates):  # pragma: no cover - compiled
    """Write the conflicted columns, in order, at the start of ``candidates``; their count."""
    count = 0
    for c in range(len(rows)):
        if _attacks(c, rows[c], rows, on_row, diagonal, anti) > 0:
            candidates[count] = c
            count += 1
    return count


@njit()
def _min_conflicts(
    rows, on_row, diagonal, anti, h, u, pos, steps, candidates, count, ties, hs
):  # pragma: no cover
    """Up to ``steps`` min-conflicts steps, ``h`` after each in ``hs``: (h, steps, pos, count).

    ``candidates[:count]`` holds, in order, every conflicted column and maybe a few
    more (a queen another queen's move freed): each step first drops those, then
    picks among the rest, so the picks are the textbook's. A move onto an attacked
    square adds the queens it attacks, found by one pass over the columns.
    """
    n = len(rows)
    taken = 0
    while h > 0 and taken < steps:
        kept = 0
        for i in range(count):
            c = candidates[i]
            if _attacks(c, rows[c], rows, on_row, diagonal, anti) > 0:
                candidates[kept] = c
                kept += 1
        count = kept
        column = candidates[min(int(u[pos] * count), count - 1)]
        pos += 1
        fewest, tied = np.iinfo(np.int64).max, 0
        for r in range(n):
            a = _attacks(column, r, rows, on_row, diagonal, anti)
            if a < fewest:
                fewest, tied = a, 0
            if a == fewest:
                ties[tied] = r
                tied += 1
        row = ties[min(int(u[pos] * tied), tied - 1)]
        pos += 1
        h = _move(column, row, rows, on_row, diagonal, anti, h)
        hs[taken] = h
        taken += 1
        if fewest > 0:  # the queens it now attacks join the candidates
            for c in range(n):
                r = rows[c]
                if c == column or r == row or r - c == row - column or r + c == row + column:
                    candidates[count] = c
                    count += 1
            merged = np.unique(candidates[:count])
            count = len(merged)
            candidates[:count] = merged
    return h, taken, pos, count


def min_conflicts(
    board: Arrays,
    rand: Uniforms,
    max_steps: int,
    on_progress: Callable[[int, int], None] | None = None,
    history: list[int] | None = None,
) -> int:
    """:func:`lib.local_search.textbook.min_conflicts` on ``board`` (changed in place); the steps.

    ``on_progress(steps, h)`` is called every :data:`STEP_CHUNK` steps; ``history``
    gets ``h`` after each step.
    """
    n = len(board.rows)
    # a column can be added twice before duplicates are merged: room for 2n
    candidates = np.empty(2 * n + 1, dtype=np.int64)
    ties = np.empty(n, dtype=np.int64)
    count = _conflicted(board.rows, board.on_row, board.diagonal, board.anti, candidates)
    hs = np.empty(STEP_CHUNK, dtype=np.int64)
    steps = 0
    while board.h > 0 and steps < max_steps:
        chunk = min(STEP_CHUNK, max_steps - steps)
        rand.ensure(2 * chunk)
        h, taken, pos, count = _min_conflicts(
            board.rows, board.on_row, board.diagonal, board.anti, board.h,
            rand.buffer, rand.position, chunk, candidates, count, ties, hs,
        )  # fmt: skip
        board.h, rand.position, steps = int(h), int(pos), steps + int(taken)
        if history is not None:
            history.extend(hs[:taken].tolist())
        if on_progress is not None:
            on_progress(steps, board.h)
    return steps
