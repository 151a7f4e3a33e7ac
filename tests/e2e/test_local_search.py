"""The local search page in a real browser at 1024x768: the board plays, the step moves, CSV."""

from __future__ import annotations

import re

from tests.e2e.conftest import open_page, wait_idle, wait_settled


def test_local_search_at_1024x768(page, tmp_path):
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "local_search?n=8&algorithm=sideways&seed=1")
    board = page.locator(".st-key-ls_board .js-plotly-plot").first
    board.wait_for()
    box = board.bounding_box()
    # the board (with its landscape beside it) starts on the first screen and fits its width
    assert box["y"] < 768 and box["x"] + box["width"] <= 1024
    assert "attacking pairs" in board.locator(".gtitle").first.text_content()
    landscape = page.locator(".st-key-ls_land .js-plotly-plot").first.bounding_box()
    assert landscape["x"] + landscape["width"] <= 1024
    # the figure's own Play button animates the run in the browser
    title = board.locator(".gtitle").first.text_content()
    board.get_by_text("▶ Play").click()
    page.wait_for_function(
        "([el, t]) => el.querySelector('.gtitle').textContent !== t",
        arg=[board.element_handle(), title],
    )
    # the page's step button moves the step shown
    page.locator(".st-key-ls_w_next button").click()
    page.get_by_text("Step 1:", exact=False).first.wait_for()
    wait_settled(page)
    with page.expect_download() as download:
        page.locator(".st-key-ls_w_dl_steps button").click()
    text = download.value.path().read_text(encoding="utf-8-sig")
    assert text.splitlines()[0].startswith("step,attacking pairs")
    page.screenshot(path=str(tmp_path / "local_search.png"))
    # the settings are in the link
    page.locator(".st-key-ls_w_seed input").fill("2")
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.search.includes('seed=2')")
    wait_idle(page)


def test_a_long_run_shows_progress_and_cancel_stops_it(page):
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{page.app_url}/local_search?n=200&algorithm=annealing&t0=50&rate=0&limit=1000000")
    page.locator('[data-testid="stProgress"]').first.wait_for(timeout=60_000)
    # the bar counts the steps as the run goes (in the server's worker pool)
    page.get_by_text(re.compile(r"^step [\d,]+: [\d,]+ attacking pairs$")).first.wait_for(
        timeout=60_000
    )
    page.locator(".st-key-ls_w_cancel button").click()
    page.get_by_text("The run was cancelled.").first.wait_for(timeout=60_000)
    wait_idle(page)
    assert page.locator(".st-key-ls_w_again button").is_visible()
