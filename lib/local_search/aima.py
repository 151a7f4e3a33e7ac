"""AIMA's local-search figures for n-queens, measured here and set beside the book's.

Russell and Norvig (3rd ed., Section 4.1.1) report that steepest-ascent hill climbing
solves 14 % of random 8-queens instances, taking 4 steps on average when it
succeeds and 3 when it gets stuck; allowing up to 100 consecutive sideways
moves raises that to 94 %, with 21 steps per success and 64 per failure.
Random restarts then need 1/p climbs on average (about 7, or 1.06 with sideways
moves), about 22 and 25 steps in all. Section 6.4: min-conflicts solves a million
queens in about 50 steps after its first assignment.

:func:`aima_figures` measures each figure with the compiled fast paths (the same
choices as the textbook code) from one seed and returns the table.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from lib.errors import InputError
from lib.local_search import fast
from lib.local_search.randomness import Uniforms

MAX_INSTANCES = 100_000
SIDEWAYS = 100


@dataclass(frozen=True)
class Climbs:
    """Hill climbing from many random 8-queens states: success rate and mean steps."""

    instances: int
    solved: int
    steps_solved: float
    steps_stuck: float

    @property
    def rate(self) -> float:
        """The fraction of instances solved."""
        return self.solved / self.instances


def climbs(
    instances: int,
    seed: int,
    max_sideways: int,
    n: int = 8,
    on_progress: Callable[[int, int], None] | None = None,
) -> Climbs:
    """Steepest ascent (with ``max_sideways``) from ``instances`` random states of one stream."""
    if not 1 <= instances <= MAX_INSTANCES:
        raise InputError(f"Instances must be from 1 to {MAX_INSTANCES:,}; got {instances:,}.")
    rand = Uniforms(seed)
    solved, steps = [], []
    for i in range(instances):
        board = fast.Arrays.random(n, rand)
        steps.append(fast.hill_climbing(board, rand, max_sideways)[0])
        solved.append(board.h == 0)
        if on_progress is not None and (i + 1) % 200 == 0:
            on_progress(i + 1, instances)
    won = [s for s, ok in zip(steps, solved, strict=True) if ok]
    lost = [s for s, ok in zip(steps, solved, strict=True) if not ok]
    return Climbs(
        instances,
        len(won),
        sum(won) / len(won) if won else float("nan"),
        sum(lost) / len(lost) if lost else float("nan"),
    )


@dataclass(frozen=True)
class Restarts:
    """Random-restart hill climbing over many runs: climbs and steps per solution."""

    runs: int
    mean_climbs: float
    mean_steps: float


def restarts(
    runs: int, seed: int, max_sideways: int, on_progress: Callable[[int, int], None] | None = None
) -> Restarts:
    """Random-restart hill climbing ``runs`` times on 8 queens: mean climbs and steps to solve."""
    if not 1 <= runs <= MAX_INSTANCES:
        raise InputError(f"Runs must be from 1 to {MAX_INSTANCES:,}; got {runs:,}.")
    rand = Uniforms(seed)
    climbs_made, steps = 0, 0
    for i in range(runs):
        _, taken, restarted = fast.random_restart(8, rand, max_sideways)
        climbs_made += restarted + 1
        steps += taken
        if on_progress is not None and (i + 1) % 100 == 0:
            on_progress(i + 1, runs)
    return Restarts(runs, climbs_made / runs, steps / runs)


def million_queens(seed: int, n: int = 1_000_000) -> tuple[int, int, float]:
    """Min-conflicts on ``n`` queens from a greedy start: (h left, steps, seconds)."""
    fast.min_conflicts(fast.greedy_start(8, Uniforms(0)), Uniforms(0), 10)  # compiled first
    start = time.perf_counter()
    rand = Uniforms(seed)
    board = fast.greedy_start(n, rand)
    steps = fast.min_conflicts(board, rand, 100_000)
    return board.h, steps, time.perf_counter() - start


def expected_steps(climbs: Climbs) -> float:
    """AIMA's estimate of random restart's steps: a success, plus (1 - p) / p failures."""
    p = climbs.rate
    return climbs.steps_solved + (1 - p) / p * climbs.steps_stuck


def aima_figures(
    instances: int = 10_000,
    seed: int = 1,
    restart_runs: int = 2_000,
    queens: int = 1_000_000,
    on_progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, object]]:
    """Every figure, a row each: experiment, measure, the book's value, ours, goal met or not.

    ``queens=0`` leaves the min-conflicts rows out. ``on_progress(done, total)``
    counts instances and runs. The rows are plain values (``pandas.DataFrame(rows)``
    makes the table): a job of the server's pool that loads the compiled code and
    pandas together would pass a worker's memory cap.
    """
    total = 2 * instances + 2 * restart_runs

    def part(offset: int) -> Callable[[int, int], None] | None:
        if on_progress is None:
            return None
        return lambda k, _: on_progress(offset + k, total)

    plain = climbs(instances, seed, 0, on_progress=part(0))
    sideways = climbs(instances, seed + 1, SIDEWAYS, on_progress=part(instances))
    again = restarts(restart_runs, seed + 2, 0, part(2 * instances))
    again_sideways = restarts(restart_runs, seed + 3, SIDEWAYS, part(2 * instances + restart_runs))
    if on_progress is not None:
        on_progress(total, total)
    rows = [
        ("Steepest ascent", "solved (%)", 14, 100 * plain.rate, 2),
        ("Steepest ascent", "steps when solved", 4, plain.steps_solved, None),
        ("Steepest ascent", "steps when stuck", 3, plain.steps_stuck, None),
        ("≤ 100 sideways moves", "solved (%)", 94, 100 * sideways.rate, 2),
        ("≤ 100 sideways moves", "steps when solved", 21, sideways.steps_solved, None),
        ("≤ 100 sideways moves", "steps when stuck", 64, sideways.steps_stuck, None),
        ("Random restart", "climbs per solution (1/p)", 7, again.mean_climbs, None),
        ("Random restart", "steps per solution", 22, again.mean_steps, None),
        ("Restart, ≤ 100 sideways", "climbs per solution (1/p)", 1.06, again_sideways.mean_climbs,
         None),
        ("Restart, ≤ 100 sideways", "steps per solution", 25, again_sideways.mean_steps, None),
    ]  # fmt: skip
    if queens:
        h, steps, seconds = million_queens(seed, queens)
        rows.append((f"Min-conflicts, {queens:,} queens", "steps", 50, steps, None))
        rows.append((f"Min-conflicts, {queens:,} queens", "seconds (goal < 10)", None, seconds, 10))
        rows.append((f"Min-conflicts, {queens:,} queens", "attacking pairs left", 0, h, None))
    theory = [
        ("Random restart", "1/p from the sideways-free rate", None, 1 / plain.rate, None),
        ("Restart, ≤ 100 sideways", "1/p from the sideways rate", None, 1 / sideways.rate, None),
        ("Random restart", "steps by AIMA's formula", None, expected_steps(plain), None),
        ("Restart, ≤ 100 sideways", "steps by AIMA's formula", None, expected_steps(sideways),
         None),
    ]  # fmt: skip
    return [
        {
            "Experiment": experiment,
            "Measure": measure,
            "Book": math.nan if book is None else float(book),
            "Ours": round(float(ours), 2),
            "Within goal": _verdict(book, ours, goal),
        }
        for experiment, measure, book, ours, goal in rows + theory
    ]


def _verdict(book: float | None, ours: float, goal: float | None) -> str:
    """Whether a figure meets its goal (within ``goal`` of the book or under it); "" if none."""
    if goal is None:
        return ""
    if book is None:
        return "yes" if ours < goal else "no"
    return "yes" if abs(ours - book) <= goal else "no"
