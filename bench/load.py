"""Load test: is one small shared server still responsive while others work on it?

One local ``streamlit run`` server, headless Debian Chromium (each browser context is one
visitor, i.e. one Streamlit session), bounded in time. Two parts:

(a) **A light click beside a heavy job.** Visitor A plays on a human-vs-human Othello
    board: a click on a square, timed from the click to the end of the script run it
    starts (the app's ``data-test-script-state`` going back to ``notRunning``), median of
    ``--clicks`` clicks. First alone, then while visitor B runs each of the heaviest jobs
    a hosted server allows: an Arena study (the depths 1/3/5/7 preset at its caps), the
    portfolio GA at its caps (population 3,000, 5,000 generations, no early stop) and the
    all-pairs route comparison on a 2,000-place random graph (400 pairs). The goal is at
    most 2x the alone median, measured just before each job (the machine's load drifts).
    B's browser is a second Chromium at nice 19: it stands for a student on another
    computer, so its drawing of the live charts does not compete with A's browser on
    this machine (the server's processes keep their priority). Then B's tab is closed
    and the CPU the server's process tree spends in the next 2 s is measured (goal:
    about none: the job was cancelled).
(b) **Many visitors.** ``--sessions`` visitors (default 20) cycle through every page by
    the sidebar's links for ``--seconds`` (default 60): page loads, errors (a Python
    exception shown on a page, a JavaScript error, a page not finished within 60 s) and
    disconnects (a websocket closed while the visitor stayed). The server's resident
    memory (RSS, summed over its process tree: the job pool's workers too) is sampled
    throughout; it is compared with its baseline (after one visitor saw every page once)
    a minute after the visitors leave (goal: within 10 %), and again once Streamlit's
    2-minute reconnect window is over (it keeps a closed tab's session that long).

(c) **Six heavy sessions beside a light one** (``--part c``). Visitor A's click as in (a),
    first alone, then while six sessions of B's browser all work at once: two Arena
    studies, the GA at its caps and the all-pairs comparison (jobs of the shared pool:
    with two workers two run and two wait, and each waiting page's line, its place and
    the wait expected, is printed) and Othello and Connect Four played AI against AI at
    5 s a move (Autoplay: their moves are searched in the move pool's workers, at the job
    pool's lower priority, once those are up; the first in the server's threads). Goal:
    the median click at most 2x its median alone (printed as the ratio).
    ``--six`` picks some of the sessions. Nothing here is niced but B's browser: the
    server's and its workers' priorities are what is measured.

Load averages are printed before and after each part: on a shared 2-core machine the
absolute times mean little without them, the ratios more.

Run: ``python -m bench.load`` (``--sessions 5 --seconds 30`` for a quick run;
``--part a`` or ``--part b`` for one part, ``--part c`` for the six heavy sessions;
``--jobs arena ga`` for some jobs; ``--root DIR`` serves another checkout, e.g. the app
before the job pool, from ``git archive``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.app_server import CHROMIUM, CHROMIUM_ARGS, running_app  # noqa: E402

PAGE_TIMEOUT_MS = 60_000
OTHELLO = "othello?size=8&black=human&white=human"

# Records every script run of the page: [start, end] in performance.now() milliseconds.
RUN_RECORDER = """
(() => {
    const runs = [];
    window.__runs = runs;
    const STATE = 'data-test-script-state';
    const record = (running) => {
        const t = performance.now();
        const open = runs.length && runs[runs.length - 1][1] === null;
        if (running && !open) runs.push([t, null]);
        if (!running && open) runs[runs.length - 1][1] = t;
    };
    // every change is seen, even a run that starts and ends between two callbacks: each
    // record says what the attribute was before it changed
    const observer = new MutationObserver((records) => {
        for (const r of records) {
            if (r.attributeName !== STATE) continue;
            if (r.oldValue === 'running') record(false);
            else record(true);
        }
        const app = document.querySelector('[data-testid="stApp"]');
        if (app) record(app.getAttribute(STATE) === 'running');
    });
    const start = () => observer.observe(document, {
        subtree: true, attributes: true, attributeOldValue: true, attributeFilter: [STATE],
    });
    if (document.readyState === 'loading') {
        document.addEventListener('DOMContentLoaded', start);
    } else {
        start();
    }
})();
"""

HEAVY_JOBS = {
    # name: (address, the button that starts it, what it is)
    "arena": (
        "arena?preset=othello_pruning&games=50&depth=7",
        "Run study",
        "Arena study: Othello 6x6 depths 1/3/5/7, 50 games per match",
    ),
    "ga": (
        "portfolio?pop=3000&gens=5000&stop=false",
        "Run the GA",
        "portfolio GA at its caps: population 3,000, 5,000 generations, no early stop",
    ),
    "routes": (
        "routes?source=Random+graph&n=2000",
        "Compare on a sample of pairs",
        "all-pairs comparison on a 2,000-place random graph (400 pairs)",
    ),
}
SECTIONS_TO_OPEN = {
    # name: the section (an expander drawn only while open) holding the job's button
    "routes": ".st-key-rt_w_compare_open summary",
}
JOB_PROGRESS = '[data-testid="stProgress"]'
"""A running job's progress bar (every heavy job draws one, with or without the job pool)."""


@contextlib.contextmanager
def server(root: Path, env: dict[str, str] | None = None) -> Iterator[tuple[str, int]]:
    """``streamlit run`` of the app (:func:`bench.app_server.running_app`): (address, pid)."""
    with running_app(root, env=env) as (url, process):
        yield url, process.pid


def tree(pid: int) -> list[psutil.Process]:
    """The server process and every process under it (the job pool's workers included)."""
    root = psutil.Process(pid)
    return [root, *root.children(recursive=True)]


def tree_rss_mb(pid: int) -> float:
    """Resident memory of the server's process tree, in MB."""
    total = 0
    for process in tree(pid):
        with contextlib.suppress(psutil.Error):
            total += process.memory_info().rss
    return total / 1e6


def memory(pid: int) -> str:
    """The tree's RSS, the server process's own and how many processes are under it."""
    own = psutil.Process(pid).memory_info().rss / 1e6
    return f"{tree_rss_mb(pid):.0f} MB (server {own:.0f} MB + {len(tree(pid)) - 1} processes)"


def tree_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds so far of (the server process, the processes under it)."""
    server_cpu, others = 0.0, 0.0
    for process in tree(pid):
        with contextlib.suppress(psutil.Error):
            times = process.cpu_times()
            if process.pid == pid:
                server_cpu = times.user + times.system
            else:
                others += times.user + times.system
    return server_cpu, others


def cpu_by_process(pid: int) -> dict[int, float]:
    """CPU seconds so far of each process of the server's tree, by process id."""
    out = {}
    for process in tree(pid):
        with contextlib.suppress(psutil.Error):
            times = process.cpu_times()
            out[process.pid] = times.user + times.system
    return out


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


# -- part (a): a light click beside a heavy job --------------------------------------------


async def wait_done(page, timeout_ms: int = PAGE_TIMEOUT_MS) -> None:
    """Wait for the page's title, then for its script run to end."""
    await page.locator('[data-testid="stMain"] h1').first.wait_for(timeout=timeout_ms)
    await page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').wait_for(
        timeout=timeout_ms
    )


async def click_square(page, row: int, col: int) -> None:
    """Click square (row, col) of the Othello board (as tests/e2e/conftest.click_board)."""
    board = '[class*="st-key-othello_board_"]:not([data-stale="true"])'
    square = page.locator(f'{board} .game-board [data-target="{row},{col}"]').first
    await square.click(timeout=PAGE_TIMEOUT_MS)


async def click_times(page, clicks: int) -> list[float]:
    """Seconds from each click (corner squares, in turn) to the end of the run it starts."""
    seconds = []
    for i in range(clicks):
        await page.wait_for_timeout(300)
        before = await page.evaluate("() => performance.now()")
        square = (0, 0) if i % 2 == 0 else (7, 7)  # corners: not legal at the start
        await click_square(page, *square)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            runs = await page.evaluate("() => window.__runs")
            ended = [end for start, end in runs if start >= before and end is not None]
            if ended:
                seconds.append((ended[0] - before) / 1000)
                break
            await page.wait_for_timeout(20)
    return seconds


def renice_browser(browser_pid_hint: set[int]) -> int:
    """Lower the priority of this benchmark's Chromium processes not in ``browser_pid_hint``.

    Visitor B's browser stands for a student on another computer: its drawing of the live
    charts must not compete with visitor A's browser, which is the one measured, on this
    machine's two cores. Returns how many processes were reniced.
    """
    count = 0
    for process in chromium_processes():
        if process.pid not in browser_pid_hint:
            with contextlib.suppress(psutil.Error):
                process.nice(19)
                count += 1
    return count


def chromium_processes() -> list[psutil.Process]:
    """The Chromium processes this benchmark started (under its Playwright driver)."""
    mine = []
    for process in psutil.Process(os.getpid()).children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if "chrom" in process.name():
                mine.append(process)
    return mine


def chromium_pids() -> set[int]:
    return {process.pid for process in chromium_processes()}


async def light_click_page(browser, url: str):
    """The light visitor's page: a human-vs-human Othello board, loaded and warmed up (its
    first clicks load what they need), recording each rerun's time."""
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    await context.add_init_script(RUN_RECORDER)
    page = await context.new_page()
    await page.goto(f"{url}/{OTHELLO}")
    await wait_done(page)
    await click_times(page, 2)
    return page


async def part_a(playwright, browser, url: str, pid: int, clicks: int, jobs: list[str]) -> None:
    print(f"\n(a) a light click on a human-vs-human Othello board, median of {clicks}")
    print(f"    before: {load()}")
    a = await light_click_page(browser, url)
    known = chromium_pids()
    b_browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    reniced = renice_browser(known)
    print(f"    visitor B's browser: {reniced} Chromium processes at nice 19")
    rows = []
    for name in jobs:
        address, button, what = HEAVY_JOBS[name]
        # alone just before (the machine's load drifts; the ratio is taken pair by pair)
        alone = statistics.median(await click_times(a, clicks))
        b_context = await b_browser.new_context(viewport={"width": 1400, "height": 1000})
        b = await b_context.new_page()
        await b.goto(f"{url}/{address}")
        await wait_done(b, 180_000)
        renice_browser(known)  # renderers started for the new page
        if name in SECTIONS_TO_OPEN:
            await b.locator(SECTIONS_TO_OPEN[name]).first.click()
        await b.get_by_role("button", name=button).first.click(timeout=180_000)
        await b.locator(JOB_PROGRESS).first.wait_for(timeout=180_000)
        server_before, workers_before = tree_cpu(pid)
        started = time.monotonic()
        peak = [tree_rss_mb(pid)]

        async def sample(peak: list[float] = peak) -> None:
            while True:
                peak[0] = max(peak[0], tree_rss_mb(pid))
                await asyncio.sleep(0.5)

        sampler = asyncio.create_task(sample())
        beside = await click_times(a, clicks)
        sampler.cancel()
        spent = time.monotonic() - started
        server_cpu, workers_cpu = tree_cpu(pid)
        still = await b.locator(JOB_PROGRESS).count() > 0
        await b_context.close()  # the visitor leaves mid-job
        await asyncio.sleep(1.0)
        after = cpu_by_process(pid)
        await asyncio.sleep(2.0)
        later = cpu_by_process(pid)  # a worker killed meanwhile spends nothing more
        idle_cpu = sum(later[p] - after[p] for p in later if p in after)
        median = statistics.median(beside) if beside else float("nan")
        rows.append((name, alone, median, len(beside), peak[0], idle_cpu))
        print(
            f"    {what}: alone {alone:.3f} s, beside it {median:.3f} s "
            f"({median / alone:.2f}x) over {len(beside)} clicks in {spent:.1f} s; CPU "
            f"meanwhile: server {server_cpu - server_before:.1f} s, under it (workers) "
            f"{workers_cpu - workers_before:.1f} s; peak RSS of the server's tree "
            f"{peak[0]:.0f} MB; job still running at the end: {still}; after B's tab closed, "
            f"the server's tree used {idle_cpu:.2f} CPU s in 2 s (from 1 s after); {load()}"
        )
    await b_browser.close()
    await a.context.close()
    print(
        "\n    job        alone s   beside s   x alone   clicks   peak RSS MB"
        "   CPU s in 2 s after close"
    )
    for name, alone, median, count, peak_rss, idle_cpu in rows:
        print(
            f"    {name:<10}{alone:>8.3f}{median:>11.3f}{median / alone:>10.2f}{count:>9}"
            f"{peak_rss:>14.0f}   {idle_cpu:.2f}"
        )
    print(f"    after: {load()}")


# -- part (c): six heavy sessions beside a light one ----------------------------------------

SIX_SESSIONS = {
    # name: (address, what starts it, what it is); a pool job starts with its button, a
    # game's AI-against-AI play with its Autoplay switch (its moves run in the move pool's
    # workers once they are up, the first ones in the server's threads)
    "arena": (*HEAVY_JOBS["arena"][:2], "Arena study"),
    "ga": (*HEAVY_JOBS["ga"][:2], "GA at its caps"),
    "routes": (*HEAVY_JOBS["routes"][:2], "all pairs, 2,000 places"),
    "arena2": (*HEAVY_JOBS["arena"][:2], "a second Arena study"),
    "othello": (
        "othello?size=8&black=alphabeta:time=5&white=alphabeta:time=5",
        "autoplay:othello",
        "Othello AI against AI, 5 s a move (the largest budget)",
    ),
    "connect_four": (
        "connect_four?red=alphabeta:time=5&yellow=alphabeta:time=5",
        "autoplay:connect_four",
        "Connect Four AI against AI, 5 s a move",
    ),
}
WAITING = '[data-testid="stAlert"]:has-text("Waiting for a free worker")'
"""A queued job's line: its place in the queue and, when known, the wait expected."""


async def waiting_line(waiting) -> str:
    """A queued job's line as one line of text (its icon's name left out)."""
    text = (await waiting.first.inner_text()).replace("schedule", "")
    return " ".join(text.split())


async def start_heavy(page, url: str, name: str) -> str:
    """Open session ``name``'s page and start its heavy work; what the page shows then."""
    address, start, _ = SIX_SESSIONS[name]
    await page.goto(f"{url}/{address}")
    await wait_done(page, 180_000)
    if start.startswith("autoplay:"):
        game = start.split(":", 1)[1]
        await page.locator(f".st-key-{game}_w_autoplay label").first.click()
        await page.get_by_text("is thinking").first.wait_for(timeout=180_000)
        return "thinking"
    if name.removesuffix("2") in SECTIONS_TO_OPEN:
        await page.locator(SECTIONS_TO_OPEN[name.removesuffix("2")]).first.click()
    await page.get_by_role("button", name=start).first.click(timeout=180_000)
    shown = page.locator(f"{JOB_PROGRESS}, {WAITING}").first
    await shown.wait_for(timeout=180_000)
    return "running" if await page.locator(WAITING).count() == 0 else "queued"


async def part_c(playwright, browser, url: str, pid: int, clicks: int, names: list[str]) -> float:
    """A light click's median alone, then beside ``names`` (by default six heavy sessions);
    the ratio."""
    print(f"\n(c) a light click beside {len(names)} heavy sessions, median of {clicks}")
    print(f"    before: {load()}")
    a = await light_click_page(browser, url)
    known = chromium_pids()
    b_browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    renice_browser(known)
    alone = statistics.median(await click_times(a, clicks))
    pages = []
    for name in names:
        context = await b_browser.new_context(viewport={"width": 1400, "height": 1000})
        page = await context.new_page()
        pages.append((name, page))
        state = await start_heavy(page, url, name)
        renice_browser(known)
        print(f"    {SIX_SESSIONS[name][2]}: {state}")
    await asyncio.sleep(3)
    for name, page in pages:
        waiting = page.locator(WAITING)
        if await waiting.count():
            print(f"    {name} shows: {await waiting_line(waiting)}")
    server_before, workers_before = tree_cpu(pid)
    started = time.monotonic()
    beside = await click_times(a, clicks)
    spent = time.monotonic() - started
    server_cpu, workers_cpu = tree_cpu(pid)
    for name, page in pages:
        waiting = page.locator(WAITING)
        if await waiting.count():
            print(f"    {name} shows at the end: {await waiting_line(waiting)}")
    await b_browser.close()  # the heavy work stops with its tabs (cancelled within ~1 s)
    await asyncio.sleep(5)
    # alone again after: the machine's own load drifts; the ratio is to the mean of both
    after = statistics.median(await click_times(a, clicks))
    await a.context.close()
    median = statistics.median(beside) if beside else float("nan")
    ratio = median / ((alone + after) / 2)
    print(
        f"    alone {alone:.3f} s before and {after:.3f} s after, beside {len(names)} heavy "
        f"sessions {median:.3f} s over {len(beside)} clicks in {spent:.1f} s: {ratio:.2f}x the "
        f"mean alone (goal 2x); CPU meanwhile: server {server_cpu - server_before:.1f} s, "
        f"workers {workers_cpu - workers_before:.1f} s"
    )
    print(f"    after: {load()}")
    return ratio


# -- part (b): many visitors cycling through the pages --------------------------------------


def page_paths() -> list[str]:
    """URL path of every page, Home ("") first."""
    from lib.ui.navigation import PAGES, url_path

    return ["", *(url_path(info) for info in PAGES)]


async def visitor(browser, url: str, paths: list[str], until: float, stats: dict) -> None:
    """One visitor: open Home, then follow the sidebar's links page after page until ``until``."""
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    await context.add_init_script(RUN_RECORDER)
    page = await context.new_page()
    leaving = [False]

    def on_close(_socket) -> None:
        if not leaving[0]:  # the app's pages switch without a reload: one socket per visit
            stats["disconnects"] += 1

    def on_socket(socket) -> None:
        socket.on("close", on_close)

    page.on("websocket", on_socket)
    page.on("pageerror", lambda error: stats["js_errors"].append(str(error)[:200]))
    try:
        await page.goto(f"{url}/", timeout=PAGE_TIMEOUT_MS)
        await wait_done(page)
        step = 0
        while time.monotonic() < until:
            step += 1
            path = paths[step % len(paths)]
            started = time.monotonic()
            try:
                # the menu's links are relative ("portfolio") or absolute (".../portfolio")
                menu = ".st-key-app_menu a"
                link = page.locator(f'{menu}[href="{path}"], {menu}[href$="/{path}"]').first
                before = await page.evaluate("() => performance.now()")
                await link.click(timeout=PAGE_TIMEOUT_MS)
                # done: a script run that started after the click has ended
                await page.wait_for_function(
                    "(t) => window.__runs.some(([s, e]) => s >= t && e !== null)",
                    arg=before,
                    timeout=PAGE_TIMEOUT_MS,
                )
                await wait_done(page)
            except Exception as error:  # a page that did not finish in time
                stats["timeouts"].append(f"{path or 'home'}: {type(error).__name__}")
                continue
            stats["loads"].append(time.monotonic() - started)
            shown = await page.locator('[data-testid="stException"]').count()
            if shown:
                stats["exceptions"].append(path or "home")
    except Exception as error:
        stats["timeouts"].append(f"start: {type(error).__name__}")
    finally:
        leaving[0] = True
        await context.close()


RECONNECT_WINDOW_S = 120
"""Seconds Streamlit keeps a disconnected session (its ``MemorySessionStorage`` TTL)."""


async def part_b(browser, url: str, pid: int, sessions: int, seconds: float) -> None:
    paths = page_paths()
    print(f"\n(b) {sessions} visitors cycling through {len(paths)} pages for {seconds:.0f} s")
    for path in paths:  # one visitor sees every page once: imports and caches are paid
        context = await browser.new_context(viewport={"width": 1400, "height": 1000})
        page = await context.new_page()
        with contextlib.suppress(Exception):
            await page.goto(f"{url}/{path}", timeout=PAGE_TIMEOUT_MS)
            await wait_done(page, 180_000)
        await context.close()
    await asyncio.sleep(10)
    baseline = tree_rss_mb(pid)
    server_baseline = psutil.Process(pid).memory_info().rss / 1e6
    print(f"    baseline RSS {memory(pid)} after one visitor saw every page; {load()}")
    stats = {"disconnects": 0, "js_errors": [], "timeouts": [], "exceptions": [], "loads": []}
    until = time.monotonic() + seconds
    peak = [baseline]

    async def sample() -> None:
        while time.monotonic() < until + 30:
            peak[0] = max(peak[0], tree_rss_mb(pid))
            await asyncio.sleep(0.5)

    sampler = asyncio.create_task(sample())
    started = time.monotonic()
    await asyncio.gather(*(visitor(browser, url, paths, until, stats) for _ in range(sessions)))
    took = time.monotonic() - started
    sampler.cancel()
    print(f"    visitors left after {took:.0f} s; RSS now {memory(pid)}; {load()}")
    await asyncio.sleep(60)
    after = tree_rss_mb(pid)
    server_after = psutil.Process(pid).memory_info().rss / 1e6
    print(
        f"    a minute later: RSS {memory(pid)}; the server process alone "
        f"{100 * (server_after - server_baseline) / server_baseline:+.1f} % from its baseline"
    )
    # Streamlit keeps a closed tab's session for 2 minutes (MemorySessionStorage's TTL), for
    # the tab to reconnect: the visitors' sessions are only gone after that
    await asyncio.sleep(RECONNECT_WINDOW_S + 10 - 60)
    # the session store drops expired sessions when it next stores one: one new visitor
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    page = await context.new_page()
    with contextlib.suppress(Exception):
        await page.goto(url, timeout=PAGE_TIMEOUT_MS)
        await wait_done(page, 60_000)
    await context.close()
    await asyncio.sleep(10)
    later = tree_rss_mb(pid)
    print(
        f"    {RECONNECT_WINDOW_S + 10} s after they left (Streamlit's reconnect window over) "
        f"and one new visitor later: RSS {memory(pid)}; "
        f"{100 * (later - baseline) / baseline:+.1f} % from the baseline"
    )
    loads = stats["loads"]
    print(
        f"    page loads {len(loads)} (median {statistics.median(loads) if loads else 0:.2f} s, "
        f"max {max(loads, default=0):.2f} s); errors: {len(stats['exceptions'])} Python "
        f"exceptions shown, {len(stats['js_errors'])} JavaScript errors, "
        f"{len(stats['timeouts'])} pages not finished in 60 s; disconnects "
        f"{stats['disconnects']}"
    )
    for kind in ("exceptions", "js_errors", "timeouts"):
        if stats[kind]:
            print(f"      {kind}: {sorted(set(stats[kind]))[:8]}")
    print(
        f"    RSS: baseline {baseline:.0f} MB, peak {peak[0]:.0f} MB, a minute after the "
        f"visitors left {after:.0f} MB ({100 * (after - baseline) / baseline:+.1f} %; goal "
        f"within 10 %); {load()}"
    )


async def run(args: argparse.Namespace) -> None:
    from playwright.async_api import async_playwright

    print(f"load test, {os.cpu_count()} CPUs; {load()}")
    print(f"serving {args.root}")
    with server(args.root) as (url, pid):
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                if args.part in ("a", "both"):
                    await part_a(playwright, browser, url, pid, args.clicks, args.jobs)
                if args.part == "c":
                    await part_c(playwright, browser, url, pid, args.clicks, args.six)
                if args.part in ("b", "both"):
                    await part_b(browser, url, pid, args.sessions, args.seconds)
            finally:
                await browser.close()
    print(f"\ndone; {load()}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("a", "b", "c", "both"), default="both")
    parser.add_argument("--clicks", type=int, default=10, help="clicks per median (part a)")
    parser.add_argument(
        "--jobs", nargs="*", default=list(HEAVY_JOBS), choices=list(HEAVY_JOBS), help="part a"
    )
    parser.add_argument(
        "--six", nargs="*", default=list(SIX_SESSIONS), choices=list(SIX_SESSIONS), help="part c"
    )
    parser.add_argument("--sessions", type=int, default=20, help="visitors (part b)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long they stay (b)")
    parser.add_argument(
        "--root",
        type=Path,
        default=ROOT,
        help="checkout of the app to serve (e.g. an older commit from git archive)",
    )
    args = parser.parse_args(argv)
    if not os.path.exists(CHROMIUM):
        raise SystemExit(f"{CHROMIUM} not found: install Debian's chromium")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
