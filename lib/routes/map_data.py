"""Map coordinates as compact arrays for plotly: what keeps a big map's figure small.

plotly sends a numpy array as binary (base64) where a list becomes JSON text:
a 2,000-place random graph's 10,951 roads took 1.1 MB as lists of floats
with ``None`` between roads. Here the roads are joined into trails (a road
shares its end with the next one, so most roads cost one point instead of
three) and stored as ``float32`` with ``NaN`` where a trail ends.

A map that is only watched, never clicked (the search animation's player), can go
further: :func:`whole_numbers` redraws a map whose coordinates are fractions on
a grid of :data:`UNITS` whole units, below a pixel on any screen. Its places then
travel as ``int16``.

Routes travel as binary too (:func:`route_positions`), and a place's hover name is
not sent where plotly can write it from the point (:func:`hover_names`).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

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


def route_positions(
    G: nx.Graph, path: Sequence[Hashable], offset: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """The ``x`` and ``y`` of a route's places moved by ``offset`` along both axes (binary).

    As :func:`positions`: ``int16`` on a whole-number map without an offset, else
    ``float32``. A 1,776-place depth-first route on 2,000 places took 72 KB as
    lists of floats, 19 KB this way.
    """
    xs, ys = positions(G, path)
    if offset == 0:
        return xs, ys
    return (xs + offset).astype(np.float32), (ys + offset).astype(np.float32)


def hover_names(
    labels: Sequence[str], xs: np.ndarray, ys: np.ndarray
) -> tuple[list[str] | None, str]:
    """How plotly shows each place's name on hover: ``(customdata, hovertemplate)``.

    Names plotly can write from the point itself are not sent: a grid cell's
    name ``row,col`` is its ``y`` and ``x`` (whole numbers, never negative: the
    4,800 names of a 60x80 grid took 40 KB), a generated map's places are numbered
    in the order they are drawn (``pointNumber``). Any other map sends its names
    as ``customdata``.

    >>> hover_names(["0,0", "0,1"], np.array([0, 1]), np.array([0, 0]))
    (None, '%{y:d},%{x:d}<extra></extra>')
    >>> hover_names(["Arad", "Sibiu"], np.array([91, 207]), np.array([492, 457]))
    (['Arad', 'Sibiu'], '%{customdata}<extra></extra>')
    """
    cells = (
        xs.dtype.kind in "iu"
        and ys.dtype.kind in "iu"
        and min(xs.min(initial=0), ys.min(initial=0)) >= 0
    )
    if cells and all(label == f"{y},{x}" for label, x, y in zip(labels, xs, ys, strict=True)):
        return None, "%{y:d},%{x:d}<extra></extra>"
    if all(label == str(index) for index, label in enumerate(labels)):
        return None, "%{pointNumber}<extra></extra>"
    return list(labels), "%{customdata}<extra></extra>"


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
    nodes = list(G.nodes)
    index = {node: i for i, node in enumerate(nodes)}
    drawn: list[int] = []  # the places in drawing order, -1 where a trail ends
    for walk in trails(G):
        drawn += [index[node] for node in walk]
        drawn.append(-1)
    at = np.asarray(drawn, dtype=np.int64)
    xs, ys = (values.astype(np.float32) for values in positions(G, nodes))
    gap = at < 0
    return np.where(gap, np.float32(np.nan), xs[at]), np.where(gap, np.float32(np.nan), ys[at])
