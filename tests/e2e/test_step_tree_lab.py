"""The step-through's lab in a real browser (tic-tac-toe page): a tree typed in the text box
is stepped through, the leaf table edits it, and a prediction of alpha-beta's cut-offs and
root value is scored, and so is a guess of the move minimax chooses on the board."""

from __future__ import annotations

import re

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from lib.games import core, textbook_tree
from lib.games.search.predict import minimax_choice, root_move_values
from lib.games.search.stepthrough import StepPosition, run_step_search, value_text
from tests.e2e.conftest import open_page, wait_idle, wait_rendered

TAB = "Step through"
KEY = "tictactoe"


def _status(page) -> str:
    return page.locator(f'.st-key-{KEY}_step_status:not([data-stale="true"])').first.inner_text()


def _wait_step(page, step: int, total: int | None = None) -> None:
    of = f"{total:,}\\b" if total is not None else ""
    page.locator(f".st-key-{KEY}_step_status").get_by_text(
        re.compile(rf"^Step {step:,} of {of}")
    ).first.wait_for(timeout=60_000)
    wait_idle(page)


def _choose(page, select_key: str, option_name: str) -> None:
    """Pick ``option_name`` in a select box (reopened if a rerun swallowed the click)."""
    option = page.get_by_role("option", name=option_name, exact=True)
    for _ in range(3):
        wait_idle(page)
        page.locator(f".st-key-{select_key} input").click()
        try:
            option.wait_for(timeout=10_000)
            break
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
    option.click()


def _open_own_tree(page) -> None:
    open_page(page, KEY)
    page.get_by_role("tab", name=TAB).click()
    wait_rendered(page, f".st-key-{KEY}_step_status")
    _wait_step(page, 1)
    _choose(page, f"{KEY}_step_w_position", "Your own tree")
    wait_rendered(page, f".st-key-{KEY}_step_w_tree textarea")
    wait_idle(page)


def _steps(text: str) -> int:
    """The steps of alpha-beta on the tree ``text`` (what the page should count)."""
    state = textbook_tree.tree_from_text(text)
    position = StepPosition(
        "tree",
        state,
        textbook_tree.leaf_value,
        textbook_tree.format_move,
        depth=textbook_tree.height(state.tree),
        abstract=True,
    )
    return run_step_search(position).steps


# The leaf table's scroll offset once it is at least ``least`` pixels, else null.
SCROLLER = """([key, least]) => {
    const box = document.querySelector(`[class*='st-key-${key}_step_tree_table'] .dvn-scroller`);
    return box && box.scrollTop >= least ? box.scrollTop : null;
}"""


def _grid(page):
    grid = page.locator(
        f"[class*='st-key-{KEY}_step_tree_table'] [data-testid='stDataFrameResizable']"
    ).first
    grid.scroll_into_view_if_needed()
    return grid


def _type_in_cell(page, cell, value: str) -> None:
    """Type ``value`` into the table cell at ``cell(box)`` (page coordinates from the grid's
    bounding box), then Enter."""
    # the grid is a canvas: a double click on a cell opens its editor; a click landing
    # while the grid is still drawn, or after a rerun scrolled the page, is tried again
    # with the grid brought back into view and measured again
    editor = page.locator(".gdg-input")  # an input (numbers) or a textarea (text)
    for _ in range(3):
        page.mouse.dblclick(*cell(_grid(page).bounding_box()))
        try:
            editor.wait_for(timeout=10_000)
            break
        except PlaywrightTimeout:
            continue
    editor.fill(value)
    editor.press("Enter")


def _wait_text(page, text: str) -> None:
    page.wait_for_function(
        """([selector, text]) => document.querySelector(selector).value === text""",
        arg=[f".st-key-{KEY}_step_w_tree textarea", text],
        timeout=60_000,
    )
    wait_idle(page)


def test_the_leaf_table_edits_the_tree(page):
    _open_own_tree(page)
    # a value typed in row "L M" (header and rows 35 px high) rewrites the text
    _type_in_cell(page, lambda box: (box["x"] + box["width"] * 0.75, box["y"] + 35 * 2 + 17), "7")
    _wait_text(page, "[[3, 7, 8], [2, 4, 6], [14, 5, 2]]")
    # a new row, its path typed (its value is 0 until typed): a fourth child of R
    grid = _grid(page)
    grid.hover()
    scrolled = page.evaluate(SCROLLER, [KEY, 0])
    page.get_by_role("button", name="Add row").first.click()
    # the grid grows a row and scrolls down to it: it is then the last row in view
    page.wait_for_function(SCROLLER, arg=[KEY, scrolled + 1], timeout=60_000)
    wait_idle(page)
    _type_in_cell(
        page, lambda box: (box["x"] + box["width"] * 0.4, box["y"] + box["height"] - 17), "R c3"
    )
    _wait_text(page, "[[3, 7, 8], [2, 4, 6], [14, 5, 2, 0]]")
    total = _steps("[[3, 7, 8], [2, 4, 6], [14, 5, 2, 0]]")
    _wait_step(page, 1, total)


def test_a_typed_tree_is_stepped_through(page):
    _open_own_tree(page)
    box = page.locator(f".st-key-{KEY}_step_w_tree textarea")
    assert box.input_value() == "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"
    _wait_step(page, 1, _steps(box.input_value()))
    text = "[[5, 1], [4, [9, 7]]]"
    box.fill(text)
    box.press("Control+Enter")
    total = _steps(text)
    _wait_step(page, 1, total)
    assert "Enter MAX node root" in _status(page)
    page.locator(f".st-key-{KEY}_step_w_next button").click()
    _wait_step(page, 2, total)
    assert "Enter MIN node L" in _status(page)
    page.locator(f".st-key-{KEY}_step_w_last button").click()
    _wait_step(page, total, total)
    assert re.search(r"value 4, best move M", _status(page)), _status(page)
    # a bad tree: the message names the place, the text stays, the last tree is still searched
    box.fill("[[5, 1], [4, [9, x]]]")
    box.press("Control+Enter")
    error = page.locator('[data-testid="stAlert"]').filter(has_text="character 18")
    error.first.wait_for(timeout=60_000)
    wait_idle(page)
    assert box.input_value() == "[[5, 1], [4, [9, x]]]"
    assert re.search(rf"Step [\d,]+ of {total:,}\b", _status(page))


def test_a_prediction_is_scored(page):
    _open_own_tree(page)
    predict = page.locator(f'.st-key-{KEY}_step_predict:not([data-stale="true"])').first
    predict.get_by_text("Predict, then reveal").first.wait_for(timeout=60_000)
    cuts = page.locator(f".st-key-{KEY}_step_w_predict_cuts input")
    for name in ("M→M M", "M→M R"):
        cuts.click()
        cuts.fill(name)
        page.get_by_role("option", name=name, exact=True).click()
        wait_idle(page)
    page.keyboard.press("Escape")
    value = page.locator(f".st-key-{KEY}_step_w_predict_value input")
    value.fill("3")
    value.press("Enter")
    wait_idle(page)
    page.locator(f".st-key-{KEY}_step_w_reveal button").click()
    predict.get_by_text("Full marks!").first.wait_for(timeout=60_000)
    total = _steps("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
    _wait_step(page, total, total)  # jumped to the last step: the cuts are drawn
    said = predict.inner_text()
    assert "Skipped branches right: M→M M, M→M R" in said and "missed: none" in said
    assert "Root value: you said 3, right." in said
    # a wrong guess after going back to the first step: what was missed is listed
    page.locator(f".st-key-{KEY}_step_w_first button").click()
    _wait_step(page, 1, total)
    cuts.click()
    for _ in range(2):  # take both branches out of the guess
        cuts.press("Backspace")
    page.keyboard.press("Escape")
    wait_idle(page)
    value.fill("12")
    value.press("Enter")
    wait_idle(page)
    page.locator(f".st-key-{KEY}_step_w_reveal button").click()
    predict.get_by_text("0 of 3 marks").first.wait_for(timeout=60_000)
    said = predict.inner_text()
    assert "missed: M→M M, M→M R" in said and "you said 12, wrong: it is 3." in said


def test_the_move_minimax_chooses_is_predicted(page):
    game = core.get_game(KEY)
    values = root_move_values(
        game.initial_state(), 3, game.heuristics[game.default_heuristic].bind()
    )
    chosen = game.format_move(minimax_choice(values))
    open_page(page, KEY)
    page.get_by_role("tab", name=TAB).click()
    wait_rendered(page, f".st-key-{KEY}_step_predict")
    _wait_step(page, 1)
    _choose(page, f"{KEY}_step_w_predict_move", "a1")
    wait_idle(page)
    page.locator(f".st-key-{KEY}_step_w_reveal_move button").click()
    predict = page.locator(f'.st-key-{KEY}_step_predict:not([data-stale="true"])').first
    predict.get_by_text(f"minimax chooses {chosen}").first.wait_for(timeout=60_000)
    wait_idle(page)
    verdict = (
        "Right"
        if values[game.parse_move("a1", game.initial_state())] == max(values.values())
        else "Wrong"
    )
    said = predict.inner_text()
    assert said.startswith(f"{verdict}:"), said
    assert f"minimax chooses {chosen} ({value_text(max(values.values()))})" in said
    # the table of every move's value (a canvas: its cells are not text)
    predict.locator('[data-testid="stDataFrame"]').first.wait_for(timeout=60_000)
    assert re.search(r"Step ([\d,]+) of \1\b", _status(page))  # jumped to the last step
