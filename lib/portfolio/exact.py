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

from lib.portfolio.ga import GAConfig, Problem, make_problem

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
    bounds = _Bounds(
        cap=cap - EPS * max(1.0, abs(cap)),
        floor=config.min_return + EPS * max(1.0, abs(config.min_return)),
    )
    if count_rule and config.min_stocks > n:
        return ExactResult(
            None,
            None,
            "infeasible",
            f"No portfolio can hold {config.min_stocks} stocks: the table has only {n}.",
            "milp",
            0.0,
        )
    min_stocks = min(config.min_stocks, n) if count_rule else 0
    start = time.perf_counter()
    if min_stocks <= 1:
        method, answer = "lp", _solve_lp(problem, bounds)
    else:
        w_min = 1.0 / (config.threshold_divisor * n)
        method, answer = "milp", _solve_milp(problem, bounds, min_stocks, w_min, time_limit)
    seconds = time.perf_counter() - start
    if answer.weights is None:
        if answer.status == "infeasible":
            message = explain_infeasible(table, min_stocks, cap, config.min_return)
        else:
            message = f"The solver stopped without a portfolio ({answer.message})."
        return ExactResult(None, None, answer.status, message, method, seconds)
    weights = _clean_weights(answer.weights, 1.0 / (config.threshold_divisor * n), method)
    return _optimum(problem, weights, answer.status, method, seconds)


@dataclass(frozen=True)
class _Bounds:
    """The risk cap and the return floor, moved by :data:`EPS` to make them strict."""

    cap: float
    floor: float


@dataclass(frozen=True)
class _Answer:
    """What a solver returned: its status in our words, its weights, its own message."""

    status: str
    weights: np.ndarray | None
    message: str


def _solve_lp(problem: Problem, bounds: _Bounds) -> _Answer:
    """The LP without the stock-count rule: maximise ``value · c`` over the simplex."""
    solution = linprog(
        -problem.value,
        A_ub=np.vstack([problem.risk, -problem.ret]),
        b_ub=np.array([bounds.cap, -bounds.floor]),
        A_eq=np.ones((1, problem.n)),
        b_eq=np.array([1.0]),
        bounds=(0.0, 1.0),
        method="highs",
    )
    status = {0: "optimal", 2: "infeasible"}.get(solution.status, "error")
    weights = solution.x if solution.status == 0 else None
    return _Answer(status, weights, solution.message)


def _solve_milp(
    problem: Problem, bounds: _Bounds, min_stocks: int, w_min: float, time_limit: float
) -> _Answer:
    """The MILP with one binary ``z_i`` per stock: at least ``min_stocks`` of weight ``>= w_min``.

    The variables are ``(c, z)``; a time-limited solve that found a portfolio
    reports ``"time_limit"`` with it.
    """
    n = problem.n
    eye = sparse.identity(n, format="csr")
    zeros = np.zeros(n)
    constraints = [
        LinearConstraint(np.concatenate([np.ones(n), zeros])[None, :], 1.0, 1.0),
        LinearConstraint(np.concatenate([problem.risk, zeros])[None, :], -np.inf, bounds.cap),
        LinearConstraint(np.concatenate([problem.ret, zeros])[None, :], bounds.floor, np.inf),
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
    return _Answer(status, solution.x[:n] if has_x else None, solution.message)


def _clean_weights(weights: np.ndarray, w_min: float, method: str) -> np.ndarray:
    """The solver's weights clipped at 0 and summing to 1.

    For the MILP, weights under half of ``w_min`` (the solver's round-off on a
    stock it does not hold) are zeroed, so the stock count is the solver's.
    """
    weights = np.clip(weights, 0.0, None)
    weights = weights / weights.sum()
    if method == "milp":
        weights[weights < 0.5 * w_min] = 0.0
        weights = weights / weights.sum()
    return weights


def _optimum(
    problem: Problem, weights: np.ndarray, status: str, method: str, seconds: float
) -> ExactResult:
    """The :class:`ExactResult` of a portfolio the solver found, with its measures."""
    message = {
        "optimal": "Optimal.",
        "time_limit": "Best portfolio found before the solver's time limit (may not be optimal).",
    }.get(status, "")
    return ExactResult(
        weights=weights,
        objective=float(weights @ problem.value),
        status=status,
        message=message,
        method=method,
        seconds=seconds,
        risk=float(weights @ problem.risk),
        ret=float(weights @ problem.ret),
        n_stocks=int(np.count_nonzero(weights)),
    )


def explain_infeasible(
    table: pd.DataFrame, min_stocks: int, max_risk: float, min_return: float
) -> str:
    """Why no portfolio meets the constraints, naming the stock or value that blocks them.

    A portfolio's risk and return are weighted means, so its risk is at least
    the lowest stock risk and its return at most the highest stock return;
    when both hold, the LP "highest return with risk below the cap" tells how
    far the return floor is out of reach.

    >>> t = pd.DataFrame({"ticker": ["A", "B"], "risk": [0.3, 0.5], "return": [1.0, 2.0]})
    >>> explain_infeasible(t, 1, 0.2, 0.5).split(":")[0]
    'No portfolio can have risk below 0.2'
    >>> "highest return is 2 (B)" in explain_infeasible(t, 1, 0.9, 3.0)
    True
    """
    risk = table["risk"].to_numpy(dtype=float)
    ret = table["return"].to_numpy(dtype=float)
    names = (
        table["ticker"].astype(str).to_numpy()
        if "ticker" in table.columns
        else np.array([f"row {i + 1}" for i in range(len(table))])
    )
    wanted = f"risk below {max_risk:g} and return above {min_return:g}"
    if min_stocks > 1:
        wanted = f"at least {min_stocks} stocks, {wanted}"
    low = int(np.argmin(risk))
    if risk[low] >= max_risk:
        return (
            f"No portfolio can have risk below {max_risk:g}: the least risky stock, "
            f"{names[low]}, has risk {risk[low]:g}, and a portfolio's risk is a weighted mean "
            f"of its stocks' risks. Set the risk cap above {risk[low]:g}."
        )
    high = int(np.argmax(ret))
    if ret[high] <= min_return:
        return (
            f"No portfolio can have a return above {min_return:g}: the highest return is "
            f"{ret[high]:g} ({names[high]}), and a portfolio's return is a weighted mean of its "
            f"stocks' returns. Set the return floor below {ret[high]:g}."
        )
    cap_eps = max_risk - EPS * max(1.0, abs(max_risk))
    best = linprog(
        -ret,
        A_ub=risk[None, :],
        b_ub=np.array([cap_eps]),
        A_eq=np.ones((1, len(ret))),
        b_eq=np.array([1.0]),
        bounds=(0.0, 1.0),
        method="highs",
    )
    if best.status == 0 and -best.fun <= min_return:
        return (
            f"No portfolio meets {wanted}: with risk below {max_risk:g} the highest possible "
            f"return is {-best.fun:.4g}, not above {min_return:g}. Raise the risk cap or lower "
            "the return floor."
        )
    return (
        f"No portfolio meets {wanted}: the risk cap and the return floor can be met together, "
        f"but not while holding {min_stocks} stocks (each with at least the GA's minimum "
        "weight). Lower the minimum number of stocks or loosen the risk or return limit."
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
