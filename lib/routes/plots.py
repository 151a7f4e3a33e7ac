"""Plotly figures for route search: the map with routes, a search step by step, comparisons.

Every function takes data and returns a :class:`plotly.graph_objects.Figure`.
On maps, the trace named :data:`NODES_TRACE` holds one marker per place, its label
shown on hover (:func:`lib.routes.map_data.hover_names`); a click is found by position.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence

import networkx as nx
import pandas as pd
import plotly.graph_objects as go

from lib.common import escape_plot_text
from lib.routes.graphs import node_label
from lib.routes.map_data import hover_names, positions, road_trails, route_positions
from lib.routes.trace import TraceState, TraceStep, replay

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
NODES_TRACE = "places"
START_COLOUR, GOAL_COLOUR = "#009E73", "#D55E00"
EXPLORED_COLOUR, FRONTIER_COLOUR, CURRENT_COLOUR = "#9ecae1", "#fdae6b", "#d62728"
#: Graphs up to this many edges get their road lengths written on the map.
LABEL_EDGES_UP_TO = 60
#: Graphs up to this many nodes get their names written on the map.
LABEL_NODES_UP_TO = 60
#: Text sizes and colours chosen for a projector: nothing under 14 px, dark on white.
FONT = {"size": 14, "color": "#1f2937"}
PLACE_FONT = {"size": 15, "color": "#111827", "shadow": "auto"}
ROAD_FONT = {"size": 14, "color": "#4b5563", "shadow": "auto"}
OBSTACLE_COLOUR, FREE_COLOUR = "#333333", "#f2f2f2"
#: Plot-area sizes (px) the grid markers are sized for: the narrowest layout the page is
#: read at (an 800 px wide window), so that markers never grow past their cells.
MAP_AREA, ANIMATION_AREA = (440, 460), (440, 480)


def _label(node: Hashable) -> str:
    """A place's name as plotly text (uploaded names may contain ``<`` or ``&``)."""
    return escape_plot_text(node_label(node))


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


def cell_runs(cells: Iterable[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """Cells ``(row, col)`` merged into runs ``(row, first col, last col)`` along each row."""
    runs: list[tuple[int, int, int]] = []
    for r, c in sorted(set(cells)):
        if runs and runs[-1][0] == r and runs[-1][2] == c - 1:
            runs[-1] = (r, runs[-1][1], c)
        else:
            runs.append((r, c, c))
    return runs


def cell_polygons(
    cells: Iterable[tuple[int, int]], *, name: str, colour_: str, **kwargs: object
) -> go.Scatter:
    """Grid cells ``(row, col)`` as filled SVG polygons, one rectangle per run of a row.

    A polygon is in data units, so the cells fill their grid squares exactly
    at any window width (like a heatmap), but it is drawn as SVG: plotly.js
    redraws it at once on every animation frame, where a heatmap is redrawn as
    an image that the browser decodes later (a blank map for a moment). The
    white lines between cells come from :func:`_grid_lines`, drawn on top.
    """
    xs: list[float | None] = []
    ys: list[float | None] = []
    for r, c0, c1 in cell_runs(cells):
        x0, x1, y0, y1 = c0 - 0.5, c1 + 0.5, r - 0.5, r + 0.5  # the cells' edges
        xs += [x0, x1, x1, x0, None]
        ys += [y0, y0, y1, y1, None]
    trace = {
        "x": xs,
        "y": ys,
        "mode": "lines",
        "fill": "toself",
        "fillcolor": colour_,
        "line": {"width": 0, "color": colour_},
        "name": name,
        "hoverinfo": "skip",
    }
    trace.update(kwargs)
    return go.Scatter(trace)


def _cells_of(G: nx.Graph, nodes: Iterable[Hashable]) -> list[tuple[int, int]]:
    """The ``(row, col)`` cells of grid nodes (from their ``pos``: ``x`` = col, ``y`` = row)."""
    out = []
    for node in nodes:
        x, y = G.nodes[node]["pos"]
        out.append((int(y), int(x)))
    return out


def _grid_cells(G: nx.Graph) -> list[go.Scatter]:
    """The grid itself: the free area light, obstacles dark, drawn to the exact cell size."""
    rows, cols = G.graph["rows"], G.graph["cols"]
    free = cell_polygons(
        [(r, c) for r in range(rows) for c in range(cols)],
        name="free",
        colour_=FREE_COLOUR,
        showlegend=False,
    )
    obstacles = [tuple(cell) for cell in G.graph.get("obstacles", [])]
    blocked = cell_polygons(obstacles, name="obstacle", colour_=OBSTACLE_COLOUR)
    blocked.showlegend = bool(obstacles)
    return [free, blocked]


def _grid_lines(G: nx.Graph) -> go.Scatter:
    """White 1 px lines between the cells (what ``xgap`` / ``ygap`` gave a heatmap)."""
    rows, cols = G.graph["rows"], G.graph["cols"]
    xs: list[float | None] = []
    ys: list[float | None] = []
    for c in range(cols + 1):
        xs += [c - 0.5, c - 0.5, None]
        ys += [-0.5, rows - 0.5, None]
    for r in range(rows + 1):
        xs += [-0.5, cols - 0.5, None]
        ys += [r - 0.5, r - 0.5, None]
    return go.Scatter(
        x=xs,
        y=ys,
        mode="lines",
        line={"width": 1, "color": "white"},
        name="grid lines",
        hoverinfo="skip",
        showlegend=False,
    )


def _base_traces(G: nx.Graph) -> list[go.BaseTraceType]:
    """Roads (or obstacles, for grids) drawn under everything else."""
    traces: list[go.BaseTraceType] = []
    if _is_grid(G):
        return _grid_cells(G)
    xs, ys = road_trails(G)  # compact: one point per road, binary floats (big maps)
    traces.append(roads_trace(xs, ys))
    return traces


def roads_trace(xs: Iterable[float | None] | None, ys: Iterable[float | None] | None) -> go.Scatter:
    """The roads' grey lines; ``xs``/``ys`` are trails with a gap (NaN or None) between them."""
    return go.Scatter(
        x=xs,
        y=ys,
        mode="lines",
        line={"color": "#9ca3af", "width": 1.5},
        name="roads",
        hoverinfo="skip",
        showlegend=False,
    )


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


def _road_labels(G: nx.Graph) -> list[go.Scatter]:
    """Road lengths written along each road, at its middle by default (small maps only).

    Drawn above the routes, with a halo, so that a route never hides a length.
    """
    if _is_grid(G) or G.number_of_edges() > LABEL_EDGES_UP_TO:
        return []
    mids = []
    for u, v, d in G.edges(data=True):
        at = _road_label_at(G, u, v)
        (x1, y1), (x2, y2) = G.nodes[u]["pos"], G.nodes[v]["pos"]
        dx, dy = _road_label_shift(G, u, v)
        mids.append((x1 + (x2 - x1) * at + dx, y1 + (y2 - y1) * at + dy, d.get("weight", 1)))
    return [
        go.Scatter(
            x=[m[0] for m in mids],
            y=[m[1] for m in mids],
            mode="text",
            text=[short_number(m[2]) for m in mids],
            textfont=ROAD_FONT,
            name="road lengths",
            hoverinfo="skip",
            showlegend=False,
            cliponaxis=False,
        )
    ]


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
ROMANIA_TWO_LINE_NAMES = {"Rimnicu Vilcea": "Rimnicu<br>Vilcea"}


def _nodes_trace(
    G: nx.Graph,
    area: tuple[float, float] = MAP_AREA,
    start: Hashable | None = None,
    goal: Hashable | None = None,
) -> go.Scatter:
    """One marker per place (hover: its label), the click target of the map.

    On grids the markers are transparent: the cells are drawn by the polygons
    underneath, the markers only catch clicks and hovers. On road maps the start
    and goal are this trace's own markers, drawn as stars: plotly then writes
    their names beside the star, where a star drawn over the place hid them.
    """
    nodes = list(G.nodes)
    xs, ys = positions(G, nodes)  # binary: int16 on whole-number maps, else float32
    labels = [_label(n) for n in nodes]
    customdata, hover = hover_names(labels, xs, ys)  # not sent where plotly can write them
    grid = _is_grid(G)
    small = G.number_of_nodes() <= LABEL_NODES_UP_TO and not grid
    size = _marker_size(G, area)
    marker: dict[str, object] = {
        "size": size,
        "color": "rgba(0,0,0,0)" if grid else "#374151",
        "symbol": "square" if grid else "circle",
        "line": {"width": 0 if grid else 1, "color": "white"},
    }
    ends = {start: START_COLOUR, goal: GOAL_COLOUR}
    # On unnamed (big) maps the stars are traces of their own (_endpoints): a size, colour
    # and symbol per place took plotly 1-2 s to check on 2,000 places.
    if small and any(node in ends for node in nodes):
        marker["size"] = [_marker_size(G) + 8 if n in ends else size for n in nodes]
        marker["color"] = [ends.get(n, "#374151") for n in nodes]
        marker["symbol"] = ["star" if n in ends else "circle" for n in nodes]
    text = None
    if small:
        romania = G.graph.get("kind") == "romania"
        text = [
            ROMANIA_TWO_LINE_NAMES.get(n, label) if romania else label
            for n, label in zip(nodes, labels, strict=True)
        ]
    return go.Scatter(
        x=xs,
        y=ys,
        mode="markers+text" if small else "markers",
        text=text,
        textposition=label_positions(G) if small else None,
        textfont=PLACE_FONT,
        customdata=customdata,
        hovertemplate=hover,
        marker=marker,
        name=NODES_TRACE,
        showlegend=False,
        cliponaxis=False,
    )


def _layout(fig: go.Figure, G: nx.Graph, title: str, *, height: int = 560) -> None:
    fig.update_layout(
        title={"text": title, "font": {"size": 18}},
        font=FONT,
        height=height,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
        plot_bgcolor="white",
        legend={"orientation": "h", "y": -0.02, "font": FONT},
        hoverlabel={"font": {"size": 14}},
        clickmode="event+select",
        dragmode="pan",
    )
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False, scaleanchor="x", scaleratio=1)
    if _is_grid(G):
        fig.update_yaxes(autorange="reversed")
    elif G.number_of_nodes():  # room around the places for their names
        x_range, y_range = map_ranges(G)
        fig.update_xaxes(range=list(x_range))
        fig.update_yaxes(range=list(y_range))


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


#: The route map's plot width (px) in a 1024 px window with the sidebar open, the projector
#: case: the figure's height is fitted to the map at that width, so that the map fills it
#: (in a fixed 560 px figure Romania was drawn 550x260 in a blank band) and fits, with its
#: title and legend, on the first screen of a 1024x768 window.
MAP_WIDTH = 544
#: Px above the map (its title) and under it (the legend, up to three rows).
MAP_TITLE_PX, MAP_LEGEND_PX = 50, 80


def map_height(G: nx.Graph) -> int:
    """The route map's figure height in px: the map at :data:`MAP_WIDTH`, title and legend.

    Between 320 px (a flat map still has room for its legend) and 640 px (a tall map,
    a grid of more rows than columns, is drawn narrower instead).
    """
    (x0, x1), (y0, y1) = map_ranges(G)
    plot = MAP_WIDTH * (y1 - y0) / max(x1 - x0, 1e-9)
    return round(min(640, max(320, plot + MAP_TITLE_PX + MAP_LEGEND_PX + 10)))


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


def _endpoints(G: nx.Graph, start: Hashable | None, goal: Hashable | None) -> list[go.Scatter]:
    """The start and goal stars: markers of their own on grids and big maps, else legend entries.

    On road maps the stars are the places' own markers (:func:`_nodes_trace`), so
    these traces carry no point, only the legend's "start: Arad".
    """
    traces = []
    own = _is_grid(G) or G.number_of_nodes() > LABEL_NODES_UP_TO  # not in _nodes_trace
    for node, label, col in ((start, "start", START_COLOUR), (goal, "goal", GOAL_COLOUR)):
        if node is not None and node in G:
            x, y = G.nodes[node]["pos"] if own else (None, None)
            traces.append(
                go.Scatter(
                    x=[x],
                    y=[y],
                    mode="markers",
                    name=f"{label}: {_label(node)}",
                    marker={
                        "size": _marker_size(G) + 8,
                        "color": col,
                        "symbol": "star",
                        "line": {"width": 1, "color": "white"},
                    },
                    hoverinfo="skip",
                )
            )
    return traces


def map_figure(
    G: nx.Graph,
    *,
    routes: Sequence[tuple[str, Sequence[Hashable]]] = (),
    start: Hashable | None = None,
    goal: Hashable | None = None,
    title: str = "",
) -> go.Figure:
    """The map with each route in its own colour (``routes``: ``(legend name, path)``).

    Routes are drawn slightly offset from each other so that overlapping
    routes stay visible.
    """
    fig = go.Figure(_base_traces(G))
    if _is_grid(G):  # grid cells are big squares: draw the routes on top of them
        fig.add_trace(_grid_lines(G))
        fig.add_trace(_nodes_trace(G))
    span = _span(G)
    for index, (name, path) in enumerate(routes):
        offset = (index - (len(routes) - 1) / 2) * span * 0.006
        xs, ys = route_positions(G, path, offset)
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="lines",
                line={"color": colour(index), "width": 5 if len(routes) == 1 else 4},
                opacity=0.85,
                name=name,
                hoverinfo="skip",
            )
        )
    for trace in _road_labels(G):
        fig.add_trace(trace)
    if not _is_grid(G):  # on road maps the places sit on top of the routes
        fig.add_trace(_nodes_trace(G, start=start, goal=goal))
    for trace in _endpoints(G, start, goal):
        fig.add_trace(trace)
    _layout(fig, G, title, height=map_height(G))
    return fig


def _span(G: nx.Graph) -> float:
    xs, ys = _xy(G, list(G.nodes))
    if not xs:
        return 1.0
    return max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)


def _searched_traces(G: nx.Graph, state: TraceState, size: float) -> list[go.Scatter]:
    """Explored and frontier places: cell polygons on grids, markers on road maps.

    Polygons, not a heatmap: a heatmap is redrawn as an image the browser
    decodes later, which blanks the grid for a moment at every step.
    """
    frontier_nodes = [e.node for e in state.frontier]
    if _is_grid(G):
        return [
            cell_polygons(_cells_of(G, state.explored), name="explored", colour_=EXPLORED_COLOUR),
            cell_polygons(_cells_of(G, frontier_nodes), name="frontier", colour_=FRONTIER_COLOUR),
        ]
    ex, ey = _xy(G, list(state.explored))
    fx, fy = _xy(G, frontier_nodes)
    return [
        go.Scatter(
            x=xs,
            y=ys,
            mode="markers",
            name=name,
            marker={"size": size, "color": col, "symbol": "circle"},
        )
        for xs, ys, name, col in (
            (ex, ey, "explored", EXPLORED_COLOUR),
            (fx, fy, "frontier", FRONTIER_COLOUR),
        )
    ]


def _current_trace(G: nx.Graph, state: TraceState, size: float) -> go.Scatter:
    """The place being expanded: its whole cell on grids, a big marker on road maps."""
    cur = [state.current] if state.current is not None else []
    if _is_grid(G):
        return cell_polygons(
            _cells_of(G, cur),
            name="expanding",
            colour_=CURRENT_COLOUR,
            line={"width": 2, "color": "#7f1d1d"},
        )
    cx, cy = _xy(G, cur)
    # a thick red ring around the place, wider than the start and goal stars: drawn over a
    # star it leaves the star in view (a red disc hid it, and the star had hidden the disc)
    return go.Scatter(
        x=cx,
        y=cy,
        mode="markers",
        name="expanding",
        marker={
            "size": _marker_size(G) + 16,
            "color": CURRENT_COLOUR,
            "symbol": "circle-open",
            "line": {"width": 4, "color": CURRENT_COLOUR},
        },
    )


def step_figure(
    G: nx.Graph,
    trace: Sequence[TraceStep],
    step: int,
    *,
    path: Sequence[Hashable] = (),
    start: Hashable | None = None,
    goal: Hashable | None = None,
    title: str = "",
) -> go.Figure:
    """The search as it stands after step ``step`` of ``trace`` (clamped to the trace).

    The explored places, the frontier and the place being expanded (red), on
    the map; at the last step, the route found (``path``). The page's one
    step control picks ``step``, and the same step drives the frontier table
    and the code panel beside it. On grids the cells are filled SVG polygons
    (:func:`cell_polygons`), so they fill their cells exactly whatever the
    window size.
    """
    if not trace:
        raise ValueError("the trace is empty: run the search with record_trace=True")
    step = max(0, min(step, len(trace) - 1))
    (state,) = replay(trace, steps=[step])
    fig = go.Figure()
    for base in _base_traces(G):
        fig.add_trace(base)
    fig.add_trace(_nodes_trace(G, ANIMATION_AREA, start, goal))
    size = _marker_size(G, ANIMATION_AREA)
    for searched in _searched_traces(G, state, size):
        fig.add_trace(searched)
    if _is_grid(G):
        fig.add_trace(_grid_lines(G))  # the lines between cells lie over the search's cells
    final = step == len(trace) - 1
    px, py = _xy(G, list(path)) if final else ([], [])
    fig.add_trace(
        go.Scatter(
            x=px, y=py, mode="lines", name="route found", line={"color": PALETTE[0], "width": 4}
        )
    )
    fig.add_trace(_current_trace(G, state, size))
    for extra in [*_endpoints(G, start, goal), *_road_labels(G)]:
        fig.add_trace(extra)  # road lengths above the route found
    _layout(fig, G, _title(title, _step_label(state, step)), height=620)
    # The title at the top of the figure, the legend on its own band under it: a wrapped
    # legend (narrow windows) grows into the reserved band, never into the title.
    fig.update_layout(
        title={"y": 0.995, "yref": "container", "yanchor": "top", "pad": {"t": 24}},
        margin={"t": 130, "b": 10},
        legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0.0},
    )
    return fig


def _title(name: str, step: str) -> str:
    """The figure's title: the algorithm, and the step on a second line (narrow windows)."""
    return f"{name}<br><span style='font-size:15px'>{step}</span>" if name else step


def _step_label(state: TraceState, index: int) -> str:
    if state.current is None:
        return f"step {index}: {state.note or 'start on the frontier'}"
    side = f" ({state.side})" if state.side else ""
    return (
        f"step {index}: {state.part.value} {_label(state.current)}{side}, "
        f"frontier {len(state.frontier)}, explored {len(state.explored)}"
    )


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
