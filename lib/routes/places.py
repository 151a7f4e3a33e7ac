"""Places on a map: the one nearest a click, and the start and goal a map opens with."""

from __future__ import annotations

import math
from collections.abc import Hashable

import networkx as nx

from lib.routes.graphs import node_label


def nearest_node(G: nx.Graph, x: float, y: float) -> Hashable | None:
    """The place drawn closest to ``(x, y)``: how a click on the map picks a place."""
    best, best_d = None, math.inf
    for node, (px, py) in G.nodes(data="pos"):
        d = (px - x) ** 2 + (py - y) ** 2
        if d < best_d:
            best, best_d = node, d
    return best


def default_endpoints(G: nx.Graph) -> tuple[str, str]:
    """The start and goal a map opens with (labels): a route worth searching.

    Romania: Arad to Bucharest, as in the book; a grid: corner to corner. Other
    maps: a start in the largest connected part (a random graph: the place
    nearest its bottom-left corner; an upload: the first place its file names),
    and as goal the place of that part farthest from it by road, so that the
    first search finds a route (never "no path") and has some way to go.
    """
    kind = G.graph.get("kind")
    if kind == "romania":
        return "Arad", "Bucharest"
    if kind == "grid":
        return "0,0", f"{G.graph['rows'] - 1},{G.graph['cols'] - 1}"
    order = {node: i for i, node in enumerate(G.nodes)}
    part = max(nx.connected_components(G), key=lambda c: (len(c), -min(order[n] for n in c)))
    if kind == "random":
        start = min(part, key=lambda n: (sum(G.nodes[n]["pos"]), order[n]))
    else:
        start = min(part, key=order.__getitem__)
    far = nx.single_source_dijkstra_path_length(G, start)
    goal = max(far, key=lambda n: (far[n] if math.isfinite(far[n]) else -1.0, -order[n]))
    return node_label(start), node_label(goal)
