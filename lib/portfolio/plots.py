"""Plotly figures for the portfolio page: each takes data and returns a ``go.Figure``."""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from lib.charts import readable
from lib.common import escape_plot_text
from lib.portfolio.exact import ExactResult
from lib.portfolio.ga import GAResult

BEST = "#2563eb"
MEAN = "#94a3b8"
FEASIBLE = "#16a34a"
OPTIMUM = "#dc2626"
TEXT_SIZE = 16  # the animation's current generation, read from the back of a room


def count_dtick(top: float) -> int:
    """An integer tick step giving about four ticks on a count axis from 0 to ``top``.

    >>> [count_dtick(t) for t in (0, 3, 7, 124, 994)]
    [1, 1, 2, 50, 250]
    """
    raw = max(float(top), 1.0) / 4
    step = 1
    while True:
        for factor in (1, 2, 2.5, 5):
            candidate = step * factor
            if candidate >= raw and float(candidate).is_integer():
                return int(candidate)
        step *= 10


def fitness_chart(
    history: pd.DataFrame,
    optimum: float | None = None,
    title: str = "Fitness per generation",
    compact: bool = False,
) -> go.Figure:
    """Best and mean fitness per generation, and the number of feasible individuals.

    ``history`` has the columns of :class:`lib.portfolio.ga.GenerationStats`.
    ``optimum`` (the exact solver's objective) is drawn as a dashed line. The
    "best of the generation" line is the top-ranked individual of each
    generation, which can fall when the ranking prefers a feasible portfolio
    of lower fitness; "best feasible so far" never falls. ``compact``: a
    shorter chart for half a page's width.
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
            go.Scatter(
                x=x, y=history["best_fitness"], name="best of the generation", line={"color": BEST}
            ),
            secondary_y=False,
        )
        found = int(history["best_feasible_fitness"].notna().sum())
        if found:  # no legend entry for a line with nothing to draw
            figure.add_trace(
                go.Scatter(
                    x=x,
                    y=history["best_feasible_fitness"],
                    name="best feasible so far",
                    # one point (a run stopped at its first feasible portfolio) is no line
                    mode="lines" if found > 1 else "markers",
                    line={"color": FEASIBLE, "width": 3},
                    marker={"color": FEASIBLE, "size": 11},
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
        # in a short chart the legend must sit lower to clear the x axis title
        legend={"orientation": "h", "y": -0.3 if compact else -0.2},
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
        height=340 if compact else 380,
        bargap=0,
    )
    figure.update_yaxes(title_text="fitness", secondary_y=False)
    top = float(history["n_feasible"].max()) if len(history) else 0.0
    figure.update_yaxes(
        title_text="feasible individuals",
        secondary_y=True,
        showgrid=False,
        rangemode="nonnegative",
        range=[0, max(top, 1.0) * 1.05],
        tickformat="d",
        tick0=0,
        dtick=count_dtick(top),
    )
    return readable(figure)


def weights_scatter(table: pd.DataFrame, weights: np.ndarray | None) -> go.Figure:
    """Risk against return of every stock; held stocks drawn larger by their weight."""
    weights = np.zeros(len(table)) if weights is None else np.asarray(weights, dtype=float)
    held = weights > 0
    tickers = table["ticker"].map(escape_plot_text)  # uploaded names are shown as typed
    figure = go.Figure()
    figure.add_trace(
        go.Scatter(
            x=table["risk"][~held],
            y=table["return"][~held],
            mode="markers",
            name="not held",
            marker={"color": MEAN, "size": 5, "opacity": 0.6},
            text=tickers[~held],
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
                text=tickers[held],
                customdata=weights[held],
                hovertemplate=(
                    "%{text}<br>risk %{x:.3f}<br>return %{y:.3f}"
                    "<br>weight %{customdata:.4f}<extra></extra>"
                ),
            )
        )
    figure.update_layout(
        title="Stocks: risk against return",  # the legend says held = sized by weight
        xaxis_title="risk (max drawdown)",
        yaxis_title="return",
        height=420,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
        legend={"orientation": "h", "y": -0.2},
    )
    return readable(figure)


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
    return readable(figure)


STUDY_NAMES = {  # short: nine bars share a 1024 px projector's column (~50 px each)
    "population_size": "pop",
    "p_crossover": "cross",
    "p_mutation": "mut",
    "elite_size": "elite",
    "max_generations": "gens",
}
STUDY_AXIS_TITLE = "pop = population size, cross / mut = crossover / mutation probability"


def study_labels(study: pd.DataFrame) -> list[str]:
    """Short two-line x labels (``name<br>value``) that fit unrotated under each bar."""
    labels = []
    for parameter, value in zip(study["parameter"], study["value"], strict=True):
        text = f"{value:g}" if isinstance(value, numbers.Real) else str(value)
        labels.append(f"{STUDY_NAMES.get(parameter, parameter)}<br>{text}")
    return labels


def study_chart(study: pd.DataFrame) -> go.Figure:
    """Mean generations to a feasible portfolio (bars) and success rate (diamonds) per setting.

    A setting with no feasible run has no bar: its label says "none feasible".
    The success axis has fixed ticks 0, 25, 50, 75, 100 %; the legend sits above
    the plot so the x labels cannot run into it.
    """
    labels = study_labels(study)
    generations = study["mean_generations"].astype(float)
    figure = make_subplots(specs=[[{"secondary_y": True}]])
    figure.add_trace(
        go.Bar(
            x=labels,
            y=generations,
            name="mean generations to feasible",
            marker_color=BEST,
            text=[f"{g:.0f}" if np.isfinite(g) else "none feasible" for g in generations],
            textposition="outside",
            cliponaxis=False,
        ),
        secondary_y=False,
    )
    figure.add_trace(
        go.Scatter(
            x=labels,
            y=study["success_rate"] * 100,
            name="success rate (%)",
            mode="markers",
            marker={"color": FEASIBLE, "size": 14, "symbol": "diamond"},
        ),
        secondary_y=True,
    )
    top = float(np.nanmax(generations)) if generations.notna().any() else 1.0
    for label, value in zip(labels, generations, strict=True):
        if not np.isfinite(value):  # no bar to carry its text
            figure.add_annotation(
                x=label, y=0, text="none<br>feasible", showarrow=False, yanchor="bottom", yshift=16
            )
    figure.update_layout(
        title={"text": "Parameter study", "y": 0.97, "yanchor": "top"},
        height=440,
        margin={"l": 10, "r": 10, "t": 100, "b": 10},
        legend={"orientation": "h", "x": 0, "y": 1.02, "yanchor": "bottom"},
        xaxis={
            "tickangle": 0,
            "automargin": True,
            "type": "category",
            "title": {"text": STUDY_AXIS_TITLE},
        },
    )
    figure.update_yaxes(
        title_text="generations to feasible",
        secondary_y=False,
        rangemode="nonnegative",
        range=[0, top * 1.2],
    )
    figure.update_yaxes(
        title_text="success rate",
        range=[0, 105],
        tickmode="array",
        tickvals=[0, 25, 50, 75, 100],
        ticktext=["0 %", "25 %", "50 %", "75 %", "100 %"],
        secondary_y=True,
        showgrid=False,
    )
    return readable(figure)


INFEASIBLE = "#64748b"


def _padded_range(values: list[float], pad: float = 0.05) -> list[float]:
    """``[low, high]`` of ``values`` widened by ``pad`` of the span on each side."""
    low, high = float(min(values)), float(max(values))
    span = high - low if high > low else max(abs(high), 1.0)
    return [low - pad * span, high + pad * span]


def population_chart(
    trace: pd.DataFrame,
    max_risk: float,
    min_return: float,
    optimum_point: tuple[float, float] | None = None,
    frame_ms: int = 150,
) -> go.Figure:
    """The population on the risk/return plane, one animation frame per kept generation.

    ``trace`` has the columns ``generation, risk, return, feasible`` (see
    :meth:`lib.portfolio.ga.PopulationTrace.table`): one dot per individual,
    feasible ones green. The risk cap and the return floor are dashed lines
    around the shaded feasible region, and ``optimum_point`` (the exact
    optimum's ``(risk, return)``) is a red star. A play/pause button and a
    generation slider inside the figure animate the frames in the browser,
    with no server round trip; the axes stay fixed so the dots visibly move.
    """
    figure = go.Figure()
    generations = sorted(int(g) for g in trace["generation"].unique()) if len(trace) else []
    for scatter in _population_dots(trace, generations[0] if generations else None):
        figure.add_trace(scatter)
    xs = [max_risk] + (trace["risk"].tolist() if len(trace) else [0.0])
    ys = [min_return] + (trace["return"].tolist() if len(trace) else [0.0])
    if optimum_point is not None:
        xs.append(optimum_point[0])
        ys.append(optimum_point[1])
        figure.add_trace(
            go.Scatter(
                x=[optimum_point[0]],
                y=[optimum_point[1]],
                mode="markers",
                name="exact optimum",
                marker={"color": OPTIMUM, "size": 16, "symbol": "star"},
            )
        )
    x_range, y_range = _padded_range(xs), _padded_range(ys)
    _draw_feasible_region(figure, max_risk, min_return, x_range, y_range)
    figure.frames = [
        go.Frame(data=_population_dots(trace, generation), name=str(generation), traces=[0, 1])
        for generation in generations
    ]
    layout: dict = {
        "title": {"text": "Population on the risk/return plane", "y": 0.98, "yanchor": "top"},
        "xaxis": {"title": {"text": "risk"}, "range": x_range, "autorange": False},
        "yaxis": {"title": {"text": "return"}, "range": y_range, "autorange": False},
        "height": 440,
        "margin": {"l": 10, "r": 10, "t": 80, "b": 10},
        "legend": {"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0, "xanchor": "left"},
    }
    if len(generations) > 1:
        layout.update(_animation_controls(generations, frame_ms))
        layout["margin"]["b"] = 110
        layout["height"] = 520
    figure.update_layout(**layout)
    return readable(figure)


def _population_dots(trace: pd.DataFrame, generation: int | None) -> list[go.Scatter]:
    """The infeasible (grey) and feasible (green) dots of one generation (``None``: all).

    Always two traces, in that order, so an animation frame replaces traces 0 and 1.
    """
    rows = trace[trace["generation"] == generation] if generation is not None else trace
    out = []
    for feasible, name, color in ((False, "infeasible", INFEASIBLE), (True, "feasible", FEASIBLE)):
        part = rows[rows["feasible"].astype(bool) == feasible]
        out.append(
            go.Scatter(
                x=part["risk"].to_numpy(),
                y=part["return"].to_numpy(),
                mode="markers",
                name=name,
                marker={"color": color, "size": 7, "opacity": 0.6},
                hovertemplate="risk %{x:.3f}<br>return %{y:.3f}<extra></extra>",
            )
        )
    return out


def _draw_feasible_region(
    figure: go.Figure,
    max_risk: float,
    min_return: float,
    x_range: list[float],
    y_range: list[float],
) -> None:
    """Shade risk below the cap and return above the floor; dash and label both limits."""
    figure.add_shape(
        type="rect",
        x0=x_range[0],
        x1=max_risk,
        y0=min_return,
        y1=y_range[1],
        fillcolor=FEASIBLE,
        opacity=0.08,
        line_width=0,
        layer="below",
    )
    figure.add_vline(x=max_risk, line={"color": "#334155", "dash": "dash"})
    figure.add_hline(y=min_return, line={"color": "#334155", "dash": "dash"})
    figure.add_annotation(
        x=max_risk,
        y=y_range[0],
        text=f"risk < {max_risk:g}",
        showarrow=False,
        xanchor="right",
        yanchor="bottom",
    )
    figure.add_annotation(
        x=x_range[1],
        y=min_return,
        text=f"return > {min_return:g}",
        showarrow=False,
        xanchor="right",
        yanchor="bottom",
    )


def _animation_controls(generations: list[int], frame_ms: int) -> dict[str, list[dict]]:
    """The layout's play/pause buttons and generation slider for frames named by generation.

    The buttons sit at the bottom left and the slider to their right, its current
    generation printed large (:data:`TEXT_SIZE`) at its right end.
    """
    still = {
        "frame": {"duration": 0, "redraw": False},
        "mode": "immediate",
        "transition": {"duration": 0},
    }
    play = {
        "frame": {"duration": frame_ms, "redraw": False},
        "fromcurrent": True,
        "transition": {"duration": 0},
    }
    buttons = {
        "type": "buttons",
        "direction": "left",
        "showactive": False,
        "x": 0,
        "y": 0,
        "xanchor": "left",
        "yanchor": "top",
        "pad": {"t": 60, "r": 10},
        "buttons": [
            {"label": "▶ play", "method": "animate", "args": [None, play]},
            {"label": "❚❚ pause", "method": "animate", "args": [[None], still]},
        ],
    }
    slider = {
        "active": 0,
        "x": 0.3,
        "len": 0.7,
        "y": 0,
        "yanchor": "top",
        "pad": {"t": 50},
        "currentvalue": {
            "prefix": "generation ",
            "font": {"size": TEXT_SIZE},
            "xanchor": "right",  # clear of the play/pause buttons on its left
        },
        "steps": [
            {"label": str(g), "method": "animate", "args": [[str(g)], still]} for g in generations
        ],
    }
    return {"updatemenus": [buttons], "sliders": [slider]}


RESULT_CHARTS = ("fitness", "population", "scatter")
"""The figures :func:`result_chart` builds for a result."""


def result_chart(name: str, result: GAResult, exact: ExactResult, table: pd.DataFrame) -> go.Figure:
    """One of a run's figures (:data:`RESULT_CHARTS`), as the Portfolio page shows them.

    The fitness curve (compact, with the exact optimum's line), the population's
    animation (with the optimum's star when there is one) or the stocks with the
    run's weights; ``table`` is the data the run used.
    """
    config = result.config
    if name == "fitness":
        return fitness_chart(result.history, exact.fitness, compact=True)
    if name == "population":
        optimum = (exact.risk, exact.ret) if exact.feasible else None
        return population_chart(result.trace.table(), config.max_risk, config.min_return, optimum)
    if name == "scatter":
        return weights_scatter(table, result.weights)
    raise ValueError(f"unknown chart {name!r}; one of {RESULT_CHARTS}")
