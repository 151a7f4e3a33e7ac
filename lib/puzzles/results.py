"""What a puzzle search reports (counts, b*) and the algorithms it can be: light, for pool jobs.

Kept apart from :mod:`lib.puzzles.search` (which imports the route lab and,
through it, pandas) so that a job pool worker running only the compiled
searches stays within its memory cap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from lib.puzzles.board import Board


@dataclass(frozen=True)
class PuzzleResult:
    """What one search found and what it cost: the counts AIMA's tables report."""

    algorithm: str
    heuristic: str
    start: Board
    moves: str  # the blank's moves, U/D/L/R
    generated: int
    expanded: int
    max_frontier: int
    seconds: float
    trace: tuple = ()
    trace_truncated: bool = False
    notes: str = ""

    @property
    def length(self) -> int:
        """The number of moves in the solution."""
        return len(self.moves)

    @property
    def ebf(self) -> float:
        """The effective branching factor of this run (see :func:`effective_branching_factor`)."""
        return effective_branching_factor(self.generated, self.length)


def effective_branching_factor(generated: float, depth: int) -> float:
    """The b* with ``N + 1 = 1 + b* + b*^2 + ... + b*^d`` (AIMA 3.6.1), N nodes generated.

    NaN at depth 0. Solved by bisection to 1e-9.

    >>> round(effective_branching_factor(52, 5), 2)  # AIMA's example: 1.92
    1.92
    """
    if depth <= 0:
        return math.nan
    target = generated + 1

    def total(b: float) -> float:
        return float(depth + 1) if b == 1 else (b ** (depth + 1) - 1) / (b - 1)

    lo, hi = 0.0, float(target) ** (1.0 / depth) + 1.0  # b*^d <= N + 1 bounds b*
    for _ in range(200):
        mid = (lo + hi) / 2
        if total(mid) < target:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-9:
            break
    return (lo + hi) / 2


@dataclass(frozen=True)
class AlgorithmInfo:
    """How the page and command line present an algorithm."""

    key: str
    label: str
    uses_heuristic: bool
    optimal: str
    memory: str


ALGORITHMS: dict[str, AlgorithmInfo] = {
    info.key: info
    for info in (
        AlgorithmInfo("bfs", "Breadth-first (BFS)", False, "yes (unit moves)", "all reached"),
        AlgorithmInfo("ids", "Iterative deepening (IDS)", False, "yes (unit moves)", "the path"),
        AlgorithmInfo("ucs", "Uniform-cost", False, "yes", "all reached"),
        AlgorithmInfo("greedy", "Greedy best-first", True, "no", "all reached"),
        AlgorithmInfo("astar", "A*", True, "if h is admissible", "all reached"),
        AlgorithmInfo("idastar", "IDA*", True, "if h is admissible", "the path"),
        AlgorithmInfo("rbfs", "RBFS", True, "if h is admissible", "the path and siblings"),
    )
}
