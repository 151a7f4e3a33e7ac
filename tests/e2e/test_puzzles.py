"""The puzzle page in a real browser at 1024x768: it loads solved, a tile click slides a tile,
a typed board is solved, and the solution's Play button animates the board."""

from __future__ import annotations

from tests.e2e.conftest import open_page, wait_idle, wait_rendered

# the page position of a square's centre on the Plotly board inside ``selector``
SQUARE = """([selector, col, row]) => {
    const gd = document.querySelector(selector + ' .js-plotly-plot');
    if (!gd || !gd._fullLayout) return null;
    const box = gd.getBoundingClientRect();
    const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
    return {x: box.left + xa._offset + xa.l2p(col), y: box.top + ya._offset + ya.l2p(row)};
}"""
TITLE = """(selector) => {
    const t = document.querySelector(selector + ' .gtitle');
    return t ? t.textContent : null;
}"""


def _metric(page, label: str) -> str:
    box = page.locator('[data-testid="stMetric"]', has_text=label).first
    return box.locator('[data-testid="stMetricValue"]').inner_text()


def test_the_page_solves_slides_and_animates(page):
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "puzzles")
    assert page.locator("h1").first.inner_text() == "Sliding-tile puzzles"
    assert _metric(page, "Moves") == "26"
    wait_rendered(page, ".st-key-pz_solution_chart .js-plotly-plot")
    # the start board and the solution sit side by side within the 1024 px
    board = page.locator(".st-key-pz_board_chart_0").bounding_box()
    assert board is not None and board["x"] + board["width"] <= 1024

    # type a board, then click the 5 (above the blank): it slides down
    page.locator(".st-key-pz_w_typed input").fill("1 2 5 3 4 0 6 7 8")
    page.keyboard.press("Enter")
    page.get_by_text("start: 3 moves to go").first.wait_for(timeout=60_000)
    wait_idle(page)
    point = page.evaluate(SQUARE, [".st-key-pz_board_chart_0", 2, 2])  # square 2: the 5
    page.mouse.click(point["x"], point["y"])
    page.get_by_text("start: 2 moves to go").first.wait_for(timeout=60_000)
    wait_idle(page)
    assert page.locator(".st-key-pz_w_typed input").input_value() == "1 2 0 3 4 5 6 7 8"

    # Play animates the board to the goal
    chart = ".st-key-pz_solution_chart"
    assert page.evaluate(TITLE, chart).startswith("start")
    page.locator(f"{chart} .updatemenu-button").first.click()
    page.wait_for_function(f"() => ({TITLE})('{chart}') === 'move 2 of 2: blank L'", timeout=15_000)


# metric figures cut short (the value's text wider than its box: "171,…")
CUT_METRICS = """() => [...document.querySelectorAll('[data-testid="stMetricValue"]')]
    .filter((box) => [box, ...box.querySelectorAll('*')].some(
        (el) => el.scrollWidth > el.clientWidth + 1))
    .map((box) => box.innerText)"""


def test_breadth_first_s_counts_are_read_whole_at_1024x768(page):
    # BFS on the start board generates six figures: each third of the result's column holds them
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "puzzles?algo=bfs")
    generated = _metric(page, "Generated")
    assert int(generated.replace(",", "")) > 100_000
    assert page.evaluate(CUT_METRICS) == []
