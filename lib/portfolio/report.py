"""What the portfolio page says about a run: verdicts, comparisons and figures, as data.

Everything here is plain Python (no Streamlit), so it is tested on its own;
the page's Streamlit modules (``lib.ui.portfolio*``) only draw what these functions return.

* :func:`percent_of_optimum`: the GA's fitness as a share of the exact optimum;
* :func:`headline_metrics`: the row of figures above the results;
* :func:`comparison_table`: the GA's portfolio beside the exact optimum and the limits;
* :func:`result_caption`, :func:`no_portfolio_message`: the verdicts in words
  (feasible, none exists, or the solver could not decide);
* :func:`format_vs_limit`: a value printed with enough decimals not to look
  equal to its limit;
* :func:`problem_text`, :func:`study_table`, :func:`progress_state`,
  :func:`auto_run_allowed`, :func:`data_fingerprint`, :func:`exact_key`: the
  page's intro, study table, progress bar, auto-run rule and cache keys.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from lib.portfolio.data import StockData
from lib.portfolio.exact import ExactResult
from lib.portfolio.ga import GAConfig, GAResult

# A run starts without the Run button (first load, new bundled data, a link) only when
# population × generations stays within this budget (the course's default: 700 × 1000,
# about 3 s even without stopping early); anything bigger waits for the button.
AUTO_RUN_BUDGET = 700 * 1000


def progress_state(
    generation: int, max_generations: int, elapsed: float, time_limit: float | None
) -> tuple[float, str]:
    """Fraction and text of the run's progress bar.

    The run ends at ``max_generations`` or at the time budget, whichever
    comes first, so the bar shows the larger of the two fractions.

    >>> fraction, text = progress_state(67, 5000, 30.0, 60.0)
    >>> round(fraction, 2), "time budget 60 s" in text
    (0.5, True)
    """
    fraction = generation / max(max_generations, 1)
    text = f"Generation {generation} of {max_generations}"
    if time_limit:
        fraction = max(fraction, elapsed / time_limit)
        text += f" · {elapsed:.0f} s of the time budget {time_limit:.0f} s"
    return min(max(fraction, 0.0), 1.0), text


def exact_key(config: GAConfig) -> GAConfig:
    """The config with only what the exact solver depends on (better cache hits)."""
    return GAConfig(
        min_stocks=config.min_stocks,
        max_risk=config.max_risk,
        min_return=config.min_return,
        penalty_threshold=config.penalty_threshold,
        penalty_factor=config.penalty_factor,
        threshold_divisor=config.threshold_divisor,
    )


def percent_of_optimum(fitness: float, exact: ExactResult) -> float | None:
    """The GA's fitness as a percentage of the exact optimum (``None`` if undefined)."""
    if exact.fitness is None or exact.fitness <= 0:
        return None
    return 100.0 * fitness / exact.fitness


def _num(value: float) -> str:
    return f"{value:g}"


def problem_text(settings: dict[str, object]) -> str:
    """The page's intro, written from the current constraints and penalty settings."""
    n, risk, ret = settings["min_stocks"], settings["max_risk"], settings["min_return"]
    threshold, factor = settings["penalty_threshold"], settings["penalty_factor"]
    return (
        "Give every stock a coefficient in [0, 1], summing to 1, so that the portfolio holds "
        f"**at least {n} stocks**, its weighted **risk** (maximum drawdown) stays "
        f"**below {_num(risk)}** and its weighted **return exceeds {_num(ret)}** "
        f"({_num(100 * ret)} %). The GA maximises the course's fitness "
        f"`Σ c·(return − risk − {_num(factor)}·max(risk − {_num(threshold)}, 0))`; an exact "
        "MILP solver gives the true optimum to compare against. The constraints are the "
        "settings in the sidebar (each bundled data set brings its own)."
    )


def auto_run_allowed(config: GAConfig) -> bool:
    """Whether a run may start without the Run button (population × generations in budget)."""
    return config.population_size * config.max_generations <= AUTO_RUN_BUDGET


def data_fingerprint(source: str, upload: object | None, data: StockData) -> tuple:
    """Identifies the data a run used: source, file, kind and the table's contents."""
    table = data.table
    digest = int(pd.util.hash_pandas_object(table, index=False).sum()) if len(table) else 0
    return (source, getattr(upload, "file_id", None), data.kind, len(table), digest)


def format_vs_limit(value: float, limit: float, decimals: int, most: int = 6) -> str:
    """``value`` with enough decimals (up to ``most``) that it does not print equal to ``limit``.

    A value closer to its limit than ``most`` decimals show is said in words
    ("just below 0.6"), never as a long run of digits that reads as the limit.

    >>> format_vs_limit(0.59998, 0.6, 4), format_vs_limit(0.45, 0.6, 4)
    ('0.59998', '0.4500')
    >>> format_vs_limit(0.6 - 4e-14, 0.6, 4), format_vs_limit(10 + 1e-9, 10, 3)
    ('just below 0.6', 'just above 10')
    """
    text = f"{value:.{decimals}f}"
    while value != limit and text == f"{limit:.{decimals}f}":
        if decimals >= most:
            side = "below" if value < limit else "above"
            return f"just {side} {_num(limit)}"
        decimals += 1
        text = f"{value:.{decimals}f}"
    return text


def improve_hint(result: GAResult, exact: ExactResult) -> str | None:
    """A hint when the run stopped at its first feasible portfolio short of the optimum.

    The course's GA stops there; unticking "Stop when feasible" lets it keep improving.
    """
    percent = percent_of_optimum(result.fitness, exact)
    if result.stopped_by != "first_feasible" or percent is None or percent >= 99.5:
        return None
    return (
        f"The run stopped at its first feasible portfolio, at {percent:.1f} % of the exact "
        "optimum (the course's rule). Untick **Stop when feasible** in the settings and run "
        "again: the GA then keeps improving the portfolio until the maximum number of "
        "generations."
    )


def result_caption(result: GAResult, exact: ExactResult) -> str:
    """One line under the metrics: fitness, the exact optimum (or why none), why it stopped."""
    if exact.feasible:
        detail = f"{exact.method}, {exact.n_stocks} stocks"
        if exact.status != "optimal":
            detail += f"; {exact.message.rstrip('. ')}"
        optimum = f"{exact.fitness:.4f} ({detail})"
    elif not result.feasible:  # the error below the table gives the solver's reason
        optimum = "none (see the message below)"
    else:
        optimum = exact.message.rstrip(". ")
    stopped = result.stopped_by.replace("_", " ")
    return f"Fitness {result.fitness:.4f}; exact optimum: {optimum}. Stopped by: {stopped}."


def no_portfolio_message(result: GAResult, exact: ExactResult) -> str:
    """What to say when the GA found no feasible portfolio, given the exact solver's answer.

    When one exists, the advice names only settings that could change the outcome
    (:func:`feasibility_advice`), never one the run already used.
    """
    if exact.feasible:
        reason = f"One exists: {feasibility_advice(result)}."
    elif exact.status == "infeasible":
        reason = "The exact solver says none exists: " + exact.message
    else:
        reason = "The exact solver could not decide whether one exists: " + exact.message
    return "No feasible portfolio found. " + reason


def feasibility_advice(result: GAResult) -> str:
    """The settings, in the form's words, that could let a run reach a feasible portfolio.

    The constraint-aware fitness and repair only when the run had them off; more
    generations when the run stopped at its maximum, a smaller population when it
    stopped at its time budget; another seed or a larger population when nothing
    else is left to try.

    >>> from lib.portfolio.ga import GAConfig
    >>> run = GAResult(np.ones(1), 0.0, False, 40, 0.1, pd.DataFrame(), 0.5, 1.0, 1,
    ...                config=GAConfig(fitness="course", max_generations=40))
    >>> feasibility_advice(run)
    'set **Fitness** to constraint-aware or raise **Max generations** (this run stopped after 40)'
    """
    config = result.config
    steps = []
    if config.fitness != "constrained":
        steps.append("set **Fitness** to constraint-aware")
    if not config.repair:
        steps.append("tick **Repair**")
    if result.stopped_by == "max_generations":
        steps.append(f"raise **Max generations** (this run stopped after {result.generations})")
    elif result.stopped_by == "time_limit":
        steps.append(
            f"lower the **Population size** (this run used its time budget after "
            f"{result.generations} generations)"
        )
    if not steps:
        steps.append("try another **Random seed** or a larger **Population size**")
    return steps[0] if len(steps) == 1 else ", ".join(steps[:-1]) + " or " + steps[-1]


def comparison_table(result: GAResult, exact: ExactResult) -> pd.DataFrame:
    """The GA's portfolio beside the exact optimum (and the limits), one row per measure."""
    config = result.config

    def cell(value: float | int | None, digits: int) -> str:
        return "—" if value is None else f"{value:.{digits}f}"

    return pd.DataFrame(
        {
            "measure": ["fitness", "return", "risk", "stocks held"],
            "GA": [
                cell(result.fitness, 4),
                format_vs_limit(result.ret, config.min_return, 4),
                format_vs_limit(result.risk, config.max_risk, 4),
                str(result.n_stocks),
            ],
            "exact optimum": [
                cell(exact.fitness, 4),
                "—" if exact.ret is None else format_vs_limit(exact.ret, config.min_return, 4),
                "—" if exact.risk is None else format_vs_limit(exact.risk, config.max_risk, 4),
                "—" if exact.n_stocks is None else str(exact.n_stocks),
            ],
            "must be": [
                "as high as possible",
                f"above {_num(config.min_return)}",
                f"below {_num(config.max_risk)}",
                f"at least {config.min_stocks}",
            ],
        }
    )


STUDY_HEADERS: dict[str, str] = {
    "parameter": "parameter",
    "value": "value",
    "runs": "runs",
    "success_rate": "success rate",
    "mean_generations": "generations to feasible (mean)",
    "mean_seconds": "seconds to feasible (mean)",
    "mean_fitness": "fitness (mean)",
}
"""The study table's column headers in words (the CSV download keeps the short names)."""
STUDY_PARAMETER_NAMES: dict[str, str] = {
    "population_size": "population size",
    "p_crossover": "crossover probability",
    "p_mutation": "mutation probability",
    "elite_size": "elite size",
    "max_generations": "max generations",
}
"""The study's parameters as the settings form names them."""


def study_table(study: pd.DataFrame) -> pd.DataFrame:
    """The study for display, headers in words, every column kept.

    A setting with no feasible run says so instead of an empty cell.
    """
    shown = study.copy()
    for column, digits in (("mean_generations", 1), ("mean_seconds", 3)):
        shown[column] = [
            f"{value:.{digits}f}" if math.isfinite(value) else "— (no feasible run)"
            for value in study[column].astype(float)
        ]
    shown["mean_fitness"] = study["mean_fitness"].round(4)
    if "parameter" in study:
        shown["parameter"] = [STUDY_PARAMETER_NAMES.get(p, p) for p in study["parameter"]]
    return shown.rename(columns=STUDY_HEADERS)


@dataclass(frozen=True)
class Metric:
    """One figure of the row above the results: label, value as shown, and its help text."""

    label: str
    value: str | int
    help: str | None = None


def headline_metrics(result: GAResult, exact: ExactResult) -> list[Metric]:
    """The figures shown above the results, in order: feasibility, return, risk, stocks,
    generations, seconds and the percentage of the exact optimum (``–`` when undefined:
    an infeasible run, or no positive optimum)."""
    config = result.config
    percent = percent_of_optimum(result.fitness, exact) if result.feasible else None
    return [
        Metric("Feasible", "yes" if result.feasible else "no"),
        Metric(
            "Return",
            format_vs_limit(result.ret, config.min_return, 3),
            f"Must exceed {_num(config.min_return)}.",
        ),
        Metric(
            "Risk",
            format_vs_limit(result.risk, config.max_risk, 4),
            f"Must stay below {_num(config.max_risk)} (strictly).",
        ),
        Metric("Stocks held", result.n_stocks, f"At least {config.min_stocks}."),
        Metric("Generations", result.generations),
        Metric("Seconds", f"{result.seconds:.2f}"),
        Metric("% of optimum", "–" if percent is None else f"{percent:.1f} %"),
    ]


def coefficient_table(
    table: pd.DataFrame, weights: np.ndarray, exact_weights: np.ndarray | None = None
) -> pd.DataFrame:
    """``ticker, risk, return, coefficient`` per stock: held stocks first, largest first.

    With ``exact_weights`` (the exact optimum's coefficients) a column
    ``exact_coefficient`` puts the optimum beside the GA's answer.
    """
    columns = {
        "ticker": table["ticker"].astype(str).to_numpy(),
        "risk": table["risk"].to_numpy(dtype=float),
        "return": table["return"].to_numpy(dtype=float),
        "coefficient": np.asarray(weights, dtype=float),
    }
    if exact_weights is not None:
        columns["exact_coefficient"] = np.asarray(exact_weights, dtype=float)
    out = pd.DataFrame(columns)
    order = np.lexsort((np.arange(len(out)), -out["coefficient"].to_numpy()))
    return out.iloc[order].reset_index(drop=True)
