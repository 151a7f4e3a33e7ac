"""The local search page's "AIMA's figures" section: the book's table measured here, beside it.

The figures (:func:`lib.local_search.aima.aima_figures`) are computed under a progress
bar, on a hosted server in its worker pool (:func:`lib.ui.jobs.run_job`, Cancel
stops it there), and kept for the session; the table downloads as CSV.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lib.jobs import LATEST
from lib.local_search.aima import MAX_INSTANCES, aima_figures
from lib.settings import local_mode
from lib.ui.common import csv_download, user_errors
from lib.ui.jobs import run_job

OPEN_KEY = "ls_w_aima_open"
"""The section's expander (computed only while open)."""
DEFAULT_INSTANCES = 2_000
MILLION = 1_000_000


def _form() -> tuple[int, int, bool, bool]:
    """The section's settings: instances, seed, whether to run a million queens; submitted."""
    with st.form("ls_aima_form", border=False):
        left, middle, right = st.columns(3)
        instances = left.number_input(
            "Random 8-queens states",
            1_000,
            MAX_INSTANCES,
            DEFAULT_INSTANCES,
            step=1_000,
            key="ls_w_aima_instances",
            help="Each climbed with and without sideways moves; a fifth as many restart runs",
        )
        seed = middle.number_input("Seed", 0, 2**31 - 1, 1, key="ls_w_aima_seed")
        million = right.checkbox("Min-conflicts on a million queens", True, key="ls_w_aima_million")
        submitted = st.form_submit_button("Compute the figures", icon=":material/calculate:")
    return int(instances), int(seed), bool(million), submitted


def show_figures() -> None:
    """The form, the progress while computing, and the table beside the book's."""
    st.markdown(
        "Russell and Norvig, *Artificial Intelligence: A Modern Approach*, 3rd edition, "
        "Section 4.1.1 (8-queens, steepest-ascent hill climbing from random states) and "
        "Section 6.4 (min-conflicts). Steps count moves made; a climb that ends stuck counts "
        "its moves up to the local minimum or plateau. Random restart's figures are per "
        "solution."
    )
    instances, seed, million, submitted = _form()
    settings = (instances, seed, million)
    kept = st.session_state.get("ls_aima")
    if st.session_state.pop("ls_aima_running", False):  # the last run did not finish: Cancel
        st.session_state["ls_aima_stopped"] = True
    if submitted:
        st.session_state.pop("ls_aima_stopped", None)
    if st.session_state.get("ls_aima_stopped"):
        st.info("The computation was stopped; press **Compute the figures** to run it.")
    elif submitted or kept is None:
        st.session_state["ls_aima_running"] = True  # until it finishes
        bar = st.progress(0.0, text="Climbing from random 8-queens states…")
        cancel = st.empty()
        cancel.button("Cancel", key="ls_w_aima_cancel", icon=":material/stop:")

        def progress(done: int, total: int) -> None:
            text = f"{done:,} of {total:,} climbs and runs"
            if done == total and million:
                text += "; now min-conflicts on a million queens…"
            bar.progress(min(1.0, done / total), text=text)

        args = (instances, seed, max(200, instances // 5), MILLION if million else 0)
        with user_errors():
            if local_mode():
                rows = aima_figures(*args, on_progress=progress)
            else:
                rows = run_job(aima_figures, args, callbacks={"on_progress": (LATEST, progress)})
            kept = (settings, pd.DataFrame(rows))
            st.session_state["ls_aima"] = kept
        st.session_state.pop("ls_aima_running", None)
        bar.empty()
        cancel.empty()
    if kept is None:
        return
    if kept[0] != settings:
        st.caption("These figures are for earlier settings; press the button to update them.")
    table = kept[1]
    st.dataframe(table, hide_index=True, width="stretch")
    st.caption(
        "Goal: each success rate within 2 percentage points of the book's, and a million "
        "queens solved in under 10 s. The last rows are the theory from our own rates: "
        "random restart needs 1/p climbs, and about s + (1 − p)/p · f steps (s and f: the "
        "steps of a success and of a failure)."
    )
    csv_download(table, "aima_local_search.csv", "Download the figures (CSV)", key="ls_w_aima_dl")
