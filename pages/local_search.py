"""Local search: n-queens by hill climbing, annealing, beam search, a GA and min-conflicts."""

from __future__ import annotations

import streamlit as st

from lib.ui import local_search_aima as aima
from lib.ui import local_search_page as page
from lib.ui.navigation import require_app_navigation

require_app_navigation()

st.title("Local search: n-queens")
st.markdown(
    "Place n queens so that no two attack each other by improving a complete board, "
    "one step at a time. The landscape beside the board gives each neighbour's attacking "
    "pairs (h); the algorithm and its settings are in the sidebar."
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
