"""Home page: what each page teaches, with a link to it."""

from __future__ import annotations

import streamlit as st

from lib.ui.navigation import PAGES, page_file, page_groups, require_app_navigation, url_path
from lib.ui.presentation import settings_block

GROUP_WIDTH = 210  # pixels: three groups a row beside the open sidebar of a 1024 px projector

# each page's line of what it teaches is cut to one line (its whole text on hover), so the
# grid's height grows by one short row per page whatever the number of games registered
HOME_CSS = """
.st-key-home_pages [data-testid="stCaptionContainer"] p {
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
}
"""

require_app_navigation()

st.title("AI Search Lab")
st.markdown(
    "Classic AI search and optimisation, to be **used** rather than read about. "
    "Every page works on bundled data with sensible defaults: change a setting "
    "and watch what the algorithm does."
)
st.html(f"<style>{HOME_CSS}</style>")

# one column per area of the course, its pages under it: on a 1024x768 projector every
# page's link is on the first screen, however many games the registry holds (two cards a
# row with their descriptions pushed the ninth card off the screen)
with st.container(horizontal=True, wrap=True, gap="small", key="home_pages"):
    for group, pages in page_groups(PAGES).items():
        with st.container(width=GROUP_WIDTH, gap=None):
            st.markdown(f"**{group}**")
            for info in pages:
                st.page_link(
                    page_file(info.file), label=info.title, icon=info.icon, help=info.teaches
                )
                # the presentation view shows the links alone, in large text
                settings_block(f"home_{url_path(info)}").caption(info.teaches)
