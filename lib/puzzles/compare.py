"""Every algorithm (with each heuristic) on one board: the page's comparison table.

Plain rows, no pandas: the table is computed in a job pool worker, whose memory cap
leaves no room for pandas beside numba's compiled code.
"""

from __future__ import annotations

from collections.abc import Callable

from lib.errors import InputError
from lib.puzzles.board import Board
from lib.puzzles.results import ALGORITHMS
from lib.puzzles.solver import run_solve

#: Each readable run in the comparison stops after this many nodes generated.
COMPARE_CAP = 300_000
#: ... and each compiled run (IDS, IDA*) after this many (a few seconds).
COMPILED_CAP = 40_000_000


def comparison_runs(board: Board) -> list[tuple[str, str]]:
    """The (algorithm, heuristic) pairs the comparison runs on ``board``."""
    heuristics = ("h1", "h2", "lc", "pdb") if len(board) == 16 else ("h1", "h2", "lc")
    runs = []
    for key, info in ALGORITHMS.items():
        if info.uses_heuristic:
            runs.extend((key, h) for h in heuristics)
        else:
            runs.append((key, "zero"))
    return runs


def compare_all(
    board: Board, on_progress: Callable[[float, str], None] | None = None
) -> list[dict[str, object]]:
    """Every algorithm (and heuristic) on ``board``: a row each, "gave up" past the cap."""
    rows = []
    runs = comparison_runs(board)
    for index, (algorithm, heuristic) in enumerate(runs):
        if on_progress is not None:
            on_progress(index / len(runs), f"{ALGORITHMS[algorithm].label} {heuristic}")
        row: dict[str, object] = {
            "algorithm": ALGORITHMS[algorithm].label,
            "heuristic": heuristic if heuristic != "zero" else "–",
        }
        try:
            result = run_solve(
                board, algorithm, heuristic, readable_cap=COMPARE_CAP, compiled_cap=COMPILED_CAP
            )
        except InputError as error:
            row["note"] = str(error).split(";")[0]
        else:
            row.update(
                length=result.length, generated=result.generated, expanded=result.expanded,
                max_frontier=result.max_frontier, seconds=round(result.seconds, 4),
                ebf=round(result.ebf, 3) if result.length else None, note=result.notes,
            )  # fmt: skip
        rows.append(row)
    return rows
