"""Monte Carlo tree search on a game page in a real browser: a link makes Yellow an MCTS player,
a click plays Red's disc, and the AI's reply shows its visit counts on the board and as bars."""

from __future__ import annotations

import pytest

from lib.games.core import available_games, get_game
from tests.e2e.conftest import click_board, open_page, wait_idle

BOARD = '[class*="st-key-connect_four_board_"]:not([data-stale="true"])'


def test_an_mcts_player_answers_and_its_visits_are_drawn(page):
    open_page(page, "connect_four?red=human&yellow=mcts:sims=300")
    click_board(page, BOARD, (0, 3))  # Red in column d
    page.get_by_text("2/42 discs").first.wait_for(timeout=60_000)
    wait_idle(page)
    page.get_by_role("tab", name="Last search").click()
    heat = page.locator('[class*="st-key-connect_four_last_heat"] .js-plotly-plot').first
    bars = page.locator('[class*="st-key-connect_four_last_scores"] .js-plotly-plot').first
    titles = [chart.evaluate("(gd) => gd.layout.title.text") for chart in (heat, bars)]
    assert all("Visits of each move" in title for title in titles)  # (the bars' is in bold)
    # the bars' lengths are the visit counts: together, the 300 simulations
    lengths = bars.evaluate("(gd) => gd.data[0].x")
    assert sum(lengths) == 300
    assert page.get_by_text("Chosen line (most-visited path)").first.is_visible()
    assert page.get_by_text("MCTS 300 sims / 5 s").count() >= 1


@pytest.mark.parametrize("game", list(available_games()))
def test_mcts_plays_every_game_in_the_browser(page, game):
    spec = get_game(game)
    players = "&".join(f"{name.lower()}=mcts:sims=120" for name in spec.player_names)
    open_page(page, f"{game}?{players}")
    page.get_by_role("button", name="Step").click()  # both sides are the AI: one move
    page.get_by_text("Visits of each move").first.wait_for(timeout=60_000)
    wait_idle(page)
    page.get_by_role("tab", name="Last search").click()
    bars = page.locator(f'[class*="st-key-{game}_last_scores"] .js-plotly-plot').first
    assert sum(bars.evaluate("(gd) => gd.data[0].x")) == 120  # every simulation's first move
