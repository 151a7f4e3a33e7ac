"""Arena throughput: in-process vs a local process pool vs a Dask LocalCluster.

Workload: the Othello 6x6 depth-3 preset (alpha-beta depth 3 against random).
Prints games per second for each executor, the pool's speed-up over in-process
(target >= 1.7x with 2 workers on 2 free cores), and the Dask executor's
overhead per game: a no-op task's round trip, and the extra worker-time per
game compared with playing in-process. Every executor must give the same games.

    python bench/arena.py [--games 150] [--repeats 5] [--workers 2] [--no-dask]

Pools are started and warmed up before timing; their start-up time is printed
separately. In-process and pool runs alternate and the median ratio is
reported, so both see the same background load; on a shared machine the
figures are still noisy (the load average is printed). A pure-CPU loop run
on the same pool gives the reference: the speed-up this machine can give a
second process at that moment (with Linux autogroup scheduling, a busy shared
machine gives one session's extra processes little or no extra CPU). The CPU time the
pool's workers and the main process spend (from /proc) against the in-process
CPU time gives the speed-up to expect on free cores.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lib.games.arena import (
    InlineExecutor,
    open_executor,
    presets,
    run_tasks,
    run_tournament,
)


def _noop(x: int) -> int:
    return x


def _busy(n: int) -> int:
    """Pure CPU work with no arena code: the machine's own parallel speed-up."""
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


def _busy_seconds(executor, tasks: int = 8, n: int = 400_000) -> float:
    start = time.perf_counter()
    run_tasks(_busy, [(n,)] * tasks, executor)
    return time.perf_counter() - start


def _workers_cpu(pool) -> float:
    """CPU seconds (user + system) used so far by a process pool's workers (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in list(getattr(pool, "_processes", {}) or {}):
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def _timed(matches, executor) -> tuple[float, list]:
    start = time.perf_counter()
    result = run_tournament(matches, executor)
    return time.perf_counter() - start, [r.reproducible() for r in result.records]


def _warm(executor, workers: int) -> None:
    run_tasks(_noop, [(i,) for i in range(4 * workers)], executor)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150, help="games per timed run")
    parser.add_argument("--repeats", type=int, default=5, help="alternating timed rounds")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()
    matches = presets()["othello_depth3"].matches(games=args.games, seed=1)
    n = sum(m.games for m in matches)
    print(f"workload: {matches[0].label}, Othello 6x6, {n} games per run, seed 1")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    start = time.perf_counter()
    with open_executor("process", workers=args.workers) as pool:
        _warm(pool, args.workers)
        print(f"process pool start-up (not timed below): {time.perf_counter() - start:.2f} s")
        # alternate in-process and pool runs so both see the same background load
        rounds, machine, cpu = [], [], []
        for round_index in range(args.repeats):
            cpu0 = time.process_time()
            inline_s, reference = _timed(matches, InlineExecutor())
            inline_cpu = time.process_time() - cpu0
            cpu0, workers0 = time.process_time(), _workers_cpu(pool)
            pool_s, pooled = _timed(matches, pool)
            cpu.append((inline_cpu, time.process_time() - cpu0, _workers_cpu(pool) - workers0))
            assert pooled == reference, "process pool games differ from in-process games"
            rounds.append((inline_s, pool_s))
            busy_ratio = _busy_seconds(InlineExecutor()) / _busy_seconds(pool)
            machine.append(busy_ratio)
            print(
                f"round {round_index + 1}: in-process {n / inline_s:6.1f} games/s, "
                f"pool({args.workers}) {n / pool_s:6.1f} games/s, "
                f"speed-up {inline_s / pool_s:.2f}x; pure-CPU reference speed-up "
                f"{busy_ratio:.2f}x"
            )
    ratios = sorted(i / p for i, p in rounds)
    inline_s = statistics.median(i for i, _ in rounds)
    print(
        f"median speed-up pool({args.workers}) / in-process: {statistics.median(ratios):.2f}x "
        f"(min {ratios[0]:.2f}x, max {ratios[-1]:.2f}x; target >= 1.7x on 2 free cores)"
    )
    print(
        f"median pure-CPU reference speed-up on the same pool: {statistics.median(machine):.2f}x "
        "(what this machine gives a second process right now)"
    )
    inline_cpu = statistics.median(c[0] for c in cpu)
    main_cpu = statistics.median(c[1] for c in cpu)
    worker_cpu = statistics.median(c[2] for c in cpu)
    print(
        f"CPU seconds per run (medians): in-process {inline_cpu:.2f}; pool: workers "
        f"{worker_cpu:.2f} + main process {main_cpu:.2f}"
    )
    print(
        f"estimated speed-up on {args.workers} free cores from CPU time "
        f"(in-process CPU / ((workers + main) CPU / {args.workers})): "
        f"{inline_cpu / ((worker_cpu + main_cpu) / args.workers):.2f}x"
    )
    relative = statistics.median(i / p / m for (i, p), m in zip(rounds, machine, strict=True))
    print(f"median of arena speed-up / reference speed-up per round: {relative:.2f}")

    if not args.no_dask:
        from dask.distributed import LocalCluster

        start = time.perf_counter()
        with (
            LocalCluster(
                n_workers=args.workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=40,
            ) as cluster,
            open_executor("dask", scheduler=cluster.scheduler_address) as executor,
        ):
            _warm(executor, args.workers)
            print(f"dask LocalCluster start-up (not timed): {time.perf_counter() - start:.2f} s")
            tasks = 200
            t0 = time.perf_counter()
            run_tasks(_noop, [(i,) for i in range(tasks)], executor, max_in_flight=1)
            round_trip = (time.perf_counter() - t0) / tasks
            dask_s, on_dask = _timed(matches, executor)
        assert on_dask == reference, "Dask games differ from in-process games"
        extra = (dask_s * args.workers - inline_s) / n
        print(f"dask LocalCluster({args.workers}): {n / dask_s:6.1f} games/s")
        print(f"dask no-op task round trip (one at a time): {1000 * round_trip:.2f} ms")
        print(
            f"dask extra worker-time per game vs in-process (median run): {1000 * extra:.2f} ms "
            f"(in-process game: {1000 * inline_s / n:.2f} ms)"
        )
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("identical games on every executor: yes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
