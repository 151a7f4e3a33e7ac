"""Browser-test harness: a real ``streamlit run`` server and headless Debian Chromium.

The server starts once per test session (per xdist worker) on a free port of
127.0.0.1 in its own process group, and is stopped by killing that group.
Each test gets a fresh browser context, that is a fresh Streamlit session; a
JavaScript error on the page fails the test.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bench import app_server
from bench.app_server import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
# How long a test waits for the state it asserts (Playwright's `expect` waits 5 s by default,
# too little for a first page load on a busy 2-core machine).
WAIT_MS = 30_000


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


@contextlib.contextmanager
def running_app(port: int | None = None) -> Iterator[str]:
    """Start the app (:func:`bench.app_server.running_app`) and yield its base URL."""
    with running_app_process(port) as (url, _process):
        yield url


def running_app_process(port: int | None = None):
    """The app's server (:func:`bench.app_server.running_app`): yields its URL and process."""
    return app_server.running_app(ROOT, port)


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    """The base URL of an app server shared by the tests of this session (worker)."""
    with running_app() as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless system Chromium; missing Chromium fails in CI and skips elsewhere."""
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        message = f"{CHROMIUM} not found: install Debian's chromium (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@contextlib.contextmanager
def fresh_page(browser, app_url: str, *, known_errors: tuple[str, ...] = ()) -> Iterator[object]:
    """A page in a fresh browser context (one Streamlit session).

    A JavaScript error on the page fails the test, except the ``known_errors`` messages.
    """
    context = browser.new_context(accept_downloads=True, viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.app_url = app_url  # type: ignore[attr-defined]
    yield page
    context.close()
    unexpected = [error for error in errors if error not in known_errors]
    assert not unexpected, f"JavaScript errors on the page: {unexpected}"


@pytest.fixture
def page(browser, app_url):
    """A fresh browser context (one Streamlit session); page errors fail the test."""
    with fresh_page(browser, app_url) as page:
        yield page


def wait_idle(page) -> None:
    """Wait until the script run triggered by the last action has finished.

    Callers first wait for the content they expect (waiting on the attribute
    alone races with the start of the rerun).
    """
    page.wait_for_selector(IDLE, timeout=60_000)


def wait_settled(page) -> None:
    """Wait until the page is idle and stays so: an edit or a click on the route map reruns
    the map alone, then the whole page, with a moment between the two runs that looks idle."""
    wait_idle(page)
    page.wait_for_timeout(500)
    wait_idle(page)


def wait_rendered(page, selector: str) -> None:
    """Wait until a current (not stale) element matches ``selector``.

    While a rerun is in flight Streamlit can keep a stale copy of an element
    with the same key next to the new one, so a bare locator may match twice.
    """
    page.locator(f'{selector}:not([data-stale="true"])').first.wait_for(timeout=60_000)


def open_page(page, path: str = "") -> None:
    """Open ``/<path>`` of the app and wait until its first run has finished."""
    page.goto(f"{page.app_url}/{path}")
    page.wait_for_selector('[data-testid="stMain"] h1', timeout=60_000)
    wait_idle(page)


def board_target(page, board_selector: str, target: tuple) -> object:
    """The locator of the click target ``target`` (its customdata, e.g. ``(row, col)``) on
    the game board under ``board_selector``; never a stale copy of the board."""
    name = ",".join(str(value) for value in target)
    return page.locator(
        f'{board_selector}:not([data-stale="true"]) .game-board [data-target="{name}"]'
    ).first


def click_board(page, board_selector: str, target: tuple, *, scroll: bool = True) -> None:
    """Click the click target ``target`` of the game board under ``board_selector``.

    Playwright clicks once the target stands still and nothing covers it. ``scroll``:
    False for tests that measure the page's layout (the target must then be in view; it
    is clicked once it has stood still for 100 ms).
    """
    locator = board_target(page, board_selector, target)
    locator.wait_for(timeout=60_000)
    if scroll:
        locator.click(timeout=60_000)
        return
    # Under load the board can still move (an element above it drawn late) after it first
    # appears: click where the target has stood still for 100 ms and is the element there.
    previous, deadline = None, time.monotonic() + 10
    while True:
        point = locator.evaluate(
            """(el) => {
                const box = el.getBoundingClientRect();
                const x = box.left + box.width / 2, y = box.top + box.height / 2;
                const hit = document.elementFromPoint(x, y);
                return {x, y, on: hit !== null && (hit === el || el.contains(hit))};
            }"""
        )
        if (point["on"] and point == previous) or time.monotonic() > deadline:
            break  # past the deadline the click goes anyway: the caller's wait then fails
        previous = point
        page.wait_for_timeout(100)
    page.mouse.click(point["x"], point["y"])


# The drawing data of the current (not stale) game board under a selector, or null while
# it is being drawn (lib.games.drawing.board_drawing.drawing: the shapes, traces and axes shown).
# In a wait_for_function built on it, return an object or an array: a bare count of 0 is
# falsy, so the wait would go on.
BOARD_DRAWING = """(selector) => {
    const holder = Array.from(document.querySelectorAll(selector)).find((c) =>
        c.getAttribute('data-stale') !== 'true' && !c.closest('[data-stale="true"]'));
    const board = holder && holder.querySelector('.game-board');
    return board && board.drawing ? board.drawing : null;
}"""


# (row, col) of the circles filled with a colour ([selector, fill]) on the current game
# board, or null while it is being drawn.
BOARD_CIRCLES = f"""([selector, fill]) => {{
    const drawing = ({BOARD_DRAWING})(selector);
    return drawing && drawing.shapes
        .filter((s) => s.type === 'circle' && s.fillcolor === fill)
        .map((s) => [Math.round((s.y0 + s.y1) / 2), Math.round((s.x0 + s.x1) / 2)]);
}}"""

# Counts the app's script runs from now on (window.__runs: each switch to "running").
COUNT_RUNS = """() => {
    window.__runs = 0;
    const app = document.querySelector('[data-testid="stApp"]');
    new MutationObserver(() => {
        if (app.getAttribute('data-test-script-state') === 'running') window.__runs += 1;
    }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
}"""


def board_circles(page, board_selector: str, fills: list[str]) -> dict[str, list[list[int]]]:
    """(row, col) of the circles of each colour in ``fills`` on the current game board, read
    at one moment (waits until the board is drawn)."""
    return page.wait_for_function(
        f"""([selector, fills]) => ({BOARD_DRAWING})(selector) && Object.fromEntries(
            fills.map((fill) => [fill, ({BOARD_CIRCLES})([selector, fill])]))""",
        arg=[board_selector, fills],
        timeout=60_000,
    ).json_value()


def cut_texts(page, within: str = '[data-testid="stMain"]') -> list[str]:
    """Texts under ``within`` that the browser cuts with an ellipsis (too long for their box)."""
    return page.evaluate(
        """(within) => Array.from(document.querySelectorAll(within + ' *'))
            .filter((el) => el.textContent.trim() && el.scrollWidth > el.clientWidth + 1
                && getComputedStyle(el).textOverflow === 'ellipsis')
            .map((el) => el.textContent.trim())""",
        within,
    )


def choose_option(page, select: str, option) -> None:
    """Open the select matching ``select`` and click ``option`` (a locator): a click that lands
    while a rerun redraws the select may not open it, so it is tried up to three times."""
    for _ in range(3):
        wait_idle(page)
        page.locator(select).click()
        try:
            option.wait_for(timeout=10_000)
            break
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
    option.click()
