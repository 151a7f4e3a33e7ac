"""AI Search Lab: entry script. Run with ``streamlit run streamlit_app.py``.

``streamlit run`` finds the ASGI app ``app`` below and serves it: Streamlit with one
middleware in front (a nested unknown path such as ``/etc/passwd`` is sent to "Page not
found", :mod:`lib.nested_paths`), running this file as every session's script.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from starlette.middleware import Middleware

from lib.nested_paths import NestedPathsToNotFound
from lib.ui.common import keep_noted_widget_values
from lib.ui.navigation import PAGES, PAGES_DIR, sidebar_menu, url_path
from lib.ui.presentation import presentation_toggle
from lib.ui.server import memory_releaser, shared_work_warmer

HERE = Path(__file__).parent


def main() -> None:
    """One script run of a session: the page it asks for, with the app's menu."""
    st.set_page_config(
        page_title="AI Search Lab", page_icon=HERE / "assets/icon.svg", layout="wide"
    )
    memory_releaser()  # one per server: memory freed by visitors who left goes back to the system
    shared_work_warmer()  # one per server: pages' shared first looks computed before their visit
    keep_noted_widget_values()  # a page's settings outlive a visit to another page

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


if __name__ == "__main__":  # a session's script run
    main()
else:  # ``streamlit run`` importing this file for the app it serves
    base = lambda: st.get_option("server.baseUrlPath")  # noqa: E731 (read at each request)
    app = st.App(__file__, middleware=[Middleware(NestedPathsToNotFound, base=base)])
