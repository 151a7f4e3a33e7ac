"""The Portfolio's first look: the sample's seeded run, its exact optimum and its charts,
computed once per server for every visitor.

A first visit (and a switch to other bundled data) shows a run without a click: the
same seeded run for everyone, so it is cached (:func:`first_look_run`), its figures
are shared (:func:`first_look_chart`), and the server computes them ahead of the first
visit (:func:`warm_first_look`). The exact optimum's cache serves every run.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from lib.portfolio import report
from lib.portfolio.exact import ExactResult, solve_exact
from lib.portfolio.ga import GAConfig, GAResult, run_ga
from lib.portfolio.plots import RESULT_CHARTS, result_chart
from lib.ui.portfolio_inputs import DEFAULTS, FIELDS, make_config, read_bundled


@st.cache_data(max_entries=16, show_spinner="Solving the exact optimum (MILP)…")
def exact_optimum(table: pd.DataFrame, config: GAConfig) -> ExactResult:
    """The MILP optimum for the constraints of ``config`` (cache key: :func:`report.exact_key`)."""
    return solve_exact(table, config, time_limit=10.0)


@st.cache_data(max_entries=8, show_spinner="Running the GA…")
def first_look_run(table: pd.DataFrame, config: GAConfig) -> GAResult:
    """The GA run shown without pressing Run (a first visit, another bundled data set).

    Every visitor looking at the same bundled data with the same settings gets the same
    seeded run, so it is computed once per server and each session gets its own copy
    (``st.cache_data``); a run started with Run is computed live, with its progress.
    """
    return run_ga(table, config)


@st.cache_resource(max_entries=24, show_spinner=False)
def first_look_chart(name: str, table: pd.DataFrame, config: GAConfig) -> go.Figure:
    """A figure of :func:`first_look_run`'s result, built once per server for every visitor.

    Building them (the population's animation has a frame per generation) took longer
    than the cached run itself; Streamlit only reads a figure it is given, so one copy is
    shared (``st.cache_resource``), and nothing may change it. One at a time, where the
    page draws it, so the first chart reaches the browser before the others are built.
    """
    exact = exact_optimum(table, report.exact_key(config))
    return result_chart(name, first_look_run(table, config), exact, table)


def warm_first_look() -> None:
    """Fill the caches a first visit reads: the sample data with the form's defaults.

    That is the data, the exact optimum, the seeded GA run and its charts that every
    visitor of a freshly opened page is shown (:func:`first_look_run`). Called by the
    server ahead of any visit (:func:`lib.ui.server.shared_work_warmer`), so the first
    visitor after a server start does not wait for them; their keys are the page's own.
    """
    table = read_bundled("sample", None, None, "end").table
    config = make_config({field.name: getattr(DEFAULTS, field.name) for field in FIELDS})
    for name in RESULT_CHARTS:  # the first chart computes the exact optimum and the run
        first_look_chart(name, table, config)
