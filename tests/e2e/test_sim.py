"""The Game of Sim in a real browser: click a line's marker on the hexagon board; it turns
red, the AI colours a blue line, and the perfect-play verdict is shown."""

from __future__ import annotations

import time

from tests.e2e.conftest import BOARD_DRAWING, click_board, open_page, wait_idle, wait_rendered

BOARD = '.st-key-sim_board_live:has(.game-board[data-revision="{nonce}"])'


# {count}: how many lines a trace ("Red" / "Blue") of the current main board draws (one null
# ends each), or null while the board is being drawn
COLOURED = f"""([selector, name]) => {{
    const drawing = ({BOARD_DRAWING})(selector);
    if (!drawing) return null;
    const trace = drawing.traces.find((t) => t.name === name);
    return {{count: trace ? trace.x.filter((v) => v === null).length : 0}};
}}"""


def _coloured(page, name: str, until: int | None = None) -> int:
    """How many lines the trace ``name`` ("Red" / "Blue") of the main board draws, once that is
    ``until`` (the board is drawn a moment after the run; past a minute the caller's assert
    fails)."""
    deadline = time.monotonic() + 60
    while True:
        count = page.wait_for_function(
            COLOURED, arg=['[class*="st-key-sim_board_"]', name], timeout=60_000
        ).json_value()["count"]
        if until is None or count == until or time.monotonic() > deadline:
            return count
        page.wait_for_timeout(100)


def test_click_a_sim_line_then_the_ai_replies(page):
    open_page(page, "sim?first=red&blue=alphabeta:depth=2")
    assert page.get_by_text("With perfect play from here").first.is_visible()
    assert _coloured(page, "Red") == 0
    click_board(page, BOARD.format(nonce=0), (1, 2))
    wait_rendered(page, BOARD.format(nonce=1))
    page.get_by_text("2/15 lines coloured").first.wait_for(timeout=60_000)
    wait_idle(page)
    assert _coloured(page, "Red", until=1) == 1 and _coloured(page, "Blue", until=1) == 1
    page.get_by_role("tab", name="Game record").click()
    moves = page.locator('[data-testid="stCode"]').first.inner_text().split()
    assert moves[0] == "1-2" and len(moves) == 2
    # the same line cannot be coloured twice
    click_board(page, '[class*="st-key-sim_board_"]', (1, 2))
    page.get_by_text("already red", exact=False).first.wait_for()


def _box(page, key: str) -> dict:
    return page.locator(f".st-key-{key}").first.bounding_box()


def test_last_search_board_keeps_its_size_beside_or_above_the_bars(page):
    page.set_viewport_size({"width": 1024, "height": 800})
    open_page(page, "sim?first=red&blue=alphabeta:depth=2")
    click_board(page, BOARD.format(nonce=0), (1, 2))
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
