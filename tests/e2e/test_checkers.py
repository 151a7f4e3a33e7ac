"""Checkers in a real browser: click a piece, then its destination on the plotly board; the
move is played and the AI replies; a piece that cannot move gets a reason."""

from __future__ import annotations

from lib.games.checkers_plots import BLACK_PIECE, display_position
from tests.e2e.conftest import click_chart, open_page, wait_idle, wait_rendered

BOARD = ".st-key-checkers_board_{nonce}"


def _click_square(page, nonce: int, square: int) -> None:
    row, col = display_position(square)
    click_chart(page, BOARD.format(nonce=nonce), col, row)
    wait_rendered(page, BOARD.format(nonce=nonce + 1))
    wait_idle(page)


def _black_pieces(page) -> list[list[int]]:
    """(row, col) of the Black pieces drawn on the main board."""
    chart = page.locator('[class*="st-key-checkers_board_"] .js-plotly-plot').first
    return chart.evaluate(
        """(gd, fill) => (gd.layout.shapes || [])
            .filter(s => s.type === 'circle' && s.fillcolor === fill)
            .map(s => [Math.round((s.y0 + s.y1) / 2), Math.round((s.x0 + s.x1) / 2)])""",
        BLACK_PIECE[0],
    )


def test_click_a_checkers_move_then_the_ai_replies(page):
    open_page(page, "checkers?white=alphabeta:depth=2")
    assert (
        "Black 12 (0 kings) – White 12 (0 kings)"
        in page.locator('[data-testid="stAlert"]').first.inner_text()
    )
    assert list(display_position(15)) not in _black_pieces(page)
    _click_square(page, 0, 11)  # select the man on 11
    _click_square(page, 1, 15)  # and move it to 15
    page.get_by_text("Nodes").first.wait_for(timeout=60_000)
    wait_idle(page)
    pieces = _black_pieces(page)
    assert list(display_position(15)) in pieces and list(display_position(11)) not in pieces
    page.get_by_role("tab", name="Game record").click()
    moves = page.locator('[data-testid="stCode"]').first.inner_text().split()
    assert moves[0] == "11-15" and len(moves) == 2
    # a man that cannot move is refused with a reason
    _click_square(page, 2, 1)
    page.get_by_text("cannot move", exact=False).first.wait_for()
