"""One traced run for the page: a picklable record of the search, and its code with marked lines.

:func:`traced_run` builds the chosen problem, runs the textbook search with a
recording tracer (in a worker of the job pool on a hosted server) and returns
a :class:`TracedRun`: the events, the counts, the solution and what the page
needs to draw the problem (no functions, so it pickles back from a worker).
:func:`listing` gives the search's source without its docstring and
:func:`line_of` the line each event is, for the code panel.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from lib.csp.problems import PROBLEMS
from lib.csp.search import backtracking_search, min_conflicts, run_algorithm
from lib.csp.sudoku import solve
from lib.csp.trace import CSPTracer, Event, Kind, SearchStopped

MAX_EVENTS = 20_000  # the step-through keeps this many events
MAX_ASSIGNMENTS = 20_000  # a run gives up beyond this many assignments (hosted server)
MAX_STEPS = 2_000  # min-conflicts' steps
MAX_COUNT_ASSIGNMENTS = 100_000  # counting a Sudoku's solutions (the fast path: about 10 s)


@dataclass(frozen=True)
class Settings:
    """What to run: the problem, its one setting, the algorithm and its techniques."""

    problem: str = "australia"
    n: int = 8
    grid: str = ""
    algorithm: str = "backtracking"  # or "min-conflicts"
    mrv: bool = False
    degree: bool = False
    lcv: bool = False
    inference: str = "none"
    seed: int = 0


@dataclass(frozen=True)
class TracedRun:
    """A finished (or abandoned) run: its events, counts, solution and the problem's shape."""

    settings: Settings
    name: str
    kind: str
    variables: tuple
    domains: dict
    neighbours: dict
    info: dict
    events: tuple[Event, ...]
    truncated: bool
    assignments: int
    backtracks: int
    prunes: int
    checks: int
    seconds: float
    solution: dict | None
    gave_up: str = ""
    extra: dict = field(default_factory=dict)


def traced_run(settings: Settings, on_progress: Callable[[int], None] | None = None) -> TracedRun:
    """Run the search ``settings`` ask for, recording its events (the job pool's task).

    ``on_progress(assignments)`` is called every 500 assignments (where a
    cancelled job stops).
    """
    csp = PROBLEMS[settings.problem].build(n=settings.n, grid=settings.grid or None)

    def tick() -> bool:
        if on_progress is not None and tracer.assignments % 500 == 0:
            on_progress(tracer.assignments)
        return False

    tracer = CSPTracer(record=True, cap=MAX_EVENTS, should_stop=tick)
    start = time.perf_counter()
    gave_up = ""
    solution = None
    try:
        solution = run_algorithm(
            csp,
            settings.algorithm,
            mrv=settings.mrv,
            degree=settings.degree,
            lcv=settings.lcv,
            inference=settings.inference,
            seed=settings.seed,
            max_steps=MAX_STEPS,
            max_assignments=MAX_ASSIGNMENTS,
            tracer=tracer,
        )
        if solution is None and settings.algorithm == "min-conflicts":
            gave_up = f"no solution within {MAX_STEPS:,} steps"
    except SearchStopped as stop:
        gave_up = stop.reason
    extra = {}
    if csp.kind == "sudoku":  # one solution is shown; is it the only one?
        extra["solutions"] = count_sudoku_solutions(csp.info["grid"])
    return TracedRun(
        settings, csp.name, csp.kind, csp.variables, dict(csp.domains), dict(csp.neighbours),
        dict(csp.info), tuple(tracer.events), tracer.truncated, tracer.assignments,
        tracer.backtracks, tracer.prunes, tracer.checks, time.perf_counter() - start,
        solution, gave_up, extra,
    )  # fmt: skip


def count_sudoku_solutions(grid: str) -> int | None:
    """0, 1 or 2 (two or more) solutions of ``grid`` by the fast path; None if it gave up."""
    try:
        return len(solve(grid, limit=2, max_assignments=MAX_COUNT_ASSIGNMENTS).solutions)
    except SearchStopped:
        return None


# --------------------------------------------------------------------------- the code panel


def listing(algorithm: str) -> tuple[list[str], dict[str, tuple[int, ...]]]:
    """The search's source (no docstring) as lines, and the 1-based lines of each ``# [mark]``."""
    function = min_conflicts if algorithm == "min-conflicts" else backtracking_search
    source = textwrap.dedent(inspect.getsource(function))
    lines = source.splitlines()
    first = ast.parse(source).body[0].body[0]  # type: ignore[attr-defined]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        del lines[first.lineno - 1 : first.end_lineno]
    marks: dict[str, tuple[int, ...]] = {}
    for number, line in enumerate(lines, start=1):
        if "# [" in line:
            mark = line.rsplit("# [", 1)[1].rstrip("]")
            marks[mark] = (*marks.get(mark, ()), number)
    return lines, marks


def excerpt_start(lines: list[str]) -> int:
    """The 0-based line where the panel's excerpt starts: the inner ``backtrack`` if any.

    Every marked line of BACKTRACKING-SEARCH is in its inner function, so the
    panel shows that part (about 25 lines) and the marked line stays in view.
    """
    return next((i for i, line in enumerate(lines) if "def backtrack(" in line), 0)


def line_of(event: Event | None, marks: dict[str, tuple[int, ...]]) -> int | None:
    """The line of :func:`listing` that ``event`` is (None before the first event)."""
    if event is None:
        return None
    if event.kind is Kind.PRUNE:
        name = "narrow" if event.cause == event.var else "infer"
    else:
        name = event.kind.value
    lines = marks.get(name)
    if not lines:
        return None
    if event.kind is Kind.ASSIGN and event.note == "initial assignment":
        return lines[0]
    return lines[-1]


def describe(event: Event | None, label: Callable[[object], str] = str) -> str:
    """The event in a sentence for the student."""
    if event is None:
        return "The start: nothing assigned, every domain full."
    var, value = label(event.var), label(event.value)
    if event.kind is Kind.ASSIGN:
        return f"Assign {var} = {value}" + (f" ({event.note})." if event.note else ".")
    if event.kind is Kind.PRUNE:
        if event.cause == event.var:
            return f"{var} = its value: {value} leaves {var}'s domain."
        return f"Prune {value} from {var}'s domain (it conflicts with {label(event.cause)})."
    if event.kind is Kind.UNASSIGN:
        return f"Undo {var} = {value}: {len(event.restored)} pruned values come back."
    if event.kind is Kind.BACKTRACK:
        return f"Backtrack: no value of {var} works here."
    return "Solution: every variable has a value and no constraint is broken."
