"""Places on a map: the start and goal a map opens with."""

from __future__ import annotations

import math

import networkx as nx

from lib.routes.graphs import node_label


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
