"""What the portfolio page says about a run, tested without Streamlit (exact solver as oracle)."""

from __future__ import annotations

import dataclasses
import math
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.portfolio import report
from lib.portfolio.data import StockData, load_stock_table
from lib.portfolio.exact import ExactResult, solve_exact
from lib.portfolio.ga import GAConfig, GAResult, parameter_study, run_ga

ROOT = Path(__file__).resolve().parents[2]


@cache
def sample() -> pd.DataFrame:
    return load_stock_table(ROOT / "data" / "sample_stocks.csv")


@cache
def feasible_run() -> tuple[GAResult, ExactResult]:
    """A small GA run on the sample that finds a feasible portfolio, and the exact optimum."""
    config = GAConfig(
        population_size=100,
        elite_size=10,
        max_generations=200,
        stop_at_first_feasible=False,
        seed=3,
    )
    result = run_ga(sample(), config)
    assert result.feasible
    return result, solve_exact(sample(), config)


@cache
def infeasible_run() -> tuple[GAResult, ExactResult]:
    """A run asking for a return above every stock's: no portfolio exists."""
    config = GAConfig(population_size=40, elite_size=4, max_generations=5, min_return=50.0, seed=0)
    return run_ga(sample(), config), solve_exact(sample(), config)


def exact_with(objective: float | None) -> ExactResult:
    weights = None if objective is None else np.array([1.0])
    return ExactResult(weights, objective, "optimal", "", "milp", 0.1, 0.1, 1.0, 1)


# -- percent of the optimum ----------------------------------------------------------------


def test_the_ga_reaches_at_most_the_exact_optimum():
    result, exact = feasible_run()
    percent = report.percent_of_optimum(result.fitness, exact)
    assert percent == pytest.approx(100 * result.fitness / exact.fitness)
    assert 0 < percent <= 100 + 1e-6  # the optimum is the upper bound of every feasible run


@settings(max_examples=60, deadline=None)
@given(st.floats(0, 1e6), st.floats(1e-9, 1e6))
def test_percent_of_optimum_scales_the_fitness_by_the_optimum(fitness, optimum):
    percent = report.percent_of_optimum(fitness, exact_with(optimum))
    assert percent is not None and percent * optimum / 100 == pytest.approx(fitness)


@pytest.mark.parametrize("objective", [None, 0.0, -2.0])
def test_percent_of_optimum_is_undefined_without_a_positive_optimum(objective):
    assert report.percent_of_optimum(1.0, exact_with(objective)) is None


def test_headline_metrics_show_the_percentage_only_for_a_feasible_run():
    result, exact = feasible_run()
    shown = {m.label: m.value for m in report.headline_metrics(result, exact)}
    assert list(shown) == [
        "Feasible",
        "Return",
        "Risk",
        "Stocks held",
        "Generations",
        "Seconds",
        "% of optimum",
    ]
    percent = report.percent_of_optimum(result.fitness, exact)
    assert shown["% of optimum"] == f"{percent:.1f} %" and shown["Feasible"] == "yes"
    assert shown["Stocks held"] == result.n_stocks and shown["Generations"] == result.generations
    assert float(shown["Return"]) == pytest.approx(result.ret, abs=1e-3)
    missed, none_exists = infeasible_run()
    shown = {m.label: m.value for m in report.headline_metrics(missed, none_exists)}
    assert shown["% of optimum"] == "–" and shown["Feasible"] == "no"
    helps = {m.label: m.help for m in report.headline_metrics(missed, none_exists)}
    assert helps["Return"] == "Must exceed 50." and helps["Stocks held"] == "At least 30."


# -- the comparison table -------------------------------------------------------------------


def test_comparison_table_puts_the_ga_beside_the_exact_optimum_and_the_limits():
    result, exact = feasible_run()
    table = report.comparison_table(result, exact).set_index("measure")
    assert list(table.columns) == ["GA", "exact optimum", "must be"]
    assert float(table.loc["fitness", "GA"]) == pytest.approx(result.fitness, abs=1e-4)
    assert float(table.loc["fitness", "exact optimum"]) == pytest.approx(exact.fitness, abs=1e-4)
    # the optimum rides the risk cap (1e-9 under it): said in words, not as 0.600000000
    assert exact.risk < 0.6 and 0.6 - exact.risk < 1e-6
    assert table.loc["risk", "exact optimum"] == "just below 0.6"
    assert float(table.loc["risk", "GA"]) == pytest.approx(result.risk, abs=1e-4)
    assert int(table.loc["stocks held", "exact optimum"]) == exact.n_stocks
    assert table["must be"].tolist() == [
        "as high as possible",
        "above 10",
        "below 0.6",
        "at least 30",
    ]


def test_comparison_table_has_dashes_where_no_optimum_exists():
    result, exact = infeasible_run()
    assert not exact.feasible
    table = report.comparison_table(result, exact).set_index("measure")
    assert table["exact optimum"].tolist() == ["—"] * 4
    assert table.loc["return", "must be"] == "above 50"


# -- verdicts -------------------------------------------------------------------------------


def test_caption_has_no_double_period_when_no_portfolio_exists():
    result, exact = infeasible_run()
    assert not exact.feasible and exact.message.endswith(".")
    caption = report.result_caption(result, exact)
    assert ".." not in caption and "Stopped by:" in caption
    assert exact.message not in caption  # said once, in the error below the table


def test_caption_of_a_feasible_run_names_the_optimum_and_its_method():
    result, exact = feasible_run()
    caption = report.result_caption(result, exact)
    assert f"exact optimum: {exact.fitness:.4f} ({exact.method}, {exact.n_stocks} stocks)" in (
        caption
    )
    assert caption.endswith(f"Stopped by: {result.stopped_by.replace('_', ' ')}.")


def test_a_solver_that_stopped_without_an_answer_is_not_called_a_proof():
    result, proof = infeasible_run()
    assert not result.feasible
    stopped = ExactResult(None, None, "error", "Time limit reached.", "milp", 10.0)
    assert "Time limit reached" not in report.result_caption(result, stopped)  # said once
    note = report.no_portfolio_message(result, stopped)
    assert "could not decide" in note and "Time limit reached" in note
    assert "says none exists" in report.no_portfolio_message(result, proof)
    assert proof.message in report.no_portfolio_message(result, proof)
    _, exists = feasible_run()
    assert "One exists" in report.no_portfolio_message(result, exists)


def short_run(stopped_by: str = "max_generations", **settings: object) -> GAResult:
    """A run that found nothing, with the given settings and reason to stop."""
    result, _ = infeasible_run()
    return dataclasses.replace(
        result, config=dataclasses.replace(result.config, **settings), stopped_by=stopped_by
    )


def test_the_advice_for_a_missed_portfolio_names_only_settings_that_were_off():
    _, exists = feasible_run()
    robust = report.no_portfolio_message(short_run(), exists)
    assert "constraint-aware" not in robust and "Repair" not in robust  # both already on
    assert "raise **Max generations** (this run stopped after 5)" in robust
    taught = report.no_portfolio_message(short_run(fitness="course", repair=False), exists)
    assert "set **Fitness** to constraint-aware, tick **Repair** or raise" in taught
    timed = report.feasibility_advice(short_run("time_limit", time_limit=60.0))
    assert "Max generations" not in timed and "lower the **Population size**" in timed
    assert "another **Random seed**" in report.feasibility_advice(short_run("callback"))


# -- formatting, progress, page rules ---------------------------------------------------------


def test_risk_just_under_the_cap_does_not_print_as_the_cap():
    assert report.format_vs_limit(0.59998, 0.6, 4) == "0.59998"
    assert report.format_vs_limit(10.0004, 10.0, 3) == "10.0004"
    assert report.format_vs_limit(0.6, 0.6, 4) == "0.6000"
    assert report.format_vs_limit(0.31234, 0.6, 4) == "0.3123"


@settings(max_examples=100, deadline=None)
@given(st.floats(-10, 10), st.floats(-10, 10), st.integers(0, 6))
def test_a_value_other_than_its_limit_never_prints_as_the_limit(value, limit, decimals):
    text = report.format_vs_limit(value, limit, decimals)
    if text.startswith("just "):  # closer to the limit than 6 decimals show: said in words
        assert 0 < abs(value - limit) <= 1.01e-6
        assert text == f"just {'below' if value < limit else 'above'} {limit:g}"
        return
    shown = len(text.partition(".")[2])  # the decimals it chose
    assert shown >= decimals
    if value != limit:
        assert text != f"{limit:.{shown}f}"
    assert abs(float(text) - value) <= 0.5 * 10**-shown + 1e-12


def test_a_risk_a_hair_under_the_cap_says_just_below_not_twelve_digits():
    # "Risk 0.600000000000" was shown as feasible beside "below 0.6"
    result, exact = feasible_run()
    hair = dataclasses.replace(result, risk=0.6 - 4e-14, ret=10 + 2e-13)
    shown = {metric.label: metric.value for metric in report.headline_metrics(hair, exact)}
    assert shown["Risk"] == "just below 0.6" and shown["Return"] == "just above 10"
    table = report.comparison_table(hair, exact).set_index("measure")
    assert table.loc["risk", "GA"] == "just below 0.6"


def test_a_run_stopped_at_first_feasible_short_of_the_optimum_hints_at_the_checkbox():
    result, exact = feasible_run()
    stopped = dataclasses.replace(result, stopped_by="first_feasible")
    percent = report.percent_of_optimum(stopped.fitness, exact)
    assert percent < 99.5
    hint = report.improve_hint(stopped, exact)
    assert f"{percent:.1f} %" in hint and "Stop when feasible" in hint
    assert (
        report.improve_hint(dataclasses.replace(result, stopped_by="max_generations"), exact)
        is None
    )
    at_optimum = dataclasses.replace(stopped, fitness=exact.fitness)
    assert report.improve_hint(at_optimum, exact) is None
    assert report.improve_hint(stopped, exact_with(None)) is None


def test_progress_bar_follows_the_time_budget():
    fraction, text = report.progress_state(67, 5000, 45.0, 60.0)
    assert fraction == pytest.approx(0.75) and "Generation 67 of 5000" in text
    assert "time budget 60 s" in text
    fraction, _ = report.progress_state(900, 1000, 1.0, 60.0)
    assert fraction == pytest.approx(0.9)
    assert report.progress_state(5, 10, 99.0, None) == (0.5, "Generation 5 of 10")


def test_a_run_starts_on_its_own_only_within_the_budget():
    assert report.auto_run_allowed(GAConfig(population_size=700, max_generations=1000))
    assert not report.auto_run_allowed(GAConfig(population_size=701, max_generations=1000))


def test_exact_key_keeps_only_what_the_solver_depends_on():
    a = GAConfig(population_size=100, seed=1, max_risk=0.5)
    b = GAConfig(population_size=300, seed=9, max_risk=0.5, fitness="course")
    assert report.exact_key(a) == report.exact_key(b)
    assert report.exact_key(a) != report.exact_key(GAConfig(max_risk=0.4))
    assert solve_exact(sample(), report.exact_key(b)).fitness == pytest.approx(
        solve_exact(sample(), b).fitness
    )


def test_data_fingerprint_changes_with_the_table_contents():
    table = sample()
    data = StockData(table=table, kind="summary")
    changed = StockData(table=table.assign(risk=table["risk"] * 0.5), kind="summary")
    assert report.data_fingerprint("sample", None, data) == report.data_fingerprint(
        "sample", None, StockData(table=table.copy(), kind="summary")
    )
    assert report.data_fingerprint("sample", None, data) != report.data_fingerprint(
        "sample", None, changed
    )


def test_study_table_says_when_a_setting_never_found_a_feasible_portfolio():
    study = pd.DataFrame(
        {
            "mean_generations": [12.345, math.nan],
            "mean_seconds": [0.12345, math.inf],
            "mean_fitness": [1.234567, 0.5],
        }
    )
    shown = report.study_table(study)
    assert shown["generations to feasible (mean)"].tolist() == ["12.3", "— (no feasible run)"]
    assert shown["seconds to feasible (mean)"].tolist() == ["0.123", "— (no feasible run)"]
    assert shown["fitness (mean)"].tolist() == [1.2346, 0.5]


def test_the_study_table_keeps_every_column_with_headers_in_words():
    study = parameter_study(
        sample(),
        GAConfig(population_size=60, elite_size=6, max_generations=30),
        {"p_mutation": [0.1]},
        repeats=1,
    )
    shown = report.study_table(study)
    assert len(shown.columns) == len(study.columns)
    assert "fitness (mean)" in shown.columns
    assert shown["parameter"].tolist() == ["mutation probability"]
    assert not [column for column in shown.columns if "_" in column]


def test_problem_text_states_the_constraints():
    text = report.problem_text(
        {
            "min_stocks": 30,
            "max_risk": 0.6,
            "min_return": 10.0,
            "penalty_threshold": 0.6,
            "penalty_factor": 5.0,
        }
    )
    assert "**at least 30 stocks**" in text and "**below 0.6**" in text
    assert "**return exceeds 10** (1000 %)" in text and "5·max(risk − 0.6, 0)" in text
