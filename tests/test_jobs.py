"""The shared job pool: FIFO queue and positions, bounded concurrency, cancel, results, errors."""

from __future__ import annotations

import errno
import os
import signal
import time

import networkx as nx
import pandas as pd
import pytest

from lib.errors import InputError
from lib.jobs import (
    CANCELLED,
    DEFAULT_MEMORY_MB,
    DONE,
    EVERY,
    LATEST,
    LATEST_EVERY,
    MAX_DEFAULT_WORKERS,
    MEMORY_ENV,
    NICENESS_ENV,
    QUEUED,
    RUNNING,
    WORKER_NICENESS,
    WORKERS_ENV,
    JobCancelled,
    JobFailed,
    JobOutOfMemory,
    JobPool,
    default_workers,
    job_kind,
    memory_cap_mb,
    worker_niceness,
)
from tests import job_tasks


@pytest.fixture
def pool():
    pool = JobPool(workers=1, grace=0.5, idle_seconds=30)
    yield pool
    pool.shutdown()


def finish(job, timeout: float = 180.0):
    """Wait for ``job`` to end (a niced worker on a loaded machine can take minutes)."""
    deadline = time.monotonic() + timeout
    while not job.wait(0.2):
        assert time.monotonic() < deadline, f"job {job.id} still {job.state}"
    return job


def wait_for_state(job, state: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while job.state != state:
        assert time.monotonic() < deadline, f"job {job.id} is {job.state}, not {state}"
        job.wait(0.1)


def cpu_seconds(pid: int) -> float:
    """User + system CPU of process ``pid`` (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    if fields[0] == "Z":  # a zombie spends nothing
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_default_workers_take_the_cores_up_to_the_memory_bound_and_read_the_environment():
    # the server keeps its share by priority (the workers are niced), not by an idle core
    assert default_workers({}) == min(MAX_DEFAULT_WORKERS, os.cpu_count() or 1)
    assert default_workers({WORKERS_ENV: " 3 "}) == 3
    for bad in ("0", "-2", "two", "1.5"):
        with pytest.raises(InputError, match=WORKERS_ENV):
            default_workers({WORKERS_ENV: bad})


def test_worker_niceness_reads_the_environment_within_unix_range():
    assert worker_niceness({}) == WORKER_NICENESS
    assert worker_niceness({NICENESS_ENV: " 0 "}) == 0
    assert worker_niceness({NICENESS_ENV: "19"}) == 19
    for bad in ("20", "-1", "low", "2.5"):
        with pytest.raises(InputError, match=NICENESS_ENV):
            worker_niceness({NICENESS_ENV: bad})


@pytest.mark.parametrize("niceness", [None, 3])
def test_a_worker_runs_at_a_lower_priority_than_the_server(niceness):
    pool = JobPool(workers=1, idle_seconds=30, niceness=niceness)
    try:
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        step = WORKER_NICENESS if niceness is None else niceness
        # read from inside the worker, while it runs a job
        assert finish(pool.submit(job_tasks.priority)).result() == min(19, mine + step)
    finally:
        pool.shutdown()


def test_queue_is_first_in_first_out_with_positions(pool):
    first = pool.submit(job_tasks.stamp, ("first", 1.0))
    wait_for_state(first, RUNNING)
    queued = [pool.submit(job_tasks.stamp, (name, 0.05)) for name in "abcd"]
    assert [job.state for job in queued] == [QUEUED] * 4
    assert [job.position for job in queued] == [1, 2, 3, 4]
    assert pool.counts() == (1, 4)
    queued[1].cancel()  # "b" leaves the queue: the others move up
    assert queued[1].state == CANCELLED
    assert [job.position for job in (queued[0], queued[2], queued[3])] == [1, 2, 3]
    with pytest.raises(JobCancelled):
        queued[1].result()
    results = [finish(job).result() for job in (first, queued[0], queued[2], queued[3])]
    assert [label for label, _, _ in results] == ["first", "a", "c", "d"]
    starts = [start for _, start, _ in results]
    assert starts == sorted(starts)
    assert all(job.position is None for job in queued)


def test_no_more_jobs_run_at_once_than_workers():
    pool = JobPool(workers=2, idle_seconds=30)
    try:
        jobs = [pool.submit(job_tasks.stamp, (str(i), 0.6)) for i in range(5)]
        assert pool.counts()[0] <= 2
        spans = [finish(job).result()[1:] for job in jobs]
    finally:
        pool.shutdown()
    # the most jobs running at one instant (a start or end time counts as inside)
    overlaps = [sum(s <= t < e for s, e in spans) for t, _ in spans]
    assert max(overlaps) == 2
    assert len(pool.worker_pids()) == 0


def test_a_cancelled_job_that_checks_in_stops_and_its_worker_idles(pool):
    job = pool.submit(job_tasks.spin, (60.0,), callbacks={"on_tick": LATEST})
    wait_for_state(job, RUNNING)
    pid = job.worker_pid
    time.sleep(0.5)
    job.cancel()
    finish(job, timeout=2.0)  # stopped at its next callback, well inside the grace period
    assert job.state == CANCELLED
    assert alive(pid)  # the worker was not killed: it stopped the job and waits for the next
    assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)
    before = cpu_seconds(pid)
    time.sleep(1.0)
    assert cpu_seconds(pid) - before < 0.05
    # the same worker runs the next job
    again = finish(pool.submit(job_tasks.stamp, ("next", 0.0)))
    assert again.result()[0] == "next"
    assert pool.worker_pids() == [pid]


def test_a_cancelled_job_that_never_checks_in_has_its_worker_killed(pool):
    job = pool.submit(job_tasks.spin, (60.0,))  # no callback: only a kill can stop it
    wait_for_state(job, RUNNING)
    pid = job.worker_pid
    deadline = time.monotonic() + 60  # it spins at nice +10: a loaded machine may starve it
    while cpu_seconds(pid) == 0.0:
        assert time.monotonic() < deadline, "the worker spent no CPU in 60 s"
        time.sleep(0.1)
    started = time.monotonic()
    job.cancel()
    finish(job, timeout=3.0)
    assert job.state == CANCELLED
    while alive(pid):
        assert time.monotonic() - started < 2.0, "the worker still runs 2 s after the cancel"
        time.sleep(0.05)
    # a new worker takes the next job
    assert finish(pool.submit(job_tasks.stamp, ("next", 0.0))).result()[0] == "next"


def test_an_abandoned_job_is_cancelled():
    pool = JobPool(workers=1, grace=0.3, abandon_after=0.5)
    try:
        job = pool.submit(job_tasks.spin, (60.0,), callbacks={"on_tick": LATEST})
        wait_for_state(job, RUNNING)
        pid = job.worker_pid
        time.sleep(2.5)  # nobody calls job.wait
        assert job.state == CANCELLED
        before = cpu_seconds(pid)
        time.sleep(0.5)
        assert cpu_seconds(pid) - before < 0.05
    finally:
        pool.shutdown()


def test_every_event_comes_back_in_order_and_latest_ones_are_thinned(pool):
    job = finish(pool.submit(job_tasks.count_up, (500,), callbacks={"on_step": EVERY}))
    assert job.result() == 500
    events = job.take_events()
    assert [e.args for e in events] == [(i, i * i) for i in range(500)]
    assert {e.callback for e in events} == {"on_step"}
    assert job.take_events() == []
    thinned = finish(pool.submit(job_tasks.spin, (1.0,), callbacks={"on_tick": LATEST}))
    ticks = [e.args[0] for e in thinned.take_events()]
    # about one per LATEST_EVERY (0.2 s) of the 1 s run, in increasing order: the job
    # called on_tick once per 1,000 loops (result // 1000 calls), most of them dropped
    calls = thinned.result() // 1000
    assert ticks, "no tick came back"
    assert len(ticks) <= 1 + 1.0 / LATEST_EVERY + 2 < calls, (len(ticks), calls)
    assert ticks == sorted(ticks)
    assert ticks[-1] <= thinned.result()  # the run may end right after its last tick


def test_errors_come_back_as_clear_messages(pool):
    with pytest.raises(InputError, match="no place called Atlantis"):
        finish(pool.submit(job_tasks.fail_with, ("input",))).result()
    with pytest.raises(JobFailed, match="ValueError: weights must be finite") as failed:
        finish(pool.submit(job_tasks.fail_with, ("value",))).result()
    assert "fail_with" in failed.value.details  # the traceback, for a log
    with pytest.raises(InputError, match=r"stopped unexpectedly: it exited with code 3"):
        finish(pool.submit(job_tasks.fail_with, ("exit",))).result()
    with pytest.raises(JobFailed, match="could not be sent back"):
        finish(pool.submit(job_tasks.fail_with, ("unpicklable",))).result()
    with pytest.raises(JobFailed, match="could not be started"):
        finish(pool.submit(job_tasks.count_up, (3,), {"on_step": lambda *a: None})).result()
    # the pool still works after all that
    assert finish(pool.submit(job_tasks.stamp, ("ok", 0.0))).state == DONE


@pytest.mark.parametrize(
    "sent, said",
    [
        (signal.SIGKILL, r"killed by signal SIGKILL \(9\).*out of memory.*smaller settings"),
        (signal.SIGTERM, r"killed by signal SIGTERM \(15\)"),
    ],
)
def test_a_worker_killed_from_outside_is_reported_with_its_signal(pool, sent, said):
    job = pool.submit(job_tasks.spin, (60.0,))
    wait_for_state(job, RUNNING)
    os.kill(job.worker_pid, sent)
    with pytest.raises(InputError, match=said) as stopped:
        finish(job).result()
    assert "None" not in str(stopped.value)
    assert finish(pool.submit(job_tasks.stamp, ("ok", 0.0))).state == DONE  # a fresh worker


def test_a_ga_run_in_the_pool_equals_the_same_run_here(pool):
    from lib.portfolio.data import hard_case_table
    from lib.portfolio.ga import GAConfig, run_ga

    table = hard_case_table(120, seed=1)
    config = GAConfig(population_size=100, elite_size=10, max_generations=15, seed=3)
    here_rows = []
    here = run_ga(table, config, on_generation=here_rows.append)
    job = finish(pool.submit(run_ga, (table, config), callbacks={"on_generation": EVERY}))
    there = job.result()
    there_rows = [e.args[0] for e in job.take_events()]
    assert there.fitness == here.fitness
    assert list(there.weights) == list(here.weights)
    assert len(there_rows) == len(here_rows) == here.generations
    assert [r.best_fitness for r in there_rows] == [r.best_fitness for r in here_rows]


def test_a_tournament_and_a_route_comparison_in_the_pool_equal_the_same_runs_here(pool):
    from lib.games.arena import MatchConfig, run_tournament
    from lib.routes import compare, graphs

    matches = [
        MatchConfig(
            "othello", ("alphabeta:depth=2", "random"), games=3, seed=5, options={"size": 6}
        )
    ]
    here = run_tournament(matches)
    job = finish(
        pool.submit(run_tournament, (matches,), callbacks={"on_game": EVERY, "on_move": LATEST})
    )
    there = job.result()
    assert [r.reproducible() for r in there.records] == [r.reproducible() for r in here.records]
    games = [e.args for e in job.take_events() if e.callback == "on_game"]
    assert [(record.game, done, total) for record, done, total in games] == [
        (0, 1, 3),
        (1, 2, 3),
        (2, 3, 3),
    ]

    G = graphs.romania()
    h = graphs.make_heuristic(G, graphs.STRAIGHT)
    args = (G, ["A*", "Greedy best-first"], h)
    here_table = compare.all_pairs(G, ["A*", "Greedy best-first"], h, ordered=False)
    job = finish(pool.submit(compare.all_pairs, args, {"ordered": False}))
    there_table = job.result()
    assert isinstance(there_table, pd.DataFrame)
    pd.testing.assert_frame_equal(
        there_table.drop(columns="seconds"), here_table.drop(columns="seconds")
    )
    assert there_table.attrs["dropped"] == here_table.attrs["dropped"]
    assert len(there_table) == 2 * nx.number_of_nodes(G) * (nx.number_of_nodes(G) - 1) // 2


def test_the_memory_cap_reads_the_environment():
    assert memory_cap_mb({}) == DEFAULT_MEMORY_MB
    assert memory_cap_mb({MEMORY_ENV: " 512 "}) == 512
    for off in ("0", "off", "OFF", "none"):
        assert memory_cap_mb({MEMORY_ENV: off}) is None
    for bad in ("-1", "lots", "1.5"):
        with pytest.raises(InputError, match=MEMORY_ENV):
            memory_cap_mb({MEMORY_ENV: bad})


def data_limit(pid: int) -> int | None:
    """The soft ``RLIMIT_DATA`` of process ``pid`` in bytes (None: unlimited)."""
    with open(f"/proc/{pid}/limits") as limits:
        line = next(line for line in limits if line.startswith("Max data size"))
    soft = line.split()[3]
    return None if soft == "unlimited" else int(soft)


def test_a_job_over_the_memory_cap_fails_clearly_and_a_fresh_worker_takes_the_next():
    cap = 200  # MB of data: a bare worker holds about ten
    pool = JobPool(workers=1, memory_mb=cap, idle_seconds=30)
    try:
        first_pid, held = finish(pool.submit(job_tasks.allocate, (cap // 10,))).result()
        assert held == cap // 10 * 1024 * 1024  # under the cap: fine
        assert data_limit(first_pid) == cap * 1024 * 1024
        with pytest.raises(JobOutOfMemory) as failed:
            finish(pool.submit(job_tasks.allocate, (2 * cap,))).result()
        assert str(failed.value) == (
            "This job needed more memory than this server allows per job (200 MB); "
            "try smaller settings."
        )
        assert isinstance(failed.value, InputError)  # a page shows it as a plain message
        deadline = time.monotonic() + 5
        while alive(first_pid):  # the worker that ran out left the pool
            assert time.monotonic() < deadline, "the worker that ran out is still alive"
            time.sleep(0.05)
        next_pid, held = finish(pool.submit(job_tasks.allocate, (cap // 10,))).result()
        assert next_pid != first_pid and held == cap // 10 * 1024 * 1024
        assert data_limit(next_pid) == cap * 1024 * 1024
        assert pool.worker_pids() == [next_pid]
    finally:
        pool.shutdown()


def test_a_job_whose_arguments_overflow_the_cap_fails_clearly_too():
    pool = JobPool(workers=1, memory_mb=60, idle_seconds=30)
    try:
        too_big = bytes(80 * 1024 * 1024)  # the worker runs out receiving it
        with pytest.raises(JobOutOfMemory, match=r"allows per job \(60 MB\)"):
            finish(pool.submit(job_tasks.allocate, (1, too_big))).result()
        del too_big
        pid, held = finish(pool.submit(job_tasks.allocate, (1,))).result()
        assert held == 1024 * 1024 and pool.worker_pids() == [pid]
    finally:
        pool.shutdown()


def test_without_a_cap_a_worker_has_the_servers_limit():
    pool = JobPool(workers=1, memory_mb=None)
    try:
        pid, _ = finish(pool.submit(job_tasks.allocate, (1,))).result()
        assert data_limit(pid) == data_limit(os.getpid())
    finally:
        pool.shutdown()


def test_a_library_that_cannot_be_mapped_counts_as_out_of_memory():
    from lib.jobs import _ran_out_of_memory

    mapped = OSError("/x/libllvmlite.so: failed to map segment from shared object")
    try:
        try:
            raise mapped
        except OSError as inner:
            raise OSError("Could not find/load shared object file 'libllvmlite.so'") from inner
    except OSError as outer:
        assert _ran_out_of_memory(outer)
    assert _ran_out_of_memory(OSError(errno.ENOMEM, "Cannot allocate memory"))
    assert _ran_out_of_memory(MemoryError())
    assert not _ran_out_of_memory(OSError(errno.ENOENT, "No such file"))
    assert not _ran_out_of_memory(ValueError("weights must be finite"))


def test_a_queued_job_is_told_its_wait_from_how_long_jobs_of_its_kind_took_here():
    pool = JobPool(workers=1, idle_seconds=30)
    try:
        first = pool.submit(job_tasks.stamp, ("a", 0.3))
        second = pool.submit(job_tasks.stamp, ("b", 0.3))
        wait_for_state(first, RUNNING)
        assert pool.estimated_wait(second) is None  # none of its kind has finished here yet
        finish(first), finish(second)
        typical = pool._durations.typical(job_kind(job_tasks.stamp))
        assert typical >= 0.3  # each slept that long in its worker
        running = pool.submit(job_tasks.stamp, ("c", 5.0))
        queued = [pool.submit(job_tasks.stamp, (label, 0.3)) for label in "de"]
        wait_for_state(running, RUNNING)
        now = time.monotonic()
        left = max(0.0, typical - (now - running.started))
        assert pool.estimated_wait(queued[0], now) == pytest.approx(left)
        assert pool.estimated_wait(queued[1], now) == pytest.approx(left + typical)
        assert pool.estimated_wait(running, now) == 0.0
        assert pool.estimated_wait(queued[1], now + 100) == pytest.approx(typical)  # overdue
    finally:
        pool.shutdown()


def test_a_wait_is_estimated_from_a_running_jobs_progress_or_its_expected_length():
    pool = JobPool(workers=1, idle_seconds=30)
    try:
        running = pool.submit(job_tasks.stamp, ("a", 5.0))
        queued = [pool.submit(job_tasks.stamp, (label, 0.1)) for label in "bc"]
        wait_for_state(running, RUNNING)
        assert pool.estimated_wait(queued[0]) is None  # nothing at all to go by yet
        running.progressed(0.25)  # a quarter done: it runs four times as long in all
        now = running.started + 2.0
        assert pool.estimated_wait(queued[0], now) == pytest.approx(6.0)
        # the job ahead of the second is of no known kind: it counts as the shortest known
        assert pool.estimated_wait(queued[1], now) == pytest.approx(6.0 + 8.0)
        pool.submit(job_tasks.stamp, ("d", 0.1), expected_seconds=3.0)
        last = pool.submit(job_tasks.stamp, ("e", 0.1))
        # known now: the running job's 8 s and the hinted 3 s; b and c count as 3 s each
        assert pool.estimated_wait(last, now) == pytest.approx(6.0 + 3.0 + 3.0 + 3.0)
    finally:
        pool.shutdown()


def test_submit_if_idle_takes_only_a_live_worker_with_nothing_to_do(pool):
    assert pool.submit_if_idle(job_tasks.stamp, ("cold", 0.0)) is None  # no worker is up yet
    assert pool.counts() == (0, 0)  # and nothing was queued
    assert pool.fill(job_tasks.stamp, ("warm-up", 0.0)) == 1
    assert pool.fill(job_tasks.stamp, ("again", 0.0)) == 0  # the one worker is taken
    deadline = time.monotonic() + 60
    while pool.idle_workers() != 1:
        assert time.monotonic() < deadline, "the warm-up never finished"
        time.sleep(0.05)
    busy = pool.submit_if_idle(job_tasks.stamp, ("first", 1.0))
    assert busy is not None
    assert pool.submit_if_idle(job_tasks.stamp, ("second", 0.0)) is None  # it is busy
    assert finish(busy).result()[0] == "first"


def test_a_warm_up_nobody_waits_for_is_not_abandoned():
    pool = JobPool(workers=1, grace=0.3, abandon_after=0.5)
    try:
        pool.fill(job_tasks.stamp, ("warm-up", 2.0))  # longer than abandon_after
        deadline = time.monotonic() + 60
        while pool.idle_workers() != 1:
            assert time.monotonic() < deadline, "the warm-up was abandoned or never ended"
            time.sleep(0.05)
        (pid,) = pool.worker_pids()
        assert alive(pid)  # it finished its warm-up and was not killed
    finally:
        pool.shutdown()
