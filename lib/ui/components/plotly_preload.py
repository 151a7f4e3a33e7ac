"""Start loading plotly.js as soon as a page starts, not when its first chart arrives.

Streamlit loads plotly.js (its ``PlotlyChart`` chunk, about 4.7 MB) only when a page's
first plotly chart is drawn, then spends 1–1.6 s on this machine reading and starting it
before anything of that chart shows. A page whose script computes for a while before its
first chart (an AI's opening move, a GA run) can overlap that wait with the computation:
this invisible component, drawn by the entry script before the page's own script runs,
imports the same chunk from the same URL, so the chart later finds it loaded.

Nothing is fetched from outside the app: the chunk is Streamlit's own static file, found
once per process in Streamlit's package (:func:`plotly_chunk`). Where a Streamlit version
names it otherwise, the component is not drawn and charts load plotly.js as before.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import streamlit as st

_PRELOAD = st.components.v2.component(
    "ai_search_lab.plotly_preload",
    js=(Path(__file__).parent / "plotly_preload.js").read_text(encoding="utf-8"),
    isolate_styles=False,
)


STREAMLIT_SCRIPTS = Path(st.__file__).parent / "static" / "static" / "js"
"""Where the installed Streamlit keeps the scripts it serves under ``static/js/``."""


@cache  # the installed package does not change while the server runs
def plotly_chunk(scripts: Path = STREAMLIT_SCRIPTS) -> str | None:
    """File name of the plotly.js chunk (``PlotlyChart.<hash>.js``) in ``scripts``, if
    there is exactly one."""
    names = [path.name for path in scripts.glob("PlotlyChart.*.js")]
    return names[0] if len(names) == 1 else None


def plotly_preload() -> None:
    """Start loading plotly.js in the visitor's browser (draws nothing)."""
    chunk = plotly_chunk()
    if chunk is not None:
        _PRELOAD(data={"chunk": chunk}, key="plotly_preload")
