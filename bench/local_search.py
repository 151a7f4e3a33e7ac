"""Benchmark: AIMA's n-queens local-search figures reproduced, and the fast paths timed.

1. The book's table (3rd ed., Section 4.1.1 and Section 6.4) beside ours: steepest ascent with
   and without 100 sideways moves over ``--instances`` random 8-queens states
   (goal: each success rate within 2 percentage points of 14 % and 94 %), random
   restart's climbs and steps per solution (with 1/p from the measured rates),
   and min-conflicts on a million queens (goal: under 10 s).
2. Min-conflicts on a million queens from ``--seeds`` seeds: steps after the greedy
   first assignment (book: about 50) and seconds (the one-off compilation left out).
3. The compiled steepest ascent against the textbook code on the same 8-queens
   instances (the same boards checked): the speed ratio.

    python -m bench.local_search            # --instances 10000 --seeds 5
"""

from __future__ import annotations

import argparse
import os
import time

import pandas as pd

from lib.local_search import aima, fast, textbook
from lib.local_search.queens import Board
from lib.local_search.randomness import Uniforms
from lib.local_search.trace import Tracer


def textbook_against_fast(instances: int) -> None:
    """Time both hill climbers (100 sideways moves) on the same instances; check equal boards."""
    rand = Uniforms(7)
    start = time.process_time()
    slow = []
    for _ in range(instances):
        board = Board.random(8, rand)
        textbook.hill_climbing(board, rand, Tracer(keep_states=False), 100)
        slow.append(tuple(board.rows))
    slow_seconds = time.process_time() - start
    rand = Uniforms(7)
    start = time.process_time()
    quick = []
    for _ in range(instances):
        arrays = fast.Arrays.random(8, rand)
        fast.hill_climbing(arrays, rand, 100)
        quick.append(tuple(arrays.rows.tolist()))
    fast_seconds = time.process_time() - start
    assert slow == quick, "the fast path ended on other boards"
    print(
        f"\nSteepest ascent, ≤ 100 sideways, {instances:,} instances: textbook "
        f"{slow_seconds:.2f} s CPU, compiled {fast_seconds:.3f} s CPU "
        f"({slow_seconds / fast_seconds:.0f}x), the same {instances:,} final boards"
    )


def main() -> None:
    """Print the three parts."""
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--instances", type=int, default=10_000)
    options.add_argument("--seeds", type=int, default=5)
    options.add_argument("--seed", type=int, default=1)
    args = options.parse_args()
    pd.set_option("display.width", 160)
    print(f"load average: {os.getloadavg()[0]:.1f}")
    start = time.perf_counter()
    table = pd.DataFrame(
        aima.aima_figures(args.instances, args.seed, restart_runs=args.instances // 5)
    )
    print(f"\nAIMA's figures ({args.instances:,} instances), {time.perf_counter() - start:.1f} s:")
    print(table.to_string(index=False, na_rep=""))
    runs = [aima.million_queens(seed) for seed in range(1, args.seeds + 1)]
    steps = [s for _, s, _ in runs]
    seconds = [t for _, _, t in runs]
    print(
        f"\nMin-conflicts, 1,000,000 queens, seeds 1–{args.seeds}: all solved "
        f"{all(h == 0 for h, _, _ in runs)}; steps mean {sum(steps) / len(steps):.0f} "
        f"(min {min(steps)}, max {max(steps)}; book about 50); seconds mean "
        f"{sum(seconds) / len(seconds):.2f}, max {max(seconds):.2f} (goal < 10)"
    )
    textbook_against_fast(1_000)


if __name__ == "__main__":
    main()
