"""The Arena page's evolution defaults (lib.games.evolve): which games and heuristics can be
evolved, the heuristic and benchmark an evolution starts from, the best-weights table."""

from __future__ import annotations

import dataclasses

import pytest

from lib.errors import InputError
from lib.games.arena import MatchConfig, run_tournament
from lib.games.core import available_games, get_game
from lib.games.evolve import (
    EvolutionConfig,
    best_weights_table,
    default_benchmark,
    default_evolved_heuristic,
    evolvable_games,
    evolvable_heuristics,
)
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


@pytest.mark.parametrize("game", ["othello", "checkers", "sim"])
def test_the_default_heuristic_is_the_one_an_evolution_without_a_choice_uses(game):
    spec = get_game(game)
    name = default_evolved_heuristic(spec)
    assert name in evolvable_heuristics(spec)
    # the library picks the same heuristic when none is given
    assert EvolutionConfig(game=game, options=()).heuristic_name() == name


def test_the_default_heuristic_falls_back_to_the_first_with_weights():
    othello = get_game("othello")
    # not one of the course's games, and its own default (discs) has no weights
    other = dataclasses.replace(othello, name="othello_like", default_heuristic="discs")
    assert default_evolved_heuristic(other) == evolvable_heuristics(othello)[0]
    assert default_evolved_heuristic(othello) == "positional9"


@pytest.mark.parametrize("game", ["othello", "checkers", "sim"])
def test_the_default_benchmark_plays_the_game(game):
    spec = get_game(game)
    benchmark = default_benchmark(game)
    match = MatchConfig(game, (benchmark, "random"), games=1, max_plies=40)
    match.validate()
    assert len(run_tournament([match]).records) == 1
    if game == "othello":  # the course's fixed opponent: the classic square table
        assert "heuristic=table" in benchmark and "table" in spec.heuristics


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
    from lib.games.evolve import Generation

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
    from lib.games.evolve import best_benchmark_generation

    generations = [_scored(n, s) for n, s in enumerate(scores, start=1)]
    assert best_benchmark_generation(generations) == strongest
