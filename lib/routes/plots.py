"""Plotly figures for route search: the map with routes, the search animation, the comparisons.

Every function takes data and returns a :class:`plotly.graph_objects.Figure`.
On maps, the trace named :data:`NODES_TRACE` holds one marker per place with
its label in ``customdata``, so a page can tell which place was clicked.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import networkx as nx
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from lib.routes.graphs import node_label
from lib.routes.search import TraceStep, replay

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


def colour(index: int) -> str:
    """The colour of the ``index``-th algorithm."""
    return PALETTE[index % len(PALETTE)]


def _is_grid(G: nx.Graph) -> bool:
    return G.graph.get("kind") == "grid"


def _xy(G: nx.Graph, nodes: Sequence[Hashable]) -> tuple[list[float], list[float]]:
    pos = G.nodes
    return [pos[n]["pos"][0] for n in nodes], [pos[n]["pos"][1] for n in nodes]


def _marker_size(G: nx.Graph) -> float:
    if _is_grid(G):
        side = max(G.graph.get("rows", 1), G.graph.get("cols", 1))
        return max(3.0, min(24.0, 560.0 / side))
    n = G.number_of_nodes()
    return 14.0 if n <= 60 else 9.0 if n <= 400 else 5.0


def _edge_lines(G: nx.Graph, edges: Sequence[tuple[Hashable, Hashable]] | None = None):
    xs: list[float | None] = []
    ys: list[float | None] = []
    for u, v in G.edges if edges is None else edges:
        (x1, y1), (x2, y2) = G.nodes[u]["pos"], G.nodes[v]["pos"]
        xs += [x1, x2, None]
        ys += [y1, y2, None]
    return xs, ys


def _base_traces(G: nx.Graph) -> list[go.BaseTraceType]:
    """Roads (or obstacles, for grids) drawn under everything else."""
    traces: list[go.BaseTraceType] = []
    if _is_grid(G):
        blocked = G.graph.get("obstacles", [])
        traces.append(
            go.Scatter(
                x=[c for _, c in blocked],
                y=[r for r, _ in blocked],
                mode="markers",
                marker={"symbol": "square", "size": _marker_size(G), "color": "#333333"},
                name="obstacles",
                hoverinfo="skip",
            )
        )
        return traces
    xs, ys = _edge_lines(G)
    traces.append(
        go.Scatter(
            x=xs,
            y=ys,
            mode="lines",
            line={"color": "#bbbbbb", "width": 1.5},
            name="roads",
            hoverinfo="skip",
        )
    )
    if G.number_of_edges() <= LABEL_EDGES_UP_TO:
        mids = [
            (
                (G.nodes[u]["pos"][0] + G.nodes[v]["pos"][0]) / 2,
                (G.nodes[u]["pos"][1] + G.nodes[v]["pos"][1]) / 2,
                d.get("weight", 1),
            )
            for u, v, d in G.edges(data=True)
        ]
        traces.append(
            go.Scatter(
                x=[m[0] for m in mids],
                y=[m[1] for m in mids],
                mode="text",
                text=[f"{m[2]:g}" for m in mids],
                textfont={"size": 10, "color": "#777777"},
                name="road lengths",
                hoverinfo="skip",
            )
        )
    return traces


def _nodes_trace(G: nx.Graph) -> go.Scatter:
    nodes = list(G.nodes)
    xs, ys = _xy(G, nodes)
    labels = [node_label(n) for n in nodes]
    small = G.number_of_nodes() <= LABEL_NODES_UP_TO and not _is_grid(G)
    return go.Scatter(
        x=xs,
        y=ys,
        mode="markers+text" if small else "markers",
        text=labels if small else None,
        textposition="top center",
        customdata=labels,
        hovertemplate="%{customdata}<extra></extra>",
        marker={
            "size": _marker_size(G),
            "color": "#f7f7f7" if _is_grid(G) else "#4d4d4d",
            "symbol": "square" if _is_grid(G) else "circle",
            "line": {"width": 0.5, "color": "#cccccc"},
        },
        name=NODES_TRACE,
        showlegend=False,
    )


def _layout(fig: go.Figure, G: nx.Graph, title: str, *, height: int = 560) -> None:
    fig.update_layout(
        title=title,
        height=height,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
        plot_bgcolor="white",
        legend={"orientation": "h", "y": -0.02},
        clickmode="event+select",
        dragmode="pan",
    )
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False, scaleanchor="x", scaleratio=1)
    if _is_grid(G):
        fig.update_yaxes(autorange="reversed")


def _endpoints(G: nx.Graph, start: Hashable | None, goal: Hashable | None) -> list[go.Scatter]:
    traces = []
    for node, label, col in ((start, "start", START_COLOUR), (goal, "goal", GOAL_COLOUR)):
        if node is not None and node in G:
            x, y = G.nodes[node]["pos"]
            traces.append(
                go.Scatter(
                    x=[x],
                    y=[y],
                    mode="markers",
                    name=f"{label}: {node_label(node)}",
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
        fig.add_trace(_nodes_trace(G))
    span = _span(G)
    for index, (name, path) in enumerate(routes):
        xs, ys = _xy(G, path)
        offset = (index - (len(routes) - 1) / 2) * span * 0.006
        fig.add_trace(
            go.Scatter(
                x=[x + offset for x in xs],
                y=[y + offset for y in ys],
                mode="lines",
                line={"color": colour(index), "width": 5 if len(routes) == 1 else 4},
                opacity=0.85,
                name=name,
                hoverinfo="skip",
            )
        )
    if not _is_grid(G):  # on road maps the places sit on top of the routes
        fig.add_trace(_nodes_trace(G))
    for trace in _endpoints(G, start, goal):
        fig.add_trace(trace)
    _layout(fig, G, title)
    return fig


def _span(G: nx.Graph) -> float:
    xs, ys = _xy(G, list(G.nodes))
    if not xs:
        return 1.0
    return max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)


def _table_cells(frontier, rows: int) -> list[list[str]]:
    top = frontier[:rows]
    return [
        [node_label(e.node) + (f" ({e.side[0]})" if e.side else "") for e in top],
        [f"{e.g:.4g}" for e in top],
        [f"{e.h:.4g}" for e in top],
        [f"{e.f:.4g}" for e in top],
    ]


def animation_figure(
    G: nx.Graph,
    trace: Sequence[TraceStep],
    *,
    path: Sequence[Hashable] = (),
    start: Hashable | None = None,
    goal: Hashable | None = None,
    title: str = "",
    max_frames: int = 150,
    table_rows: int = 12,
) -> go.Figure:
    """The search step by step: play button and slider over the trace.

    Each frame shows the explored places, the frontier, the place being
    expanded and, on the right, the frontier's g / h / f table (best ``f``
    first). Long traces are sampled down to ``max_frames`` frames (the last
    step is always kept); the final frame adds the route found.
    """
    if not trace:
        raise ValueError("the trace is empty: run the search with record_trace=True")
    keep = _sample(len(trace), max_frames)
    states = dict(zip(keep, replay(trace, steps=keep), strict=True))
    fig = make_subplots(
        rows=1,
        cols=2,
        column_widths=[0.66, 0.34],
        horizontal_spacing=0.02,
        specs=[[{"type": "xy"}, {"type": "table"}]],
    )
    for base in _base_traces(G):
        fig.add_trace(base, row=1, col=1)
    fig.add_trace(_nodes_trace(G), row=1, col=1)
    size = _marker_size(G)
    symbol = "square" if _is_grid(G) else "circle"
    dynamic_start = len(fig.data)

    def frame_traces(state, final: bool) -> list[go.BaseTraceType]:
        ex, ey = _xy(G, list(state.explored))
        frontier_nodes = [e.node for e in state.frontier]
        fx, fy = _xy(G, frontier_nodes)
        cur = [state.current] if state.current is not None else []
        cx, cy = _xy(G, cur)
        px, py = _xy(G, list(path)) if final else ([], [])
        return [
            go.Scatter(
                x=ex,
                y=ey,
                mode="markers",
                name="explored",
                marker={"size": size, "color": EXPLORED_COLOUR, "symbol": symbol},
            ),
            go.Scatter(
                x=fx,
                y=fy,
                mode="markers",
                name="frontier",
                marker={"size": size, "color": FRONTIER_COLOUR, "symbol": symbol},
            ),
            go.Scatter(
                x=px, y=py, mode="lines", name="route found", line={"color": PALETTE[0], "width": 4}
            ),
            go.Scatter(
                x=cx,
                y=cy,
                mode="markers",
                name="expanding",
                marker={"size": size + 6, "color": CURRENT_COLOUR, "symbol": symbol},
            ),
            go.Table(
                header={"values": ["frontier", "g", "h", "f"], "fill_color": "#eeeeee"},
                cells={"values": _table_cells(state.frontier, table_rows)},
            ),
        ]

    first = frame_traces(states[keep[0]], final=len(keep) == 1)
    for trace_obj in first[:-1]:
        fig.add_trace(trace_obj, row=1, col=1)
    fig.add_trace(first[-1], row=1, col=2)
    for trace_obj in _endpoints(G, start, goal):
        fig.add_trace(trace_obj, row=1, col=1)
    indices = list(range(dynamic_start, dynamic_start + 5))
    frames = []
    for position, index in enumerate(keep):
        state = states[index]
        final = position == len(keep) - 1
        label = _step_label(state, index)
        frames.append(
            go.Frame(
                data=frame_traces(state, final),
                traces=indices,
                name=str(index),
                layout={"title": {"text": f"{title} — {label}"}},
            )
        )
    fig.frames = frames
    duration = 400 if len(keep) <= 40 else 150
    fig.update_layout(
        updatemenus=[
            {
                "type": "buttons",
                "direction": "left",
                "x": 0.0,
                "y": -0.04,
                "xanchor": "left",
                "buttons": [
                    {
                        "label": "▶ Play",
                        "method": "animate",
                        "args": [
                            None,
                            {
                                "frame": {"duration": duration, "redraw": True},
                                "transition": {"duration": 0},
                                "fromcurrent": True,
                            },
                        ],
                    },
                    {
                        "label": "❚❚ Pause",
                        "method": "animate",
                        "args": [
                            [None],
                            {"frame": {"duration": 0, "redraw": False}, "mode": "immediate"},
                        ],
                    },
                ],
            }
        ],
        sliders=[
            {
                "active": 0,
                "x": 0.12,
                "len": 0.86,
                "y": -0.02,
                "currentvalue": {"prefix": "step "},
                "steps": [
                    {
                        "label": str(index),
                        "method": "animate",
                        "args": [
                            [str(index)],
                            {"frame": {"duration": 0, "redraw": True}, "mode": "immediate"},
                        ],
                    }
                    for index in keep
                ],
            }
        ],
    )
    _layout(fig, G, f"{title} — {_step_label(states[keep[0]], keep[0])}", height=600)
    fig.update_layout(legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0.0})
    return fig


def _step_label(state, index: int) -> str:
    if state.current is None:
        return f"step {index}: {state.note or 'start on the frontier'}"
    side = f" ({state.side})" if state.side else ""
    return (
        f"step {index}: expand {node_label(state.current)}{side}, "
        f"frontier {len(state.frontier)}, explored {len(state.explored)}"
    )


def _sample(count: int, limit: int) -> list[int]:
    """Up to ``limit`` evenly spread indices of ``range(count)``, always keeping the last."""
    if count <= limit:
        return list(range(count))
    step = (count - 1) / (limit - 1)
    return sorted({round(i * step) for i in range(limit)})


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
        title=title,
        yaxis_title=y_title,
        height=380,
        showlegend=False,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
    )
    return fig


def excess_chart(table: pd.DataFrame) -> go.Figure:
    """Excess % over the optimum for every pair, one strip per algorithm (hover names the pair)."""
    fig = go.Figure()
    for index, (name, rows) in enumerate(table.groupby("algorithm", sort=False)):
        fig.add_trace(
            go.Box(
                y=rows["excess_pct"],
                name=name,
                boxpoints="all",
                jitter=0.4,
                pointpos=0,
                marker={"color": colour(index), "size": 5},
                line={"width": 1},
                customdata=list(
                    zip(
                        rows["source"],
                        rows["target"],
                        rows["cost"],
                        rows["optimal_cost"],
                        strict=True,
                    )
                ),
                hovertemplate="%{customdata[0]} → %{customdata[1]}: %{customdata[2]:.4g} "
                "vs %{customdata[3]:.4g} (+%{y:.2f} %)<extra></extra>",
            )
        )
    fig.update_layout(
        title="Route length above the optimum, per pair",
        yaxis_title="excess %",
        height=400,
        showlegend=False,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
    )
    return fig
