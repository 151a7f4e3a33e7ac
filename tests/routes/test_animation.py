"""The canvas player's data: at every step it shows exactly the trace, and it stays small.

The player (``lib/ui/components/route_player.js``) draws, at step ``k``, each place in the
look of its last paint made by step ``k``, the place expanded at ``k`` and, at the last
step, the route. :func:`_shown` reads the data the same way, from the JSON the page sends,
and the tests hold it against :func:`lib.routes.trace.replay` (the browser test checks
that the canvas draws what the data says).
"""

from __future__ import annotations

import itertools
import json

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.routes import animation, explain, graphs, map_data, places, plots, search
from lib.routes.trace import Part, replay
from tests.test_charts import contrast_ratio

ALGORITHMS = list(search.ALGORITHMS)


def _traced(G: nx.Graph, name: str, max_trace_steps: int = 3_000):
    start, goal = (graphs.find_node(G, label) for label in places.default_endpoints(G))
    heuristic = graphs.make_heuristic(G, graphs.heuristic_choices(G)[0])
    result = search.run(
        name, G, start, goal, heuristic, record_trace=True, max_trace_steps=max_trace_steps
    )
    return result, start, goal


def _sent(data: dict) -> dict:
    """``data`` as the browser gets it (JSON), its arrays unpacked."""
    sent = json.loads(json.dumps(data))
    return {
        key: animation.unpack(value) if isinstance(value, dict) and "dtype" in value else value
        for key, value in sent.items()
    }


def _shown(sent: dict, nodes: list, k: int) -> tuple[set, set, object]:
    """The places the player colours explored and frontier at step ``k``, and the one ringed.

    Each place takes the look of its last paint made by step ``k`` (paints are in step order).
    """
    look: dict[int, int] = {}
    upto = int(np.searchsorted(sent["paintStep"], k, side="right"))
    for place, kind in zip(sent["paintPlace"][:upto], sent["paintKind"][:upto], strict=True):
        look[int(place)] = int(kind)
    explored = {nodes[p] for p, kind in look.items() if kind == animation.EXPLORED}
    frontier = {nodes[p] for p, kind in look.items() if kind == animation.FRONTIER}
    current = int(sent["current"][k])
    return explored, frontier, None if current < 0 else nodes[current]


def _label(sent: dict, nodes: list, k: int) -> str:
    """The step's label as the player writes it (``stepLabel`` in route_player.js)."""
    current, about = int(sent["current"][k]), int(sent["about"][k])
    if current < 0:
        return f"step {k}: {sent['notes'].get(str(k)) or 'start on the frontier'}"
    side = sent["sides"][sent["side"][k]]
    part = sent["parts"][sent["part"][k]]
    reached = (
        f" {'via' if part == 'update' else 'from'} {graphs.node_label(nodes[current])}"
        if about != current
        else ""
    )
    return (
        f"step {k}: {part} {graphs.node_label(nodes[about])}{reached}"
        f"{f' ({side})' if side else ''}, frontier {sent['frontierSize'][k]}, "
        f"explored {sent['exploredSize'][k]}"
    )


def step_label(state, step) -> str:
    """What ``step`` (a trace step) did and the sizes after it, the replayed ``state`` after it.

    A push or an update names the place pushed and where it was reached from.
    """
    index = state.step
    if state.current is None:
        return f"step {index}: {state.note or 'start on the frontier'}"
    side = f" ({state.side})" if state.side else ""
    what = graphs.node_label(state.current)
    if state.part is Part.PUSH:
        what = f"{graphs.node_label(step.pushed[0].node)} from {what}"
    elif state.part is Part.UPDATE:
        what = f"{graphs.node_label(step.pushed[0].node)} via {what}"
    return (
        f"step {index}: {state.part.value} {what}{side}, "
        f"frontier {len(state.frontier)}, explored {len(state.explored)}"
    )


def _check_steps(G: nx.Graph, result, start, goal) -> None:
    data = animation.player_data(G, result.trace, path=result.path, start=start, goal=goal)
    sent = _sent(data)
    nodes = list(G.nodes)
    assert len(sent["current"]) == len(result.trace)
    assert np.all(np.diff(sent["paintStep"]) >= 0)  # in step order: the player counts them
    for state in replay(result.trace):
        explored, frontier, current = _shown(sent, nodes, state.step)
        on_frontier = {entry.node for entry in state.frontier}
        assert frontier == on_frontier, state.step
        assert explored == set(state.explored) - on_frontier, state.step
        assert current == state.current
        # the label the page showed under the plotly map, from the replayed state
        assert _label(sent, nodes, state.step) == step_label(state, result.trace[state.step])
    assert [nodes[i] for i in sent["route"]] == list(result.path)


@pytest.mark.parametrize("name", ALGORITHMS)
@pytest.mark.parametrize("kind", ["romania", "grid"])
def test_every_step_shows_exactly_the_trace_s_explored_set_frontier_and_current(name, kind):
    G = (
        graphs.romania()
        if kind == "romania"
        else graphs.grid(9, 12, obstacles=0.25, diagonal=False, seed=3, corridor=True)
    )
    result, start, goal = _traced(G, name)
    _check_steps(G, result, start, goal)


@settings(max_examples=12, deadline=None)
@given(
    n=st.integers(10, 60),
    seed=st.integers(0, 500),
    name=st.sampled_from(ALGORITHMS),
)
def test_steps_follow_the_trace_on_random_maps(n, seed, name):
    G = graphs.random_geometric(n, seed=seed)
    try:
        result, start, goal = _traced(G, name)
    except nx.NetworkXNoPath:
        return
    _check_steps(G, result, start, goal)


def test_a_push_or_an_update_is_about_the_place_pushed_reached_from_the_one_expanded():
    G = graphs.romania()
    traced = search.astar(G, "Arad", "Bucharest", graphs.StraightLine.of(G), record_trace=True)
    sent = _sent(animation.player_data(G, traced.trace, start="Arad", goal="Bucharest"))
    nodes = list(G.nodes)
    assert _label(sent, nodes, 1).startswith("step 1: pop Arad,")
    assert _label(sent, nodes, 2).startswith("step 2: push Zerind from Arad,")
    assert _label(sent, nodes, 15).startswith("step 15: update Bucharest via Pitesti,")
    assert _label(sent, nodes, 17).startswith("step 17: goal test Bucharest,")
    assert [nodes[i] for i in sent["about"][14:17]] == ["Pitesti", "Bucharest", "Bucharest"]


def test_ida_star_restarts_paint_the_places_back():
    G = graphs.romania()
    result, start, goal = _traced(G, "IDA*")
    assert any(step.reset for step in result.trace)  # the premise: it restarts
    found = animation.paints(result.trace, start, goal)
    assert animation.PLAIN in set(found.kinds.tolist())
    _check_steps(G, result, start, goal)


def test_a_play_shows_at_most_max_frames_and_ends_on_the_last_step():
    G = graphs.grid(20, 30, obstacles=0.2, diagonal=False, seed=1, corridor=True)
    result, start, goal = _traced(G, "BFS")
    last = len(result.trace) - 1
    data = animation.player_data(
        G, result.trace, step=7, path=result.path, start=start, goal=goal, max_frames=50
    )
    assert data["frames"] == animation.frame_steps(last, 50)
    assert data["frames"][0] == 0 and data["frames"][-1] == last and len(data["frames"]) <= 50
    assert data["step"] == 7
    far = animation.player_data(G, result.trace, step=10**6, path=result.path, max_frames=50)
    assert far["step"] == last  # clamped
    # only the step differs: the player keeps its drawing
    assert far["digest"] != data["digest"]  # (no start and goal here: another drawing)
    again = animation.player_data(
        G, result.trace, step=3, path=result.path, start=start, goal=goal, max_frames=50
    )
    assert again["digest"] == data["digest"] and again["step"] == 3


@pytest.mark.parametrize(
    "make",
    [
        graphs.romania,
        lambda: graphs.random_geometric(300, seed=2),  # not whole: redrawn in whole numbers
    ],
)
def test_the_player_draws_every_road_once_and_every_place_where_the_map_has_it(make):
    G = make()
    result, start, goal = _traced(G, "BFS")
    sent = _sent(animation.player_data(G, result.trace, path=result.path, start=start, goal=goal))
    nodes = list(G.nodes)
    walks = np.split(sent["roads"], np.flatnonzero(sent["roads"] < 0) + 1)
    drawn = sorted(
        tuple(sorted((int(a), int(b))))
        for walk in walks
        for a, b in itertools.pairwise(walk)
        if a >= 0 and b >= 0
    )
    index = {node: i for i, node in enumerate(nodes)}
    assert drawn == sorted(tuple(sorted((index[u], index[v]))) for u, v in G.edges)
    W = map_data.whole_numbers(G)
    xs, ys = map_data.positions(W, nodes)
    assert sent["x"].tolist() == xs.tolist() and sent["y"].tolist() == ys.tolist()
    (x0, x1), (y0, y1) = plots.map_ranges(W)
    assert min(xs) >= x0 and max(xs) <= x1 and min(ys) >= y0 and max(ys) <= y1
    assert (sent["start"], sent["goal"]) == (index[start], index[goal])


def test_a_grid_sends_its_obstacles_and_no_roads():
    G = graphs.grid(9, 12, obstacles=0.25, diagonal=False, seed=3, corridor=True)
    result, start, goal = _traced(G, "A*")
    sent = _sent(animation.player_data(G, result.trace, path=result.path, start=start, goal=goal))
    assert sent["grid"] and "roads" not in sent and (sent["rows"], sent["cols"]) == (9, 12)
    cells = sent["obstacles"].reshape(-1, 2).tolist()
    assert sorted(map(tuple, cells)) == sorted(map(tuple, G.graph["obstacles"]))
    assert sent["names"] == "cell"  # written from the cell, not sent


def test_romania_s_names_and_road_lengths_are_written_where_the_route_map_writes_them():
    G = graphs.romania()
    result, start, goal = _traced(G, "A*")
    data = animation.player_data(G, result.trace, path=result.path, start=start, goal=goal)
    assert data["names"] == list(G.nodes)
    labels = data["labels"]
    assert labels["where"] == plots.label_positions(G)
    assert labels["text"][list(G.nodes).index("Rimnicu Vilcea")] == "Rimnicu\nVilcea"
    lengths = plots.road_lengths(G)
    assert data["roadLengths"]["text"] == [text for _, _, text in lengths]
    assert (data["startName"], data["goalName"]) == ("Arad", "Bucharest")
    big = graphs.random_geometric(300, seed=2)
    result, start, goal = _traced(big, "BFS")
    data = animation.player_data(big, result.trace, path=result.path, start=start, goal=goal)
    assert data["labels"] is None and data["roadLengths"] is None and data["names"] == "index"


def test_uploaded_names_are_sent_as_they_are_typed():
    # the player writes them as canvas text and textContent, which show markup as typed
    G = nx.relabel_nodes(
        graphs.random_geometric(6, seed=1), {n: f"<b>{n}</b> & co" for n in range(6)}
    )
    G.graph["kind"] = "upload"
    first = next(iter(G.nodes))
    result = search.run("BFS", G, first, first, record_trace=True)
    data = animation.player_data(G, result.trace, path=result.path)
    assert data["names"] == [f"<b>{n}</b> & co" for n in range(6)]
    assert data["labels"]["text"] == data["names"]


def test_an_empty_trace_is_refused():
    with pytest.raises(ValueError, match="empty"):
        animation.player_data(graphs.romania(), [])


@pytest.mark.parametrize("name", ALGORITHMS)
def test_the_code_panel_gets_the_line_of_every_step_and_what_it_does(name):
    G = graphs.romania()
    result = search.run(name, G, "Arad", "Bucharest", graphs.StraightLine.of(G), record_trace=True)
    view = explain.code_view(name, result.trace)
    data = json.loads(json.dumps(animation.player_data(G, result.trace, code=view)))
    code = data["code"]
    assert code["lines"] == [[list(span) for span in line] for line in view.lines]
    lines = animation.unpack(code["stepLine"]).tolist()
    assert lines == view.step_lines and len(lines) == len(result.trace)
    assert {code["lineText"][str(line)] for line in lines} <= set(explain.PART_TEXT.values())
    without = animation.player_data(G, result.trace)
    assert "code" not in without and without["digest"] != data["digest"]


def test_a_code_view_of_another_trace_is_refused():
    G = graphs.romania()
    short = search.run("BFS", G, "Arad", "Sibiu", record_trace=True).trace
    long = search.run("BFS", G, "Arad", "Bucharest", record_trace=True).trace
    with pytest.raises(ValueError, match="another trace"):
        animation.player_data(G, long, code=explain.code_view("BFS", short))


def test_packed_arrays_come_back_as_they_went():
    values = [-(2**15), -1, 0, 1, 2**15 - 1]
    assert animation.unpack(animation.pack(values, "int16")).tolist() == values
    big = [0, 2**20]
    assert animation.unpack(animation._packed_ints(big)).tolist() == big
    assert animation._packed_ints(big)["dtype"] == "int32"


def _grid_60x80() -> nx.Graph:
    return graphs.grid(60, 80, obstacles=0.25, diagonal=False, seed=1, corridor=True)


def _places_2000() -> nx.Graph:
    return graphs.random_geometric(2_000, seed=1)


#: The page's largest maps (its slider caps, the benchmark's seeds).
LARGEST_MAPS = {"60x80 grid": _grid_60x80, "2,000 places": _places_2000}
#: A figure Streamlit sends for the largest maps stays under 300 KB.
PAYLOAD_BOUND = 300_000


def _route_label(name: str, result) -> str:
    """A route's legend entry as the page writes it."""
    return f"{name}: {result.cost:.4g} ({result.expanded} expanded)"


@pytest.mark.parametrize(
    ("map_name", "name"),
    [
        (map_name, name)
        for map_name in LARGEST_MAPS
        for name in ALGORITHMS
        # IDA* gives up on 2,000 places (a million expansions): the page draws no route for it
        if (map_name, name) != ("2,000 places", "IDA*")
    ],
)
def test_the_largest_maps_route_map_and_player_stay_under_300_kb(map_name, name):
    # the depth-first route on 2,000 places (1,776 places long) took the route map to 308 KB
    G = LARGEST_MAPS[map_name]()
    result, start, goal = _traced(G, name)
    route_map = animation.route_map_data(
        G, routes=[(_route_label(name, result), result.path)], start=start, goal=goal, title="t"
    )
    assert len(json.dumps(route_map)) < PAYLOAD_BOUND  # the route map's data, sent as JSON
    code = explain.code_view(name, result.trace)  # the code panel, as the page sends it
    data = animation.player_data(
        G, result.trace, path=result.path, start=start, goal=goal, code=code
    )
    assert len(json.dumps(data)) < PAYLOAD_BOUND  # the player's data, sent as JSON


def test_every_algorithm_s_route_on_the_2000_place_map_stays_under_300_kb():
    G = _places_2000()
    start, goal = (graphs.find_node(G, label) for label in places.default_endpoints(G))
    heuristic = graphs.make_heuristic(G, graphs.heuristic_choices(G)[0])
    drawn = [name for name in ALGORITHMS if name != "IDA*"]  # IDA* gives up here (see above)
    found = {name: search.run(name, G, start, goal, heuristic) for name in drawn}
    routes = [(_route_label(name, result), result.path) for name, result in found.items()]
    data = animation.route_map_data(G, routes=routes, start=start, goal=goal, title="t")
    assert len(json.dumps(data)) < PAYLOAD_BOUND
    nodes = list(G.nodes)
    drawn_routes = [[nodes[i] for i in animation.unpack(r["places"])] for r in data["routes"]]
    assert drawn_routes == [list(path) for _, path in routes]


@settings(max_examples=20, deadline=None)
@given(n=st.integers(2, 80), seed=st.integers(0, 1_000))
def test_trails_draw_every_road_exactly_once(n, seed):
    G = graphs.random_geometric(n, seed=seed)
    walks = map_data.trails(G)
    drawn = [frozenset(pair) for walk in walks for pair in itertools.pairwise(walk)]
    roads = [frozenset(edge) for edge in G.edges]
    assert sorted(drawn, key=sorted) == sorted(roads, key=sorted)
    # each road costs one place (plus the first of each walk): no road drawn twice
    assert sum(len(walk) for walk in walks) == G.number_of_edges() + len(walks)


@pytest.mark.parametrize(
    "make",
    [
        graphs.romania,
        lambda: graphs.grid(9, 12, obstacles=0.25, diagonal=False, seed=3, corridor=True),
        lambda: graphs.random_geometric(300, seed=2),
    ],
)
def test_the_route_map_gets_each_algorithm_s_route_its_colour_and_legend(make):
    G = make()
    nodes = list(G.nodes)
    start, goal = (graphs.find_node(G, label) for label in places.default_endpoints(G))
    h = graphs.make_heuristic(G, graphs.heuristic_choices(G)[0])
    found = {
        name: search.run(name, G, start, goal, h) for name in ("A*", "BFS", "Greedy best-first")
    }
    routes = [(_route_label(name, r), r.path) for name, r in found.items()]
    data = animation.route_map_data(G, routes=routes, start=start, goal=goal, title="A → B")
    assert data["mode"] == "map" and data["title"] == "A → B"
    assert [r["name"] for r in data["routes"]] == [
        f"{name}: {r.cost:.4g} ({r.expanded} expanded)" for name, r in found.items()
    ]
    assert [r["colour"] for r in data["routes"]] == [plots.colour(i) for i in range(3)]
    for (_, path), sent in zip(routes, data["routes"], strict=True):
        assert [nodes[i] for i in animation.unpack(sent["places"])] == list(path)
    assert (data["start"], data["goal"]) == (nodes.index(start), nodes.index(goal))
    assert (data["startName"], data["goalName"]) == (
        graphs.node_label(start),
        graphs.node_label(goal),
    )
    # the places where the player draws them: G's order, so a click's index is a place of G
    xs, ys = map_data.positions(map_data.whole_numbers(G), nodes)
    assert animation.unpack(data["x"]).tolist() == xs.tolist()
    assert animation.unpack(data["y"]).tolist() == ys.tolist()
    assert "paintPlace" not in data and "current" not in data  # no search to play


def test_the_route_map_keeps_its_map_digest_when_only_the_ends_and_routes_change():
    G = graphs.romania()
    first = animation.route_map_data(G, start="Arad", goal="Bucharest")
    route = search.run("A*", G, "Sibiu", "Neamt", graphs.make_heuristic(G, "Straight line"))
    second = animation.route_map_data(G, routes=[("A*", route.path)], start="Sibiu", goal="Neamt")
    assert first["mapDigest"] == second["mapDigest"] and first["digest"] != second["digest"]
    other = animation.route_map_data(graphs.random_geometric(20, seed=1), start=0, goal=1)
    assert other["mapDigest"] != first["mapDigest"]


# -- a grid's terrain on a projector ------------------------------------------------------


def _washed_out(first: str, second: str, flare: float) -> float:
    """The contrast ratio of two colours with ``flare`` (of white's luminance) added to both:
    a projector in a lit room, whose black is grey."""
    darker, lighter = sorted((_luminance(first), _luminance(second)))
    return (lighter + 0.05 + flare) / (darker + 0.05 + flare)


def _luminance(colour: str) -> float:
    """WCAG relative luminance, read back from the contrast with black: (L + 0.05) / 0.05."""
    return contrast_ratio(colour, "#000000") * 0.05 - 0.05


def test_free_cells_cost_3_cost_10_and_walls_step_down_in_a_contrast_a_projector_keeps():
    style = animation._style(graphs.grid_from_terrain(np.ones((4, 4), np.uint8)))
    levels = [style["free"], style["terrain"]["3"], style["terrain"]["10"], style["obstacle"]]
    steps = [contrast_ratio(a, b) for a, b in itertools.pairwise(levels)]
    assert all(ratio >= 2.0 for ratio in steps), steps
    assert _luminance(levels[0]) > _luminance(levels[1]) > _luminance(levels[2])
    # free against 3, and 3 against 10: still apart with a tenth of white washed over them
    washed = [_washed_out(a, b, 0.1) for a, b in itertools.pairwise(levels[:3])]
    assert all(ratio >= 1.8 for ratio in washed), washed
    # and neither cost shade is mistaken for the frontier's or the explored places' look
    looks = animation.look_colours(graphs.grid_from_terrain(np.ones((4, 4), np.uint8)))
    for shade in levels[1:3]:
        assert min(contrast_ratio(shade, look) for look in looks[-2:]) >= 1.6
