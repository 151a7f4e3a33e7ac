"""Portfolio GA benchmark on the bundled sample (400 stocks) with the default config.

Run from the repository root::

    python bench/portfolio.py            # full
    python bench/portfolio.py --quick    # fewer seeds / repeats
    python bench/portfolio.py --stress 30   # also 30 generated tight instances

Prints:
1. milliseconds per generation at population 700 for the vectorised GA, and
   for a straightforward per-individual implementation of the same operators
   (a Python loop over individuals, NumPy inside each) measured in the same run;
2. median seconds and generations to the first feasible portfolio over 10 seeds;
3. with ``stop_at_first_feasible=False``, the best feasible fitness as a
   percentage of the MILP optimum after 1 s and after the full run.

Targets (2-core machine): < 3 ms per generation, median < 0.1 s to the first
feasible portfolio, >= 97 % of the MILP optimum within 1 s. Timings depend on
the machine's load: the ratio against the reference is the stable figure.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lib.portfolio.data import load_stock_table  # noqa: E402
from lib.portfolio.exact import solve_exact  # noqa: E402
from lib.portfolio.ga import GAConfig, make_problem, run_ga  # noqa: E402


class LoopGA:
    """The same GA written the straightforward way: one individual at a time.

    Same operators as :mod:`lib.portfolio.ga` (Deb-rule scores, rank
    selection, elitism, uniform crossover, one-gene reset mutation,
    normalisation with the small-weight threshold, stock-count repair), but
    with a Python loop over the individuals and NumPy only inside one
    individual.
    """

    def __init__(self, table, config: GAConfig) -> None:
        self.config = config
        self.problem = make_problem(table, config)
        self.rng = np.random.default_rng(config.seed)
        n = self.problem.n
        self.population = [
            self.normalise(self.rng.random(n)) for _ in range(config.population_size)
        ]

    def normalise(self, weights: np.ndarray) -> np.ndarray:
        n = len(weights)
        weights = weights / weights.sum()
        weights[weights < 1.0 / (self.config.threshold_divisor * n)] = 0.0
        return weights / weights.sum()

    def score(self, weights: np.ndarray) -> float:
        c, p = self.config, self.problem
        ret, risk, value = weights @ p.ret, weights @ p.risk, weights @ p.value
        count = np.count_nonzero(weights)
        if count >= c.min_stocks and risk < c.max_risk and ret > c.min_return:
            return float(value)
        violation = (
            max(risk - c.max_risk, 0) / c.max_risk
            + max(c.min_return - ret, 0) / c.min_return
            + max(c.min_stocks - count, 0) / c.min_stocks
        )
        return float(p.value.min() - 1 - violation)

    def repair(self, weights: np.ndarray) -> np.ndarray:
        n = len(weights)
        missing = self.config.min_stocks - np.count_nonzero(weights)
        if missing > 0:
            free = np.flatnonzero(weights == 0)
            picks = self.rng.choice(free, size=missing, replace=False)
            weights[picks] = 2.0 / (self.config.threshold_divisor * n)
            weights = self.normalise(weights)
        return weights

    def generation(self) -> None:
        c, rng = self.config, self.rng
        scores = [self.score(w) for w in self.population]
        order = sorted(range(len(scores)), key=scores.__getitem__)
        ranks = [0] * len(scores)
        for rank, index in enumerate(order, start=1):
            ranks[index] = rank
        elites = [self.population[i] for i in order[-c.elite_size :]]
        children = []
        n = self.problem.n
        for _ in range(c.population_size - c.elite_size):
            first, second = rng.choice(len(scores), size=2, p=np.array(ranks) / sum(ranks))
            child = self.population[first].copy()
            if rng.random() < c.p_crossover:
                mask = rng.random(n) < 0.5
                child[~mask] = self.population[second][~mask]
            if rng.random() < c.p_mutation:
                child[rng.integers(n)] = rng.random()
            children.append(self.repair(self.normalise(child)))
        self.population = elites + children


def ms_per_generation(
    table, config: GAConfig, generations: int, repeats: int
) -> tuple[float, float]:
    """Median wall and CPU (this process) milliseconds per generation of run_ga."""
    timed = dataclasses.replace(config, max_generations=generations, stop_at_first_feasible=False)
    wall, cpu = [], []
    for _ in range(repeats):
        start = time.process_time()
        result = run_ga(table, timed)
        cpu.append((time.process_time() - start) / result.generations * 1000)
        wall.append(result.seconds / result.generations * 1000)
    return statistics.median(wall), statistics.median(cpu)


def loop_ms_per_generation(table, config: GAConfig, generations: int) -> tuple[float, float]:
    """Wall and CPU milliseconds per generation of the per-individual reference."""
    ga = LoopGA(table, config)
    start, start_cpu = time.perf_counter(), time.process_time()
    for _ in range(generations):
        ga.generation()
    wall = (time.perf_counter() - start) / generations * 1000
    return wall, (time.process_time() - start_cpu) / generations * 1000


def cpu_limited(table, config: GAConfig, seed: int, cpu_seconds: float) -> float:
    """Best feasible fitness after ``cpu_seconds`` of this process's CPU time."""
    start = time.process_time()
    result = run_ga(
        table,
        dataclasses.replace(config, seed=seed),
        on_generation=lambda _stats: time.process_time() - start < cpu_seconds,
    )
    return result.fitness


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer seeds and repeats")
    parser.add_argument(
        "--stress",
        type=int,
        default=0,
        metavar="N",
        help="also try N generated tight instances (GA vs MILP feasibility)",
    )
    args = parser.parse_args()
    table = load_stock_table(ROOT / "data" / "sample_stocks.csv")
    config = GAConfig()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average {load} on {os.cpu_count()} CPUs (timings grow with the load)")
    print(
        f"data: {len(table)} stocks; config: population {config.population_size}, "
        f"elite {config.elite_size}, p_crossover {config.p_crossover}, "
        f"p_mutation {config.p_mutation}, {config.crossover} crossover, "
        f"{config.selection} selection, {config.fitness} fitness, repair {config.repair}"
    )

    print("\n1. Time per generation (population 700)")
    vector, vector_cpu = ms_per_generation(table, config, 200, 3 if args.quick else 5)
    loop, loop_cpu = loop_ms_per_generation(table, config, 5 if args.quick else 15)
    print("                              wall ms/gen   CPU ms/gen (this process)")
    print(f"   vectorised GA:             {vector:9.2f}   {vector_cpu:9.2f}   (target < 3 ms)")
    print(f"   per-individual reference:  {loop:9.2f}   {loop_cpu:9.2f}")
    print(f"   speed-up:                  {loop / vector:9.1f}x  {loop_cpu / vector_cpu:9.1f}x")

    print("\n2. First feasible portfolio, default config (stop_at_first_feasible=True)")
    runs, cpu_seconds = [], []
    for seed in range(10):
        start = time.process_time()
        runs.append(run_ga(table, dataclasses.replace(config, seed=seed)))
        cpu_seconds.append(time.process_time() - start)  # the run stops at the first feasible
    assert all(r.feasible for r in runs), "a run found no feasible portfolio"
    seconds = [r.first_feasible_seconds for r in runs]
    generations = [r.first_feasible_generation for r in runs]
    print(f"   seeds 0-9: generations {generations}")
    print(
        f"   median {statistics.median(seconds):.3f} s wall "
        f"({statistics.median(cpu_seconds):.3f} s CPU), "
        f"median {statistics.median(generations):.1f} generations   (target < 0.1 s)"
    )

    print("\n3. Best feasible fitness as % of the MILP optimum (stop_at_first_feasible=False)")
    exact = solve_exact(table, config)
    print(f"   MILP optimum {exact.objective:.4f} ({exact.n_stocks} stocks, {exact.seconds:.2f} s)")
    keep_going = dataclasses.replace(config, stop_at_first_feasible=False)
    seeds = range(3 if args.quick else 5)
    after_1s = [
        100
        * run_ga(table, dataclasses.replace(keep_going, seed=s, time_limit=1.0)).fitness
        / exact.objective
        for s in seeds
    ]
    after_1s_cpu = [100 * cpu_limited(table, keep_going, s, 1.0) / exact.objective for s in seeds]
    full = [run_ga(table, dataclasses.replace(keep_going, seed=s)) for s in seeds]
    full_pct = [100 * r.fitness / exact.objective for r in full]
    print(
        f"   after 1 s wall:  median {statistics.median(after_1s):.2f} %, "
        f"min {min(after_1s):.2f} %   (target >= 97 %)"
    )
    print(
        f"   after 1 s CPU:   median {statistics.median(after_1s_cpu):.2f} %, "
        f"min {min(after_1s_cpu):.2f} %"
    )
    print(
        f"   after {config.max_generations} generations: median "
        f"{statistics.median(full_pct):.2f} %, min {min(full_pct):.2f} % "
        f"(median {statistics.median(r.seconds for r in full):.2f} s per run)"
    )

    if args.stress:
        stress(args.stress)


def stress(trials: int) -> None:
    """Generated instances with a return bound at 80-99 % of the best achievable.

    Counts how often the default GA finds a feasible portfolio when the MILP
    says one exists (the course's fitness is shown for comparison).
    """
    import pandas as pd
    from scipy.optimize import linprog

    print(f"\n4. Stress: {trials} generated tight instances (default config, 1000 generations)")
    rng = np.random.default_rng(7)
    found = course_found = feasible = 0
    for trial in range(trials):
        n = int(rng.integers(40, 400))
        risk = rng.uniform(0, 1, n)
        if trial % 3 == 0:  # high return only among risky stocks
            cut = rng.uniform(0.6, 0.9)
            ret = np.where(risk > cut, rng.uniform(5, 20, n), rng.uniform(0, 10, n) * rng.random(n))
        elif trial % 3 == 1:
            ret = rng.lognormal(0, 1.2, n)
        else:
            ret = np.maximum(12 * risk**2 + rng.normal(0, 0.5, n), -0.9)
        table = pd.DataFrame({"ticker": [f"S{i}" for i in range(n)], "risk": risk, "return": ret})
        min_stocks = int(rng.integers(1, min(n, 100)))
        max_risk = float(rng.uniform(0.2, 0.7))
        best = -linprog(
            -ret, A_ub=[risk], b_ub=[max_risk], A_eq=[np.ones(n)], b_eq=[1], bounds=(0, 1)
        ).fun
        config = GAConfig(
            min_stocks=min_stocks,
            max_risk=max_risk,
            min_return=best * float(rng.uniform(0.8, 0.99)),
            seed=trial,
        )
        if not solve_exact(table, config).feasible:
            continue
        feasible += 1
        found += run_ga(table, config).feasible
        course = dataclasses.replace(config, fitness="course", repair=False)
        course_found += run_ga(table, course).feasible
    print(
        f"   MILP feasible on {feasible}; default GA found a feasible portfolio on {found}, "
        f"the course's GA on {course_found}"
    )


if __name__ == "__main__":
    main()
