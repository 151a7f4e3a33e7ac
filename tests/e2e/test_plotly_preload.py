"""plotly.js starts loading as a page starts (lib.ui.components.plotly_preload): Home, which
has no chart, loads Streamlit's plotly chunk in the background, and a chart page opened from
there uses that same module (one request for the chunk in the tab, no second copy)."""

from __future__ import annotations

import time

from tests.e2e.conftest import WAIT_MS, open_page, wait_rendered


def _wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + WAIT_MS / 1000
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def test_home_loads_plotly_js_and_the_portfolio_page_reuses_it(page):
    chunk_requests: list[str] = []
    page.on("request", lambda r: "/PlotlyChart." in r.url and chunk_requests.append(r.url))
    open_page(page)  # Home: no plotly chart on it
    _wait_for(lambda: chunk_requests, "the plotly chunk's request on Home")
    assert page.locator(".stPlotlyChart").count() == 0
    page.locator('[data-testid="stSidebarNav"] a', has_text="Portfolio GA").click()
    wait_rendered(page, ".stPlotlyChart .main-svg")
    assert len(chunk_requests) == 1, chunk_requests
