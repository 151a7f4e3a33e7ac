"""The exact optimum (HiGHS LP / MILP): constraints, bounds on the GA, infeasibility."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import linprog

from lib.portfolio.data import load_stock_table
from lib.portfolio.exact import efficient_frontier, solve_exact
from lib.portfolio.ga import GAConfig, is_feasible, run_ga, stock_values

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sample() -> pd.DataFrame:
    return load_stock_table(ROOT / "data" / "sample_stocks.csv")


def test_milp_optimum_satisfies_every_constraint(sample):
    config = GAConfig()
    result = solve_exact(sample, config)
    assert result.status == "optimal" and result.method == "milp"
    weights = result.weights
    n = len(sample)
    assert weights.sum() == pytest.approx(1.0) and (weights >= 0).all()
    held = weights > 0
    assert held.sum() >= 30
    assert (weights[held] >= 1 / (10 * n) * (1 - 1e-6)).all()
    assert result.risk < 0.6 and result.ret > 10
    assert is_feasible(weights, sample, config)
    values = stock_values(sample["risk"].to_numpy(), sample["return"].to_numpy())
    assert result.objective == pytest.approx(float(weights @ values))


def test_lp_and_milp_optima_match_the_reference_values(sample):
    lp = solve_exact(sample, GAConfig(), count_rule=False)
    milp = solve_exact(sample, GAConfig())
    # REFERENCE.md: LP optimum about 13.07; the count rule can only lower it
    assert lp.method == "lp" and lp.objective == pytest.approx(13.07, abs=0.01)
    assert milp.objective <= lp.objective + 1e-9
    assert milp.objective > 0.99 * lp.objective


def test_small_problem_matches_a_brute_force_grid():
    table = pd.DataFrame(
        {"ticker": list("ABC"), "risk": [0.1, 0.9, 0.4], "return": [2.0, 9.0, 4.0]}
    )
    config = GAConfig(min_stocks=0, max_risk=0.5, min_return=3.0)
    values = stock_values(table["risk"].to_numpy(), table["return"].to_numpy())
    best = -np.inf
    steps = 200
    for i, j in itertools.product(range(steps + 1), repeat=2):
        if i + j > steps:
            continue
        w = np.array([i, j, steps - i - j]) / steps
        if w @ table["risk"] < 0.5 and w @ table["return"] > 3.0:
            best = max(best, float(w @ values))
    result = solve_exact(table, config)
    assert result.objective >= best - 1e-12
    assert result.objective == pytest.approx(best, abs=0.05)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_exact_optimum_bounds_every_feasible_ga_answer(sample, seed):
    config = GAConfig(
        population_size=200,
        elite_size=20,
        max_generations=150,
        stop_at_first_feasible=False,
        seed=seed,
        crossover=("uniform", "one_point", "blend")[seed],
    )
    result = run_ga(sample, config)
    exact = solve_exact(sample, config)
    assert result.feasible
    assert result.fitness <= exact.fitness + 1e-9


def test_infeasible_constraints_give_a_clear_message_not_an_exception(sample):
    result = solve_exact(sample, GAConfig(min_return=20.0))
    assert result.status == "infeasible" and not result.feasible
    assert result.weights is None and result.objective is None
    best = sample.loc[sample["return"].idxmax()]
    assert f"highest return is {best['return']:g} ({best['ticker']})" in result.message
    lp = solve_exact(sample, GAConfig(max_risk=0.01), count_rule=False)
    assert lp.status == "infeasible" and "risk below 0.01" in lp.message
    assert "highest possible return is" in lp.message and "stocks" not in lp.message
    floor = sample.assign(risk=sample["risk"] + 0.3)  # now every stock's risk is at least 0.3
    safest = floor.loc[floor["risk"].idxmin()]
    blocked = solve_exact(floor, GAConfig(max_risk=0.25))
    assert f"{safest['ticker']}, has risk {safest['risk']:g}" in blocked.message


def test_infeasible_message_names_the_blocking_value():
    table = pd.DataFrame(
        {"ticker": ["A", "B", "C"], "risk": [0.2, 0.5, 0.9], "return": [1.0, 3.0, 9.0]}
    )
    # each limit alone can be met, together not: the LP oracle gives the best return
    result = solve_exact(table, GAConfig(min_stocks=1, max_risk=0.5, min_return=5.0))
    assert result.status == "infeasible"
    best = linprog(
        -table["return"].to_numpy(),
        A_ub=[table["risk"].to_numpy()],
        b_ub=[0.5 - 1e-9],
        A_eq=[[1.0, 1.0, 1.0]],
        b_eq=[1.0],
        bounds=(0, 1),
    )
    assert f"highest possible return is {-best.fun:.4g}" in result.message
    # risk and return can be met, but not with every stock held
    table["risk"] = [0.1, 0.99, 0.99]  # holding B and C at all pushes the risk over 0.12
    crowded = solve_exact(table, GAConfig(min_stocks=3, max_risk=0.12, min_return=0.5))
    assert crowded.status == "infeasible"
    assert "not while holding 3 stocks" in crowded.message


def test_more_stocks_required_than_exist():
    table = pd.DataFrame({"ticker": ["A", "B"], "risk": [0.1, 0.2], "return": [20.0, 30.0]})
    result = solve_exact(table, GAConfig(min_stocks=3))
    assert result.status == "infeasible" and "only 2" in result.message


def test_frontier_never_falls_as_the_risk_cap_rises(sample):
    config = GAConfig()
    frontier = efficient_frontier(sample, config, [0.3, 0.45, 0.6, 0.75], count_rule=False)
    assert list(frontier.columns) == ["max_risk", "objective", "risk", "return", "n_stocks"]
    assert frontier["objective"].is_monotonic_increasing
    assert (frontier["risk"] <= frontier["max_risk"] + 1e-9).all()
    at_cap = frontier.loc[frontier["max_risk"] == 0.6, "objective"].iloc[0]
    assert at_cap == pytest.approx(solve_exact(sample, config, count_rule=False).objective)


def test_frontier_leaves_out_infeasible_caps_and_reports_progress(sample):
    calls = []
    frontier = efficient_frontier(
        sample,
        dataclasses.replace(GAConfig(), min_stocks=30),
        [0.01, 0.6],
        on_progress=lambda done, total: calls.append((done, total)),
    )
    assert frontier["max_risk"].tolist() == [0.6]
    assert calls == [(1, 2), (2, 2)]
