"""Agent files in a real browser: a server started with AI_SEARCH_LAB_LOCAL=1 offers the
field, plays the example agent and a crashing one on its shared job pool, and says why the
crashing one lost; the shared (hosted) server offers no field."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest

from bench import app_server
from lib.settings import LOCAL
from tests.e2e.conftest import ROOT, cut_texts, fresh_page, open_page, wait_idle

GREEDY = str(ROOT / "examples" / "greedy_agent.py")


@pytest.fixture(scope="module")
def local_app_url():
    with app_server.running_app(ROOT, env={LOCAL: "1"}) as (url, _process):
        yield url


def _free_choice(page) -> None:
    page.locator('[data-testid="stMain"]').get_by_text("Free choice", exact=True).click()
    page.locator(".st-key-arena_w_players textarea").wait_for()
    wait_idle(page)


def test_a_local_server_plays_agent_files_and_names_a_forfeit(browser, local_app_url, tmp_path):
    crash = tmp_path / "crash.py"
    crash.write_text("def choose_move(state, seconds_left):\n    return 1 / 0\n")
    with fresh_page(browser, local_app_url) as page:
        page.set_viewport_size({"width": 1024, "height": 768})  # a projector
        open_page(page, "arena")
        _free_choice(page)
        assert cut_texts(page) == []  # the agent field's label too
        page.locator(".st-key-arena_w_players textarea").fill(f"agent:path={crash}")
        page.locator(".st-key-arena_w_agent input").fill(GREEDY)
        page.locator(".st-key-arena_w_free_games input").fill("2")
        page.get_by_role("button", name="Run study").click()
        page.get_by_text("Played 4 games").wait_for(timeout=180_000)
        page.get_by_text("2 of 4 games lost by forfeit").wait_for()
        wait_idle(page)
        with page.expect_download() as download:
            page.locator(".st-key-arena_dl_games button").click()
        text = Path(download.value.path()).read_text(encoding="utf-8")
    table = pd.read_csv(io.StringIO(text), keep_default_na=False)
    crashed = table[table["label"].str.contains("crash.py")]
    assert (
        list(crashed["forfeit"]) == ["A: crash: ZeroDivisionError: division by zero (line 2)"] * 2
    )
    assert list(crashed["winner"]) == ["B", "B"]
    greedy = table[table["label"].str.contains("greedy_agent.py")]
    assert list(greedy["forfeit"]) == ["", ""] and (greedy["plies"] >= 5).all()


def test_the_hosted_server_offers_no_agent_field(page):
    open_page(page, "arena")
    _free_choice(page)
    assert page.locator(".st-key-arena_w_agent").count() == 0
