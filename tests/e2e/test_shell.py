"""The app shell in a real browser: home page, navigation and deep links."""

from __future__ import annotations

import pytest

from lib.ui.navigation import PAGES, url_path
from tests.e2e.conftest import open_page


def test_home_lists_every_page(page):
    open_page(page)
    assert page.locator("h1", has_text="AI Search Lab").is_visible()
    for info in PAGES:
        assert page.locator('[data-testid="stMain"]').get_by_text(info.title).first.is_visible()


@pytest.mark.parametrize("info", PAGES, ids=[url_path(p) for p in PAGES])
def test_deep_link_opens_the_page(page, info):
    open_page(page, url_path(info))
    assert page.get_by_text("Page not found").count() == 0
    assert page.locator('[data-testid="stMain"] h1').first.is_visible()
