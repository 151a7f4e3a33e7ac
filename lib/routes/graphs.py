"""Graphs for route search: the Romania map, CSV loaders, generators and heuristics.

Every graph is a :class:`networkx.Graph` whose nodes carry a ``pos`` attribute
(``(x, y)``, used for drawing and for straight-line heuristics) and whose
edges carry a non-negative ``weight``. ``G.graph`` records where the graph
came from (``kind``: ``"romania"``, ``"upload"``, ``"grid"`` or ``"random"``)
and, for grids, the obstacle cells so that the map can be drawn as a grid.

Heuristics follow the networkx convention ``h(u, v)``: an estimate of the
cost from ``u`` to ``v``.

>>> G = romania()
>>> G.number_of_nodes(), G.number_of_edges()
(20, 23)
>>> G["Arad"]["Sibiu"]["weight"]
140.0
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import numpy as np
import pandas as pd

from lib.csv_upload import (
    MAX_BYTES,
    SEPARATOR_NAMES,
    SEPARATORS,
    Source,
    parse_number,
    read_csv_table,
    uses_decimal_comma,
)
from lib.errors import InputError
from lib.routes.compiled import CompiledGraph, attach

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "routes"
ROMANIA_EDGES_CSV = DATA_DIR / "romania_edges.csv"
ROMANIA_NODES_CSV = DATA_DIR / "romania_nodes.csv"

#: AIMA (Russell & Norvig), Figure 3.16: straight-line distances to Bucharest, in km.
BUCHAREST_SLD: dict[str, float] = {
    "Arad": 366,
    "Bucharest": 0,
    "Craiova": 160,
    "Drobeta": 242,
    "Eforie": 161,
    "Fagaras": 176,
    "Giurgiu": 77,
    "Hirsova": 151,
    "Iasi": 226,
    "Lugoj": 244,
    "Mehadia": 241,
    "Neamt": 234,
    "Oradea": 380,
    "Pitesti": 100,
    "Rimnicu Vilcea": 193,
    "Sibiu": 253,
    "Timisoara": 329,
    "Urziceni": 80,
    "Vaslui": 199,
    "Zerind": 374,
}

#: Size caps for uploaded graphs (a hosted app must stay responsive).
MAX_UPLOAD_NODES = 5_000
MAX_UPLOAD_EDGES = 20_000
#: Largest uploaded CSV read at all (the server refuses bigger uploads too).
MAX_UPLOAD_BYTES = MAX_BYTES
#: Largest size of a number (road length or coordinate) in an upload: sums stay finite.
MAX_UPLOAD_NUMBER = 1e12
#: Size caps for generated graphs shown on the page (the library allows more).
MAX_GRID_SIDE = 400
MAX_RANDOM_NODES = 200_000


# --------------------------------------------------------------------------- Romania


def romania() -> nx.Graph:
    """The AIMA Romania road map: 20 cities, 23 roads (lengths in km as in the book).

    Node ``pos`` are the course's map coordinates (aima-python's
    ``romania_map.locations`` with seven cities moved): positions on a drawing,
    not kilometres, so on three roads (Drobeta–Mehadia, Iasi–Vaslui,
    Urziceni–Vaslui) the straight line is longer than the road. A fresh graph is built on
    every call, so callers may modify it.

    >>> G = romania()
    >>> nx.dijkstra_path_length(G, "Arad", "Bucharest")
    418.0
    """
    G = load_graph_csv(
        ROMANIA_EDGES_CSV.read_bytes(),
        ROMANIA_NODES_CSV.read_bytes(),
        edges_name=ROMANIA_EDGES_CSV.name,
        nodes_name=ROMANIA_NODES_CSV.name,
    )
    G.graph.update(kind="romania", name="Romania (AIMA)")
    return G


# --------------------------------------------------------------------------- loaders


def _read_table(source: Source, name: str) -> pd.DataFrame:
    """Read a CSV as text cells with lower-case column names (:func:`read_csv_table`).

    The size cap, encodings, separator sniffing, rows with extra fields and
    unreadable files are handled there, with messages naming the line and value.
    """
    table = read_csv_table(source, label=name, max_bytes=MAX_UPLOAD_BYTES)
    table.columns = [str(c).lower() for c in table.columns]
    return table


def _require_columns(table: pd.DataFrame, columns: Iterable[str], name: str) -> None:
    columns = list(columns)
    missing = [c for c in columns if c not in table.columns]
    if missing:
        found = ", ".join(map(str, table.columns)) or "none"
        hint = ""
        header = " ".join(map(str, table.columns))
        used = [s for s in (*SEPARATORS, "|") if s in header]
        if used and set(columns) <= set(re.split(r"[\s,;|]+", header)):
            hint = (
                f" The header seems to be separated by {SEPARATOR_NAMES[used[0]]}s mixed with "
                "other separators; use one separator (comma, semicolon or tab) throughout."
                if used[0] in SEPARATORS
                else f" The header seems to be separated by {SEPARATOR_NAMES[used[0]]}s; "
                "use commas, semicolons or tabs."
            )
        elif len(table.columns) == 1:
            hint = (
                " Only one column was found: is the file separated by something other than "
                "a comma, semicolon or tab?"
            )
        elif len(table.columns) == len(columns):
            hint = f" Is the header row missing or misspelt? It should be: {','.join(columns)}."
        raise InputError(
            f"{name}: missing column(s) {', '.join(missing)}; "
            f"expected {', '.join(columns)} (found: {found}).{hint}"
        )


def _number(
    text: str,
    name: str,
    line: int,
    column: str,
    *,
    non_negative: bool,
    decimal_comma: bool = False,
) -> float:
    cleaned = text.strip()
    try:
        value = parse_number(cleaned, decimal_comma=decimal_comma)
    except ValueError:
        raise InputError(
            f"{name}, line {line}, column '{column}': {text!r} is not a number."
        ) from None
    if not math.isfinite(value):
        raise InputError(
            f"{name}, line {line}, column '{column}': {text!r} is not a finite number."
        )
    if non_negative and value < 0:
        raise InputError(
            f"{name}, line {line}, column '{column}': {text!r} is negative; "
            "road lengths must be 0 or more."
        )
    if abs(value) > MAX_UPLOAD_NUMBER:
        raise InputError(
            f"{name}, line {line}, column '{column}': {text!r} is too large; numbers up to "
            f"{MAX_UPLOAD_NUMBER:,.0f} in size are accepted (route lengths add many of them up)."
        )
    return value


def load_graph_csv(
    edges: Source,
    nodes: Source | None = None,
    *,
    edges_name: str = "edges CSV",
    nodes_name: str = "nodes CSV",
    max_nodes: int = MAX_UPLOAD_NODES,
    max_edges: int = MAX_UPLOAD_EDGES,
) -> nx.Graph:
    """Build an undirected weighted graph from an edge-list CSV and an optional node CSV.

    The edge CSV has the columns ``source, target, weight`` (one road per line,
    either direction); the node CSV has ``node, x, y``. Both are read by
    :func:`lib.csv_upload.read_csv_table` (the stock upload's reader too):
    UTF-8 or UTF-16 text, columns separated by commas, semicolons or tabs
    (sniffed from the header line); with semicolons or tabs a decimal comma
    (``1,5``) is read as ``1.5``. Errors are raised as :class:`InputError`
    naming the file, line (as in the file: blank lines count), column and
    value: unreadable files and rows with more fields than the header (see
    there), missing columns, empty names, non-numeric, infinite or negative
    weights, self-loops, the same road twice, the same node twice, edges naming
    a node absent from the node CSV, and graphs over the size caps.

    Without a node CSV the nodes are placed by a seeded spring layout (for
    drawing only) and ``G.graph["has_coordinates"]`` is ``False``: straight-line
    heuristics are then meaningless and the page offers only the zero heuristic.

    >>> G = load_graph_csv("source,target,weight\\nA,B,2\\nB,C,3\\n")
    >>> sorted(G.nodes), G["B"]["C"]["weight"]
    (['A', 'B', 'C'], 3.0)
    """
    table = _read_table(edges, edges_name)
    _require_columns(table, ("source", "target", "weight"), edges_name)
    if table.empty:
        raise InputError(f"{edges_name}: no roads; expected at least one line after the header.")
    if len(table) > max_edges:
        raise InputError(
            f"{edges_name}: {len(table):,} roads is over the limit of {max_edges:,} for this app."
        )
    G = nx.Graph()
    comma = uses_decimal_comma(table)
    seen: dict[frozenset, int] = {}
    for line, record in zip(table.index.tolist(), table.to_dict("records"), strict=True):
        u, v = record["source"].strip(), record["target"].strip()
        for column, value in (("source", u), ("target", v)):
            if not value:
                raise InputError(
                    f"{edges_name}, line {line}, column '{column}': the name is empty."
                )
        if u == v:
            raise InputError(
                f"{edges_name}, line {line}: {u!r} is joined to itself; remove the self-loop."
            )
        weight = _number(
            record["weight"], edges_name, line, "weight", non_negative=True, decimal_comma=comma
        )
        key = frozenset((u, v))
        if key in seen:
            raise InputError(
                f"{edges_name}, line {line}: the road {u}–{v} is already given on line "
                f"{seen[key]}; give each road once."
            )
        seen[key] = line
        G.add_edge(u, v, weight=weight)
    if G.number_of_nodes() > max_nodes:  # before any layout work
        raise InputError(
            f"{edges_name}: {G.number_of_nodes():,} places is over the limit of "
            f"{max_nodes:,} for this app."
        )
    if nodes is not None:
        _add_positions(G, _read_table(nodes, nodes_name), nodes_name)
    else:
        for node, (x, y) in _layout(G).items():
            G.nodes[node]["pos"] = (float(x), float(y))
        G.graph["has_coordinates"] = False
    G.graph.setdefault("kind", "upload")
    G.graph.setdefault("name", "Uploaded graph")
    return G


#: Spring-layout iterations by graph size: networkx's spring layout takes about 1.5 s at
#: 500 places and 8 s at 2,000 with its default 50 (2-core machine), so big maps get fewer.
LAYOUT_ITERATIONS = ((500, 50), (2_000, 15))


def _layout(G: nx.Graph) -> dict:
    """Drawing positions for a graph without coordinates: a seeded spring layout, or a circle.

    Spring layouts with fewer iterations above 500 places keep an upload of up to
    2,000 places under about 3 s; bigger ones go on a circle.
    """
    n = G.number_of_nodes()
    for most, iterations in LAYOUT_ITERATIONS:
        if n <= most:
            return nx.spring_layout(G, seed=0, iterations=iterations)
    return nx.circular_layout(G)


def _add_positions(G: nx.Graph, table: pd.DataFrame, name: str) -> None:
    _require_columns(table, ("node", "x", "y"), name)
    comma = uses_decimal_comma(table)
    seen: dict[str, int] = {}
    for line, record in zip(table.index.tolist(), table.to_dict("records"), strict=True):
        node = record["node"].strip()
        if not node:
            raise InputError(f"{name}, line {line}, column 'node': the name is empty.")
        if node in seen:
            raise InputError(
                f"{name}, line {line}: node {node!r} is already given on line {seen[node]}."
            )
        seen[node] = line
        x = _number(record["x"], name, line, "x", non_negative=False, decimal_comma=comma)
        y = _number(record["y"], name, line, "y", non_negative=False, decimal_comma=comma)
        G.add_node(node, pos=(x, y))
    unknown = [n for n in G.nodes if n not in seen]
    if unknown:
        shown = ", ".join(repr(n) for n in sorted(unknown)[:5])
        more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        raise InputError(
            f"{name}: no coordinates for {shown}{more}, named in the edges CSV; "
            "add a line 'node,x,y' for each."
        )
    G.graph["has_coordinates"] = True


# --------------------------------------------------------------------------- generators


def grid(
    rows: int,
    cols: int,
    *,
    obstacles: float = 0.25,
    diagonal: bool = False,
    seed: int = 0,
    keep_free: Iterable[tuple[int, int]] | None = None,
    corridor: bool = False,
    index: bool = True,
) -> nx.Graph:
    """A ``rows`` x ``cols`` grid with a seeded random share of blocked cells.

    Nodes are ``(row, col)`` tuples with ``pos = (col, row)``; blocked cells are
    left out of the graph and listed in ``G.graph["obstacles"]``. Moves are 4-
    connected (weight 1) or, with ``diagonal``, 8-connected (diagonals weigh
    sqrt(2) and may not cut the corner of a blocked cell). The corners
    ``(0, 0)`` and ``(rows-1, cols-1)`` stay free unless ``keep_free`` says
    otherwise. With ``corridor``, a seeded random staircase of free cells joins
    those two corners, so that the corner-to-corner query always has a route.
    With ``index`` (the default) the graph comes with its search index
    (:mod:`lib.routes.compiled`), built from the same arrays as its edges.

    >>> G = grid(3, 4, obstacles=0.0)
    >>> G.number_of_nodes(), G.number_of_edges()
    (12, 17)
    """
    if rows < 1 or cols < 1 or rows > MAX_GRID_SIDE or cols > MAX_GRID_SIDE:
        raise InputError(f"Grid size must be 1 to {MAX_GRID_SIDE} per side, got {rows}x{cols}.")
    if not 0.0 <= obstacles < 1.0:
        raise InputError(f"Obstacle share must be in [0, 1), got {obstacles}.")
    rng = np.random.default_rng(seed)
    blocked = rng.random((rows, cols)) < obstacles
    free_cells = ((0, 0), (rows - 1, cols - 1)) if keep_free is None else tuple(keep_free)
    for r, c in free_cells:
        blocked[r, c] = False
    if corridor:
        r = c = 0
        while (r, c) != (rows - 1, cols - 1):
            blocked[r, c] = False
            down = c == cols - 1 or (r < rows - 1 and rng.random() < rows / (rows + cols))
            r, c = (r + 1, c) if down else (r, c + 1)
        blocked[r, c] = False
    return grid_from_terrain(
        np.where(blocked, 0, 1).astype(np.uint8), diagonal=diagonal, index=index
    )


def grid_from_terrain(
    terrain: np.ndarray, *, diagonal: bool = False, index: bool = True
) -> nx.Graph:
    """The grid graph of ``terrain``: a ``rows`` x ``cols`` array of each cell's cost, 0 a wall.

    Nodes are the free ``(row, col)`` cells with ``pos = (col, row)``; walls are listed in
    ``G.graph["obstacles"]`` and the cells costing more than 1 in ``G.graph["costs"]``
    (``(row, col, cost)``). A move between two cells weighs the mean of their costs times
    its length (1, or sqrt(2) on a diagonal, which may not cut a wall's corner): on a map
    of costs 1 only, the moves of :func:`grid`. The move's weight is the same both ways,
    and never less than its length, so Manhattan and octile distances stay admissible.

    >>> G = grid_from_terrain(np.array([[1, 3], [0, 1]], dtype=np.uint8))
    >>> G[(0, 0)][(0, 1)]["weight"], G.graph["obstacles"], G.graph["costs"]
    (2.0, [(1, 0)], [(0, 1, 3)])
    """
    terrain = np.asarray(terrain)
    rows, cols = terrain.shape
    free = terrain > 0
    G = nx.Graph(kind="grid", name=f"Grid {rows}x{cols}", rows=rows, cols=cols, diagonal=diagonal)
    G.graph["has_coordinates"] = True
    # .tolist() makes Python ints at C speed (an edit rebuilds this grid on every stroke)
    G.graph["obstacles"] = list(zip(*(a.tolist() for a in np.nonzero(~free)), strict=True))
    costly = np.nonzero(terrain > 1)
    G.graph["costs"] = list(
        zip(*(a.tolist() for a in costly), terrain[costly].tolist(), strict=True)
    )
    cells = list(zip(*(a.tolist() for a in np.nonzero(free)), strict=True))
    G.add_nodes_from((cell, {"pos": (cell[1], cell[0])}) for cell in cells)
    number = np.full((rows, cols), -1, dtype=np.int64)
    number[free] = np.arange(len(cells))  # row-major, as ``cells``
    right = free[:, :-1] & free[:, 1:]
    down = free[:-1, :] & free[1:, :]
    r, c = np.nonzero(right)
    first, second = [number[r, c]], [number[r, c + 1]]
    r, c = np.nonzero(down)
    first.append(number[r, c])
    second.append(number[r + 1, c])
    steps = sum(map(len, first))  # the 4-connected moves, of length 1
    if diagonal:
        # a diagonal move needs both cells beside it free: it may not cut a blocked corner
        r, c = np.nonzero(right[:-1, :] & right[1:, :] & down[:, :-1] & down[:, 1:])
        first.append(np.stack([number[r, c], number[r, c + 1]], axis=1).ravel())
        second.append(np.stack([number[r + 1, c + 1], number[r + 1, c]], axis=1).ravel())
    first_all, second_all = np.concatenate(first), np.concatenate(second)
    weights = np.full(len(first_all), math.sqrt(2.0))
    weights[:steps] = 1.0
    cost = terrain[free].astype(np.float64)  # by cell number
    if G.graph["costs"]:
        weights = weights * (cost[first_all] + cost[second_all]) / 2
    _add_edges(G, cells, first_all, second_all, weights, index)
    return G


def _add_edges(
    G: nx.Graph,
    nodes: list,
    first: np.ndarray,
    second: np.ndarray,
    weights: np.ndarray,
    index: bool,
) -> None:
    """Add edges ``nodes[first[k]]``–``nodes[second[k]]`` at ``weights[k]`` to ``G`` in order.

    With ``index``, also build ``G``'s search index from the same arrays
    (:meth:`~lib.routes.compiled.CompiledGraph.from_edge_arrays`), so that
    even the first A* query on the graph runs at full speed.
    """
    G.add_weighted_edges_from(
        zip(
            map(nodes.__getitem__, first.tolist()),
            map(nodes.__getitem__, second.tolist()),
            weights.tolist(),
            strict=True,
        )
    )
    if index:
        attach(G, CompiledGraph.from_edge_arrays(nodes, first, second, weights))


def random_geometric(
    n: int, *, radius: float | None = None, seed: int = 0, index: bool = True
) -> nx.Graph:
    """``n`` seeded random points in the unit square joined when closer than ``radius``.

    Edge weights are the Euclidean lengths, so the straight-line heuristic is
    admissible and consistent. The default radius gives an average degree of
    about ``1.5 ln n``, which usually connects the graph. With ``index`` (the
    default) the graph comes with its search index (:mod:`lib.routes.compiled`).

    >>> G = random_geometric(50, seed=1)
    >>> G.number_of_nodes()
    50
    """
    if n < 2 or n > MAX_RANDOM_NODES:
        raise InputError(f"Number of places must be 2 to {MAX_RANDOM_NODES:,}, got {n}.")
    if radius is None:
        radius = math.sqrt(1.5 * math.log(n) / (math.pi * n))
    if not 0 < radius <= 1.5:
        raise InputError(f"Radius must be in (0, 1.5], got {radius}.")
    rng = np.random.default_rng(seed)
    points = rng.random((n, 2))
    from scipy.spatial import cKDTree  # here: SciPy maps ~100 MB, which a pool job may not spare

    pairs = cKDTree(points).query_pairs(radius, output_type="ndarray")
    lengths = np.hypot(*(points[pairs[:, 0]] - points[pairs[:, 1]]).T)
    G = nx.Graph(kind="random", name=f"Random geometric graph ({n} places)", radius=radius)
    G.graph["has_coordinates"] = True
    G.add_nodes_from((i, {"pos": (x, y)}) for i, (x, y) in enumerate(points.tolist()))
    _add_edges(G, list(range(n)), pairs[:, 0], pairs[:, 1], lengths, index)
    return G


# --------------------------------------------------------------------------- node labels


def node_label(node: Hashable) -> str:
    """A node's name for selects, tables and URLs: ``(2, 3)`` becomes ``"2,3"``."""
    if isinstance(node, tuple):
        return ",".join(str(part) for part in node)
    return str(node)


def find_node(G: nx.Graph, label: str) -> Hashable | None:
    """The node of ``G`` whose :func:`node_label` is ``label``, or ``None``."""
    for node in G.nodes:
        if node_label(node) == label:
            return node
    return None


# --------------------------------------------------------------------------- heuristics


class StraightLine:
    """Straight-line (Euclidean) distance between node positions, times ``scale``.

    Search functions recognise this class and inline the computation, which
    keeps A* fast; any other ``h(u, v)`` callable works too.
    """

    __slots__ = ("pos", "scale")

    def __init__(self, pos: Mapping[Hashable, tuple[float, float]], scale: float = 1.0) -> None:
        self.pos = pos
        self.scale = float(scale)

    @classmethod
    def of(cls, G: nx.Graph, scale: float = 1.0) -> StraightLine:
        """The straight-line heuristic of ``G``'s ``pos`` attributes."""
        return cls(dict(G.nodes(data="pos")), scale)

    def __call__(self, u: Hashable, v: Hashable) -> float:
        """Straight-line distance from ``u`` to ``v``, times the scale."""
        (x1, y1), (x2, y2) = self.pos[u], self.pos[v]
        return math.hypot(x1 - x2, y1 - y2) * self.scale

    def __repr__(self) -> str:
        return f"StraightLine(scale={self.scale:.4g})"


class Manhattan(StraightLine):
    """Manhattan distance ``|dx| + |dy|`` times ``scale``: exact on an empty 4-connected grid."""

    __slots__ = ()

    def __call__(self, u: Hashable, v: Hashable) -> float:
        """Manhattan distance from ``u`` to ``v``, times the scale."""
        (x1, y1), (x2, y2) = self.pos[u], self.pos[v]
        return (abs(x1 - x2) + abs(y1 - y2)) * self.scale

    def __repr__(self) -> str:
        return f"Manhattan(scale={self.scale:.4g})"


class Octile(StraightLine):
    """Octile distance ``max + (sqrt 2 - 1) min`` of ``|dx|, |dy|``: exact on an empty 8-grid."""

    __slots__ = ()

    def __call__(self, u: Hashable, v: Hashable) -> float:
        """Octile distance from ``u`` to ``v`` (diagonal steps cost sqrt 2), times the scale."""
        (x1, y1), (x2, y2) = self.pos[u], self.pos[v]
        dx, dy = abs(x1 - x2), abs(y1 - y2)
        return (max(dx, dy) + (math.sqrt(2.0) - 1.0) * min(dx, dy)) * self.scale

    def __repr__(self) -> str:
        return f"Octile(scale={self.scale:.4g})"


@dataclass(frozen=True)
class TableHeuristic:
    """A table of estimates to one fixed goal, like the book's distances to Bucharest.

    Calling it with any other goal raises :class:`InputError`: the table says
    nothing about other goals.
    """

    table: Mapping[Hashable, float]
    goal: Hashable

    def __call__(self, u: Hashable, v: Hashable) -> float:
        """The table's estimate from ``u``; raises InputError for any goal but its own."""
        if v != self.goal:
            raise InputError(
                f"The table heuristic only estimates distances to {self.goal}, not to {v}."
            )
        return float(self.table[u])


def bucharest_table() -> TableHeuristic:
    """The book's straight-line distances to Bucharest as a heuristic (goal Bucharest only)."""
    return TableHeuristic(BUCHAREST_SLD, "Bucharest")


#: Largest graph for which :func:`admissible_scale` runs (it needs all-pairs shortest paths).
SCALE_MAX_NODES = 1_500


def admissible_scale(
    G: nx.Graph, *, weight: str = "weight", max_nodes: int = SCALE_MAX_NODES
) -> float:
    """The largest factor ``s`` for which ``s`` x straight line never exceeds the shortest route.

    That is ``min over connected u != v of d(u, v) / |pos(u) - pos(v)|``; with
    it, :class:`StraightLine` is admissible for every goal. Needs all-pairs
    shortest paths, so graphs over ``max_nodes`` raise :class:`InputError`.
    """
    if G.number_of_nodes() > max_nodes:
        raise InputError(
            f"Computing the admissible scale needs all-pairs shortest paths; "
            f"{G.number_of_nodes():,} places is over the limit of {max_nodes:,}."
        )
    h = StraightLine.of(G)
    best = math.inf
    for u, lengths in nx.all_pairs_dijkstra_path_length(G, weight=weight):
        for v, d in lengths.items():
            if u != v:
                straight = h(u, v)
                if straight > 0:
                    best = min(best, d / straight)
    return 1.0 if best == math.inf else best


# --------------------------------------------------------------------------- heuristic menu

STRAIGHT = "Straight line"
SCALED = "Straight line, scaled to be admissible"
BOOK = "Book table: km to Bucharest"
MANHATTAN = "Manhattan"
OCTILE = "Octile"
ZERO = "None (h = 0)"


def heuristic_choices(G: nx.Graph) -> list[str]:
    """The heuristics that make sense on ``G``, the recommended one first."""
    if not G.graph.get("has_coordinates", True):
        return [ZERO]
    kind = G.graph.get("kind")
    if kind == "grid":
        return [OCTILE if G.graph.get("diagonal") else MANHATTAN, STRAIGHT, ZERO]
    if kind == "random":
        return [STRAIGHT, ZERO]
    choices = [STRAIGHT]
    if G.number_of_nodes() <= SCALE_MAX_NODES:  # the scale needs all-pairs shortest paths
        choices.append(SCALED)
    if kind == "romania":
        choices.append(BOOK)
    return [*choices, ZERO]


def make_heuristic(
    G: nx.Graph, name: str, *, scale: float | None = None
) -> StraightLine | TableHeuristic | None:
    """The heuristic called ``name`` (one of :func:`heuristic_choices`) for ``G``.

    ``scale`` short-cuts :func:`admissible_scale` for the scaled straight line
    (pass a cached value; it is computed otherwise).
    """
    if name not in heuristic_choices(G):
        raise InputError(f"The heuristic {name!r} is not available for this graph.")
    if name == ZERO:
        return None
    if name == BOOK:
        return bucharest_table()
    if name == MANHATTAN:
        return Manhattan.of(G)
    if name == OCTILE:
        return Octile.of(G)
    if name == SCALED:
        return StraightLine.of(G, admissible_scale(G) if scale is None else scale)
    return StraightLine.of(G)
