"""Every page works without the internet (an offline classroom): nothing is fetched from
anywhere but the app's own server, and no request fails, no console error shows."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlparse

from tests.e2e.conftest import open_page

SIDEBAR_LINKS = ".st-key-app_menu a"
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
# A deep link makes Streamlit's frontend first look for its server under the page's path
# (`/routes/_stcore/health`, `/routes/_stcore/host-config`); the 404s are answered at once
# and it falls back to `/_stcore/...` (streamlit/streamlit#7074, open). Nothing else may fail.
PROBE_UNDER_THE_PAGE = re.compile(r"^/[^/]+/_stcore/(health|host-config)$")


def _known_probe(url: str) -> bool:
    return bool(PROBE_UNDER_THE_PAGE.match(urlparse(url).path))


def test_every_page_loads_with_everything_but_the_app_server_blocked(page):
    outside: list[str] = []  # requests to the internet (blocked)
    failed: list[str] = []  # requests to the app's server that failed or were refused
    console_errors: list[str] = []

    def on_console(message) -> None:
        if message.type == "error" and not _known_probe(message.location.get("url", "")):
            console_errors.append(f"{page.url}: {message.text}")

    def on_response(response) -> None:
        if response.status >= 400 and not _known_probe(response.url):
            failed.append(f"{response.url}: HTTP {response.status}")

    def only_the_app_server(route) -> None:
        url = route.request.url
        if urlparse(url).hostname in LOCAL_HOSTS:
            route.continue_()
        else:
            outside.append(url)
            route.abort("internetdisconnected")

    def on_failed(request) -> None:
        # ERR_ABORTED: the browser dropped a request it no longer needed (the page it was
        # for was left); a request the server could not answer fails otherwise or in on_response
        if urlparse(request.url).hostname in LOCAL_HOSTS and request.failure != "net::ERR_ABORTED":
            failed.append(f"{request.url}: {request.failure}")

    page.route("**/*", only_the_app_server)
    page.on("requestfailed", on_failed)
    page.on("response", on_response)
    page.on("console", on_console)

    open_page(page)
    page.locator(SIDEBAR_LINKS).nth(1).wait_for(timeout=60_000)  # the menu is drawn
    paths = [
        urlparse(urljoin(page.url, href)).path.strip("/")
        for href in page.locator(SIDEBAR_LINKS).evaluate_all("links => links.map(a => a.href)")
    ]
    assert len(paths) >= 2, paths  # the home page and at least one other page
    for path in paths:
        open_page(page, path)  # a fresh load: every script, style, font and icon again
        icon = page.evaluate(
            "() => Array.from(document.querySelectorAll('link[rel~=\"icon\"]'), l => l.href)"
        )
        assert icon and all(href.startswith("data:image/svg+xml") for href in icon), (path, icon)
        # the fonts the page asked for (text, Material icons in the menu) all loaded
        page.wait_for_function("() => document.fonts.status === 'loaded'")
        fonts = page.evaluate(
            "() => Array.from(document.fonts).filter(f => f.status === 'error').map(f => f.family)"
        )
        assert not fonts, (path, fonts)
        page.wait_for_timeout(500)  # a late favicon or font request still counts
        assert not outside, (path, outside)
        assert not failed, (path, failed)
        assert not console_errors, (path, console_errors)
