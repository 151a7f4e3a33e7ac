"""Constraint satisfaction: backtracking (MRV, degree, LCV, FC, MAC) and min-conflicts, stepped."""

from __future__ import annotations

import streamlit as st

from lib.ui import csp_page as page
from lib.ui.navigation import require_app_navigation

require_app_navigation()

st.title("Constraint satisfaction")
st.markdown(
    "Choose a problem and the techniques; step through the search to watch each assignment, "
    "each value pruned from a domain and each backtrack, beside the code that ran."
)
for note in page.load_link_settings():
    st.warning(note)
settings = page.choose_settings()
if settings is not None:
    page.write_link(settings)
    run = page.get_run(settings)
    if run is not None:
        page.show_counts(run)
        page.show_steps(run)

st.header("Compare the techniques")
page.show_comparison()
