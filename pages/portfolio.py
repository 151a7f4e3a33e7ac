"""Portfolio GA: tune the course's genetic algorithm and compare it with the exact optimum."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lib.csv_upload import size_limit_text
from lib.errors import InputError
from lib.jobs import LATEST
from lib.portfolio import plots, report
from lib.portfolio.data import MAX_BYTES, require_stocks
from lib.portfolio.ga import (
    COURSE_STUDY,
    check_size,
    parameter_study,
    replace_config,
)
from lib.ui import portfolio as ui
from lib.ui import portfolio_first_look as first_look
from lib.ui import portfolio_inputs as inputs
from lib.ui import portfolio_local
from lib.ui.common import csv_download, current, escape_markdown, user_errors
from lib.ui.jobs import run_job
from lib.ui.navigation import require_app_navigation

require_app_navigation()

st.title("Portfolio optimisation (GA)")  # one line on a 1024 px projector
for note in inputs.init_from_query_params():
    st.warning(note, icon=":material/warning:")
# The answer first, so it is on a projector's first screen: the data source and the settings
# live in the sidebar (the form keeps its values there), the data and the study below.
results_area = st.container()

with st.sidebar:
    st.header("Data")
    source = st.radio(
        "Data source",
        list(inputs.SOURCES),
        list(inputs.SOURCES).index(current("pf_w_source", "sample")),
        format_func=inputs.SOURCES.get,
        key="pf_w_source",
        on_change=inputs.apply_preset,
    )
    upload = None
    if source == "upload":
        upload = st.file_uploader(
            "Stock CSV: a summary table (ticker, risk, return) or a price history "
            "(Date + one column per ticker, or date, ticker, close)",
            type=["csv", "txt"],
            key="pf_w_upload",
        )
    window_box = st.container()  # a price history's date window
    st.header("Settings")
    submitted, settings = inputs.settings_form()

data = None
load_error = None
with window_box:
    try:
        data = inputs.load_data(source, upload)
    except InputError as error:
        load_error = error

st.header("The problem and the data")
st.markdown(report.problem_text(settings))
if load_error is not None:
    with results_area:
        st.error(escape_markdown(load_error))
    st.stop()
if data is None:
    with results_area:
        st.info(
            f"Upload a CSV file in the sidebar to continue (up to {size_limit_text(MAX_BYTES)})."
        )
    st.stop()
table = data.table
for note in data.notes:  # they quote tickers from the file
    st.info(escape_markdown(note))
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
# the table and its download are drawn only while open (a first visit need not wait for them)
data_box = st.expander(
    f"The data: {len(table)} stocks ({data.kind})", key="pf_w_data_open", on_change="rerun"
)
if data_box.open:
    with data_box:
        st.dataframe(table, hide_index=True, height=260)
        csv_download(table, "stocks.csv", "Download stocks.csv", key="pf_w_dl_stocks")

config = None
config_error = None
try:
    candidate = inputs.make_config(settings)
    # too few stocks for the minimum: say so and stop (a run could only fail)
    require_stocks(table, candidate.min_stocks, upload.name if upload else inputs.SOURCES[source])
    check_size(len(table), candidate)  # population × stocks within the memory cap
    config = candidate
except InputError as error:
    config_error = error

data_id = report.data_fingerprint(source, upload, data)
saved = st.session_state.get("pf_result")
partial = st.session_state.get("pf_partial")
latest = partial or saved  # an interrupted run is always newer than the saved result
data_changed = latest is None or latest.get("data_id") != data_id
cheap = config is not None and report.auto_run_allowed(config)
run_now = config is not None and (submitted or (data_changed and source != "upload" and cheap))

with results_area:
    live_slot = st.empty()  # the running GA's progress bar and live chart
    results_box = st.container()
if run_now:
    inputs.write_query_params(source, config)
    exact = first_look.exact_optimum(table, report.exact_key(config))
    if submitted:  # a run the visitor started: live, with its progress and chart
        with live_slot.container():  # a job of the server's worker pool; Cancel stops it
            live = ui.LiveRun(config, exact.fitness, data_id)
            try:
                result = ui.run_live(table, config, live)
                live.finish()
            except InputError as error:  # the job failed: past its memory cap, a lost worker
                config_error, run_now = error, False
        if run_now:
            live_slot.empty()
    else:  # a first look at bundled data: the same seeded run for every visitor, run once
        result = first_look.first_look_run(table, config)
if run_now:
    saved = {
        "result": result,
        "table": table,
        "exact": exact,
        "data_id": data_id,
        "source": inputs.SOURCES[source],
    }
    if not submitted:  # its charts too are built once, for every visitor
        saved["first_look"] = True
    st.session_state["pf_result"] = saved
    partial = None
with results_box:
    if config_error is not None:
        # the page stays: the message in the form's words, the last results below it
        st.error(escape_markdown(config_error))
        if saved is not None:
            other = ", on other data" if saved["data_id"] != data_id else ""
            with st.expander(f"Results of the last run{other}: {saved['source']}"):
                ui.show_results(saved, nested=True)
    elif run_now:
        ui.show_results(saved)
    elif partial and not data_changed:  # Cancel, or another click, stopped the last run
        rows = partial["rows"]
        when = f"after {len(rows)} generations" if rows else "before its first generation"
        st.warning(
            f"The last run was interrupted {when} (a widget changed or another button was "
            "pressed while it ran): press **Run the GA** to run it again."
            + (" Its progress:" if rows else "")
        )
        if rows:
            history = pd.DataFrame([row.__dict__ for row in rows])
            st.plotly_chart(
                plots.fitness_chart(history, partial.get("optimum")), key="pf_partial_chart"
            )
    elif data_changed:
        if source == "upload":
            st.info(
                f"New data ({escape_markdown(upload.name)}): check the constraints in "
                "the sidebar's settings for it, then press **Run the GA** for this data."
            )
        else:
            st.info(
                f"These settings ask for population {config.population_size} × "
                f"{config.max_generations} generations, more than the page starts on its own "
                f"(up to {report.AUTO_RUN_BUDGET:,}). Press **Run the GA** to start it; every run "
                f"stops after its time budget of {inputs.RUN_TIME_LIMIT:.0f} s."
            )
        if saved is not None:
            with st.expander(f"Results of the last run, on other data: {saved['source']}"):
                ui.show_results(saved, nested=True)
    elif saved is not None:
        ui.show_results(saved)

# Local search on the same problem ------------------------------------------------------
st.header("The same problem by local search")
local_box = st.expander(
    "Hill climbing and simulated annealing beside the GA, at the same budget",
    key=portfolio_local.OPEN_KEY,
    on_change="rerun",
)
if local_box.open and config is not None:
    with local_box:
        portfolio_local.show_section(table, config, data_id)

# Parameter study ------------------------------------------------------------------------
st.header("Parameter study")
st.markdown(
    "The course's experiments: vary one constant at a time (the others as in the "
    "sidebar's settings), run each setting a few times with different seeds, and compare how many "
    "generations it takes to find a feasible portfolio."
)
with st.form("pf_w_study_form"):
    # one row each: in three columns a 1024 px projector hid the third value ("700 300 ×")
    grid = {
        "population_size": st.multiselect(
            "Population sizes",
            [100, 300, 700, 1500, 3000],
            default=list(COURSE_STUDY["population_size"]),
            key="pf_w_study_pop",
        ),
        "p_crossover": st.multiselect(
            "Crossover probabilities",
            [0.0, 0.2, 0.4, 0.6, 0.8, 1.0],
            default=list(COURSE_STUDY["p_crossover"]),
            key="pf_w_study_pc",
        ),
        "p_mutation": st.multiselect(
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
study_progress = st.empty()  # the study's bar: the form above is drawn once
if run_study:
    with user_errors():
        if config is None:
            raise config_error
        base = replace_config(
            config, max_generations=int(study_generations), time_limit=inputs.STUDY_RUN_TIME_LIMIT
        )
        chosen = {name: values for name, values in grid.items() if values}
        for size in chosen.get("population_size", []):  # refuse before any run starts
            check_size(len(table), replace_config(base, population_size=size))
        with study_progress.container():  # a job of the server's worker pool
            bar = st.progress(0.0, text="Running the study…")
            study = run_job(
                parameter_study,
                (table, base, chosen),
                {"repeats": repeats, "time_limit": inputs.STUDY_TIME_LIMIT},
                callbacks={
                    "on_progress": (
                        LATEST,
                        lambda done, total: bar.progress(
                            done / total, text=f"Run {done} of {total}"
                        ),
                    )
                },
            )
        study_progress.empty()
        st.session_state["pf_study"] = study
study = st.session_state.get("pf_study")
if study is not None and study.attrs.get("stopped_early"):
    st.warning(
        f"The study reached its {inputs.STUDY_TIME_LIMIT:.0f} s budget; the table shows the runs "
        "it made. Use fewer settings, repeats or generations."
    )
if study is not None and len(study):
    st.dataframe(
        report.study_table(study),
        hide_index=True,
        column_config={"success rate": st.column_config.NumberColumn(format="percent")},
    )
    st.plotly_chart(plots.study_chart(study), key="pf_study_chart")
    csv_download(study, "parameter_study.csv", "Download parameter_study.csv", "pf_w_dl_study")
