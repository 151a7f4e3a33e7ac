"""The route page's "You be the algorithm" section in a real browser: clicks on the tree."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.conftest import open_page, wait_idle, wait_rendered

QUIZ = '[data-testid="stMain"]'

# The page position of the node ``place`` on the plotly chart under ``selector`` (its axes'
# l2p and offsets), or null while the chart is being drawn.
NODE_AT = """([selector, place]) => {
    const gd = Array.from(document.querySelectorAll(selector + ' .js-plotly-plot')).find(
        (el) => !el.closest('[data-stale="true"]'));
    if (!gd || !gd._fullLayout || !gd._fullLayout.xaxis) return null;
    const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
    for (const trace of gd.data) {
        const index = (trace.customdata || []).findIndex((c) => c[0] === place);
        if (index >= 0 && trace.mode && trace.mode.includes('markers')) {
            const box = gd.getBoundingClientRect();
            return {x: box.left + xa._offset + xa.l2p(trace.x[index]),
                    y: box.top + ya._offset + ya.l2p(trace.y[index])};
        }
    }
    return null;
}"""


def _click_node(page, selector: str, place: str) -> None:
    wait_rendered(page, selector)
    page.locator(selector).first.scroll_into_view_if_needed()
    point = page.wait_for_function(NODE_AT, arg=[selector, place], timeout=60_000).json_value()
    page.mouse.move(point["x"], point["y"])
    page.mouse.click(point["x"], point["y"])


def test_a_be_the_algorithm_round_on_romania_scores_a_wrong_click(page):
    open_page(page, "routes")
    page.locator(".st-key-rt_w_quiz_open summary").first.click()
    main = page.locator(QUIZ)
    main.get_by_text("Question 1 of 6").wait_for(timeout=60_000)
    wait_idle(page)
    _click_node(page, ".st-key-rt_w_quiz_tree_0_0", "Arad")  # the start, alone on the frontier
    main.get_by_text("Question 2 of 6").wait_for(timeout=60_000)
    wait_idle(page)
    assert main.get_by_text("Score: 1 / 1").is_visible()
    _click_node(page, ".st-key-rt_w_quiz_tree_1_0", "Zerind")  # A* expands Sibiu
    main.get_by_text("Question 3 of 6").wait_for(timeout=60_000)
    wait_idle(page)
    assert main.get_by_text("Score: 1 / 2").is_visible()
    verdict = main.locator('[data-testid="stAlertContentError"]').first.inner_text()
    assert verdict.startswith("Wrong. You chose Zerind (f = g + h = 75 + ")
    assert "A* expands Sibiu: f = g + h = 140 + " in verdict
    _click_node(page, ".st-key-rt_w_quiz_tree_2_0", "Arad")  # explored: not an answer
    main.get_by_text("Arad is not on the frontier: click an orange place.").wait_for()
    wait_idle(page)
    assert main.get_by_text("Score: 1 / 2").is_visible()
    assert main.get_by_text("Question 3 of 6").is_visible()
    # the round's answers so far, as a file
    button = page.locator(".st-key-rt_w_quiz_dl button")
    with page.expect_download(timeout=60_000) as download:
        button.click(timeout=60_000)
    lines = Path(download.value.path()).read_text(encoding="utf-8-sig").splitlines()
    assert lines[0] == "question,step,chosen,expanded,right,why"
    assert lines[1].startswith("1,1,Arad,Arad,True,") and lines[2].startswith("2,")
    assert ",Zerind,Sibiu,False," in lines[2]
