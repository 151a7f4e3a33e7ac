"""Othello in a real browser: click a legal square on the board, see the disc and the AI's
reply; the game record downloads."""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import unquote

from tests.e2e.conftest import (
    COUNT_RUNS,
    board_circles,
    board_target,
    click_board,
    cut_texts,
    open_page,
    wait_idle,
)

BOARD = '.st-key-othello_board_live:has(.game-board[data-revision="{nonce}"])'


def _click_square(page, board_selector: str, row: int, col: int) -> None:
    """Click square (row, col) of the board, without scrolling."""
    click_board(page, board_selector, (row, col), scroll=False)


def _discs(page) -> dict[str, list[list[int]]]:
    """(row, col) of the black and white discs drawn on the main board."""
    found = board_circles(page, '[class*="st-key-othello_board_"]', ["#111111", "#f5f5f5"])
    return {"black": found["#111111"], "white": found["#f5f5f5"]}


def test_click_a_legal_square_then_the_ai_replies(page):
    open_page(page, "othello?size=6&white=alphabeta:depth=2")
    status = page.locator('[data-testid="stAlert"]').first
    assert "Black 2 – 2 White" in status.inner_text()
    assert len(_discs(page)["black"]) == 2
    _click_square(page, BOARD.format(nonce=0), 1, 2)  # c2, a legal first move on 6x6
    # the disc appears, then White answers (every second move flips exactly one disc)
    page.get_by_text("Black 3 – 3 White").first.wait_for(timeout=60_000)
    wait_idle(page)
    discs = _discs(page)
    assert [1, 2] in discs["black"]
    assert len(discs["black"]) == 3 and len(discs["white"]) == 3
    # the AI's search statistics are on show (their charts load plotly.js only now: the board
    # does not need it)
    page.get_by_text("Nodes").first.wait_for(timeout=60_000)
    page.get_by_text("Score of each move it considered").first.wait_for(timeout=60_000)
    # the same kind of click works again on the new board (its key changed)
    _click_square(page, '[class*="st-key-othello_board_"]', 0, 0)
    page.get_by_text("not legal", exact=False).first.wait_for()
    wait_idle(page)
    page.get_by_role("tab", name="Game record").click()
    moves = page.locator('[data-testid="stCode"]').first.inner_text().split()
    assert moves[0] == "c2" and len(moves) == 2
    wait_idle(page)
    page.evaluate(COUNT_RUNS)
    with page.expect_download() as download_info:
        page.get_by_text("Download game record (CSV)").click()
    text = Path(download_info.value.path()).read_text(encoding="utf-8-sig")
    assert text.splitlines()[0].startswith("ply,side,player,move")
    assert ",c2," in text
    page.wait_for_timeout(1_000)  # a rerun would have started by now
    assert page.evaluate("() => window.__runs") == 0  # downloading did not rerun the page


def test_game_and_settings_survive_a_visit_to_another_page(page):
    open_page(page, "othello?size=6&white=alphabeta:depth=1")
    _click_square(page, BOARD.format(nonce=0), 1, 2)
    page.get_by_text("Black 3 – 3 White").first.wait_for(timeout=60_000)
    wait_idle(page)
    sidebar = page.locator(".st-key-app_menu")
    sidebar.get_by_text("Home", exact=True).click()
    page.locator("h1", has_text="AI Search Lab").wait_for()
    wait_idle(page)
    sidebar.get_by_text("Othello").click()
    page.locator("h1", has_text="Othello").wait_for()
    wait_idle(page)
    assert "Black 3 – 3 White" in page.locator('[data-testid="stAlert"]').first.inner_text()
    discs = _discs(page)
    assert [1, 2] in discs["black"] and len(discs["white"]) == 3
    url = unquote(page.url)
    assert "white=alphabeta:depth=1" in url and "size=6" in url


def test_thinking_indicator_shows_above_the_board_in_view(page):
    # Streamlit shows a spinner only after 0.5 s: a slowish AI (depth 8, no move ordering,
    # no transposition table, the costliest heuristic: about 0.95 s for its reply to d3 in
    # lib, against 0.66 s with the default heuristic, which let the indicator be skipped in
    # one CI run), and a MutationObserver that records where the spinner appeared, however
    # briefly it was on screen
    open_page(
        page,
        "othello?size=8&white=alphabeta:depth=8,time=5,ordering=false,tt=false,"
        "heuristic=positional9",
    )
    page.evaluate(
        """() => {
            window.__thinking = null;
            new MutationObserver(() => {
                if (window.__thinking) return;
                const spinner = document.evaluate(
                    "//*[contains(text(), 'is thinking')]", document, null,
                    XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
                const board = document.querySelector('[class*="st-key-othello_board_"]');
                if (spinner && board) {
                    window.__thinking = {spinner: spinner.getBoundingClientRect().top,
                                         board: board.getBoundingClientRect().top,
                                         height: window.innerHeight};
                }
            }).observe(document.body, {childList: true, subtree: true, characterData: true});
        }"""
    )
    _click_square(page, BOARD.format(nonce=0), 2, 3)  # d3
    page.get_by_text("Black 3 – 3 White").first.wait_for(timeout=60_000)  # the AI replied
    wait_idle(page)
    seen = page.evaluate("() => window.__thinking")
    assert seen is not None, "no 'is thinking' indicator was shown"
    assert 0 <= seen["spinner"] < seen["height"]  # visible without scrolling
    assert seen["spinner"] < seen["board"] < seen["spinner"] + 150  # right above the board


def test_a_click_message_does_not_move_the_board_on_a_projector(page):
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "othello?size=8")
    board = '[class*="st-key-othello_board_"]:not([data-stale="true"])'

    def settled_top() -> float:
        """The board's top once the page stops moving: the same for a whole second.

        Elements above the board render in turn, slowly on a busy machine, so one equal pair
        of readings is not enough; a board being redrawn has no box for a moment.
        """
        wait_idle(page)
        tops: list[float] = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            page.wait_for_timeout(250)
            box = page.locator(board).first.bounding_box()
            if box is None:
                tops.clear()
                continue
            tops.append(box["y"])
            if len(tops) >= 5 and max(tops[-5:]) - min(tops[-5:]) < 0.5:
                return tops[-1]
        raise AssertionError(f"the board kept moving: {tops[-8:]}")

    # everything above and around the board is rendered (not skeletons) before measuring
    page.locator(".st-key-othello_w_autoplay").first.wait_for()
    for name in ("New game", "Undo", "Hint", "Step"):
        page.locator(".st-key-othello_buttons button", has_text=name).first.wait_for()
    page.locator(".st-key-othello_messages [data-testid='stAlert']").first.wait_for()
    page.locator(f"{board} .game-board svg").first.wait_for()
    before = settled_top()
    _click_square(page, BOARD.format(nonce=0), 0, 0)  # a1: not a legal move
    page.locator(".st-key-othello_messages", has_text="not legal").first.wait_for()
    after = settled_top()
    assert abs(after - before) <= 2, (before, after)


def _button_rows(page, key: str) -> list[float]:
    """The distinct vertical centres (rounded) of the controls in the page's button row."""
    centres = page.locator(f".st-key-{key}_buttons").first.evaluate(
        """row => Array.from(row.querySelectorAll('button, label'))
            .filter(el => el.getBoundingClientRect().height > 0)
            .map(el => { const b = el.getBoundingClientRect(); return b.top + b.height / 2; })"""
    )
    rows: list[float] = []
    for centre in sorted(centres):
        if not rows or centre - rows[-1] > 10:
            rows.append(centre)
    return rows


def test_buttons_on_one_row_and_the_whole_board_in_view_at_1024x768_and_1400x900(page):
    # a classroom projector (1024x768 with the sidebar open: the narrowest main column) and a
    # laptop; on first load every game can be played without scrolling
    for width, height in ((1024, 768), (1400, 900)):
        page.set_viewport_size({"width": width, "height": height})
        for key in ("othello", "checkers", "sim"):
            open_page(page, key)
            page.locator(f".st-key-{key}_w_autoplay").first.wait_for()
            for name in ("New game", "Undo", "Hint", "Step"):  # rendered, not skeletons
                page.locator(f".st-key-{key}_buttons button", has_text=name).first.wait_for()
            chart = page.locator(f'[class*="st-key-{key}_board_"] .game-board svg').first
            chart.locator("xpath=..").locator(".target").first.wait_for()  # drawn
            wait_idle(page)
            page.wait_for_timeout(300)  # elements above the board render in turn
            where = (width, height, key)
            assert len(_button_rows(page, key)) == 1, where
            assert page.evaluate("() => window.scrollY") == 0
            board = chart.bounding_box()
            status = page.locator(f".st-key-{key}_messages [data-testid='stAlert']").first
            status_box = status.bounding_box()
            assert board["width"] >= 360 and board["height"] >= 360, (where, board)
            assert board["x"] >= 0 and board["x"] + board["width"] <= width, (where, board)
            assert board["y"] >= 0 and board["y"] + board["height"] <= height, (where, board)
            # the status line (whose turn, click messages) is in view right above the board
            assert 0 <= status_box["y"] < board["y"] < status_box["y"] + 150, (where, status_box)


def test_the_board_is_played_from_the_keyboard(page):
    open_page(page, "othello?size=6&white=alphabeta:depth=1")
    board = BOARD.format(nonce=0)
    board_target(page, board, (0, 0)).focus()  # waits for the board to be drawn
    stops = page.locator(f'{board} .game-board [tabindex="0"]')
    assert stops.count() == 1  # one tab stop for the board, not one per square
    for key in ("ArrowRight", "ArrowRight", "ArrowDown"):  # a1 -> b1 -> c1 -> c2
        page.keyboard.press(key)
    assert page.evaluate("() => document.activeElement.getAttribute('data-target')") == "1,2"
    page.keyboard.press("Enter")
    page.get_by_text("Black 3 – 3 White").first.wait_for(timeout=60_000)  # played, answered
    wait_idle(page)
    assert [1, 2] in _discs(page)["black"]
    # the redrawn board has the focus back on c2: the player goes on from the keyboard
    page.wait_for_function(
        "() => document.activeElement.getAttribute('data-target') === '1,2'", timeout=30_000
    )


def _centres(page, board: str) -> dict[tuple[int, int], tuple[float, float]]:
    """The on-screen centre of every square (click target) of the board under ``board``."""
    centres = page.locator(f"{board} .game-board .target").evaluate_all(
        """(targets) => targets.map((t) => {
            const box = t.getBoundingClientRect();
            return [t.getAttribute('data-target'), box.left + box.width / 2,
                    box.top + box.height / 2];
        })"""
    )
    return {tuple(map(int, name.split(","))): (x, y) for name, x, y in centres}


def test_squares_are_drawn_on_a_square_grid_row_1_at_the_top(page):
    for link, key, rows, cols in (("othello?size=6", "othello", 6, 6),
                                  ("connect_four", "connect_four", 6, 7)):  # fmt: skip
        open_page(page, link)
        board = f'[class*="st-key-{key}_board_"]:not([data-stale="true"])'
        page.locator(f"{board} .game-board .target").first.wait_for()
        centres = _centres(page, board)
        assert set(centres) == {(r, c) for r in range(rows) for c in range(cols)}
        step = centres[(0, 1)][0] - centres[(0, 0)][0]
        assert step > 30  # squares of a playable size
        for (r, c), (x, y) in centres.items():
            # column c at x = a1's + c steps, row r at y = a1's + r steps: square squares
            assert abs(x - (centres[(0, 0)][0] + c * step)) < 1, (key, r, c)
            assert abs(y - (centres[(0, 0)][1] + r * step)) < 1, (key, r, c)
        # the board sits inside its drawing's plot area, centred like plotly's equal axes
        svg = page.locator(f"{board} .game-board svg").bounding_box()
        left = centres[(0, 0)][0] - step / 2 - svg["x"]
        right = svg["x"] + svg["width"] - (centres[(0, cols - 1)][0] + step / 2)
        assert left > 0 and right > 0, (key, left, right)


def test_a_click_between_squares_plays_the_nearer_square(page):
    # as on the plotly board (the closest point): a click on the grid line is not lost
    open_page(page, "othello?size=6&white=alphabeta:depth=1")
    box = board_target(page, BOARD.format(nonce=0), (1, 2)).bounding_box()  # c2's target
    x, y = box["x"] - 1, box["y"] + box["height"] / 2  # just left of it, in the gap to b2
    assert page.evaluate("([x, y]) => !document.elementFromPoint(x, y).closest('.target')", [x, y])
    page.mouse.click(x, y)
    page.get_by_text("Black 3 – 3 White").first.wait_for(timeout=60_000)  # c2, answered
    wait_idle(page)
    assert [1, 2] in _discs(page)["black"]


# The most game boards (click-target sets) the page ever held at once, from now on
# (window.__boards), and how far down the page the status line ever moved (window.__statusTop).
COUNT_BOARDS = """() => {
    window.__boards = 0;
    const count = () => {
        const boards = document.querySelectorAll('[class*="st-key-othello_board_"] .game-board');
        window.__boards = Math.max(window.__boards, boards.length);
    };
    count();
    new MutationObserver(count).observe(document.body, {childList: true, subtree: true});
}"""


def test_one_board_on_the_page_while_the_ai_thinks(page):
    """Issue: while the AI thought, a faded copy of the previous board sat under the live
    one (for the whole search of a slow AI, a flash with the default one)."""
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "othello?white=mcts:sims=20000,time=5")
    page.evaluate(COUNT_BOARDS)
    _click_square(page, BOARD.format(nonce=0), 2, 3)  # d3
    page.get_by_text("is thinking").first.wait_for(timeout=60_000)
    page.wait_for_timeout(1_000)
    during = page.locator('[class*="st-key-othello_board_"] .game-board').count()
    page.get_by_text("Black 3 – 3 White").first.wait_for(timeout=60_000)  # the AI replied
    wait_idle(page)
    assert during == 1
    assert page.evaluate("() => window.__boards") == 1
    # the default AI: no flash of a second board either
    page.goto(f"{page.app_url}/othello?white=alphabeta:depth=3")
    page.wait_for_selector('[data-testid="stMain"] h1', timeout=60_000)
    wait_idle(page)
    page.get_by_role("button", name="New game").click()
    page.get_by_text("Black 2 – 2 White").first.wait_for(timeout=60_000)
    wait_idle(page)
    page.evaluate(COUNT_BOARDS)
    _click_square(page, '[class*="st-key-othello_board_"]', 2, 3)
    page.get_by_text("Black 3 – 3 White").first.wait_for(timeout=60_000)
    wait_idle(page)
    assert page.evaluate("() => window.__boards") == 1


def test_the_search_stats_labels_are_not_cut_on_a_1024_projector(page):
    """Issue: the metric label "Depth completed" was cut to "Depth complet…" at 1024 px."""
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "othello?size=6&black=alphabeta:depth=2&white=human")
    page.get_by_text("Nodes").first.wait_for(timeout=60_000)  # the AI moved
    wait_idle(page)
    page.wait_for_timeout(500)
    assert cut_texts(page) == []
    # (cut_texts allows a pixel: "Depth completed" was cut by exactly one)
    cut = page.evaluate(
        """() => Array.from(document.querySelectorAll('[data-testid="stMetricLabel"] *'))
            .filter((el) => el.textContent.trim() && el.scrollWidth > el.clientWidth)
            .map((el) => el.textContent.trim())"""
    )
    assert cut == []
