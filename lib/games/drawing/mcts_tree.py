"""The Monte Carlo search tree at one step of an MCTS step-through: a plotly figure.

:func:`mcts_tree_figure` draws the tree of :func:`lib.games.search.mcts_steps.tree_at`:
each node with its wins/visits, the path of the simulation in orange, the node the
step is about ringed in red, UCB1 values on the edges while selection chooses, proven
nodes as diamonds coloured by who wins (ringed green where this back-up proved them).
Labels are drawn on the figure; a big tree labels only the path and its children.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence

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

FULL_LABEL_NODES = 40
"""Trees with at most this many nodes label every node and edge."""

MIN_WIDTH_LEAVES = 8
"""A small tree is drawn as wide as one of this many leaves."""

CURRENT_COLOUR = "#d32f2f"
PATH_COLOUR = "#ef6c00"
NODE_COLOUR = "#546e7a"
EDGE_COLOUR = "#b0bec5"
PROOF_COLOUR = "#2e7d32"
PROVEN_COLOURS = ("#1565c0", "#ad1457", "#6d4c41")
"""Proven nodes: a win for player 0, for player 1, a draw."""


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


def labelled(nodes: Mapping[Path, NodeCounts], path: Path) -> set[Path]:
    """Nodes whose counts and incoming move are written: all in a small tree, else the path
    from the root to ``path`` and the children of every node on it."""
    if len(nodes) <= FULL_LABEL_NODES:
        return set(nodes)
    on_path = {path[:i] for i in range(len(path) + 1)}
    return on_path | {p for p in nodes if p and p[:-1] in on_path}


def proven_colour(proven: tuple[float, float]) -> str:
    """The colour of a proven node: who wins with perfect play."""
    if proven[0] == proven[1]:
        return PROVEN_COLOURS[2]
    return PROVEN_COLOURS[0] if proven[0] > proven[1] else PROVEN_COLOURS[1]


def counts_label(counts: NodeCounts) -> str:
    """``wins/visits`` (the root, which no one moved into, shows its visits)."""
    if counts.mover is None:
        return f"{counts.visits}"
    return f"{counts.wins:g}/{counts.visits}"


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


def _ucb_labels(event: MctsEvent, position: Mapping[Path, tuple[float, int]]) -> dict | None:
    """Each child's UCB1 on its edge at every node selection passed; the chosen one bold."""
    xs, ys, texts, colours = [], [], [], []
    for choice in event.choices:
        for child in choice.children:
            path = (*choice.path, child.move)
            xs.append(0.5 * position[choice.path][0] + 0.5 * position[path][0])
            ys.append(0.5 * position[choice.path][1] + 0.5 * position[path][1])
            if child.ucb1 is None:
                texts.append("lost")
            elif child.move == choice.chosen:
                texts.append(f"<b>{child.ucb1:.2f}</b>")
            else:
                texts.append(f"{child.ucb1:.2f}")
            colours.append(CURRENT_COLOUR if child.move == choice.chosen else "#37474f")
    if not xs:
        return None
    return dict(
        type="scatter",
        x=xs,
        y=ys,
        mode="text",
        text=texts,
        textposition="middle right",
        textfont={"size": MIN_FONT, "color": colours},
        hoverinfo="skip",
        showlegend=False,
        name="UCB1",
    )


def _move_labels(
    nodes: Mapping[Path, NodeCounts],
    position: Mapping[Path, tuple[float, int]],
    shown: set[Path],
    format_move: Callable[[Move], str],
) -> dict | None:
    paths = [p for p in nodes if p and p in shown]
    if not paths:
        return None
    return dict(
        type="scatter",
        x=[0.5 * position[p[:-1]][0] + 0.5 * position[p][0] for p in paths],
        y=[0.5 * position[p[:-1]][1] + 0.5 * position[p][1] for p in paths],
        mode="text",
        text=[escape_plot_text(format_move(p[-1])) for p in paths],
        textposition="middle left",
        textfont={"size": MIN_FONT, "color": "#263238"},
        hoverinfo="skip",
        showlegend=False,
        name="moves",
    )


def _nodes(
    nodes: Mapping[Path, NodeCounts],
    position: Mapping[Path, tuple[float, int]],
    shown: set[Path],
    on_path: set[Path],
    format_move: Callable[[Move], str],
    players: Sequence[str],
) -> dict:
    """Every node: a circle (a diamond once proven), its wins/visits where labelled."""
    items = list(nodes.items())

    def colour(path: Path, counts: NodeCounts) -> str:
        if counts.proven is not None:
            return proven_colour(counts.proven)
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
            "size": [18 if c.proven is not None else 14 for _, c in items],
            "color": [colour(p, c) for p, c in items],
        },
        text=[counts_label(c) if p in shown else "" for p, c in items],
        textposition="bottom center",
        textfont={"size": MIN_FONT, "color": [colour(p, c) for p, c in items]},
        hovertext=[hover(p, c) for p, c in items],
        hoverinfo="text",
        showlegend=False,
        name="nodes",
    )


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
) -> go.Figure:
    """Draw the tree ``nodes`` (:func:`~lib.games.search.mcts_steps.tree_at` at the step of
    ``event``): the path to the step's node, its ring, UCB1 on the edges while selecting,
    and the nodes this back-up proved ringed green."""
    position = tree_layout(nodes)
    path = event.path  # the node the step is about; the path to it is orange
    on_path = {path[:i] for i in range(len(path) + 1)}
    shown = labelled(nodes, path)
    proved = [position[u.path] for u in event.updates if u.newly_proven]
    traces = [
        _edges(position, [p for p in nodes if p], EDGE_COLOUR, 1.5, "edges"),
        _edges(position, [p for p in on_path if p], PATH_COLOUR, 4, "path"),
        _move_labels(nodes, position, shown, format_move),
        _ucb_labels(event, position) if event.phase == "selection" else None,
        _nodes(nodes, position, shown, on_path, format_move, players),
        _rings(proved, PROOF_COLOUR, 34, "newly proven") if proved else None,
        _rings([position[path]], CURRENT_COLOUR, 28, "current node"),
    ]
    xs = [p[0] for p in position.values()]
    depth = max(p[1] for p in position.values())
    phase = PHASE_LABELS[event.phase]
    layout = {
        "title": {
            "text": f"{escape_plot_text(title)}<br><sup>simulation {event.simulation}: "
            f"{phase}</sup>",
            "font": {"size": TITLE_FONT},
        },
        "font": {"size": MIN_FONT},
        "hoverlabel": {"font": {"size": MIN_FONT}},
        "height": 240 + 110 * depth,
        "margin": {"l": 20, "r": 20, "t": 80, "b": 20},
        "plot_bgcolor": "white",
        "showlegend": False,
        "xaxis": {"visible": False, "range": [min(xs) - 1, max(max(xs), MIN_WIDTH_LEAVES) + 1]},
        "yaxis": {"visible": False, "range": [depth + 0.6, -0.6]},
    }
    # plain dicts, not validated element by element (as lib.games.drawing.step_tree does)
    return go.Figure(data=[t for t in traces if t is not None], layout=layout, _validate=False)
