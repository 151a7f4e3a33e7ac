"""What every chart of the app shares: text sizes a class can read on a projector."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

MIN_FONT = 14
"""Smallest font (px) for anything a class must read on a projector."""
TITLE_FONT = 18
"""Chart titles (route charts use the same sizes)."""
TEXT_COLOR = "#1e293b"
"""Colour of every chart text: 14.6:1 on the app's white background (WCAG asks 4.5:1).
Streamlit's chart theme draws ticks and axis titles in grey rgb(128, 132, 149): 3.7:1."""


def readable(fig: go.Figure, min_font: float = MIN_FONT) -> go.Figure:
    """Give every text of a chart at least ``min_font`` px (default :data:`MIN_FONT`), titles
    :data:`TITLE_FONT` px, in :data:`TEXT_COLOR` (dark enough for a projector).

    A larger ``min_font`` (the presentation view's) is drawn by plotly itself, which lays
    out the legend for it: text only enlarged afterwards runs into the next legend entry.

    Ticks and axis titles, the legend, hover labels, bar and scatter text,
    annotations and colour-bar titles: Streamlit's chart theme would otherwise
    draw several of them at 12 px, in a light grey. Sizes already set larger, and
    annotation colours already set, are kept (text drawn on a bar or a piece
    chooses its own colour).
    """
    fig.update_layout(
        font={"size": min_font, "color": TEXT_COLOR},
        title_font={"size": max(TITLE_FONT, min_font), "color": TEXT_COLOR},
        legend_font={"size": min_font, "color": TEXT_COLOR},
        hoverlabel_font={"size": min_font},
    )
    axis_text = {
        "tickfont_size": min_font,
        "title_font_size": min_font,
        "tickfont_color": TEXT_COLOR,
        "title_font_color": TEXT_COLOR,
    }
    fig.update_xaxes(**axis_text)
    fig.update_yaxes(**axis_text)
    for trace in fig.data:
        if "textfont" in trace:
            trace.textfont.size = _at_least(trace.textfont.size, min_font)
        colorbar = getattr(trace, "colorbar", None)
        if colorbar is not None:
            colorbar.title.font.size = min_font
            colorbar.tickfont.size = min_font
            colorbar.title.font.color = TEXT_COLOR
            colorbar.tickfont.color = TEXT_COLOR
    for annotation in fig.layout.annotations:
        annotation.font.size = max(annotation.font.size or min_font, min_font)
        annotation.font.color = annotation.font.color or TEXT_COLOR
    return fig


def _at_least(size: float | Sequence[float] | None, low: float) -> float | list[float]:
    """A font size (or a per-point list of them) raised to at least ``low``."""
    if size is None:
        return low
    if isinstance(size, int | float):
        return max(size, low)
    return [max(value, low) for value in size]
