"""Weight evolution: the genetic operators, leagues, reproducibility and real progress."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games.arena import open_executor
from lib.games.arena.evolve import (
    EvolutionConfig,
    assign_leagues,
    blend_crossover,
    evolve,
    games_per_generation,
    mutate,
    mutation_probability,
    next_generation,
    population_score,
    random_population,
)
from lib.games.othello import POSITIONAL_FEATURES

weights = st.lists(st.integers(-100, 100), min_size=9, max_size=9)


@settings(max_examples=100, deadline=None)
@given(weights, weights, st.floats(0, 1))
def test_blend_crossover_is_the_floor_of_the_blend(p1, p2, alpha):
    child = blend_crossover(np.array(p1), np.array(p2), alpha)
    for c, a, b in zip(child, p1, p2, strict=True):
        assert c == np.floor(alpha * a + (1 - alpha) * b)
        assert min(a, b) - 1 <= c <= max(a, b)


@settings(max_examples=100, deadline=None)
@given(weights, st.integers(0, 2**32 - 1))
def test_mutation_changes_at_most_one_weight_within_50_and_the_range(parent, seed):
    parent = np.array(parent)
    child = mutate(parent, 1.0, -100, 100, np.random.default_rng(seed))
    changed = np.flatnonzero(child != parent)
    assert len(changed) <= 1
    assert np.all(np.abs(child - parent) <= 50)
    assert child.min() >= -100 and child.max() <= 100
    assert np.array_equal(mutate(parent, 0.0, -100, 100, np.random.default_rng(seed)), parent)


def test_mutation_rate_matches_its_probability():
    rng = np.random.default_rng(0)
    parent = np.zeros(9, dtype=np.int64)
    mutated = sum(mutate(parent, 0.2, -100, 100, rng).any() for _ in range(4000))
    # a mutation by offset 0 leaves the vector unchanged (1 in 101)
    assert mutated / 4000 == pytest.approx(0.2 * 100 / 101, abs=0.02)
    assert [mutation_probability(0.2, g) for g in (1, 2, 4)] == pytest.approx([0.2, 0.1, 0.05])


def test_leagues_partition_the_population():
    leagues = assign_leagues(23, 5, np.random.default_rng(1))
    assert len(leagues) == 5 and {len(x) for x in leagues} == {4, 5}
    assert sorted(np.concatenate(leagues).tolist()) == list(range(23))


def test_next_generation_keeps_the_elite_and_breeds_from_the_pool():
    rng = np.random.default_rng(3)
    population = random_population(10, 9, -100, 100, rng)
    fitness = np.linspace(0, 1, 10)  # member 9 best, member 0 worst
    new = next_generation(
        population, fitness, elite=2, worst=0, probability=0.0, low=-100, high=100, rng=rng
    )
    assert new.shape == population.shape
    assert np.array_equal(new[0], population[9]) and np.array_equal(new[1], population[8])
    # without mutation and with parents 8 and 9 only, every child lies in their box
    low = np.minimum(population[8], population[9]) - 1
    high = np.maximum(population[8], population[9])
    assert np.all((new >= low) & (new <= high))


def test_bad_configs_raise_input_errors():
    for bad in (
        {"population": 3},
        {"population": 8, "leagues": 5},
        {"low": 5, "high": 5},
        {"elite": 0, "worst": 1},
        {"mutation": 1.5},
        {"generations": 0},
    ):
        with pytest.raises(InputError):
            EvolutionConfig(game="othello", **bad)
    with pytest.raises(InputError):
        EvolutionConfig(game="othello", heuristic="discs").weight_names()  # no weights to evolve


TINY = EvolutionConfig(
    game="othello",
    population=10,
    leagues=2,
    generations=6,
    depth=1,
    elite=3,
    worst=1,
    benchmark="alphabeta:depth=1,heuristic=discs",
    benchmark_games=4,
    seed=0,
)


TINY_RUN_GAMES = 44  # 2 leagues of 5: 2 * 10 pairs * 2 games, + 4 benchmark games


@pytest.fixture(scope="module")
def tiny_run():
    return evolve(TINY)


def test_evolution_history_shape(tiny_run):
    history = tiny_run.history()
    assert list(history["generation"]) == list(range(1, 7))
    assert tiny_run.weight_names == POSITIONAL_FEATURES
    assert list(history.columns[-9:]) == list(POSITIONAL_FEATURES)
    assert list(history["distinct_vectors"]) == [
        len(set(g.population)) for g in tiny_run.generations
    ]
    assert 0 < history["distinct_vectors"].min() <= history["distinct_vectors"].max() <= 10
    for generation in tiny_run.generations:
        assert len(generation.population) == 10
        assert all(-100 <= w <= 100 for member in generation.population for w in member)
        # league round robins, 2 games per pair: 2 leagues of 5 -> 2 * 10 pairs * 2 games
        assert generation.games == TINY_RUN_GAMES
        assert generation.mean_fitness == pytest.approx(0.5)  # score shares of a round robin
        assert generation.best_fitness == max(generation.fitness)
        best = generation.population[generation.fitness.index(generation.best_fitness)]
        assert generation.best_weights == best
    # the elite survive: generation g's best is in generation g + 1
    for before, after in zip(tiny_run.generations, tiny_run.generations[1:], strict=False):
        assert before.best_weights in after.population


def test_evolution_improves_play_against_a_fixed_opponent(tiny_run):
    first = population_score(TINY, tiny_run.generations[0].population, TINY.benchmark, seed=99)
    last = population_score(TINY, tiny_run.generations[-1].population, TINY.benchmark, seed=99)
    # 40 games each side: the evolved population must score clearly better
    assert last >= first + 0.2, (first, last)


def test_same_seed_same_evolution_in_a_process_pool(tiny_run):
    config = EvolutionConfig(**{**vars(TINY), "generations": 2})
    with open_executor("process", workers=2) as pool:
        pooled = evolve(config, pool)
    assert pooled.generations == tiny_run.generations[:2]


def test_stopping_keeps_finished_generations():
    calls = []
    result = evolve(
        EvolutionConfig(**{**vars(TINY), "generations": 4, "benchmark_games": 0}),
        on_generation=calls.append,
        should_stop=lambda: len(calls) >= 2,
    )
    assert result.cancelled and len(result.generations) == 2 and calls == result.generations


def test_games_per_generation_counts_round_robins_and_benchmark():
    # leagues of 4, 3 and 3: 6 + 3 + 3 pairs, 2 games each, plus 5 benchmark games
    config = EvolutionConfig(
        game="othello", population=10, leagues=3, games_per_pair=2, benchmark_games=5
    )
    assert games_per_generation(config) == 12 * 2 + 5
    assert games_per_generation(TINY) == TINY_RUN_GAMES
