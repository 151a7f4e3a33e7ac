"""The route-search page in a real browser: click a start and a goal on the map, see the route."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest

from lib.routes import graphs
from lib.routes.graphs import romania
from lib.ui import routes_page
from tests.e2e.conftest import cut_texts, open_page, wait_idle

TO_PIXELS = """(gd, xy) => {
    const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
    const box = gd.getBoundingClientRect();
    return [box.left + xa._offset + xa.l2p(xy[0]), box.top + ya._offset + ya.l2p(xy[1])];
}"""


def _plot(page, key: str):
    """The plotly chart of the element keyed ``key``, drawn and scrolled into view."""
    # a rerun can leave a stale copy of the chart beside the current one for a moment
    plot = page.locator(f'.st-key-{key}:not([data-stale="true"]) .js-plotly-plot').first
    plot.wait_for()
    plot.scroll_into_view_if_needed()
    return plot


def _click_city(page, key: str, city: str) -> None:
    plot = _plot(page, key)
    x, y = plot.evaluate(TO_PIXELS, list(romania().nodes[city]["pos"]))
    page.mouse.move(x, y)
    page.mouse.click(x, y)


def _open_sections(page, *keys: str) -> None:
    """Open the page's lazy sections (their expanders' keys): each is computed when opened."""
    for key in keys:
        page.locator(f".st-key-{key} summary").first.click()
    page.locator(f".st-key-{keys[-1]} [data-testid='stExpanderDetails'] *").first.wait_for()
    wait_idle(page)


def test_click_start_and_goal_on_the_map_shows_the_route(page):
    open_page(page, "routes")
    main = page.locator('[data-testid="stMain"]')
    assert main.get_by_text("A* route (cost 418)").first.is_visible()

    _click_city(page, "rt_map_0", "Timisoara")
    main.get_by_text("Click a place on the map to set the goal").wait_for()
    wait_idle(page)
    _click_city(page, "rt_map_1", "Fagaras")
    G = romania()
    cost = nx.dijkstra_path_length(G, "Timisoara", "Fagaras")
    path = " → ".join(nx.dijkstra_path(G, "Timisoara", "Fagaras"))
    expected = f"A* route (cost {cost:.4g}): {path}"
    main.get_by_text(expected).wait_for()
    wait_idle(page)
    assert main.get_by_text(expected).is_visible()
    assert "goal=Fagaras" in page.url and "start=Timisoara" in page.url


def test_download_the_route_table(page):
    open_page(page, "routes")
    with page.expect_download() as download:
        page.locator(".st-key-rt_w_dl_routes button").click()
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
    """The step the page's one step control is at."""
    return int(page.locator(".st-key-rt_w_step input[type=range]").input_value())


@pytest.mark.parametrize("width", [800, 1400])
def test_the_step_map_and_the_code_that_ran_follow_one_step_control(page, width):
    page.set_viewport_size({"width": width, "height": 1000})
    open_page(page, "routes")
    player = page.locator(PLAYER).first
    player.locator("canvas.search").wait_for()
    player.scroll_into_view_if_needed()
    code = page.locator('[data-testid="stCode"]').first
    code.wait_for()
    assert "▶ " in code.inner_text() and "frontier = [" in code.inner_text()  # the start's push
    if width >= 1400:  # side by side: the code to the right of the map
        stage = player.locator(".stage").bounding_box()
        assert code.bounding_box()["x"] >= stage["x"] + stage["width"] - 1
    page.locator(".st-key-rt_w_next button").click()
    page.wait_for_function(
        "(root) => root.querySelector('.label').textContent.startsWith('step 1: pop Arad')",
        arg=player.element_handle(),
    )
    wait_idle(page)
    marked = [line for line in code.inner_text().splitlines() if line.startswith("▶")]
    assert len(marked) == 1 and "heappop(frontier)" in marked[0]
    assert _step(page) == 1


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


TEXT_BOXES = """(gd) => [...gd.querySelectorAll('.textpoint text')].map((t) => {
    const r = t.getBoundingClientRect();  // line box, less the leading above and below
    return [t.textContent, r.left, r.right, r.top + 3, r.bottom - 3];
})"""


@pytest.mark.parametrize("width", [1024, 1400])
def test_map_names_and_road_lengths_do_not_overlap(page, width):
    page.set_viewport_size({"width": width, "height": 1000})
    open_page(page, "routes?algos=BFS")
    plot = _plot(page, "rt_map_0")
    boxes = plot.evaluate(TEXT_BOXES)
    G = romania()
    assert len(boxes) == G.number_of_nodes() + G.number_of_edges()
    clashes = [
        (a[0], b[0])
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if a[1] < b[2] and b[1] < a[2] and a[3] < b[4] and b[3] < a[4]
    ]
    assert clashes == []


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


def test_the_map_with_its_routes_is_on_the_first_screen_of_a_1024_projector(page):
    # under the settings and a warning the map started at y≈926 (and drew Romania 550x260
    # in a 560 px high figure): the settings are in the sidebar now, the warning under the map
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "routes")
    sidebar = page.locator('[data-testid="stSidebar"]').bounding_box()
    assert sidebar["width"] >= 250 and sidebar["x"] >= 0  # the sidebar is open
    chart = page.locator('.st-key-rt_map_0:not([data-stale="true"]) .js-plotly-plot').first
    chart.locator(".nsewdrag").first.wait_for()
    box = chart.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 768, box
    assert box["x"] >= sidebar["x"] + sidebar["width"] and box["x"] + box["width"] <= 1024, box
    assert page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollTop") == 0
    drawn = chart.evaluate(
        """(gd) => {
            const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
            const places = gd._fullData.find((t) => t.name === 'places');  // arrays decoded
            const xs = [...places.x].map((x) => xa.l2p(x));
            const ys = [...places.y].map((y) => ya.l2p(y));
            return {width: Math.max(...xs) - Math.min(...xs),
                    height: Math.max(...ys) - Math.min(...ys),
                    routes: gd.data.filter((t) => t.mode === 'lines' && t.name.includes(': '))
                        .length};
        }"""
    )
    # the map spans the column (564 px, its names around it) and the four routes are drawn
    plot = chart.locator(".nsewdrag").first.bounding_box()
    assert plot["width"] >= 540 and plot["height"] >= 240, plot
    assert drawn["width"] >= 430 and drawn["height"] >= 200 and drawn["routes"] == 4, drawn


PLACE_BOXES = """(gd) => {
    const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
    const box = gd.querySelector('.nsewdrag').getBoundingClientRect();
    const px = (x, y) => [box.left + xa.l2p(x), box.top + ya.l2p(y)];
    const group = (name) => [...gd.querySelectorAll('g.trace.scatter')].find((g) =>
        g.__data__ && g.__data__[0] && g.__data__[0].trace.name === name);
    const rect = (el, shrink) => {
        const r = el.getBoundingClientRect();  // text: the line box less its leading
        return [r.left, r.right, r.top + shrink, r.bottom - shrink];
    };
    const places = gd._fullData.find((t) => t.name === 'places');  // binary arrays decoded
    const nodes = group('places');
    const names = [...nodes.querySelectorAll('.textpoint text')]
        .map((t) => [t.textContent, rect(t, 3)]);
    const markers = [...nodes.querySelectorAll('path.point')].map((p, i) =>
        [places.customdata[i], rect(p, 0), places.marker.symbol && places.marker.symbol[i]]);
    const lengths = [...group('road lengths').querySelectorAll('.textpoint text')]
        .map((t) => [t.textContent, rect(t, 3)]);
    const roads = gd._fullData.find((t) => t.name === 'roads');  // trails, NaN between them
    const segments = [];
    for (let i = 0; i + 1 < roads.x.length; i += 1)
        if (Number.isFinite(roads.x[i]) && Number.isFinite(roads.x[i + 1]))
            segments.push([px(roads.x[i], roads.y[i]), px(roads.x[i + 1], roads.y[i + 1])]);
    return {names, markers, lengths, segments};
}"""


def _boxes_overlap(a, b) -> bool:
    return a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]


def _segment_crosses(box, p, q) -> bool:
    return any(
        box[0] <= p[0] + (q[0] - p[0]) * t / 200 <= box[1]
        and box[2] <= p[1] + (q[1] - p[1]) * t / 200 <= box[3]
        for t in range(201)
    )


@pytest.mark.parametrize("size", [(1024, 768), (1400, 1000)])
def test_stars_names_and_road_lengths_do_not_hide_each_other(page, size):
    # the start star hid the "d" of Arad, the Timisoara–Lugoj 111 sat under the two dots and
    # "Rimnicu Vilcea" crossed the Fagaras–Bucharest road (211)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_page(page, "routes?algos=BFS")
    found = _plot(page, "rt_map_0").evaluate(PLACE_BOXES)
    stars = [(name, box) for name, box, symbol in found["markers"] if symbol == "star"]
    assert sorted(name for name, _ in stars) == ["Arad", "Bucharest"]
    assert [
        (star, text) for star, a in stars for text, b in found["names"] if _boxes_overlap(a, b)
    ] == []
    (length,) = [box for text, box in found["lengths"] if text == "111"]
    assert [name for name, box, _ in found["markers"] if _boxes_overlap(length, box)] == []
    assert len(found["segments"]) == romania().number_of_edges()  # every road, once
    (vilcea,) = [box for text, box in found["names"] if text.startswith("Rimnicu")]
    assert not any(_segment_crosses(vilcea, p, q) for p, q in found["segments"])


PLACE_PIXEL = """(gd, index) => {
    const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
    const box = gd.querySelector('.nsewdrag').getBoundingClientRect();
    const places = gd._fullData.find((t) => t.name === 'places');  // binary arrays decoded
    return [box.left + xa.l2p(places.x[index]), box.top + ya.l2p(places.y[index])];
}"""


@pytest.mark.parametrize(
    ("query", "make"),
    [
        ("", romania),  # names sent with the figure
        (  # a cell's name written from its row and column
            "?source=Grid+with+obstacles&rows=6&cols=8&obstacles=25&seed=1",
            lambda: graphs.grid(6, 8, obstacles=0.25, diagonal=False, seed=1, corridor=True),
        ),
        (  # a place's name written from its number
            "?source=Random+graph&n=30&seed=1",
            lambda: graphs.random_geometric(30, seed=1),
        ),
    ],
)
def test_hovering_a_place_on_the_route_map_shows_its_name(page, query, make):
    open_page(page, f"routes{query}")
    nodes = list(make().nodes)
    plot = _plot(page, "rt_map_0")
    for index in sorted({0, 1, len(nodes) // 2, len(nodes) - 1}):
        x, y = plot.evaluate(PLACE_PIXEL, index)
        page.mouse.move(x, y)
        hover = plot.locator(".hoverlayer .hovertext")
        hover.wait_for()
        assert hover.locator("text").first.text_content() == graphs.node_label(nodes[index])
        page.mouse.move(0, 0)  # off the map: the next hover is a new one
        hover.wait_for(state="detached")
