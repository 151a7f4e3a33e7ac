"""Home page: what each page teaches, with a link to it."""

from __future__ import annotations

import streamlit as st

from lib.ui.navigation import PAGES, page_file, require_app_navigation, url_path
from lib.ui.presentation import settings_block

CARD_WIDTH = 320  # pixels: two cards a row beside the open sidebar of a 1024 px projector

require_app_navigation()

st.title("AI Search Lab")
st.markdown(
    "Classic AI search and optimisation, to be **used** rather than read about. "
    "Every page works on bundled data with sensible defaults: change a setting "
    "and watch what the algorithm does."
)

# two pages a row, unframed: on a 1024x768 projector every page's link is on the first screen
# (framed cards one a row made the list two screens long)
with st.container(horizontal=True, wrap=True, gap="medium", key="home_pages"):
    for info in PAGES:
        with st.container(width=CARD_WIDTH, gap=None):
            st.page_link(page_file(info.file), label=info.title, icon=info.icon)
            # the presentation view shows the links alone (its large text made the list
            # with its descriptions two screens long)
            settings_block(f"home_{url_path(info)}").caption(f"{info.group} · {info.teaches}")
