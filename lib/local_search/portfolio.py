"""The portfolio problem by local search: hill climbing and simulated annealing beside the GA.

The state is a portfolio (weights summing to 1), scored exactly as the Portfolio
page's GA scores it (:func:`lib.portfolio.ga.selection_scores`: the course's
objective for a feasible portfolio, below every feasible one by its constraint
violation otherwise). A neighbour changes one stock's weight (drops it, or sets it
to a random share of the largest weight), then the GA's own normalisation and
repair apply (:mod:`lib.portfolio.ga`). Every algorithm here counts the fitness
evaluations it makes, so :func:`compare` runs the GA, hill climbing and simulated
annealing on the same budget and records the best feasible fitness against the
evaluations spent.

- Hill climbing: steepest ascent over ``neighbours`` sampled neighbours per step;
  after ``patience`` steps without a better one it restarts from a random portfolio
  (random-restart hill climbing); the best portfolio seen is kept.
- Simulated annealing: ``chains`` independent chains side by side, one neighbour
  each per step, a worse one taken with probability e^(Δ/T); T falls exponentially
  from ``t0`` to ``t0 / cooling`` over the budget (fitness differences between
  neighbours are of the order of 0.001–0.1).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from lib.errors import InputError
from lib.portfolio.ga import (
    GAConfig,
    Problem,
    evaluate,
    make_problem,
    normalise,
    repair,
    replace_config,
    run_ga,
    selection_scores,
)

MAX_EVALUATIONS = 2_000_000
"""Most fitness evaluations one algorithm may spend in a comparison."""
ALGORITHMS = ("GA", "Hill climbing", "Simulated annealing")


@dataclass(frozen=True)
class Run:
    """One algorithm's run: its best feasible portfolio and the curve of best fitness."""

    algorithm: str
    weights: np.ndarray
    fitness: float  # the course's fitness of the best feasible portfolio (NaN: none found)
    feasible: bool
    evaluations: int
    seconds: float
    curve: pd.DataFrame  # evaluations, best fitness (best feasible so far; NaN before one)


class _Scorer:
    """Scores portfolios as the GA does and counts the evaluations; keeps the best feasible."""

    def __init__(self, problem: Problem, config: GAConfig, every: int) -> None:
        self.problem, self.config = problem, config
        self.evaluations = 0
        self.best_weights: np.ndarray | None = None
        self.best = -math.inf
        self.every = every  # a curve point every this many evaluations
        self.points: list[tuple[int, float]] = []

    def __call__(self, portfolios: np.ndarray) -> np.ndarray:
        """The GA's selection score of each row (higher is better)."""
        ret, risk, objective, count, feasible = evaluate(portfolios, self.problem, self.config)
        if feasible.any():
            rows = np.flatnonzero(feasible)
            top = int(rows[np.argmax(objective[rows])])
            if objective[top] > self.best:
                self.best, self.best_weights = float(objective[top]), portfolios[top].copy()
        before = self.evaluations
        self.evaluations += len(portfolios)
        if self.evaluations // self.every > before // self.every:
            self.points.append((self.evaluations, self.fitness()))
        return selection_scores(ret, risk, objective, count, feasible, self.problem, self.config)

    def fitness(self) -> float:
        """The course's fitness of the best feasible portfolio so far (NaN: none yet)."""
        return max(self.best, 0.0) if self.best_weights is not None else math.nan


def random_portfolios(rows: int, n: int, config: GAConfig, rng: np.random.Generator) -> np.ndarray:
    """Random portfolios as the GA starts from: uniform weights, normalised."""
    return normalise(rng.random((rows, n)), config.threshold_divisor)


def neighbours(portfolios: np.ndarray, config: GAConfig, rng: np.random.Generator) -> np.ndarray:
    """One neighbour per row: a held stock dropped or a stock given a random share; repaired."""
    rows, n = portfolios.shape
    children = portfolios.copy()
    drop = rng.random(rows) < 0.5
    held_key = rng.random((rows, n)) * (children > 0)  # a random held stock: the largest key
    stocks = np.where(drop, held_key.argmax(axis=1), rng.integers(0, n, size=rows))
    shares = rng.random(rows) * children.max(axis=1)
    children[np.arange(rows), stocks] = np.where(drop, 0.0, shares)
    normalise(children, config.threshold_divisor)
    if config.repair:
        repair(children, config, rng)
    return children


def hill_climbing(
    score: _Scorer,
    budget: int,
    rng: np.random.Generator,
    neighbours_per_step: int = 50,
    patience: int = 50,
) -> None:
    """Steepest ascent over sampled neighbours, restarting when stuck, until ``budget`` is spent."""
    config, n = score.config, score.problem.n
    current = random_portfolios(1, n, config, rng)
    value = score(current)[0]
    stuck = 0
    while score.evaluations + neighbours_per_step <= budget:
        candidates = neighbours(np.repeat(current, neighbours_per_step, axis=0), config, rng)
        values = score(candidates)
        best = int(np.argmax(values))
        if values[best] > value:
            current, value, stuck = candidates[best : best + 1], values[best], 0
        else:
            stuck += 1
        if stuck == patience and score.evaluations < budget:  # a local maximum: restart
            current = random_portfolios(1, n, config, rng)
            value, stuck = score(current)[0], 0


def simulated_annealing(
    score: _Scorer,
    budget: int,
    rng: np.random.Generator,
    chains: int = 10,
    t0: float = 0.001,
    cooling: float = 1_000.0,
) -> None:
    """``chains`` annealing chains side by side until ``budget`` is spent (exponential cooling)."""
    config, n = score.config, score.problem.n
    current = random_portfolios(chains, n, config, rng)
    values = score(current)
    steps = max(1, (budget - chains) // chains)
    rate = math.log(cooling) / steps  # T falls from t0 to t0 / cooling over the budget
    t = 0
    while score.evaluations + chains <= budget:
        t += 1
        temperature = t0 * math.exp(-rate * t)
        candidates = neighbours(current, config, rng)
        new = score(candidates)
        delta = new - values
        accept = (delta > 0) | (rng.random(chains) < np.exp(np.minimum(delta, 0) / temperature))
        current[accept], values[accept] = candidates[accept], new[accept]


def _run(
    name: str,
    search: Callable[[_Scorer], None],
    problem: Problem,
    config: GAConfig,
    budget: int,
) -> Run:
    """Run ``search`` with a fresh scorer; its result as a :class:`Run`."""
    start = time.perf_counter()
    score = _Scorer(problem, config, every=max(1, budget // 200))
    search(score)
    curve = pd.DataFrame(score.points, columns=["evaluations", "best fitness"])
    weights = score.best_weights if score.best_weights is not None else np.zeros(problem.n)
    return Run(
        name,
        weights,
        score.fitness(),
        score.best_weights is not None,
        score.evaluations,
        time.perf_counter() - start,
        curve,
    )


def ga_run(table: pd.DataFrame, config: GAConfig, budget: int) -> Run:
    """The page's GA with ``budget // population`` generations, not stopping at a first feasible."""
    generations = max(1, budget // config.population_size)
    start = time.perf_counter()
    result = run_ga(
        table,
        replace_config(
            config, max_generations=generations, stop_at_first_feasible=False, time_limit=None
        ),
    )
    history = result.history
    curve = pd.DataFrame(
        {
            "evaluations": history["generation"] * config.population_size,
            "best fitness": history["best_feasible_fitness"],
        }
    )
    return Run(
        "GA",
        result.weights,
        result.fitness if result.feasible else math.nan,
        result.feasible,
        int(result.generations * config.population_size),
        time.perf_counter() - start,
        curve,
    )


def compare(
    table: pd.DataFrame,
    config: GAConfig,
    budget: int,
    seed: int = 0,
    on_progress: Callable[[int, int], None] | None = None,
) -> list[Run]:
    """The GA, hill climbing and simulated annealing, each with ``budget`` fitness evaluations."""
    if not config.population_size <= budget <= MAX_EVALUATIONS:
        raise InputError(
            f"The budget must be from one population ({config.population_size:,}) to "
            f"{MAX_EVALUATIONS:,} fitness evaluations; got {budget:,}."
        )
    problem = make_problem(table, config)
    runs = [ga_run(table, replace_config(config, seed=seed), budget)]
    if on_progress is not None:
        on_progress(1, 3)
    climb = np.random.default_rng([seed, 1])
    runs.append(
        _run("Hill climbing", lambda s: hill_climbing(s, budget, climb), problem, config, budget)
    )
    if on_progress is not None:
        on_progress(2, 3)
    anneal = np.random.default_rng([seed, 2])
    runs.append(
        _run(
            "Simulated annealing",
            lambda s: simulated_annealing(s, budget, anneal),
            problem,
            config,
            budget,
        )
    )
    if on_progress is not None:
        on_progress(3, 3)
    return runs


def curves(runs: list[Run]) -> pd.DataFrame:
    """The runs' curves in one long table: algorithm, evaluations, best fitness."""
    return pd.concat(
        [run.curve.assign(algorithm=run.algorithm) for run in runs], ignore_index=True
    )[["algorithm", "evaluations", "best fitness"]]


def summary(runs: list[Run], optimum: float | None) -> pd.DataFrame:
    """Per algorithm: best fitness, its distance to the exact optimum, evaluations, seconds."""
    rows = []
    for run in runs:
        gap = optimum - run.fitness if optimum is not None and run.feasible else math.nan
        rows.append(
            {
                "algorithm": run.algorithm,
                "best fitness": round(run.fitness, 4),
                "distance to the optimum": round(gap, 4),
                "% of the optimum": round(100 * run.fitness / optimum, 2) if optimum else math.nan,
                "stocks held": int(np.count_nonzero(run.weights)),
                "evaluations": run.evaluations,
                "seconds": round(run.seconds, 2),
            }
        )
    return pd.DataFrame(rows)
