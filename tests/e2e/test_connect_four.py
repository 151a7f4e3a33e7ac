"""Tic-tac-toe and Connect Four in a real browser, opened from the app like any game.

A tic-tac-toe game is played to the end against the perfect AI by clicking the
board; a Connect Four game between two people is played past a win (a click
after the win plays nothing).
"""

from __future__ import annotations

import time

from tests.e2e.conftest import BOARD_CIRCLES, click_board, open_page, wait_idle

BOARD = '[class*="st-key-{key}_board_"]'
CURRENT = ':not([data-stale="true"])'


def _marks(page, key: str, colour: str, until=lambda marks: True) -> list[list[int]]:
    """(row, col) of the circles filled with ``colour`` on the current board, once ``until``
    holds for them (the board is drawn a moment after the run; past a minute the caller's
    assert fails)."""
    deadline = time.monotonic() + 60
    while True:
        marks = page.wait_for_function(
            BOARD_CIRCLES, arg=[BOARD.format(key=key), colour], timeout=60_000
        ).json_value()
        if until(marks) or time.monotonic() > deadline:
            return marks
        page.wait_for_timeout(100)


def _record(page) -> list[str]:
    page.get_by_role("tab", name="Game record").click()
    return page.locator('[data-testid="stCode"]').first.inner_text().split()


def test_a_tic_tac_toe_game_against_the_perfect_ai_is_played_to_the_end(page):
    open_page(page, "tictactoe")
    assert page.get_by_text("With perfect play from here the game is a").first.is_visible()
    for turn in range(1, 6):
        taken = {tuple(m) for c in ("#c62828", "#1565c0") for m in _marks(page, "tictactoe", c)}
        row, col = next((r, c) for r in range(3) for c in range(3) if (r, c) not in taken)
        click_board(page, f"{BOARD.format(key='tictactoe')}{CURRENT}", (row, col))
        # my X and the AI's answer are on the current board (or the game is over): a click
        # on a board drawn before the answer would be dropped as made on an old position
        page.wait_for_function(
            """([sel, n]) => {
                const count = (drawing, colour) => drawing.shapes
                    .filter((s) => s.fillcolor === colour).length;
                const over = document.body.innerText.includes('Game over');
                return Array.from(document.querySelectorAll(sel + ' .game-board'))
                    .some((board) => board.drawing && count(board.drawing, '#c62828') >= n
                        && (over || count(board.drawing, '#1565c0') >= n));
            }""",
            arg=[f"{BOARD.format(key='tictactoe')}{CURRENT}", turn],
            timeout=60_000,
        )
        wait_idle(page)
        if page.get_by_text("Game over").count():
            break
    status = page.get_by_text("Game over").first.inner_text()
    assert "O wins" in status or "Draw" in status  # the perfect AI never loses
    moves = _record(page)
    assert 5 <= len(moves) <= 9


def test_a_connect_four_game_between_two_people_is_played_past_a_win(page):
    open_page(page, "connect_four?red=human&yellow=human")
    assert "0/42 discs" in page.locator('[data-testid="stAlert"]').first.inner_text()
    # Red drops four discs in column d (clicked high: they fall), Yellow answers in e
    for ply, column in enumerate([3, 4, 3, 4, 3, 4, 3]):
        click_board(page, f"{BOARD.format(key='connect_four')}{CURRENT}", (0, column))
        if ply < 6:
            page.get_by_text(f"{ply + 1}/42 discs").first.wait_for(timeout=60_000)
        wait_idle(page)
    page.get_by_text("Game over").first.wait_for(timeout=60_000)
    assert "Red wins" in page.get_by_text("Game over").first.inner_text()
    column_d = [[2, 3], [3, 3], [4, 3], [5, 3]]
    reds = _marks(page, "connect_four", "#d32f2f", lambda marks: sorted(marks) == column_d)
    assert sorted(reds) == column_d
    # past the win: another click plays nothing and says why
    click_board(page, f"{BOARD.format(key='connect_four')}{CURRENT}", (0, 0))
    page.get_by_text("The game is over").first.wait_for(timeout=60_000)
    wait_idle(page)
    assert _record(page) == ["d", "e", "d", "e", "d", "e", "d"]
