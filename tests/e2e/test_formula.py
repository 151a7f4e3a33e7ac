"""A student's formula in a real browser: on the tic-tac-toe page O's heuristic is set to
"Your formula…", a formula is typed beside the feature list, and O plays a game with it."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlparse

from tests.e2e.conftest import BOARD_CIRCLES, choose_option, click_board, open_page, wait_idle

BOARD = '[class*="st-key-tictactoe_board_"]:not([data-stale="true"])'
CROSS, NOUGHT = "#c62828", "#1565c0"  # the marks' colours
EDGES = {(0, 1), (1, 0), (1, 2), (2, 1)}


def _marks(page, colour: str, count: int) -> set[tuple[int, int]]:
    """(row, col) of the ``colour`` marks on the current board, once there are ``count``."""
    deadline = time.monotonic() + 60
    while True:
        marks = {
            tuple(m)
            for m in page.wait_for_function(
                BOARD_CIRCLES, arg=[BOARD, colour], timeout=60_000
            ).json_value()
        }
        if len(marks) >= count or time.monotonic() > deadline:
            return marks
        page.wait_for_timeout(100)


def test_a_formula_player_plays_a_game_of_tic_tac_toe(page):
    open_page(page, "tictactoe?o=alphabeta:depth=1")
    option = page.get_by_role("option", name="Your formula…")
    choose_option(page, ".st-key-tictactoe_p1_w_heuristic", option)
    box = page.locator(".st-key-tictactoe_p1_w_formula input")
    box.wait_for()
    page.get_by_text("Corners I hold minus corners they hold.").first.wait_for()
    wait_idle(page)
    box.fill("-corners + 0.1*lnes")  # a typo first: named, and the text stays
    box.press("Enter")
    error = page.get_by_text("unknown name 'lnes'").first
    error.wait_for(timeout=60_000)
    wait_idle(page)
    assert "Formula, at character 16: unknown name 'lnes'; did you mean 'lines'?" in (
        error.inner_text()
    )
    assert box.input_value() == "-corners + 0.1*lnes"
    box.fill("-corners + 0.1*lines")  # an O that shuns the corners
    box.press("Enter")
    page.wait_for_function("() => location.search.includes('formula')", timeout=60_000)
    wait_idle(page)
    spec = parse_qs(urlparse(page.url).query)["o"][0]
    assert spec.endswith("formula=-corners%20%2B%200.1%2Alines"), spec

    click_board(page, BOARD, (1, 1))  # X takes the centre
    first_reply = _marks(page, NOUGHT, 1)
    assert len(first_reply) == 1 and first_reply <= EDGES  # the built-in takes a corner
    wait_idle(page)
    for turn in range(2, 6):
        if page.get_by_text("Game over").count():
            break
        taken = _marks(page, CROSS, turn - 1) | _marks(page, NOUGHT, turn - 1)
        row, col = next((r, c) for r in range(3) for c in range(3) if (r, c) not in taken)
        click_board(page, BOARD, (row, col))
        page.wait_for_function(
            """([sel, colours, n]) => {
                const count = (d, c) => d.shapes.filter((s) => s.fillcolor === c).length;
                const over = document.body.innerText.includes('Game over');
                return Array.from(document.querySelectorAll(sel + ' .game-board'))
                    .some((b) => b.drawing && count(b.drawing, colours[0]) >= n
                        && (over || count(b.drawing, colours[1]) >= n));
            }""",
            arg=[BOARD, [CROSS, NOUGHT], turn],
            timeout=60_000,
        )
        wait_idle(page)
    page.get_by_text("Game over").first.wait_for(timeout=60_000)
    page.get_by_role("tab", name="Game record").click()
    moves = page.locator('[data-testid="stCode"]').first.inner_text().split()
    assert moves[0] == "b2" and moves[1] in {"b1", "a2", "c2", "b3"} and len(moves) >= 5
