"""The tree a route search has built by a step of its trace, its layout and its picture.

:func:`build` replays a trace (:mod:`lib.routes.trace`) up to step ``k`` and
keeps every place reached as a node of the tree: its parent (the place it was
reached from, the latest one if a cheaper route replaced it), its ``g``, ``h``
and ``f``, its depth and the order it was pushed in; the frontier and explored
nodes, the node being expanded and, once the goal test has passed, the route
to the goal. :func:`window` cuts a big tree down to the part around the node
being expanded; :func:`layout` places the nodes in rows by depth, children in
the order they were pushed, each parent centred over its children; and
:func:`tree_figure` draws it with plotly.

Nodes are keyed by ``(side, place)``: ``side`` is ``""`` except for the two
searches of a bidirectional search, which grow two trees.

>>> from lib.routes.graphs import romania, StraightLine
>>> from lib.routes.search import astar
>>> G = romania()
>>> result = astar(G, "Arad", "Bucharest", StraightLine.of(G), record_trace=True)
>>> tree = build(result.trace, 4, goal="Bucharest")
>>> sorted(place for _, place in tree.nodes)
['Arad', 'Sibiu', 'Timisoara', 'Zerind']
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

import plotly.graph_objects as go

from lib.charts import readable
from lib.routes.graphs import node_label
from lib.routes.plots import CURRENT_COLOUR, EXPLORED_COLOUR, FRONTIER_COLOUR, START_COLOUR
from lib.routes.trace import Part, TraceStep

Key = tuple[str, Hashable]
#: Past this many nodes the picture shows only the part around the node being expanded.
MAX_SHOWN = 150
#: Past this many rows (depths) too: the rows around the node being expanded.
MAX_ROWS = 7
#: The width the labels are spaced for (a 1024 px projector's main column), a character of
#: 14 px text and the room between two labels, in pixels.
PLOT_PX, CHAR_PX, GAP_PX = 680, 6.6, 6
ROW_PX = 100  # height of one row of the picture (two lines of 14 px text and a marker)
#: How far under a labelled node (in rows) the lines to its children start: under its label.
LABEL_DROP = 0.5
REACHED_COLOUR, EDGE_COLOUR = "#d1d5db", "#9ca3af"


@dataclass(frozen=True)
class TreeNode:
    """A place on the search tree: how it was reached and its values there."""

    key: Key
    parent: Key | None
    g: float
    h: float
    f: float
    depth: int
    order: int  # the push that put its current entry on the frontier (0: the start's)

    @property
    def place(self) -> Hashable:
        """The place (the node of the map) this tree node is."""
        return self.key[1]


@dataclass(frozen=True)
class SearchTree:
    """The search tree after step ``step``: its nodes, in the order they were first reached."""

    step: int
    nodes: dict[Key, TreeNode]
    frontier: frozenset[Key]
    explored: frozenset[Key]
    current: Key | None  # the node being expanded at this step
    path: tuple[Key, ...] = ()  # the route to the goal, once the goal test has passed
    hidden: int = 0  # nodes of the whole tree left out of this one (:func:`window`)
    children: dict[Key, tuple[Key, ...]] = field(default_factory=dict, compare=False)

    def kids(self, key: Key) -> tuple[Key, ...]:
        """The children of ``key`` on this tree, in the order they were pushed."""
        return self.children.get(key, ())


def _depths(parents: dict[Key, Key | None]) -> dict[Key, int]:
    """Each node's number of parent links up to a root (a loop of links would stop there)."""
    depth: dict[Key, int] = {}
    for key in parents:
        chain, seen = [], set()
        while key is not None and key not in depth and key not in seen:
            seen.add(key)
            chain.append(key)
            key = parents.get(key)
        base = depth[key] if key is not None and key in depth else -1
        for offset, node in enumerate(reversed(chain), start=1):
            depth[node] = base + offset
    return depth


def _children(nodes: dict[Key, TreeNode]) -> dict[Key, tuple[Key, ...]]:
    """Each node's children among ``nodes``, in the order they were pushed."""
    kids: dict[Key, list[Key]] = {}
    for node in sorted(nodes.values(), key=lambda n: n.order):
        if node.parent is not None and node.parent in nodes:
            kids.setdefault(node.parent, []).append(node.key)
    return {key: tuple(value) for key, value in kids.items()}


def build(trace: Sequence[TraceStep], step: int, *, goal: Hashable | None = None) -> SearchTree:
    """The search tree after step ``step`` (0-based, clamped to the trace) of ``trace``.

    A place pushed again with a cheaper route keeps its place in the tree's
    node order but takes its new parent and values; an IDA* restart (a
    ``reset`` step) starts a new tree. With ``goal``, the route to it is kept
    once a goal-test step has passed.
    """
    step = max(0, min(step, len(trace) - 1))
    entries: dict[Key, tuple] = {}  # key -> (parent key, g, h, f, order)
    frontier: set[Key] = set()
    explored: set[Key] = set()
    found, pushes = False, 0
    for index in range(step + 1):
        move = trace[index]
        if move.reset:
            entries.clear()
            frontier.clear()
            explored.clear()
            found = False
        if move.current is not None:
            frontier.discard((move.side, move.current))
            explored.add((move.side, move.current))
        for entry in move.pushed:
            key = (entry.side, entry.node)
            parent = None if entry.parent is None else (entry.side, entry.parent)
            entries[key] = (parent, entry.g, entry.h, entry.f, pushes)
            frontier.add(key)
            pushes += 1
        found = found or move.part is Part.GOAL_TEST
    depth = _depths({key: value[0] for key, value in entries.items()})
    nodes = {
        key: TreeNode(key, p, g, h, f, depth[key], o) for key, (p, g, h, f, o) in entries.items()
    }
    last = trace[step]
    current = None if last.current is None else (last.side, last.current)
    path: tuple[Key, ...] = ()
    if found and goal is not None and ("", goal) in nodes:
        route, key = [], ("", goal)
        while key is not None and key not in route:
            route.append(key)
            key = nodes[key].parent
        path = tuple(reversed(route))
    return SearchTree(
        step, nodes, frozenset(frontier), frozenset(explored), current, path,
        children=_children(nodes),
    )  # fmt: skip


def _ancestors(tree: SearchTree, key: Key) -> list[Key]:
    """``key`` and the nodes above it, up to its root."""
    chain: list[Key] = []
    while key is not None and key in tree.nodes and key not in chain:
        chain.append(key)
        key = tree.nodes[key].parent
    return chain


def _distances(tree: SearchTree, focus: Key) -> dict[Key, int]:
    """Parent links between ``focus`` and each frontier node (unreachable ones left out)."""
    up = {key: number for number, key in enumerate(_ancestors(tree, focus))}
    found = {}
    for key in tree.frontier:
        for steps, above in enumerate(_ancestors(tree, key)):
            if above in up:
                found[key] = steps + up[above]
                break
    return found


def window(tree: SearchTree, max_nodes: int = MAX_SHOWN, max_rows: int = MAX_ROWS) -> SearchTree:
    """``tree`` itself if it is small; else the part around the current node.

    A tree of more than ``max_nodes`` nodes or ``max_rows`` rows (depths) is
    cut to the ``max_rows`` rows around the current node (the start before the
    first expansion): up to ``max_rows - 3`` rows above it, the rest below.
    Kept from those rows, in this order while there is room: the route to the
    goal once found, the current node and its ancestors (the nearest first),
    its children and siblings, then the frontier nodes nearest to it in the
    tree (fewest parent links, then lowest ``f``), each with the ancestors that
    join it to what is kept. ``hidden`` counts the nodes left out.
    """
    depths = [node.depth for node in tree.nodes.values()]
    if len(tree.nodes) <= max_nodes and max(depths) - min(depths) < max_rows:
        return tree
    focus = tree.current if tree.current in tree.nodes else next(iter(tree.nodes))
    top = max(min(depths), tree.nodes[focus].depth - (max_rows - 3))
    keep: dict[Key, None] = {}

    def add(keys: Sequence[Key]) -> None:
        for key in keys:
            if len(keep) < max_nodes and top <= tree.nodes[key].depth < top + max_rows:
                keep[key] = None

    parent = tree.nodes[focus].parent
    siblings = () if parent is None else tree.kids(parent)
    add([*tree.path[::-1], *_ancestors(tree, focus), *tree.kids(focus), *siblings])
    near = _distances(tree, focus)
    for key in sorted(near, key=lambda k: (near[k], tree.nodes[k].f, tree.nodes[k].order)):
        if not top <= tree.nodes[key].depth < top + max_rows:
            continue
        joined = []
        for above in _ancestors(tree, key):
            if above in keep or tree.nodes[above].depth < top:
                break
            joined.append(above)
        if len(keep) + len(joined) <= max_nodes:  # else too far up to join: a nearer one may fit
            add(joined[::-1])
    nodes = {key: node for key, node in tree.nodes.items() if key in keep}
    return SearchTree(
        tree.step, nodes, tree.frontier & nodes.keys(), tree.explored & nodes.keys(),
        tree.current, tuple(k for k in tree.path if k in nodes), len(tree.nodes) - len(nodes),
        _children(nodes),
    )  # fmt: skip


def layout(tree: SearchTree) -> dict[Key, tuple[float, float]]:
    """``(x, y)`` of each node: ``y = -depth``; leaves one unit apart, parents over their children.

    Children keep the order they were pushed in; the roots (one, or several
    when :func:`window` cut the links above them) are laid out left to right
    in the order they were reached.
    """
    roots = [n.key for n in tree.nodes.values() if n.parent is None or n.parent not in tree.nodes]
    roots.sort(key=lambda key: tree.nodes[key].order)
    x: dict[Key, float] = {}
    next_leaf = 0.0
    for root in roots:  # post-order without recursion: a depth-first tree can be deep
        stack: list[tuple[Key, bool]] = [(root, False)]
        while stack:
            key, done = stack.pop()
            kids = tree.kids(key)
            if done or not kids:
                if kids:
                    x[key] = (x[kids[0]] + x[kids[-1]]) / 2
                else:
                    x[key], next_leaf = next_leaf, next_leaf + 1
                continue
            stack.append((key, True))
            stack.extend((kid, False) for kid in reversed(kids))
    return {key: (x[key], -float(tree.nodes[key].depth)) for key in tree.nodes}


def values_text(node: TreeNode) -> str:
    """A node's values, short: ``g+h=f`` when f is their sum, else each named."""
    g, h, f = (f"{value:.4g}" for value in (node.g, node.h, node.f))
    if abs(node.g + node.h - node.f) <= 1e-9 * max(1.0, abs(node.f)):
        return f"{g}+{h}={f}"
    return f"g {g} h {h} f {f}"


def _labelled(
    tree: SearchTree, where: dict[Key, tuple[float, float]], label: Callable[[Hashable], str]
) -> set[Key]:
    """The nodes whose name and values are written on the picture (hover shows every node's).

    Labels must not overlap in a :data:`PLOT_PX` wide picture: the node being
    expanded, the route to the goal, its ancestors, its children and the best
    frontier nodes get theirs first, then the others in the order they were
    reached, each only where its row has room for it.
    """
    xs = [x for x, _ in where.values()] or [0.0]
    unit = PLOT_PX / (max(xs) - min(xs) + 1.4)  # pixels per unit of x
    first: list[Key] = list(tree.path)
    if tree.current in tree.nodes:
        first = [tree.current, *first, *_ancestors(tree, tree.current), *tree.kids(tree.current)]
    first += sorted(tree.frontier, key=lambda k: (tree.nodes[k].f, tree.nodes[k].order))
    taken: dict[float, list[tuple[float, float]]] = {}  # row -> (x, half width) of its labels
    chosen: set[Key] = set()
    for key in dict.fromkeys([*first, *tree.nodes]):
        node = tree.nodes[key]
        half = CHAR_PX * max(len(label(node.place)), len(values_text(node))) / 2 / unit
        x, y = where[key]
        row = taken.setdefault(y, [])
        if all(abs(x - other) >= half + width + GAP_PX / unit for other, width in row):
            row.append((x, half))
            chosen.add(key)
    return chosen


def _status(tree: SearchTree, key: Key) -> str:
    if key == tree.current:
        return "being expanded"
    if key in tree.frontier:
        return "frontier"
    return "explored" if key in tree.explored else "reached"


STYLES = {  # status -> (fill, outline, outline width, marker size)
    "explored": (EXPLORED_COLOUR, "#1f2937", 1, 18),
    "frontier": (FRONTIER_COLOUR, "#1f2937", 1, 18),
    "reached": (REACHED_COLOUR, "#1f2937", 1, 18),
    "being expanded": ("#ffffff", CURRENT_COLOUR, 5, 26),
}


def _nodes_trace(
    tree: SearchTree,
    keys: list[Key],
    status: str,
    where: dict[Key, tuple[float, float]],
    labelled: set[Key],
    label: Callable[[Hashable], str],
) -> go.Scatter:
    """The markers of the nodes ``keys`` (all of one status), their names, values and hovers."""
    fill, outline, line_width, size = STYLES[status]
    nodes = [tree.nodes[key] for key in keys]
    names = [html.escape(label(n.place)) for n in nodes]
    return go.Scatter(
        x=[where[k][0] for k in keys],
        y=[where[k][1] for k in keys],
        mode="markers+text",
        name=status,
        marker={"color": fill, "size": size, "line": {"color": outline, "width": line_width}},
        text=[
            f"{name}<br>{values_text(n)}" if n.key in labelled else ""
            for name, n in zip(names, nodes, strict=True)
        ],
        textposition="bottom center",
        textfont={"size": 14},
        customdata=[[label(n.place)] for n in nodes],
        hovertext=[
            f"{name}{f' ({n.key[0]})' if n.key[0] else ''}: "
            f"g {n.g:.4g}, h {n.h:.4g}, f {n.f:.4g}, pushed #{n.order}"
            for name, n in zip(names, nodes, strict=True)
        ],
        hoverinfo="text",
    )


def tree_figure(
    tree: SearchTree, *, title: str = "", label: Callable[[Hashable], str] = node_label
) -> go.Figure:
    """The tree: rows by depth, orange frontier, blue explored, the expanded node ringed red.

    Every node carries ``customdata = [its place's label]`` (for clicks); the
    route to the goal is drawn thick green once found; hovering a node shows
    its place, g, h, f and the order it was pushed in. Names are written as
    text (an uploaded ``<b>`` is not markup).
    """
    where = layout(tree)
    rows: dict[int, int] = {}
    for node in tree.nodes.values():
        rows[node.depth] = rows.get(node.depth, 0) + 1
    labelled = _labelled(tree, where, label)
    fig = go.Figure()
    on_path = set(itertools.pairwise(tree.path))
    for kind, colour, width in (("roads", EDGE_COLOUR, 2), ("goal path", START_COLOUR, 6)):
        xs: list[float | None] = []
        ys: list[float | None] = []
        for node in tree.nodes.values():
            if node.parent in where and ((node.parent, node.key) in on_path) == (kind != "roads"):
                xs += [where[node.parent][0], where[node.key][0], None]
                drop = LABEL_DROP if node.parent in labelled else 0.0  # not through its label
                ys += [where[node.parent][1] - drop, where[node.key][1], None]
        fig.add_trace(
            go.Scatter(x=xs, y=ys, mode="lines", line={"color": colour, "width": width},
                       name=kind, hoverinfo="skip", showlegend=kind != "roads" and bool(xs))
        )  # fmt: skip
    for status in STYLES:
        keys = [key for key in tree.nodes if _status(tree, key) == status]
        if keys:
            fig.add_trace(_nodes_trace(tree, keys, status, where, labelled, label))
    depth, first = max(rows, default=0), min(rows, default=0)
    xs_all = [x for x, _ in where.values()] or [0.0]
    fig.update_layout(
        title={"text": title, "yref": "container", "y": 0.995, "yanchor": "top"} if title else None,
        height=max(300, min(1000, (110 if title else 80) + ROW_PX * (depth - first + 1))),
        margin={"l": 10, "r": 10, "t": 80 if title else 40, "b": 10},
        plot_bgcolor="#ffffff",
        legend={"orientation": "h", "y": 1.01, "yanchor": "bottom", "x": 0},
        dragmode=False,
        clickmode="event+select",
    )
    fig.update_xaxes(visible=False, range=[min(xs_all) - 0.7, max(xs_all) + 0.7])
    fig.update_yaxes(visible=False, range=[-depth - 0.75, -first + 0.35])
    if tree.hidden:
        fig.add_annotation(
            text=f"{tree.hidden:,} more nodes not shown", xref="paper", yref="paper",
            x=1, y=0, xanchor="right", yanchor="bottom", showarrow=False,
        )  # fmt: skip
    return readable(fig)
