"""The clickable route map (a canvas) in a real browser: clicks set the start and goal."""

from __future__ import annotations

import networkx as nx
import pytest

from lib.routes import graphs
from lib.routes.graphs import romania
from tests.e2e.conftest import open_page, wait_settled

MAP = '.st-key-rt_map:not([data-stale="true"]) .route-map'
#: Where place ``index`` is drawn, in the page's CSS px (the canvas's box plus its position).
PLACE_PIXEL = """(root, index) => {
    const box = root.querySelector('canvas.marks').getBoundingClientRect();
    const [x, y] = root.pixelOf(index);
    return [box.left + x, box.top + y];
}"""


def _map(page):
    route_map = page.locator(MAP).first
    route_map.locator("canvas.marks").wait_for()
    route_map.scroll_into_view_if_needed()
    return route_map


def _click_place(page, index: int) -> None:
    x, y = _map(page).evaluate(PLACE_PIXEL, index)
    page.mouse.click(x, y)


def _wait_for_ends(page, start: int, goal: int) -> None:
    """Wait until the map (redrawn by the rerun) shows ``start`` and ``goal``."""
    # Playwright's CSS reaches into the component's shadow root (document.querySelector does not)
    page.locator(
        f'.st-key-rt_map .route-map[data-start="{start}"][data-goal="{goal}"]'
    ).first.wait_for(timeout=60_000)
    wait_settled(page)  # the map's own rerun, then the page's


def test_clicks_on_the_map_set_the_start_then_the_goal_and_the_same_place_twice(page):
    open_page(page, "routes")
    main = page.locator('[data-testid="stMain"]')
    G = romania()
    nodes = list(G.nodes)
    arad, bucharest = nodes.index("Arad"), nodes.index("Bucharest")
    timisoara, fagaras = nodes.index("Timisoara"), nodes.index("Fagaras")
    legend = _map(page).locator(".legend").inner_text()
    assert "A*: 418 (" in legend and "start: Arad" in legend and "goal: Bucharest" in legend

    _click_place(page, timisoara)
    _wait_for_ends(page, timisoara, bucharest)
    main.get_by_text("Click a place on the map to set the goal").wait_for()
    _click_place(page, fagaras)
    _wait_for_ends(page, timisoara, fagaras)
    cost = nx.dijkstra_path_length(G, "Timisoara", "Fagaras")
    path = " → ".join(nx.dijkstra_path(G, "Timisoara", "Fagaras"))
    assert main.get_by_text(f"A* route (cost {cost:.4g}): {path}").is_visible()
    assert "goal=Fagaras" in page.url and "start=Timisoara" in page.url
    # the same place twice: start, then goal
    _click_place(page, arad)
    _wait_for_ends(page, arad, fagaras)
    _click_place(page, arad)
    _wait_for_ends(page, arad, arad)
    assert "start=Arad" in page.url and "goal=Arad" in page.url


def test_a_click_after_zooming_in_picks_the_place_under_the_mouse(page):
    open_page(page, "routes")
    nodes = list(romania().nodes)
    sibiu = nodes.index("Sibiu")
    x, y = _map(page).evaluate(PLACE_PIXEL, sibiu)
    page.mouse.move(x + 20, y + 15)
    page.mouse.wheel(0, -800)  # zoom in about a point beside Sibiu
    page.wait_for_function("(root) => root.pixelOf(0)[0] < -50", arg=_map(page).element_handle())
    moved = _map(page).evaluate(PLACE_PIXEL, sibiu)
    assert abs(moved[0] - x) > 20  # Sibiu moved away from the point zoomed about
    page.mouse.click(*moved)
    _wait_for_ends(page, sibiu, nodes.index("Bucharest"))
    # the zoom survives the redraw with the new start; "Whole map" goes back to all of it
    assert _map(page).evaluate("(root) => root.pixelOf(0)[0]") < -50
    whole = _map(page).locator("button.whole")
    assert whole.is_visible()
    whole.click()
    assert _map(page).evaluate("(root) => root.pixelOf(0)[0]") > 0 and not whole.is_visible()
    page.mouse.click(*_map(page).evaluate(PLACE_PIXEL, sibiu))  # a click still picks places
    _wait_for_ends(page, sibiu, sibiu)


@pytest.mark.parametrize(
    ("query", "make"),
    [
        ("", romania),  # names sent with the map
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
    route_map = _map(page)
    tip = route_map.locator(".tip")
    for index in sorted({0, 1, len(nodes) // 2, len(nodes) - 1}):
        page.mouse.move(*route_map.evaluate(PLACE_PIXEL, index))
        page.wait_for_function("(tip) => tip.style.display === 'block'", arg=tip.element_handle())
        assert tip.text_content() == graphs.node_label(nodes[index])
        page.mouse.move(0, 0)


def test_the_map_with_its_routes_is_on_the_first_screen_of_a_1024_projector(page):
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "routes")
    sidebar = page.locator('[data-testid="stSidebar"]').bounding_box()
    assert sidebar["width"] >= 250 and sidebar["x"] >= 0  # the sidebar is open
    route_map = page.locator(MAP).first
    route_map.locator("canvas.marks").wait_for()
    box = route_map.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 768, box
    assert box["x"] >= sidebar["x"] + sidebar["width"] and box["x"] + box["width"] <= 1024, box
    xs, ys = zip(
        *(route_map.evaluate("(root, i) => root.pixelOf(i)", i) for i in range(20)), strict=True
    )
    assert max(xs) - min(xs) >= 430 and max(ys) - min(ys) >= 200  # Romania spans the column
    legend = route_map.locator(".legend .item")
    assert legend.count() == 4 + 2  # the four default routes, the start and the goal


def test_two_thousand_places_render_and_answer_a_click(page):
    open_page(page, "routes?source=Random+graph&n=2000&seed=1&algos=A*")
    route_map = _map(page)
    assert route_map.get_attribute("data-places") == "2000"
    G = graphs.random_geometric(2000, seed=1)
    start, goal = (
        int(route_map.get_attribute("data-start")),
        int(route_map.get_attribute("data-goal")),
    )
    # a place far from the others' reach: the first that no other place is within 12 px of
    pixels = route_map.evaluate("(root) => [...Array(2000).keys()].map((i) => root.pixelOf(i))")
    alone = next(
        i
        for i, (x, y) in enumerate(pixels)
        if i not in (start, goal)
        and all((x - u) ** 2 + (y - v) ** 2 > 144 for j, (u, v) in enumerate(pixels) if j != i)
    )
    _click_place(page, alone)
    _wait_for_ends(page, alone, goal)
    assert f"start={graphs.node_label(list(G.nodes)[alone])}" in page.url
