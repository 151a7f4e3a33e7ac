"""Map coordinates as compact arrays for plotly: what keeps a big map's figure small.

plotly sends a numpy array as binary (base64) where a list becomes JSON text:
a 2,000-place random graph's 10,951 roads took 1.1 MB as lists of floats
with ``None`` between roads. Here the roads are joined into trails (a road
shares its end with the next one, so most roads cost one point instead of
three) and stored as ``float32`` with ``NaN`` where a trail ends.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

import networkx as nx
import numpy as np


def positions(G: nx.Graph, nodes: Sequence[Hashable]) -> tuple[np.ndarray, np.ndarray]:
    """The ``x`` and ``y`` of ``nodes`` (their ``pos``) as ``float32`` arrays."""
    pos = G.nodes
    xy = np.asarray([pos[n]["pos"] for n in nodes], dtype=np.float32).reshape(-1, 2)
    return xy[:, 0].copy(), xy[:, 1].copy()


def with_gaps(values: Iterable[float | None]) -> np.ndarray:
    """A list of coordinates with ``None`` breaks as ``float32``, ``NaN`` for each break."""
    return np.asarray([np.nan if v is None else v for v in values], dtype=np.float32)


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


def road_trails(G: nx.Graph) -> tuple[np.ndarray, np.ndarray]:
    """``x`` and ``y`` of every road, as trails (:func:`trails`) separated by ``NaN``."""
    walks = trails(G)
    count = sum(len(walk) + 1 for walk in walks)
    xs = np.full(count, np.nan, dtype=np.float32)
    ys = np.full(count, np.nan, dtype=np.float32)
    at = 0
    for walk in walks:
        x, y = positions(G, walk)
        xs[at : at + len(walk)] = x
        ys[at : at + len(walk)] = y
        at += len(walk) + 1
    return xs, ys
