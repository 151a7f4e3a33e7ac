"""Connect Four and tic-tac-toe in a real browser: a click anywhere in a column of the plotly
board drops a disc there and the AI replies; a click on a tic-tac-toe square marks it.

The pages are served as entry scripts of their own (``streamlit run app_pages/<game>.py``),
so these tests do not depend on how the app's navigation lists them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import pytest

from tests.e2e.conftest import ROOT, _free_port, click_chart, wait_idle


@pytest.fixture(scope="module")
def page_server() -> Iterator[dict[str, str]]:
    """One server per game page, each running the page file as its entry script."""
    servers: dict[str, str] = {}
    processes = []
    try:
        for name in ("connect_four", "tictactoe"):
            port = _free_port()
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "streamlit",
                    "run",
                    f"app_pages/{name}.py",
                    "--server.headless=true",
                    "--server.address=127.0.0.1",
                    f"--server.port={port}",
                    "--server.fileWatcherType=none",
                    "--browser.gatherUsageStats=false",
                ],
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            processes.append(process)
            url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                assert process.poll() is None, f"streamlit exited early for {name}"
                try:
                    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                        if reply.status == 200:
                            break
                except OSError:
                    pass
                assert time.monotonic() < deadline, f"{name} did not become healthy in 60 s"
                time.sleep(0.25)
            servers[name] = url
        yield servers
    finally:
        for process in processes:
            try:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(process.pid, signal.SIGKILL)


@pytest.fixture
def tab(browser):
    """A fresh browser context; JavaScript errors on the page fail the test."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def _open(tab, url: str) -> None:
    tab.goto(url)
    tab.wait_for_selector('[data-testid="stMain"] h1', timeout=60_000)
    wait_idle(tab)


def _discs(tab, key: str, colour: str) -> list[list[int]]:
    """(row, col) of the circles filled with ``colour`` on the board chart."""
    chart = tab.locator(f'[class*="st-key-{key}_board_"] .js-plotly-plot').first
    return chart.evaluate(
        """(gd, colour) => (gd.layout.shapes || [])
            .filter((s) => s.type === 'circle' && s.fillcolor === colour)
            .map((s) => [Math.round((s.y0 + s.y1) / 2), Math.round((s.x0 + s.x1) / 2)])""",
        colour,
    )


def test_a_click_high_in_a_column_drops_a_disc_and_the_ai_replies(tab, page_server):
    _open(tab, f"{page_server['connect_four']}/?yellow=alphabeta:depth=2")
    assert "0/42 discs" in tab.locator('[data-testid="stAlert"]').first.inner_text()
    # click the top square of column d: the disc falls to the bottom row (display row 5)
    click_chart(tab, ".st-key-connect_four_board_0", 3, 0)
    tab.get_by_text("2/42 discs").first.wait_for(timeout=60_000)
    wait_idle(tab)
    assert _discs(tab, "connect_four", "#d32f2f") == [[5, 3]]
    assert len(_discs(tab, "connect_four", "#fdd835")) == 1
    assert tab.get_by_text("Nodes").first.is_visible()
    tab.get_by_role("tab", name="Game record").click()
    moves = tab.locator('[data-testid="stCode"]').first.inner_text().split()
    assert moves[0] == "d" and len(moves) == 2


def test_a_click_on_a_square_marks_it_and_the_ai_answers(tab, page_server):
    _open(tab, page_server["tictactoe"])
    assert tab.get_by_text("With perfect play from here the game is a").first.is_visible()
    click_chart(tab, ".st-key-tictactoe_board_0", 1, 1)  # b2
    # wait for the AI's O on the newest board, then for the run to finish
    tab.wait_for_function(
        """() => Array.from(document.querySelectorAll(
                '[class*="st-key-tictactoe_board_"]:not([data-stale="true"]) .js-plotly-plot'))
            .some((gd) => (gd.layout.shapes || []).some((s) => s.fillcolor === '#1565c0'))""",
        timeout=60_000,
    )
    wait_idle(tab)
    tab.get_by_role("tab", name="Game record").click()
    moves = tab.locator('[data-testid="stCode"]').first.inner_text().split()
    assert moves[0] == "b2" and len(moves) == 2
    assert _discs(tab, "tictactoe", "#c62828") == [[1, 1]]
    assert len(_discs(tab, "tictactoe", "#1565c0")) == 1
