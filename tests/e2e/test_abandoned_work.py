"""Work nobody waits for stops: a game page's AI search ends when its tab closes.

(An Arena game played in the server stops the same way, move by move: that is tested with
``run_tournament(on_move=...)`` in tests/games/arena/test_tournament.py; a browser test of
it could not tell a stopped game from one that ended by itself on a quiet machine.)"""

from __future__ import annotations

import os
import re
import time

from tests.e2e.conftest import running_app_process


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (Linux ``/proc``)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_over(pid: int, seconds: float) -> float:
    """CPU seconds process ``pid`` uses in the next ``seconds`` of wall time."""
    before = _cpu_seconds(pid)
    time.sleep(seconds)
    return _cpu_seconds(pid) - before


def _wait_until_idle(pid: int, timeout: float = 60.0) -> None:
    """Wait until process ``pid`` uses under 0.05 CPU seconds in half a second."""
    deadline = time.monotonic() + timeout
    while _cpu_over(pid, 0.5) >= 0.05:
        assert time.monotonic() < deadline, f"the server was still busy after {timeout} s"


def test_closing_the_tab_stops_the_ai_search(browser):
    # A server of its own, so that its CPU time is this test's search and nothing else.
    with running_app_process() as (url, server):
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        # The first visit starts the server's warm-up of shared work (lib.ui.server): let
        # it end, so the CPU measured below is the search's alone.
        page.goto(url)
        page.locator("h1", has_text="AI Search Lab").first.wait_for(timeout=60_000)
        _wait_until_idle(server.pid)
        # Yellow is a slow AI (5 s per move, the page's most; depth 8 takes longer) and moves
        # after d, a, d: in neither opening book (Yellow's answers d with d), so it searches.
        page.goto(
            f"{url}/connect_four?moves=d,a,d&red=human&yellow=alphabeta:depth=8,time=5,ordering=off,tt=off"
        )
        # The thinking line counts the positions searched so far (the search is running)
        counting = re.compile(r"is thinking… [\d,]+ positions")
        page.locator('[data-testid="stAlert"]', has_text=counting).first.wait_for(timeout=60_000)
        context.close()
        time.sleep(0.5)
        after_close = _cpu_over(server.pid, 1.5)
    # Without the stop the search goes on for the rest of its 5 s budget (0.3 to 1.5 CPU
    # seconds in this window, by how loaded the machine is); stopped, the server idles.
    assert after_close < 0.15
