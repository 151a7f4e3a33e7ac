"""Step through an alpha-beta search in a real browser, on Othello and tic-tac-toe: the
marked line of code and the α/β window change with the step, the counts at the last step
equal the search statistics, and Play advances the steps until Pause stops them."""

from __future__ import annotations

import re
import time

from tests.e2e.conftest import choose_option, open_page, wait_idle, wait_rendered

TAB = "Step through"


def _status(page, key: str) -> str:
    box = page.locator(f'.st-key-{key}_step_status:not([data-stale="true"])').first
    return box.inner_text()


def _step(page, key: str) -> int:
    return int(re.search(r"Step ([\d,]+) of", _status(page, key)).group(1).replace(",", ""))


def _marked_line(page, key: str) -> str:
    box = page.locator(f'.st-key-{key}_step_code:not([data-stale="true"])')
    box.first.locator(".cv-current").wait_for(timeout=30_000)  # drawn after the status
    marked = box.first.locator(".cv-current .cv-code")
    assert marked.count() == 1
    return marked.inner_text().strip()


def _window(page, key: str) -> str:
    return re.search(r"Window at this node: (α=\S+ β=\S+)", _status(page, key)).group(1)


def _wait_step(page, key: str, step: int) -> None:
    page.locator(f".st-key-{key}_step_status").get_by_text(
        re.compile(rf"^Step {step:,} of ")
    ).first.wait_for(timeout=60_000)
    wait_idle(page)


def _open_tab(page, path: str, key: str) -> None:
    open_page(page, path)
    page.get_by_role("tab", name=TAB).click()
    wait_rendered(page, f".st-key-{key}_step_status")
    _wait_step(page, key, 1)


def _step_through(page, key: str, steps: int) -> tuple[set[str], set[str]]:
    """Press Next ``steps`` times; the marked lines and windows seen on the way."""
    lines, windows = {_marked_line(page, key)}, {_window(page, key)}
    for step in range(2, steps + 2):
        page.locator(f".st-key-{key}_step_w_next button").click()
        _wait_step(page, key, step)
        lines.add(_marked_line(page, key))
        windows.add(_window(page, key))
    return lines, windows


def _last_step_counts(page, key: str) -> None:
    page.locator(f".st-key-{key}_step_w_last button").click()
    status = _status(page, key)
    total = int(re.search(r"Step [\d,]+ of ([\d,]+)", status).group(1).replace(",", ""))
    _wait_step(page, key, total)
    status = _status(page, key)
    cutoffs = int(re.search(r"· (\d+) cut-offs?\n", status + "\n").group(1))
    visited = int(re.search(r"visited ([\d,]+) of minimax", status).group(1).replace(",", ""))
    stats = re.search(
        r"Search statistics \(Alpha-beta[^)]*\): ([\d,]+) nodes, ([\d,]+) cut-offs", status
    )
    assert stats, status
    assert (visited, cutoffs) == (int(stats.group(1).replace(",", "")), int(stats.group(2)))
    assert cutoffs > 0
    assert _marked_line(page, key) == "return v, best"


def test_step_through_alpha_beta_on_othello(page):
    _open_tab(page, "othello", "othello")
    assert "Alpha-beta" in _status(page, "othello")
    assert _marked_line(page, "othello") == "def value(state, ply, alpha, beta, move):"
    assert _window(page, "othello") == "α=−∞ β=+∞"
    lines, windows = _step_through(page, "othello", 12)
    assert len(lines) >= 3 and len(windows) >= 2
    # the small board of the current node and the tree are drawn
    assert page.locator(".st-key-othello_step_board .js-plotly-plot").count() >= 1
    assert page.locator(".st-key-othello_step_tree .js-plotly-plot").count() >= 1
    _last_step_counts(page, "othello")


def test_step_through_alpha_beta_on_tic_tac_toe_and_play_pause(page):
    _open_tab(page, "tictactoe", "tictactoe")
    option = page.get_by_role("option", name="Six squares left, O to move (X wins)")
    choose_option(page, ".st-key-tictactoe_step_w_position input", option)
    # depth 3 from this position: a search of its own (not the empty board's 634 steps)
    page.locator(".st-key-tictactoe_step_status").get_by_text(
        re.compile(r"^Step 1 of (?!634\b)")
    ).first.wait_for(timeout=60_000)
    wait_idle(page)
    lines, windows = _step_through(page, "tictactoe", 10)
    assert len(lines) >= 3 and len(windows) >= 2
    # the slider moves the step too (keyboard on its range input)
    slider = page.locator('.st-key-tictactoe_step_w_step input[type="range"]')
    slider.focus()
    page.keyboard.press("ArrowRight")
    _wait_step(page, "tictactoe", 12)
    _last_step_counts(page, "tictactoe")
    # Play from the start advances by itself; Pause stops it
    page.locator(".st-key-tictactoe_step_w_first button").click()
    _wait_step(page, "tictactoe", 1)
    page.locator(".st-key-tictactoe_step_w_play button").click()
    page.locator(".st-key-tictactoe_step_status").get_by_text(
        re.compile(r"^Step [3-9] of ")
    ).first.wait_for(timeout=30_000)
    page.locator(".st-key-tictactoe_step_w_play button").get_by_text("Pause", exact=True).click()
    page.locator(".st-key-tictactoe_step_w_play button").get_by_text("Play", exact=True).wait_for()
    wait_idle(page)
    paused = _step(page, "tictactoe")
    time.sleep(2.5)  # three ticks of the timer, had it kept running
    wait_idle(page)
    assert _step(page, "tictactoe") == paused
