"""The constraint-satisfaction page in Chromium at 1024x768: run, step back, see the code line."""

from __future__ import annotations

import re

from lib.csp import runs
from tests.e2e.conftest import wait_idle


def test_the_us_map_run_steps_back_at_projector_size(browser, app_url):
    context = browser.new_context(accept_downloads=True, viewport={"width": 1024, "height": 768})
    context.set_default_timeout(60_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{app_url}/csp?problem=usa&mrv=true&inference=fc")
        main = page.locator('[data-testid="stMain"]')
        main.get_by_text("Solved: US states").wait_for(timeout=90_000)
        wait_idle(page)
        picture = page.locator(".st-key-csp_w_picture .js-plotly-plot").first
        picture.wait_for()
        box = picture.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 1024  # no sideways scrolling
        step_text = main.locator(
            '[data-testid="stMarkdownContainer"]', has_text=re.compile(r"Step \d+ of \d+")
        ).first
        last = int(re.search(r"of (\d+)", step_text.inner_text()).group(1))
        assert f"Step {last} of {last}" in step_text.inner_text()
        assert "Solution" in step_text.inner_text()
        page.locator(".st-key-csp_w_back button").click()
        main.get_by_text(f"Step {last - 1} of {last}").wait_for()
        wait_idle(page)
        # the code panel marks the line of the step shown
        run = runs.traced_run(runs.Settings("usa", mrv=True, inference="fc"))
        assert len(run.events) == last
        _, marks = runs.listing("backtracking")
        expected = runs.line_of(run.events[last - 2], marks)
        current = page.locator(".st-key-csp_code .cv-current").first
        current.wait_for()
        assert current.get_attribute("data-line") == str(expected)
        assert re.search(r"problem=usa", page.url) and "inference=fc" in page.url
        # a typed grid with a mistake is refused at once, naming the cell
        page.goto(f"{app_url}/csp?problem=sudoku&puzzle=Type+or+paste+a+grid")
        area = page.locator(".st-key-csp_w_grid textarea")
        area.fill("12x" + "." * 78)
        area.press("Control+Enter")
        main.get_by_text("Character 'x' at cell 3 (row 1, column 3)").wait_for()
    finally:
        context.close()
    assert not errors, errors
