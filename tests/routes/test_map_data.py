"""Compact map data: hover names written from what the maps already have."""

from __future__ import annotations

import networkx as nx
import pytest

from lib.routes import animation, graphs, places, search


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
    labels = [graphs.node_label(n) for n in G.nodes]  # plain text: canvas text, textContent
    start, goal = (graphs.find_node(G, label) for label in places.default_endpoints(G))
    assert _player_names(animation.route_map_data(G, start=start, goal=goal)) == labels
    result = search.run("BFS", G, start, goal, record_trace=True)
    data = animation.player_data(G, result.trace, path=result.path, start=start, goal=goal)
    assert _player_names(data) == labels


def _player_names(data: dict) -> list[str]:
    """The names the maps write on hover (``name`` in route_player.js)."""
    xs, ys = animation.unpack(data["x"]), animation.unpack(data["y"])
    if data["names"] == "index":
        return [str(i) for i in range(len(xs))]
    if data["names"] == "cell":
        return [f"{y},{x}" for x, y in zip(xs, ys, strict=True)]
    return data["names"]


def test_grid_and_generated_maps_send_no_names():
    assert animation.route_map_data(MAPS["grid"]())["names"] == "cell"
    assert animation.route_map_data(MAPS["random"]())["names"] == "index"
