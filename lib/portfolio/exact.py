"""The exact optimum of the portfolio problem, with SciPy's HiGHS solvers.

The course's objective ``sum_i c_i * value_i`` (see
:func:`lib.portfolio.ga.stock_values`) is linear, and so are the risk and
return constraints, so without the stock-count rule the problem is a linear
program (:func:`scipy.optimize.linprog`). The rule "at least ``min_stocks``
stocks, each with a weight of at least the GA's small-weight threshold
``1 / (threshold_divisor * n)``" needs a binary indicator per stock, which
makes it a mixed-integer linear program (:func:`scipy.optimize.milp`)::

    maximise   value · c
    subject to sum(c) = 1,  risk · c <= max_risk - eps,  return · c >= min_return + eps,
               w_min * z_i <= c_i <= z_i,  sum(z) >= min_stocks,  z_i in {0, 1}

Every portfolio the GA calls feasible is feasible here, so the optimum is an
upper bound on the GA's fitness; the page shows the GA's fitness as a
percentage of it. Infeasible constraint sets give a result with
``status == "infeasible"`` and a plain-language message, not an exception.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.optimize import Bounds, LinearConstraint, linprog, milp

from lib.portfolio.ga import GAConfig, make_problem

EPS = 1e-9
"""Slack that turns the strict inequalities (risk <, return >) into <= / >=."""


@dataclass(frozen=True)
class ExactResult:
    """The optimum found by the solver (or why there is none).

    Attributes:
        weights: optimal coefficients aligned with the table (``None`` if none).
        objective: ``value · weights`` at the optimum (``None`` if none).
        status: ``"optimal"``, ``"infeasible"``, ``"time_limit"`` (best found
            when the time ran out) or ``"error"``.
        message: a plain-language explanation for the page.
        method: ``"milp"`` (with the stock-count rule) or ``"lp"`` (without).
        seconds: solver wall time.
    """

    weights: np.ndarray | None
    objective: float | None
    status: str
    message: str
    method: str
    seconds: float
    risk: float | None = None
    ret: float | None = None
    n_stocks: int | None = None

    @property
    def feasible(self) -> bool:
        """Whether a portfolio satisfying every constraint was found."""
        return self.weights is not None

    @property
    def fitness(self) -> float | None:
        """The course's fitness of the optimum (the objective clipped at 0)."""
        return None if self.objective is None else max(self.objective, 0.0)


def solve_exact(
    table: pd.DataFrame,
    config: GAConfig | None = None,
    *,
    count_rule: bool = True,
    max_risk: float | None = None,
    time_limit: float = 20.0,
) -> ExactResult:
    """Best portfolio for the course's objective under the GA's constraints.

    Args:
        table: one row per stock with ``risk`` and ``return`` columns.
        config: constraints, penalty and threshold (``GAConfig()`` when ``None``).
        count_rule: solve the MILP with the minimum-stocks rule (``True``) or
            the LP without it.
        max_risk: override the risk cap (used for the efficient frontier).
        time_limit: seconds the MILP solver may use.
    """
    config = config or GAConfig()
    problem = make_problem(table, config)
    n = problem.n
    cap = config.max_risk if max_risk is None else max_risk
    cap_eps = cap - EPS * max(1.0, abs(cap))
    floor_eps = config.min_return + EPS * max(1.0, abs(config.min_return))
    start = time.perf_counter()
    min_stocks = min(config.min_stocks, n) if count_rule else 0
    if count_rule and config.min_stocks > n:
        return ExactResult(
            None,
            None,
            "infeasible",
            f"No portfolio can hold {config.min_stocks} stocks: the table has only {n}.",
            "milp",
            0.0,
        )
    if min_stocks <= 1:
        method = "lp"
        solution = linprog(
            -problem.value,
            A_ub=np.vstack([problem.risk, -problem.ret]),
            b_ub=np.array([cap_eps, -floor_eps]),
            A_eq=np.ones((1, n)),
            b_eq=np.array([1.0]),
            bounds=(0.0, 1.0),
            method="highs",
        )
        status = {0: "optimal", 2: "infeasible"}.get(solution.status, "error")
        weights = solution.x if solution.status == 0 else None
    else:
        method = "milp"
        w_min = 1.0 / (config.threshold_divisor * n)
        eye = sparse.identity(n, format="csr")
        zeros = np.zeros(n)
        constraints = [
            LinearConstraint(np.concatenate([np.ones(n), zeros])[None, :], 1.0, 1.0),
            LinearConstraint(np.concatenate([problem.risk, zeros])[None, :], -np.inf, cap_eps),
            LinearConstraint(np.concatenate([problem.ret, zeros])[None, :], floor_eps, np.inf),
            LinearConstraint(np.concatenate([zeros, np.ones(n)])[None, :], min_stocks, np.inf),
            LinearConstraint(sparse.hstack([eye, -eye], format="csr"), -np.inf, 0.0),  # c <= z
            LinearConstraint(sparse.hstack([eye, -w_min * eye], format="csr"), 0.0, np.inf),
        ]
        solution = milp(
            np.concatenate([-problem.value, zeros]),
            constraints=constraints,
            integrality=np.concatenate([zeros, np.ones(n)]),
            bounds=Bounds(np.zeros(2 * n), np.ones(2 * n)),
            options={"time_limit": time_limit, "disp": False},
        )
        has_x = solution.x is not None
        status = {0: "optimal", 2: "infeasible"}.get(
            solution.status, "time_limit" if has_x else "error"
        )
        weights = solution.x[:n] if has_x else None
    seconds = time.perf_counter() - start
    if weights is None:
        if status == "infeasible":
            message = (
                f"No portfolio meets the constraints: at least {min_stocks} stocks, risk below "
                f"{cap:g} and return above {config.min_return:g}. Loosen one of them."
            )
        else:
            message = f"The solver stopped without a portfolio ({solution.message})."
        return ExactResult(None, None, status, message, method, seconds)
    weights = np.clip(weights, 0.0, None)
    weights = weights / weights.sum()
    if method == "milp":
        weights[weights < 0.5 * (1.0 / (config.threshold_divisor * n))] = 0.0
        weights = weights / weights.sum()
    objective = float(weights @ problem.value)
    message = {
        "optimal": "Optimal.",
        "time_limit": "Best portfolio found before the solver's time limit (may not be optimal).",
    }.get(status, "")
    return ExactResult(
        weights=weights,
        objective=objective,
        status=status,
        message=message,
        method=method,
        seconds=seconds,
        risk=float(weights @ problem.risk),
        ret=float(weights @ problem.ret),
        n_stocks=int(np.count_nonzero(weights)),
    )


def efficient_frontier(
    table: pd.DataFrame,
    config: GAConfig | None = None,
    risk_caps: Sequence[float] | None = None,
    *,
    points: int = 15,
    count_rule: bool = True,
    time_limit: float = 2.0,
    on_progress: Callable[[int, int], object] | None = None,
) -> pd.DataFrame:
    """Best objective for a range of risk caps (other constraints unchanged).

    Returns a table with columns ``max_risk, objective, risk, return, n_stocks``;
    caps with no feasible portfolio are left out. ``time_limit`` caps each MILP.
    """
    config = config or GAConfig()
    if risk_caps is None:
        risk = table["risk"].to_numpy(dtype=float)
        low, high = float(risk.min()), float(risk.max())
        risk_caps = np.linspace(low + (high - low) * 0.02, high, points)
    rows = []
    total = len(risk_caps)
    for done, cap in enumerate(risk_caps, start=1):
        result = solve_exact(
            table, config, count_rule=count_rule, max_risk=float(cap), time_limit=time_limit
        )
        if result.feasible:
            rows.append((float(cap), result.objective, result.risk, result.ret, result.n_stocks))
        if on_progress is not None:
            on_progress(done, total)
    return pd.DataFrame(rows, columns=["max_risk", "objective", "risk", "return", "n_stocks"])
