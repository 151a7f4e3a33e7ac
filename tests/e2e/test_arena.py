"""The Arena page in a real browser: run a preset, download its CSV; cancel a long study."""

from __future__ import annotations

import io
import re
import time
from pathlib import Path

import pandas as pd

from lib.games import othello
from tests.e2e.conftest import cut_texts, open_page, wait_idle


def test_run_a_preset_and_download_the_per_game_csv(page):
    open_page(page, "arena")
    games = page.locator(".st-key-arena_w_preset_games input")
    games.fill("4")
    page.get_by_role("button", name="Run study").click()
    page.get_by_text("Played 4 games").wait_for(timeout=60_000)
    wait_idle(page)
    page.locator('[data-testid="stPlotlyChart"]').nth(3).wait_for()  # four charts

    with page.expect_download() as download:
        page.locator(".st-key-arena_dl_games button").click()
    assert download.value.suggested_filename == "arena_games.csv"
    table = pd.read_csv(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8")))
    assert len(table) == 4 and list(table["game"]) == [0, 1, 2, 3]
    assert set(table["label"]) == {"alpha-beta d3 vs random"}
    for row in table.itertuples():
        state = othello.initial_state(6)
        for text in row.moves.split():
            state = state.play(othello.parse_move(text, state))
        a_colour = 0 if row.a_first else 1
        assert row.winner == {None: "draw", a_colour: "A", 1 - a_colour: "B"}[state.winner()]

    with page.expect_download() as download:
        page.locator(".st-key-arena_dl_summary button").click()
    summary = pd.read_csv(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8")))
    assert summary["games"].tolist() == [4]
    assert summary["wins"].iloc[0] == (table["winner"] == "A").sum()


def test_cancel_keeps_the_finished_games(page):
    open_page(page, "arena?preset=othello_pruning")
    page.locator(".st-key-arena_w_preset_games input").fill("50")
    page.get_by_role("button", name="Run study").click()
    progress = page.get_by_text(re.compile(r"\d+ of 300 games"))
    progress.wait_for(timeout=60_000)
    page.get_by_text(re.compile(r"[1-9]\d* of 300 games")).wait_for(timeout=60_000)
    page.locator(".st-key-arena_w_cancel button").click()
    stopped = page.get_by_text(re.compile(r"Stopped after \d+ of 300 games"))
    stopped.wait_for(timeout=60_000)
    wait_idle(page)
    done = int(re.search(r"after (\d+) of", stopped.inner_text()).group(1))
    assert 0 < done < 300
    page.locator(".st-key-arena_w_resume button").wait_for()
    page.locator(".st-key-arena_dl_games button").wait_for()  # partial results downloadable


def test_free_choice_labels_are_not_cut_on_a_1024_projector(page):
    # the round-robin toggle's label used to end in "every pair of A player…"
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "arena")
    page.locator('[data-testid="stMain"]').get_by_text("Free choice", exact=True).click()
    toggle = page.locator(".st-key-arena_w_round_robin")
    toggle.wait_for()
    wait_idle(page)
    assert "Round robin" in toggle.inner_text()
    assert cut_texts(page) == []


def test_a_shared_replay_link_opens_the_same_game_in_another_session(page, browser):
    open_page(page, "arena")  # a first visit plays the default preset
    page.get_by_text("Played 20 games").wait_for(timeout=60_000)
    wait_idle(page)
    page.get_by_text("Per-game results and replays").click()
    code = page.locator('[data-testid="stCode"]').filter(has_text="replay=")
    code.wait_for()
    link = code.inner_text().replace("\n", "").strip()
    assert link.startswith(page.app_url + "/arena?") and "r_seed=" in link
    # another visitor (a fresh session) follows the link
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    other = context.new_page()
    errors: list[str] = []
    other.on("pageerror", lambda error: errors.append(str(error)))
    try:
        other.goto(link)
        other.get_by_text("Shared replay: game 0 of alpha-beta d3 vs random").wait_for(
            timeout=60_000
        )
        wait_idle(other)
        other.get_by_role("button", name="Replay on the Othello page").click()
        banner = other.get_by_test_id("stAlertContentInfo")  # (a toast repeats the words)
        banner.get_by_text("Replay of alpha-beta d3 vs random, game 0").wait_for(timeout=60_000)
        wait_idle(other)
        assert other.url.split("?")[0].endswith("/othello")
        # the game page passes the same link on
        assert other.get_by_text("Link to share this replay").get_attribute("href") == link
    finally:
        context.close()
    assert not errors


def test_the_results_table_fits_a_1024_projector(page):
    """Issue: at 1024 px the summary table's columns after "loss %" were cut off."""
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "arena")  # a first visit plays the default preset
    page.get_by_text("Played 20 games").wait_for(timeout=60_000)
    wait_idle(page)
    # the summary is the page's first table (its key names no element in the browser)
    scroller = page.locator('[data-testid="stMain"] [data-testid="stDataFrame"] .dvn-scroller')
    scroller = scroller.first
    scroller.wait_for(timeout=60_000)
    # the grid sizes its columns after it is drawn (on a busy machine, a while after):
    # the table must fit once it has settled
    deadline = time.monotonic() + 10
    while True:
        page.wait_for_timeout(500)
        width, shown = scroller.evaluate("(el) => [el.scrollWidth, el.clientWidth]")
        if width <= shown + 1 or time.monotonic() > deadline:
            break
    assert width <= shown + 1, (width, shown)
