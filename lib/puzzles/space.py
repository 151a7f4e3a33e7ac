"""The puzzle as an implicit graph: boards generated as they are reached, for the route searches.

:class:`PuzzleSpace` answers the two questions the textbook searches of
:mod:`lib.routes` ask of a graph, ``board in G`` and ``G[board]`` (the
boards one move away, each with a road of length 1), computing the answer
when asked: no graph is built first. It also counts the boards it expands
and refuses to expand more than its cap (:class:`~lib.errors.InputError`),
so a search that cannot finish in memory stops with a message.
"""

from __future__ import annotations

from lib.errors import InputError
from lib.puzzles.board import WIDTHS, Board, successors

#: One move costs 1 (the route searches read ``road.get("weight", 1)``).
_ROAD: dict = {}


class PuzzleSpace:
    """The states of one puzzle size, their moves found on demand; capped at ``max_expansions``."""

    def __init__(self, width: int, max_expansions: int = 2_000_000) -> None:
        self.width = width
        self.max_expansions = max_expansions
        self.expansions = 0

    def __contains__(self, board: object) -> bool:
        """Is ``board`` a board of this size (the searches check the start and goal)?"""
        return isinstance(board, tuple) and WIDTHS.get(len(board)) == self.width

    def __getitem__(self, board: Board) -> dict[Board, dict]:
        """The boards one move from ``board``, in the order U, D, L, R of the blank."""
        self.expansions += 1
        if self.expansions > self.max_expansions:
            raise InputError(
                f"The search gave up after expanding {self.max_expansions:,} boards; "
                "try a better heuristic, IDA*, or an easier board."
            )
        return {child: _ROAD for _, child in successors(board)}

    def is_directed(self) -> bool:
        """Every move can be undone: the graph is undirected."""
        return False
