"""The "doing" views on a projector, in a real browser, with and without the presentation
view: once a view's top is scrolled to the top of the window, its controls, its picture and
the picture's caption are all in the window together, and no text written in the picture
covers another (the bounding boxes of its labels). The race: two racers side by side at
1024x768, four in a 2x2 grid at 1400x900, each map with its counters."""

from __future__ import annotations

import numpy as np
import pytest

from lib.routes import edits, graphs
from lib.ui import routes_common
from lib.ui.components.route_player import PRESENT_PLACE_FONT
from tests.e2e.conftest import WAIT_MS, open_page, wait_idle

PROJECTOR = {"width": 1024, "height": 768}
WIDE = {"width": 1400, "height": 900}
MODES = {"sidebar": "", "presentation": "present=1"}

RACE = f'.st-key-{routes_common.RACE_KEY}:not([data-stale="true"]) .route-race'
PLAYER = '.st-key-rt_animation:not([data-stale="true"]) .route-player'

#: Scroll ``root`` to the window's top; then the boxes (window px) of the elements that
#: each selector names inside it, and the window's size.
BOXES = """(root, selectors) => {
    root.scrollIntoView({block: 'start'});
    const box = (el) => {
        const b = el.getBoundingClientRect();
        return {top: b.top, bottom: b.bottom, left: b.left, right: b.right,
                width: b.width, height: b.height};
    };
    const out = {window: [window.innerWidth, window.innerHeight]};
    for (const selector of selectors) {
        out[selector] = [...root.querySelectorAll(selector)].map(box);
    }
    return out;
}"""

#: The boxes of the texts written on each map canvas inside ``root`` (canvas px).
LABEL_BOXES = """(root) => [...root.querySelectorAll('.stage')].map((stage) => {
    const player = stage.closest('.racer, .route-player');
    return {boxes: player.labelBoxes(), skipped: player.skippedLabels(),
            width: stage.clientWidth, height: stage.clientHeight};
})"""


def _open(page, size: dict, path: str, mode: str) -> None:
    page.set_viewport_size(size)
    query = "&".join(part for part in (path.partition("?")[2], MODES[mode]) if part)
    open_page(page, f"{path.partition('?')[0]}?{query}")


def _in_window(box: dict, window: list[int]) -> bool:
    width, height = window
    return (
        box["top"] >= -0.5
        and box["bottom"] <= height + 0.5
        and box["left"] >= -0.5
        and box["right"] <= width + 0.5
    )


def _overlapping(boxes: list[dict]) -> list[tuple[str, str]]:
    """Pairs of boxes (by their text) that cover each other by more than a pixel."""
    pairs = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            wide = min(a["right"], b["right"]) - max(a["left"], b["left"])
            tall = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            if wide > 1 and tall > 1:
                pairs.append((a["text"], b["text"]))
    return pairs


def _labels_apart(root) -> list[dict]:
    """Each map's written texts: none covers another, all inside the map; the maps' texts."""
    maps = root.evaluate(LABEL_BOXES)
    for drawn in maps:
        assert drawn["boxes"], drawn  # the names are written
        assert _overlapping(drawn["boxes"]) == []
        for box in drawn["boxes"]:
            assert box["left"] >= 0 and box["right"] <= drawn["width"] + 0.5, box
            assert box["top"] >= 0 and box["bottom"] <= drawn["height"] + 0.5, box
    return maps


def _race(page):
    board = page.locator(RACE).first
    board.locator(".racer canvas.search").first.wait_for(timeout=2 * WAIT_MS)
    wait_idle(page)
    page.wait_for_function(
        "(root) => [...root.querySelectorAll('.racer')].every((r) => r.labelBoxes)",
        arg=board.element_handle(),
    )
    return board


@pytest.mark.parametrize("mode", list(MODES))
def test_two_racers_side_by_side_on_one_1024x768_screen(page, mode):
    _open(page, PROJECTOR, "routes?race=A*|Uniform-cost", mode)
    board = _race(page)
    boxes = board.evaluate(
        BOXES, [".controls", ".racer canvas.search", ".racer .counter", ".racer .head"]
    )
    maps, counters = boxes[".racer canvas.search"], boxes[".racer .counter"]
    assert len(maps) == 2 and len(counters) == 2
    for box in [*boxes[".controls"], *maps, *counters, *boxes[".racer .head"]]:
        assert _in_window(box, boxes["window"]), (box, boxes["window"])
    left, right = maps
    assert abs(left["top"] - right["top"]) < 1 and left["right"] <= right["left"]  # a row
    for drawn in _labels_apart(board):
        if mode == "presentation":  # names in the presentation view's size
            assert all(b["bottom"] - b["top"] >= PRESENT_PLACE_FONT for b in drawn["boxes"])


@pytest.mark.parametrize("mode", list(MODES))
def test_four_racers_in_a_2x2_grid_on_one_1400x900_screen(page, mode):
    _open(page, WIDE, "routes?race=A*|Uniform-cost|Greedy+best-first|BFS", mode)
    board = _race(page)
    boxes = board.evaluate(BOXES, [".controls", ".racer canvas.search", ".racer .counter"])
    maps = boxes[".racer canvas.search"]
    assert len(maps) == 4 and len(boxes[".racer .counter"]) == 4
    for box in [*boxes[".controls"], *maps, *boxes[".racer .counter"]]:
        assert _in_window(box, boxes["window"]), (box, boxes["window"])
    assert len({round(m["left"]) for m in maps}) == 2  # two columns
    assert len({round(m["top"]) for m in maps}) == 2  # two rows
    assert min(m["width"] for m in maps) >= 400
    _labels_apart(board)
    # every racer's counter under its own map
    for shown, counter in zip(maps, boxes[".racer .counter"], strict=True):
        assert shown["bottom"] <= counter["top"] + 0.5 and counter["top"] - shown["bottom"] < 40


@pytest.mark.parametrize("mode", list(MODES))
def test_watch_it_search_gets_the_width_and_every_name_at_1024x768(page, mode):
    _open(page, PROJECTOR, "routes", mode)
    player = page.locator(PLAYER).first
    player.locator(".code pre.source .row").first.wait_for(timeout=2 * WAIT_MS)
    wait_idle(page)
    page.wait_for_function("(root) => !!root.labelBoxes", arg=player.element_handle())
    boxes = player.evaluate(BOXES, [".label", "canvas.search", ".controls", ".code-title"])
    for selector in (".label", "canvas.search", ".controls"):
        (box,) = boxes[selector]
        assert _in_window(box, boxes["window"]), (selector, box, boxes["window"])
    (shown,) = boxes["canvas.search"]
    assert shown["width"] >= 600  # the map takes the width; the code goes under it
    assert boxes[".code-title"][0]["top"] >= shown["bottom"]
    (drawn,) = _labels_apart(player)
    G = graphs.romania()
    # every name is written; a road's length only where it covers no name (one or two left
    # out, in the crowd round Pitesti)
    assert all(text.isdigit() for text in drawn["skipped"]), drawn["skipped"]
    assert len(drawn["skipped"]) <= 2
    assert len(drawn["boxes"]) == G.number_of_nodes() + G.number_of_edges() - len(drawn["skipped"])
    # the code wraps only between words: no token is broken across two lines
    broken = player.evaluate(
        """(root) => [...root.querySelectorAll('.code .row .text span')]
            .filter((s) => !/\\s/.test(s.textContent) && s.getClientRects().length > 1)
            .map((s) => s.textContent)"""
    )
    assert broken == []
    if mode == "presentation":
        size = player.evaluate(
            "(root) => parseFloat(getComputedStyle(root.querySelector('pre.source')).fontSize)"
        )
        assert size >= 16


#: Scroll so that the element ``status`` names starts right under the sticky step bar
#: ``bar``; then the boxes (window px) of the named elements (the first current one each).
UNDER_BAR = """([bar, names]) => {
    const current = (selector) => [...document.querySelectorAll(selector)].find(
        (el) => !el.closest('[data-stale="true"]') && el.getBoundingClientRect().height > 0);
    const status = current(names[0]);
    status.scrollIntoView({block: 'start'});
    const below = current(bar).getBoundingClientRect().bottom;
    window.scrollBy(0, status.getBoundingClientRect().top - below);
    const main = document.querySelector('[data-testid="stMain"]');
    if (main) main.scrollBy(0, status.getBoundingClientRect().top - below);
    const out = {window: [window.innerWidth, window.innerHeight]};
    for (const selector of [bar, ...names]) {
        const b = current(selector).getBoundingClientRect();
        out[selector] = {top: b.top, bottom: b.bottom, left: b.left, right: b.right};
    }
    return out;
}"""

#: The boxes of the texts of the first current plotly chart under ``selector`` (window px).
CHART_TEXTS = """(selector) => {
    const chart = [...document.querySelectorAll(selector)].find(
        (el) => !el.closest('[data-stale="true"]'));
    return [...chart.querySelectorAll('.scatterlayer text')]
        .filter((t) => t.textContent.trim())
        .map((t) => {
            const b = t.getBoundingClientRect();
            return {text: t.textContent, left: b.left, right: b.right, top: b.top,
                    bottom: b.bottom, size: parseFloat(getComputedStyle(t).fontSize)};
        });
}"""


def _one_screen(page, bar: str, names: list[str]) -> dict:
    boxes = page.evaluate(UNDER_BAR, [bar, names])
    for selector in (bar, *names):
        assert _in_window(boxes[selector], boxes["window"]), (selector, boxes)
    return boxes


@pytest.mark.parametrize("mode", list(MODES))
def test_the_step_through_s_controls_stay_on_the_screen_of_the_tree(page, mode):
    """The step bar sticks under the window's top while the text, the tree and the code are
    scrolled into view under it; no label of the tree covers another."""
    _open(page, PROJECTOR, "tictactoe?step=12", mode)
    page.get_by_role("tab", name="Step through").click()
    key = "tictactoe"
    page.locator(f".st-key-{key}_step_status").first.wait_for(timeout=2 * WAIT_MS)
    page.locator(f".st-key-{key}_step_tree .scatterlayer text").first.wait_for(timeout=WAIT_MS)
    wait_idle(page)
    _one_screen(
        page,
        f".st-key-{key}_step_bar",
        [
            f".st-key-{key}_step_status",
            f".st-key-{key}_step_tree_box",
            f".st-key-{key}_step_code .code-view",
            f".st-key-{key}_step_w_next button",
            f'.st-key-{key}_step_w_step [data-testid="stSlider"]',
        ],
    )
    texts = page.evaluate(CHART_TEXTS, f".st-key-{key}_step_tree")
    assert texts and _overlapping(texts) == []
    # the slider's keyboard moves the step with the tree in view
    page.locator(f".st-key-{key}_step_w_step input[type=range]").first.focus()
    page.keyboard.press("ArrowRight")
    page.locator(f".st-key-{key}_step_status").get_by_text("Step 13 of").first.wait_for(
        timeout=WAIT_MS
    )


@pytest.mark.parametrize("step", [40, 211])
def test_a_checkers_tree_s_labels_are_apart_the_wide_tree_scrolls_to_its_newest_nodes(page, step):
    _open(page, PROJECTOR, f"checkers?step={step}", "sidebar")
    page.get_by_role("tab", name="Step through").click()
    key = "checkers"
    tree = f".st-key-{key}_step_tree"
    page.locator(f"{tree} .scatterlayer text").first.wait_for(timeout=2 * WAIT_MS)
    wait_idle(page)
    page.locator(f".st-key-{key}_step_status").get_by_text(f"Step {step} of").first.wait_for()
    texts = page.evaluate(CHART_TEXTS, tree)
    assert len(texts) >= 8 and _overlapping(texts) == []
    assert min(t["size"] for t in texts) >= 14  # room made, no text made smaller
    # the current node's ring is inside the tree's box as it opens (scrolled to the right end)
    ring, box = page.evaluate(
        """(key) => {
            const box = document.querySelector(`.st-key-${key}_step_tree_box`);
            const traces = box.querySelectorAll('.scatterlayer .trace');
            const ring = traces[traces.length - 1].querySelector('.point');
            const r = ring.getBoundingClientRect(), b = box.getBoundingClientRect();
            return [[r.left, r.right], [b.left, b.right]];
        }""",
        key,
    )
    assert box[0] - 0.5 <= ring[0] and ring[1] <= box[1] + 0.5, (ring, box)


@pytest.mark.parametrize("mode", list(MODES))
def test_the_mcts_steps_controls_tree_and_caption_on_one_screen(page, mode):
    _open(page, PROJECTOR, "tictactoe?mcts_step=9", mode)
    page.get_by_role("tab", name="MCTS steps").click()
    key = "tictactoe"
    tree = f".st-key-{key}_mcts_tree"
    page.locator(f"{tree} .scatterlayer text").first.wait_for(timeout=2 * WAIT_MS)
    wait_idle(page)
    _one_screen(
        page,
        f".st-key-{key}_mcts_step_bar",
        [f".st-key-{key}_mcts_status", f"{tree} .js-plotly-plot"],
    )
    texts = page.evaluate(CHART_TEXTS, tree)
    assert texts and _overlapping(texts) == []
    least = 20 if mode == "presentation" else 15
    assert min(t["size"] for t in texts) >= least


def test_a_grid_s_costs_are_written_on_cells_large_enough_and_not_on_small_ones(page):
    terrain = np.ones((6, 8), np.uint8)
    terrain[2, 1:4], terrain[4, 5] = 3, 10
    link = edits.encode_terrain(np.ones((6, 8), np.uint8), terrain)
    grid = "routes?source=Grid+with+obstacles&obstacles=0&seed=1&algos=A*"
    _open(page, PROJECTOR, f"{grid}&rows=6&cols=8&edits={link}", "sidebar")
    player = page.locator(PLAYER).first
    player.locator("canvas.search").wait_for(timeout=2 * WAIT_MS)
    wait_idle(page)
    page.wait_for_function("(root) => root.dataset.costLabels === '4'", arg=player.element_handle())
    # a 60x80 grid's cells are too small to hold a number: the shade alone tells the cost
    big = np.ones((60, 80), np.uint8)
    big[10, 10:20] = 10
    link = edits.encode_terrain(np.ones((60, 80), np.uint8), big)
    open_page(page, f"{grid}&rows=60&cols=80&edits={link}")
    player = page.locator(PLAYER).first
    player.locator("canvas.search").wait_for(timeout=2 * WAIT_MS)
    wait_idle(page)
    page.wait_for_function("(root) => root.dataset.costLabels === '0'", arg=player.element_handle())
