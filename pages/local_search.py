"""Local search: n-queens by hill climbing, annealing, beam search, a GA and min-conflicts."""

from __future__ import annotations

import streamlit as st

from lib.ui import local_search_aima as aima
from lib.ui import local_search_page as page
from lib.ui.navigation import require_app_navigation

require_app_navigation()

st.title("Local search: n-queens")
st.markdown(
    "Place n queens so that no two attack each other, by improving one complete board "
    "step by step. Choose the algorithm and its settings in the sidebar; the board plays "
    "the run, and the landscape shows the attacking pairs (h) of every neighbour."
)
values = page.choose_settings()
outcome = page.run(values)
if outcome is not None:
    page.show_run(outcome)

st.header("AIMA's figures, reproduced")
section = st.expander(
    "Hill climbing on 8-queens and min-conflicts on a million queens, beside the book's",
    key=aima.OPEN_KEY,
    on_change="rerun",
)
if section.open:
    with section:
        aima.show_figures()
