"""AI Search Lab: entry script. Run with ``streamlit run streamlit_app.py``."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from lib.ui.navigation import PAGES, PAGES_DIR, sidebar_menu, url_path
from lib.ui.presentation import presentation_toggle
from lib.ui.server import memory_releaser, shared_work_warmer

HERE = Path(__file__).parent

st.set_page_config(page_title="AI Search Lab", page_icon=HERE / "assets/icon.svg", layout="wide")
memory_releaser()  # one per server: memory freed by visitors who left goes back to the system
shared_work_warmer()  # one per server: pages' shared first looks computed before their visit

home = st.Page(
    str(HERE / PAGES_DIR / "home.py"), title="Home", icon=":material/home:", default=True
)
groups: dict[str, list[st.Page]] = {"": [home]}
for info in PAGES:
    groups.setdefault(info.group, []).append(
        st.Page(
            str(HERE / PAGES_DIR / info.file),
            title=info.title,
            icon=info.icon,
            url_path=url_path(info),
        )
    )

navigation = st.navigation(groups)  # its menu is hidden (.streamlit/config.toml): ours is drawn
sidebar_menu(groups)
presentation_toggle()  # every page honours it: the sidebar's toggle, ?present=1
navigation.run()
