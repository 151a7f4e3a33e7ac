"""Benchmark: how long each page takes to appear in a browser, first visit and later visits.

One local ``streamlit run`` server, headless Debian Chromium (as the browser tests use).
For every page (Home, each game, the Arena, the portfolio GA, route search), a new
browser context (a new visitor: a new Streamlit session, an empty browser cache) opens
the page's address, and the page itself records, against the navigation's start
(``performance.now()``):

- ``script``: when the page's script run has finished (the app says ``notRunning`` and
  the page's title is shown);
- ``settled``: when, besides, no grey placeholder is left: no stale element of an
  earlier run (``data-stale``), no skeleton of an element still loading
  (``stSkeleton``, e.g. while the chart library arrives) and no custom component (the
  game board, the route player) that has not drawn yet.

Both are taken at the last time they became true, once they have held for a second (a
page that reruns itself is not done at its first run). ``cold`` is the page's first
visit since the server started (its imports, caches and first computations are paid
then); pages are visited in sidebar order after Home, so a page sharing modules with an
earlier one finds them imported. ``warm`` is the median of ``--warm`` later visits, each
by a new visitor. The target is 3 s; ``x Home`` is a page's warm ``settled``
time as a multiple of Home's, measured in the same run, which stays meaningful on a
busy machine. ``uptime`` is printed before and after.

Run: ``python -m bench.first_render`` (``--pages othello routes`` for some pages;
``--compare DIR`` serves another checkout of the app beside this one, e.g. an older
commit from ``git archive``, and measures the two page by page in turn, printing the
ratio of their times: load on a shared machine then hits both alike).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from bench.app_server import CHROMIUM, CHROMIUM_ARGS, running_app

ROOT = Path(__file__).resolve().parents[1]
TARGET_SECONDS = 3.0
STABLE_MS = 1000
"""How long a page must stay finished before its time is taken."""

# Installed in every page before its own scripts: records the last time each condition
# became true (null while it is false), checked on every change of the page and every 25 ms.
RECORDER = """
(() => {
    const marks = {script: null, settled: null};
    window.__firstRender = marks;
    const check = () => {
        const app = document.querySelector('[data-testid="stApp"]');
        const done = !!app && app.getAttribute('data-test-script-state') === 'notRunning'
            && !!document.querySelector('[data-testid="stMain"] h1');
        // a custom component (the game board, the route player) counts once it has drawn
        // its svg or canvas (Streamlit puts a style element in it before its code runs)
        const drawn = (el) => !!(el.shadowRoot || el).querySelector('svg, canvas');
        const clean = done && !document.querySelector('[data-stale="true"]')
            && !document.querySelector('[data-testid="stSkeleton"]')
            && Array.from(document.querySelectorAll('[data-testid^="stBidiComponent"]'))
                .every(drawn);
        const now = performance.now();
        marks.script = done ? (marks.script ?? now) : null;
        marks.settled = clean ? (marks.settled ?? now) : null;
    };
    const start = () => {
        new MutationObserver(check).observe(document, {
            childList: true, subtree: true, attributes: true,
            attributeFilter: ['data-test-script-state', 'data-stale', 'data-testid'],
        });
        setInterval(check, 25);
        check();
    };
    if (document.readyState === 'loading') {
        document.addEventListener('DOMContentLoaded', start);
    } else {
        start();
    }
})();
"""


@contextlib.contextmanager
def app_server(root: Path) -> Iterator[str]:
    """``streamlit run`` of ``root``'s app (:func:`bench.app_server.running_app`): its URL."""
    with running_app(root) as (url, _process):
        yield url


def visit(browser, url: str, timeout: float) -> tuple[float, float] | None:
    """(script, settled) seconds for a new visitor opening ``url``; None if not in ``timeout``."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.add_init_script(RECORDER)
    page = context.new_page()
    try:
        page.goto(url, wait_until="commit", timeout=timeout * 1000)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            page.wait_for_timeout(200)
            marks = page.evaluate(
                "() => [window.__firstRender && window.__firstRender.script,"
                " window.__firstRender && window.__firstRender.settled, performance.now()]"
            )
            script, settled, now = marks
            if script is not None and settled is not None and now - settled >= STABLE_MS:
                return script / 1000, settled / 1000
        return None
    finally:
        context.close()


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def _pages() -> list[tuple[str, str]]:
    """(name, URL path) of every page in sidebar order, Home first."""
    sys.path.insert(0, str(ROOT))
    from lib.ui.navigation import PAGES, url_path

    return [("home", "")] + [(url_path(info), url_path(info)) for info in PAGES]


def _seconds(value: float | None) -> str:
    return "timeout" if value is None else f"{value:.2f}"


def _measure(browser, url: str, path: str, warm: int, timeout: float) -> tuple:
    """(cold, warm script median, warm settled median) of one page on one server."""
    cold = visit(browser, f"{url}/{path}", timeout)
    later = [visit(browser, f"{url}/{path}", timeout) for _ in range(warm)]
    done = [w for w in later if w is not None]
    warm_script = statistics.median(w[0] for w in done) if done else None
    warm_settled = statistics.median(w[1] for w in done) if done else None
    return cold, warm_script, warm_settled


def _table(rows: list[tuple]) -> None:
    home = next((r[3] for r in rows if r[0] == "home"), None)
    header = (
        f"{'page':<14}{'cold script':>12}{'cold settled':>13}"
        f"{'warm script':>12}{'warm settled':>13}{'x Home':>8}  <= 3 s?"
    )
    print(header)
    print("-" * len(header))
    for name, cold, warm_script, warm_settled in rows:
        ratio = f"{warm_settled / home:.2f}" if home and warm_settled else "-"
        worst = max((v for v in (cold and cold[1], warm_settled) if v is not None), default=None)
        ok = "no" if worst is None or worst > TARGET_SECONDS else "yes"
        print(
            f"{name:<14}{_seconds(cold and cold[0]):>12}{_seconds(cold and cold[1]):>13}"
            f"{_seconds(warm_script):>12}{_seconds(warm_settled):>13}{ratio:>8}  {ok}"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--pages",
        nargs="*",
        default=[],
        help="page names, each optionally with a link's settings, e.g. sim?first=blue "
        "(default: every page)",
    )
    parser.add_argument("--warm", type=int, default=2, help="later visits per page")
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds per visit")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout of the app to serve")
    parser.add_argument(
        "--compare",
        type=Path,
        default=None,
        help="another checkout (e.g. an older commit) served beside --root; the two are "
        "measured page by page in turn, so load on a shared machine hits both alike",
    )
    args = parser.parse_args(argv)
    pages = _pages()
    if args.pages:
        # a page name may carry a link's settings: ``sim?first=blue`` (the AI opens)
        asked = [name.partition("?")[::2] for name in args.pages]
        unknown = {name for name, _ in asked} - {name for name, _ in pages}
        if unknown:
            raise SystemExit(f"unknown page(s) {sorted(unknown)}; choose from {pages}")
        order = {name: index for index, (name, _) in enumerate(pages)}
        asked.sort(key=lambda page: order[page[0]])  # sidebar order, as without --pages
        paths = dict(pages)
        links = [(name, f"?{query}" if query else "") for name, query in asked]
        pages = [("home", "")] + [  # Home: the yardstick
            (name + link, paths[name] + link) for name, link in links if name != "home"
        ]
    if not os.path.exists(CHROMIUM):
        raise SystemExit(f"{CHROMIUM} not found: install Debian's chromium")
    from playwright.sync_api import sync_playwright

    roots = [args.root] + ([args.compare] if args.compare else [])
    print(f"first render per page, servers from {', '.join(map(str, roots))}")
    print(f"before: {_uptime()}")
    rows: dict[Path, list[tuple]] = {root: [] for root in roots}
    with contextlib.ExitStack() as stack, sync_playwright() as playwright:
        urls = {root: stack.enter_context(app_server(root)) for root in roots}
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for name, path in pages:
                for root in roots:
                    cold, warm_script, warm_settled = _measure(
                        browser, urls[root], path, args.warm, args.timeout
                    )
                    rows[root].append((name, cold, warm_script, warm_settled))
                    print(
                        f"  {name} ({root.name}): cold {_seconds(cold and cold[1])} s,"
                        f" warm {_seconds(warm_settled)} s",
                        flush=True,
                    )
        finally:
            browser.close()
    print(f"after: {_uptime()}")
    for root in roots:
        print(f"\n{root}")
        _table(rows[root])
    if args.compare:
        print(f"\nsettled time of {args.root.name} / {args.compare.name} (below 1: faster)")
        for mine, theirs in zip(rows[args.root], rows[args.compare], strict=True):
            cold = f"{mine[1][1] / theirs[1][1]:.2f}" if mine[1] and theirs[1] else "-"
            warm = f"{mine[3] / theirs[3]:.2f}" if mine[3] and theirs[3] else "-"
            print(f"  {mine[0]:<14} cold {cold:>6}   warm {warm:>6}")


if __name__ == "__main__":
    main()
