"""The step-through's current node stays in view: on Connect Four at 1400x900, opened from a
link at an early step (the tree a tall chain) and scrolled to its tabs, the ringed node is in
the window together with the code."""

from __future__ import annotations

from tests.e2e.conftest import open_page, wait_idle, wait_rendered

WIDE = {"width": 1400, "height": 900}

# The ringed node's centre on the screen and the code panel's box (null while not drawn).
RING = """(key) => {
    const fresh = (selector) => Array.from(document.querySelectorAll(selector)).find(
        (el) => !el.closest('[data-stale="true"]') && el.getBoundingClientRect().height > 0);
    const plot = fresh(`.st-key-${key}_step_tree .js-plotly-plot`);
    const code = fresh(`.st-key-${key}_step_code .code-view`);
    if (!plot || !code || !plot._fullLayout) return null;
    const ring = plot._fullData.find((trace) => trace.name === 'current node');
    const size = plot._fullLayout._size, box = plot.getBoundingClientRect();
    return {
        y: box.top + size.t + plot._fullLayout.yaxis.l2p(ring.y[0]),
        x: box.left + size.l + plot._fullLayout.xaxis.l2p(ring.x[0]),
        code_top: code.getBoundingClientRect().top,
        window: [window.innerWidth, window.innerHeight],
    };
}"""


def test_the_ringed_node_is_in_view_with_the_code_at_an_early_step(page):
    key = "connect_four"
    page.set_viewport_size(WIDE)
    open_page(page, f"{key}?step_depth=3&step=4")
    page.locator(f".st-key-{key}_step_status").get_by_text("Step 4 of ").first.wait_for(
        timeout=60_000
    )
    wait_rendered(page, f".st-key-{key}_step_tree .js-plotly-plot")
    wait_idle(page)
    # the tabs at the top of the window, as a visitor who has just opened the tab sees it
    page.evaluate("() => document.querySelector('[role=tablist]').scrollIntoView(true)")
    page.wait_for_timeout(300)
    ring = page.evaluate(RING, key)
    assert ring is not None
    width, height = ring["window"]
    assert 0 <= ring["code_top"] < height  # the code is in view...
    assert ring["y"] + 16 <= height and 0 <= ring["x"] <= width, ring  # ...and so is the ring


# Each comparison chart: its title's box, the plot area's box and every node's x in pixels.
CHARTS = """(key) => [`${key}_step_tree`, `${key}_step_compare_tree`].map((name) => {
    const plot = Array.from(document.querySelectorAll(`.st-key-${name} .js-plotly-plot`))
        .find((el) => !el.closest('[data-stale="true"]'));
    if (!plot || !plot._fullLayout) return null;
    const box = plot.getBoundingClientRect(), size = plot._fullLayout._size;
    const title = plot.querySelector('.gtitle').getBoundingClientRect();
    const nodes = plot._fullData.find((trace) => trace.name === 'nodes');
    const texts = Array.from(plot.querySelectorAll('.textpoint text'))
        .map((t) => t.getBoundingClientRect()).filter((b) => b.width > 0);
    return {
        left: box.left, right: box.right,
        title: [title.left, title.right],
        xs: nodes.x.map((x) => box.left + size.l + plot._fullLayout.xaxis.l2p(x)),
        texts: texts.map((b) => [b.left, b.right]),
    };
})"""


def test_the_compared_trees_and_their_titles_fit_their_boxes_at_1024(page):
    key = "connect_four"
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, f"{key}?step_depth=4&step_order=1&step_compare=1&step=6")
    page.locator(f".st-key-{key}_step_status").get_by_text("Step 6 of ").first.wait_for(
        timeout=60_000
    )
    wait_rendered(page, f".st-key-{key}_step_compare_tree .js-plotly-plot")
    wait_idle(page)
    charts = page.evaluate(CHARTS, key)
    assert all(chart is not None for chart in charts)
    for chart in charts:
        left, right = chart["left"] - 0.5, chart["right"] + 0.5
        assert left <= chart["title"][0] and chart["title"][1] <= right, chart["title"]
        assert all(left <= x <= right for x in chart["xs"])
        assert all(left <= a and b <= right for a, b in chart["texts"]), chart["texts"]
