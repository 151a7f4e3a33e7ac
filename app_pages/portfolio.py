"""Portfolio GA: tune the course's genetic algorithm and compare it with the exact optimum."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lib.portfolio import plots
from lib.portfolio.data import require_stocks
from lib.portfolio.ga import (
    COURSE_STUDY,
    coefficient_table,
    parameter_study,
    replace_config,
    run_ga,
)
from lib.ui import portfolio as ui
from lib.ui.common import csv_download, user_errors

st.title("Portfolio optimisation with a genetic algorithm")
st.markdown(
    "Give every stock a coefficient in [0, 1], summing to 1, so that the portfolio holds "
    "**at least 30 stocks**, its weighted **risk** (maximum drawdown) stays **below 0.6** and "
    "its weighted **return exceeds 10** (1000 %). The GA maximises the course's fitness "
    "`Σ c·(return − risk − 5·max(risk − 0.6, 0))`; an exact MILP solver gives the true "
    "optimum to compare against."
)
ignored = ui.init_from_query_params()
if ignored:
    st.warning(f"Ignored link settings with invalid values: {', '.join(ignored)}.")

# 1. Data ------------------------------------------------------------------------------
st.header("1. Data")
source = st.radio(
    "Data source",
    list(ui.SOURCES),
    format_func=ui.SOURCES.get,
    key="pf_w_source",
    on_change=ui.apply_preset,
)
upload = None
if source == "upload":
    upload = st.file_uploader(
        "Stock CSV: a summary table (ticker, risk, return) or a price history "
        "(Date + one column per ticker, or date, ticker, close)",
        type=["csv", "txt"],
        key="pf_w_upload",
    )
data_box = st.container()

# 2. Settings (always rendered, even before data is loaded, so the form keeps its values)
st.header("2. Settings")
submitted, settings = ui.settings_form()

with data_box:
    data = None
    with user_errors():
        data = ui.load_data(source, upload)
    if data is None:
        if source == "upload" and upload is None:
            st.info("Upload a CSV file to continue (up to 10 MB).")
        st.stop()
    table = data.table
    for note in data.notes:
        st.info(note)
    if source == "sample":
        st.caption(
            "Synthetic data: 400 made-up stocks whose summary statistics match the course's "
            "sample.csv (risk mean 0.461, max 0.959; return mean 0.754, max 16.48)."
        )
    elif source == "hard":
        st.caption(
            "Generated: 100 safe stocks with return just under 9.4, 3 high-return stocks with "
            "risk near 1, and fillers. Feasible portfolios exist, but the course's fitness steers "
            "away from them: try fitness = course with repair off."
        )
    with st.expander(f"The data: {len(table)} stocks ({data.kind})"):
        st.dataframe(table, hide_index=True, height=260)
        csv_download(table, "stocks.csv", "Download stocks.csv", key="pf_w_dl_stocks")

config = None
with user_errors():
    config = ui.make_config(settings)
    require_stocks(table, config.min_stocks, "The chosen data")
if config is None:
    st.stop()

data_id = (source, getattr(upload, "file_id", None), len(table), data.kind)
first_load = (
    "pf_result" not in st.session_state
    and "pf_partial" not in st.session_state  # keep an interrupted run on screen
    and source != "upload"
)
if submitted or first_load:
    ui.write_query_params(source, config)
    exact = ui.exact_optimum(table, ui.exact_key(config))
    live = ui.LiveRun(config, exact.fitness)
    result = run_ga(table, config, on_generation=live)
    live.finish()
    st.session_state["pf_result"] = {
        "result": result,
        "table": table,
        "exact": exact,
        "data_id": data_id,
        "source": ui.SOURCES[source],
    }
partial = st.session_state.get("pf_partial")
if partial and partial["rows"]:
    st.warning(
        f"The last run was interrupted after {len(partial['rows'])} generations "
        "(a setting changed while it ran). Its progress:"
    )
    history = pd.DataFrame([row.__dict__ for row in partial["rows"]])
    st.plotly_chart(plots.fitness_chart(history), key="pf_partial_chart")

# 3. Results ---------------------------------------------------------------------------
saved = st.session_state.get("pf_result")
if saved is not None:
    st.header("3. Results")
    result, exact, run_table = saved["result"], saved["exact"], saved["table"]
    if saved["data_id"] != data_id:
        st.caption(f"Results of the last run, on: {saved['source']}. Press Run for this data.")
    percent = ui.percent_of_optimum(result.fitness, exact) if result.feasible else None
    cols = st.columns(7)
    cols[0].metric("Feasible", "yes" if result.feasible else "no")
    cols[1].metric("Return", f"{result.ret:.3f}")
    cols[2].metric("Risk", f"{result.risk:.4f}")
    cols[3].metric("Stocks held", result.n_stocks)
    cols[4].metric("Generations", result.generations)
    cols[5].metric("Seconds", f"{result.seconds:.2f}")
    cols[6].metric("% of optimum", "–" if percent is None else f"{percent:.1f} %")
    st.caption(
        f"Fitness {result.fitness:.4f}; exact optimum: "
        + (
            f"{exact.fitness:.4f} ({exact.method}, {exact.n_stocks} stocks"
            + ("" if exact.status == "optimal" else f"; {exact.message}")
            + ")"
            if exact.feasible
            else exact.message
        )
        + f". Stopped by: {result.stopped_by.replace('_', ' ')}."
    )
    if not result.feasible:
        st.error(
            "No feasible portfolio found. "
            + (
                "The exact solver says none exists: " + exact.message
                if not exact.feasible
                else "One exists: try the constraint-aware fitness, repair, or more generations."
            )
        )
    st.plotly_chart(plots.fitness_chart(result.history, exact.fitness), key="pf_fitness_chart")
    coefficients = coefficient_table(run_table, result.weights)
    left, right = st.columns([2, 3])
    with left:
        st.subheader("Coefficients")
        st.dataframe(coefficients, hide_index=True, height=360)
        csv_download(
            coefficients, "coefficients.csv", "Download coefficients.csv", key="pf_w_dl_coeffs"
        )
    with right:
        st.plotly_chart(plots.weights_scatter(run_table, result.weights), key="pf_scatter")
    if exact.feasible:
        frontier = ui.frontier(run_table, ui.exact_key(result.config))
        st.plotly_chart(
            plots.frontier_chart(
                frontier,
                ga_point=(result.risk, result.fitness),
                optimum_point=(exact.risk, exact.fitness),
                max_risk=result.config.max_risk,
            ),
            key="pf_frontier",
        )

# 4. Parameter study -------------------------------------------------------------------
st.header("4. Parameter study")
st.markdown(
    "The course's experiments: vary one constant at a time (the others as in the form "
    "above), run each setting a few times with different seeds, and compare how many "
    "generations it takes to find a feasible portfolio."
)
with st.form("pf_w_study_form"):
    c1, c2, c3 = st.columns(3)
    grid = {
        "population_size": c1.multiselect(
            "Population sizes",
            [100, 300, 700, 1500, 3000],
            default=list(COURSE_STUDY["population_size"]),
            key="pf_w_study_pop",
        ),
        "p_crossover": c2.multiselect(
            "Crossover probabilities",
            [0.0, 0.2, 0.4, 0.6, 0.8, 1.0],
            default=list(COURSE_STUDY["p_crossover"]),
            key="pf_w_study_pc",
        ),
        "p_mutation": c3.multiselect(
            "Mutation probabilities",
            [0.0, 0.01, 0.05, 0.1, 0.2, 0.5],
            default=list(COURSE_STUDY["p_mutation"]),
            key="pf_w_study_pm",
        ),
    }
    c1, c2 = st.columns(2)
    repeats = c1.slider("Repeats per setting (seeds)", 1, 10, 3, key="pf_w_study_repeats")
    study_generations = c2.number_input(
        "Max generations per run", 10, 2000, 300, step=50, key="pf_w_study_gens"
    )
    run_study = st.form_submit_button("Run the study")
if run_study:
    with user_errors():
        base = replace_config(
            config, max_generations=int(study_generations), time_limit=ui.STUDY_RUN_TIME_LIMIT
        )
        chosen = {name: values for name, values in grid.items() if values}
        bar = st.progress(0.0, text="Running the study…")
        study = parameter_study(
            table,
            base,
            chosen,
            repeats=repeats,
            on_progress=lambda done, total: bar.progress(
                done / total, text=f"Run {done} of {total}"
            ),
            time_limit=ui.STUDY_TIME_LIMIT,
        )
        bar.empty()
        st.session_state["pf_study"] = study
study = st.session_state.get("pf_study")
if study is not None and study.attrs.get("stopped_early"):
    st.warning(
        f"The study reached its {ui.STUDY_TIME_LIMIT:.0f} s budget; the table shows the runs "
        "it made. Use fewer settings, repeats or generations."
    )
if study is not None and len(study):
    st.dataframe(
        study,
        hide_index=True,
        column_config={"success_rate": st.column_config.NumberColumn(format="percent")},
    )
    st.plotly_chart(plots.study_chart(study), key="pf_study_chart")
    csv_download(study, "parameter_study.csv", "Download parameter_study.csv", "pf_w_dl_study")
