"""A whole search as ONE plotly figure that plays in the browser: frames, Play/Pause, slider.

The figure is sent once; playing it never asks the server for anything. To keep
its frames tiny, every change of a place's colour during the search is one point
(a *paint*) of a single marker trace, :data:`PAINT_TRACE`, drawn in the order the
changes happened, so a later paint lies over an earlier one of the same place.
A paint's marker value encodes what it paints and when: ``kind * span + step``
(:data:`KINDS`). A frame changes only that trace's colourscale (about 20 stops):
values of step at most the frame's step take their kind's colour, later ones are
transparent. So at frame ``k`` each place shows its latest paint made by step
``k``: exactly the explored set and frontier of the trace at step ``k`` (the
frontier over the explored, as :func:`lib.routes.plots.step_figure` draws them,
and an IDA* restart paints the places back to their plain colour). The place
being expanded and the route found are two small traces a frame sets outright.

Numbers go to the browser as numpy arrays, which plotly sends as compact binary
(base64), and roads are drawn as trails (:func:`lib.routes.map_data.road_trails`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import networkx as nx
import numpy as np
import plotly.graph_objects as go

from lib.routes import map_data, plots
from lib.routes.trace import TraceStep, replay

#: What a paint makes a place look like, in the order of the codes in a paint's value:
#: back to its plain look (an IDA* restart), explored, on the frontier.
KINDS = ("plain", "start", "goal", "explored", "frontier")
PLAIN, START, GOAL, EXPLORED, FRONTIER = range(len(KINDS))
PAINT_TRACE, CURRENT_TRACE, ROUTE_TRACE = "search", "expanding", "route found"
TRANSPARENT = "rgba(0,0,0,0)"
PLACE_COLOUR = "#374151"
#: A play shows at most this many frames (7.2 s at 60 ms a frame: the whole animation of a
#: 2,000-place map stays near 220 KB); milliseconds per frame while playing (the timer must
#: allow more than the 10 frames/s wanted: a frame also takes the browser time to draw).
MAX_FRAMES, FRAME_MS = 120, 60
#: On road maps of more than this many places the lines under the animation are drawn
#: without anti-aliasing (:func:`page_css`).
CRISP_LINES_ABOVE = 500


@dataclass(frozen=True)
class Paints:
    """Every change of a place's look during a search, in the order the changes happened.

    ``nodes[i]`` takes the look ``kinds[i]`` (an index of :data:`KINDS`) at step ``steps[i]``.
    """

    nodes: tuple[Hashable, ...]
    steps: np.ndarray
    kinds: np.ndarray


def _look(node: Hashable, frontier_nodes: dict, explored: set, plain: dict) -> int:
    """How ``node`` is drawn: on the frontier over explored over its plain look."""
    if frontier_nodes.get(node, 0) > 0:
        return FRONTIER
    return EXPLORED if node in explored else plain.get(node, PLAIN)


def paints(
    trace: Sequence[TraceStep], start: Hashable | None = None, goal: Hashable | None = None
) -> Paints:
    """The paints of ``trace``: replay it once and note each place whose look changes."""
    plain = {start: START, goal: GOAL} if start is not None else {}
    if goal is not None:
        plain[goal] = GOAL
    frontier: set = set()  # (side, node) keys, as replay keeps them
    frontier_nodes: dict[Hashable, int] = {}  # node -> its entries on the frontier (both sides)
    explored: set = set()
    shown: dict[Hashable, int] = {}  # the look each touched place has now
    nodes: list[Hashable] = []
    steps: list[int] = []
    kinds: list[int] = []
    for index, step in enumerate(trace):
        touched = {entry.node for entry in step.pushed}
        if step.reset:  # what lib.routes.trace.apply_step does, counting entries per place
            touched |= set(shown)
            frontier.clear()
            frontier_nodes.clear()
            explored.clear()
        if step.current is not None:
            touched.add(step.current)
            if (step.side, step.current) in frontier:
                frontier.remove((step.side, step.current))
                frontier_nodes[step.current] -= 1
            explored.add(step.current)
        for entry in step.pushed:
            if (entry.side, entry.node) not in frontier:
                frontier.add((entry.side, entry.node))
                frontier_nodes[entry.node] = frontier_nodes.get(entry.node, 0) + 1
        for node in sorted(touched, key=str) if len(touched) > 1 else touched:
            look = _look(node, frontier_nodes, explored, plain)
            if shown.get(node, plain.get(node, PLAIN)) != look:
                shown[node] = look
                nodes.append(node)
                steps.append(index)
                kinds.append(look)
    return Paints(tuple(nodes), np.asarray(steps, dtype=np.int32), np.asarray(kinds, np.int32))


def frame_steps(last: int, max_frames: int = MAX_FRAMES) -> list[int]:
    """The steps the frames show: every ``stride``-th of ``0..last`` and always the last."""
    stride = max(1, -(-last // max(1, max_frames - 1)))
    shown = list(range(0, last + 1, stride))
    if shown[-1] != last:
        shown.append(last)
    return shown


def colourscale(step: int, span: int, colours: Sequence[str]) -> list[list]:
    """The paint trace's colourscale at ``step``: kind ``c``'s values up to ``step`` coloured.

    Values run from ``-0.5`` to ``len(colours) * span - 0.5`` (``cmin``/``cmax``);
    kind ``c`` owns ``c * span + 0 .. c * span + span - 1``.
    """
    top = len(colours) * span
    scale: list[list] = []
    for kind, col in enumerate(colours):
        low, cut, high = kind * span, kind * span + step + 1, (kind + 1) * span
        scale += [[round(low / top, 7), col], [round(cut / top, 7), col]]
        if cut < high:
            scale += [[round(cut / top, 7), TRANSPARENT], [round(high / top, 7), TRANSPARENT]]
    return scale


def value_range(span: int, kinds: int) -> tuple[float, float]:
    """``(cmin, cmax)`` of a paint trace of ``kinds`` kinds: the colourscale's 0 and 1."""
    return -0.5, kinds * span - 0.5


def _present(G: nx.Graph, found: Paints) -> tuple[list[str], np.ndarray]:
    """The colours of the kinds ``found`` uses, and each kind's place among them (its code).

    Most searches never restart, so their paints are explored and frontier only,
    and each frame's colourscale needs 8 stops instead of 20.
    """
    used = sorted({int(k) for k in found.kinds}) or [EXPLORED]
    ranks = np.zeros(len(KINDS), dtype=np.int32)
    ranks[used] = np.arange(len(used), dtype=np.int32)
    colours = look_colours(G)
    return [colours[k] for k in used], ranks


def look_colours(G: nx.Graph) -> list[str]:
    """The colour of each of :data:`KINDS` on ``G`` (on grids the stars are drawn apart)."""
    if plots._is_grid(G):
        base = [plots.FREE_COLOUR] * 3
    else:
        base = [PLACE_COLOUR, plots.START_COLOUR, plots.GOAL_COLOUR]
    return [*base, plots.EXPLORED_COLOUR, plots.FRONTIER_COLOUR]


def _paint_trace(G: nx.Graph, found: Paints, span: int, step: int, size: float) -> go.Scatter:
    xs, ys = map_data.positions(G, found.nodes)
    colours, ranks = _present(G, found)
    cmin, cmax = value_range(span, len(colours))
    grid = plots._is_grid(G)
    return go.Scatter(
        x=xs,
        y=ys,
        mode="markers",
        name=PAINT_TRACE,
        marker={
            "size": size,
            "symbol": "square" if grid else "circle",
            "color": _smallest_int(ranks[found.kinds] * span + found.steps),
            "colorscale": colourscale(step, span, colours),
            "cmin": cmin,
            "cmax": cmax,
            "showscale": False,
            "line": {"width": 0},
        },
        hoverinfo="skip",
        showlegend=False,
    )


def _smallest_int(values: np.ndarray) -> np.ndarray:
    """``values`` as ``int16`` when they fit (half the bytes of ``int32`` on the wire)."""
    return values.astype(np.int16) if values.size and values.max() < 2**15 else values


def _legend_entries(size: float) -> list[go.Scatter]:
    """Legend-only traces for the two colours of the paint trace."""
    return [
        go.Scatter(
            x=[None],
            y=[None],
            mode="markers",
            name=name,
            marker={"size": size, "color": col, "symbol": "circle"},
            hoverinfo="skip",
        )
        for name, col in (("explored", plots.EXPLORED_COLOUR), ("frontier", plots.FRONTIER_COLOUR))
    ]


def _current_xy(G: nx.Graph, node: Hashable | None) -> tuple[list[float], list[float]]:
    """Where the red ring goes: a plain list (one number is shorter as text than as binary)."""
    xs, ys = map_data.positions(G, [] if node is None else [node])
    return xs.tolist(), ys.tolist()


def _current_trace(G: nx.Graph, node: Hashable | None, area: tuple[float, float]) -> go.Scatter:
    """The place being expanded: a thick red ring (a red square on grids)."""
    xs, ys = _current_xy(G, node)
    grid = plots._is_grid(G)
    size = plots.cell_size(G, area) if grid else plots._marker_size(G) + 16
    return go.Scatter(
        x=xs,
        y=ys,
        mode="markers",
        name=CURRENT_TRACE,
        marker={
            "size": size,
            "color": plots.CURRENT_COLOUR,
            "symbol": "square" if grid else "circle-open",
            "line": {
                "width": 2 if grid else 4,
                "color": "#7f1d1d" if grid else plots.CURRENT_COLOUR,
            },
        },
        hoverinfo="skip",
    )


def _route_xy(G: nx.Graph, path: Sequence[Hashable], shown: bool):
    return map_data.positions(G, list(path) if shown else [])


def _roads_trace(G: nx.Graph) -> go.Scatter:
    """The roads as trails: on a whole-number map, short text with ``None`` breaks.

    Whole numbers as text are shorter than ``float32`` binary; plotly does not check
    them number by number (it took 0.5 s on 11,000 roads), so the trace is built with
    a stand-in and the text put in after (tests check the figure passes validation).
    """
    if not map_data.is_whole(G):
        return plots._base_traces(G)[0]
    roads = plots.roads_trace(None, None)  # checked without its numbers
    xs, ys = map_data.road_lists(G)
    return go.Scatter({**roads.to_plotly_json(), "x": xs, "y": ys}, _validate=False)


def _base_traces(
    G: nx.Graph, area: tuple[float, float], start: Hashable | None, goal: Hashable | None
) -> list[go.BaseTraceType]:
    """What stays still under the search: grid cells, or roads and places (hover names)."""
    if plots._is_grid(G):  # SVG polygons: a heatmap vanished from the map while it played
        return [*plots._grid_cells(G), plots._grid_lines(G)]
    return [_roads_trace(G), plots._nodes_trace(G, area, start, goal)]


def page_css(G: nx.Graph, chart: str) -> str:
    """CSS for the page showing the animation of ``G`` in the element of class ``chart``.

    On road maps of more than :data:`CRISP_LINES_ABOVE` places its lines (the roads,
    the route found) are drawn without anti-aliasing: the browser repaints the whole map
    at every frame, and the roads' 11,000 anti-aliased segments on 2,000 places took
    about a tenth of each frame (headless Chromium: 13.2-13.6 against 11.9-12.3 frames/s).
    plotly has no attribute for it; its lines are ``path.js-line`` elements. Empty
    on smaller maps, whose few slanted roads would look jagged.
    """
    if plots._is_grid(G) or G.number_of_nodes() <= CRISP_LINES_ABOVE:
        return ""
    return f".{chart} path.js-line {{ shape-rendering: crispEdges; }}"


def _frame_label(state, step: int) -> str:
    return plots._step_label(state, step)


def _player(frames: list[int], labels: list[str], active: int) -> tuple[list[dict], list[dict]]:
    """The figure's Watch / Pause buttons and its frame slider (all run in the browser).

    The slider's current value says what the frame shows (``labels``): a frame
    cannot redraw the title without redrawing the whole figure.
    """
    still = {"mode": "immediate", "frame": {"duration": 0, "redraw": False}}
    still["transition"] = {"duration": 0}
    play = {
        "frame": {"duration": FRAME_MS, "redraw": False},
        "transition": {"duration": 0},
        "fromcurrent": True,
        "mode": "immediate",
    }
    buttons = [
        {"label": "▶ Watch", "method": "animate", "args": [None, play]},
        {"label": "❚❚ Pause", "method": "animate", "args": [[None], still]},
    ]
    menus = [
        {
            "type": "buttons",
            "direction": "left",
            "showactive": False,
            "x": 0.0,
            "xanchor": "left",
            "y": -0.02,
            "yanchor": "top",
            "pad": {"t": 4, "r": 8},
            "buttons": buttons,
            "font": {"size": 14},
        }
    ]
    slider = {
        "active": active,
        "x": 0.28,
        "len": 0.72,
        "y": -0.02,
        "yanchor": "top",
        "pad": {"t": 4, "b": 0},
        "currentvalue": {"prefix": "", "font": {"size": 14, "color": "#1f2937"}},
        "font": {"color": TRANSPARENT},  # one tick label per frame would be a smear
        "tickcolor": "#9ca3af",
        "ticklen": 3,
        "transition": {"duration": 0},
        "steps": [
            {"label": label, "method": "animate", "args": [[str(step)], still]}
            for step, label in zip(frames, labels, strict=True)
        ],
    }
    return menus, [slider]


def animation_figure(
    G: nx.Graph,
    trace: Sequence[TraceStep],
    *,
    step: int = 0,
    path: Sequence[Hashable] = (),
    start: Hashable | None = None,
    goal: Hashable | None = None,
    title: str = "",
    max_frames: int = MAX_FRAMES,
) -> go.Figure:
    """The search of ``trace`` on ``G`` as one figure that plays in the browser.

    It opens at step ``step`` (clamped to the trace); its frames are
    :func:`frame_steps` (at most ``max_frames``, the last showing the route
    found, ``path``). Its ▶ Watch button plays them from the slider's frame,
    ❚❚ Pause stops them, and the slider under the map moves between them.
    """
    if not trace:
        raise ValueError("the trace is empty: run the search with record_trace=True")
    G = map_data.whole_numbers(G)  # only watched, never clicked: a compact drawing is enough
    last = len(trace) - 1
    step = max(0, min(step, last))
    span = last + 1
    frames = sorted({*frame_steps(last, max_frames), step})  # the step the map opens at too
    area = plots.ANIMATION_AREA
    size = plots._marker_size(G, area)
    found = paints(trace, start, goal)
    states = {state.step: state for state in replay(trace, steps=frames)}
    now = states[step]

    rx, ry = _route_xy(G, path, step == last)
    route = go.Scatter(
        x=rx, y=ry, mode="lines", name=ROUTE_TRACE, line={"color": plots.PALETTE[0], "width": 4}
    )
    traces = [
        *_base_traces(G, area, start, goal),
        _paint_trace(G, found, span, step, size),
        *_legend_entries(size),
        route,
        _current_trace(G, now.current, area),
        *plots._endpoints(G, start, goal),
        *plots._road_labels(G),
    ]
    # Each trace was checked by plotly when it was built: the figure takes them as they are
    # (checking the roads' 15,000 numbers again took 0.5 s).
    fig = go.Figure(data=[t.to_plotly_json() for t in traces], _validate=False)
    names = [t.name for t in traces]
    moving = [names.index(PAINT_TRACE), names.index(ROUTE_TRACE), names.index(CURRENT_TRACE)]
    colours, _ = _present(G, found)
    frames_ = [
        {
            "name": str(k),
            "traces": moving,
            "data": [  # typed as plotly's checked frames are
                {"marker": {"colorscale": colourscale(k, span, colours)}, "type": "scatter"},
                {**dict(zip("xy", _route_xy(G, path, k == last), strict=True)), "type": "scatter"},
                {
                    **dict(zip("xy", _current_xy(G, states[k].current), strict=True)),
                    "type": "scatter",
                },
            ],
        }
        for k in frames
    ]
    plots._layout(fig, G, title, height=660)
    labels = [_frame_label(states[k], k) for k in frames]
    menus, sliders = _player(frames, labels, frames.index(step))
    fig.update_layout(
        title={"y": 0.995, "yref": "container", "yanchor": "top", "pad": {"t": 24}},
        margin={"t": 160, "b": 90},  # the legend wraps to 4 rows in an 800 px window
        legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0.0},
        updatemenus=menus,
        sliders=sliders,
    )
    return _with_frames(fig, frames_)


def _with_frames(fig: go.Figure, frames: list[dict]) -> go.Figure:
    """``fig`` with ``frames`` (plain dicts), taken as they are.

    plotly checks every attribute of every frame it is given (``Figure(frames=...)``
    and ``fig.frames = ...`` alike): 0.1-0.2 s for 120 frames here, more under load,
    about a third of the figure's time. These frames hold only a colourscale and two
    short coordinate lists each; the tests check that the figure comes out exactly as
    plotly's checked construction makes it, and passes its validation.
    """
    fig._frame_objs = tuple(go.Frame(frame, _validate=False) for frame in frames)
    return fig
