"""Compact map data: route coordinates and hover names, the same map in fewer bytes."""

from __future__ import annotations

import networkx as nx
import numpy as np
import plotly.graph_objects as go
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.common import escape_plot_text
from lib.routes import animation, graphs, map_data, places, plots, search


def _hover_shown(trace) -> list[str]:
    """The name plotly writes when each place is hovered, for the map's three hover templates.

    How plotly fills these templates is checked in the browser
    (``tests/e2e/test_routes.py::test_hovering_a_place_on_the_route_map_shows_its_name``).
    """
    template = trace.hovertemplate.removesuffix("<extra></extra>")
    if template == "%{customdata}":
        return list(trace.customdata)
    assert trace.customdata is None  # no names are sent beside a template that writes them
    if template == "%{y:d},%{x:d}":
        return [f"{int(y)},{int(x)}" for x, y in zip(trace.x, trace.y, strict=True)]
    assert template == "%{pointNumber}", template
    return [str(index) for index in range(len(trace.x))]


def _places(fig) -> object:
    return next(trace for trace in fig.data if trace.name == plots.NODES_TRACE)


def _renamed(G: nx.Graph, names: dict) -> nx.Graph:
    """``G`` with its places renamed (an upload's map: any names, in any order)."""
    H = nx.relabel_nodes(G, names)
    H.graph["kind"] = "upload"
    return H


MAPS = {
    "romania": graphs.romania,
    "grid": lambda: graphs.grid(9, 12, obstacles=0.3, seed=2, corridor=True),
    "diagonal grid": lambda: graphs.grid(7, 5, obstacles=0.2, diagonal=True, seed=4),
    "random": lambda: graphs.random_geometric(80, seed=3),
    # numbers, but not in the order the places are drawn: the names must be sent
    "numbers out of order": lambda: _renamed(
        graphs.random_geometric(20, seed=5), {n: str(19 - n) for n in range(20)}
    ),
    # "row,col" names that are not the places' coordinates
    "cell-like names": lambda: _renamed(
        graphs.grid(4, 4, seed=1), {(r, c): f"{c},{r}" for r in range(4) for c in range(4)}
    ),
    "names with markup": lambda: _renamed(
        graphs.random_geometric(6, seed=1), {n: f"<b>{n}</b> & co" for n in range(6)}
    ),
}


@pytest.mark.parametrize("kind", MAPS)
def test_hovering_a_place_shows_its_name_on_the_route_map_and_the_step_map(kind):
    G = MAPS[kind]()
    labels = [escape_plot_text(graphs.node_label(n)) for n in G.nodes]
    assert _hover_shown(_places(plots.map_figure(G))) == labels
    start, goal = (graphs.find_node(G, label) for label in places.default_endpoints(G))
    result = search.run("BFS", G, start, goal, record_trace=True)
    data = animation.player_data(G, result.trace, path=result.path, start=start, goal=goal)
    assert _player_names(data) == [graphs.node_label(n) for n in G.nodes]  # plain text there


def _player_names(data: dict) -> list[str]:
    """The names the step map's player writes on hover (``name`` in route_player.js)."""
    xs, ys = animation.unpack(data["x"]), animation.unpack(data["y"])
    if data["names"] == "index":
        return [str(i) for i in range(len(xs))]
    if data["names"] == "cell":
        return [f"{y},{x}" for x, y in zip(xs, ys, strict=True)]
    return data["names"]


def test_grid_and_generated_maps_send_no_names():
    for G in (MAPS["grid"](), MAPS["random"]()):
        assert _places(plots.map_figure(G)).customdata is None


@settings(max_examples=60, deadline=None)
@given(
    points=st.lists(
        st.tuples(
            st.one_of(st.integers(-3, 40), st.floats(-3, 40, allow_nan=False)),
            st.integers(-3, 40),
            st.sampled_from(["cell", "number", "other"]),
        ),
        max_size=12,
    )
)
def test_hover_names_always_write_each_place_s_label(points):
    xs = np.asarray([p[0] for p in points], dtype=np.float64)
    ys = np.asarray([p[1] for p in points], dtype=np.int16)
    if np.all(xs == np.round(xs)):
        xs = xs.astype(np.int16)
    labels = [
        f"{y},{x:g}" if how == "cell" else str(index) if how == "number" else f"p{index}"
        for index, (x, y, how) in enumerate(points)
    ]
    customdata, template = map_data.hover_names(labels, xs, ys)
    trace = go.Scatter(x=xs, y=ys, customdata=customdata, hovertemplate=template)
    assert _hover_shown(trace) == labels


@pytest.mark.parametrize("offset", [0.0, -0.75, 0.012])
def test_a_route_is_drawn_through_its_places_moved_by_its_offset(offset):
    for G in (MAPS["grid"](), MAPS["random"](), graphs.romania()):
        path = list(G.nodes)[:15]
        xs, ys = map_data.route_positions(G, path, offset)
        expected = np.asarray([G.nodes[n]["pos"] for n in path], dtype=np.float64) + offset
        assert np.allclose(xs, expected[:, 0], atol=1e-5) and np.allclose(ys, expected[:, 1])
        whole = offset == 0 and map_data.is_whole(G)
        assert xs.dtype == ys.dtype == (np.int16 if whole else np.float32)  # sent as binary
