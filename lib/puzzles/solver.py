"""One solve as the page and the job pool run it: compiled where it exists, else readable.

IDS and IDA* run compiled (:mod:`lib.puzzles.fast`: the same counts as the
readable code, tested), IDA* one iteration at a time so that a long 15-puzzle
solve reports each new bound (``on_iteration``); the rest run the readable
searches (:mod:`lib.puzzles.search`) under a cap of nodes generated. With
``record_trace`` the readable search runs even for IDS and IDA*, for the
step-through (the route lab's searches record their trace).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from lib.errors import InputError
from lib.puzzles.board import Board, solvability, width_of
from lib.puzzles.fast import fast_ida_star, fast_ids
from lib.puzzles.heuristics import HEURISTICS
from lib.puzzles.results import ALGORITHMS, PuzzleResult

#: Caps on nodes generated: readable searches, compiled IDS, compiled IDA* (per solve).
READABLE_CAP = 1_500_000
IDS_CAP = 60_000_000
IDA_CAP = 3_000_000_000

Iteration = Callable[[int, int, int], None]  # (iteration, bound, nodes generated so far)


def check_choice(board: Board, algorithm: str, heuristic: str) -> None:
    """Raise :class:`InputError` for an unknown algorithm or heuristic, or an unsolvable board."""
    if algorithm not in ALGORITHMS:
        raise InputError(f"Unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}.")
    if heuristic not in HEURISTICS:
        raise InputError(f"Unknown heuristic {heuristic!r}; choose one of {', '.join(HEURISTICS)}.")
    if ALGORITHMS[algorithm].uses_heuristic and width_of(board) not in HEURISTICS[heuristic].widths:
        raise InputError(f"{HEURISTICS[heuristic].label} is for the 15-puzzle only.")
    verdict = solvability(board)
    if not verdict.solvable:
        raise InputError(f"This board cannot be solved: {verdict.reason}")


def run_solve(
    board: Board,
    algorithm: str,
    heuristic: str,
    *,
    record_trace: bool = False,
    readable_cap: int = READABLE_CAP,
    compiled_cap: int | None = None,
    on_iteration: Iteration | None = None,
) -> PuzzleResult:
    """Solve ``board``; raises :class:`InputError` on a bad choice or past a cap.

    ``compiled_cap`` lowers the compiled searches' caps (:data:`IDS_CAP`, :data:`IDA_CAP`).
    """
    check_choice(board, algorithm, heuristic)
    info = ALGORITHMS[algorithm]
    key = heuristic if info.uses_heuristic else "zero"
    if record_trace or algorithm not in ("ids", "idastar"):
        from lib.puzzles.search import solve  # the route lab, pandas: not in a compiled-only job

        return solve(board, algorithm, key, record_trace=record_trace, max_generated=readable_cap)
    started = time.perf_counter()
    if algorithm == "ids":
        cap = IDS_CAP if compiled_cap is None else compiled_cap
        run = fast_ids(board, cap=cap)
        if run.moves is None:
            raise InputError(f"IDS gave up after generating {cap:,} nodes; try IDA*.")
        return PuzzleResult(
            info.label, key, board, run.moves, run.generated, run.expanded, run.max_frontier,
            time.perf_counter() - started, notes="compiled",
        )  # fmt: skip
    cap = IDA_CAP if compiled_cap is None else compiled_cap
    return _ida_by_iterations(board, key, on_iteration, started, cap)


def _ida_by_iterations(
    board: Board, key: str, on_iteration: Iteration | None, started: float, cap: int
) -> PuzzleResult:
    """Compiled IDA*, one bound at a time (the counts add up to one run's: tested)."""
    generated = expanded = peak = 0
    bound: int | None = None
    for iteration in range(1, 200):
        run = fast_ida_star(board, key, cap=cap - generated, bound=bound, iterations=1)
        generated += run.generated
        expanded += run.expanded
        peak = max(peak, run.max_frontier)
        if run.moves is not None:
            return PuzzleResult(
                ALGORITHMS["idastar"].label, key, board, run.moves, generated, expanded, peak,
                time.perf_counter() - started, notes=f"compiled, {iteration} iterations",
            )  # fmt: skip
        if run.next_bound is None:
            raise InputError(f"IDA* gave up after generating {cap:,} nodes.")
        bound = run.next_bound
        if on_iteration is not None:
            on_iteration(iteration, bound, generated)
    raise InputError("IDA* gave up after 200 iterations.")
