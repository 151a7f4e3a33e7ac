"""What every chart of the app shares: text sizes a class can read on a projector."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

MIN_FONT = 14
"""Smallest font (px) for anything a class must read on a projector."""
TITLE_FONT = 18
"""Chart titles (route charts use the same sizes)."""


def readable(fig: go.Figure) -> go.Figure:
    """Give every text of a chart at least :data:`MIN_FONT` px, titles :data:`TITLE_FONT` px.

    Ticks and axis titles, the legend, hover labels, bar and scatter text,
    annotations and colour-bar titles: Streamlit's chart theme would otherwise
    draw several of them at 12 px. Sizes already set larger are kept.
    """
    fig.update_layout(
        font={"size": MIN_FONT},
        title_font={"size": TITLE_FONT},
        legend_font={"size": MIN_FONT},
        hoverlabel_font={"size": MIN_FONT},
    )
    fig.update_xaxes(tickfont_size=MIN_FONT, title_font_size=MIN_FONT)
    fig.update_yaxes(tickfont_size=MIN_FONT, title_font_size=MIN_FONT)
    for trace in fig.data:
        if "textfont" in trace:
            trace.textfont.size = _at_least(trace.textfont.size, MIN_FONT)
        colorbar = getattr(trace, "colorbar", None)
        if colorbar is not None:
            colorbar.title.font.size = MIN_FONT
            colorbar.tickfont.size = MIN_FONT
    for annotation in fig.layout.annotations:
        annotation.font.size = max(annotation.font.size or MIN_FONT, MIN_FONT)
    return fig


def _at_least(size: float | Sequence[float] | None, low: float) -> float | list[float]:
    """A font size (or a per-point list of them) raised to at least ``low``."""
    if size is None:
        return low
    if isinstance(size, int | float):
        return max(size, low)
    return [max(value, low) for value in size]
