"""The Game of Sim in a real browser: click a line's marker on the plotly hexagon; it turns
red, the AI colours a blue line, and the perfect-play verdict is shown."""

from __future__ import annotations

from lib.games.sim_plots import target_xy
from tests.e2e.conftest import click_chart, open_page, wait_idle, wait_rendered

BOARD = ".st-key-sim_board_{nonce}"


def _coloured(page, name: str) -> int:
    """How many lines the trace ``name`` ("Red" / "Blue") of the main board draws."""
    chart = page.locator('[class*="st-key-sim_board_"] .js-plotly-plot').first
    return chart.evaluate(
        """(gd, name) => {
            const trace = gd.data.find(t => t.name === name);
            return trace ? trace.x.filter(v => v === null).length : 0;
        }""",
        name,
    )


def test_click_a_sim_line_then_the_ai_replies(page):
    open_page(page, "sim?first=red&blue=alphabeta:depth=2")
    assert page.get_by_text("With perfect play from here").first.is_visible()
    assert _coloured(page, "Red") == 0
    x, y = target_xy((1, 2))
    click_chart(page, BOARD.format(nonce=0), x, y)
    wait_rendered(page, BOARD.format(nonce=1))
    page.get_by_text("2/15 lines coloured").first.wait_for(timeout=60_000)
    wait_idle(page)
    assert _coloured(page, "Red") == 1 and _coloured(page, "Blue") == 1
    page.get_by_role("tab", name="Game record").click()
    moves = page.locator('[data-testid="stCode"]').first.inner_text().split()
    assert moves[0] == "1-2" and len(moves) == 2
    # the same line cannot be coloured twice
    click_chart(page, '[class*="st-key-sim_board_"]', x, y)
    page.get_by_text("already red", exact=False).first.wait_for()


def _box(page, key: str) -> dict:
    return page.locator(f".st-key-{key}").first.bounding_box()


def test_last_search_board_keeps_its_size_beside_or_above_the_bars(page):
    page.set_viewport_size({"width": 1024, "height": 800})
    open_page(page, "sim?first=red&blue=alphabeta:depth=2")
    click_chart(page, BOARD.format(nonce=0), *target_xy((1, 2)))
    page.get_by_text("2/15 lines coloured").first.wait_for(timeout=60_000)
    wait_idle(page)
    page.locator(".st-key-sim_last_scores .js-plotly-plot").first.wait_for()
    board, bars = _box(page, "sim_last_heat"), _box(page, "sim_last_scores")
    assert board["width"] >= 400  # not squeezed into a half-width column
    assert bars["y"] >= board["y"] + board["height"] - 1  # the bars go under the board
    badges = page.locator(".st-key-sim_last_heat .js-plotly-plot").first.evaluate(
        "gd => gd.data.find(t => t.name === 'move scores').text.length"
    )
    assert badges == 14  # one per free line of the position it searched
    page.set_viewport_size({"width": 1400, "height": 800})
    page.wait_for_timeout(500)
    board, bars = _box(page, "sim_last_heat"), _box(page, "sim_last_scores")
    assert bars["x"] >= board["x"] + board["width"] and abs(bars["y"] - board["y"]) < 2
