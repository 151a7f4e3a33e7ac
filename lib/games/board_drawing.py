"""A game board's plotly figure as plain drawing data, for the page's light board component.

Each game describes its board as a plotly figure (its ``*_plots`` module, also drawn by
the step-through and the search panels). The game page does not hand that figure to
plotly.js: the 4.7 MB chart library is most of a first visit's wait for the board. It
draws it with :mod:`lib.ui.components.game_board` (a small SVG component) from what
:func:`drawing` keeps of the figure: its shapes, its scatter traces (lines, markers,
text), the axes' ranges and tick labels, the title and the size.

Everything per point is spelled out here (a scalar style is repeated, a numeric marker
colour is looked up in its colour scale, plotly's defaults are filled in: the size, an
axis's range from the data), so the component only draws. A figure that
uses more than that (another trace type, a fill other than ``toself``) is refused with
``ValueError``: a new game's board then fails its tests, not silently in the browser.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go
from plotly.colors import sample_colorscale

MODES = {"lines", "markers", "text", "markers+text", "lines+markers"}
SHAPES = {"rect", "circle"}


def _per_point(value: Any, count: int, default: Any) -> list:
    """``value`` for each of ``count`` points (a scalar repeated, a list as it is)."""
    if value is None:
        return [default] * count
    if isinstance(value, str) or not isinstance(value, Sequence):
        return [value] * count
    values = list(value)
    if len(values) != count:
        raise ValueError(f"{len(values)} values for {count} points")
    return values


def _colours(marker: dict, count: int, default: str) -> list[str]:
    """Marker colours as CSS colours; numbers go through the marker's colour scale."""
    colours = _per_point(marker.get("color"), count, default)
    numbers = [c for c in colours if isinstance(c, int | float)]
    if not numbers:
        return colours
    low = marker.get("cmin", min(numbers))
    high = marker.get("cmax", max(numbers))
    scale = marker.get("colorscale") or "Viridis"
    span = (high - low) or 1.0
    return [
        sample_colorscale(scale, [min(1.0, max(0.0, (c - low) / span))])[0]
        if isinstance(c, int | float)
        else c
        for c in colours
    ]


def _trace(trace: dict) -> dict:
    if trace.get("type", "scatter") != "scatter":
        raise ValueError(f"a board trace of type {trace.get('type')!r} cannot be drawn")
    xs, ys = list(trace.get("x", [])), list(trace.get("y", []))
    count = len(xs)
    mode = trace.get("mode") or ("markers" if count >= 20 else "lines+markers")  # plotly's
    if mode not in MODES:
        raise ValueError(f"a board trace in mode {mode!r} cannot be drawn")
    if trace.get("fill") not in (None, "none", "toself"):
        raise ValueError(f"a board trace filled {trace['fill']!r} cannot be drawn")
    marker = trace.get("marker", {})
    marker_line = marker.get("line", {})
    textfont = trace.get("textfont", {})
    line = trace.get("line", {})
    hover = None
    if trace.get("hoverinfo") != "skip":
        hover = _per_point(trace.get("hovertext", trace.get("text")), count, "")
    customdata = trace.get("customdata")
    return {
        "name": trace.get("name", ""),
        "mode": mode,
        "x": xs,
        "y": ys,
        "opacity": trace.get("opacity", 1),
        "line": {
            "color": line.get("color", "#444444"),
            "width": line.get("width", 2),
            "dash": line.get("dash", "solid"),
        },
        "fill": trace.get("fillcolor") if trace.get("fill") == "toself" else None,
        "marker": {
            "size": _per_point(marker.get("size"), count, 6),
            "symbol": _per_point(marker.get("symbol"), count, "circle"),
            "color": _colours(marker, count, "#1f77b4"),
            "stroke": _per_point(marker_line.get("color"), count, "rgba(0,0,0,0)"),
            "strokeWidth": marker_line.get("width", 0),
            "opacity": marker.get("opacity", 1),
        },
        "text": [str(t) for t in _per_point(trace.get("text"), count, "")],
        "font": {
            "size": textfont.get("size", 12),
            "color": _per_point(textfont.get("color"), count, "#444444"),
            "weight": textfont.get("weight", "normal"),
        },
        "hover": hover,
        "customdata": None if customdata is None else [list(c) for c in customdata],
    }


def _shape(shape: dict) -> dict:
    if shape.get("type") not in SHAPES:
        raise ValueError(f"a board shape of type {shape.get('type')!r} cannot be drawn")
    line = shape.get("line", {})
    return {
        "type": shape["type"],
        "x0": shape["x0"],
        "x1": shape["x1"],
        "y0": shape["y0"],
        "y1": shape["y1"],
        "fillcolor": shape.get("fillcolor"),
        "line": {"color": line.get("color", "rgba(0,0,0,0)"), "width": line.get("width", 0)},
        "opacity": shape.get("opacity", 1),
        "above": shape.get("layer") == "above",
    }


def _auto_range(values: list[float]) -> list[float]:
    """Plotly's automatic range, near enough: the data and a 6 % margin (1 for one value)."""
    if not values:
        return [-1.0, 1.0]
    low, high = min(values), max(values)
    pad = (high - low) * 0.06 or 1.0
    return [low - pad, high + pad]


def _axis(axis: dict, values: list[float]) -> dict:
    ticks = list(zip(axis.get("tickvals", []), axis.get("ticktext", []), strict=True))
    font = axis.get("tickfont", {})
    return {
        "range": list(axis["range"]) if axis.get("range") else _auto_range(values),
        "ticks": [[value, str(text)] for value, text in ticks],
        "top": axis.get("side") == "top",
        "visible": axis.get("visible", True) and axis.get("showticklabels", True),
        "font": {"size": font.get("size", 12), "color": font.get("color", "#444444")},
    }


def drawing(fig: go.Figure) -> dict:
    """The drawing data of a board figure (JSON-ready; see the module's docstring).

    Raises ValueError for a figure using what the board component does not draw.
    """
    figure = fig.to_plotly_json()
    layout = figure["layout"]
    traces = [_trace(t) for t in figure["data"]]
    shapes = [_shape(s) for s in layout.get("shapes", [])]
    # the data on each axis, for an axis without a range (plotly's automatic range)
    xs = [x for t in traces for x in t["x"] if x is not None]
    xs += [s[k] for s in shapes for k in ("x0", "x1")]
    ys = [y for t in traces for y in t["y"] if y is not None]
    ys += [s[k] for s in shapes for k in ("y0", "y1")]
    margin = layout.get("margin", {})
    title = layout.get("title") or {}
    title_font = title.get("font", {})
    return {
        "width": layout.get("width", 700),  # plotly's default size
        "height": layout.get("height", 450),
        "margin": {side: margin.get(side, 80 if side in "lr" else 100) for side in "lrtb"},
        "background": layout.get("plot_bgcolor", "white"),
        "title": {
            "text": title["text"],
            "size": title_font.get("size", 17),
            "color": title_font.get("color", "#444444"),
            "pad": title.get("pad", {}).get("t", 0),
        }
        if title.get("text")
        else None,
        "x": _axis(layout.get("xaxis", {}), xs),
        "y": {
            **_axis(layout.get("yaxis", {}), ys),
            "equal": layout.get("yaxis", {}).get("scaleanchor") == "x",
        },
        "shapes": shapes,
        "traces": traces,
    }
