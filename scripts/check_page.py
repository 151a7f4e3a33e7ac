"""Open pages of a running AI Search Lab server in headless Chromium; fail unless each renders.

Used by ``scripts/test_container.sh`` on the server in the container: the page shell alone
says little, this waits for each page's heading over Streamlit's WebSocket and fails on a
Python exception shown on the page or a JavaScript error.

    python scripts/check_page.py http://127.0.0.1:18501 "" arena
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def main(argv: list[str]) -> int:
    """Open ``argv[0]/<path>`` for each further argument; print each page's heading."""
    sys.path.insert(0, str(ROOT))
    from playwright.sync_api import sync_playwright

    from bench.app_server import CHROMIUM, CHROMIUM_ARGS

    url, paths = argv[0].rstrip("/"), argv[1:] or [""]
    failures = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for path in paths:
            context = browser.new_context()
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
            page.goto(f"{url}/{path}")
            heading = page.wait_for_selector('[data-testid="stMain"] h1', timeout=90_000)
            page.wait_for_selector(IDLE, timeout=90_000)
            shown = page.locator('[data-testid="stException"]').count()
            print(f"/{path}: {heading.inner_text().strip()!r}")
            if shown or errors:
                failures.append(f"/{path}: {shown} exception(s) shown, JavaScript errors {errors}")
            context.close()
        browser.close()
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
