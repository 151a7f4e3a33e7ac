"""The app shell in a real browser: home page, navigation and deep links."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from lib.ui.navigation import PAGES, url_path
from tests.e2e.conftest import WAIT_MS, open_page, running_app, wait_idle

SIDEBAR_NAV = ".st-key-app_menu"


def assert_menu_is_the_apps(page) -> None:
    """The sidebar shows the st.navigation menu (titles), not a raw list of files."""
    menu = page.locator(SIDEBAR_NAV)
    for info in PAGES:  # waits: on a busy machine the menu can render after the page
        expect(menu).to_contain_text(info.title, timeout=WAIT_MS)
    assert "streamlit app" not in menu.inner_text().lower(), menu.inner_text()


def test_home_lists_every_page_and_its_links_work(page):
    open_page(page)
    main = page.locator('[data-testid="stMain"]')
    expect(main.locator("h1", has_text="AI Search Lab")).to_be_visible(timeout=WAIT_MS)
    for info in PAGES:
        expect(main.get_by_text(info.title).first).to_be_visible(timeout=WAIT_MS)
    first = PAGES[0]

    # On a loaded machine a click can land while the page is being redrawn and be lost:
    # click the current link again until the browser is on the page (three tries).
    # (The page may put its settings in the address at once: its path is what is checked.)
    def on_the_page(url: str) -> bool:
        return urlparse(url).path.endswith(f"/{url_path(first)}")

    for attempt in range(3):
        if on_the_page(page.url):
            break
        wait_idle(page)
        main.get_by_role("link", name=first.title).first.click()
        try:
            page.wait_for_url(on_the_page, timeout=WAIT_MS // 3)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    # the page's own heading, not the home page's still on screen while the page's script starts
    expect(main.locator("h1").first).not_to_have_text("AI Search Lab", timeout=WAIT_MS)
    wait_idle(page)
    assert_menu_is_the_apps(page)


@pytest.mark.parametrize("info", PAGES, ids=[url_path(p) for p in PAGES])
def test_deep_link_opens_the_page(page, info):
    open_page(page, url_path(info))
    assert page.get_by_text("Page not found").count() == 0
    assert page.locator('[data-testid="stMain"] h1').first.is_visible()
    assert_menu_is_the_apps(page)


def test_deep_link_as_first_visit_of_a_fresh_server_shows_the_menu(browser):
    # A shared link that wakes a sleeping hosted app is the server's first session.
    info = PAGES[-1]
    with running_app() as url:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        try:
            page = context.new_page()
            page.goto(f"{url}/{url_path(info)}")
            page.wait_for_selector('[data-testid="stMain"] h1', timeout=60_000)
            wait_idle(page)
            page.wait_for_timeout(500)
            assert_menu_is_the_apps(page)
        finally:
            context.close()


# Records, from the first moment of the page, every link the sidebar ever shows
# (window.__sidebarLinks: "text -> href").
RECORD_SIDEBAR_LINKS = """
window.__sidebarLinks = new Set();
new MutationObserver(() => {
    for (const a of document.querySelectorAll('[data-testid="stSidebar"] a')) {
        window.__sidebarLinks.add(a.textContent.trim() + ' -> ' + a.getAttribute('href'));
    }
}).observe(document, {childList: true, subtree: true, characterData: true});
"""


def test_a_fresh_servers_first_visit_never_shows_the_file_list(browser):
    """Issue: a fresh server's first visit showed the pages/ file names for about a second
    ("streamlit app", "home", ...), with a link to /home that opens "Page not found"."""
    with running_app() as url:
        context = browser.new_context(viewport={"width": 1024, "height": 768})
        try:
            page = context.new_page()
            page.add_init_script(RECORD_SIDEBAR_LINKS)
            page.goto(f"{url}/")
            page.wait_for_selector('[data-testid="stMain"] h1', timeout=60_000)
            wait_idle(page)
            assert_menu_is_the_apps(page)
            page.wait_for_timeout(1_000)
            seen = page.evaluate("() => Array.from(window.__sidebarLinks)")
            assert seen, "the sidebar showed no link"
            files = [link for link in seen if "streamlit app" in link.lower()]
            home = [link for link in seen if link.rstrip("/").endswith("/home")]
            assert not files and not home, seen
            assert page.get_by_text("Page not found").count() == 0
        finally:
            context.close()


@pytest.mark.parametrize("path", ["nosuch", "etc/passwd", "othello/extra/parts", "a/b?x=1"])
def test_an_unknown_path_nested_or_not_says_no_such_page_and_opens_home(page, path):
    page.goto(f"{page.app_url}/{path}")
    expect(page.get_by_text("Page not found")).to_be_visible(timeout=WAIT_MS)
    expect(page.get_by_text("does not seem to exist")).to_be_visible(timeout=WAIT_MS)
    main = page.locator('[data-testid="stMain"]')
    expect(main.locator("h1", has_text="AI Search Lab")).to_be_visible(timeout=WAIT_MS)
    wait_idle(page)
    assert_menu_is_the_apps(page)
