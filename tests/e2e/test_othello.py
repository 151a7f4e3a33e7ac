"""Othello in a real browser: click a legal square on the plotly board, see the disc and the
AI's reply; the game record downloads."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.conftest import open_page, wait_idle

BOARD = ".st-key-othello_board_{nonce}"


def _click_square(page, chart_selector: str, row: int, col: int) -> None:
    """Click the centre of square (row, col) using the chart's own axis mapping."""
    chart = page.locator(chart_selector).first
    chart.locator(".nsewdrag").first.wait_for()
    point = chart.evaluate(
        """(el, rc) => {
            const gd = el.classList.contains('js-plotly-plot') ? el
                : el.querySelector('.js-plotly-plot');
            const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
            const box = gd.querySelector('.nsewdrag').getBoundingClientRect();
            return {x: box.left + xa.l2p(rc[1]), y: box.top + ya.l2p(rc[0])};
        }""",
        [row, col],
    )
    page.mouse.move(point["x"], point["y"])
    page.mouse.click(point["x"], point["y"])


def _record(page) -> str:
    return page.locator('[data-testid="stCode"]').first.inner_text()


def test_click_a_legal_square_then_the_ai_replies(page):
    open_page(page, "othello?size=6&white=alphabeta:depth=2")
    status = page.locator('[data-testid="stAlert"]').first
    assert "Black 2 – 2 White" in status.inner_text()
    _click_square(page, BOARD.format(nonce=0), 1, 2)  # c2, a legal first move on 6x6
    page.get_by_text("c2", exact=False).first.wait_for()
    page.locator('[data-testid="stCode"]').first.wait_for()
    # the disc appears and White answers: two moves in the record, 4 discs each side
    page.wait_for_function(
        """() => {
            const code = document.querySelector('[data-testid="stCode"]');
            return code && code.innerText.trim().split(/\\s+/).length >= 2;
        }""",
        timeout=60_000,
    )
    wait_idle(page)
    moves = _record(page).split()
    assert moves[0] == "c2" and len(moves) == 2
    assert "Black 3 – 3 White" in page.locator('[data-testid="stAlert"]').first.inner_text()
    # the AI's search statistics are on show
    assert page.get_by_text("Nodes").first.is_visible()
    # the same kind of click works again on the new chart (its key changed)
    _click_square(page, '[class*="st-key-othello_board_"]', 0, 0)
    page.get_by_text("not legal", exact=False).first.wait_for()
    wait_idle(page)
    with page.expect_download() as download_info:
        page.get_by_text("Download game record (CSV)").click()
    path = download_info.value.path()
    text = Path(path).read_text(encoding="utf-8")
    assert text.splitlines()[0].startswith("ply,side,player,move")
    assert ",c2," in text
