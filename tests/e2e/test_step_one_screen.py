"""The step-through on a 1024x768 projector with the sidebar open: once the step's text is
scrolled to the top of the window, the text, the tree and the code are all in view together,
no line of code runs out of its panel, and the line being executed is marked by a bar across
the whole panel. Checked on tic-tac-toe and Othello, at the first step, inside a node's own
function and at the last step, and with the comparison with minimax on."""

from __future__ import annotations

import re
import time

import pytest

from lib.ui.presentation import SIDEBAR_WIDTH
from tests.e2e.conftest import WAIT_MS, open_page, wait_idle, wait_rendered

PROJECTOR = {"width": 1024, "height": 768}
TAB = "Step through"

# The boxes of the step's text, the tree chart and the code panel after scrolling the text to
# the top, and how the code panel's lines sit in it (null while any is missing or stale).
LAYOUT = """(key) => {
    const current = (selector) => Array.from(document.querySelectorAll(selector)).find(
        (el) => !el.closest('[data-stale="true"]') && el.getBoundingClientRect().height > 0);
    const status = current(`.st-key-${key}_step_status`);
    // the tree's box: a tree wider than its column scrolls sideways in it
    const tree = current(`.st-key-${key}_step_tree_box`)
        || current(`.st-key-${key}_step_tree .js-plotly-plot`);
    const code = current(`.st-key-${key}_step_code .code-view`);
    if (!status || !tree || !code) return null;
    status.scrollIntoView({block: 'start'});
    const box = (el) => {
        const b = el.getBoundingClientRect();
        return {top: b.top, bottom: b.bottom, left: b.left, right: b.right, width: b.width};
    };
    const rows = Array.from(code.querySelectorAll('.cv-row'));
    const marked = code.querySelector('.cv-current');
    return {
        status: box(status), tree: box(tree), code: box(code),
        sidebar: document.querySelector('[data-testid="stSidebar"]').getBoundingClientRect().right,
        window: [window.innerWidth, window.innerHeight],
        code_scroll: [code.scrollWidth, code.clientWidth],
        rows_inside: rows.every((row) => {
            const r = row.getBoundingClientRect(), c = code.getBoundingClientRect();
            const text = row.querySelector('.cv-code');
            return r.left >= c.left - 0.5 && r.right <= c.right + 0.5
                && text.scrollWidth <= text.clientWidth + 1;
        }),
        rows: rows.length,
        marked: marked && {box: box(marked), background: getComputedStyle(marked).backgroundColor,
                           text: marked.querySelector('.cv-code').textContent.trim()},
        first: rows.length ? rows[0].querySelector('.cv-code').textContent.trim() : '',
    };
}"""


def _fits(layout: dict | None) -> bool:
    if layout is None or layout["marked"] is None:
        return False
    width, height = layout["window"]
    boxes = (layout["status"], layout["tree"], layout["code"])
    return all(
        box["top"] >= -0.5
        and box["bottom"] <= height + 0.5
        and box["left"] >= layout["sidebar"] - 0.5
        and box["right"] <= width + 0.5
        for box in boxes
    )


def one_screen(page, key: str) -> dict:
    """Scroll the step's text to the top until text, tree and code fit the window together,
    for four readings in a row a quarter second apart (the page draws in steps); the layout."""
    deadline = time.monotonic() + 2 * WAIT_MS / 1000
    held, layout = 0, None
    while time.monotonic() < deadline:
        layout = page.evaluate(LAYOUT, key)
        held = held + 1 if _fits(layout) else 0
        if held >= 4:
            return layout
        page.wait_for_timeout(250)
    raise AssertionError(f"text, tree and code of {key} are not on one screen: {layout}")


def check_code_panel(layout: dict) -> None:
    """No line of code is cut or scrolled out of sight; the marked line's bar spans the panel."""
    assert layout["sidebar"] >= SIDEBAR_WIDTH - 1  # the sidebar is open
    scroll_width, client_width = layout["code_scroll"]
    assert scroll_width <= client_width + 1, layout
    assert layout["rows_inside"] and layout["rows"] >= 5, layout
    marked, code = layout["marked"]["box"], layout["code"]
    assert marked["width"] >= code["width"] - 1 and marked["left"] <= code["left"] + 0.5, layout
    assert layout["marked"]["background"] not in ("rgba(0, 0, 0, 0)", "transparent"), layout
    assert "tracer" not in layout["marked"]["text"]


def _wait_step(page, key: str, step: int) -> None:
    page.locator(f".st-key-{key}_step_status").get_by_text(
        re.compile(rf"^Step {step:,} of ")
    ).first.wait_for(timeout=60_000)
    wait_idle(page)


def _press(page, key: str, button: str) -> None:
    page.locator(f'.st-key-{key}_step_w_{button}:not([data-stale="true"]) button').first.click()


def _open_tab(page, path: str, key: str) -> None:
    page.set_viewport_size(PROJECTOR)
    open_page(page, path)
    page.get_by_role("tab", name=TAB).click()
    wait_rendered(page, f".st-key-{key}_step_status")
    _wait_step(page, key, 1)


@pytest.mark.parametrize("key", ["tictactoe", "othello"])
def test_text_tree_and_code_share_one_projector_screen(page, key):
    _open_tab(page, key, key)
    total = int(re.search(r"Step 1 of ([\d,]+)", _status(page, key)).group(1).replace(",", ""))
    first = one_screen(page, key)
    check_code_panel(first)
    assert first["marked"]["text"].startswith("def value(")  # entering the root
    # a few steps on, a backup inside a node's own function (the longest lines)
    for step in range(2, 8):
        _press(page, key, "next")
        _wait_step(page, key, step)
    inside = one_screen(page, key)
    check_code_panel(inside)
    assert re.match(r"def (max|min)_value\(", inside["first"]), inside
    # the last step: the whole tree
    _press(page, key, "last")
    _wait_step(page, key, total)
    last = one_screen(page, key)
    check_code_panel(last)
    assert last["marked"]["text"] == "return v, best"


def _status(page, key: str) -> str:
    return page.locator(f'.st-key-{key}_step_status:not([data-stale="true"])').first.inner_text()


def test_the_comparison_keeps_the_code_readable(page):
    key = "tictactoe"
    _open_tab(page, key, key)
    page.locator(f".st-key-{key}_step_w_compare label").click()
    wait_rendered(page, f".st-key-{key}_step_compare_tree .js-plotly-plot")
    wait_idle(page)
    boxes = page.evaluate(
        """(key) => [`.st-key-${key}_step_tree .js-plotly-plot`,
                     `.st-key-${key}_step_compare_tree .js-plotly-plot`].map((selector) => {
            const el = Array.from(document.querySelectorAll(selector))
                .find((e) => !e.closest('[data-stale="true"]'));
            const b = el.getBoundingClientRect();
            return {left: b.left, right: b.right, top: b.top};
        })""",
        key,
    )
    (stepped, whole), width = boxes, PROJECTOR["width"]
    assert stepped["right"] <= whole["left"] and whole["right"] <= width + 0.5  # side by side
    assert abs(stepped["top"] - whole["top"]) < 1
    check_code_panel(page.evaluate(LAYOUT, key))
