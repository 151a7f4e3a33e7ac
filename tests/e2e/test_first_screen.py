"""Made for the projector: at 1024x768 with the sidebar open, each page's main output is on its
first screen without scrolling, with and without the presentation view (``?present=1``).

"On the first screen" means: the page is not scrolled, and the element's whole box lies
inside the window, right of the open sidebar. Pages render in steps (slowly on a busy
machine), so every check waits for that state and asks it to hold for a second.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from lib.games.core import available_games
from lib.games.drawing.view import load_adapter
from lib.ui.game_analysis import ANALYSIS_TABS
from lib.ui.navigation import PAGES
from lib.ui.presentation import SIDEBAR_WIDTH
from tests.e2e.conftest import WAIT_MS, open_page, wait_idle
from tests.test_charts import contrast_ratio

PROJECTOR = {"width": 1024, "height": 768}
GAMES = sorted(available_games())
MODES = {"sidebar": "", "presentation": "present=1"}

BOX = """([selector, text]) => {
    const sidebar = document.querySelector('[data-testid="stSidebar"]').getBoundingClientRect();
    const element = Array.from(document.querySelectorAll(selector)).find((el) =>
        !el.closest('[data-stale="true"]') && (!text || el.textContent.includes(text))
        && el.getBoundingClientRect().height > 0);
    if (!element) return {found: false, sidebar: sidebar.right, scroll: window.scrollY};
    const box = element.getBoundingClientRect();
    return {found: true, top: box.top, bottom: box.bottom, left: box.left, right: box.right,
            width: box.width, height: box.height, sidebar: sidebar.right,
            scroll: window.scrollY, window: [window.innerWidth, window.innerHeight]};
}"""


def _on_first_screen(box: dict) -> bool:
    if not box["found"]:
        return False
    width, height = box["window"]
    return (
        box["scroll"] == 0
        and box["sidebar"] >= SIDEBAR_WIDTH - 1  # the sidebar is open
        and box["top"] >= 0
        and box["bottom"] <= height + 0.5
        and box["left"] >= box["sidebar"] - 0.5
        and box["right"] <= width + 0.5
    )


def on_first_screen(page, selector: str, text: str | None = None) -> dict:
    """Wait until the first current element matching ``selector`` (and containing ``text``)
    is on the first screen, for four readings in a row a quarter second apart; its box."""
    deadline = time.monotonic() + 2 * WAIT_MS / 1000
    held, box = 0, None
    while time.monotonic() < deadline:
        box = page.evaluate(BOX, [selector, text])
        held = held + 1 if _on_first_screen(box) else 0
        if held >= 4:
            return box
        page.wait_for_timeout(250)
    raise AssertionError(f"{selector} {text or ''} is not on the first screen: {box}")


def _open(page, path: str, mode: str) -> None:
    page.set_viewport_size(PROJECTOR)
    query = "&".join(part for part in (path.partition("?")[2], MODES[mode]) if part)
    open_page(page, path.partition("?")[0] + (f"?{query}" if query else ""))


def _presentation_on(page) -> bool:
    return page.locator(".st-key-app_w_present input[type=checkbox]").is_checked()


def _enabled(page, key: str):
    """The current, enabled button of widget ``key`` (a rerun may leave a stale copy)."""
    return page.locator(f'.st-key-{key}:not([data-stale="true"]) button:not([disabled])').first


def _wait_hidden(page, selector: str) -> None:
    page.locator(selector).first.wait_for(state="hidden", timeout=WAIT_MS)


# -- game pages -----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", GAMES)
def test_a_game_board_its_status_and_the_hint_are_on_the_first_screen(page, name, mode):
    _open(page, name, mode)
    hint = _enabled(page, f"{name}_w_hint")
    hint.wait_for(timeout=2 * WAIT_MS)  # a person is to move (the AI may have moved first)
    wait_idle(page)
    hint.click()
    panel = f".st-key-{name}_side_panel"
    page.locator(panel).get_by_text("Hint:").first.wait_for(timeout=2 * WAIT_MS)
    wait_idle(page)
    board = on_first_screen(page, f'[class*="st-key-{name}_board_"] .game-board svg')
    status = on_first_screen(page, f".st-key-{name}_messages [data-testid='stAlert']")
    assert status["bottom"] <= board["top"] + 1  # the status line right above the board
    on_first_screen(page, f'{panel} [data-testid="stCaptionContainer"]', "Hint:")
    if load_adapter(available_games()[name]).insight is not None:  # e.g. Sim's exact verdict
        on_first_screen(page, f'{panel} [data-testid="stMarkdown"]')  # the panel's first text
    if mode == "presentation":
        assert _presentation_on(page)
        assert "present=1" in page.url
        _wait_hidden(page, f".st-key-{name}_p0_w_kind")  # the players' settings
        assert board["width"] >= 440  # larger than the default 400 px board
    else:
        assert page.locator(f".st-key-{name}_p0_w_kind").first.is_visible()


@pytest.mark.parametrize(
    ("name", "mode"), [("sim", "sidebar"), ("sim", "presentation"), ("othello", "sidebar")]
)
def test_a_replays_banner_and_verdict_are_beside_the_board(page, name, mode):
    title = available_games()[name].title.removeprefix("The ")
    _open(page, f"arena?replay={name}&r_a=random&r_b=random&r_seed=1&r_game=0", mode)
    page.get_by_text("Shared replay: game 0").wait_for(timeout=2 * WAIT_MS)
    wait_idle(page)
    page.get_by_role("button", name=f"Replay on the {title} page").click()
    panel = f".st-key-{name}_side_panel"
    page.locator(panel).get_by_text("Replay of").first.wait_for(timeout=2 * WAIT_MS)
    wait_idle(page)
    _enabled(page, f"{name}_w_undo").click()  # one move back: it can be hinted
    _enabled(page, f"{name}_w_hint").wait_for(timeout=WAIT_MS)
    wait_idle(page)
    _enabled(page, f"{name}_w_hint").click()
    page.locator(panel).get_by_text("Hint:").first.wait_for(timeout=2 * WAIT_MS)
    wait_idle(page)
    on_first_screen(page, f'[class*="st-key-{name}_board_"] .game-board svg')
    on_first_screen(page, f'{panel} [data-testid="stAlertContentInfo"]', "Replay of")
    on_first_screen(page, f"{panel} a", "Link to share this replay")
    on_first_screen(page, f'{panel} [data-testid="stCaptionContainer"]', "Hint:")
    if name == "sim":
        on_first_screen(page, f'{panel} [data-testid="stMarkdown"]', "With perfect play")


def test_the_presentation_view_hides_the_settings_keeps_them_and_follows_the_visitor(page):
    _open(page, "othello?white=alphabeta:depth=3", "presentation")
    assert _presentation_on(page)
    _wait_hidden(page, ".st-key-othello_p1_w_depth")
    sidebar = page.locator('[data-testid="stSidebar"]').bounding_box()
    assert abs(sidebar["width"] - SIDEBAR_WIDTH) <= 1
    page.locator(".st-key-app_w_present label").click()  # off: the same settings are back
    depth = page.locator('.st-key-othello_p1_w_depth:not([data-stale="true"])').first
    depth.wait_for(timeout=WAIT_MS)
    wait_idle(page)
    # the slider's value (3, from the link), waited for: a busy machine draws its labels a
    # moment after the run ends
    expect(depth).to_contain_text("3", timeout=WAIT_MS)
    assert "present=" not in page.url
    page.locator(".st-key-app_w_present label").click()  # on again, then another page
    _wait_hidden(page, ".st-key-othello_p1_w_depth")
    wait_idle(page)
    page.locator(".st-key-app_menu").get_by_text("Portfolio GA").click()
    page.get_by_role("heading", name="Portfolio optimisation (GA)").wait_for(timeout=WAIT_MS)
    wait_idle(page)
    assert _presentation_on(page)
    page.wait_for_url("**/portfolio?*present=1*", timeout=WAIT_MS)
    _wait_hidden(page, ".st-key-pf_w_source")


# -- the other pages ------------------------------------------------------------------------


@pytest.mark.parametrize("mode", list(MODES))
def test_portfolio_answer_and_its_chart_are_on_the_first_screen(page, mode):
    _open(page, "portfolio", mode)
    page.locator(".st-key-pf_fitness_chart .xtick text").first.wait_for(timeout=2 * WAIT_MS)
    wait_idle(page)
    on_first_screen(page, ".st-key-pf_metrics")  # every metric of the answer
    chart = on_first_screen(page, ".st-key-pf_fitness_chart .js-plotly-plot")
    if mode == "presentation":
        assert chart["height"] >= 500  # drawn larger than the 340 px beside the settings
        _wait_hidden(page, ".st-key-pf_w_source")


@pytest.mark.parametrize("mode", list(MODES))
def test_arena_results_are_on_the_first_screen(page, mode):
    _open(page, "arena", mode)  # a first visit plays the default preset
    page.get_by_text("Played 20 games").wait_for(timeout=2 * WAIT_MS)
    wait_idle(page)
    on_first_screen(page, '[data-testid="stAlert"]', "Played 20 games")
    on_first_screen(page, '[data-testid="stMain"] [data-testid="stDataFrame"]')  # the summary
    if mode == "presentation":
        on_first_screen(page, ".st-key-arena_chart_win .js-plotly-plot")
        _wait_hidden(page, ".st-key-arena_w_source")  # the study's settings
    else:
        assert page.locator(".st-key-arena_w_source").is_visible()


@pytest.mark.parametrize("mode", list(MODES))
def test_every_page_link_on_home_is_on_the_first_screen(page, mode):
    _open(page, "", mode)
    page.locator(".st-key-home_pages").wait_for(timeout=WAIT_MS)
    wait_idle(page)
    for info in PAGES:
        on_first_screen(page, '[data-testid="stMain"] [data-testid="stPageLink"]', info.title)


def test_routes_opens_in_the_presentation_view_with_its_map_on_the_first_screen(page):
    # (with the sidebar's settings shown, the map is tested with the page's own layout)
    _open(page, "routes", "presentation")
    page.get_by_role("heading", name="Route search").wait_for(timeout=WAIT_MS)
    wait_idle(page)
    assert _presentation_on(page) and "present=1" in page.url
    shown = page.evaluate(
        """() => Array.from(document.querySelectorAll(
                '[data-testid="stSidebarUserContent"] [data-testid="stElementContainer"]'))
            .filter((el) => el.getBoundingClientRect().height > 0
                && !el.closest('.st-key-app_menu'))  // the page menu stays
            .map((el) => el.className)"""
    )
    assert len(shown) == 1 and "st-key-app_w_present" in shown[0], shown
    on_first_screen(page, ".st-key-rt_map")  # the canvas route map (in a shadow root)


# -- chart text -----------------------------------------------------------------------------

# the plotly charts' axis text, titles and legends; the game board's (SVG) coordinates and title
AXIS_TEXT_FILLS = """() => Array.from(document.querySelectorAll(
        '.js-plotly-plot .xtick text, .js-plotly-plot .ytick text, .js-plotly-plot .g-xtitle text,'
        + ' .js-plotly-plot .g-ytitle text, .js-plotly-plot .gtitle, .js-plotly-plot .legendtext,'
        + ' .game-board-svg .ticks text, .game-board-svg .title'))
    .filter((t) => t.textContent.trim() && t.getBoundingClientRect().width > 0
        && !t.closest('[data-stale="true"]'))
    .map((t) => [t.textContent.slice(0, 30), getComputedStyle(t).fill])"""


def _low_contrast(page) -> list:
    fills = page.evaluate(AXIS_TEXT_FILLS)
    assert fills, "no chart text drawn"
    return [(text, fill) for text, fill in fills if contrast_ratio(fill, "#ffffff") < 4.5]


def test_chart_axis_text_has_4_5_to_1_contrast_on_game_and_arena_pages(page):
    # the board's coordinates and the last search's charts (Streamlit drew a plotly board's grey)
    open_page(page, "othello?size=6&black=alphabeta:depth=2&white=human")
    page.get_by_text("Nodes").first.wait_for(timeout=2 * WAIT_MS)  # the AI moved
    wait_idle(page)
    page.locator(".st-key-othello_last_scores .ytick text").first.wait_for(timeout=WAIT_MS)
    page.locator('[class*="st-key-othello_board_"] .game-board-svg .ticks text').first.wait_for(
        timeout=WAIT_MS
    )
    assert _low_contrast(page) == []
    open_page(page, "arena")
    page.locator(".st-key-arena_chart_ebf .xtick text").first.wait_for(timeout=2 * WAIT_MS)
    wait_idle(page)
    assert _low_contrast(page) == []


@pytest.mark.parametrize("name", ["tictactoe", "othello"])
def test_every_analysis_tab_label_shows_on_a_1024_projector(page, name):
    # with six tabs the last was once hidden behind the tab bar's scroll arrow
    page.set_viewport_size(PROJECTOR)
    open_page(page, name)
    tabs = page.locator('[data-testid="stMain"] [role="tablist"]').first
    tabs.wait_for(timeout=WAIT_MS)
    wait_idle(page)
    width, shown = tabs.evaluate("(el) => [el.scrollWidth, el.clientWidth]")
    assert width <= shown + 1, (width, shown)
    for label in ANALYSIS_TABS:
        box = page.get_by_role("tab", name=label, exact=True).bounding_box()
        assert box is not None and box["x"] + box["width"] <= PROJECTOR["width"], label
