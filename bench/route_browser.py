"""Benchmark: the route page on its largest maps in a real browser.

One local ``streamlit run`` server per checkout (``bench.first_render.app_server``),
headless Debian Chromium. For the 60x80 grid and the 2,000-place random graph:

- ``first render``: a new visitor opens the page until the route map and the step map
  are drawn and the script has finished (seconds; goal on 2,000 places: 5 s);
- ``frames/s``: frames shown per second while the step map plays (goal: 10), counted
  from the canvas player's shown step (this page), the plotly figure's frame events (the
  page before it) or the Step slider (a page that plays by reruns);
- ``pause``: seconds from the click on Pause reaching the page until the last frame
  changed (goal: 0.3 s; a page that plays by reruns: from sending the click);
- ``click``: a click on the route map (a new start; the canvas map, or the plotly chart
  of a page before it) until the page has finished its rerun; ``algorithm``: the same
  for a change of the animated algorithm (goal: 1 s);
- ``payload``: the size of the step map's and the route map's JSON as Streamlit sends
  them, built in this process (goal: under 300 KB).

``--edit`` measures instead the map editing on the 60x80 grid: a wall stroke of three
cells on the route map, from the mouse's release (in the page) until the route map is
drawn again with the edited map's searches (``edit-to-redraw``, goal 0.5 s), and until
the page's rerun has finished (``edit-to-idle``: the step player and tables too). After
each stroke, the reference measured in the same minutes on the same page: a click on a
place (a new start or goal) until the route map is drawn again, and until idle. With
``--compare DIR`` the other checkout's page is measured too, two strokes at a time in
turn, and this page's medians are printed as ratios of that one's.

``--race`` measures the race of four algorithms (A*, uniform-cost, greedy best-first,
weighted A*) on the 2,000-place random graph: frames drawn per second while all four
play at 8x (each frame advances every racer; goal 15 frames/s).

``--compare DIR`` serves another checkout beside this one (e.g. today's page from
``git archive``) and measures both map by map in turn, printing this page's times as
ratios of that one's: load on a shared machine hits both alike. ``--rounds N`` measures
each map N times, the two checkouts in alternate order (the first measured of a pair
met a busier machine about as often as the second), and prints the medians. The load
average is printed before and after.

    python -m bench.route_browser [--compare /tmp/old-app] [--maps grid random] [--rounds 3]
    python -m bench.route_browser --edit 6 [--compare /tmp/old-app]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.app_server import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from bench.first_render import app_server  # noqa: E402

MAPS = {
    "grid": "routes?source=Grid+with+obstacles&rows=60&cols=80&obstacles=25&seed=1",
    "random": "routes?source=Random+graph&n=2000&seed=1",
}
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
CHART = '.st-key-rt_animation:not([data-stale="true"]) .js-plotly-plot'
PLAYER = '.st-key-rt_animation:not([data-stale="true"]) .route-player'
#: The step map drawn: the canvas player's canvases or the plotly figure's plot area.
STEP_MAP = f"{PLAYER} canvas.search, {CHART} .nsewdrag"
# Counts script runs and records when the app last went idle (performance.now()).
WATCH_APP = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    window.__bench = {runs: 0, idleAt: performance.now()};
    new MutationObserver((records) => {
        // a short run (a fragment's) can start and end within one batch of records
        const state = app.getAttribute('data-test-script-state');
        if (state === 'running' || records.some((r) => r.oldValue === 'running')) {
            window.__bench.runs += 1;
        }
        if (state !== 'running') window.__bench.idleAt = performance.now();
    }).observe(app, {attributes: true, attributeOldValue: true,
                     attributeFilter: ['data-test-script-state']});
}"""
# This page's step map: frame changes, timed in the page (plotly's own event).
WATCH_FRAMES = """(gd) => {
    window.__frames = [];
    gd.on('plotly_animatingframe', () => window.__frames.push(performance.now()));
    document.addEventListener('click', () => { window.__clickAt = performance.now(); }, true);
}"""
# The canvas player: each frame drawn sets its data-step (after drawing), timed in the page.
WATCH_STEPS = """(player) => {
    window.__frames = [];
    new MutationObserver(() => window.__frames.push(performance.now()))
        .observe(player, {attributes: true, attributeFilter: ['data-step']});
    document.addEventListener('click', () => { window.__clickAt = performance.now(); }, true);
}"""


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _open(browser, url: str, timeout: float):
    """A new visitor on ``url``: (context, page, seconds until both maps are drawn, idle)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(timeout * 1000)
    page = context.new_page()
    start = time.monotonic()
    page.goto(url)
    page.locator(STEP_MAP).first.wait_for()
    page.locator(ROUTE_MAP_DRAWN).first.wait_for()
    page.wait_for_selector(IDLE)
    return context, page, time.monotonic() - start


def _rerun_seconds(page, act) -> float:
    """Seconds from ``act()`` until the rerun it starts has finished (the page goes idle)."""
    page.evaluate(WATCH_APP)
    start = page.evaluate("() => performance.now()")
    act()
    page.wait_for_function("() => window.__bench.runs > 0")
    page.wait_for_selector(IDLE)
    page.wait_for_timeout(300)  # a second run (a fragment, a rerun) counts too
    page.wait_for_selector(IDLE)
    return (page.evaluate("() => window.__bench.idleAt") - start) / 1000


#: The route map: the canvas (this page) or the plotly chart (the page before it), whose
#: key changed after every click.
ROUTE_MAP = '.st-key-rt_map:not([data-stale="true"]) .route-map'
OLD_ROUTE_MAP = '[class*="st-key-rt_map_"]:not([data-stale="true"]) .js-plotly-plot'
#: The route map drawn (either kind).
ROUTE_MAP_DRAWN = f"{ROUTE_MAP} canvas.marks, {OLD_ROUTE_MAP} .nsewdrag"


def _click_map(page) -> None:
    """Click the route map at a third of its places (the start becomes that place)."""
    if page.locator(ROUTE_MAP).count():
        route_map = page.locator(ROUTE_MAP).first
        route_map.scroll_into_view_if_needed()
        x, y = route_map.evaluate(
            """(root) => {
                const box = root.querySelector('canvas.marks').getBoundingClientRect();
                const [x, y] = root.pixelOf(Math.floor(Number(root.dataset.places) / 3));
                return [box.left + x, box.top + y];
            }"""
        )
    else:
        chart = page.locator(OLD_ROUTE_MAP).first
        chart.scroll_into_view_if_needed()
        x, y = chart.evaluate(
            """(gd) => {
                const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
                const box = gd.querySelector('.nsewdrag').getBoundingClientRect();
                const places = gd._fullData.find((t) => t.name === 'places');  // decoded arrays
                const i = Math.floor(places.x.length / 3);
                return [box.left + xa.l2p(places.x[i]), box.top + ya.l2p(places.y[i])];
            }"""
        )
    page.mouse.move(x, y)
    page.mouse.click(x, y)


def _change_algorithm(page) -> None:
    box = page.locator(".st-key-rt_w_anim")
    box.scroll_into_view_if_needed()
    box.click()
    other = page.locator('[role="option"][aria-selected="false"]').first  # not the current one
    other.wait_for()
    other.click()


def _play_in_browser(page, seconds: float) -> tuple[float, float]:
    """(frames/s, pause seconds) of a step map that plays itself (canvas player, plotly frames)."""
    canvas = page.locator(PLAYER).count() > 0
    chart = page.locator(PLAYER if canvas else CHART).first
    chart.scroll_into_view_if_needed()
    chart.evaluate(WATCH_STEPS if canvas else WATCH_FRAMES)
    if canvas:
        watch, pause = chart.locator("button.watch"), chart.locator("button.pause")
    else:
        watch = chart.locator(".updatemenu-button").filter(has_text="Watch")
        pause = chart.locator(".updatemenu-button").filter(has_text="Pause")
    watch.click()
    page.wait_for_timeout(seconds * 1000)
    pause.click()
    page.wait_for_timeout(1500)
    pressed = page.evaluate("() => window.__clickAt")  # when the click reached the page
    frames = page.evaluate("() => window.__frames")
    before = [t for t in frames if t <= pressed]
    fps = (len(before) - 1) / ((before[-1] - before[0]) / 1000) if len(before) > 1 else 0.0
    after = [t for t in frames if t > pressed]
    return fps, ((after[-1] - pressed) / 1000 if after else 0.0)


def _play_by_reruns(page, seconds: float) -> tuple[float, float]:
    """(frames/s, pause seconds) of a page that plays by a rerun per frame (its Step slider)."""
    step = ".st-key-rt_w_step input[type=range]"
    page.locator(".st-key-rt_w_play button").click()
    page.locator(".st-key-rt_w_play button").filter(has_text="Pause").wait_for()
    seen: list[tuple[float, int]] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = int(page.locator(step).first.input_value())
        if not seen or value != seen[-1][1]:
            seen.append((time.monotonic(), value))
        page.wait_for_timeout(50)
    pressed = time.monotonic()
    page.locator(".st-key-rt_w_play button").click()
    last_change = pressed
    value = seen[-1][1] if seen else 0
    quiet_until = time.monotonic() + 10
    while time.monotonic() < quiet_until:  # until the step stayed put for 3 s
        now = int(page.locator(step).first.input_value())
        if now != value:
            value, last_change = now, time.monotonic()
        if time.monotonic() - last_change > 3:
            break
        page.wait_for_timeout(50)
    changes = len(seen) - 1
    fps = changes / (seen[-1][0] - seen[0][0]) if changes > 0 else 0.0
    return fps, last_change - pressed


def _payloads(name: str) -> tuple[int, int]:
    """Bytes of this checkout's largest animation and route map (A*, BFS, DFS) on map ``name``."""
    from bench.route_payloads import step_map_bytes
    from lib.routes import animation, graphs, places, search

    if name == "grid":
        G = graphs.grid(60, 80, obstacles=0.25, diagonal=False, seed=1, corridor=True)
    else:
        G = graphs.random_geometric(2_000, seed=1)
    start, goal = (graphs.find_node(G, label) for label in places.default_endpoints(G))
    heuristic = graphs.make_heuristic(G, graphs.heuristic_choices(G)[0])
    biggest = biggest_route = 0  # the largest over these algorithms (DFS's long route)
    for algorithm in ("A*", "BFS", "DFS"):
        result = search.run(algorithm, G, start, goal, heuristic, record_trace=True)
        step_map = step_map_bytes(animation, G, result, 0, start, goal, algorithm)
        biggest = max(biggest, step_map)
        route_map = animation.route_map_data(
            G, routes=[(algorithm, result.path)], start=start, goal=goal
        )
        biggest_route = max(biggest_route, len(json.dumps(route_map)))
    return biggest, biggest_route


def measure(browser, url: str, path: str, seconds: float, timeout: float) -> dict:
    """Every figure of one map on one server."""
    context, page, first = _open(browser, f"{url}/{path}", timeout)
    try:
        in_browser = page.locator(f"{PLAYER}, {CHART} .updatemenu-button").count() > 0
        play = _play_in_browser if in_browser else _play_by_reruns
        fps, pause = play(page, seconds)
        page.wait_for_selector(IDLE)
        clicks = [_rerun_seconds(page, lambda: _click_map(page)) for _ in range(2)]
        changes = [_rerun_seconds(page, lambda: _change_algorithm(page)) for _ in range(2)]
        return {
            "first render": first,
            "frames/s": fps,
            "pause": pause,
            "click": statistics.median(clicks),
            "algorithm": statistics.median(changes),
        }
    finally:
        context.close()


# The route map's root element, inside its component's shadow root.
MAP_ROOT = """() => {
    const host = document.querySelector('.st-key-rt_map');
    const shadow = host && [...host.querySelectorAll('*')].find((e) => e.shadowRoot);
    return shadow ? shadow.shadowRoot.querySelector('.route-map') : null;
}"""


def _redrawn(page, act) -> float:
    """Seconds from the mouse's release in ``act()`` until the route map is drawn anew."""
    digest = page.evaluate(f"() => ({MAP_ROOT})().dataset.digest")
    act()
    drawn = page.wait_for_function(
        f"""(old) => {{
            const root = ({MAP_ROOT})();
            return root && root.dataset.digest !== old && performance.now();
        }}""",
        arg=digest,
        polling="raf",
    ).json_value()
    return (drawn - page.evaluate("() => window.__upAt")) / 1000


def _idle_after_release(page) -> float:
    """Seconds from the last release until the page's runs have ended (300 ms of quiet)."""
    page.wait_for_selector(IDLE)
    page.wait_for_timeout(300)  # the page's own rerun after the map's (a fragment's)
    page.wait_for_selector(IDLE)
    return (
        page.evaluate("() => performance.now()") - page.evaluate("() => window.__upAt")
    ) / 1000 - 0.3


def measure_edits(browser, url: str, strokes: int, timeout: float) -> list[dict]:
    """Per wall stroke on the 60x80 grid: edit-to-redraw and edit-to-idle (seconds), and a
    map click's click-to-redraw and click-to-idle measured right after it (the reference)."""
    context, page, _ = _open(browser, f"{url}/{MAPS['grid']}", timeout)
    found = []
    try:
        route_map = page.locator(ROUTE_MAP).first
        route_map.scroll_into_view_if_needed()
        route_map.locator('button.tool[data-tool="wall"]').click()
        page.evaluate(
            "() => document.addEventListener('pointerup', "
            "() => { window.__upAt = performance.now(); }, true)"
        )
        for k in range(strokes):
            cells = [(20 + r, 10 + 6 * k) for r in range(3)]
            points = route_map.evaluate(
                """(root, cells) => {
                    const box = root.querySelector('canvas.marks').getBoundingClientRect();
                    return cells.map(([r, c]) => {
                        const [x, y] = root.cellPixel(r, c);
                        return [box.left + x, box.top + y];
                    });
                }""",
                cells,
            )

            def stroke(points=points) -> None:
                page.mouse.move(*points[0])
                page.mouse.down()
                for point in points[1:]:
                    page.mouse.move(*point, steps=3)
                page.mouse.up()

            row = {"edit": _redrawn(page, stroke)}
            row["edit idle"] = _idle_after_release(page)
            route_map = page.locator(ROUTE_MAP).first
            # the reference: a click on a place (a new start, then a new goal), same page
            route_map.locator('button.tool[data-tool="pick"]').click()
            place = (1 + k % 2) / 3
            x, y = route_map.evaluate(
                """(root, share) => {
                    const box = root.querySelector('canvas.marks').getBoundingClientRect();
                    const [x, y] = root.pixelOf(Math.floor(Number(root.dataset.places) * share));
                    return [box.left + x, box.top + y];
                }""",
                place,
            )
            row["click"] = _redrawn(page, lambda x=x, y=y: page.mouse.click(x, y))
            row["click idle"] = _idle_after_release(page)
            route_map = page.locator(ROUTE_MAP).first
            route_map.locator('button.tool[data-tool="wall"]').click()
            found.append(row)
            shown = ", ".join(f"{key} {value:.3f}" for key, value in row.items())
            print(f"  stroke {k + 1} ({_load()}): {shown} s", flush=True)
    finally:
        context.close()
    return found


def main_edits(strokes: int, timeout: float, compare: Path | None) -> None:
    """Print the editing figures (``--edit``), beside another checkout's (``--compare``)."""
    from playwright.sync_api import sync_playwright

    roots = [ROOT] + ([compare] if compare else [])
    print(f"map edits on the 60x80 grid; load average before: {_load()}")
    found: dict[Path, list[dict]] = {root: [] for root in roots}
    with contextlib.ExitStack() as stack, sync_playwright() as playwright:
        urls = {root: stack.enter_context(app_server(root)) for root in roots}
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            # a few strokes at a time, the checkouts in turn: load hits both alike
            for round_, first in enumerate(range(0, strokes, 2)):
                for root in roots if round_ % 2 == 0 else roots[::-1]:
                    print(f" {root.name}:", flush=True)
                    found[root] += measure_edits(
                        browser, urls[root], min(2, strokes - first), timeout
                    )
        finally:
            browser.close()
    print(f"load average after: {_load()}")
    medians = {
        root: {key: statistics.median(row[key] for row in rows) for key in rows[0]}
        for root, rows in found.items()
    }
    for root, median in medians.items():
        shown = ", ".join(f"{key} {value:.3f}" for key, value in median.items())
        print(f"{root.name}, median of {len(found[root])}: {shown} s (goal: edit 0.5 s)")
        ratio = median["edit"] / median["click"]
        print(f"  edit-to-redraw / click-to-redraw on the same page: {ratio:.2f}")
    if compare:
        mine, theirs = medians[ROOT], medians[compare]
        ratios = ", ".join(f"{key} x{mine[key] / theirs[key]:.2f}" for key in mine)
        print(f"this checkout / {compare.name}: {ratios}")


RACE = '.st-key-rt_race:not([data-stale="true"]) .route-race'
RACERS = ("Greedy best-first", "Weighted A*")  # beside the two raced by default


def measure_race(browser, url: str, seconds: float, timeout: float) -> tuple[float, int]:
    """(frames/s, racers) while four algorithms race on 2,000 places at 8x."""
    context, page, _ = _open(browser, f"{url}/{MAPS['random']}", timeout)
    try:
        page.locator(".st-key-rt_w_race_open summary").first.click()
        page.locator(f"{RACE} .racer canvas.search").first.wait_for()
        page.wait_for_selector(IDLE)
        for name in RACERS:
            box = page.locator(".st-key-rt_w_race input").first
            box.click()
            box.fill(name)
            box.press("Enter")
            page.keyboard.press("Escape")
            page.wait_for_selector(IDLE)
        page.locator(f"{RACE} .racer:nth-child(4) canvas.search").wait_for()
        page.wait_for_selector(IDLE)
        board = page.locator(RACE).first
        board.scroll_into_view_if_needed()
        racers = board.locator(".racer").count()
        board.evaluate(WATCH_TICKS)
        board.locator("select.speed").select_option("8")
        board.locator("button.play").click()
        page.wait_for_timeout(seconds * 1000)
        board.locator("button.play").click()
        frames = page.evaluate("() => window.__ticks")
        fps = (len(frames) - 1) / ((frames[-1] - frames[0]) / 1000) if len(frames) > 1 else 0.0
        return fps, racers
    finally:
        context.close()


# The race: each frame drawn sets its root's data-tick (after drawing every racer).
WATCH_TICKS = """(root) => {
    window.__ticks = [];
    new MutationObserver(() => window.__ticks.push(performance.now()))
        .observe(root, {attributes: true, attributeFilter: ['data-tick']});
}"""


def main_race(seconds: float, timeout: float, rounds: int) -> None:
    """Print the race figures (``--race``)."""
    from playwright.sync_api import sync_playwright

    print(f"a race of four on 2,000 places; load average before: {_load()}")
    with app_server(ROOT) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            found = [measure_race(browser, url, seconds, timeout) for _ in range(rounds)]
        finally:
            browser.close()
    for fps, racers in found:
        print(f"  {racers} racers at 8x: {fps:.1f} frames/s")
    print(f"median: {statistics.median(f for f, _ in found):.1f} frames/s (goal 15)")
    print(f"load average after: {_load()}")


GOALS = {"first render": 5.0, "frames/s": 10.0, "pause": 0.3, "click": 1.0, "algorithm": 1.0}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", nargs="*", default=list(MAPS), choices=list(MAPS))
    parser.add_argument("--compare", type=Path, default=None, help="another checkout to serve")
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds of play measured")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds per wait")
    parser.add_argument("--rounds", type=int, default=1, help="measurements per map and page")
    parser.add_argument("--edit", type=int, default=0, help="measure this many map edits only")
    parser.add_argument("--race", action="store_true", help="measure a race of four only")
    args = parser.parse_args(argv)
    if not os.path.exists(CHROMIUM):
        raise SystemExit(f"{CHROMIUM} not found: install Debian's chromium")
    if args.edit:
        main_edits(args.edit, args.timeout, args.compare)
        return
    if args.race:
        main_race(args.seconds, args.timeout, args.rounds)
        return
    from playwright.sync_api import sync_playwright

    roots = [ROOT] + ([args.compare] if args.compare else [])
    print(f"route page in the browser; load average before: {_load()}")
    runs: dict[Path, dict[str, list[dict]]] = {
        root: {name: [] for name in args.maps} for root in roots
    }
    with contextlib.ExitStack() as stack, sync_playwright() as playwright:
        urls = {root: stack.enter_context(app_server(root)) for root in roots}
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for name in args.maps:
                for round_ in range(args.rounds):
                    for root in roots if round_ % 2 == 0 else roots[::-1]:
                        found = measure(browser, urls[root], MAPS[name], args.seconds, args.timeout)
                        runs[root][name].append(found)
                        shown = ", ".join(f"{k} {v:.2f}" for k, v in found.items())
                        print(f"  {name} ({root.name}, {_load()}): {shown}", flush=True)
        finally:
            browser.close()
    print(f"load average after: {_load()}")
    results = {
        root: {
            name: {key: statistics.median(run[key] for run in found) for key in GOALS}
            for name, found in maps.items()
        }
        for root, maps in runs.items()
    }
    for name in args.maps:
        step_bytes, map_bytes = _payloads(name)
        print(f"\n{name}: step map {step_bytes / 1e3:.0f} KB, route map {map_bytes / 1e3:.0f} KB")
        mine = results[ROOT][name]
        theirs = results[args.compare][name] if args.compare else None
        print(
            f"  {'median of ' + str(args.rounds):<14}{'this page':>10}{'goal':>8}{'met':>5}"
            + ("  vs compared" if theirs else "")
        )
        for key, goal in GOALS.items():
            met = mine[key] >= goal if key == "frames/s" else mine[key] <= goal
            row = f"  {key:<14}{mine[key]:>10.2f}{goal:>8.1f}{'yes' if met else 'no':>5}"
            if theirs:
                ratio = mine[key] / theirs[key] if theirs[key] else float("inf")
                row += f"  {theirs[key]:.2f} there, x{ratio:.2f}"
            print(row)


if __name__ == "__main__":
    main()
