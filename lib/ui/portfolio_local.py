"""The Portfolio page's local-search section: hill climbing and annealing beside the GA.

:func:`show_section` runs :func:`lib.local_search.portfolio.compare` on the page's
data and settings (each algorithm spending the same number of fitness
evaluations), under a progress bar, in the server's worker pool on a hosted
server; it draws one chart of best fitness against evaluations and each
algorithm's distance to the exact optimum the page shows above, with CSV downloads.
The section is computed only while its expander is open.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lib.jobs import LATEST
from lib.local_search import plots
from lib.local_search import portfolio as local
from lib.portfolio import report
from lib.portfolio.ga import GAConfig
from lib.settings import local_mode
from lib.ui.common import csv_download, user_errors
from lib.ui.jobs import run_job
from lib.ui.portfolio_first_look import exact_optimum

OPEN_KEY = "pf_w_local_open"
"""The section's expander (a test opens it by setting this key)."""
DEFAULT_GENERATIONS = 100
MAX_GENERATIONS = 1_000


def _form(config: GAConfig) -> tuple[int, int, bool]:
    """The budget (in GA generations), the seed, and whether the form was submitted."""
    with st.form("pf_local_form", border=False):
        left, right = st.columns(2)
        generations = left.number_input(
            "Budget: GA generations",
            10,
            min(MAX_GENERATIONS, local.MAX_EVALUATIONS // config.population_size),
            DEFAULT_GENERATIONS,
            step=10,
            key="pf_w_local_generations",
            help=f"Each algorithm gets generations × population ({config.population_size}) "
            "fitness evaluations",
        )
        seed = right.number_input("Seed", 0, 2**31 - 1, 0, key="pf_w_local_seed")
        submitted = st.form_submit_button("Compare", icon=":material/compare_arrows:")
    return int(generations), int(seed), submitted


def _compare(table: pd.DataFrame, config: GAConfig, budget: int, seed: int) -> list[local.Run]:
    """The three runs, with a progress bar and Cancel (in the worker pool when hosted)."""
    area = st.empty()
    with area.container():
        st.button("Cancel", key="pf_w_local_cancel", icon=":material/stop:")
        bar = st.progress(0.0, text="The GA, then hill climbing, then simulated annealing…")

    def progress(done: int, total: int) -> None:
        names = local.ALGORITHMS
        text = f"{names[done - 1]} done" + (f"; running {names[done]}…" if done < total else "")
        bar.progress(done / total, text=text)

    try:
        if local_mode():
            return local.compare(table, config, budget, seed, on_progress=progress)
        return run_job(
            local.compare,
            (table, config, budget, seed),
            callbacks={"on_progress": (LATEST, progress)},
        )
    finally:
        area.empty()


def show_section(table: pd.DataFrame, config: GAConfig, data_id: object) -> None:
    """The section's text, form, comparison chart and table (with downloads)."""
    st.markdown(
        "The GA is one local search among several (AIMA chapter 4). Here **hill climbing** "
        "(the best of 50 random neighbours each step, a restart when 50 steps bring nothing "
        "better) and **simulated annealing** (10 chains, a worse neighbour taken with "
        "probability e^(Δ/T)) search the same portfolios with the GA's own fitness and "
        "constraints. A neighbour drops one held stock or gives one stock a random share. "
        "All three spend the same number of fitness evaluations."
    )
    generations, seed, submitted = _form(config)
    budget = generations * config.population_size
    settings = (data_id, config, budget, seed)
    kept = st.session_state.get("pf_local")
    exact = exact_optimum(table, report.exact_key(config))
    if st.session_state.pop("pf_local_running", False):  # the last run did not finish: Cancel
        st.session_state["pf_local_stopped"] = True
    if submitted:
        st.session_state.pop("pf_local_stopped", None)
    if st.session_state.get("pf_local_stopped"):
        st.info("The comparison was stopped; press **Compare** to run it.")
    elif submitted or kept is None or kept[0][:2] != settings[:2]:
        st.session_state["pf_local_running"] = True  # until it finishes
        with user_errors():
            kept = (settings, _compare(table, config, budget, seed))
            st.session_state["pf_local"] = kept
        st.session_state.pop("pf_local_running", None)
    if kept is None:
        return
    if kept[0] != settings:
        st.caption("These results are for earlier settings; press Compare to update them.")
    runs = kept[1]
    optimum = exact.fitness if exact.feasible else None
    st.plotly_chart(plots.portfolio_figure(local.curves(runs), optimum), key="pf_local_chart")
    summary = local.summary(runs, optimum)
    st.dataframe(summary, hide_index=True, width="stretch")
    if optimum is None:
        st.caption(f"No exact optimum to compare with: {exact.message}")
    else:
        st.caption(
            f"Distance to the optimum: the exact optimum's fitness ({optimum:.4f}, "
            f"{exact.method.upper()}) minus the algorithm's best feasible one; empty when it "
            "found no feasible portfolio."
        )
    left, right = st.columns(2)
    with left:
        csv_download(summary, "local_search_portfolio.csv", "Download the table (CSV)",
                     key="pf_w_local_dl")  # fmt: skip
    with right:
        csv_download(local.curves(runs), "local_search_curves.csv", "Download the curves (CSV)",
                     key="pf_w_local_dl_curves")  # fmt: skip
