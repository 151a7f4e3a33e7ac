"""The search tree as it stood at one step of a step-through: a plotly figure.

:func:`step_tree_figure` draws :class:`lib.games.search.stepthrough.TreeAtStep`:
the nodes entered so far, each where it sits in the finished tree (so the
tree grows in place as the steps go), the current node ringed in red with its
alpha-beta window, values as they are backed up, and the moves a cut-off
skipped as grey stubs. Labels are drawn on the figure (nothing needs a hover):
on a small tree every node and edge, on a big one the path being searched and
the current node's children.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence

import plotly.graph_objects as go

from lib.charts import MIN_FONT, TITLE_FONT
from lib.common import escape_plot_text
from lib.games.search.stepthrough import StepNode, TreeAtStep, value_text, window_label

Move = Hashable
Path = tuple[Move, ...]

FULL_LABEL_LEAVES = 30
"""Trees with at most this many leaves (the textbook's 27) label every node and edge."""

MIN_WIDTH_LEAVES = 12
"""A tree growing from its first leaves is drawn as wide as one of this many leaves."""

CURRENT_COLOUR = "#d32f2f"
OPEN_COLOUR = "#ef6c00"
DONE_COLOUR = "#1565c0"
LEAF_COLOUR = "#2e7d32"
TERMINAL_COLOUR = "#6a1b9a"
PRUNED_COLOUR = "#9e9e9e"
EDGE_COLOUR = "#607d8b"

LEVEL_PIXELS = 100
"""Height of one ply of the tree (a page may draw a deep tree flatter)."""
LABEL_FLIP_SHARE = 0.25
"""Nodes in this right-hand share of the chart write their labels to their left (in the chart)."""
DENSE_LEAVES = 60
"""Drawings more leaves wide than this have smaller markers (they would be a solid block)."""

TREE_PLOT_PIXELS = 260
"""The plot's width (px) in the step-through's tree column at 1024x768 with the sidebar open:
a tree whose labels need more is drawn wider (``layout.width``), and the page scrolls it."""
CHAR_PIXELS = 0.62
"""A label character's width, in font sizes (the page's sans-serif; digits and "α=−∞")."""
LABEL_PAD = 6
"""Pixels kept between two labels of a row."""
MAX_TREE_HEIGHT = 420
"""The tallest the page draws the tree (px; a deeper tree is drawn flatter): the rows'
spacing the labels are kept apart for."""
WINDOW_RISE = 0.27
"""How far (plies) a node's α/β window is written above it: midway between its value, beside
the node, and the move on its edge, half a ply up."""
MOVE_AT = 0.45
"""Where along its edge (from the parent) a move is written: a line of text clear of the
child's window above the child (:data:`WINDOW_RISE`)."""
UNIT_PIXELS = 4
"""A big tree's unlabelled leaf (px): a dense fringe; a labelled node takes what it needs."""

_SYMBOLS = {"max": "triangle-up", "min": "triangle-down", "chance": "circle", "pruned": "x"}


def tree_positions(
    final: TreeAtStep, widths: Mapping[Path, float] | None = None
) -> dict[Path, tuple[float, int]]:
    """x (leaf order, parents centred over their children) and y (ply) of every node.

    Computed from the finished tree, so a node keeps its place while the tree grows.
    ``widths``: the x units a node takes (a leaf's slot, the least span of an inner node's
    subtree; 1 for a leaf not named), :func:`label_widths`.
    """
    position: dict[Path, tuple[float, int]] = {}
    next_leaf = 0.0
    stack: list[tuple[Path, bool]] = [((), False)]
    while stack:
        path, done = stack.pop()
        node = final.nodes[path]
        if not node.children:
            wide = 1.0 if widths is None else widths.get(path, 1.0)
            position[path] = (next_leaf + (wide - 1) / 2, node.ply)
            next_leaf += wide
        elif done:
            xs = [position[child][0] for child in node.children]
            # a labelled node over a narrow subtree: room made after it
            extra = 0.0 if widths is None else widths.get(path, 0.0) - (max(xs) - min(xs) + 1)
            position[path] = ((min(xs) + max(xs)) / 2 + max(extra, 0.0) / 2, node.ply)
            next_leaf += max(extra, 0.0)
        else:
            stack.append((path, True))
            stack.extend((child, False) for child in reversed(node.children))
    return position


def node_label(node: StepNode) -> str:
    """The value shown at a node: ``≥``/``≤`` marks a bound, an exact value has no mark.

    A returned node is exact when its children's values pin it down
    (:attr:`~lib.games.search.stepthrough.StepNode.exact`): AIMA figure 5.5 writes
    2 at a MIN node whose last leaf is 2, though 2 is below alpha there.
    """
    if node.status == "pruned" or node.value is None:
        return ""
    bound = ""
    if node.status == "done" and not node.exact:
        if node.value == node.low:
            bound = "≥"
        elif node.value == node.high:
            bound = "≤"
        else:
            bound = "≥" if node.node == "max" else "≤"
    return bound + value_text(node.value)


def _colour(node: StepNode, current: Path) -> str:
    if node.path == current:
        return CURRENT_COLOUR
    if node.status == "pruned":
        return PRUNED_COLOUR
    if node.status == "open":
        return OPEN_COLOUR
    if node.terminal:
        return TERMINAL_COLOUR
    return LEAF_COLOUR if node.leaf else DONE_COLOUR


def labelled_paths(now: TreeAtStep, full: bool) -> set[Path]:
    """The nodes whose value and incoming move are written on the figure.

    Every node of a small tree (``full``); on a big one the path from the root to
    the current node and the children of every node on it (the moves tried and
    skipped so far at each level of the path).
    """
    if full:
        return set(now.nodes)
    path = now.open_path()
    return set(path).union(*(now.nodes[p].children for p in path))


def text_pixels(text: str, size: int = MIN_FONT) -> float:
    """The estimated width (px) of a label (plotly's ``<b>`` markup not counted)."""
    plain = text.replace("<b>", "").replace("</b>", "")
    return len(plain) * CHAR_PIXELS * size


def label_widths(
    now: TreeAtStep,
    labelled: set[Path],
    format_move: Callable[[Move], str],
    size: int = MIN_FONT,
) -> dict[Path, float]:
    """The x units (of :data:`UNIT_PIXELS`) each labelled node of a big tree takes: room for
    its value and for its move, written beside its edge at :data:`MOVE_AT` of the way down
    (two siblings' moves are that share of the siblings' distance apart)."""
    widths = {}
    for path in labelled:
        if not path:
            continue
        move = text_pixels(escape_plot_text(format_move(path[-1])), size) + LABEL_PAD
        value = text_pixels(node_label(now.nodes[path]), size) + LABEL_PAD
        widths[path] = max(1.0, move / MOVE_AT / UNIT_PIXELS, value / UNIT_PIXELS)
    return widths


def _node_places(
    now: TreeAtStep,
    final: TreeAtStep,
    positions: Mapping[Path, tuple[float, int]] | None,
    leaves: int,
    widths: Mapping[Path, float],
) -> Mapping[Path, tuple[float, int]]:
    """Where each node is drawn: in the finished tree's places when it is small (``leaves``).

    A small tree fills in like the book's; a big one is laid out as it stands, so
    the part searched so far is wide enough to read (depth-first, a new leaf is
    always the rightmost, so old leaves stay put).
    """
    if leaves <= FULL_LABEL_LEAVES:
        return positions if positions is not None else tree_positions(final)
    return tree_positions(now, widths)


def x_span(position: Mapping[Path, tuple[float, int]]) -> tuple[float, float]:
    """The chart's x range: every node, at least :data:`MIN_WIDTH_LEAVES` wide, with margins."""
    xs = [p[0] for p in position.values()]
    low, high = min(xs), max(max(xs), MIN_WIDTH_LEAVES)
    margin = max(1.0, 0.03 * (high - low))  # a dense tree's edge markers stay whole
    return low - margin, high + 2 * margin


def side_of(x: float, span: tuple[float, float]) -> str:
    """Where a label goes beside a node at ``x``: right, or left near the chart's right edge."""
    low, high = span
    return "middle left" if x > high - LABEL_FLIP_SHARE * (high - low) else "middle right"


def _edge_trace(
    now: TreeAtStep, position: Mapping[Path, tuple[float, int]], *, pruned: bool
) -> dict:
    """The searched edges (solid), or the edges a cut-off skipped (dotted grey)."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for path, node in now.nodes.items():
        if not path or (node.status == "pruned") != pruned:
            continue
        x0, y0 = position[path[:-1]]
        x1, y1 = position[path]
        xs += [x0, x1, None]
        ys += [y0, y1, None]
    return dict(
        type="scatter",
        x=xs,
        y=ys,
        mode="lines",
        line={
            "color": "#cfcfcf" if pruned else EDGE_COLOUR,
            "width": 1.5 if pruned else 2,
            "dash": "dot" if pruned else "solid",
        },
        hoverinfo="skip",
        name="skipped by a cut-off" if pruned else "searched",
        showlegend=False,
    )


def _move_label_trace(
    now: TreeAtStep,
    position: Mapping[Path, tuple[float, int]],
    labelled: set[Path],
    format_move: Callable[[Move], str],
) -> dict | None:
    """The move on each labelled edge, left of it a little above its middle (None: none)."""
    edge_paths = [p for p in now.nodes if p and p in labelled]
    if not edge_paths:
        return None
    return dict(
        type="scatter",
        x=[(1 - MOVE_AT) * position[p[:-1]][0] + MOVE_AT * position[p][0] for p in edge_paths],
        y=[(1 - MOVE_AT) * position[p[:-1]][1] + MOVE_AT * position[p][1] for p in edge_paths],
        mode="text",
        text=[escape_plot_text(format_move(p[-1])) for p in edge_paths],
        textposition="middle left",
        textfont={
            "size": MIN_FONT,
            "color": [
                PRUNED_COLOUR if now.nodes[p].status == "pruned" else "#263238" for p in edge_paths
            ],
        },
        hoverinfo="skip",
        showlegend=False,
        name="moves",
    )


def _node_trace(
    now: TreeAtStep,
    position: Mapping[Path, tuple[float, int]],
    labelled: set[Path],
    format_move: Callable[[Move], str],
    dense: bool,
) -> dict:
    """Every node: ▲ max, ▼ min, ● chance, × skipped, coloured by status, labelled values.

    A parent's value is beside it (its edges leave from under it), on the side with room,
    and so is the current node's (under it is its ring); a ``dense`` tree's markers are small.
    """
    current = now.current
    nodes = list(now.nodes.values())
    span = x_span(position)
    big, small = (8, 5) if dense else (16, 10)
    return dict(
        type="scatter",
        x=[position[n.path][0] for n in nodes],
        y=[position[n.path][1] for n in nodes],
        mode="markers+text",
        marker={
            "symbol": [_SYMBOLS.get(n.node, "circle") for n in nodes],
            "size": [small if n.status == "pruned" else big for n in nodes],
            "color": [_colour(n, current) for n in nodes],
        },
        text=[
            _beside(n, current, side_of(position[n.path][0], span)) if n.path in labelled else ""
            for n in nodes
        ],
        textposition=[
            "bottom center"
            if not n.children and n.path != current
            else side_of(position[n.path][0], span)
            for n in nodes
        ],
        textfont={"size": MIN_FONT, "color": [_colour(n, current) for n in nodes]},
        hovertext=[
            escape_plot_text(" ".join(format_move(m) for m in n.path) or "root")
            + f"<br>{n.node} node, {n.status}"
            + f"<br>value {node_label(n) or '?'}<br>{window_label(n.alpha, n.beta)}"
            for n in nodes
        ],
        hoverinfo="text",
        showlegend=False,
        name="nodes",
    )


def _reach(text: str, side: str, offset: float, size: int) -> tuple[float, float]:
    """How far (px) a label written at ``side`` of its point reaches left and right of it."""
    wide = text_pixels(text, size)
    if side.endswith("left"):
        return offset + wide, 0.0
    if side.endswith("right"):
        return 0.0, offset + wide
    return wide / 2, wide / 2


def label_rows(
    traces: Sequence[dict | None], marker: float, size: int = MIN_FONT
) -> dict[float, list[tuple[float, float, float]]]:
    """The labels of the figure's text traces by row: ``{y: [(x, reach left, reach right)]}``
    (x in x units, reaches in px; a label under its node is a row of its own)."""
    rows: dict[float, list[tuple[float, float, float]]] = {}
    for trace in traces:
        if trace is None or "text" not in trace.get("mode", ""):
            continue
        sides = trace["textposition"]
        offset = marker / 2 + 3 if "markers" in trace["mode"] else 3
        for i, (x, y, text) in enumerate(zip(trace["x"], trace["y"], trace["text"], strict=True)):
            if not text:
                continue
            side = sides if isinstance(sides, str) else sides[i]
            row = y + (0.3 if side.startswith("bottom") else 0.0)
            rows.setdefault(round(row, 3), []).append((x, *_reach(text, side, offset, size)))
    return rows


def unit_pixels(
    rows: Mapping[float, Sequence[tuple[float, float, float]]],
    ply_pixels: float = 1e9,
    size: int = MIN_FONT,
) -> float:
    """The pixels one x unit needs so that no two labels of a row overlap (:func:`label_rows`);
    rows closer than a line of text (at ``ply_pixels`` a ply) count as one row."""
    bands: list[list[tuple[float, float, float]]] = []
    last = None
    for y in sorted(rows):
        if last is None or (y - last) * ply_pixels >= 1.3 * size:
            bands.append([])
        bands[-1].extend(rows[y])
        last = y
    need = 0.0
    for labels in bands:
        for (x0, _, right), (x1, left, _) in itertools.pairwise(sorted(labels)):
            if x1 - x0 > 1e-9:
                need = max(need, (right + left + LABEL_PAD) / (x1 - x0))
    return need


def _drawn_leaves(position: Mapping[Path, tuple[float, int]]) -> float:
    """How many leaves wide the drawing is (a big tree's grows with the steps)."""
    xs = [p[0] for p in position.values()]
    return max(xs) - min(xs) + 1


def _beside(node: StepNode, current: Path, side: str) -> str:
    """A node's value label; the current node's beside it, clear of the ring round it."""
    label = node_label(node)
    if node.path != current or not label:
        return label
    return f"{label}\u2003" if side == "middle left" else f"\u2003{label}"


def _window_trace(now: TreeAtStep, position: Mapping[Path, tuple[float, int]]) -> dict | None:
    """The alpha-beta windows of the nodes being searched (the open path), the current one bold.

    None when no node on the path is open.
    """
    current = now.current
    open_nodes = [now.nodes[p] for p in now.open_path() if now.nodes[p].status == "open"]
    if not open_nodes:
        return None
    span = x_span(position)
    return dict(
        type="scatter",
        x=[position[n.path][0] for n in open_nodes],
        y=[position[n.path][1] - WINDOW_RISE for n in open_nodes],
        mode="text",
        text=[
            f"<b>{window_label(n.alpha, n.beta)}</b>"
            if n.path == current
            else window_label(n.alpha, n.beta)
            for n in open_nodes
        ],
        textposition=[side_of(position[n.path][0], span) for n in open_nodes],
        textfont={
            "size": MIN_FONT,
            "color": [CURRENT_COLOUR if n.path == current else OPEN_COLOUR for n in open_nodes],
        },
        hoverinfo="skip",
        showlegend=False,
        name="windows",
    )


def _current_ring_trace(x: float, y: float) -> dict:
    """A red ring round the current node, at ``(x, y)``."""
    return dict(
        type="scatter",
        x=[x],
        y=[y],
        mode="markers",
        marker={
            "symbol": "circle-open",
            "size": 32,
            "color": CURRENT_COLOUR,
            "line": {"width": 3, "color": CURRENT_COLOUR},
        },
        hoverinfo="skip",
        showlegend=False,
        name="current node",
    )


def _step_layout(
    now: TreeAtStep,
    final: TreeAtStep,
    position: Mapping[Path, tuple[float, int]],
    title: str,
    minimax_nodes: int | None,
    minimax_capped: bool,
) -> dict:
    """The title with the step's counter, a height for the finished tree's depth, no axes.

    The x range holds the whole tree and at least :data:`MIN_WIDTH_LEAVES` leaves
    (:func:`x_span`).
    """
    depth = max(node.ply for node in final.nodes.values())
    counter = counter_text(now, minimax_nodes, minimax_capped)
    # the sizes lib.charts.readable sets, given at once (its updates re-walk every trace)
    return {
        "title": {
            "text": f"{escape_plot_text(title)}<br><sup>{counter}</sup>",
            "font": {"size": TITLE_FONT},
        },
        "font": {"size": MIN_FONT},
        "hoverlabel": {"font": {"size": MIN_FONT}},
        "height": 150 + LEVEL_PIXELS * depth,
        "margin": {"l": 20, "r": 20, "t": 64, "b": 20},
        "plot_bgcolor": "white",
        "showlegend": False,
        "xaxis": {"visible": False, "range": list(x_span(position))},
        "yaxis": {"visible": False, "range": [depth + 0.6, -0.7]},
    }


def step_tree_figure(
    now: TreeAtStep,
    final: TreeAtStep,
    format_move: Callable[[Move], str],
    *,
    title: str,
    minimax_nodes: int | None = None,
    minimax_capped: bool = False,
    positions: Mapping[Path, tuple[float, int]] | None = None,
    full_label_leaves: int = FULL_LABEL_LEAVES,
    whole: bool = False,
    font: int = MIN_FONT,
) -> go.Figure:
    """Draw the tree ``now`` (one step of a trace whose finished tree is ``final``).

    ``title`` names the search (e.g. "Alpha-beta, depth 3"); the counter "visited N
    of minimax's M nodes" and the cut-offs so far follow it. A small tree (at most
    :data:`FULL_LABEL_LEAVES` leaves when finished) is drawn in the places of the
    finished tree and fully labelled; ``positions`` may pass :func:`tree_positions`
    of ``final``, computed once for every step. A big tree is laid out as it stands.
    Trees with more than ``full_label_leaves`` leaves label only the current path
    (half-width charts pass fewer than :data:`FULL_LABEL_LEAVES`).

    ``font``: the labels' size (px); the tree is laid out for it.

    ``whole`` draws a search as a whole, not at a step (the comparison's other tree): no
    ring and no windows, and a big tree labels only the root and its moves.
    """
    leaves = sum(1 for node in final.nodes.values() if not node.children)
    full = leaves <= full_label_leaves
    labelled = labelled_paths(now, full)
    if whole and not full:
        labelled = {(), *now.nodes[()].children}
    widths = label_widths(now, labelled, format_move, font)
    position = _node_places(now, final, positions, leaves, widths)
    # plain dicts, validated once by nothing: plotly's per-element validation of a few
    # thousand labels and colours costs more than the whole step (bench/step_through.py)
    traces = [
        _edge_trace(now, position, pruned=False),
        _edge_trace(now, position, pruned=True),
        _move_label_trace(now, position, labelled, format_move),
        _node_trace(now, position, labelled, format_move, _drawn_leaves(position) > DENSE_LEAVES),
        None if whole else _window_trace(now, position),
        None if whole else _current_ring_trace(*position[now.current]),
    ]
    layout = _step_layout(now, final, position, title, minimax_nodes, minimax_capped)
    for trace in traces:  # the labels' size (the presentation view's is larger)
        if trace is not None and "textfont" in trace:
            trace["textfont"]["size"] = font
    layout["font"] = layout["hoverlabel"]["font"] = {"size": font}
    # as wide as its labels need, never smaller text: the page scrolls a wide tree sideways
    low, high = x_span(position)
    marker = 8 if _drawn_leaves(position) > DENSE_LEAVES else 16
    depth = max(node.ply for node in final.nodes.values())
    height = min(layout["height"], MAX_TREE_HEIGHT) - layout["margin"]["t"] - layout["margin"]["b"]
    ply = height / (depth + 1.3)  # the y range: depth + 0.6 down to -0.7
    need = unit_pixels(label_rows(traces, marker, font), ply, font) * (high - low)
    if need > TREE_PLOT_PIXELS:
        layout["width"] = round(need) + layout["margin"]["l"] + layout["margin"]["r"]
        # the page opens a wide tree at its right end (the newest nodes): the title there too
        layout["title"] |= {"x": 1.0, "xanchor": "right"}
    return go.Figure(
        data=[trace for trace in traces if trace is not None], layout=layout, _validate=False
    )


def counter_text(now: TreeAtStep, minimax_nodes: int | None, minimax_capped: bool = False) -> str:
    """``visited 12 of minimax's 40 nodes · 2 cut-offs`` (the counts at this step)."""
    visited = f"visited {now.visited:,} node{'' if now.visited == 1 else 's'}"
    if minimax_nodes is not None:
        more = "more than " if minimax_capped else ""
        visited = f"visited {now.visited:,} of minimax's {more}{minimax_nodes:,} nodes"
    plural = "" if now.cutoffs == 1 else "s"
    return f"{visited} · {now.cutoffs} cut-off{plural}"


def path_moves(path: Sequence[Move], format_move: Callable[[Move], str]) -> str:
    """The moves from the root, as the board's caption names them."""
    return " ".join(format_move(m) for m in path) or "the root"
