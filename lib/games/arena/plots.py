"""Plotly figures of arena studies and weight evolution.

Each function takes a table from :mod:`lib.games.arena` (``summarize``) or
:mod:`lib.games.arena.evolve` (``history_table``) and returns a ``go.Figure``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go

from lib.charts import readable
from lib.common import escape_plot_text
from lib.games.drawing.search_charts import log_axis

_HEIGHT = 380


def _layout(
    figure: go.Figure,
    title: str,
    y_title: str,
    *,
    log: bool = False,
    count: bool = False,
    x_title: str | None = None,
) -> go.Figure:
    figure.update_layout(
        title=title,
        height=_HEIGHT,
        margin={"l": 60, "r": 20, "t": 50, "b": 40},
        yaxis_title=y_title,
        showlegend=False,
    )
    if x_title is not None:
        figure.update_layout(xaxis_title=x_title)
    if log:
        # a labelled tick at every power of ten, at least two decades
        values = [v for trace in figure.data if trace.y is not None for v in trace.y]
        figure.update_yaxes(**log_axis(values, headroom=1.5, lowest=0 if count else None))
    return readable(figure)  # the app's chart font sizes


def match_ticks(labels: Sequence[str]) -> tuple[list[str], str | None]:
    """Tick texts of the match bars and an x-axis title, shown as typed.

    When every match is against the same player B (``"... vs random"``), the
    ticks name player A only and the axis title names B once: long, repeated
    tick labels would otherwise take most of a half-width chart's height at
    1024 px. Otherwise the ticks are the whole labels and there is no title.
    """
    parts = [str(label).partition(" vs ") for label in labels]
    opponents = {second for _, sep, second in parts if sep}
    if parts and all(sep for _, sep, _ in parts) and len(opponents) == 1:
        return [escape_plot_text(first) for first, _, _ in parts], (
            f"player A (each against {escape_plot_text(opponents.pop())})"
        )
    return [escape_plot_text(label) for label in labels], None


def _match_axis(figure: go.Figure, labels: pd.Series) -> None:
    """Tick every match bar (see :func:`match_ticks`)."""
    ticks, title = match_ticks(list(labels))
    figure.update_xaxes(
        type="category", tickmode="array", tickvals=list(labels), ticktext=ticks, title=title
    )


def win_rate_figure(summary: pd.DataFrame) -> go.Figure:
    """Win % of player A per match, with the 95 % Wilson interval as error bars."""
    figure = go.Figure(
        go.Bar(
            x=summary["label"],
            y=summary["win_pct"],
            error_y={
                "type": "data",
                "symmetric": False,
                "array": summary["win_ci_high"] - summary["win_pct"],
                "arrayminus": summary["win_pct"] - summary["win_ci_low"],
            },
            customdata=summary[["games", "win_ci_low", "win_ci_high"]],
            hovertemplate=(
                "%{x}<br>win %{y:.1f} % (95 % confidence interval "
                "%{customdata[1]:.1f}–%{customdata[2]:.1f})"
                "<br>%{customdata[0]} games<extra></extra>"
            ),
            marker_color="#2a9d8f",
        )
    )
    figure.update_yaxes(range=[0, 105])
    _match_axis(figure, summary["label"])
    # short enough for a half-width chart at 1024 px; the hover names the interval in full
    return _layout(figure, "Win % of player A (95 % CI)", "win %")


def _per_match_bars(
    summary: pd.DataFrame, column: str, b_column: str | None, title: str, y_title: str, log: bool
) -> go.Figure:
    figure = go.Figure(
        go.Bar(x=summary["label"], y=summary[column], name="player A", marker_color="#264653")
    )
    if b_column is not None and b_column in summary and summary[b_column].fillna(0).gt(0).any():
        figure.add_bar(
            x=summary["label"], y=summary[b_column], name="player B", marker_color="#e9c46a"
        )
        figure.update_layout(barmode="group")
    _match_axis(figure, summary["label"])
    _layout(figure, title, y_title, log=log, count=log and column.startswith("nodes"))
    figure.update_layout(showlegend=len(figure.data) > 1)
    return figure


def nodes_figure(summary: pd.DataFrame) -> go.Figure:
    """Nodes searched per game by each player, on a log scale."""
    return _per_match_bars(
        summary, "nodes_per_game", "b_nodes_per_game", "Nodes per game", "nodes", True
    )


def time_figure(summary: pd.DataFrame) -> go.Figure:
    """Seconds of thinking per game of player A, on a log scale."""
    return _per_match_bars(
        summary, "seconds_per_game", None, "Time per game (player A)", "seconds", True
    )


def ebf_figure(summary: pd.DataFrame) -> go.Figure:
    """Mean effective branching factor of each player's searches."""
    return _per_match_bars(
        summary, "ebf", "b_ebf", "Effective branching factor", "EBF (mean per move)", False
    )


def fitness_figure(history: pd.DataFrame) -> go.Figure:
    """League fitness (best, mean, worst) and the best vector's benchmark score per generation."""
    figure = go.Figure()
    styles = {
        "best_fitness": ("best (league score share)", "#2a9d8f", "solid"),
        "mean_fitness": ("mean", "#8d99ae", "dot"),
        "min_fitness": ("worst", "#e76f51", "dot"),
        "benchmark_score": ("best vs benchmark", "#264653", "solid"),
    }
    for column, (name, colour, dash) in styles.items():
        if column in history and history[column].notna().any():
            figure.add_scatter(
                x=history["generation"],
                y=history[column],
                name=name,
                mode="lines+markers",
                line={"color": colour, "dash": dash, "width": 3 if "best" in name else 2},
            )
    _layout(figure, "Fitness per generation", "score share", x_title="generation")
    # the legend under the plot: above it, wrapped onto two rows in a narrow column, it ran
    # into the title
    figure.update_layout(
        showlegend=True,
        height=_HEIGHT + 60,
        margin={"t": 50, "b": 40},
        legend={"orientation": "h", "yanchor": "top", "y": -0.22, "xanchor": "left", "x": 0},
    )
    figure.update_yaxes(range=[-0.02, 1.02])
    _generation_ticks(figure, history)
    return figure


def _generation_ticks(figure: go.Figure, history: pd.DataFrame) -> None:
    """Whole-generation ticks (no 1.5, 2.5), about ten at most."""
    count = int(history["generation"].nunique()) if "generation" in history else 1
    figure.update_xaxes(tick0=1, dtick=max(1, math.ceil(count / 10)))


def weights_figure(history: pd.DataFrame, weight_names: Sequence[str]) -> go.Figure:
    """The best weight vector of every generation as a heatmap (generation × feature)."""
    names = [n for n in weight_names if n in history]
    figure = go.Figure(
        go.Heatmap(
            z=history[names].to_numpy().T if names else [],
            x=history["generation"],
            y=names,
            colorscale="RdBu",
            zmid=0,
            colorbar={"title": "weight"},
        )
    )
    _layout(figure, "Best weights per generation", "feature", x_title="generation")
    _generation_ticks(figure, history)
    return figure


def ladder_figure(table: pd.DataFrame) -> go.Figure:
    """The strength ladder: each player's rating (Elo scale) with its interval, best on top.

    ``table`` is :func:`lib.games.arena.ladder.ladder_table` (ranked). One row per
    player, so long names read horizontally; the hover gives the record.
    """
    names = [escape_plot_text(name) for name in table["player"]]
    figure = go.Figure(
        go.Scatter(
            x=table["rating"],
            y=names,
            mode="markers",
            marker={"size": 12, "color": "#264653"},
            error_x={
                "type": "data",
                "symmetric": False,
                "array": table["ci_high"] - table["rating"],
                "arrayminus": table["rating"] - table["ci_low"],
                "color": "#2a9d8f",
                "thickness": 2,
            },
            customdata=table[["rank", "ci_low", "ci_high", "wins", "draws", "losses", "score_pct"]],
            hovertemplate=(
                "#%{customdata[0]} %{y}<br>rating %{x:.0f} (95 % interval "
                "%{customdata[1]:.0f} to %{customdata[2]:.0f})<br>%{customdata[3]} wins, "
                "%{customdata[4]} draws, %{customdata[5]} losses "
                "(score %{customdata[6]:.1f} %)<extra></extra>"
            ),
        )
    )
    figure.add_vline(x=0, line={"color": "#999999", "dash": "dot", "width": 1})
    figure.update_yaxes(
        type="category", categoryorder="array", categoryarray=names[::-1], automargin=True
    )
    _layout(figure, "Strength ladder (95 % interval)", "", x_title="rating (Elo scale)")
    figure.update_layout(height=max(_HEIGHT, 80 + 45 * len(table)))
    return figure
