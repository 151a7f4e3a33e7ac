"""The entry script starts loading Streamlit's own plotly.js chunk on every page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from lib.ui.components import plotly_preload

ROOT = Path(__file__).resolve().parents[2]


def test_the_chunk_is_streamlits_plotly_chart_file():
    chunk = plotly_preload.plotly_chunk()
    assert chunk is not None and chunk.startswith("PlotlyChart.") and chunk.endswith(".js")
    served = plotly_preload.STREAMLIT_SCRIPTS / chunk
    assert served.parent == Path(st.__file__).parent / "static" / "static" / "js"
    assert "plotly" in served.read_text(encoding="utf-8").lower()


@pytest.mark.parametrize("page", ["home", "portfolio", "sim"])
def test_every_page_draws_the_preload_in_the_sidebar_with_that_chunk(page):
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=60)
    app.switch_page(f"pages/{page}.py").run()
    assert not app.exception, app.exception
    (preload,) = [e for e in app.sidebar.get("bidi_component") if "plotly_preload" in e.proto.id]
    assert json.loads(preload.proto.json) == {"chunk": plotly_preload.plotly_chunk()}


def test_no_chunk_or_two_chunks_find_none(tmp_path):
    find = plotly_preload.plotly_chunk.__wrapped__  # not the per-process cache
    assert find(tmp_path) is None
    (tmp_path / "PlotlyChart.a1.js").write_text("")
    assert find(tmp_path) == "PlotlyChart.a1.js"
    (tmp_path / "PlotlyChart.b2.js").write_text("")  # a mixed install: which one is served?
    assert find(tmp_path) is None


def test_without_a_chunk_nothing_is_drawn_and_the_page_runs(monkeypatch):
    monkeypatch.setattr(plotly_preload, "plotly_chunk", lambda: None)
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=60).run()
    assert not app.exception, app.exception
    assert not [e for e in app.get("bidi_component") if "plotly_preload" in e.proto.id]
