"""The Arena page's evolution defaults (lib.games.arena.evolve): which games and heuristics can be
evolved, the heuristic and benchmark an evolution starts from, the best-weights table."""

from __future__ import annotations

import dataclasses

import pytest

from lib.errors import InputError
from lib.games.arena import MatchConfig, run_tournament
from lib.games.arena.evolve import (
    EvolutionConfig,
    best_weights_table,
    default_benchmark,
    default_evolved_heuristic,
    evolvable_games,
    evolvable_heuristics,
    evolve,
    games_per_generation,
    weights_player_spec,
)
from lib.games.arena.options import check_options
from lib.games.core import available_games, get_game
from lib.games.othello import POSITIONAL_FEATURES


def test_evolvable_games_are_those_with_weights_to_evolve():
    games = available_games()
    weighted = evolvable_games(games)
    assert "othello" in weighted
    for name, spec in games.items():
        has_weights = any(h.weight_names for h in spec.heuristics.values())
        assert (name in weighted) == has_weights
    # a game whose heuristics have no weights is not offered
    plain = dataclasses.replace(
        games["othello"],
        name="plain",
        heuristics={"discs": games["othello"].heuristics["discs"]},
        default_heuristic="discs",
    )
    assert evolvable_games({"plain": plain}) == {}
    assert evolvable_heuristics(plain) == []
    with pytest.raises(InputError, match="no heuristic with weights"):
        default_evolved_heuristic(plain)


def test_evolvable_heuristics_keep_the_game_order_and_have_weights():
    othello = get_game("othello")
    names = evolvable_heuristics(othello)
    assert names == [n for n in othello.heuristics if n in names]  # the game's order
    assert "positional9" in names and "discs" not in names
    assert all(othello.heuristics[n].weight_names for n in names)


GAMES = list(available_games())
WEIGHTED = list(evolvable_games(available_games()))


@pytest.mark.parametrize("game", WEIGHTED)
def test_the_default_heuristic_is_the_one_an_evolution_without_a_choice_uses(game):
    spec = get_game(game)
    name = default_evolved_heuristic(spec)
    assert name in evolvable_heuristics(spec)
    # the library picks the same heuristic when none is given
    assert EvolutionConfig(game=game, options=()).heuristic_name() == name


@pytest.mark.parametrize("game", GAMES)
def test_a_game_s_evolution_defaults_are_valid_for_it(game):
    spec = get_game(game)
    if spec.evolve_heuristic is not None:  # a named heuristic must have weights to evolve
        assert spec.evolve_heuristic in evolvable_heuristics(spec)
        assert default_evolved_heuristic(spec) == spec.evolve_heuristic
    check_options(spec, spec.evolve_options)
    MatchConfig(game, (spec.evolve_benchmark, "random"), options=spec.evolve_options).validate()


def test_the_default_heuristic_comes_from_the_spec_then_the_game_s_default_then_the_first():
    othello = get_game("othello")
    weighted = evolvable_heuristics(othello)
    named = dataclasses.replace(othello, evolve_heuristic=weighted[-1])
    assert default_evolved_heuristic(named) == weighted[-1]
    # no heuristic named: the game's default if it has weights ...
    unnamed = dataclasses.replace(othello, evolve_heuristic=None, default_heuristic=weighted[1])
    assert default_evolved_heuristic(unnamed) == weighted[1]
    # ... else the first one with weights (discs has none)
    plain_default = dataclasses.replace(othello, evolve_heuristic=None, default_heuristic="discs")
    assert default_evolved_heuristic(plain_default) == weighted[0]


def test_an_evolution_config_takes_the_game_s_options_and_benchmark_unless_given():
    for game in WEIGHTED:
        spec = get_game(game)
        config = EvolutionConfig(game=game)
        assert config.options == tuple(spec.evolve_options)
        assert config.benchmark == spec.evolve_benchmark == default_benchmark(spec)
        given = EvolutionConfig(game=game, options=(), benchmark="greedy")
        assert (given.options, given.benchmark) == ((), "greedy")
    with pytest.raises(InputError, match="Unknown game"):
        EvolutionConfig(game="chess")


@pytest.mark.parametrize("game", GAMES)
def test_the_default_benchmark_plays_the_game(game):
    spec = get_game(game)
    benchmark = default_benchmark(spec)
    assert benchmark == spec.evolve_benchmark
    match = MatchConfig(game, (benchmark, "random"), games=1, max_plies=40)
    match.validate()
    assert len(run_tournament([match]).records) == 1


@pytest.mark.parametrize("game", WEIGHTED)
def test_evolution_runs_on_every_game_with_weights(game):
    # tiny: 4 vectors in one league, 1 game per pair, 2 generations, 2 benchmark games
    config = EvolutionConfig(
        game=game,
        population=4,
        leagues=1,
        generations=2,
        elite=1,
        worst=1,
        games_per_pair=1,
        benchmark_games=2,
        low=-20,
        high=20,
        max_plies=80,
    )
    result = evolve(config)
    spec = get_game(game)
    assert result.weight_names == spec.heuristics[config.heuristic_name()].weight_names
    assert [g.generation for g in result.generations] == [1, 2] and not result.cancelled
    for generation in result.generations:
        assert generation.games == games_per_generation(config) == 6 + 2
        assert generation.mean_fitness == pytest.approx(0.5)  # score shares of a round robin
        assert 0 <= generation.benchmark_score <= 1
        assert all(len(w) == len(result.weight_names) for w in generation.population)
        assert all(-20 <= x <= 20 for w in generation.population for x in w)
    first, second = result.generations
    assert first.best_weights in second.population  # the elite survives
    # the evolved weights make a valid player of the game
    player = weights_player_spec(config, result.best_weights)
    MatchConfig(game, (player, "random"), options=config.options).validate()


def test_best_weights_table_pairs_each_feature_with_its_weight():
    weights = tuple(range(len(POSITIONAL_FEATURES)))
    table = best_weights_table(POSITIONAL_FEATURES, weights)
    assert list(table.columns) == ["feature", "weight"]
    assert dict(zip(table["feature"], table["weight"], strict=True)) == dict(
        zip(POSITIONAL_FEATURES, weights, strict=True)
    )
    with pytest.raises(InputError, match="3 weights for 9 features"):
        best_weights_table(POSITIONAL_FEATURES, (1, 2, 3))


def _scored(number: int, benchmark: float | None):
    from lib.games.arena.evolve import Generation

    return Generation(
        generation=number,
        population=((0,),),
        fitness=(0.5,),
        leagues=((0,),),
        best_weights=(number,),
        best_fitness=0.5,
        mean_fitness=0.5,
        benchmark_score=benchmark,
        games=0,
        mutation_probability=0.2,
    )


@pytest.mark.parametrize(
    ("scores", "strongest"),
    [
        ([0.6, 0.0, 0.3, 0.2], 1),
        ([0.1, 0.5, 0.5, 0.2], 2),  # a tie goes to the earlier generation
        ([0.0, 0.0, 0.9], 3),
        ([None, None], None),  # no benchmark games
        ([None, 0.4, None], 2),
    ],
)
def test_the_generation_strongest_against_the_benchmark(scores, strongest):
    from lib.games.arena.evolve import best_benchmark_generation

    generations = [_scored(n, s) for n, s in enumerate(scores, start=1)]
    assert best_benchmark_generation(generations) == strongest
