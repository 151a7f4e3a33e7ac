"""Route search's pictures: the maps' colours, sizes and text places, the comparison charts.

The maps themselves (the clickable route map and the step map) are drawn on a canvas in
the browser from :mod:`lib.routes.animation`'s data; here is what they share with each
other: colours, marker sizes, where names and road lengths are written and the range of
the map shown. The comparison charts are plotly figures.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

import networkx as nx
import pandas as pd
import plotly.graph_objects as go

from lib.common import escape_plot_text
from lib.routes.graphs import node_label

#: One colour per algorithm (colour-blind friendly, readable on a projector).
PALETTE = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#000000",
    "#F0E442",
    "#999999",
)
START_COLOUR, GOAL_COLOUR = "#009E73", "#D55E00"
EXPLORED_COLOUR, FRONTIER_COLOUR, CURRENT_COLOUR = "#9ecae1", "#fdae6b", "#d62728"
#: Graphs up to this many edges get their road lengths written on the map.
LABEL_EDGES_UP_TO = 60
#: Graphs up to this many nodes get their names written on the map.
LABEL_NODES_UP_TO = 60
#: Text sizes and colours chosen for a projector: nothing under 14 px, dark on white.
FONT = {"size": 14, "color": "#1f2937"}
PLACE_FONT = {"size": 15, "color": "#111827"}
ROAD_FONT = {"size": 14, "color": "#4b5563"}
OBSTACLE_COLOUR, FREE_COLOUR = "#1a1a1a", "#f2f2f2"
#: Plot-area sizes (px) the grid markers are sized for: the narrowest layout the page is
#: read at (an 800 px wide window), so that markers never grow past their cells.
MAP_AREA, ANIMATION_AREA = (440, 460), (440, 480)


def colour(index: int) -> str:
    """The colour of the ``index``-th algorithm."""
    return PALETTE[index % len(PALETTE)]


def _is_grid(G: nx.Graph) -> bool:
    return G.graph.get("kind") == "grid"


def _xy(G: nx.Graph, nodes: Sequence[Hashable]) -> tuple[list[float], list[float]]:
    pos = G.nodes
    return [pos[n]["pos"][0] for n in nodes], [pos[n]["pos"][1] for n in nodes]


def _marker_size(G: nx.Graph, area: tuple[float, float] = MAP_AREA) -> float:
    """Marker size in px: on grids a little under one cell of a plot area of ``area`` px."""
    if _is_grid(G):
        return cell_size(G, area) * 0.85
    n = G.number_of_nodes()
    return 14.0 if n <= 60 else 9.0 if n <= 400 else 5.0


def cell_size(G: nx.Graph, area: tuple[float, float]) -> float:
    """The side in px of one grid cell when the grid fills a plot area of ``area`` px.

    The axes keep a 1:1 aspect ratio, so the cell is limited by the tighter of
    the two directions.
    """
    rows, cols = G.graph.get("rows", 1), G.graph.get("cols", 1)
    return max(1.0, min(area[0] / cols, area[1] / rows))


#: Where a road's length is written on the Romania map, as the fraction of the way from the
#: first place to the second (the middle, 0.5, otherwise): moved off a crowded name or number.
ROMANIA_ROAD_LABELS_AT = {
    ("Arad", "Timisoara"): 0.4,
    ("Craiova", "Pitesti"): 0.4,
    ("Rimnicu Vilcea", "Pitesti"): 0.6,
    ("Pitesti", "Bucharest"): 0.65,
}


#: Road lengths written beside their road instead of on it, moved by ``(dx, dy)`` map units:
#: on this short road the number sat between, and under, the dots of its two places.
ROMANIA_ROAD_LABELS_BESIDE = {("Timisoara", "Lugoj"): (-10.0, -23.0)}


def _road_label_shift(G: nx.Graph, u: Hashable, v: Hashable) -> tuple[float, float]:
    """How far (map units) the road's length is moved off its road: ``(0, 0)``, on it."""
    if G.graph.get("kind") != "romania":
        return 0.0, 0.0
    return ROMANIA_ROAD_LABELS_BESIDE.get((u, v), ROMANIA_ROAD_LABELS_BESIDE.get((v, u), (0, 0)))


def _road_label_at(G: nx.Graph, u: Hashable, v: Hashable) -> float:
    """The fraction of the way from ``u`` to ``v`` where the road's length is written."""
    if G.graph.get("kind") != "romania":
        return 0.5
    if (u, v) in ROMANIA_ROAD_LABELS_AT:
        return ROMANIA_ROAD_LABELS_AT[(u, v)]
    return 1.0 - ROMANIA_ROAD_LABELS_AT.get((v, u), 0.5)


def road_lengths(G: nx.Graph) -> list[tuple[float, float, str]]:
    """Road lengths written along each road, ``(x, y, text)``, at its middle by default.

    Small road maps only (none on grids and maps of over :data:`LABEL_EDGES_UP_TO` roads).
    The route map and the player write them above the routes, with a halo, so that a
    route never hides a length.
    """
    if _is_grid(G) or G.number_of_edges() > LABEL_EDGES_UP_TO:
        return []
    labels = []
    for u, v, d in G.edges(data=True):
        at = _road_label_at(G, u, v)
        (x1, y1), (x2, y2) = G.nodes[u]["pos"], G.nodes[v]["pos"]
        dx, dy = _road_label_shift(G, u, v)
        x, y = x1 + (x2 - x1) * at + dx, y1 + (y2 - y1) * at + dy
        labels.append((x, y, short_number(d.get("weight", 1))))
    return labels


def short_number(value: float) -> str:
    """A road length as written on the map: whole numbers whole, others to 3 figures.

    ``140`` stays ``140``, ``0.246609`` becomes ``0.247``, ``1234.6`` becomes ``1235``:
    a random graph's six-decimal lengths made an unreadable heap on small maps.
    """
    if not math.isfinite(value):
        return str(value)
    if abs(value) >= 1e6:
        return f"{value:.3g}"
    if value == int(value) or abs(value) >= 100:
        return f"{value:.0f}"
    return f"{value:.3g}"


_POSITIONS = {
    (0, 1): "top center",
    (1, 1): "top right",
    (1, 0): "middle right",
    (1, -1): "bottom right",
    (0, -1): "bottom center",
    (-1, -1): "bottom left",
    (-1, 0): "middle left",
    (-1, 1): "top left",
}


#: Hand-placed names for the Romania map (the course's coordinates), clear of each other, of
#: the road lengths and of the other places at 1024 and 1400 px wide windows.
ROMANIA_LABELS = {
    "Arad": "middle left",
    "Bucharest": "bottom right",
    "Craiova": "bottom center",
    "Drobeta": "middle left",
    "Eforie": "bottom right",
    "Fagaras": "top right",
    "Giurgiu": "bottom center",
    "Hirsova": "bottom right",
    "Iasi": "bottom center",
    "Lugoj": "middle right",
    "Mehadia": "bottom left",
    "Neamt": "top left",
    "Oradea": "top center",
    "Pitesti": "bottom center",
    "Rimnicu Vilcea": "bottom left",  # on two lines (ROMANIA_TWO_LINE_NAMES)
    "Sibiu": "top center",
    "Timisoara": "top center",
    "Urziceni": "top center",
    "Vaslui": "middle right",
    "Zerind": "top left",
}


def label_positions(G: nx.Graph) -> list[str]:
    """Where to write each place's name: on the side away from its roads.

    The name goes in the direction opposite to the mean direction of the
    node's roads (rounded to one of eight), so that names sit in the free space
    rather than across the roads (``top center`` for isolated places).
    """
    out = []
    for node in G.nodes:
        if G.graph.get("kind") == "romania" and node in ROMANIA_LABELS:
            out.append(ROMANIA_LABELS[node])
            continue
        x, y = G.nodes[node]["pos"]
        dx = dy = 0.0
        for other in G.neighbors(node):
            ox, oy = G.nodes[other]["pos"]
            length = math.hypot(ox - x, oy - y) or 1.0
            dx += (ox - x) / length
            dy += (oy - y) / length
        if math.hypot(dx, dy) < 1e-9:
            out.append("top center")
            continue
        angle = math.atan2(-dy, -dx)
        step = round(angle / (math.pi / 4)) % 8
        key = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)][step]
        out.append(_POSITIONS[key])
    return out


#: Names written across two lines on the Romania map: on one line "Rimnicu Vilcea" crossed
#: the Fagaras–Bucharest road (211).
ROMANIA_TWO_LINE_NAMES = {"Rimnicu Vilcea": "Rimnicu\nVilcea"}


def map_ranges(G: nx.Graph) -> tuple[tuple[float, float], tuple[float, float]]:
    """The x and y ranges (data units) the map shows: the places and room for their names."""
    if _is_grid(G):
        return (-0.5, G.graph["cols"] - 0.5), (-0.5, G.graph["rows"] - 0.5)
    xs, ys = _xy(G, list(G.nodes))
    if not xs:
        return (0.0, 1.0), (0.0, 1.0)
    span = _span(G)
    left, right = label_room(G)
    return (min(xs) - left, max(xs) + right), (min(ys) - 0.05 * span, max(ys) + 0.05 * span)


#: Width in px of one character of a place's name (15 px font), a little over the real mean.
CHAR_PX = 8.0


def label_room(G: nx.Graph, width: float = MAP_AREA[0]) -> tuple[float, float]:
    """Room (data units) left and right of the places so that no name is cut off.

    At least 12 % of the map's span on each side; more where a name written
    beside a place near the left or right edge would run past the plot, with
    names :data:`CHAR_PX` px per character on a plot ``width`` px wide (the
    narrowest the page is read at). The axes keep 1:1, so a map that is tall
    rather than wide only gets more room than this. The Romania map keeps the
    12 %: its names are placed by hand and checked in the browser at 1024 and 1400 px.
    """
    nodes = list(G.nodes)
    xs, _ = _xy(G, nodes)
    span, span_x = _span(G), max(xs) - min(xs)
    base = 0.12 * span
    if G.number_of_nodes() > LABEL_NODES_UP_TO or _is_grid(G) or G.graph.get("kind") == "romania":
        return base, base
    gap = _marker_size(G) / 2 + 4  # a name starts this far from its place's centre
    needs: list[tuple[float, float, float]] = []  # (x, px needed on the left, on the right)
    for node, x, where in zip(nodes, xs, label_positions(G), strict=True):
        text = len(node_label(node)) * CHAR_PX
        horizontal = where.split()[1]
        left = text + gap if horizontal == "left" else text / 2 if horizontal == "center" else 0
        right = text + gap if horizontal == "right" else text / 2 if horizontal == "center" else 0
        needs.append((x, left, right))
    room_l = room_r = base
    for _ in range(100):  # px per data unit depends on the room: settle it by iteration
        per_px = (span_x + room_l + room_r) / width
        new_l = max(base, *(px * per_px - (x - min(xs)) for x, px, _ in needs))
        new_r = max(base, *(px * per_px - (max(xs) - x) for x, _, px in needs))
        new_l, new_r = min(new_l, 2 * span), min(new_r, 2 * span)
        settled = abs(new_l - room_l) + abs(new_r - room_r) <= 1e-9 * span
        room_l, room_r = new_l, new_r
        if settled:
            break
    return room_l, room_r


def _span(G: nx.Graph) -> float:
    xs, ys = _xy(G, list(G.nodes))
    if not xs:
        return 1.0
    return max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)


def summary_bars(summary: pd.DataFrame, column: str, title: str, *, y_title: str) -> go.Figure:
    """One bar per algorithm for a column of :func:`lib.routes.compare.summary`."""
    names = list(summary.index)
    fig = go.Figure(
        go.Bar(
            x=names,
            y=summary[column],
            marker_color=[colour(i) for i in range(len(names))],
            text=[f"{v:.3g}" for v in summary[column]],
            textposition="outside",
        )
    )
    fig.update_layout(
        title={"text": title, "font": {"size": 18}},
        yaxis_title=y_title,
        height=380,
        showlegend=False,
        font=FONT,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
    )
    fig.update_traces(textfont={"size": 14, "color": "#111827"}, cliponaxis=False)
    fig.update_xaxes(tickfont=FONT, title_font=FONT)
    fig.update_yaxes(tickfont=FONT, title_font=FONT, gridcolor="#e5e7eb")
    return fig


#: Tick marks (excess %) of the excess chart's log scale.
EXCESS_TICKS = (0, 1, 3, 10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000)


def excess_position(excess_pct: float) -> float:
    """Where an excess of ``excess_pct`` % is drawn on the excess chart: ``log10(1 + %)``.

    A log scale that keeps 0 % at 0: next to DFS (routes up to 17 times the
    shortest on Romania) a linear axis put the course's "B*" excesses of 4 to 13 %
    within 2 px of the zero line, hidden under it.
    """
    return math.log10(1.0 + max(0.0, float(excess_pct)))


def excess_chart(table: pd.DataFrame) -> go.Figure:
    """Excess % over the optimum for every pair, one strip per algorithm (hover names the pair).

    The y axis is :func:`excess_position` (a log scale labelled in %), so a few
    per cent stay visible next to an algorithm that is hundreds of per cent off.
    """
    fig = go.Figure()
    for index, (name, rows) in enumerate(table.groupby("algorithm", sort=False)):
        fig.add_trace(
            go.Box(
                y=[excess_position(v) for v in rows["excess_pct"]],
                name=name,
                boxpoints="all",
                jitter=0.4,
                pointpos=0,
                marker={"color": colour(index), "size": 5},
                line={"width": 1},
                customdata=list(
                    zip(
                        rows["source"].map(escape_plot_text),
                        rows["target"].map(escape_plot_text),
                        rows["cost"],
                        rows["optimal_cost"],
                        rows["excess_pct"],
                        strict=True,
                    )
                ),
                hovertemplate="%{customdata[0]} → %{customdata[1]}: %{customdata[2]:.4g} "
                "vs %{customdata[3]:.4g} (+%{customdata[4]:.2f} %)<extra></extra>",
            )
        )
    worst = float(table["excess_pct"].max()) if len(table) else 0.0
    top = max(excess_position(worst), excess_position(10))
    ticks = [t for t in EXCESS_TICKS if excess_position(t) <= top * 1.05]
    fig.update_layout(
        title={"text": "Route length above the optimum, per pair", "font": {"size": 18}},
        yaxis_title="longer than the shortest route, % (log scale)",
        height=400,
        showlegend=False,
        font=FONT,
        hoverlabel={"font": {"size": 14}},
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
    )
    fig.update_xaxes(tickfont=FONT, title_font=FONT)
    fig.update_yaxes(
        tickfont=FONT,
        title_font=FONT,
        gridcolor="#e5e7eb",
        # room under 0 %, so that the points at 0 sit above the axis line, not under it
        range=[-0.06 * top, 1.06 * top],
        tickvals=[excess_position(t) for t in ticks],
        ticktext=[f"{t:,}" for t in ticks],
        zeroline=False,
    )
    return fig
