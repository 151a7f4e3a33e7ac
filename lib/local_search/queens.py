"""The n-queens problem as local search sees it: a board, its attacking pairs, its neighbours.

A state has one queen per column: ``rows[c]`` is the row of column ``c``'s
queen (AIMA's complete-state formulation). A neighbour moves one queen to
another square of its column, so a state has ``n * (n - 1)`` neighbours. The
objective is AIMA's ``h``: the number of pairs of queens that attack each other,
directly or indirectly (on one row or one diagonal; columns never clash); a
solution has ``h = 0``.

:func:`attacking_pairs` counts ``h`` as the book defines it, pair by pair.
:class:`Board` keeps how many queens stand on each row and each diagonal, so
the ``h`` of any neighbour and a move are O(1); the tests check both against
the pair count.

>>> attacking_pairs((0, 1, 2, 3, 4, 5, 6, 7))   # all on one diagonal
28
>>> board = Board((4, 5, 6, 3, 4, 5, 6, 5))      # AIMA Figure 4.3(a)
>>> board.h
17
>>> board.h_after(1, 3), int(landscape(board.rows).min())
(14, 12)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from lib.errors import InputError
from lib.local_search.randomness import Uniforms

MIN_QUEENS = 8
MAX_QUEENS = 1_000_000


def check_n(n: object) -> int:
    """``n`` as a whole number of queens from 8 to 1,000,000, else an InputError naming it."""
    if isinstance(n, bool) or not isinstance(n, int | np.integer):
        raise InputError(
            f"The number of queens must be a whole number from {MIN_QUEENS} to "
            f"{MAX_QUEENS:,}; got {n!r}."
        )
    if not MIN_QUEENS <= n <= MAX_QUEENS:
        raise InputError(
            f"The number of queens must be from {MIN_QUEENS} to {MAX_QUEENS:,}; got {int(n):,}."
        )
    return int(n)


def check_state(rows: Sequence[int]) -> tuple[int, ...]:
    """``rows`` as a state (one row per column, each in ``0..n-1``), else an InputError."""
    n = len(rows)
    check_n(n)
    for column, row in enumerate(rows):
        if not isinstance(row, int | np.integer) or not 0 <= row < n:
            raise InputError(
                f"Column {column + 1}'s queen is on row {row!r}; rows go from 0 to {n - 1}."
            )
    return tuple(int(row) for row in rows)


def attacking_pairs(rows: Sequence[int]) -> int:
    """AIMA's ``h``: the pairs of queens on one row or one diagonal, counted pair by pair."""
    n = len(rows)
    return sum(
        1
        for a in range(n)
        for b in range(a + 1, n)
        if rows[a] == rows[b] or abs(rows[a] - rows[b]) == b - a
    )


def max_pairs(n: int) -> int:
    """The number of pairs of queens, ``n (n - 1) / 2``: the GA's fitness of a solution."""
    return n * (n - 1) // 2


class Board:
    """A state with its queens counted per row and per diagonal: neighbours' ``h`` in O(1).

    ``rows[c]`` is column ``c``'s row, or ``-1`` while a column is empty (a board
    being filled by :func:`greedy_start`). ``h`` is kept up to date by :meth:`move`.
    """

    def __init__(self, rows: Sequence[int]) -> None:
        n = self.n = len(rows)
        self.rows = [-1] * n
        self.on_row = [0] * n
        self.on_diagonal = [0] * (2 * n - 1)  # row - column + n - 1
        self.on_anti_diagonal = [0] * (2 * n - 1)  # row + column
        self.h = 0
        for column, row in enumerate(rows):
            if row >= 0:
                self.place(column, row)

    @classmethod
    def random(cls, n: int, rand: Uniforms) -> Board:
        """A board with each queen on a random row of its column (n numbers of ``rand``)."""
        return cls([rand.below(n) for _ in range(n)])

    def copy(self) -> Board:
        """An independent copy."""
        return Board(self.rows)

    def state(self) -> tuple[int, ...]:
        """The rows as a tuple (hashable, for records)."""
        return tuple(self.rows)

    def attacks(self, column: int, row: int) -> int:
        """The queens of other columns on the row or a diagonal of square (column, row)."""
        here = self.rows[column] == row
        return (
            self.on_row[row]
            + self.on_diagonal[row - column + self.n - 1]
            + self.on_anti_diagonal[row + column]
            - 3 * here
        )

    def h_after(self, column: int, row: int) -> int:
        """``h`` of the neighbour that moves column ``column``'s queen to ``row``."""
        if row == self.rows[column]:
            return self.h
        return self.h - self.attacks(column, self.rows[column]) + self.attacks(column, row)

    def place(self, column: int, row: int) -> None:
        """Put a queen on an empty column."""
        self.h += self.attacks(column, row)
        self.rows[column] = row
        self._count(column, row, 1)

    def move(self, column: int, row: int) -> None:
        """Move column ``column``'s queen to ``row``."""
        old = self.rows[column]
        self.h -= self.attacks(column, old)
        self._count(column, old, -1)
        self.rows[column] = -1
        self.place(column, row)

    def _count(self, column: int, row: int, change: int) -> None:
        self.on_row[row] += change
        self.on_diagonal[row - column + self.n - 1] += change
        self.on_anti_diagonal[row + column] += change

    def moves(self) -> Iterator[tuple[int, int]]:
        """Every neighbour as (column, new row): column by column, rows upwards."""
        for column in range(self.n):
            for row in range(self.n):
                if row != self.rows[column]:
                    yield column, row

    def random_move(self, rand: Uniforms) -> tuple[int, int]:
        """A random neighbour: a random queen to a random other square of its column."""
        column = rand.below(self.n)
        row = rand.below(self.n - 1)
        return column, row + (row >= self.rows[column])


def landscape(rows: Sequence[int]) -> np.ndarray:
    """AIMA Figure 4.3(a): ``h`` after moving each queen to each square of its column.

    ``grid[r, c]`` is the ``h`` of the neighbour with column ``c``'s queen on row
    ``r`` (the queen's own square holds the current ``h``).
    """
    board = Board(rows)
    grid = np.empty((board.n, board.n), dtype=np.int64)
    for column in range(board.n):
        for row in range(board.n):
            grid[row, column] = board.h_after(column, row)
    return grid


def pairs_of_counts(rows: np.ndarray) -> int:
    """``h`` of a large state from its counts per row and diagonal (NumPy, O(n))."""
    rows = np.asarray(rows, dtype=np.int64)
    n = len(rows)
    columns = np.arange(n)
    total = 0
    for line in (rows, rows - columns + n - 1, rows + columns):
        counts = np.bincount(line, minlength=2 * n - 1).astype(np.int64)
        total += int((counts * (counts - 1) // 2).sum())
    return total
