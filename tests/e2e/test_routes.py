"""The route-search page in a real browser: click a start and a goal on the map, see the route."""

from __future__ import annotations

import re
from pathlib import Path

import networkx as nx
import pytest

from lib.routes import explain, graphs, search
from lib.routes.graphs import romania
from lib.ui import routes_page
from tests.e2e.conftest import cut_texts, open_page, wait_idle


def _open_sections(page, *keys: str) -> None:
    """Open the page's lazy sections (their expanders' keys): each is computed when opened."""
    for key in keys:
        page.locator(f".st-key-{key} summary").first.click()
    page.locator(f".st-key-{keys[-1]} [data-testid='stExpanderDetails'] *").first.wait_for()
    wait_idle(page)


def test_download_the_route_table(page):
    open_page(page, "routes")
    button = page.locator(".st-key-rt_w_dl_routes button")
    button.scroll_into_view_if_needed(timeout=60_000)
    # under load (a run beside two busy processes) the click once waited out 30 s
    with page.expect_download(timeout=60_000) as download:
        button.click(timeout=60_000)
    text = Path(download.value.path()).read_text(encoding="utf-8-sig")
    assert text.splitlines()[0].startswith("algorithm,cost,shortest")
    assert "A*,418.0,True" in text


def test_settings_survive_a_visit_to_upload(page):
    open_page(page, "routes?goal=Neamt&w=2.5&algos=BFS|A*")
    main = page.locator('[data-testid="stMain"]')
    main.get_by_text("BFS route").wait_for()
    page.locator(".st-key-rt_w_source").get_by_text("Upload", exact=True).click()
    main.get_by_text("Upload an edges CSV").wait_for()
    wait_idle(page)
    page.locator(".st-key-rt_w_source").get_by_text("Romania (AIMA)", exact=True).click()
    main.get_by_text("BFS route").wait_for()
    wait_idle(page)
    algos = page.locator(".st-key-rt_w_algos").inner_text()
    assert "BFS" in algos and "A*" in algos
    assert "2.50" in page.locator(".st-key-rt_w_w").inner_text()
    assert page.locator(".st-key-rt_w_goal input").input_value() == "Neamt"
    best = nx.dijkstra_path_length(romania(), "Arad", "Neamt")
    assert main.get_by_text(f"A* route (cost {best:.4g})").is_visible()
    # and the next change still searches with them
    page.locator(".st-key-rt_w_source").get_by_text("Random graph", exact=True).click()
    page.locator(".st-key-rt_w_n").get_by_text("Places").first.wait_for()  # in the sidebar
    wait_idle(page)
    page.locator(".st-key-rt_w_source").get_by_text("Romania (AIMA)", exact=True).click()
    main.get_by_text(f"A* route (cost {best:.4g})").wait_for()
    # the text can be the previous run's while the rerun is starting: wait for the URL itself
    page.wait_for_function("() => location.search.includes('goal=Neamt')")
    wait_idle(page)
    assert "goal=Neamt" in page.url and "w=2.5" in page.url


PLAYER = '.st-key-rt_animation:not([data-stale="true"]) .route-player'


def _step(page) -> int:
    """The step the page's sentence and frontier table are at ("Step k: ...")."""
    sentence = page.locator('[data-testid="stMarkdownContainer"]').filter(
        has_text=re.compile(r"^Step \d+: ")
    )
    return int(re.match(r"Step (\d+):", sentence.first.inner_text()).group(1))


def _marked(player) -> list[str]:
    """The player's code panel: its marked rows' text (the line number and ▶ left out)."""
    return player.locator(".code .row.current").evaluate_all(
        "(rows) => rows.map((row) => [...row.children].slice(1).map((s) => s.textContent).join(''))"
    )


@pytest.mark.parametrize("width", [800, 1400])
def test_the_step_map_and_the_code_that_ran_follow_one_step_control(page, width):
    page.set_viewport_size({"width": width, "height": 1000})
    open_page(page, "routes")
    player = page.locator(PLAYER).first
    player.locator("canvas.search").wait_for()
    player.scroll_into_view_if_needed()
    code = player.locator(".code")
    code.wait_for()
    marked = _marked(player)
    assert len(marked) == 1 and "frontier = [" in marked[0]  # the start's push
    assert "push: a place goes on the frontier" in code.locator(".code-caption").inner_text()
    stage = player.locator(".stage").bounding_box()
    box = code.bounding_box()
    if width >= 1400:  # side by side: the code to the right of the map
        assert box["x"] >= stage["x"] + stage["width"] - 1
    else:  # a narrow window: the code under the map, as wide as it
        assert box["y"] >= stage["y"] + stage["height"] - 1
    page.locator(".st-key-rt_w_next button").click()
    page.wait_for_function(
        "(root) => root.querySelector('.label').textContent.startsWith('step 1: pop Arad')",
        arg=player.element_handle(),
    )
    wait_idle(page)
    marked = _marked(player)
    assert len(marked) == 1 and "heappop(frontier)" in marked[0]
    assert _step(page) == 1


def test_the_code_marks_each_step_s_line_while_the_search_plays(page):
    open_page(page, "routes")
    player = page.locator(PLAYER).first
    player.locator("canvas.search").wait_for()
    player.scroll_into_view_if_needed()
    wait_idle(page)
    G = graphs.romania()
    traced = search.astar(G, "Arad", "Bucharest", graphs.StraightLine.of(G), record_trace=True)
    source, parts = explain.pseudocode(explain.CODE["A*"])
    expected = [explain.line_of(step, parts) for step in traced.trace]
    # every step and line the player shows while it plays, recorded in the page
    player.evaluate(
        """(root) => {
            window.__shown = [];
            new MutationObserver(() => window.__shown.push(
                [Number(root.dataset.step), Number(root.dataset.line),
                 root.querySelector('.row.current .gutter').textContent]))
              .observe(root, {attributes: true, attributeFilter: ['data-step']});
        }"""
    )
    player.locator("button.watch").click()
    page.wait_for_function(
        "(root) => root.dataset.step === root.dataset.last", arg=player.element_handle()
    )
    shown = page.evaluate("() => window.__shown")
    assert len(shown) >= 10 and shown[-1][0] == len(traced.trace) - 1
    for step, line, gutter in shown:
        assert line == expected[step] and gutter == str(line), (step, line, gutter)
    row = player.locator(".code .row.current").bounding_box()  # the panel scrolled to it
    panel = player.locator(".code pre").bounding_box()
    assert panel["y"] <= row["y"] and row["y"] + row["height"] <= panel["y"] + panel["height"]
    assert page.locator('[data-testid="stCode"]').count() == 0  # no highlighter loaded
    assert source.splitlines()[expected[-1] - 1].strip().startswith("if node == target")


def test_uploaded_names_are_shown_literally_not_as_markdown(page):
    open_page(page, "routes?source=Upload")
    main = page.locator('[data-testid="stMain"]')
    main.get_by_text("Upload an edges CSV").wait_for()
    uploader = page.locator('[data-testid="stFileUploaderDropzoneInput"]').first
    name = "[x](http://attacker.example/i.png).csv"
    bad = b"source,target,weight\nA,B,1\nB,C,lots\n"
    uploader.set_input_files(files=[{"name": name, "mimeType": "text/csv", "buffer": bad}])
    alert = main.locator('[data-testid="stAlert"]').filter(has_text="is not a number").first
    alert.wait_for()
    shown = alert.inner_text().replace("\u2060", "")  # the word joiner that stops autolinks
    assert f"{name}, line 3, column 'weight': 'lots' is not a number." in shown
    assert alert.locator("a, img").count() == 0
    evil = "![x](http://attacker.example/i.png)"
    good = f'source,target,weight\n"{evil}",B,1\nB,"*C*",2\n'.encode()
    uploader.set_input_files(files=[{"name": "ok.csv", "mimeType": "text/csv", "buffer": good}])
    main.get_by_text("route (cost").first.wait_for()
    wait_idle(page)
    markdown = main.locator('[data-testid="stMarkdownContainer"]')
    assert markdown.locator("img, a[href^='http://attacker']").count() == 0
    text = main.inner_text().replace("\u2060", "")
    # the upload opens on its first place and the farthest one it reaches
    assert f"route (cost 3): {evil} → B → *C*" in text


def test_compare_unordered_pairs_and_download_every_pair(page):
    open_page(page, "routes?algos=A*|BFS")
    main = page.locator('[data-testid="stMain"]')
    _open_sections(page, routes_page.COMPARISON_OPEN_KEY)
    form = main.locator('[data-testid="stForm"]')
    form.get_by_text("Unordered, as the course (190)").click()
    form.get_by_role("button", name="Compare on all pairs").click()
    main.get_by_text("Compared on 190 unordered pair(s).").wait_for()
    wait_idle(page)
    with page.expect_download() as download:
        page.locator(".st-key-rt_w_dl_pairs button").click()
    lines = Path(download.value.path()).read_text(encoding="utf-8-sig").splitlines()
    assert lines[0].startswith("source,target,algorithm,cost,optimal_cost,optimal")
    G = romania()
    pairs = {tuple(line.split(",")[:2]) for line in lines[1:]}
    n = G.number_of_nodes()
    assert len(lines) - 1 == 2 * len(pairs) == 2 * n * (n - 1) // 2
    assert not any((t, s) in pairs for s, t in pairs)  # each pair once, one direction


def test_grid_settings_labels_are_not_cut_on_a_1024_projector(page):
    # the diagonal toggle's label used to show as "8-c…"
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "routes?source=Grid+with+obstacles")
    toggle = page.locator('.st-key-rt_w_diagonal:not([data-stale="true"])').first
    toggle.get_by_text("Diagonals").wait_for()
    assert "Diagonals" in toggle.inner_text()
    assert cut_texts(page) == []


TABLES_OVERFLOW = """() => Array.from(document.querySelectorAll('[data-testid="stDataFrame"]'))
    .map((el) => {
        const scroller = el.querySelector('.dvn-scroller');
        return {
            columns: Array.from(el.querySelectorAll('[role=columnheader]'))
                .map((c) => c.textContent).join('|'),
            hidden: scroller ? scroller.scrollWidth - scroller.clientWidth : 0,
        };
    })"""


def test_every_table_shows_all_its_columns_on_a_1024_projector(page):
    # the route table hid its last columns and the summary four of its nine (Mean expanded
    # among them) behind a horizontal scroll bar at 1024 px
    page.set_viewport_size({"width": 1024, "height": 768})
    algos = "|".join(["BFS", "Greedy best-first", "Bidirectional UCS", "A*", 'Course "B*"'])
    open_page(page, f"routes?algos={algos}")
    _open_sections(page, routes_page.COMPARISON_OPEN_KEY, routes_page.CHECK_OPEN_KEY)
    page.get_by_text("Compared on 380 ordered pair(s).").wait_for()
    wait_idle(page)
    frames = page.locator('[data-testid="stDataFrame"] .dvn-scroller')
    for index in range(5):
        frames.nth(index).scroll_into_view_if_needed()  # drawn when first in view
    page.wait_for_function(  # the grids fill their column headers a moment after drawing
        f"() => ({TABLES_OVERFLOW})().filter((t) => t.columns).length >= 5"
    )
    tables = page.evaluate(TABLES_OVERFLOW)
    assert len(tables) >= 5  # routes, frontier, summary, roads, violations
    assert any("Expanded|ms" in t["columns"] for t in tables), tables
    assert [t for t in tables if t["hidden"] > 0] == []


TAGS_CUT = """() => Array.from(
        document.querySelectorAll('[data-testid="stMultiSelectTagsContainer"]'))
    .flatMap((box) => {
        const edge = box.getBoundingClientRect();
        return Array.from(box.querySelectorAll('[data-tag]'))
            .filter((tag) => {
                const r = tag.getBoundingClientRect();
                return r.right > edge.right + 1 || r.left < edge.left - 1 || r.width < 2;
            })
            .map((tag) => tag.getAttribute('aria-label'));
    })"""


def test_chosen_algorithms_are_all_visible_on_a_1024_projector(page):
    # in a column beside the heuristic, the four default algorithms showed as "A*, Course
    # "B*", Unifo…" (the rest hidden), in the page's choice and in the comparison form
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "routes")
    _open_sections(page, routes_page.COMPARISON_OPEN_KEY)
    page.get_by_text("Compared on 380 ordered pair(s).").wait_for()
    wait_idle(page)
    boxes = page.locator('[data-testid="stMultiSelectTagsContainer"]')
    boxes.nth(1).wait_for()
    assert boxes.count() == 2
    for index in range(2):
        boxes.nth(index).scroll_into_view_if_needed()
        assert boxes.nth(index).locator("[data-tag]").count() == 4
    assert page.evaluate(TAGS_CUT) == []
