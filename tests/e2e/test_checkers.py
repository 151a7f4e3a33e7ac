"""Checkers in a real browser: click a piece, then its destination on the board; the move is
played and the AI replies; a piece that cannot move gets a reason."""

from __future__ import annotations

import time

from lib.games.checkers.plots import BLACK_PIECE, display_position
from tests.e2e.conftest import (
    BOARD_CIRCLES,
    click_board,
    open_page,
    wait_idle,
    wait_rendered,
)

BOARD = '.st-key-checkers_board_live:has(.game-board[data-revision="{nonce}"])'


def _click_square(page, nonce: int, square: int) -> None:
    click_board(page, BOARD.format(nonce=nonce), display_position(square))
    wait_rendered(page, BOARD.format(nonce=nonce + 1))
    wait_idle(page)


def _black_pieces(page, until=lambda pieces: True) -> list[list[int]]:
    """(row, col) of the Black pieces drawn on the main board, once ``until`` holds for them
    (the board is drawn a moment after the run; past a minute the caller's assert fails)."""
    deadline = time.monotonic() + 60
    while True:
        pieces = page.wait_for_function(
            BOARD_CIRCLES, arg=['[class*="st-key-checkers_board_"]', BLACK_PIECE[0]], timeout=60_000
        ).json_value()
        if until(pieces) or time.monotonic() > deadline:
            return pieces
        page.wait_for_timeout(100)


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
    pieces = _black_pieces(page, lambda pieces: list(display_position(15)) in pieces)
    assert list(display_position(15)) in pieces and list(display_position(11)) not in pieces
    page.get_by_role("tab", name="Game record").click()
    moves = page.locator('[data-testid="stCode"]').first.inner_text().split()
    assert moves[0] == "11-15" and len(moves) == 2
    # a man that cannot move is refused with a reason
    _click_square(page, 2, 1)
    page.get_by_text("cannot move", exact=False).first.wait_for()
