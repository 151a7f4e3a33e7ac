"""A class contest in real browsers: students join and submit from their own sessions, the
contest plays itself on the server, and the projector's leaderboard fills."""

from __future__ import annotations

import time

import pandas as pd
import pytest

from lib.contest import contests as C
from lib.contest.schedule import game_counts
from lib.contest.store import Store
from tests.e2e.conftest import fresh_page, open_page, wait_idle

STUDENTS = ("Ada", "Alan", "<b>Grace</b>")
FORMULAS = ("lines", "lines + 2*centre", "corners - twos")


@pytest.fixture
def contest_server(tmp_path):
    """An app server of its own on a fresh SQLite contest database (a local install)."""
    url = f"sqlite:///{tmp_path / 'contest.sqlite3'}"
    env = {"AI_SEARCH_LAB_DATABASE_URL": url, "AI_SEARCH_LAB_LOCAL": "1"}
    from bench import app_server
    from tests.e2e.conftest import ROOT

    with app_server.running_app(ROOT, None, env) as (app_url, _process):
        yield app_url, Store(url)


def test_students_join_and_the_projector_fills(browser, contest_server) -> None:
    app_url, store = contest_server
    settings = C.ContestSettings(game="tictactoe", options={}, max_depth=2, games_per_entry=2)
    contest = C.open_contest(store, settings)
    for name, formula in zip(STUDENTS, FORMULAS, strict=True):
        with fresh_page(browser, app_url) as page:
            open_page(page, f"contest?code={contest.code}")
            page.locator(".st-key-ct_w_name input").fill(name)
            page.get_by_role("button", name="Join").click()
            page.get_by_text("Keep this link").wait_for(timeout=60_000)
            wait_idle(page)
            assert "entry=" in page.url  # the link to keep carries the token
            page.locator(".st-key-ct_w_formula textarea").fill(formula)
            page.get_by_role("button", name="Submit entry").click()
            page.get_by_text("Version 1 submitted").wait_for(timeout=60_000)
            page.get_by_text(f"Playing as: {name}", exact=True).wait_for()  # text, not HTML
    with fresh_page(browser, app_url) as projector:
        open_page(projector, f"contest?view=projector&code={contest.code}")
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            counts = game_counts(store, contest.id)
            if counts.get("done") and not counts.get("pending") and not counts.get("claimed"):
                break
            projector.wait_for_timeout(1000)
        done = game_counts(store, contest.id).get("done", 0)
        assert done >= 3  # every pair met: the server played the contest by itself
        projector.get_by_text(f"{done} games played").wait_for(timeout=30_000)  # refreshed
        with projector.expect_download() as download:  # the board's table, as the CSV has it
            projector.get_by_role("button", name="Leaderboard CSV").click()
        table = pd.read_csv(download.value.path())
        assert sorted(table["name"]) == sorted(STUDENTS)
        assert table["games"].sum() == 2 * done
