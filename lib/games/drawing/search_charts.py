"""Charts of a search's cost: nodes per iterative-deepening iteration, variants compared, and
the visits of a Monte Carlo tree search's root moves."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence

import plotly.graph_objects as go

from lib.charts import MIN_FONT, readable
from lib.common import escape_plot_text
from lib.games.drawing.figures import root_scores_figure

VISITS_TITLE = "Visits of each move"
"""Title of MCTS visit counts where other searches show move scores (bars and heat map)."""


def visits_figure(
    visits: Mapping[Hashable, int],
    win_rates: Mapping[Hashable, float],
    format_move: Callable[[Hashable], str],
    chosen: Hashable | None = None,
) -> go.Figure:
    """The move-score bars with MCTS visit counts in place of scores (most visited on top).

    Each bar is labelled with its visits; the hover adds the win rate of the move.
    """
    return root_scores_figure(
        {move: float(count) for move, count in visits.items()},
        format_move,
        chosen=chosen,
        title=VISITS_TITLE,
        axis_title="simulations through the move (visits)",
        texts={move: f"{count:,}" for move, count in visits.items()},
        hover={
            move: f"{format_move(move)}: {count:,} visits, win rate "
            f"{win_rates.get(move, 0.0):.0%} for the side to move"
            for move, count in visits.items()
        },
    )


def iterations_figure(iterations: Sequence[Mapping]) -> go.Figure:
    """Nodes per iterative-deepening iteration (log scale)."""
    fig = go.Figure(
        go.Bar(
            x=[str(i["depth"]) for i in iterations],
            y=[i["nodes"] for i in iterations],
            text=[f"{i['nodes']:,}" for i in iterations],
            textposition="outside",
            textfont={"size": MIN_FONT},
            cliponaxis=False,  # the tallest bar's label was cut in half at 260 px
        )
    )
    fig.update_layout(
        height=260,
        margin={"l": 40, "r": 20, "t": 40, "b": 40},
        title="Nodes per iteration (iterative deepening)",
        xaxis={"title": "depth", "type": "category"},
        yaxis={
            "title": "nodes (log scale)",
            **log_axis([1, *(i["nodes"] for i in iterations)], lowest=0),
        },
    )
    return readable(fig)


VARIANT_COLOURS = {
    "minimax": "#90a4ae",
    "alpha-beta": "#64b5f6",
    "alpha-beta + ordering": "#1e88e5",
    "alpha-beta + ordering + table": "#0d47a1",
}
"""One colour per search variant, the same whichever variants a comparison holds."""


def variant_tick(name: str) -> str:
    """A variant's axis label, one part per line ("alpha-beta<br>+ ordering<br>+ table"):
    on one line the long names ran into each other at 1024 px."""
    return escape_plot_text(name).replace(" + ", "<br>+ ")


def variants_figure(rows: Sequence[Mapping]) -> go.Figure:
    """Nodes searched by each search variant (log scale), labelled with the EBF."""
    names = [row["variant"] for row in rows]
    fig = go.Figure(
        go.Bar(
            x=names,
            y=[row["nodes"] for row in rows],
            text=[f"{row['nodes']:,} nodes<br>EBF {row['ebf']:.2f}" for row in rows],
            textposition="outside",
            textfont={"size": MIN_FONT},
            cliponaxis=False,
            marker={"color": [VARIANT_COLOURS.get(name, "#1e88e5") for name in names]},
        )
    )
    fig.update_xaxes(tickmode="array", tickvals=names, ticktext=[variant_tick(n) for n in names])
    fig.update_layout(
        height=380,
        margin={"l": 50, "r": 20, "t": 50, "b": 80},  # room for three lines of tick label
        title="Same answer, less work",  # the page's text says "to the same depth"
        # log axis from 1 node, so bar heights compare honestly
        yaxis={
            "title": "nodes (log scale)",
            **log_axis([1, *(row["nodes"] for row in rows)], headroom=4),
        },
    )
    return readable(fig)


def power_label(exponent: int) -> str:
    """A power of ten written plainly: ``1``, ``1,000``, ``1M``, ``0.01``."""
    if exponent >= 6:
        return f"{10 ** (exponent % 3)}{ {6: 'M', 9: 'G'}.get(exponent - exponent % 3, 'T') }"
    if exponent >= 0:
        return f"{10**exponent:,}"
    return f"{10.0**exponent:.{-exponent}f}"


def log_axis(
    values: Sequence[float],
    *,
    min_decades: int = 2,
    headroom: float = 3.0,
    lowest: int | None = None,
) -> dict:
    """Settings of a log-scale axis with a labelled tick at every power of ten only.

    The range runs from a power of ten at or below the smallest positive value
    to ``headroom`` times the largest (room for bar labels), spanning at least
    ``min_decades`` decades, so at least ``min_decades + 1`` ticks are labelled
    (no unlabelled single decade, no "2 5" minor labels). A narrow range is
    widened downwards, but not below ``10**lowest`` (e.g. ``lowest=0`` for
    counts: no "0.1 nodes"); then it is widened upwards.
    """
    positive = [float(v) for v in values if v is not None and math.isfinite(v) and v > 0]
    if not positive:
        positive = [1.0, 10.0]
    low = math.floor(math.log10(min(positive)))
    high = math.log10(max(positive) * headroom)
    if high - low < min_decades:
        low = math.floor(high - min_decades)
        if lowest is not None and low < lowest:
            low = lowest
            high = max(high, low + min_decades)
    exponents = range(low, math.floor(high) + 1)
    return {
        "type": "log",
        "range": [low, high],
        "tickvals": [10.0**e for e in exponents],
        "ticktext": [power_label(e) for e in exponents],
        "minor": {"showgrid": False},
        "tickfont": {"size": MIN_FONT},
    }
