"""Take the README's screenshots: each page in headless Chromium at 1280x800 (the "doing"
views at a projector's 1024x768, the race at 1400x900), saved as JPEG.

Run from the repository root, in the project's environment (Playwright and Debian's
Chromium, as the browser tests use them)::

    python docs/screenshots.py                 # every picture
    python docs/screenshots.py othello arena   # some of them

It starts the app on a free port of 127.0.0.1 (``bench.app_server.running_app``), opens
each page as a new visitor, waits until the page's script has finished and its main
content is drawn, and writes ``docs/images/<name>.jpg`` (JPEG quality 70, a few tens of
KB each). The server is stopped, with everything it started, when the script ends.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from bench.app_server import CHROMIUM, CHROMIUM_ARGS, running_app  # noqa: E402

IMAGES = ROOT / "docs" / "images"
VIEWPORT = {"width": 1280, "height": 800}
QUALITY = 70
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
TIMEOUT_MS = 120_000  # a busy machine: the Arena's first study, the GA's first run


def settle(page: Page, content: str) -> None:
    """Wait for ``content`` (a selector of the page's main output), then for the script to end.

    Waiting for the content first avoids racing the idle attribute of the run before.
    """
    page.wait_for_selector(content, timeout=TIMEOUT_MS)
    page.wait_for_selector(IDLE, timeout=TIMEOUT_MS)
    page.wait_for_timeout(1500)  # charts and the board's SVG finish drawing
    page.wait_for_selector(IDLE, timeout=TIMEOUT_MS)


def home(page: Page) -> None:
    """Home: one card per page."""
    settle(page, ".st-key-home_pages")


def portfolio(page: Page) -> None:
    """Portfolio GA: its first look (the GA on the bundled sample against the optimum)."""
    settle(page, '[data-testid="stPlotlyChart"]')


SCROLL = """(e, margin) => {
    e.scrollIntoView({block: 'start'});
    let box = e.parentElement;
    while (box && box.scrollHeight <= box.clientHeight) box = box.parentElement;
    if (box) box.scrollBy(0, -margin);
}"""


def scroll_to(page: Page, selector: str, margin: int = 0) -> None:
    """Scroll the main column so that ``selector``'s first match is ``margin`` px from the top."""
    page.mouse.move(5, page.viewport_size["height"] - 5)  # no tooltip left over a button
    page.locator(selector).first.evaluate(SCROLL, margin)
    page.wait_for_timeout(1000)


def collapse_sidebar(page: Page) -> None:
    """Close the sidebar (its button shows while the mouse is over it), for a wider main column."""
    page.mouse.move(150, 300)
    page.locator('[data-testid="stSidebarCollapseButton"] button').click()
    page.wait_for_timeout(1500)


def othello(page: Page) -> None:
    """Othello, both sides alpha-beta: a few moves played, the last search's figures shown."""
    settle(page, ".st-key-othello_play_area svg")
    for _ in range(6):
        page.get_by_role("button", name="Step").click()
        page.wait_for_timeout(700)
        page.wait_for_selector(IDLE, timeout=TIMEOUT_MS)
    settle(page, '[data-testid="stMetric"]')
    scroll_to(page, '[data-testid="stMetric"]')


CUT_OFF_STEP = 45
"""A step of alpha-beta on the textbook tree (3 plies) where a MAX node cuts off its last moves."""


def step_through(page: Page) -> None:
    """Tic-tac-toe's step-through: alpha-beta on the textbook tree, stopped at a cut-off."""
    settle(page, ".st-key-tictactoe_play_area svg")
    page.get_by_role("tab", name="Step through").click()
    settle(page, ".st-key-tictactoe_step_w_position")
    page.locator(".st-key-tictactoe_step_w_position input").click()
    page.locator("[role=option]", has_text="Textbook tree").first.click()
    settle(page, ".st-key-tictactoe_step_tree")
    slider = page.locator(".st-key-tictactoe_step_w_step input[type=range]")
    for _ in range(10):  # a key press can be lost while the page reruns: check, press again
        missing = CUT_OFF_STEP - int(slider.get_attribute("value") or 1)
        if missing <= 0:
            break
        slider.focus()
        for _ in range(missing):
            page.keyboard.press("ArrowRight")
        page.wait_for_timeout(1500)
        page.wait_for_selector(IDLE, timeout=TIMEOUT_MS)
    settle(page, ".st-key-tictactoe_step_code")
    collapse_sidebar(page)
    scroll_to(page, ".st-key-tictactoe_step_status", margin=70)


def arena(page: Page) -> None:
    """Arena: the default study's results (played on the first visit), from its tabs down."""
    settle(page, ".st-key-arena_chart_win")
    scroll_to(page, '[data-testid="stTabs"]')


PROJECTOR = {"width": 1024, "height": 768}
"""A classroom projector's screen: the "doing" views are shown at this size."""
WIDE = {"width": 1400, "height": 900}


def race(page: Page) -> None:
    """The route race: four algorithms two to a row, a few dozen ticks in."""
    board = '.st-key-rt_race:not([data-stale="true"]) .route-race'
    settle(page, f"{board} .racer canvas.search")
    page.locator(board).first.locator("select.speed").select_option("0.5")
    page.locator(board).first.locator("button.play").click()
    page.wait_for_timeout(2500)
    page.locator(board).first.locator("button.play").click()  # pause mid-race
    scroll_to(page, board)


def watch_search(page: Page) -> None:
    """Watch it search on a projector: the map across the page, the code under it."""
    player = '.st-key-rt_animation:not([data-stale="true"]) .route-player'
    settle(page, f"{player} canvas.search")
    page.locator(player).first.locator("input.steps").focus()
    for _ in range(9):
        page.keyboard.press("ArrowRight")
    scroll_to(page, player)


UNDER_BAR = """([bar, below]) => {
    const main = document.querySelector('[data-testid="stMain"]');
    const status = document.querySelector(below);
    status.scrollIntoView({block: 'start'});
    main.scrollBy(0, status.getBoundingClientRect().top
        - document.querySelector(bar).getBoundingClientRect().bottom);
}"""


def mcts_steps(page: Page) -> None:
    """MCTS steps on a projector: the step bar over the step's text and the tree."""
    settle(page, ".st-key-tictactoe_play_area svg")
    page.get_by_role("tab", name="MCTS steps").click()
    settle(page, ".st-key-tictactoe_mcts_tree .scatterlayer text")
    page.mouse.move(5, page.viewport_size["height"] - 5)
    page.evaluate(UNDER_BAR, [".st-key-tictactoe_mcts_step_bar", ".st-key-tictactoe_mcts_status"])
    page.wait_for_timeout(1000)


def routes(page: Page) -> None:
    """Route search on Romania: four algorithms' routes from Arad to Bucharest."""
    settle(page, ".st-key-rt_map")
    page.wait_for_timeout(2000)  # the canvas map draws after the script run


#: picture name -> (the page's address, with its link settings, and how to get it ready)
SHOTS: dict[str, tuple[str, Callable[[Page], None]]] = {
    "home": ("/", home),
    "portfolio": ("/portfolio", portfolio),
    "othello": ("/othello?black=alphabeta:depth=4&white=alphabeta:depth=4", othello),
    "step-through": ("/tictactoe", step_through),
    "arena": ("/arena", arena),
    "routes": ("/routes", routes),
    "race": ("/routes?race=A*|Uniform-cost|Greedy+best-first|BFS", race),
    "watch-search": ("/routes", watch_search),
    "mcts-steps": ("/tictactoe?mcts_step=9", mcts_steps),
}
#: pictures taken at another window size than :data:`VIEWPORT`
SIZES = {"race": WIDE, "watch-search": PROJECTOR, "mcts-steps": PROJECTOR}


def main(names: list[str]) -> None:
    unknown = sorted(set(names) - set(SHOTS))
    if unknown:
        raise SystemExit(f"unknown picture(s) {', '.join(unknown)}; choose from {', '.join(SHOTS)}")
    IMAGES.mkdir(parents=True, exist_ok=True)
    with running_app() as (url, _server), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for name in names or list(SHOTS):
                address, prepare = SHOTS[name]
                size = SIZES.get(name, VIEWPORT)
                context = browser.new_context(viewport=size)  # a new visitor per page
                page = context.new_page()
                page.goto(url + address, timeout=TIMEOUT_MS)
                prepare(page)
                target = IMAGES / f"{name}.jpg"
                page.screenshot(path=str(target), type="jpeg", quality=QUALITY)
                print(f"{target.relative_to(ROOT)}: {target.stat().st_size / 1024:.0f} KB")
                context.close()
        finally:
            browser.close()


if __name__ == "__main__":
    main(sys.argv[1:])
