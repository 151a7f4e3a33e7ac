"""Map coordinates as compact arrays: what keeps a big map's data small.

A 2,000-place random graph's 10,951 roads took 1.1 MB as lists of floats with ``None``
between roads. Here the roads are joined into trails (:func:`trails`: a road shares its
end with the next one, so most roads cost one place instead of two), and
:func:`whole_numbers` redraws a map whose coordinates are fractions on a grid of
:data:`UNITS` whole units, below a pixel on any screen: its places then travel as
``int16``. The canvas maps (:mod:`lib.routes.animation`) send places as indices into
those arrays, so a click on the route map names its place exactly.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import networkx as nx
import numpy as np

#: The span of a map redrawn in whole numbers (:func:`whole_numbers`).
UNITS = 1_000


def positions(G: nx.Graph, nodes: Sequence[Hashable]) -> tuple[np.ndarray, np.ndarray]:
    """The ``x`` and ``y`` of ``nodes`` (their ``pos``): ``int16`` if whole, else ``float32``."""
    pos = G.nodes
    xy = np.asarray([pos[n]["pos"] for n in nodes], dtype=np.float64).reshape(-1, 2)
    whole = bool(np.all(xy == np.round(xy))) and bool(np.all(np.abs(xy) < 2**15))
    xy = xy.astype(np.int16 if whole else np.float32)
    return xy[:, 0].copy(), xy[:, 1].copy()


def is_whole(G: nx.Graph) -> bool:
    """Are all of ``G``'s coordinates whole numbers that fit ``int16``?"""
    xy = np.asarray([p for _, p in G.nodes(data="pos")], dtype=np.float64).reshape(-1, 2)
    return bool(np.all(xy == np.round(xy))) and bool(np.all(np.abs(xy) < 2**15))


def whole_numbers(G: nx.Graph, units: int = UNITS) -> nx.Graph:
    """``G`` redrawn with whole-number coordinates, its longer side ``units`` long.

    A map whose coordinates are already whole numbers (a grid, Romania) is
    returned as it is. Otherwise a copy: the same places, roads and attributes,
    positions moved to ``round((p - lowest) * units / span)``.
    """
    if not G.number_of_nodes() or is_whole(G):
        return G
    xy = np.asarray([p for _, p in G.nodes(data="pos")], dtype=np.float64)
    low = xy.min(axis=0)
    scale = units / max(float((xy.max(axis=0) - low).max()), 1e-12)
    H = nx.Graph()
    H.graph.update(G.graph)
    for (node, data), (x, y) in zip(G.nodes(data=True), np.round((xy - low) * scale), strict=True):
        H.add_node(node, **{**data, "pos": (int(x), int(y))})
    H.add_edges_from(G.edges(data=True))
    return H


def trails(G: nx.Graph) -> list[list[Hashable]]:
    """The roads of ``G`` as trails: walks that use each road exactly once between them.

    Each walk starts at a place with an odd number of unused roads when there
    is one (so it ends at another), and goes on along unused roads until it is
    stuck: a connected map needs about half as many walks as it has places of
    odd degree.
    """
    unused: dict[Hashable, set] = {n: set(G.neighbors(n)) - {n} for n in G.nodes}
    loops = [(n, n) for n in G.nodes if G.has_edge(n, n)]
    walks: list[list[Hashable]] = [[u, v] for u, v in loops]
    order = sorted(G.nodes, key=lambda n: len(unused[n]) % 2 == 0)  # odd degrees first
    for first in order:
        while unused[first]:
            walk = [first]
            here = first
            while unused[here]:
                there = unused[here].pop()
                unused[there].discard(here)
                walk.append(there)
                here = there
            walks.append(walk)
    return walks
