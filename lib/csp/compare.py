"""The comparison table: the same problems under each combination of techniques, like AIMA's.

AIMA (2nd ed., Figure 5.5; 3rd ed., Section 6.3) compares plain backtracking,
MRV, forward checking, both together and min-conflicts on map colouring,
n-queens and the zebra puzzle. The book's cells count *consistency checks*,
its median over five runs; here each cell counts the **assignments** made
until the first solution (the reference search's count: the backtracking cells
run the fast path, which tests prove makes the same assignments), and the
backtracks. Min-conflicts' cell is its median over five seeds of the
assignments it makes (the initial complete assignment included). A cell
past its cap reads ``> cap`` (for min-conflicts: its cap of steps, a run
counted as failed when fewer than three of the five seeds solve within it), as
the book writes ``(> 1,000K)``.

The book's own figures are not quoted: they could not be checked against a
source here (see docs/csp.md).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from lib.csp.core import CSP
from lib.csp.fast import CompiledCSP
from lib.csp.problems import australia, n_queens, us_map, zebra
from lib.csp.search import min_conflicts
from lib.csp.sudoku import bundled, parse_grid, sudoku_csp
from lib.csp.trace import CSPTracer, SearchStopped


@dataclass(frozen=True)
class Technique:
    """A column: a combination of techniques (``inference`` ``"local"``: min-conflicts)."""

    label: str
    mrv: bool = False
    degree: bool = False
    lcv: bool = False
    inference: str = "none"


TECHNIQUES: tuple[Technique, ...] = (
    Technique("BT"),
    Technique("BT+MRV", mrv=True),
    Technique("FC", inference="fc"),
    Technique("FC+MRV", mrv=True, inference="fc"),
    Technique("MAC", inference="mac"),
    Technique("MAC+MRV", mrv=True, inference="mac"),
    Technique("MAC+MRV+deg+LCV", mrv=True, degree=True, lcv=True, inference="mac"),
    Technique("Min-conflicts", inference="local"),
)

#: The rows: a label and how to build the problem.
ROWS: tuple[tuple[str, Callable[[], CSP]], ...] = (
    ("Australia", australia),
    ("US states (48)", us_map),
    ("8-queens", lambda: n_queens(8)),
    ("25-queens", lambda: n_queens(25)),
    ("Zebra", zebra),
    ("Sudoku (Norvig hardest 7)", lambda: sudoku_csp(parse_grid(bundled()["Norvig hardest 7"]))),
)


@dataclass(frozen=True)
class Cell:
    """One problem under one technique: assignments (None past the cap), backtracks, time."""

    problem: str
    technique: str
    assignments: int | None
    backtracks: int | None
    seconds: float
    cap: int


def local_steps(csp: CSP, local_cap: int) -> int:
    """Min-conflicts' cap of steps on ``csp``: ``local_cap``, less for many variables."""
    return min(local_cap, 20_000 // max(1, len(csp.variables)))


def run_cell(
    csp: CSP,
    compiled: CompiledCSP,
    technique: Technique,
    cap: int,
    should_stop=None,
    local_cap: int = 2_000,
) -> tuple[int | None, int | None]:
    """The assignments and backtracks of one technique on one problem (None past the cap).

    Min-conflicts (the readable function: each step looks at every constraint) is
    capped at ``local_cap`` steps per seed, fewer on large problems (20,000 / the
    number of variables: a Sudoku's step costs most).
    """
    if technique.inference == "local":
        counts = []
        for seed in range(5):
            tracer = CSPTracer(should_stop=should_stop)
            steps = min(local_steps(csp, local_cap), max(0, cap - len(csp.variables)))
            found = min_conflicts(csp, max_steps=steps, seed=seed, tracer=tracer)
            counts.append(tracer.assignments if found is not None else None)
        solved = [c for c in counts if c is not None]
        return (int(statistics.median(solved)) if len(solved) >= 3 else None), None
    try:
        run = compiled.search(
            mrv=technique.mrv,
            degree=technique.degree,
            lcv=technique.lcv,
            inference=technique.inference,
            max_assignments=cap,
            should_stop=should_stop,
        )
    except SearchStopped as stop:
        if stop.reason == "stopped":
            raise
        return None, None
    return run.assignments, run.backtracks


def compare(
    rows: tuple[str, ...] | None = None,
    techniques: tuple[Technique, ...] = TECHNIQUES,
    *,
    cap: int = 100_000,
    local_cap: int = 2_000,
    on_progress: Callable[[int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> list[Cell]:
    """Every cell of the table, row by row; ``on_progress(done, total)`` after each.

    ``rows`` are labels of :data:`ROWS` (all of them when None): names, so that a job
    sent to a worker process pickles.
    """
    builders = dict(ROWS)
    chosen = [(label, builders[label]) for label in (rows or builders)]
    cells = []
    total = len(chosen) * len(techniques)
    for label, build in chosen:
        csp = build()
        compiled = CompiledCSP.of(csp)
        for technique in techniques:
            start = time.perf_counter()
            assignments, backtracks = run_cell(
                csp, compiled, technique, cap, should_stop, local_cap
            )
            seconds = time.perf_counter() - start
            limit = cap if technique.inference != "local" else local_steps(csp, local_cap)
            cells.append(Cell(label, technique.label, assignments, backtracks, seconds, limit))
            if on_progress is not None:
                on_progress(len(cells), total)
    return cells


def shown(cell: Cell) -> str:
    """A cell as the table shows it: ``1,234`` or ``> 100,000`` (gave up at the cap)."""
    return f"{cell.assignments:,}" if cell.assignments is not None else f"> {cell.cap:,}"


def table(cells: list[Cell]) -> pd.DataFrame:
    """Problems as rows, techniques as columns, assignments until a solution in the cells."""
    frame = pd.DataFrame(
        [{"problem": c.problem, "technique": c.technique, "v": shown(c)} for c in cells]
    )
    wide = frame.pivot(index="problem", columns="technique", values="v")
    order = list(dict.fromkeys(c.problem for c in cells))
    columns = list(dict.fromkeys(c.technique for c in cells))
    return wide.loc[order, columns].rename_axis(None, axis=1)


def long_table(cells: list[Cell]) -> pd.DataFrame:
    """One row per cell with its counts and time (the CSV download)."""
    return pd.DataFrame(
        [
            {
                "problem": c.problem,
                "technique": c.technique,
                "assignments": c.assignments,
                "backtracks": c.backtracks,
                "gave_up_at": None if c.assignments is not None else c.cap,
                "seconds": round(c.seconds, 4),
            }
            for c in cells
        ]
    )
