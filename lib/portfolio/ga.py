"""A vectorised genetic algorithm for the course's portfolio problem.

Each stock ``i`` gets a coefficient ``c_i >= 0`` with ``sum(c) == 1``. A
portfolio is *feasible* when it holds at least ``min_stocks`` stocks (non-zero
coefficients), its weighted risk ``sum(c * risk)`` is below ``max_risk`` and
its weighted return ``sum(c * return)`` is above ``min_return``.

The course's fitness is linear in the coefficients::

    fitness(c) = max(0, sum_i c_i * (return_i - risk_i - 5 * max(risk_i - 0.6, 0)))

and says nothing about the constraints, which are only checked to stop the
run. On some data its risk penalty steers the population away from every
feasible portfolio (high-return stocks that are also high-risk). The robust
default, ``fitness="constrained"``, ranks every feasible portfolio above
every infeasible one and infeasible ones by how far they violate each
constraint (Deb's feasibility rule); ``repair=True`` gives a child that
holds too few stocks the missing ones at the smallest weight that survives
normalisation. Both are switched off with ``fitness="course", repair=False``
to get the course's GA as taught.

The whole population is one ``(population_size, n_stocks)`` NumPy array;
every operator (selection, crossover, mutation, normalisation, repair,
evaluation) works on that array at once, with no Python loop over
individuals or genes.

>>> import pandas as pd
>>> table = pd.DataFrame({"ticker": list("ABCD"), "risk": [0.1, 0.2, 0.3, 0.9],
...                       "return": [1.0, 2.0, 3.0, 20.0]})
>>> config = GAConfig(population_size=40, elite_size=4, min_stocks=2, min_return=5.0,
...                   max_generations=200, seed=1)
>>> result = run_ga(table, config)
>>> result.feasible, round(float(result.weights.sum()), 6)
(True, 1.0)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Literal

import numpy as np
import pandas as pd

from lib.errors import InputError

Crossover = Literal["uniform", "one_point", "blend"]
Selection = Literal["rank", "tournament", "roulette"]
Fitness = Literal["constrained", "course"]

CROSSOVERS: tuple[str, ...] = ("uniform", "one_point", "blend")
SELECTIONS: tuple[str, ...] = ("rank", "tournament", "roulette")
FITNESSES: tuple[str, ...] = ("constrained", "course")

MAX_POPULATION = 5_000
MAX_GENERATIONS = 100_000
MAX_CELLS = 5_000_000
"""Largest population array (individuals × stocks, 40 MB of float64) a run may use."""
TRACE_FRAMES = 100
"""Most generations a :class:`PopulationTrace` keeps (thinned evenly as the run grows)."""
TRACE_POINTS = 400
"""Most individuals a :class:`PopulationTrace` keeps per generation (evenly spaced rows):
100 × 400 points of (risk, return, feasible) are 360 kB, whatever the run's size."""
_MARGIN = 1e-9  # strict inequalities: a portfolio exactly on a bound is infeasible


@dataclass(frozen=True)
class GAConfig:
    """Every constant of the GA, with the course's values as defaults.

    Attributes:
        max_generations: stop after this many generations.
        population_size: individuals per generation (rows of the population array).
        p_crossover: probability that a child is a crossover of two parents
            (otherwise a copy of the first parent).
        p_mutation: probability that a child has one gene reset at random.
        elite_size: best individuals copied unchanged into the next generation.
        min_stocks, max_risk, min_return: the constraints (>= , <, >).
        crossover: ``"uniform"`` (default: measured best on the bundled data),
            ``"one_point"`` or ``"blend"`` (all aligned: a child's gene i comes
            from the parents' genes i).
        selection: ``"rank"``, ``"tournament"`` or ``"roulette"``.
        fitness: ``"constrained"`` (robust default: feasibility first, then the
            course's objective) or ``"course"`` (the objective alone, as taught).
        repair: give children that hold too few stocks the missing ones.
        stop_at_first_feasible: stop at the first feasible portfolio (the
            course's behaviour) or keep improving until ``max_generations``.
        seed: seed of the random generator (``None``: a fresh random run).
        penalty_threshold, penalty_factor: the course's per-stock risk penalty
            ``factor * max(risk - threshold, 0)``.
        threshold_divisor: a weight under ``sum / (threshold_divisor * n)``
            becomes 0 (the course uses 10).
        tournament_size: contestants per tournament.
        time_limit: stop after this many seconds (``None``: no limit).
    """

    max_generations: int = 1000
    population_size: int = 700
    p_crossover: float = 0.6
    p_mutation: float = 0.1
    elite_size: int = 70
    min_stocks: int = 30
    max_risk: float = 0.6
    min_return: float = 10.0
    crossover: Crossover = "uniform"
    selection: Selection = "rank"
    fitness: Fitness = "constrained"
    repair: bool = True
    stop_at_first_feasible: bool = True
    seed: int | None = 0
    penalty_threshold: float = 0.6
    penalty_factor: float = 5.0
    threshold_divisor: float = 10.0
    tournament_size: int = 3
    time_limit: float | None = None

    def __post_init__(self) -> None:
        checks = [
            (1 <= self.max_generations <= MAX_GENERATIONS, "max_generations", "1..100000"),
            (2 <= self.population_size <= MAX_POPULATION, "population_size", "2..5000"),
            (0.0 <= self.p_crossover <= 1.0, "p_crossover", "between 0 and 1"),
            (0.0 <= self.p_mutation <= 1.0, "p_mutation", "between 0 and 1"),
            (0 <= self.elite_size < self.population_size, "elite_size", "0..population_size-1"),
            (self.min_stocks >= 0, "min_stocks", "0 or more"),
            (math.isfinite(self.max_risk), "max_risk", "a finite number"),
            (math.isfinite(self.min_return), "min_return", "a finite number"),
            (self.crossover in CROSSOVERS, "crossover", " / ".join(CROSSOVERS)),
            (self.selection in SELECTIONS, "selection", " / ".join(SELECTIONS)),
            (self.fitness in FITNESSES, "fitness", " / ".join(FITNESSES)),
            (self.penalty_factor >= 0, "penalty_factor", "0 or more"),
            (self.threshold_divisor > 0, "threshold_divisor", "above 0"),
            (self.tournament_size >= 1, "tournament_size", "1 or more"),
            (self.time_limit is None or self.time_limit > 0, "time_limit", "above 0"),
        ]
        for ok, name, expected in checks:
            if not ok:
                value = getattr(self, name)
                raise InputError(
                    f"GA setting {name}={value!r} is not allowed; expected {expected}."
                )


@dataclass(frozen=True)
class GenerationStats:
    """What one generation looked like (one row of :attr:`GAResult.history`)."""

    generation: int
    best_fitness: float  # course fitness of the top-ranked individual
    mean_fitness: float  # mean course fitness of the population
    best_feasible_fitness: float  # best feasible course fitness so far (NaN: none yet)
    n_feasible: int
    best_risk: float
    best_return: float
    best_stocks: int
    seconds: float  # GA time since the start (time in on_generation left out)


@dataclass
class PopulationTrace:
    """Where the population stood on the risk/return plane, generation by generation.

    ``generations[k]`` is a generation number and ``risk[k]``, ``ret[k]``,
    ``feasible[k]`` the weighted risk, weighted return and feasibility of
    (up to :data:`TRACE_POINTS` evenly spaced) individuals of that generation.
    While a run goes on, every ``stride``-th generation is kept; once
    ``max_frames`` are kept, every other one is dropped and the stride
    doubles, so the kept generations stay evenly spaced and never exceed
    ``max_frames`` (the last generation is always kept).
    """

    max_frames: int = TRACE_FRAMES
    max_points: int = TRACE_POINTS
    stride: int = 1
    generations: list[int] = field(default_factory=list)
    risk: list[np.ndarray] = field(default_factory=list)
    ret: list[np.ndarray] = field(default_factory=list)
    feasible: list[np.ndarray] = field(default_factory=list)

    def rows(self, size: int) -> np.ndarray:
        """The population rows kept: all of them, or ``max_points`` evenly spaced."""
        if size <= self.max_points:
            return np.arange(size)
        return np.linspace(0, size - 1, self.max_points).round().astype(int)

    def record(
        self,
        generation: int,
        risk: np.ndarray,
        ret: np.ndarray,
        feasible: np.ndarray,
        last: bool = False,
    ) -> None:
        """Keep ``generation`` if it falls on the stride (or is the ``last`` one)."""
        if not last and (generation - 1) % self.stride:
            return
        if self.generations and self.generations[-1] == generation:
            return
        if len(self.generations) >= self.max_frames:  # thin: keep every other, double stride
            for column in (self.generations, self.risk, self.ret, self.feasible):
                del column[1::2]
            self.stride *= 2
            if not last and (generation - 1) % self.stride:
                return
        rows = self.rows(len(risk))
        self.generations.append(generation)
        self.risk.append(risk[rows].astype(np.float32))
        self.ret.append(ret[rows].astype(np.float32))
        self.feasible.append(feasible[rows].copy())

    def table(self) -> pd.DataFrame:
        """One row per kept point: ``generation, risk, return, feasible``."""
        if not self.generations:
            return pd.DataFrame(columns=["generation", "risk", "return", "feasible"])
        return pd.DataFrame(
            {
                "generation": np.repeat(self.generations, [len(r) for r in self.risk]),
                "risk": np.concatenate(self.risk).astype(float),
                "return": np.concatenate(self.ret).astype(float),
                "feasible": np.concatenate(self.feasible),
            }
        )


@dataclass(frozen=True)
class GAResult:
    """The outcome of :func:`run_ga`.

    ``weights`` is aligned with the table's rows and sums to 1; it is the best
    feasible portfolio found, or the best-ranked one if none was feasible.
    ``seconds`` is the GA's own time: time spent in the ``on_generation``
    callback (drawing charts) is left out; ``time_limit`` counts wall time.
    """

    weights: np.ndarray
    fitness: float
    feasible: bool
    generations: int
    seconds: float
    history: pd.DataFrame
    risk: float
    ret: float
    n_stocks: int
    first_feasible_generation: int | None = None
    first_feasible_seconds: float | None = None
    stopped_by: str = "max_generations"
    config: GAConfig = field(default_factory=GAConfig)
    trace: PopulationTrace = field(default_factory=PopulationTrace)
    """The population on the risk/return plane at (up to 100) evenly spaced generations."""


@dataclass(frozen=True)
class Problem:
    """The stock data as arrays: what every vectorised operator needs."""

    risk: np.ndarray
    ret: np.ndarray
    value: np.ndarray  # the course objective's per-stock coefficient
    columns: np.ndarray  # (n, 3): return, risk, value (one matrix product evaluates all)

    @property
    def n(self) -> int:
        """Number of stocks."""
        return len(self.risk)


def make_problem(table: pd.DataFrame, config: GAConfig) -> Problem:
    """Arrays of risk, return and per-stock objective coefficient for ``table``."""
    missing = [c for c in ("risk", "return") if c not in table.columns]
    if missing:
        raise InputError(f"The stock table has no column {missing[0]!r}.")
    risk = table["risk"].to_numpy(dtype=float)
    ret = table["return"].to_numpy(dtype=float)
    if len(risk) == 0:
        raise InputError("The stock table is empty.")
    if not (np.isfinite(risk).all() and np.isfinite(ret).all()):
        raise InputError("The stock table has missing or infinite risk/return values.")
    value = stock_values(risk, ret, config.penalty_threshold, config.penalty_factor)
    return Problem(risk, ret, value, np.column_stack([ret, risk, value]))


def stock_values(
    risk: np.ndarray, ret: np.ndarray, threshold: float = 0.6, factor: float = 5.0
) -> np.ndarray:
    """Per-stock coefficient of the course's objective: ``r - k - factor * max(k - t, 0)``."""
    return ret - risk - factor * np.maximum(risk - threshold, 0.0)


def normalise(population: np.ndarray, divisor: float = 10.0) -> np.ndarray:
    """Make every row sum to 1 and zero the weights under ``sum / (divisor * n)``.

    Works in place on a float array of shape ``(rows, n)`` (a 1-D array is one
    row) and returns it. Negative entries are clipped to 0; a row with nothing
    left becomes equal weights. Zeroing never empties a row (its largest
    weight is at least the mean, ``divisor`` times the threshold).
    """
    pop = population if population.ndim == 2 else population.reshape(1, -1)
    np.maximum(pop, 0.0, out=pop)
    top = pop.max(axis=1, keepdims=True)
    np.divide(pop, top, out=pop, where=top > 0)  # scale first: no overflow on tiny rows
    _normalise_rows(pop, divisor)
    return population


def _normalise_rows(pop: np.ndarray, divisor: float) -> None:
    """:func:`normalise` for a 2-D array already known to be non-negative (the hot path)."""
    n = pop.shape[1]
    sums = pop.sum(axis=1, keepdims=True)
    dead = sums[:, 0] <= 0
    if dead.any():
        pop[dead] = 1.0
        sums[dead] = n
    np.copyto(pop, 0.0, where=pop < sums * (1.0 / (divisor * n)))
    pop *= 1.0 / pop.sum(axis=1, keepdims=True)


def evaluate(
    population: np.ndarray, problem: Problem, config: GAConfig
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return, risk, objective, #stocks and feasibility of every row (vectorised)."""
    product = population @ problem.columns
    ret, risk, objective = product[:, 0], product[:, 1], product[:, 2]
    count = np.count_nonzero(population, axis=1)
    feasible = (count >= config.min_stocks) & (risk < config.max_risk) & (ret > config.min_return)
    return ret, risk, objective, count, feasible


def course_fitness(objective: np.ndarray) -> np.ndarray:
    """The course's fitness: the objective clipped at 0."""
    return np.maximum(objective, 0.0)


def violation(ret: np.ndarray, risk: np.ndarray, count: np.ndarray, config: GAConfig) -> np.ndarray:
    """How far each portfolio is from feasible: the sum of relative constraint violations.

    0 exactly when the portfolio is feasible. Each term is scaled by its bound
    so the three constraints weigh alike.
    """
    risk_scale = max(abs(config.max_risk), 1e-3)
    return_scale = max(abs(config.min_return), 1.0)
    over_risk = np.maximum(risk - config.max_risk + _MARGIN, 0.0) / risk_scale
    under_return = np.maximum(config.min_return - ret + _MARGIN, 0.0) / return_scale
    missing = np.maximum(config.min_stocks - count, 0) / max(config.min_stocks, 1)
    return over_risk + under_return + missing


def selection_scores(
    ret: np.ndarray,
    risk: np.ndarray,
    objective: np.ndarray,
    count: np.ndarray,
    feasible: np.ndarray,
    problem: Problem,
    config: GAConfig,
) -> np.ndarray:
    """The score selection and elitism rank by (higher is better).

    ``course``: the course's fitness. ``constrained``: the objective for
    feasible rows; for infeasible rows a value below every possible objective,
    lower the larger the violation.
    """
    if config.fitness == "course":
        return course_fitness(objective)
    floor = float(problem.value.min()) - 1.0
    viol = violation(ret, risk, count, config)
    return np.where(feasible, objective, floor - viol)


def select_parents(
    scores: np.ndarray, count: int, config: GAConfig, rng: np.random.Generator
) -> np.ndarray:
    """Indices of ``count`` parents chosen by the configured selection (vectorised)."""
    size = len(scores)
    if config.selection == "tournament":
        contestants = rng.integers(0, size, size=(count, config.tournament_size))
        best = np.argmax(scores[contestants], axis=1)
        return contestants[np.arange(count), best]
    if config.selection == "rank":
        ranks = np.empty(size)
        ranks[np.argsort(scores, kind="stable")] = np.arange(1, size + 1)
        weights = ranks
    else:  # roulette: proportional to the score shifted to be positive
        weights = scores - scores.min()
        total = weights.sum()
        weights = weights + (total / size * 1e-3 if total > 0 else 1.0)
    cumulative = np.cumsum(weights)
    picks = rng.random(count) * cumulative[-1]
    return np.minimum(np.searchsorted(cumulative, picks, side="right"), size - 1)


def crossover(
    first: np.ndarray, second: np.ndarray, config: GAConfig, rng: np.random.Generator
) -> np.ndarray:
    """One child per row pair; with probability ``p_crossover`` mixed, otherwise ``first``.

    Aligned: the child's gene i comes from the parents' genes i. Every kind is
    ``child = second + mix * (first - second)`` with ``mix`` a 0/1 mask per gene
    (``one_point``: 1 before a random cut; ``uniform``: random bits) or one
    random number in [0, 1] per row (``blend``); a row that does not cross has
    ``mix = 1``. Overwrites and returns ``first`` (no Python loop, no branchy
    masked copies).
    """
    rows, n = first.shape
    crossing = rng.random(rows) < config.p_crossover
    if config.crossover == "blend":
        mix = np.where(crossing, rng.random(rows), 1.0)[:, None]
    elif config.crossover == "one_point":
        cut = np.where(crossing, rng.integers(1, max(n, 2), size=rows), n)
        mix = np.arange(n) < cut[:, None]
    else:  # uniform: one random bit per gene
        bits = rng.integers(0, 256, size=(rows, (n + 7) // 8), dtype=np.uint8)
        mix = np.unpackbits(bits, axis=1, count=n).view(bool)
        mix[~crossing] = True
    first -= second
    first *= mix
    first += second
    return first


def mutate(children: np.ndarray, config: GAConfig, rng: np.random.Generator) -> None:
    """With probability ``p_mutation`` per child, reset one random gene (in place).

    As in the course, the new value is uniform in [0, 1] on the scale of the
    normalised weights, so after re-normalisation a mutation can drop a stock
    or give one up to half of the portfolio.
    """
    rows, n = children.shape
    mutants = np.flatnonzero(rng.random(rows) < config.p_mutation)
    if mutants.size:
        genes = rng.integers(0, n, size=mutants.size)
        children[mutants, genes] = rng.random(mutants.size)


def repair(children: np.ndarray, config: GAConfig, rng: np.random.Generator) -> None:
    """Give every child at least ``min_stocks`` stocks (in place; rows stay normalised).

    A child holding too few stocks gets the missing ones, chosen at random
    among the stocks it does not hold, at a weight just large enough to
    survive normalisation, so they cost as little of the objective as
    possible. Re-normalising can drop a weight that sat just above the
    threshold, so this repeats (at most a few rounds) until no row is short.
    """
    n = children.shape[1]
    need = min(config.min_stocks, n)
    if need <= 0:
        return
    count = np.count_nonzero(children, axis=1)
    short = np.flatnonzero(count < need)
    threshold = 1.0 / (config.threshold_divisor * n)
    # just above the threshold, which grows with the sum: survives the renormalisation
    minimum = 1.01 * threshold / max(1.0 - (need + 4) * threshold, 0.5)
    if short.size:
        # Fast first pass: random picks, a few extra as a pick may repeat or hit a held
        # stock (then it keeps its weight). Rows still short get the exact pass below.
        missing = need - count[short] + 4
        width = int(missing.max())
        picks = rng.integers(0, n, size=(short.size, width))
        use = np.arange(width) < missing[:, None]
        block = children[short]
        rows = np.broadcast_to(np.arange(short.size)[:, None], picks.shape)[use]
        block[rows, picks[use]] = np.maximum(block[rows, picks[use]], minimum)
        _normalise_rows(block, config.threshold_divisor)
        children[short] = block
        short = short[np.count_nonzero(block, axis=1) < need]
    for _ in range(4):
        if not short.size:
            return
        block = children[short]
        held = block > 0
        missing = need - held.sum(axis=1)
        width = int(missing.max())
        # the `missing` unheld stocks with the smallest random keys, per row
        keys = rng.random(block.shape)
        keys[held] = 2.0
        picks = np.argpartition(keys, width - 1, axis=1)[:, :width]
        order = np.argsort(np.take_along_axis(keys, picks, axis=1), axis=1)
        picks = np.take_along_axis(picks, order, axis=1)
        use = np.arange(width) < missing[:, None]
        block[np.broadcast_to(np.arange(len(short))[:, None], picks.shape)[use], picks[use]] = (
            minimum
        )
        _normalise_rows(block, config.threshold_divisor)
        children[short] = block
        short = short[np.count_nonzero(block, axis=1) < need]


def initial_population(n: int, config: GAConfig, rng: np.random.Generator) -> np.ndarray:
    """Uniform random coefficients in [0, 1], normalised (the course's start)."""
    return normalise(rng.random((config.population_size, n)), config.threshold_divisor)


def check_size(n_stocks: int, config: GAConfig) -> None:
    """Raise :class:`InputError` if ``population × stocks`` exceeds :data:`MAX_CELLS`.

    >>> check_size(400, GAConfig())  # the course's 700 × 400: fine
    >>> try:
    ...     check_size(8000, GAConfig())
    ... except InputError as error:
    ...     print(str(error).split("; ")[1])
    lower the population size to at most 625.
    """
    if config.population_size * n_stocks > MAX_CELLS:
        raise InputError(
            f"A population of {config.population_size} × {n_stocks} stocks is too large "
            f"(at most {MAX_CELLS:,} weights); lower the population size to at most "
            f"{max(MAX_CELLS // n_stocks, 2)}."
        )


def run_ga(
    table: pd.DataFrame,
    config: GAConfig | None = None,
    on_generation: Callable[[GenerationStats], object] | None = None,
) -> GAResult:
    """Run the GA on ``table`` (columns ``risk`` and ``return``).

    Args:
        table: one row per stock (see :func:`lib.portfolio.data.load_stock_table`).
        config: the constants; :class:`GAConfig` defaults when ``None``.
        on_generation: called after every generation with its
            :class:`GenerationStats`; returning ``False`` stops the run.

    Returns:
        The best portfolio found with its statistics and per-generation history.
    """
    config = config or GAConfig()
    problem = make_problem(table, config)
    check_size(problem.n, config)
    rng = np.random.default_rng(config.seed)
    clock = _Clock()
    population = initial_population(problem.n, config, rng)
    best = _BestSoFar()
    history: list[GenerationStats] = []
    trace = PopulationTrace()
    stopped_by: str | None = None
    top_weights = population[0]
    generation = 0
    for generation in range(1, config.max_generations + 1):
        ret, risk, objective, count, feasible = evaluate(population, problem, config)
        trace.record(generation, risk, ret, feasible)
        scores = selection_scores(ret, risk, objective, count, feasible, problem, config)
        top = int(np.argmax(scores))
        top_weights = population[top]
        n_feasible = best.update(population, objective, feasible, generation, clock)
        wall = clock.wall()
        stats = GenerationStats(
            generation=generation,
            best_fitness=float(max(objective[top], 0.0)),
            mean_fitness=float(course_fitness(objective).mean()),
            best_feasible_fitness=best.fitness(),
            n_feasible=n_feasible,
            best_risk=float(risk[top]),
            best_return=float(ret[top]),
            best_stocks=int(count[top]),
            seconds=wall - clock.in_callback,
        )
        history.append(stats)
        answer = None if on_generation is None else clock.call(on_generation, stats)
        stopped_by = _stop_reason(answer, n_feasible, wall, config)
        if stopped_by is not None or generation == config.max_generations:
            break
        population = _next_generation(
            population, scores, problem, config, rng, config.elite_size, config.population_size
        )
    seconds = clock.ga_seconds()
    if generation:
        trace.record(generation, risk, ret, feasible, last=True)
    weights = best.weights if best.weights is not None else top_weights.copy()
    return GAResult(
        weights=weights,
        fitness=float(max(weights @ problem.value, 0.0)),
        feasible=best.weights is not None,
        generations=generation,
        seconds=seconds,
        history=pd.DataFrame([asdict(s) for s in history]),
        risk=float(weights @ problem.risk),
        ret=float(weights @ problem.ret),
        n_stocks=int(np.count_nonzero(weights)),
        first_feasible_generation=best.first_generation,
        first_feasible_seconds=best.first_seconds,
        stopped_by=stopped_by or "max_generations",
        config=config,
        trace=trace,
    )


class _Clock:
    """A run's time: wall time since the start, and the GA's own (callback time left out)."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.in_callback = 0.0  # time spent in on_generation

    def wall(self) -> float:
        """Seconds since the run started, callbacks included (what ``time_limit`` counts)."""
        return time.perf_counter() - self.start

    def ga_seconds(self) -> float:
        """Seconds the GA itself has used so far."""
        return self.wall() - self.in_callback

    def call(self, callback: Callable[[GenerationStats], object], stats: GenerationStats) -> object:
        """``callback(stats)``, its time counted as callback time; returns its answer."""
        before = time.perf_counter()
        answer = callback(stats)
        self.in_callback += time.perf_counter() - before
        return answer


@dataclass
class _BestSoFar:
    """The best feasible portfolio a run has seen, and when it saw its first feasible one."""

    weights: np.ndarray | None = None
    objective: float = -math.inf
    first_generation: int | None = None
    first_seconds: float | None = None

    def update(
        self,
        population: np.ndarray,
        objective: np.ndarray,
        feasible: np.ndarray,
        generation: int,
        clock: _Clock,
    ) -> int:
        """Keep the generation's best feasible portfolio if it is the best yet.

        Returns the number of feasible individuals in the generation.
        """
        n_feasible = int(np.count_nonzero(feasible))
        if not n_feasible:
            return 0
        candidates = np.flatnonzero(feasible)
        best_here = int(candidates[np.argmax(objective[candidates])])
        if objective[best_here] > self.objective:
            self.objective = float(objective[best_here])
            self.weights = population[best_here].copy()
        if self.first_generation is None:
            self.first_generation = generation
            self.first_seconds = clock.ga_seconds()
        return n_feasible

    def fitness(self) -> float:
        """The course fitness of the best feasible portfolio so far (NaN: none yet)."""
        return float(max(self.objective, 0.0)) if self.weights is not None else math.nan


def _stop_reason(answer: object, n_feasible: int, wall: float, config: GAConfig) -> str | None:
    """Why the run stops after this generation (``None``: it goes on).

    ``answer`` is the ``on_generation`` callback's (``False`` stops the run) and
    ``wall`` the run's wall time when the generation ended.
    """
    if answer is False:
        return "callback"
    if n_feasible and config.stop_at_first_feasible:
        return "first_feasible"
    if config.time_limit is not None and wall >= config.time_limit:
        return "time_limit"
    return None


def _next_generation(
    population: np.ndarray,
    scores: np.ndarray,
    problem: Problem,
    config: GAConfig,
    rng: np.random.Generator,
    elite: int,
    size: int,
) -> np.ndarray:
    """Elitism + selection + crossover + mutation + normalisation (+ repair)."""
    n_children = size - elite
    parents = select_parents(scores, 2 * n_children, config, rng)
    children = crossover(
        population[parents[:n_children]], population[parents[n_children:]], config, rng
    )
    mutate(children, config, rng)
    _normalise_rows(children, config.threshold_divisor)
    if config.repair:
        repair(children, config, rng)
    if elite == 0:
        return children
    elites = np.argpartition(scores, size - elite)[size - elite :]
    return np.concatenate([population[elites], children])


def is_feasible(weights: np.ndarray, table: pd.DataFrame, config: GAConfig) -> bool:
    """Whether one coefficient vector meets the three constraints."""
    problem = make_problem(table, config)
    _, _, _, _, feasible = evaluate(np.asarray(weights, dtype=float)[None, :], problem, config)
    return bool(feasible[0])


COURSE_STUDY: dict[str, tuple[float, ...]] = {
    "population_size": (700, 300, 3000),
    "p_crossover": (0.6, 0.4, 0.0),
    "p_mutation": (0.1, 0.01, 0.0),
}
"""The course's own experiments: each constant varied alone from the defaults."""

STUDY_PARAMETERS: tuple[str, ...] = (
    "population_size",
    "p_crossover",
    "p_mutation",
    "elite_size",
    "max_generations",
)
MAX_STUDY_RUNS = 200


def study_settings(
    base: GAConfig, grid: dict[str, tuple[float, ...] | list[float]]
) -> list[tuple[str, float, GAConfig]]:
    """One ``(parameter, value, config)`` per grid value, the other constants from ``base``.

    Raises :class:`InputError` for an unknown parameter or a value the
    :class:`GAConfig` rejects (e.g. an elite larger than the population).
    """
    settings = []
    for parameter, values in grid.items():
        if parameter not in STUDY_PARAMETERS:
            raise InputError(
                f"The study cannot vary {parameter!r}; choose from {', '.join(STUDY_PARAMETERS)}."
            )
        for value in values:
            cast = int(value) if parameter != "p_crossover" and parameter != "p_mutation" else value
            changes: dict[str, object] = {parameter: cast}
            if parameter == "population_size" and base.elite_size >= int(value):
                changes["elite_size"] = max(int(value) // 10, 0)
            settings.append((parameter, cast, replace_config(base, **changes)))
    return settings


def replace_config(config: GAConfig, **changes: object) -> GAConfig:
    """A copy of ``config`` with ``changes`` (validated like a new config)."""
    values = asdict(config)
    values.update(changes)
    return GAConfig(**values)  # type: ignore[arg-type]


def parameter_study(
    table: pd.DataFrame,
    base: GAConfig,
    grid: dict[str, tuple[float, ...] | list[float]] | None = None,
    repeats: int = 3,
    on_progress: Callable[[int, int], object] | None = None,
    time_limit: float | None = None,
) -> pd.DataFrame:
    """Run the GA ``repeats`` times (seeds ``base.seed + k``) for each distinct grid setting.

    A setting the grid names twice (the course's grid names the baseline under
    every parameter) runs once; its row appears under each parameter.

    Each run stops at the first feasible portfolio (the course's measure).
    Returns one row per setting: ``parameter, value, runs, success_rate,
    mean_generations`` (to the first feasible portfolio, over successful runs),
    ``mean_seconds`` (ditto) and ``mean_fitness`` (of the answer returned).
    With ``time_limit`` (seconds for the whole study), no further run starts
    once the limit is reached (the first always runs): settings not run are
    left out, a setting cut short reports the runs it made, and
    ``study.attrs["stopped_early"]`` is ``True``.
    """
    grid = COURSE_STUDY if grid is None else grid
    settings = study_settings(base, grid)
    # The course's grid names the baseline (700, 0.6, 0.1) under each parameter: run each
    # distinct setting once and show its row under every parameter that names it.
    distinct = list(dict.fromkeys(config for _, _, config in settings))
    total = len(distinct) * repeats
    if repeats < 1 or total > MAX_STUDY_RUNS:
        raise InputError(
            f"A study of {len(distinct)} settings × {repeats} repeats is {total} runs; "
            f"choose between 1 and {MAX_STUDY_RUNS} runs."
        )
    seed0 = base.seed if base.seed is not None else 0
    rows = []
    measured: dict[GAConfig, dict[str, float]] = {}
    done = 0
    start = time.perf_counter()
    stopped_early = False
    for parameter, value, config in settings:
        if config in measured:
            rows.append({"parameter": parameter, "value": value, **measured[config]})
            continue
        generations, seconds, fitness, successes = [], [], [], 0
        for k in range(repeats):
            if time_limit is not None and done and time.perf_counter() - start >= time_limit:
                stopped_early = True
                break
            run_config = replace_config(config, seed=seed0 + k, stop_at_first_feasible=True)
            result = run_ga(table, run_config)
            fitness.append(result.fitness)
            if result.feasible:
                successes += 1
                generations.append(result.first_feasible_generation)
                seconds.append(result.first_feasible_seconds)
            done += 1
            if on_progress is not None:
                on_progress(done, total)
        if not fitness:
            break
        measured[config] = {
            "runs": len(fitness),
            "success_rate": successes / len(fitness),
            "mean_generations": float(np.mean(generations)) if generations else math.nan,
            "mean_seconds": float(np.mean(seconds)) if seconds else math.nan,
            "mean_fitness": float(np.mean(fitness)),
        }
        rows.append({"parameter": parameter, "value": value, **measured[config]})
        if stopped_early:
            break
    study = pd.DataFrame(
        rows,
        columns=[
            "parameter",
            "value",
            "runs",
            "success_rate",
            "mean_generations",
            "mean_seconds",
            "mean_fitness",
        ],
    )
    study.attrs["stopped_early"] = stopped_early
    return study
