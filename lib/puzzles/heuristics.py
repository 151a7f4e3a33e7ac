"""The puzzle heuristics: misplaced tiles (h1), Manhattan (h2), linear conflict, pattern database.

Each estimates the moves left to the goal (blank top left) and never
overestimates. Every one takes a board and returns an integer; ``h(u, v)``
adapters for the route searches are made by :func:`for_search`. The pattern
database heuristic (15-puzzle) lives in :mod:`lib.puzzles.pdb` and is
registered here under ``"pdb"``.

>>> from lib.puzzles.board import parse_board
>>> b = parse_board("7 2 4 5 0 6 8 3 1")  # AIMA's Figure 3.28 start, blank top left goal
>>> misplaced(b), manhattan(b)
(8, 18)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from lib.puzzles.board import Board, width_of

BoardHeuristic = Callable[[Board], int]


def zero(board: Board) -> int:
    """``h = 0``: no estimate (A* becomes uniform-cost search)."""
    return 0


def misplaced(board: Board) -> int:
    """h1: the number of tiles (blank not counted) not on their goal square."""
    return sum(1 for pos, tile in enumerate(board) if tile and tile != pos)


@cache
def _distances(width: int) -> tuple[tuple[int, ...], ...]:
    """``table[tile][pos]``: the Manhattan distance of ``tile`` at ``pos`` from its goal square."""
    return tuple(
        tuple(
            0 if tile == 0 else abs(pos // width - tile // width) + abs(pos % width - tile % width)
            for pos in range(width * width)
        )
        for tile in range(width * width)
    )


def manhattan(board: Board) -> int:
    """h2: the sum over tiles of the rows plus columns between each and its goal square."""
    table = _distances(width_of(board))
    return sum(table[tile][pos] for pos, tile in enumerate(board))


def _longest_increasing(values: list[int]) -> int:
    """The length of the longest strictly increasing subsequence of ``values``."""
    tails: list[int] = []
    for v in values:
        i = bisect_left(tails, v)
        tails[i : i + 1] = [v]
    return len(tails)


def line_conflicts(board: Board) -> int:
    """Moves linear conflict adds to Manhattan distance: 2 for each tile that must leave its line.

    In each row, the tiles whose goal is in that row must end in the order of
    their goal columns; those outside a longest run already in order must
    step out of the row and back (two moves more than Manhattan counts).
    The same for columns. Taking the fewest tiles out (a longest increasing
    subsequence) keeps the estimate admissible.
    """
    width = width_of(board)
    extra = 0
    for line in range(width):
        row = [board[line * width + c] for c in range(width)]
        goals = [t % width for t in row if t and t // width == line]
        extra += len(goals) - _longest_increasing(goals)
        col = [board[r * width + line] for r in range(width)]
        goals = [t // width for t in col if t and t % width == line]
        extra += len(goals) - _longest_increasing(goals)
    return 2 * extra


def linear_conflict(board: Board) -> int:
    """Manhattan distance plus the linear conflicts (Hansson, Mayer and Yung 1992)."""
    return manhattan(board) + line_conflicts(board)


@dataclass(frozen=True)
class HeuristicInfo:
    """How the page and command line present a heuristic."""

    key: str
    label: str
    function: BoardHeuristic
    widths: tuple[int, ...] = (3, 4)


def _pdb(board: Board) -> int:
    from lib.puzzles.pdb import pdb_heuristic  # built on first use (seconds), then cached on disk

    return pdb_heuristic(board)


HEURISTICS: dict[str, HeuristicInfo] = {
    "zero": HeuristicInfo("zero", "h = 0 (none)", zero),
    "h1": HeuristicInfo("h1", "h1: misplaced tiles", misplaced),
    "h2": HeuristicInfo("h2", "h2: Manhattan distance", manhattan),
    "lc": HeuristicInfo("lc", "Linear conflict", linear_conflict),
    "pdb": HeuristicInfo("pdb", "Pattern database (5-5-5, 15-puzzle)", _pdb, (4,)),
}


def heuristic(key: str) -> BoardHeuristic:
    """The heuristic registered as ``key`` (raises :class:`~lib.errors.InputError` if unknown)."""
    from lib.errors import InputError

    if key not in HEURISTICS:
        raise InputError(f"Unknown heuristic {key!r}; choose one of {', '.join(HEURISTICS)}.")
    return HEURISTICS[key].function


def for_search(function: BoardHeuristic) -> Callable[[Board, Board], float]:
    """``function`` as the route searches call a heuristic, ``h(node, goal)`` (goal fixed)."""

    def h(node: Board, goal: Board) -> float:
        return float(function(node))

    h.__doc__ = function.__doc__
    return h
