"""Evolving heuristic weights with a genetic algorithm played out in leagues.

The course project (first run on Othello's 9-feature positional evaluation),
for any game whose heuristic has weights: a population of integer weight
vectors (one weight per feature of the heuristic) evolves by playing games.
What a game evolves by default, the fixed opponent it is measured against and
the options it plays on come from its spec (``evolve_heuristic``,
``evolve_benchmark``, ``evolve_options``).

Each generation:

1. the population is shuffled into ``leagues`` groups (the course used 5);
2. inside each league every pair plays ``games_per_pair`` games (colours
   alternate) with alpha-beta players of equal depth that differ only in
   their weights; a member's **fitness** is its score share (wins + half the
   draws, over its games);
3. the next generation keeps the ``elite`` best vectors unchanged and breeds
   the rest from a parent pool of the best plus ``worst`` randomly chosen
   from the others (some weak vectors keep the population diverse);
4. a child is the blend ``floor(α·p1 + (1−α)·p2)`` of two parents with
   ``α ~ U(0, 1)``, then, with probability ``mutation / generation``
   (0.2, 0.1, 0.067 ...), one random weight moves by a random integer offset in
   ``[−50, 50]``, clipped to ``[low, high]``.

League fitness is relative (the mean score share is always ½), so each
generation's best vector also plays a fixed **benchmark** opponent: that
score share is an absolute measure of progress.

All games go through the arena's executors (:func:`lib.games.arena.run_tasks`),
and every random choice is drawn from ``numpy.random.SeedSequence(seed, ...)``:
the same seed gives the same evolution in-process, in a pool or on Dask.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from lib.errors import InputError
from lib.games.arena import (
    MAX_PLIES,
    GameRecord,
    InlineExecutor,
    MatchConfig,
    options_tuple,
    play_task,
    run_tasks,
)
from lib.games.core import GameSpec, get_game

MUTATION_OFFSET = 50
"""A mutation moves one weight by a random integer in ``[-MUTATION_OFFSET, MUTATION_OFFSET]``."""

MAX_POPULATION = 200
MAX_GENERATIONS = 500


@dataclass(frozen=True)
class EvolutionConfig:
    """Settings of one evolution run (see the module docstring for the algorithm).

    ``options``, ``heuristic`` and ``benchmark`` left as None take the game's
    own (its spec's ``evolve_options``, :func:`default_evolved_heuristic` and
    ``evolve_benchmark``).
    """

    game: str
    options: Any = None  # None: the spec's evolve_options
    heuristic: str | None = None  # None: default_evolved_heuristic(spec)
    population: int = 20
    leagues: int = 5
    generations: int = 10
    depth: int = 1
    low: int = -100
    high: int = 100
    elite: int = 4
    worst: int = 2
    mutation: float = 0.2
    games_per_pair: int = 2
    benchmark: str | None = None  # None: the spec's evolve_benchmark
    benchmark_games: int = 10
    seed: int = 0
    max_plies: int = MAX_PLIES

    def __post_init__(self) -> None:
        spec = get_game(self.game)
        if self.options is None:
            object.__setattr__(self, "options", spec.evolve_options)
        if self.benchmark is None:
            object.__setattr__(self, "benchmark", default_benchmark(spec))
        object.__setattr__(self, "options", options_tuple(self.options))
        checks = [
            (self.population >= 4, f"population must be at least 4, got {self.population}"),
            (
                self.population <= MAX_POPULATION,
                f"population must be at most {MAX_POPULATION}, got {self.population}",
            ),
            (self.leagues >= 1, f"leagues must be at least 1, got {self.leagues}"),
            (
                self.population >= 2 * self.leagues,
                f"population ({self.population}) must be at least twice the number of "
                f"leagues ({self.leagues}) so every league has a pair to play",
            ),
            (
                1 <= self.generations <= MAX_GENERATIONS,
                f"generations must be between 1 and {MAX_GENERATIONS}, got {self.generations}",
            ),
            (self.depth >= 1, f"depth must be at least 1, got {self.depth}"),
            (self.low < self.high, f"low ({self.low}) must be below high ({self.high})"),
            (
                0 <= self.elite < self.population,
                f"elite must be between 0 and population - 1, got {self.elite}",
            ),
            (self.worst >= 0, f"worst must be at least 0, got {self.worst}"),
            (
                self.elite + self.worst >= 2,
                "elite + worst must be at least 2 (a child needs two parents)",
            ),
            (
                self.elite + self.worst <= self.population,
                f"elite + worst ({self.elite + self.worst}) exceeds the population",
            ),
            (0 <= self.mutation <= 1, f"mutation must be between 0 and 1, got {self.mutation}"),
            (self.games_per_pair >= 1, "games per pair must be at least 1"),
            (self.benchmark_games >= 0, "benchmark games must be at least 0"),
            (self.seed >= 0, f"seed must be non-negative, got {self.seed}"),
        ]
        for ok, message in checks:
            if not ok:
                raise InputError(message[0].upper() + message[1:] + ".")

    @property
    def option_dict(self) -> dict[str, Any]:
        """The game options as a dict."""
        return dict(self.options)

    def heuristic_name(self) -> str:
        """The evolved heuristic's name (the game's default if not set)."""
        spec = get_game(self.game)
        name = self.heuristic or default_evolved_heuristic(spec)
        if name not in spec.heuristics:
            raise InputError(
                f"{spec.title} has no heuristic {name!r}; "
                f"choose one of {', '.join(spec.heuristics)}."
            )
        if not spec.heuristics[name].weight_names:
            raise InputError(f"Heuristic {name!r} has no weights to evolve.")
        return name

    def weight_names(self) -> tuple[str, ...]:
        """Names of the evolved weights."""
        return get_game(self.game).heuristics[self.heuristic_name()].weight_names


# ---------------------------------------------------------------------------
# Genetic operators (pure functions of arrays and a Generator)
# ---------------------------------------------------------------------------


def random_population(
    size: int, n_weights: int, low: int, high: int, rng: np.random.Generator
) -> np.ndarray:
    """``size`` integer weight vectors drawn uniformly from ``[low, high]``."""
    return rng.integers(low, high, size=(size, n_weights), endpoint=True)


def blend_crossover(p1: np.ndarray, p2: np.ndarray, alpha: float) -> np.ndarray:
    """The child ``floor(alpha * p1 + (1 - alpha) * p2)`` (integer weights).

    >>> blend_crossover(np.array([10, -10]), np.array([0, 0]), 0.55).tolist()
    [5, -6]
    """
    return np.floor(alpha * np.asarray(p1) + (1 - alpha) * np.asarray(p2)).astype(np.int64)


def mutate(
    weights: np.ndarray,
    probability: float,
    low: int,
    high: int,
    rng: np.random.Generator,
    offset: int = MUTATION_OFFSET,
) -> np.ndarray:
    """With ``probability``, move one random weight by a random offset in ``[-offset, offset]``.

    The result is clipped to ``[low, high]``; ``weights`` itself is unchanged.
    """
    child = np.array(weights, dtype=np.int64)
    if rng.random() < probability:
        index = rng.integers(len(child))
        child[index] = np.clip(
            child[index] + rng.integers(-offset, offset, endpoint=True), low, high
        )
    return child


def mutation_probability(base: float, generation: int) -> float:
    """The mutation probability of ``generation`` (1-based): ``base / generation``."""
    return base / max(1, generation)


def assign_leagues(size: int, leagues: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Shuffle members ``0..size-1`` into ``leagues`` groups of near-equal size."""
    return [np.sort(group) for group in np.array_split(rng.permutation(size), leagues)]


def next_generation(
    population: np.ndarray,
    fitness: np.ndarray,
    *,
    elite: int,
    worst: int,
    probability: float,
    low: int,
    high: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """Breed the next population from the ``elite`` best and ``worst`` random others.

    The elite are copied unchanged (so the best vector is never lost); the other
    members are blend-crossover children of two distinct parents from the pool,
    each then mutated with ``probability``. Ties in fitness keep population order.
    """
    size = len(population)
    order = np.argsort(-np.asarray(fitness), kind="stable")
    best = order[:elite]
    rest = order[elite:]
    chosen = rng.choice(rest, size=min(worst, len(rest)), replace=False) if worst else []
    pool = np.concatenate([best, np.asarray(chosen, dtype=np.int64)]).astype(np.int64)
    children = [population[i].copy() for i in best]
    while len(children) < size:
        i, j = rng.choice(len(pool), size=2, replace=False)
        child = blend_crossover(population[pool[i]], population[pool[j]], rng.random())
        children.append(mutate(child, probability, low, high, rng))
    return np.array(children, dtype=np.int64)


# ---------------------------------------------------------------------------
# Playing the leagues
# ---------------------------------------------------------------------------


def games_per_generation(config: EvolutionConfig) -> int:
    """Games one generation plays: every league's round robin plus the benchmark games."""
    sizes = [len(group) for group in np.array_split(np.arange(config.population), config.leagues)]
    pairs = sum(k * (k - 1) // 2 for k in sizes)
    return pairs * config.games_per_pair + config.benchmark_games


def weights_player_spec(config: EvolutionConfig, weights: Sequence[int]) -> str:
    """The player spec of an alpha-beta player at ``config.depth`` using ``weights``."""
    from lib.games.search.players import PlayerConfig

    return PlayerConfig(
        kind="alphabeta",
        depth=config.depth,
        heuristic=config.heuristic_name(),
        weights=tuple(float(int(w)) for w in weights),
    ).to_spec()


def evolvable_heuristics(spec: GameSpec) -> list[str]:
    """The heuristics of ``spec`` that have weights to evolve, in the game's order."""
    return [name for name, h in spec.heuristics.items() if h.weight_names]


def evolvable_games(games: Mapping[str, GameSpec]) -> dict[str, GameSpec]:
    """The games of ``games`` with at least one heuristic that has weights to evolve."""
    return {name: spec for name, spec in games.items() if evolvable_heuristics(spec)}


def default_evolved_heuristic(spec: GameSpec) -> str:
    """The heuristic an evolution of ``spec`` starts from.

    The spec's ``evolve_heuristic`` if it names one with weights, else the
    game's default heuristic; when that one has no weights, the first one that has.
    """
    choices = evolvable_heuristics(spec)
    if not choices:
        raise InputError(f"{spec.title} has no heuristic with weights to evolve.")
    for name in (spec.evolve_heuristic, spec.default_heuristic):
        if name in choices:
            return name
    return choices[0]


def default_benchmark(spec: GameSpec) -> str:
    """The fixed opponent an evolution of ``spec`` is measured against by default.

    The spec's ``evolve_benchmark`` (e.g. the course's alpha-beta at depth 1 on a
    classic square table; ``"random"`` unless the game says otherwise).
    """
    return spec.evolve_benchmark


def best_weights_table(weight_names: Sequence[str], weights: Sequence[float]) -> pd.DataFrame:
    """The ``feature`` / ``weight`` table of one weight vector (the downloadable best weights)."""
    if len(weight_names) != len(weights):
        raise InputError(f"{len(weights)} weights for {len(weight_names)} features.")
    return pd.DataFrame({"feature": list(weight_names), "weight": list(weights)})


def best_benchmark_generation(generations: Sequence[Generation]) -> int | None:
    """The number of the generation whose best vector scored most against the benchmark.

    The earliest one on ties; None when no generation played the benchmark. League
    fitness is relative to the population, so the last generation's best vector is
    not always the strongest: this one did best against a fixed opponent.
    """
    scored = [g for g in generations if g.benchmark_score is not None]
    if not scored:
        return None
    return max(scored, key=lambda g: (g.benchmark_score, -g.generation)).generation


def _seed(config: EvolutionConfig, *key: int) -> int:
    """A game seed derived from the run seed and ``key`` (stable on every executor)."""
    return int(np.random.SeedSequence(config.seed, spawn_key=key).generate_state(1)[0])


@dataclass(frozen=True)
class Generation:
    """What one generation did: its population, fitness and benchmark result."""

    generation: int  # 1-based
    population: tuple[tuple[int, ...], ...]
    fitness: tuple[float, ...]
    leagues: tuple[tuple[int, ...], ...]
    best_weights: tuple[int, ...]
    best_fitness: float
    mean_fitness: float
    benchmark_score: float | None  # best vector's score share vs the benchmark opponent
    games: int
    mutation_probability: float


@dataclass
class EvolutionResult:
    """The generations played so far (all unless ``cancelled``)."""

    config: EvolutionConfig
    weight_names: tuple[str, ...]
    generations: list[Generation] = field(default_factory=list)
    cancelled: bool = False

    @property
    def best_weights(self) -> tuple[int, ...] | None:
        """The best vector of the last generation played (None if none was played)."""
        return self.generations[-1].best_weights if self.generations else None

    def history(self) -> pd.DataFrame:
        """One row per generation: fitness statistics, benchmark score and best weights."""
        return history_table(self.generations, self.weight_names)


def history_table(generations: Sequence[Generation], weight_names: Sequence[str]) -> pd.DataFrame:
    """Fitness history: generation, best/mean/min fitness, benchmark, diversity, best weights."""
    rows = []
    for g in generations:
        row = {
            "generation": g.generation,
            "best_fitness": g.best_fitness,
            "mean_fitness": g.mean_fitness,
            "min_fitness": min(g.fitness),
            "benchmark_score": g.benchmark_score,
            "mutation_probability": g.mutation_probability,
            "games": g.games,
            "distinct_vectors": len(set(g.population)),
        }
        row.update(dict(zip(weight_names, g.best_weights, strict=True)))
        rows.append(row)
    columns = [
        "generation",
        "best_fitness",
        "mean_fitness",
        "min_fitness",
        "benchmark_score",
        "mutation_probability",
        "games",
        "distinct_vectors",
        *weight_names,
    ]
    return pd.DataFrame(rows, columns=columns)


def league_fitness(
    config: EvolutionConfig,
    population: np.ndarray,
    leagues: Sequence[np.ndarray],
    generation: int,
    executor: Executor,
    should_stop: Callable[[], bool] | None = None,
    on_game: Callable[[int, int], None] | None = None,
) -> tuple[np.ndarray, int, bool]:
    """Play every league's round robin; return (score share per member, games, completed).

    ``on_game(done, total)`` is called after each finished game of the round robins.
    """
    specs = [weights_player_spec(config, w) for w in population]
    tasks = []
    pairs = []
    for league_index, league in enumerate(leagues):
        for a_pos, a in enumerate(league):
            for b in league[a_pos + 1 :]:
                match = MatchConfig(
                    config.game,
                    (specs[a], specs[b]),
                    games=config.games_per_pair,
                    seed=_seed(config, 1, generation, league_index, int(a), int(b)),
                    options=config.options,
                    label=f"{a} vs {b}",
                    max_plies=config.max_plies,
                )
                for game in range(config.games_per_pair):
                    tasks.append((match, game, len(pairs)))
                pairs.append((int(a), int(b)))
    finished = itertools.count(1)

    def report(_index: int, _record: GameRecord) -> None:
        if on_game is not None:
            on_game(next(finished), len(tasks))

    results, completed = run_tasks(
        play_task, tasks, executor, on_result=report, should_stop=should_stop
    )
    points = np.zeros(len(population))
    played = np.zeros(len(population))
    record: GameRecord
    for record in results.values():
        a, b = pairs[record.match]
        points[a] += record.result_a
        points[b] += 1 - record.result_a
        played[a] += 1
        played[b] += 1
    fitness = np.divide(points, played, out=np.zeros_like(points), where=played > 0)
    return fitness, len(results), completed


def benchmark_score(
    config: EvolutionConfig,
    weights: Sequence[int],
    generation: int,
    executor: Executor,
    games: int | None = None,
) -> float | None:
    """Score share of ``weights`` against the benchmark opponent (None if no games)."""
    games = config.benchmark_games if games is None else games
    if games == 0:
        return None
    match = MatchConfig(
        config.game,
        (weights_player_spec(config, weights), config.benchmark),
        games=games,
        seed=_seed(config, 2, generation),
        options=config.options,
        max_plies=config.max_plies,
    )
    tasks = [(match, game, 0) for game in range(games)]
    results, _ = run_tasks(play_task, tasks, executor)
    return float(np.mean([r.result_a for r in results.values()]))


def population_score(
    config: EvolutionConfig,
    population: Sequence[Sequence[int]],
    opponent: str,
    games_each: int = 4,
    executor: Executor | None = None,
    seed: int = 0,
) -> float:
    """Mean score share of every member of ``population`` against ``opponent``.

    An absolute yardstick (unlike league fitness): compare the first and the
    last generation's populations to see whether evolution made progress.
    """
    matches = [
        MatchConfig(
            config.game,
            (weights_player_spec(config, weights), opponent),
            games=games_each,
            seed=seed,
            options=config.options,
            max_plies=config.max_plies,
        )
        for weights in population
    ]
    tasks = [(m, game, index) for index, m in enumerate(matches) for game in range(games_each)]
    results, _ = run_tasks(play_task, tasks, executor or InlineExecutor())
    return float(np.mean([r.result_a for r in results.values()]))


def iter_evolution(
    config: EvolutionConfig,
    executor: Executor | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_game: Callable[[int, int], None] | None = None,
) -> Iterator[Generation]:
    """Run the evolution, yielding each :class:`Generation` as soon as it is played.

    Stops early (without yielding the unfinished generation) when
    ``should_stop()`` returns True. ``on_game(done, total)`` is called after each
    league game of the generation being played (for a progress line).
    """
    executor = executor if executor is not None else InlineExecutor()
    spec = get_game(config.game)
    heuristic = spec.heuristics[config.heuristic_name()]
    MatchConfig(
        config.game,
        ("random", config.benchmark),
        options=config.options,
    ).validate()
    n_weights = len(heuristic.weight_names)
    start_rng = np.random.default_rng(np.random.SeedSequence(config.seed, spawn_key=(0,)))
    population = random_population(config.population, n_weights, config.low, config.high, start_rng)
    for generation in range(1, config.generations + 1):
        rng = np.random.default_rng(np.random.SeedSequence(config.seed, spawn_key=(3, generation)))
        leagues = assign_leagues(config.population, config.leagues, rng)
        fitness, games, completed = league_fitness(
            config, population, leagues, generation, executor, should_stop, on_game
        )
        if not completed:
            return
        best = int(np.argsort(-fitness, kind="stable")[0])
        score = benchmark_score(config, population[best], generation, executor)
        probability = mutation_probability(config.mutation, generation)
        yield Generation(
            generation=generation,
            population=tuple(tuple(int(x) for x in w) for w in population),
            fitness=tuple(float(f) for f in fitness),
            leagues=tuple(tuple(int(i) for i in league) for league in leagues),
            best_weights=tuple(int(x) for x in population[best]),
            best_fitness=float(fitness[best]),
            mean_fitness=float(fitness.mean()),
            benchmark_score=score,
            games=games + (config.benchmark_games if score is not None else 0),
            mutation_probability=probability,
        )
        if should_stop is not None and should_stop():
            return
        population = next_generation(
            population,
            fitness,
            elite=config.elite,
            worst=config.worst,
            probability=probability,
            low=config.low,
            high=config.high,
            rng=rng,
        )


def evolve(
    config: EvolutionConfig,
    executor: Executor | None = None,
    *,
    on_generation: Callable[[Generation], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_game: Callable[[int, int], None] | None = None,
) -> EvolutionResult:
    """Run the whole evolution and return its history (see :func:`iter_evolution`).

    ``on_generation(generation)`` is called as each generation is played,
    ``on_game(done, total)`` after each league game of the generation under way. A
    job of the server's pool (:mod:`lib.jobs`): module-level, picklable arguments,
    progress through callbacks (where a cancelled job stops).
    """
    result = EvolutionResult(config, config.weight_names())
    for generation in iter_evolution(config, executor, should_stop, on_game):
        result.generations.append(generation)
        if on_generation is not None:
            on_generation(generation)
    result.cancelled = len(result.generations) < config.generations
    return result
