"""The portfolio by local search: never better than the exact optimum, honest about its budget."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from lib.errors import InputError
from lib.local_search import portfolio
from lib.portfolio.exact import solve_exact
from lib.portfolio.ga import GAConfig, is_feasible, make_problem

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sample() -> pd.DataFrame:
    return pd.read_csv(ROOT / "data" / "sample_stocks.csv")


@pytest.fixture(scope="module")
def runs(sample):
    config = GAConfig(population_size=100, elite_size=10)
    return config, portfolio.compare(sample, config, budget=30_000, seed=3)


def test_no_algorithm_beats_the_exact_optimum_and_each_answer_is_feasible(sample, runs):
    config, found = runs
    optimum = solve_exact(sample, config).fitness
    value = make_problem(sample, config).value
    assert [run.algorithm for run in found] == list(portfolio.ALGORITHMS)
    for run in found:
        assert run.feasible, run.algorithm
        assert is_feasible(run.weights, sample, config)
        assert run.fitness == pytest.approx(max(float(run.weights @ value), 0.0))
        assert run.fitness <= optimum + 1e-9
        assert run.fitness >= 0.85 * optimum  # all three get near it on the sample
    table = portfolio.summary(found, optimum)
    assert (table["distance to the optimum"] >= -1e-9).all()


def test_each_algorithm_spends_at_most_the_budget_and_its_curve_only_rises(runs):
    _, found = runs
    for run in found:
        assert run.evaluations <= 30_000
        curve = run.curve.dropna()
        assert curve["evaluations"].is_monotonic_increasing
        assert curve["best fitness"].is_monotonic_increasing
        assert curve["best fitness"].iloc[-1] == pytest.approx(run.fitness)
    long = portfolio.curves(found)
    assert set(long["algorithm"]) == set(portfolio.ALGORITHMS)


def test_neighbours_stay_portfolios_with_enough_stocks(sample):
    config = GAConfig()
    rng = np.random.default_rng(0)
    start = portfolio.random_portfolios(30, len(sample), config, rng)
    moved = portfolio.neighbours(start, config, rng)
    assert np.allclose(moved.sum(axis=1), 1.0) and (moved >= 0).all()
    assert (np.count_nonzero(moved, axis=1) >= config.min_stocks).all()
    assert (np.count_nonzero(moved != start, axis=1) > 0).all()


def test_an_infeasible_problem_reports_no_portfolio(sample):
    config = GAConfig(population_size=50, elite_size=5, min_return=100.0)
    found = portfolio.compare(sample, config, budget=1_000, seed=1)
    assert all(not run.feasible and math.isnan(run.fitness) for run in found)


def test_the_budget_is_checked(sample):
    with pytest.raises(InputError, match="budget"):
        portfolio.compare(sample, GAConfig(), budget=10)


def test_the_portfolio_package_never_imports_local_search():
    for path in (ROOT / "lib" / "portfolio").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert not any(name.startswith("lib.local_search") for name in names), path
