"""The first look's GA run is computed once and shared as data: every caller gets a copy;
the server computes it ahead of the first visit."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from plotly.io import to_json
from streamlit.testing.v1 import AppTest

from lib.portfolio.data import hard_case_table
from lib.portfolio.ga import GAConfig, run_ga
from lib.portfolio.plots import RESULT_CHARTS, result_chart
from lib.portfolio.report import exact_key
from lib.ui import portfolio, portfolio_first_look
from lib.ui.portfolio_first_look import (
    exact_optimum,
    first_look_chart,
    first_look_run,
    warm_first_look,
)

ROOT = Path(__file__).resolve().parents[2]

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


def test_after_the_warm_up_a_first_visit_reads_everything_from_the_caches(monkeypatch):
    """The warm-up fills the very cache entries a first visit reads (same data, same settings)."""
    for cached in (first_look_run, first_look_chart, exact_optimum):
        cached.clear()
    warm_first_look()

    def computed_on_the_visit(*args, **kwargs):
        raise AssertionError("the first visit computed what the warm-up should have")

    for name in ("run_ga", "solve_exact", "result_chart"):
        monkeypatch.setattr(portfolio_first_look, name, computed_on_the_visit)
    for name in ("run_ga", "result_chart", "efficient_frontier"):  # nor is a run made
        monkeypatch.setattr(portfolio, name, computed_on_the_visit)
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=60)
    app.switch_page("pages/portfolio.py").run()
    assert not app.exception, app.exception
    assert app.session_state["pf_result"]["first_look"]
    assert {metric.label for metric in app.metric} >= {"Feasible", "% of optimum"}
    assert len(app.get("plotly_chart")) >= 2  # the fitness curve and the population's animation
    for cached in (first_look_run, first_look_chart, exact_optimum):
        cached.clear()
