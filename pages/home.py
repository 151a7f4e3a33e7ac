"""Home page: what each page teaches, with a link to it."""

from __future__ import annotations

import streamlit as st

from lib.ui.navigation import PAGES, page_file, require_app_navigation

require_app_navigation()

st.title("AI Search Lab")
st.markdown(
    "Classic AI search and optimisation, to be **used** rather than read about. "
    "Every page works on bundled data with sensible defaults: change a setting "
    "and watch what the algorithm does."
)

for info in PAGES:
    with st.container(border=True):
        st.page_link(page_file(info.file), label=info.title, icon=info.icon)
        st.caption(f"{info.group} · {info.teaches}")
