"""Shared links in a real browser: a game page opened with ``moves=`` and the step-through's
settings shows the position on the board and the step the link names; a race link opens the
race at its speed, and a speed chosen there goes into the address."""

from __future__ import annotations

from urllib.parse import urlencode

from lib.games.core import get_game
from lib.links import read_moves
from lib.ui import routes_common
from tests.e2e.conftest import board_circles, open_page, wait_idle, wait_rendered

MOVES = "f5,d6,c3,d3"
BLACK, WHITE = "#111111", "#f5f5f5"


def _position(text: str) -> dict[str, list[list[int]]]:
    """(row, col) of each side's discs after ``text`` (the game's own rules, not the page's)."""
    game = get_game("othello")
    moves, _ = read_moves(text, game.initial_state(), game.parse_move)
    state = game.initial_state()
    for move in moves:
        state = state.play(move)
    rows = state.to_text().splitlines()[: state.size]
    return {
        mark: sorted(
            [r, c] for r, row in enumerate(rows) for c, cell in enumerate(row) if cell == mark
        )
        for mark in "XO"
    }


def test_a_shared_link_restores_a_position_and_a_step(page):
    query = {
        "black": "human",
        "white": "human",
        "moves": MOVES,
        "replay": "yes",
        "ply": "3",
        "step_pos": "The position on the board",
        "step_algo": "minimax",
        "step_depth": "2",
        "step": "4",
    }
    open_page(page, "othello?" + urlencode(query))
    # the board shows the position after the first three moves (the fourth is kept)
    expected = _position(MOVES.rsplit(",", 1)[0])
    discs = board_circles(page, '[class*="st-key-othello_board_"]', [BLACK, WHITE])
    assert sorted(discs[BLACK]) == expected["X"] and sorted(discs[WHITE]) == expected["O"]
    # the step-through tab is open on the link's search and step
    wait_rendered(page, ".st-key-othello_step_status")
    status = page.locator('.st-key-othello_step_status:not([data-stale="true"])').first
    assert status.inner_text().startswith("Step 4 of ")
    assert "Minimax, depth 2" in status.inner_text()
    # Forward plays the kept fourth move; the address follows
    page.locator('.st-key-othello_w_forward:not([data-stale="true"]) button').first.click()
    page.wait_for_function("() => !new URL(location.href).searchParams.has('ply')", timeout=60_000)
    wait_idle(page)
    expected = _position(MOVES)
    discs = board_circles(page, '[class*="st-key-othello_board_"]', [BLACK, WHITE])
    assert sorted(discs[BLACK]) == expected["X"] and sorted(discs[WHITE]) == expected["O"]
    assert "moves=" + MOVES.replace(",", "%2C") in page.url


def test_a_race_link_opens_the_race_at_its_speed_and_a_new_speed_goes_into_the_address(page):
    open_page(page, "routes?" + urlencode({"race": "A*|BFS", "race_speed": "2"}))
    race = f'.st-key-{routes_common.RACE_KEY}:not([data-stale="true"]) .route-race'
    board = page.locator(race).first
    board.locator(".racer canvas.search").first.wait_for(timeout=60_000)  # opened by the link
    wait_idle(page)
    names = [r.get_attribute("data-name") for r in board.locator(".racer").all()]
    assert names == ["A*", "BFS"]
    assert board.locator("select.speed").input_value() == "2"
    board.locator("select.speed").select_option("4")
    page.wait_for_function(
        "() => new URL(location.href).searchParams.get('race_speed') === '4'", timeout=60_000
    )
    wait_idle(page)
    assert page.locator(race).first.locator("select.speed").input_value() == "4"
