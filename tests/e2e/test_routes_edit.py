"""Editing the route map in a real browser: walls drawn, undone, the goal dragged."""

from __future__ import annotations

from tests.e2e.conftest import COUNT_RUNS, open_page, wait_idle, wait_settled

MAP = '.st-key-rt_map:not([data-stale="true"]) .route-map'
GRID = "routes?source=Grid+with+obstacles&rows=6&cols=8&obstacles=0&seed=1&algos=A*"
#: Where place ``index`` is drawn, in the page's CSS px.
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


def _legend_says(page, text: str) -> None:
    page.locator(f'{MAP} .legend:has-text("{text}")').first.wait_for(timeout=60_000)
    wait_idle(page)


def _drag(page, points) -> None:
    page.mouse.move(*points[0])
    page.mouse.down()
    for point in points[1:]:
        page.mouse.move(*point, steps=4)
    page.mouse.up()


def test_a_wall_drawn_on_the_grid_changes_the_route_and_undo_takes_it_back(page):
    open_page(page, f"{GRID}&start=5,0&goal=5,7")
    _legend_says(page, "A*: 7 (")
    route_map = _map(page)
    route_map.locator('button.tool[data-tool="wall"]').click()
    # a wall down column 4 from row 1 to the bottom: the route goes round by row 0
    top, bottom = (route_map.evaluate(PLACE_PIXEL, r * 8 + 4) for r in (1, 5))
    _drag(page, [top, bottom])
    _legend_says(page, "A*: 17 (")
    assert "wall" in _map(page).locator(".legend").inner_text()
    assert "edits=1" in page.url  # the link carries the wall
    assert _map(page).get_attribute("data-tool") == "wall"  # the tool stays chosen
    page.locator(".st-key-rt_w_edit_undo button").click()
    _legend_says(page, "A*: 7 (")
    assert "edits=" not in page.url


STEPS = '.st-key-rt_animation:not([data-stale="true"]) .route-player'


def test_a_wall_redraws_the_map_first_and_the_step_player_below_follows(page):
    open_page(page, f"{GRID}&start=5,0&goal=5,7")
    _legend_says(page, "A*: 7 (")
    steps_before = page.locator(STEPS).first.get_attribute("data-last")
    route_map = _map(page)
    route_map.locator('button.tool[data-tool="wall"]').click()
    top, bottom = (route_map.evaluate(PLACE_PIXEL, r * 8 + 4) for r in (1, 5))
    _drag(page, [top, bottom])
    _legend_says(page, "A*: 17 (")
    # the map's own run drew it; the page's run after it gives the player the new search
    assert steps_before is not None
    page.locator(f'{STEPS}:not([data-last="{steps_before}"])').first.wait_for(timeout=60_000)
    wait_idle(page)
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert "Shortest route length (Dijkstra): 17" in main


def test_a_cost_ten_cell_is_gone_round_and_reset_takes_it_back(page):
    open_page(page, f"{GRID}&start=5,0&goal=5,7")
    _legend_says(page, "A*: 7 (")
    route_map = _map(page)
    route_map.locator('button.tool[data-tool="cost 10"]').click()
    page.mouse.click(*route_map.evaluate(PLACE_PIXEL, 5 * 8 + 3))
    _legend_says(page, "A*: 9 (")  # one step up and back down is cheaper than 10
    page.locator(".st-key-rt_w_edit_reset button").click()
    _legend_says(page, "A*: 7 (")


def test_the_goal_star_dragged_to_another_cell_becomes_the_goal(page):
    open_page(page, f"{GRID}&start=5,0&goal=5,7")
    _legend_says(page, "A*: 7 (")
    route_map = _map(page)
    goal, target = (route_map.evaluate(PLACE_PIXEL, i) for i in (5 * 8 + 7, 0 * 8 + 7))
    _drag(page, [goal, target])
    _legend_says(page, "goal: 0,7")
    assert "goal=0%2C7" in page.url or "goal=0,7" in page.url
    assert "A*: 12 (" in _map(page).locator(".legend").inner_text()


def test_the_start_star_on_romania_can_be_dragged(page):
    open_page(page, "routes?algos=A*")
    _legend_says(page, "start: Arad")
    from lib.routes.graphs import romania

    nodes = list(romania().nodes)
    route_map = _map(page)
    arad, timisoara = (
        route_map.evaluate(PLACE_PIXEL, nodes.index(n)) for n in ("Arad", "Timisoara")
    )
    _drag(page, [arad, timisoara])
    _legend_says(page, "start: Timisoara")
    assert "start=Timisoara" in page.url


def test_the_edited_grid_downloads_in_the_upload_format(page):
    from pathlib import Path

    from lib.routes import graphs

    open_page(page, f"{GRID}&start=5,0&goal=5,7")
    _legend_says(page, "A*: 7 (")
    route_map = _map(page)
    route_map.locator('button.tool[data-tool="wall"]').click()
    page.mouse.click(*route_map.evaluate(PLACE_PIXEL, 2 * 8 + 3))
    _legend_says(page, "wall")
    page.locator(".st-key-rt_w_edit_undo button:not([disabled])").wait_for(timeout=60_000)
    files = {}
    for what in ("edges", "nodes"):
        wait_settled(page)
        page.evaluate(COUNT_RUNS)
        with page.expect_download(timeout=60_000) as download:
            page.locator(
                f'.st-key-rt_w_edit_dl_{what}:not([data-stale="true"]) button'
            ).first.click()
        files[what] = Path(download.value.path()).read_bytes()
        assert page.evaluate("() => window.__runs") == 0  # downloading did not rerun the page
    G = graphs.load_graph_csv(files["edges"], files["nodes"])
    assert G.number_of_nodes() == 6 * 8 - 1 and "2,3" not in G
    assert G["2,2"]["1,2"]["weight"] == 1.0


BIG = "routes?source=Grid+with+obstacles&rows=25&cols=40&obstacles=0&seed=1&algos=A*"


def test_a_wall_drawn_from_the_cell_next_to_the_start_leaves_the_start_in_place(page):
    # at 1024 px a 25x40 grid's cells are small: a press one cell off the star paints
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, f"{BIG}&start=0,0&goal=24,39")
    _legend_says(page, "start: 0,0")
    route_map = _map(page)
    route_map.locator('button.tool[data-tool="wall"]').click()
    start, below, further = (route_map.evaluate(PLACE_PIXEL, r * 40) for r in (0, 1, 3))
    # pressed in cell 1,0 but on its side nearest the start, still within the star's reach
    near = (below[0], below[1] - 0.4 * (below[1] - start[1]))
    _drag(page, [near, further])
    _legend_says(page, "wall")
    page.locator(".st-key-rt_w_edit_undo button:not([disabled])").wait_for(timeout=60_000)
    wait_idle(page)
    assert "start: 0,0" in _map(page).locator(".legend").inner_text()
    assert "start=3" not in page.url and "edits=" in page.url


def _map_top(page) -> float:
    return page.locator(MAP).first.evaluate(
        "root => root.querySelector('canvas.marks').getBoundingClientRect().top + scrollY"
    )


def test_a_wall_that_cuts_the_goal_off_says_so_under_the_map_which_stays_put(page):
    open_page(page, f"{GRID}&start=5,0&goal=5,7")
    _legend_says(page, "A*: 7 (")
    route_map = _map(page)
    route_map.locator('button.tool[data-tool="wall"]').click()
    top_before = _map_top(page)
    top, bottom = (route_map.evaluate(PLACE_PIXEL, r * 8 + 4) for r in (0, 5))
    _drag(page, [top, bottom])
    error = page.locator('[data-testid="stMain"] [data-testid="stAlert"]:has-text("No path")')
    error.first.wait_for(timeout=60_000)
    wait_idle(page)
    assert _map_top(page) == top_before  # the next drag lands where the mouse is
    map_bottom = page.locator(MAP).first.evaluate(
        "root => root.querySelector('canvas.marks').getBoundingClientRect().bottom"
    )
    assert error.first.bounding_box()["y"] > map_bottom


def test_the_hint_under_the_map_follows_the_tool(page):
    open_page(page, f"{GRID}&start=5,0&goal=5,7")
    _legend_says(page, "A*: 7 (")
    hint = _map(page).locator(".hint")
    assert "Click a place on the map to set the start" in hint.inner_text()
    for tool, says in (("wall", "draw walls"), ("erase", "clear them"), ("goal", "move the goal")):
        _map(page).locator(f'button.tool[data-tool="{tool}"]').click()
        assert says in hint.inner_text() and "Click a place" not in hint.inner_text()
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert main.count("Click a place on the map") == 0  # no stale hint above the map
