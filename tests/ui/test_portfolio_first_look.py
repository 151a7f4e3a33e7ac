"""The first look's GA run is computed once and shared as data: every caller gets a copy."""

from __future__ import annotations

import numpy as np
from plotly.io import to_json

from lib.portfolio.data import hard_case_table
from lib.portfolio.ga import GAConfig, run_ga
from lib.portfolio.report import exact_key
from lib.ui.portfolio import (
    RESULT_CHARTS,
    exact_optimum,
    first_look_chart,
    first_look_run,
    result_chart,
)

CONFIG = GAConfig(population_size=40, elite_size=4, max_generations=15, seed=3)


def test_the_first_look_is_the_seeded_run_and_each_caller_gets_its_own_copy():
    table = hard_case_table(120, seed=0)
    first_look_run.clear()
    mine = first_look_run(table, CONFIG)
    expected = run_ga(table, CONFIG)  # the same seeded run, computed directly
    np.testing.assert_array_equal(mine.weights, expected.weights)
    assert (mine.fitness, mine.generations) == (expected.fitness, expected.generations)
    # one session changing what it was handed changes nothing for the next
    mine.weights[:] = 0.0
    mine.history.iloc[:, :] = 0
    theirs = first_look_run(table, CONFIG)
    np.testing.assert_array_equal(theirs.weights, expected.weights)
    assert theirs.history["best_fitness"].equals(expected.history["best_fitness"])
    assert theirs is not mine
    first_look_run.clear()


def test_the_first_looks_charts_are_built_once_from_that_run_and_shared():
    table = hard_case_table(120, seed=0)
    first_look_run.clear()
    first_look_chart.clear()
    run = run_ga(table, CONFIG)
    exact = exact_optimum(table, exact_key(CONFIG))
    for name in RESULT_CHARTS:
        shared = first_look_chart(name, table, CONFIG)
        assert first_look_chart(name, table, CONFIG) is shared  # one copy for every visitor
        # the same figure as built from the run and its exact optimum directly
        assert to_json(shared) == to_json(result_chart(name, run, exact, table)), name
    population = first_look_chart("population", table, CONFIG)
    assert len(population.frames) == len(run.history)  # a frame per generation
    first_look_chart.clear()
    first_look_run.clear()
