"""Run one local search on n-queens by name: the settings, the algorithms' registry, the outcome.

:func:`solve` is what the page, the command line and the benchmark call. Up to
:data:`READABLE_LIMIT` queens it runs the textbook code
(:mod:`lib.local_search.textbook`) and keeps every step for the animation;
min-conflicts on more queens runs the compiled fast path
(:mod:`lib.local_search.fast`), which makes the same choices, and keeps ``h``
per step but no boards.

>>> outcome = solve(8, "sideways", seed=3)
>>> outcome.solved, outcome.h == 0, len(outcome.history) == outcome.steps + 1
(True, True, True)
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from lib.errors import InputError
from lib.local_search import fast, textbook
from lib.local_search.queens import Board, check_n
from lib.local_search.randomness import Uniforms
from lib.local_search.textbook import Schedule
from lib.local_search.trace import Step, Tracer

READABLE_LIMIT = 200
"""Most queens the textbook code runs on (each step of hill climbing looks at n(n-1) neighbours)."""
STATE_LIMIT = 10_000
"""Most queens whose final state an :class:`Outcome` keeps."""


class TimeUp(Exception):
    """Raised inside a run that passed its time limit (caught by :func:`solve`)."""


@dataclass(frozen=True)
class Algorithm:
    """A registered algorithm: its title, what it does in a line, and whether it takes large n."""

    title: str
    idea: str
    large: bool = False


ALGORITHMS: dict[str, Algorithm] = {
    "steepest": Algorithm(
        "Steepest-ascent hill climbing", "Move to the best neighbour; stop when none is better."
    ),
    "sideways": Algorithm(
        "Hill climbing with sideways moves",
        "As steepest ascent, but a best neighbour as good as the current state is taken too, "
        "up to a cap of sideways moves in a row (AIMA: 100).",
    ),
    "random-restart": Algorithm(
        "Random-restart hill climbing",
        "Hill climbing (with sideways moves if allowed) from new random states until one solves.",
    ),
    "first-choice": Algorithm(
        "First-choice hill climbing",
        "Draw random neighbours until one is better; stop after a number of failed draws.",
    ),
    "stochastic": Algorithm(
        "Stochastic hill climbing",
        "A random uphill move, more likely the steeper it is.",
    ),
    "annealing": Algorithm(
        "Simulated annealing",
        "A random neighbour; a worse one is taken with probability e^(ΔE/T), T falling by the "
        "schedule.",
    ),
    "beam": Algorithm(
        "Local beam search", "Keep the k best of all the neighbours of the k current states."
    ),
    "genetic": Algorithm(
        "Genetic algorithm",
        "Parents chosen in proportion to non-attacking pairs, one-point crossover, mutation.",
    ),
    "min-conflicts": Algorithm(
        "Min-conflicts",
        "From a greedy first assignment, move a random conflicted queen to its least-attacked row.",
        large=True,
    ),
}


def _bounded(name: str, value: float, low: float, high: float) -> None:
    if not low <= value <= high:
        raise InputError(f"The setting {name} must be from {low:,} to {high:,}; got {value!r}.")


@dataclass(frozen=True)
class Settings:
    """Every algorithm's settings (each algorithm reads its own)."""

    max_sideways: int = 100
    max_restarts: int = 1_000
    max_tries: int = 100
    schedule: Schedule = field(default_factory=Schedule)
    beam_width: int = 10
    population: int = 50
    p_mutation: float = 0.1
    max_steps: int = 10_000
    greedy: bool = True

    def __post_init__(self) -> None:
        _bounded("max_sideways", self.max_sideways, 0, 100_000)
        _bounded("max_restarts", self.max_restarts, 0, 100_000)
        _bounded("max_tries", self.max_tries, 1, 1_000_000)
        _bounded("beam_width", self.beam_width, 1, 1_000)
        _bounded("population", self.population, 2, 10_000)
        _bounded("p_mutation", self.p_mutation, 0.0, 1.0)
        _bounded("max_steps", self.max_steps, 1, 10_000_000)


@dataclass(frozen=True)
class Outcome:
    """How a run ended: the final state (up to :data:`STATE_LIMIT` queens), ``h``, the counts.

    ``history`` is ``h`` at the start and after every step (every restart's start
    included); ``records`` the first steps with their boards (textbook runs only).
    """

    algorithm: str
    n: int
    seed: int | None
    state: tuple[int, ...] | None
    h: int
    steps: int
    restarts: int
    seconds: float
    history: tuple[int, ...]
    records: tuple[Step, ...] = ()
    stopped: str = ""  # why the run stopped early ("" if the algorithm ended it)

    @property
    def solved(self) -> bool:
        """Whether the run ended on a solution (no attacking pair)."""
        return self.h == 0


def check_algorithm(name: str, n: int) -> str:
    """``name`` if it is a registered algorithm that takes ``n`` queens, else an InputError."""
    if name not in ALGORITHMS:
        raise InputError(f"Unknown algorithm {name!r}; choose one of {', '.join(ALGORITHMS)}.")
    if n > READABLE_LIMIT and not ALGORITHMS[name].large:
        raise InputError(
            f"{ALGORITHMS[name].title} runs on up to {READABLE_LIMIT} queens here (each step "
            f"looks at many neighbours); {n:,} queens need min-conflicts."
        )
    return name


def _textbook(n: int, name: str, rand: Uniforms, settings: Settings, tracer: Tracer) -> Board:
    """Run the textbook algorithm ``name``; the board it ends on."""
    if name == "random-restart":
        return textbook.random_restart(
            n, rand, tracer, settings.max_sideways, settings.max_restarts
        )
    if name == "beam":
        return textbook.local_beam_search(n, rand, tracer, settings.beam_width, settings.max_steps)
    if name == "genetic":
        return textbook.genetic_algorithm(
            n, rand, tracer, settings.population, settings.p_mutation, settings.max_steps
        )
    if name == "min-conflicts" and settings.greedy:
        board = textbook.greedy_start(n, rand)
    else:
        board = Board.random(n, rand)
    tracer.start(board.rows, board.h)
    if name in ("steepest", "sideways"):
        sideways = settings.max_sideways if name == "sideways" else 0
        return textbook.hill_climbing(board, rand, tracer, sideways)
    if name == "first-choice":
        return textbook.first_choice(board, rand, tracer, settings.max_tries)
    if name == "stochastic":
        return textbook.stochastic_hill_climbing(board, rand, tracer)
    if name == "annealing":
        return textbook.simulated_annealing(board, rand, tracer, settings.schedule)
    return textbook.min_conflicts(board, rand, tracer, settings.max_steps)


def solve(
    n: int,
    algorithm: str,
    seed: int | None = 1,
    settings: Settings | None = None,
    *,
    on_step: Callable[[int, int], None] | None = None,
    compiled: bool | None = None,
    time_limit: float | None = None,
) -> Outcome:
    """Run ``algorithm`` on ``n`` queens from ``seed``; ``on_step(steps, h)`` reports progress.

    ``compiled`` chooses the fast path (min-conflicts only); by default it is
    taken beyond :data:`READABLE_LIMIT` queens. A run still going after
    ``time_limit`` seconds stops there (its outcome says so).
    """
    n = check_n(n)
    check_algorithm(algorithm, n)
    settings = settings or Settings()
    rand = Uniforms(seed)
    if compiled is None:
        compiled = n > READABLE_LIMIT
    if compiled and algorithm != "min-conflicts":
        raise InputError("Only min-conflicts has a compiled path.")
    start = time.perf_counter()
    last = [start]

    def report(steps: int, h: int) -> None:
        now = time.perf_counter()
        if time_limit is not None and now - start > time_limit:
            raise TimeUp
        if on_step is not None and now - last[0] > 0.1:
            last[0] = now
            on_step(steps, h)

    run = _compiled if compiled else _readable
    rows, h, steps, restarts, history, records, stopped = run(n, algorithm, rand, settings, report)
    return Outcome(
        algorithm,
        n,
        seed,
        tuple(rows) if n <= STATE_LIMIT else None,
        int(h),
        int(steps),
        restarts,
        time.perf_counter() - start,
        tuple(history),
        records,
        stopped,
    )


def _stopped(limit_reached: bool) -> str:
    return "time limit" if limit_reached else ""


def _compiled(
    n: int, algorithm: str, rand: Uniforms, settings: Settings, report: Callable[[int, int], None]
) -> tuple:
    """Min-conflicts on the fast path: (rows, h, steps, restarts, history, records, stopped)."""
    board = fast.greedy_start(n, rand) if settings.greedy else fast.Arrays.random(n, rand)
    history = [board.h]
    late = False
    try:
        fast.min_conflicts(board, rand, settings.max_steps, report, history)
    except TimeUp:
        late = True
    return board.rows.tolist(), board.h, len(history) - 1, 0, history, (), _stopped(late)


def _readable(
    n: int, algorithm: str, rand: Uniforms, settings: Settings, report: Callable[[int, int], None]
) -> tuple:
    """The textbook algorithm: (rows, h, steps, restarts, history, records, stopped)."""
    tracer = Tracer()
    tracer.on_step = lambda steps: report(steps, tracer.history[-1])
    late = False
    try:
        rows = _textbook(n, algorithm, rand, settings, tracer).rows
    except TimeUp:
        late, rows = True, list(tracer.last)
    h = tracer.history[-1]
    records = tuple(tracer.records)
    return rows, h, tracer.steps, tracer.restarts, tracer.history, records, _stopped(late)


SOURCES: dict[str, tuple[Callable[..., object], ...]] = {
    "steepest": (textbook.hill_climbing, textbook.best_neighbours),
    "sideways": (textbook.hill_climbing, textbook.best_neighbours),
    "random-restart": (textbook.random_restart, textbook.hill_climbing),
    "first-choice": (textbook.first_choice,),
    "stochastic": (textbook.stochastic_hill_climbing,),
    "annealing": (textbook.simulated_annealing, textbook.Schedule.__call__),
    "beam": (textbook.local_beam_search,),
    "genetic": (textbook.genetic_algorithm, textbook.reproduce),
    "min-conflicts": (textbook.min_conflicts, textbook.greedy_start),
}
"""The textbook functions behind each algorithm, for the page's code panel."""


def source(algorithm: str) -> str:
    """The source of the textbook code that runs ``algorithm`` (the functions it calls too).

    >>> source("steepest").splitlines()[0][:40]
    'def hill_climbing(board: Board, rand: Un'
    """
    return "\n\n".join(inspect.getsource(function).rstrip() for function in SOURCES[algorithm])


def warm_up() -> None:
    """Compile (or load from numba's cache) the fast paths, so a timed run times only the search."""
    rand = Uniforms(0)
    fast.min_conflicts(fast.greedy_start(8, rand), rand, 100)
    fast.hill_climbing(fast.Arrays.random(8, rand), rand, 0)
