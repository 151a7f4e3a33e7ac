"""Plotly figure of a Sim position: six points on a circle and the fifteen lines between them.

Each line has one click target (a marker named ``"lines"``, the figure's last
trace, ``customdata = [a, b]``) at its midpoint; the three long diagonals share
the centre, so their markers are moved off it, 120 degrees apart and away from
the short diagonals' midpoints (see :func:`target_xy`), so the score badges
drawn on the targets do not touch on a 400-pixel board.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence

import plotly.graph_objects as go

from lib.games import sim
from lib.games.drawing.figures import (
    MIN_FONT,
    SCORE_SCALE,
    board_title,
    score_colours,
    score_labels,
    score_words,
)

COLOURS = ("#e53935", "#1e63d6")  # red, blue
FREE_COLOUR = "#b0b0b0"
POINT_COLOUR = "#333333"


def point_xy(point: int) -> tuple[float, float]:
    """Position of point 1–6 on the unit circle (1 at the top, then clockwise)."""
    angle = math.pi / 2 - (point - 1) * math.pi / 3
    return math.cos(angle), math.sin(angle)


EXTENT = 1.15
"""The axes run from -EXTENT to EXTENT (the points sit on the unit circle)."""
LONG_OFFSET = 0.185
"""How far from the centre (in radii) a long diagonal's target sits.

The short diagonals' midpoints lie on the long diagonals, half a radius out,
so the long diagonals' targets go towards points 1, 5 and 3 (120 degrees
apart) at this distance, which keeps square badges furthest apart: any two
targets are at least 0.27 radii apart both across and up (45 px on a
400-pixel board, 54 px at 480), more than a score badge is wide.
"""
BADGE_PX = 40
"""Side of a score badge in pixels: a label of up to five characters fits at 14 px."""
CHAR_PX = 8
"""Width allowed per character of a 14 px bold label (measured: about 7.2 px in Chromium)."""


def target_xy(line: sim.Move) -> tuple[float, float]:
    """Where the click target (and score badge) of ``line`` sits.

    The midpoint, except for the long diagonals 1-4, 2-5 and 3-6, whose
    targets sit :data:`LONG_OFFSET` from the centre towards points 1, 5 and 3.
    """
    a, b = line
    if b - a != 3:
        (xa, ya), (xb, yb) = point_xy(a), point_xy(b)
        return (xa + xb) / 2, (ya + yb) / 2
    towards = a if a % 2 else b
    x, y = point_xy(towards)
    return LONG_OFFSET * x, LONG_OFFSET * y


def badge_size(label: str) -> int:
    """Pixel side of the badge of a score label: :data:`BADGE_PX`, wider for long labels."""
    return max(BADGE_PX, CHAR_PX * len(label))


def _segments(lines: Sequence[sim.Move]) -> tuple[list[float | None], list[float | None]]:
    xs: list[float | None] = []
    ys: list[float | None] = []
    for a, b in lines:
        (xa, ya), (xb, yb) = point_xy(a), point_xy(b)
        xs += [xa, xb, None]
        ys += [ya, yb, None]
    return xs, ys


def line_from_point(point: Mapping) -> sim.Move | None:
    """The line ``(a, b)`` of a clicked plotly point of :func:`sim_figure`, or None."""
    data = point.get("customdata")
    if isinstance(data, Sequence) and len(data) == 2:
        try:
            a, b = int(data[0]), int(data[1])
        except (TypeError, ValueError):
            return None
        if (a, b) in sim.LINE_INDEX:
            return a, b
    return None


def _losing_triangle_traces(state: sim.SimState) -> list[go.Scatter]:
    """The loser's triangles filled in amber (none while nobody has lost)."""
    loser = state.loser()
    if loser is None:
        return []
    traces = []
    for triangle in sim.triangles_in(state.red if loser == sim.RED else state.blue):
        corners = [point_xy(p) for p in (*triangle, triangle[0])]
        traces.append(
            go.Scatter(
                x=[x for x, _ in corners],
                y=[y for _, y in corners],
                fill="toself",
                fillcolor="rgba(255, 193, 7, 0.45)",
                line={"color": "#ff8f00", "width": 3},
                mode="lines",
                hoverinfo="skip",
                name="losing triangle",
            )
        )
    return traces


def _last_move_trace(last_move: sim.Move) -> go.Scatter:
    """A wide yellow halo under the line drawn last."""
    xs, ys = _segments([last_move])
    return go.Scatter(
        x=xs,
        y=ys,
        mode="lines",
        line={"color": "#ffd54f", "width": 14},
        hoverinfo="skip",
        name="last move",
    )


def _suggested_line_trace(marked: sim.Move) -> go.Scatter:
    """A wide translucent green outline of the suggested (free) line."""
    xs, ys = _segments([marked])
    return go.Scatter(
        x=xs,
        y=ys,
        mode="lines",
        line={"color": "#2e7d32", "width": 12},
        opacity=0.5,
        hoverinfo="skip",
        name="suggested line",
    )


def _free_lines_trace(free: Sequence[sim.Move]) -> go.Scatter:
    """The lines nobody has drawn yet, thin grey dashes."""
    xs, ys = _segments(free)
    return go.Scatter(
        x=xs,
        y=ys,
        mode="lines",
        line={"color": FREE_COLOUR, "width": 2, "dash": "dash"},
        hoverinfo="skip",
        name="free lines",
    )


def _player_lines_traces(state: sim.SimState) -> list[go.Scatter]:
    """Each player's lines in their colour, red then blue."""
    traces = []
    for player in (sim.RED, sim.BLUE):
        mask = state.red if player == sim.RED else state.blue
        xs, ys = _segments(sim.lines_of(mask))
        traces.append(
            go.Scatter(
                x=xs,
                y=ys,
                mode="lines",
                line={"color": COLOURS[player], "width": 6},
                hoverinfo="skip",
                name=sim.PLAYER_NAMES[player],
            )
        )
    return traces


def _points_trace() -> go.Scatter:
    """The six numbered points on the circle."""
    points = range(1, sim.POINTS + 1)
    return go.Scatter(
        x=[point_xy(p)[0] for p in points],
        y=[point_xy(p)[1] for p in points],
        mode="markers+text",
        marker={"size": 30, "color": POINT_COLOUR, "line": {"color": "white", "width": 2}},
        text=[str(p) for p in points],
        textfont={"color": "white", "size": 16},
        hoverinfo="skip",
        name="points",
    )


def _score_badges_trace(
    placed: Mapping[sim.Move, float], bounds: Mapping[Hashable, str] | None
) -> go.Scatter:
    """A square badge in the score's colour on each scored line's target, labelled compactly."""
    colours = score_colours(placed)
    labels = score_labels(placed, bounds, compact=True)
    targets = [target_xy(m) for m in placed]
    return go.Scatter(
        x=[x for x, _ in targets],
        y=[y for _, y in targets],
        mode="markers+text",
        marker={
            "size": [badge_size(labels[m]) for m in placed],
            "symbol": "square",
            "color": [colours[m] for m in placed],
            "colorscale": SCORE_SCALE,
            "cmin": -1,
            "cmax": 1,
            "opacity": 0.85,
        },
        text=[labels[m] for m in placed],
        textfont={
            "size": MIN_FONT,
            "color": ["#ffffff" if abs(colours[m]) > 0.6 else "#111111" for m in placed],
            "weight": "bold",
        },
        hoverinfo="skip",
        name="move scores",
    )


def _line_hovers(
    state: sim.SimState, placed: Mapping[sim.Move, float], bounds: Mapping[Hashable, str]
) -> list[str]:
    """Each line's hover, in :data:`sim.LINES` order: its owner or "free", and its score."""
    hover = []
    for line in sim.LINES:
        index = sim.LINE_INDEX[line]
        if state.red >> index & 1:
            what = "red"
        elif state.blue >> index & 1:
            what = "blue"
        else:
            what = "free: click to colour it"
        if line in placed:
            what += f", score {score_words(placed[line], bounds.get(line, 'exact'))}"
        hover.append(f"{sim.format_move(line)}: {what}")
    return hover


def _click_targets_trace(
    state: sim.SimState,
    placed: Mapping[sim.Move, float],
    bounds: Mapping[Hashable, str] | None = None,
) -> go.Scatter:
    """The "lines" trace: a click target per line, a white disc on the free unscored ones."""
    targets = [target_xy(line) for line in sim.LINES]
    free_now = state.free() if not state.is_terminal() else 0
    return go.Scatter(
        x=[x for x, _ in targets],
        y=[y for _, y in targets],
        customdata=[list(line) for line in sim.LINES],
        mode="markers",
        marker={
            "size": 22,
            "color": [
                "rgba(255,255,255,0.9)"
                if free_now >> i & 1 and line not in placed
                else "rgba(255,255,255,0.01)"
                for i, line in enumerate(sim.LINES)
            ],
            "line": {
                "color": [
                    "#555555" if free_now >> i & 1 and line not in placed else "rgba(0,0,0,0)"
                    for i, line in enumerate(sim.LINES)
                ],
                "width": 1.5,
            },
        },
        hovertext=_line_hovers(state, placed, bounds or {}),
        hoverinfo="text",
        name="lines",
    )


def _lay_out_hexagon(fig: go.Figure, title: str | None, pixels: int) -> None:
    """A square, fixed figure of ``pixels`` whose hexagon fills it, below an optional title."""
    fig.update_layout(
        width=pixels,
        height=pixels + (30 if title else 0),
        margin={"l": 10, "r": 10, "t": 40 if title else 10, "b": 10},
        showlegend=False,
        plot_bgcolor="white",
        title=board_title(title),
        dragmode=False,
        clickmode="event+select",
    )
    # the hexagon fills the figure (radius 1; the points' markers reach 1.09): the larger the
    # scale, the more room between the score badges
    fig.update_xaxes(range=[-EXTENT, EXTENT], visible=False, fixedrange=True)
    fig.update_yaxes(range=[-EXTENT, EXTENT], visible=False, fixedrange=True, scaleanchor="x")


def sim_figure(
    state: sim.SimState,
    *,
    last_move: sim.Move | None = None,
    scores: Mapping[Hashable, float] | None = None,
    bounds: Mapping[Hashable, str] | None = None,
    title: str | None = None,
    pixels: int = 480,
    marked: sim.Move | None = None,
) -> go.Figure:
    """The position: red and blue lines, free lines dashed, the losing triangle filled.

    ``scores`` (line -> value, from the AI's search) colour the click targets
    of the free lines and label them; ``last_move`` is drawn with a halo;
    ``marked`` (e.g. the hint's line) is outlined in a trace named
    "suggested line" when it is free.
    """
    free = sim.lines_of(state.free())
    placed = {m: v for m, v in (scores or {}).items() if m in free}
    fig = go.Figure()
    for trace in _losing_triangle_traces(state):
        fig.add_trace(trace)
    if last_move is not None:
        fig.add_trace(_last_move_trace(last_move))
    if marked is not None and marked in free:
        fig.add_trace(_suggested_line_trace(marked))
    fig.add_trace(_free_lines_trace(free))
    for trace in _player_lines_traces(state):
        fig.add_trace(trace)
    fig.add_trace(_points_trace())
    if placed:
        fig.add_trace(_score_badges_trace(placed, bounds))
    fig.add_trace(_click_targets_trace(state, placed, bounds))
    _lay_out_hexagon(fig, title, pixels)
    return fig
