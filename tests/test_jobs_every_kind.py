"""Every kind of job the pages run, through the real pool under the default memory cap.

A worker is capped at :data:`lib.jobs.DEFAULT_MEMORY_MB` unless the server says otherwise.
The cap once counted the address space, so a worker that loaded numba's LLVM (a formula
player reaching the compiled endgame solver) failed to load it; these run one job of each
kind the pages send to the pool (the GA, all pairs of routes, an Arena study, a ladder
with a formula player, an evolution, each game's compiled solver) under that default, and
check their answers against the same work done here, outside the pool.
"""

from __future__ import annotations

import os

import pytest

from lib.errors import InputError
from lib.games.connect_four.solver import solve as solve_connect_four
from lib.games.othello.endgame import negamax_margin
from lib.jobs import DEFAULT_MEMORY_MB, MEMORY_ENV, JobOutOfMemory, JobPool, memory_cap_mb
from tests import job_tasks
from tests.games.othello.test_endgame import late_position
from tests.games.test_compiled_code import connect_four_position
from tests.test_jobs import finish

MB = 1024 * 1024


@pytest.fixture(scope="module")
def pool():
    """A pool as a server starts it: its cap read from an environment without the setting."""
    saved = os.environ.pop(MEMORY_ENV, None)
    try:
        assert memory_cap_mb() == DEFAULT_MEMORY_MB
        pool = JobPool(workers=1, idle_seconds=60)
    finally:
        if saved is not None:
            os.environ[MEMORY_ENV] = saved
    assert pool.memory_mb == DEFAULT_MEMORY_MB
    yield pool
    pool.shutdown()


def data_limit(pid: int) -> int | None:
    """The soft ``RLIMIT_DATA`` of process ``pid`` in bytes (None: unlimited)."""
    with open(f"/proc/{pid}/limits") as limits:
        line = next(line for line in limits if line.startswith("Max data size"))
    soft = line.split()[3]
    return None if soft == "unlimited" else int(soft)


def run(pool: JobPool, function, *args):
    """``function(*args)`` in the pool (a generous wait: a cold numba cache compiles)."""
    job = pool.submit(function, args)
    return finish(job, timeout=300).result()


def test_a_worker_runs_under_the_default_cap(pool):
    pid, held = run(pool, job_tasks.allocate, 1)
    assert held == MB
    assert data_limit(pid) == DEFAULT_MEMORY_MB * MB


def test_the_ga(pool):
    generations, fitness = run(pool, job_tasks.ga_job)
    assert (generations, fitness) == job_tasks.ga_job()  # seeded: the same run here


def test_all_pairs_of_routes(pool):
    assert run(pool, job_tasks.routes_job) == job_tasks.routes_job() > 0


def test_an_arena_study(pool):
    scores = run(pool, job_tasks.study_job)
    assert len(scores) == 2 and all(score >= 0.5 for score in scores)  # perfect play never loses


def test_a_ladder_with_a_formula_player(pool):
    # random, greedy and the formula player: 3 pairs, 2 games per pair (colours swapped)
    assert run(pool, job_tasks.formula_ladder_job) == 6


def test_an_evolution(pool):
    assert run(pool, job_tasks.evolution_job) > 0


def test_othellos_compiled_endgame_solver(pool):
    state = late_position(seed=3, empties=9)
    move, margin = run(pool, job_tasks.othello_solve_job, state)
    assert margin == negamax_margin(state)  # the textbook negamax, here
    assert move in state.legal_moves()


def test_connect_fours_compiled_solver(pool):
    state = connect_four_position(seed=5, discs=26)
    score, best = run(pool, job_tasks.connect_four_solve_job, state)
    readable = solve_connect_four(state, compiled=False)
    assert (score, best) == (readable.score, readable.best_moves)


def test_a_runaway_job_past_the_default_cap_is_stopped_and_said_in_words(pool):
    with pytest.raises(JobOutOfMemory) as failed:
        run(pool, job_tasks.allocate, DEFAULT_MEMORY_MB + 100)
    assert isinstance(failed.value, InputError)
    assert f"allows per job ({DEFAULT_MEMORY_MB:,} MB)" in str(failed.value)
    pid, held = run(pool, job_tasks.allocate, 1)  # a fresh worker takes the next job
    assert held == MB and data_limit(pid) == DEFAULT_MEMORY_MB * MB
