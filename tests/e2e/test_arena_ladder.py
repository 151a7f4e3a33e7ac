"""The Arena's Strength ladder tab in a real browser: run a small ladder, see its ranked chart,
download the ranked table as CSV."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd

from lib.games.arena.ladder import ladder_players
from lib.games.core import available_games
from tests.e2e.conftest import cut_texts, open_page, wait_idle


def test_run_a_small_ladder_and_download_the_ranked_table(page):
    page.set_viewport_size({"width": 1024, "height": 768})  # a projector
    open_page(page, "arena")
    page.get_by_text("Played 20 games").wait_for(timeout=60_000)  # the first-visit preset
    wait_idle(page)
    page.get_by_role("tab", name="Strength ladder").click()
    game = next(iter(available_games()))
    time_input = page.locator(".st-key-arena_w_ladder_time input")
    time_input.wait_for()
    time_input.fill("0.05")
    page.locator(".st-key-arena_w_ladder_games input").fill("2")
    page.get_by_role("button", name="Run ladder").click()
    roster = ladder_players(game, 0.05)
    games = len(roster) * (len(roster) - 1)
    page.get_by_text(f"Played {games} games of").wait_for(timeout=120_000)
    wait_idle(page)
    page.locator(".st-key-arena_chart_ladder").wait_for()
    assert cut_texts(page) == []

    with page.expect_download() as download:
        page.locator(".st-key-arena_dl_ladder button").click()
    assert download.value.suggested_filename == "strength_ladder.csv"
    table = pd.read_csv(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8-sig")))
    assert list(table["rank"]) == list(range(1, len(roster) + 1))
    assert list(table["rating"]) == sorted(table["rating"], reverse=True)
    assert table["games"].tolist() == [2 * (len(roster) - 1)] * len(roster)
    assert (table["wins"] + table["draws"] + table["losses"] == table["games"]).all()


FORMULA_LADDER = (
    "arena?ladder=othello&l_players=Random|Greedy+(one+ply)&l_time=0.1&l_games=2&lo_size=6"
    "&l_formula=if(empties+<+12,+discs,+4*mobility+%2B+10*corners)"
)
"""A ladder with a student's formula player: its games reach the compiled endgame solver,
whose LLVM a worker once could not load under the pool's memory cap (the page crashed)."""


def test_a_ladder_with_a_formula_player_runs_to_its_table_in_the_pool(page):
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, FORMULA_LADDER)
    page.get_by_role("button", name="Run ladder").wait_for(timeout=60_000)
    wait_idle(page)
    page.get_by_role("button", name="Run ladder").click()
    # random, greedy and the formula player: 3 pairs, 2 games each
    page.get_by_text("Played 6 games of").wait_for(timeout=180_000)
    wait_idle(page)
    page.locator(".st-key-arena_chart_ladder").wait_for()
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert "encountered an error" not in main and "JobFailed" not in main
