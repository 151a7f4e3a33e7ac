"""The Monte Carlo search tree at one step of an MCTS step-through: a plotly figure.

:func:`mcts_tree_figure` draws the tree of :func:`lib.games.search.mcts_steps.tree_at`:
each node with its wins/visits, the path of the simulation in orange, the node the
step is about ringed in red, UCB1 values on the edges while selection chooses, proven
nodes as diamonds coloured by who wins (ringed green where this back-up proved them).
Labels are drawn on the figure (the path first, then the most visited) where they fit
without overlapping; the page's table gives every number of the step.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import plotly.graph_objects as go

from lib.charts import MIN_FONT, TITLE_FONT
from lib.common import escape_plot_text
from lib.games.search.mcts_steps import (
    PHASE_LABELS,
    MctsEvent,
    NodeCounts,
    result_text,
)

Move = Hashable
Path = tuple[Move, ...]

PLOT_PIXELS = 600
"""About the plotting width of the tree chart (the panel gives it 640 pixels)."""

LABEL_PIXELS = 60
"""The room a label needs in its row ("b2" over "3.5/12" over "✓ X wins", a UCB1 value) at
:data:`~lib.charts.MIN_FONT` px; larger labels need more in proportion."""

TREE_FONT = 15
"""The tree's labels (px); the presentation view passes its own, larger size."""

MARKER_PIXELS = (5, 14)
"""Smallest and largest node marker: a dense tree's nodes shrink to stay apart."""

MIN_WIDTH_LEAVES = 8
"""A small tree is drawn as wide as one of this many leaves."""

CURRENT_COLOUR = "#d32f2f"
PATH_COLOUR = "#ef6c00"
NODE_COLOUR = "#546e7a"
EDGE_COLOUR = "#b0bec5"
PROOF_COLOUR = "#2e7d32"
PROVEN_COLOUR = "#6a1b9a"
"""Proven nodes (who wins is written on them: the boards' own colours differ by game)."""


def tree_layout(nodes: Mapping[Path, NodeCounts]) -> dict[Path, tuple[float, int]]:
    """x (leaf order, parents centred over their children) and y (depth) of every node.

    Children are placed in expansion order (the order of ``nodes``).
    """
    children: dict[Path, list[Path]] = {path: [] for path in nodes}
    for path in nodes:
        if path:
            children[path[:-1]].append(path)
    position: dict[Path, tuple[float, int]] = {}
    next_leaf = 0.0
    stack: list[tuple[Path, bool]] = [((), False)]
    while stack:
        path, done = stack.pop()
        if not children[path]:
            position[path] = (next_leaf, len(path))
            next_leaf += 1
        elif done:
            xs = [position[child][0] for child in children[path]]
            position[path] = ((min(xs) + max(xs)) / 2, len(path))
        else:
            stack.append((path, True))
            stack.extend((child, False) for child in reversed(children[path]))
    return position


def x_range(position: Mapping[Path, tuple[float, int]]) -> tuple[float, float]:
    """The x axis shown: the whole tree, centred in at least :data:`MIN_WIDTH_LEAVES` leaves."""
    xs = [p[0] for p in position.values()]
    low, high = min(xs) - 1, max(xs) + 1
    pad = max(0.0, MIN_WIDTH_LEAVES + 2 - (high - low)) / 2
    return low - pad, high + pad


def marker_size(position: Mapping[Path, tuple[float, int]]) -> float:
    """The node markers' size: one x unit's pixels, within :data:`MARKER_PIXELS`."""
    low, high = x_range(position)
    smallest, largest = MARKER_PIXELS
    return max(smallest, min(largest, 0.8 * PLOT_PIXELS / (high - low)))


def label_gap(position: Mapping[Path, tuple[float, int]], font: int = TREE_FONT) -> float:
    """How far apart (x units) two labels of ``font`` px in a row must be not to overlap."""
    low, high = x_range(position)
    return LABEL_PIXELS * font / MIN_FONT * (high - low) / PLOT_PIXELS


def spaced(candidates: Sequence[tuple[Any, float, float]], gap: float) -> list[Any]:
    """The keys of ``(key, x, row)`` candidates that get a label, in priority order: each
    unless a label already kept in its row is closer than ``gap``."""
    kept: dict[float, list[float]] = {}
    chosen = []
    for key, x, row in candidates:
        row_xs = kept.setdefault(row, [])
        if all(abs(x - other) >= gap for other in row_xs):
            row_xs.append(x)
            chosen.append(key)
    return chosen


def labelled(
    nodes: Mapping[Path, NodeCounts],
    path: Path,
    position: Mapping[Path, tuple[float, int]],
    font: int = TREE_FONT,
) -> set[Path]:
    """Nodes whose move and counts are written: the path to ``path`` first, then the most
    visited, each where it does not overlap a label already written in its row (every
    node of a small tree)."""
    on_path = {path[:i] for i in range(len(path) + 1)}
    order = sorted(nodes, key=lambda p: (p not in on_path, -nodes[p].visits))
    gap = label_gap(position, font)
    return set(spaced([(p, *position[p]) for p in order], gap))


def counts_label(counts: NodeCounts) -> str:
    """``wins/visits`` (the root, which no one moved into, shows its visits)."""
    if counts.mover is None:
        return f"{counts.visits}"
    return f"{counts.wins:g}/{counts.visits}"


def node_text(
    path: Path, counts: NodeCounts, format_move: Callable[[Move], str], players: Sequence[str]
) -> str:
    """The move into the node over its counts (the root: its visits), and once proven,
    ``✓ X wins`` or ``✓ a draw``."""
    lines = [escape_plot_text(format_move(path[-1]))] if path else []
    lines.append(counts_label(counts))
    if counts.proven is not None:
        lines.append("✓ " + escape_plot_text(result_text(counts.proven, players)))
    return "<br>".join(lines)


def _edges(
    position: Mapping[Path, tuple[float, int]],
    paths: Sequence[Path],
    colour: str,
    width: float,
    name: str,
) -> dict:
    xs: list[float | None] = []
    ys: list[float | None] = []
    for path in paths:
        x0, y0 = position[path[:-1]]
        x1, y1 = position[path]
        xs += [x0, x1, None]
        ys += [y0, y1, None]
    return dict(
        type="scatter",
        x=xs,
        y=ys,
        mode="lines",
        line={"color": colour, "width": width},
        hoverinfo="skip",
        showlegend=False,
        name=name,
    )


def _ucb_labels(
    event: MctsEvent, position: Mapping[Path, tuple[float, int]], font: int
) -> dict | None:
    """Each child's UCB1 on its edge at every node selection passed, the chosen one bold.

    Neighbouring edges write theirs at two heights; a value with no room left beside the
    others (the chosen one first, then the highest) is left to the table under the tree.
    """
    candidates = []
    for choice in event.choices:
        x0, y0 = position[choice.path]
        for index, child in enumerate(choice.children):
            x1, _ = position[(*choice.path, child.move)]
            along = 0.4 if index % 2 == 0 else 0.68
            rank = (child.move != choice.chosen, -(child.ucb1 if child.ucb1 is not None else -1))
            candidates.append((rank, (child, choice, x0 + along * (x1 - x0), y0 + along)))
    candidates.sort(key=lambda item: item[0])
    kept = spaced([(key, key[2], key[3]) for _, key in candidates], label_gap(position, font))
    if not kept:
        return None
    texts, colours = [], []
    for child, choice, _, _ in kept:
        chosen = child.move == choice.chosen
        value = "lost" if child.ucb1 is None else f"{child.ucb1:.2f}"
        texts.append(f"<b>{value}</b>" if chosen else value)
        colours.append(CURRENT_COLOUR if chosen else "#37474f")
    return dict(
        type="scatter",
        x=[key[2] for key in kept],
        y=[key[3] for key in kept],
        mode="text",
        text=texts,
        textposition="middle center",
        textfont={"size": font, "color": colours},
        hoverinfo="skip",
        showlegend=False,
        name="UCB1",
    )


def _nodes(
    nodes: Mapping[Path, NodeCounts],
    position: Mapping[Path, tuple[float, int]],
    shown: set[Path],
    on_path: set[Path],
    format_move: Callable[[Move], str],
    players: Sequence[str],
    ringed: Path,
    font: int,
) -> dict:
    """Every node: a circle (a diamond once proven), its wins/visits where labelled."""
    items = list(nodes.items())
    size = marker_size(position)
    # labelled to the right: a parent (its edges leave from under it) and the ringed node
    beside = {path[:-1] for path in nodes if path} | {ringed}

    def colour(path: Path, counts: NodeCounts) -> str:
        if counts.proven is not None:
            return PROVEN_COLOUR
        return PATH_COLOUR if path in on_path else NODE_COLOUR

    def hover(path: Path, counts: NodeCounts) -> str:
        where = escape_plot_text(" ".join(format_move(m) for m in path) or "root")
        text = f"{where}<br>visits {counts.visits}"
        if counts.mover is not None:
            text += f", wins for {escape_plot_text(players[counts.mover])} {counts.wins:g}"
        if counts.proven is not None:
            text += f"<br>proven: {escape_plot_text(result_text(counts.proven, players))}"
        return text

    return dict(
        type="scatter",
        x=[position[p][0] for p, _ in items],
        y=[position[p][1] for p, _ in items],
        mode="markers+text",
        marker={
            "symbol": ["diamond" if c.proven is not None else "circle" for _, c in items],
            "size": [size + 4 if c.proven is not None else size for _, c in items],
            "color": [colour(p, c) for p, c in items],
        },
        # every line clear of a ring round it (plotly starts each line at the same x)
        text=[
            _indented(node_text(p, c, format_move, players), p in beside) if p in shown else ""
            for p, c in items
        ],
        textposition=["middle right" if p in beside else "bottom center" for p, _ in items],
        textfont={"size": font, "color": [colour(p, c) for p, c in items]},
        hovertext=[hover(p, c) for p, c in items],
        hoverinfo="text",
        showlegend=False,
        name="nodes",
    )


def _indented(text: str, beside: bool) -> str:
    """A label written right of its node: each of its lines starts past the node's ring."""
    if not beside:
        return text
    pad = "\u2003\u2002"
    return pad + f"<br>{pad}".join(text.split("<br>"))


def _rings(points: Sequence[tuple[float, int]], colour: str, size: int, name: str) -> dict:
    return dict(
        type="scatter",
        x=[p[0] for p in points],
        y=[p[1] for p in points],
        mode="markers",
        marker={
            "symbol": "circle-open",
            "size": size,
            "color": colour,
            "line": {"width": 3, "color": colour},
        },
        hoverinfo="skip",
        showlegend=False,
        name=name,
    )


def mcts_tree_figure(
    nodes: Mapping[Path, NodeCounts],
    event: MctsEvent,
    format_move: Callable[[Move], str],
    players: Sequence[str],
    *,
    title: str,
    font: int = TREE_FONT,
) -> go.Figure:
    """Draw the tree ``nodes`` (:func:`~lib.games.search.mcts_steps.tree_at` at the step of
    ``event``): the path to the step's node, its ring, UCB1 on the edges while selecting,
    and the nodes this back-up proved ringed green."""
    position = tree_layout(nodes)
    path = event.path  # the simulation's node: the path to it is orange
    on_path = {path[:i] for i in range(len(path) + 1)}
    shown = labelled(nodes, path, position, font)
    proved = [position[u.path] for u in event.updates if u.newly_proven]
    traces = [
        _edges(position, [p for p in nodes if p], EDGE_COLOUR, 1.5, "edges"),
        _edges(position, [p for p in on_path if p], PATH_COLOUR, 4, "path"),
        _ucb_labels(event, position, font) if event.phase == "selection" else None,
        _nodes(nodes, position, shown, on_path, format_move, players, event.focus, font),
        _rings(proved, PROOF_COLOUR, 34, "newly proven") if proved else None,
        _rings([position[event.focus]], CURRENT_COLOUR, 28, "current node"),
    ]
    depth = max(p[1] for p in position.values())
    phase = PHASE_LABELS[event.phase]
    layout = {
        "title": {
            "text": f"{escape_plot_text(title)}<br><sup>simulation {event.simulation}: "
            f"{phase}</sup>",
            "font": {"size": TITLE_FONT},
        },
        "font": {"size": font},
        "hoverlabel": {"font": {"size": font}},
        "height": 200 + round(100 * font / MIN_FONT) * depth,
        "margin": {"l": 20, "r": 20, "t": 70, "b": 20},
        "plot_bgcolor": "white",
        "showlegend": False,
        "xaxis": {"visible": False, "range": list(x_range(position))},
        "yaxis": {"visible": False, "range": [depth + 0.6, -0.6]},
    }
    # plain dicts, not validated element by element (as lib.games.drawing.step_tree does)
    return go.Figure(data=[t for t in traces if t is not None], layout=layout, _validate=False)
