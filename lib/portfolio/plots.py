"""Plotly figures for the portfolio page: each takes data and returns a ``go.Figure``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

BEST = "#2563eb"
MEAN = "#94a3b8"
FEASIBLE = "#16a34a"
OPTIMUM = "#dc2626"


def fitness_chart(
    history: pd.DataFrame, optimum: float | None = None, title: str = "Fitness per generation"
) -> go.Figure:
    """Best and mean fitness per generation, and the number of feasible individuals.

    ``history`` has the columns of :class:`lib.portfolio.ga.GenerationStats`.
    ``optimum`` (the exact solver's objective) is drawn as a dashed line.
    """
    figure = make_subplots(specs=[[{"secondary_y": True}]])
    if len(history):
        x = history["generation"]
        figure.add_trace(
            go.Bar(
                x=x,
                y=history["n_feasible"],
                name="feasible individuals",
                marker_color=FEASIBLE,
                opacity=0.25,
            ),
            secondary_y=True,
        )
        figure.add_trace(
            go.Scatter(x=x, y=history["best_fitness"], name="best", line={"color": BEST}),
            secondary_y=False,
        )
        figure.add_trace(
            go.Scatter(
                x=x,
                y=history["best_feasible_fitness"],
                name="best feasible so far",
                line={"color": FEASIBLE, "width": 3},
            ),
            secondary_y=False,
        )
        figure.add_trace(
            go.Scatter(x=x, y=history["mean_fitness"], name="mean", line={"color": MEAN}),
            secondary_y=False,
        )
    if optimum is not None:
        figure.add_hline(
            y=max(optimum, 0.0),
            line={"color": OPTIMUM, "dash": "dash"},
            annotation_text="exact optimum",
            annotation_position="bottom right",
        )
    figure.update_layout(
        title=title,
        xaxis_title="generation",
        legend={"orientation": "h", "y": -0.2},
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
        height=380,
        bargap=0,
    )
    figure.update_yaxes(title_text="fitness", secondary_y=False)
    figure.update_yaxes(title_text="feasible individuals", secondary_y=True, showgrid=False)
    return figure


def weights_scatter(table: pd.DataFrame, weights: np.ndarray | None) -> go.Figure:
    """Risk against return of every stock; held stocks drawn larger by their weight."""
    weights = np.zeros(len(table)) if weights is None else np.asarray(weights, dtype=float)
    held = weights > 0
    figure = go.Figure()
    figure.add_trace(
        go.Scatter(
            x=table["risk"][~held],
            y=table["return"][~held],
            mode="markers",
            name="not held",
            marker={"color": MEAN, "size": 5, "opacity": 0.6},
            text=table["ticker"][~held],
            hovertemplate="%{text}<br>risk %{x:.3f}<br>return %{y:.3f}<extra></extra>",
        )
    )
    if held.any():
        top = float(weights.max())
        figure.add_trace(
            go.Scatter(
                x=table["risk"][held],
                y=table["return"][held],
                mode="markers",
                name="held (size = weight)",
                marker={
                    "color": BEST,
                    "size": 6 + 44 * np.sqrt(weights[held] / top),
                    "opacity": 0.7,
                    "line": {"color": "white", "width": 1},
                },
                text=table["ticker"][held],
                customdata=weights[held],
                hovertemplate=(
                    "%{text}<br>risk %{x:.3f}<br>return %{y:.3f}"
                    "<br>weight %{customdata:.4f}<extra></extra>"
                ),
            )
        )
    figure.update_layout(
        title="Stocks: risk against return (held stocks sized by weight)",
        xaxis_title="risk (max drawdown)",
        yaxis_title="return",
        height=420,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
        legend={"orientation": "h", "y": -0.2},
    )
    return figure


def frontier_chart(
    frontier: pd.DataFrame,
    ga_point: tuple[float, float] | None = None,
    optimum_point: tuple[float, float] | None = None,
    max_risk: float | None = None,
) -> go.Figure:
    """Best objective for each risk cap, with the GA's and the optimum's portfolios.

    Points are ``(risk, fitness)``; ``max_risk`` (the current cap) is a dotted line.
    """
    figure = go.Figure()
    figure.add_trace(
        go.Scatter(
            x=frontier["max_risk"],
            y=frontier["objective"],
            mode="lines+markers",
            name="best objective for the risk cap",
            line={"color": MEAN, "shape": "linear"},
        )
    )
    if optimum_point is not None:
        figure.add_trace(
            go.Scatter(
                x=[optimum_point[0]],
                y=[optimum_point[1]],
                mode="markers",
                name="exact optimum",
                marker={"color": OPTIMUM, "size": 14, "symbol": "star"},
            )
        )
    if ga_point is not None:
        figure.add_trace(
            go.Scatter(
                x=[ga_point[0]],
                y=[ga_point[1]],
                mode="markers",
                name="GA portfolio",
                marker={"color": BEST, "size": 12, "symbol": "circle"},
            )
        )
    if max_risk is not None:
        figure.add_vline(x=max_risk, line={"dash": "dot", "color": "#64748b"})
    figure.update_layout(
        title="Efficient frontier: best objective for each risk cap",
        xaxis_title="risk cap / portfolio risk",
        yaxis_title="objective (fitness)",
        height=380,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
        legend={"orientation": "h", "y": -0.2},
    )
    return figure


def study_chart(study: pd.DataFrame) -> go.Figure:
    """Mean generations to a feasible portfolio and success rate per setting."""
    labels = study["parameter"] + " = " + study["value"].astype(str)
    figure = make_subplots(specs=[[{"secondary_y": True}]])
    figure.add_trace(
        go.Bar(
            x=labels,
            y=study["mean_generations"],
            name="mean generations to feasible",
            marker_color=BEST,
        ),
        secondary_y=False,
    )
    figure.add_trace(
        go.Scatter(
            x=labels,
            y=study["success_rate"] * 100,
            name="success rate (%)",
            mode="markers",
            marker={"color": FEASIBLE, "size": 12, "symbol": "diamond"},
        ),
        secondary_y=True,
    )
    figure.update_layout(
        title="Parameter study",
        height=380,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
        legend={"orientation": "h", "y": -0.3},
    )
    figure.update_yaxes(title_text="generations", secondary_y=False)
    figure.update_yaxes(title_text="success %", range=[0, 105], secondary_y=True, showgrid=False)
    return figure
