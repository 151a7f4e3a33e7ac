"""Local search's pictures (plotly, no Streamlit): the animated board, the landscape, the objective.

:func:`board_figure` draws a run's boards as plotly frames with the figure's own
▶ Play / ❚❚ Pause buttons and slider of steps, each frame titled with its step and
its number of attacking pairs; queens under attack are red. :func:`landscape_figure`
is AIMA Figure 4.3(a): the ``h`` of moving each queen to each square of its column.
:func:`objective_figure` is ``h`` over the steps.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from lib.charts import readable
from lib.local_search.queens import Board, landscape
from lib.local_search.trace import Step

MAX_FRAMES = 300
"""Most frames an animated board carries (longer runs are thinned evenly, the last kept)."""
MAX_POINTS = 5_000
"""Most points of the objective chart (longer histories are thinned evenly)."""
QUEEN, ATTACKED, SAFE = "♛", "#c62828", "#1b1b1b"
LIGHT, DARK = "#f0d9b5", "#b58863"


def frame_steps(count: int, limit: int = MAX_FRAMES) -> list[int]:
    """Which of ``count`` records become frames: all, or ``limit`` evenly spaced (first, last kept).

    >>> frame_steps(5), frame_steps(1000, 4)
    ([0, 1, 2, 3, 4], [0, 333, 666, 999])
    """
    if count <= limit:
        return list(range(count))
    return np.linspace(0, count - 1, limit).round().astype(int).tolist()


def _queens(state: Sequence[int]) -> go.Scatter:
    board = Board(state)
    colours = [ATTACKED if board.attacks(c, r) else SAFE for c, r in enumerate(state)]
    n = len(state)
    return go.Scatter(
        x=list(range(n)),
        y=list(state),
        mode="text",
        text=[QUEEN] * n,
        textfont={"size": max(14, int(300 / n)), "color": colours},
        hovertemplate="column %{x}, row %{y}<extra></extra>",
        showlegend=False,
    )


def _title(record: Step) -> str:
    note = f" ({record.note})" if record.note else ""
    return f"Step {record.index}: h = {record.h} attacking pairs{note}"


def board_figure(records: Sequence[Step], step: int = 0, height: int = 420) -> go.Figure:
    """The boards of ``records`` as an animation opened at record ``step``."""
    n = len(records[0].state)
    chosen = frame_steps(len(records))
    if step not in chosen:
        chosen = sorted({*chosen, step})
    squares = go.Heatmap(
        z=[[(r + c) % 2 for c in range(n)] for r in range(n)],
        colorscale=[[0, DARK], [1, LIGHT]],
        showscale=False,
        hoverinfo="skip",
    )
    current = records[step]
    fig = go.Figure(
        data=[squares, _queens(current.state)],
        frames=[
            go.Frame(
                data=[_queens(records[k].state)],
                traces=[1],
                name=str(k),
                layout={"title": {"text": _title(records[k])}},
            )
            for k in chosen
        ],
    )
    play = {"frame": {"duration": 400, "redraw": True}, "fromcurrent": True}
    fig.update_layout(
        title={"text": _title(current)},
        height=height,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
        xaxis={"visible": False, "range": [-0.5, n - 0.5], "constrain": "domain"},
        yaxis={
            "visible": False,
            "range": [-0.5, n - 0.5],
            "scaleanchor": "x",
            "constrain": "domain",
        },
        updatemenus=[
            {
                "type": "buttons",
                "direction": "left",
                "x": 0,
                "y": -0.02,
                "yanchor": "top",
                "xanchor": "left",
                "buttons": [
                    {"label": "▶ Play", "method": "animate", "args": [None, play]},
                    {
                        "label": "❚❚ Pause",
                        "method": "animate",
                        "args": [[None], {"mode": "immediate", "frame": {"duration": 0}}],
                    },
                ],
            }
        ],
        sliders=[
            {
                "active": chosen.index(step),
                "currentvalue": {"prefix": "step "},
                "pad": {"t": 30},
                "steps": [
                    {
                        "label": str(records[k].index),
                        "method": "animate",
                        "args": [[str(k)], {"mode": "immediate", "frame": {"duration": 0}}],
                    }
                    for k in chosen
                ],
            }
        ],
    )
    fig.update_layout(height=height + 90, margin={"b": 90})
    return readable(fig)


def landscape_figure(state: Sequence[int], height: int = 420) -> go.Figure:
    """AIMA Figure 4.3(a): each square's ``h`` if its column's queen moved there; queens marked."""
    grid = landscape(state)
    n = len(state)
    best = int(grid.min())
    fig = go.Figure(
        go.Heatmap(
            z=grid,
            text=grid,
            texttemplate="%{text}",
            colorscale="Blues_r",
            colorbar={"title": {"text": "h"}},
            hovertemplate="move column %{x}'s queen to row %{y}: h = %{z}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=list(range(n)),
            y=list(state),
            mode="markers",
            marker={"symbol": "square-open", "size": max(10, int(200 / n)), "color": ATTACKED,
                    "line": {"width": 3}},
            hoverinfo="skip",
            showlegend=False,
        )
    )  # fmt: skip
    fig.update_layout(
        title={"text": f"Neighbours' h (now {Board(state).h}, best {best})"},
        height=height,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
        xaxis={
            "title": {"text": "column"},
            "dtick": 1,
            "range": [-0.5, n - 0.5],
            "constrain": "domain",
        },
        yaxis={
            "title": {"text": "row"},
            "dtick": 1,
            "range": [-0.5, n - 0.5],
            "scaleanchor": "x",
            "constrain": "domain",
        },
    )
    return readable(fig)


def objective_figure(
    history: Sequence[int], step: int | None = None, height: int = 300
) -> go.Figure:
    """``h`` (attacking pairs) after each step; the step shown on the board marked."""
    keep = frame_steps(len(history), MAX_POINTS)
    fig = go.Figure(
        go.Scatter(
            x=keep,
            y=[history[k] for k in keep],
            mode="lines",
            line={"shape": "hv", "width": 2},
            name="h",
            hovertemplate="step %{x}: h = %{y}<extra></extra>",
        )
    )
    if step is not None and 0 <= step < len(history):
        fig.add_trace(
            go.Scatter(
                x=[step],
                y=[history[step]],
                mode="markers",
                marker={"size": 12, "color": ATTACKED},
                name="shown",
                hovertemplate="step %{x}: h = %{y}<extra></extra>",
            )
        )
    fig.update_layout(
        title={"text": "The objective over the steps"},
        height=height,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
        xaxis={"title": {"text": "step"}},
        yaxis={"title": {"text": "h (attacking pairs)"}, "rangemode": "tozero"},
        showlegend=False,
    )
    return readable(fig)


PORTFOLIO_COLOURS = {"GA": "#0072B2", "Hill climbing": "#D55E00", "Simulated annealing": "#009E73"}


def portfolio_figure(curves: pd.DataFrame, optimum: float | None, height: int = 380) -> go.Figure:
    """Best feasible fitness against fitness evaluations, one line per algorithm; the optimum."""
    fig = go.Figure()
    for name, group in curves.groupby("algorithm", sort=False):
        fig.add_trace(
            go.Scatter(
                x=group["evaluations"],
                y=group["best fitness"],
                mode="lines",
                name=str(name),
                line={"width": 3, "color": PORTFOLIO_COLOURS.get(str(name))},
                hovertemplate="%{x:,} evaluations: %{y:.4f}<extra>" + str(name) + "</extra>",
            )
        )
    if optimum is not None:
        fig.add_hline(
            y=optimum,
            line={"dash": "dash", "color": "#1e293b"},
            annotation_text=f"exact optimum {optimum:.4f}",
            annotation_position="bottom left",
        )
    fig.update_layout(
        title={"text": "Best feasible fitness against fitness evaluations"},
        height=height,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
        xaxis={"title": {"text": "fitness evaluations"}},
        yaxis={"title": {"text": "best feasible fitness"}},
        legend={"orientation": "h", "y": -0.25},
    )
    return readable(fig)
