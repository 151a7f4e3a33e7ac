"""The Portfolio page's run and its results: the live run with its progress, then the
answer's metrics, charts, coefficients and efficient frontier.

The page's inputs are :mod:`lib.ui.portfolio_inputs`; the run shown without a click
and the exact optimum's cache are :mod:`lib.ui.portfolio_first_look`.
"""

from __future__ import annotations

import time

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from lib.charts import readable
from lib.jobs import EVERY
from lib.portfolio import plots, report
from lib.portfolio.exact import ExactResult, efficient_frontier
from lib.portfolio.ga import GAConfig, GAResult, GenerationStats, run_ga
from lib.portfolio.plots import result_chart
from lib.ui.common import csv_download
from lib.ui.jobs import run_job
from lib.ui.portfolio_first_look import first_look_chart
from lib.ui.presentation import CHART_TEXT_PX, presenting

__all__ = ["LiveRun", "frontier", "run_live", "show_results"]


class LiveRun:
    """``on_generation`` callback: saves progress, moves the bar, redraws the chart.

    Every generation is appended to ``st.session_state["pf_partial"]`` (with
    the run's ``data_id``) so a run cut short by a widget change is not lost;
    the bar and chart are redrawn at most every ``interval`` seconds. Create
    it inside the placeholder that should hold the bar and the chart.
    """

    def __init__(
        self,
        config: GAConfig,
        optimum: float | None,
        data_id: object = None,
        interval: float = 0.3,
    ) -> None:
        self.config = config
        self.optimum = optimum
        self.interval = interval
        self.rows: list[GenerationStats] = []
        st.session_state["pf_partial"] = {
            "rows": self.rows,
            "config": config,
            "data_id": data_id,
            "optimum": optimum,
        }
        self.bar = st.progress(0.0, text="Starting…")
        self.chart = st.empty()
        self.start = time.perf_counter()
        self.last = 0.0
        self.draws = 0

    def __call__(self, stats: GenerationStats) -> None:
        """``on_generation`` callback: keep the row, redraw at most every ``interval`` s."""
        self.rows.append(stats)
        now = time.perf_counter()
        if now - self.last >= self.interval:
            self.draw()
            # keep drawing under about a tenth of the run's time: a draw is the server's
            # work (its interpreter), and takes longer while other visitors click
            spent = time.perf_counter() - now
            self.interval = max(self.interval, 9 * spent)
            self.last = time.perf_counter()

    def draw(self) -> None:
        """Update the progress bar and redraw the fitness chart from the rows so far."""
        if not self.rows:
            return
        stats = self.rows[-1]
        fraction, text = report.progress_state(
            stats.generation,
            self.config.max_generations,
            time.perf_counter() - self.start,
            self.config.time_limit,
        )
        self.bar.progress(fraction, text=f"{text}: {stats.n_feasible} feasible")
        history = pd.DataFrame([s.__dict__ for s in self.rows])
        self.draws += 1
        self.chart.plotly_chart(
            plots.fitness_chart(history, self.optimum),
            key=f"pf_live_chart_{self.draws}",
        )

    def finish(self) -> None:
        """Remove the live view; the run finished, so no interrupted run is kept."""
        self.bar.empty()
        self.chart.empty()
        st.session_state.pop("pf_partial", None)


def run_live(table: pd.DataFrame, config: GAConfig, live: LiveRun) -> GAResult:
    """Run the GA as a job of the server's worker pool, every generation sent to ``live``.

    A Cancel button stands above the live view; pressing it (or closing the tab) stops
    the run in its worker, and the generations received so far are kept by ``live``.
    """
    st.button("Cancel", key="pf_w_cancel", icon=":material/stop:")
    return run_job(
        run_ga,
        (table, config),
        callbacks={"on_generation": (EVERY, live)},
        expected_seconds=config.time_limit,  # its cap: a queued job's wait is not longer
    )


@st.cache_data(
    max_entries=16, show_spinner="Computing the efficient frontier (one MILP per risk cap)…"
)
def frontier(table: pd.DataFrame, config: GAConfig) -> pd.DataFrame:
    """The efficient frontier (MILP for up to 1,000 stocks, LP beyond)."""
    return efficient_frontier(table, config, points=12, count_rule=len(table) <= 1000)


PRESENTATION_CHART_HEIGHT = 540
"""Fitness chart height (px) in the presentation view: under the answer's one row of metrics,
it ends within a 1024x768 projector's first screen."""


FRONTIER_LABEL = "Efficient frontier: the best fitness for each risk cap (exact, MILP)"
FRONTIER_OPEN_KEY = "pf_w_frontier_open"
"""The frontier's expander (a test opens it by setting this key)."""


def show_results(saved: dict, *, nested: bool = False) -> None:
    """Metrics, caption, fitness chart, coefficients (with download), scatter and frontier.

    With ``saved["first_look"]`` the result is the first look's
    (:mod:`lib.ui.portfolio_first_look`) and its figures are the shared ones
    (:func:`first_look_chart`); otherwise they are built here. The
    frontier is in an expander computed when opened, unless ``nested`` (the results are
    drawn inside an expander already: then it is drawn with them).
    """
    result, exact, run_table = saved["result"], saved["exact"], saved["table"]
    config = result.config

    def chart(name: str) -> go.Figure:
        if saved.get("first_look"):
            return first_look_chart(name, run_table, config)
        return result_chart(name, result, exact, run_table)

    # A wrapping row of content-wide metrics: seven fixed columns cut the values
    # ("1…", "0.…") on a 1024 px projector.
    with st.container(horizontal=True, gap="medium", key="pf_metrics"):
        for metric in report.headline_metrics(result, exact):
            st.metric(metric.label, metric.value, help=metric.help, width="content")
    # the fitness chart right under the answer (a projector's first screen), the population's
    # animation right under it: side by side, a 1024 px projector with the sidebar open gave
    # each 274 px, too narrow to read either
    fitness, population = chart("fitness"), chart("population")
    if presenting():  # the settings are hidden: the chart takes the rest of the first screen
        # figures of their own (the shared ones are never changed), drawn by plotly at the
        # projector's text size, so that their legends are laid out for it
        fitness = plots.fitness_chart(result.history, exact.fitness, compact=True)
        fitness.update_layout(height=PRESENTATION_CHART_HEIGHT)
        fitness = readable(fitness, min_font=CHART_TEXT_PX)
        population = readable(go.Figure(population), min_font=CHART_TEXT_PX)
    st.plotly_chart(fitness, key="pf_fitness_chart")
    st.plotly_chart(population, key="pf_population_chart")
    hint = report.improve_hint(result, exact)
    if hint:
        st.info(hint)
    st.caption(report.result_caption(result, exact))
    st.dataframe(report.comparison_table(result, exact), hide_index=True)
    if not result.feasible:
        st.error(report.no_portfolio_message(result, exact))
    left, right = st.columns([1, 1])
    with left:
        _coefficients(run_table, result, exact)
    with right:
        st.plotly_chart(chart("scatter"), key="pf_scatter")
    if exact.feasible:
        _frontier_section(run_table, result, exact, nested=nested)


def _coefficients(run_table: pd.DataFrame, result: GAResult, exact: ExactResult) -> None:
    """The GA's coefficients (beside the exact optimum's), with their download."""
    coefficients = report.coefficient_table(run_table, result.weights, exact.weights)
    st.subheader("Coefficients")
    if exact.feasible:
        st.caption("The GA's coefficient beside the exact optimum's.")
    # the coefficients first: on a 1024 px projector the last columns are cut
    shown = ["ticker", "coefficient", "exact_coefficient", "risk", "return"]
    st.dataframe(
        coefficients[[c for c in shown if c in coefficients.columns]],
        hide_index=True,
        height=360,
        column_config={
            "coefficient": st.column_config.NumberColumn("GA", format="%.4f"),
            "exact_coefficient": st.column_config.NumberColumn("exact", format="%.4f"),
            "risk": st.column_config.NumberColumn(format="%.3f"),
            "return": st.column_config.NumberColumn(format="%.3f"),
        },
    )
    csv_download(
        coefficients, "coefficients.csv", "Download coefficients.csv", key="pf_w_dl_coeffs"
    )


def _frontier_section(
    run_table: pd.DataFrame, result: GAResult, exact: ExactResult, *, nested: bool
) -> None:
    """The efficient frontier with the GA's and the optimum's portfolios on it.

    Below the fold and a dozen MILPs on new data: solved and drawn only while its
    expander is open (a first visit waited for it). ``nested`` (inside another
    expander: an older run's results, which cannot hold one): drawn at once.
    """
    config = result.config
    box = (
        st.container()
        if nested
        else st.expander(FRONTIER_LABEL, key=FRONTIER_OPEN_KEY, on_change="rerun")
    )
    if nested or box.open:
        with box:
            curve = frontier(run_table, report.exact_key(config))
            st.plotly_chart(
                plots.frontier_chart(
                    curve,
                    ga_point=(result.risk, result.fitness),
                    optimum_point=(exact.risk, exact.fitness),
                    max_risk=config.max_risk,
                ),
                key="pf_frontier",
            )
