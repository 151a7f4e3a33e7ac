"""A game board's plotly figure as plain drawing data, for the page's light board component.

Each game describes its board as a plotly figure (its ``*_plots`` module, also drawn by
the step-through and the search panels). The game page does not hand that figure to
plotly.js: the 4.7 MB chart library is most of a first visit's wait for the board. It
draws it with :mod:`lib.ui.components.game_board` (a small SVG component) from what
:func:`drawing` keeps of the figure: its shapes, its scatter traces (lines, markers,
text), the axes' ranges and tick labels, the title and the size.

Everything per point is spelled out here (a scalar style is repeated, a numeric marker
colour is looked up in its colour scale, plotly's defaults are filled in: the size, an
axis's range from the data), so the component only draws. A figure using anything else
(another trace type or marker symbol, an annotation, a reversed automatic range...) is
refused with ``ValueError`` naming it: a new game's board then fails its tests, rather
than being drawn wrong in the browser.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go
from plotly.colors import sample_colorscale

# what a board may use; plotly-only settings (hover, drag, legend, the template) are ignored
LAYOUT_KEYS = {"width", "height", "margin", "plot_bgcolor", "title", "xaxis", "yaxis", "shapes"}
LAYOUT_IGNORED = {"template", "showlegend", "dragmode", "clickmode", "hovermode"}
AXIS_KEYS = {
    "range", "tickvals", "ticktext", "side", "tickfont", "visible", "showticklabels",
    "scaleanchor", "showgrid", "zeroline", "fixedrange", "constrain",
}  # fmt: skip
TRACE_KEYS = {
    "type", "mode", "x", "y", "name", "opacity", "line", "fill", "fillcolor", "marker",
    "text", "textfont", "textposition", "hoverinfo", "hovertext", "customdata",
    "showlegend", "visible",
}  # fmt: skip
MARKER_KEYS = {"size", "symbol", "color", "colorscale", "cmin", "cmax", "opacity", "line"}
TEXTFONT_KEYS = {"size", "color", "weight", "shadow"}
SHAPE_KEYS = {"type", "x0", "x1", "y0", "y1", "fillcolor", "line", "opacity", "layer"}
MODES = {"lines", "markers", "text", "markers+text", "lines+markers"}
SHAPES = {"rect", "circle"}
SYMBOLS = {"circle", "square"}
DASHES = {"solid", "dot", "dash", "longdash", "dashdot", "longdashdot"}
OUTLINE = "#000000"
"""The outline drawn round text that has a shadow in the figure (checkers' square numbers)."""


def _known(where: str, given: dict, known: set[str]) -> None:
    unknown = sorted(set(given) - known)
    if unknown:
        raise ValueError(f"{where}: {', '.join(unknown)} cannot be drawn on a game board")


def _plain(value: Any) -> Any:
    """``value`` with plotly's typed arrays (``{"dtype", "bdata"}``) and numpy made lists."""
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        if "shape" in value:
            array = array.reshape([int(n) for n in str(value["shape"]).split(",")])
        return array.tolist()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value


def _per_point(value: Any, count: int, default: Any) -> list:
    """``value`` for each of ``count`` points (a scalar repeated, a list as it is)."""
    value = _plain(value)
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
    name = trace.get("name", "")
    where = f"trace {name!r}"
    _known(where, trace, TRACE_KEYS)
    if trace.get("type", "scatter") != "scatter":
        raise ValueError(f"{where}: a trace of type {trace.get('type')!r} cannot be drawn")
    xs, ys = list(_plain(trace.get("x", []))), list(_plain(trace.get("y", [])))
    count = len(xs)
    if len(ys) != count:
        raise ValueError(f"{where}: {count} x values and {len(ys)} y values")
    mode = trace.get("mode") or ("lines+markers" if count < 20 else "lines")  # plotly's
    if mode not in MODES:
        raise ValueError(f"{where}: mode {mode!r} cannot be drawn")
    if trace.get("fill") not in (None, "none", "toself"):
        raise ValueError(f"{where}: fill {trace['fill']!r} cannot be drawn")
    if trace.get("textposition", "middle center") != "middle center":
        raise ValueError(f"{where}: text position {trace['textposition']!r} cannot be drawn")
    marker = trace.get("marker", {})
    _known(f"{where}'s marker", marker, MARKER_KEYS)
    textfont = trace.get("textfont", {})
    _known(f"{where}'s text", textfont, TEXTFONT_KEYS)
    line = trace.get("line", {})
    if line.get("dash", "solid") not in DASHES:
        raise ValueError(f"{where}: dash {line['dash']!r} cannot be drawn")
    symbols = _per_point(marker.get("symbol"), count, "circle")
    if set(symbols) - SYMBOLS:
        raise ValueError(
            f"{where}: marker symbols {sorted(set(symbols) - SYMBOLS)} cannot be drawn"
        )
    hover = None
    if trace.get("hoverinfo") != "skip":
        hover = [str(h) for h in _per_point(trace.get("hovertext", trace.get("text")), count, "")]
    customdata = _plain(trace.get("customdata"))
    if customdata is not None:
        customdata = [list(c) if isinstance(c, Sequence) else [c] for c in customdata]
        if len(customdata) != count:
            raise ValueError(f"{where}: {len(customdata)} click targets for {count} points")
    shadow = textfont.get("shadow")
    return {
        "name": name,
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
            "symbol": symbols,
            "color": _colours(marker, count, "#1f77b4"),
            "stroke": _per_point(marker.get("line", {}).get("color"), count, "rgba(0,0,0,0)"),
            "strokeWidth": marker.get("line", {}).get("width", 0),
            "opacity": marker.get("opacity", 1),
        },
        "text": [str(t) for t in _per_point(trace.get("text"), count, "")],
        "font": {
            "size": textfont.get("size", 12),
            "color": _per_point(textfont.get("color"), count, "#444444"),
            "weight": textfont.get("weight", "normal"),
            "outline": OUTLINE if shadow not in (None, "", "none") else None,
        },
        "hover": hover,
        "customdata": customdata,
    }


def _shape(shape: dict) -> dict:
    _known("a shape", shape, SHAPE_KEYS)
    if shape.get("type") not in SHAPES:
        raise ValueError(f"a shape of type {shape.get('type')!r} cannot be drawn on a game board")
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


def _axis(name: str, axis: dict, values: list[float]) -> dict:
    _known(f"the {name} axis", axis, AXIS_KEYS)
    tickvals = list(_plain(axis.get("tickvals", [])))
    ticktext = list(_plain(axis.get("ticktext", tickvals)))
    font = axis.get("tickfont", {})
    return {
        "range": list(axis["range"]) if axis.get("range") else _auto_range(values),
        "ticks": [[value, str(text)] for value, text in zip(tickvals, ticktext, strict=True)],
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
    _known("the layout", layout, LAYOUT_KEYS | LAYOUT_IGNORED)
    traces = [_trace(t) for t in figure["data"] if t.get("visible", True) is True]
    shapes = [_shape(s) for s in layout.get("shapes", [])]
    # the data on each axis, for an axis without a range (plotly's automatic range)
    xs = [x for t in traces for x in t["x"] if x is not None]
    xs += [s[k] for s in shapes for k in ("x0", "x1")]
    ys = [y for t in traces for y in t["y"] if y is not None]
    ys += [s[k] for s in shapes for k in ("y0", "y1")]
    margin = layout.get("margin", {})
    title = layout.get("title") or {}
    title_font = title.get("font", {})
    yaxis = layout.get("yaxis", {})
    return {
        "width": layout.get("width", 700),  # plotly's default size and margins
        "height": layout.get("height", 450),
        "margin": {side: margin.get(side, 80 if side != "t" else 100) for side in "lrtb"},
        "background": layout.get("plot_bgcolor", "white"),
        "title": {
            "text": title["text"],
            "size": title_font.get("size", 17),
            "color": title_font.get("color", "#444444"),
            "pad": title.get("pad", {}).get("t", 0),
        }
        if title.get("text")
        else None,
        "x": _axis("x", layout.get("xaxis", {}), xs),
        "y": {**_axis("y", yaxis, ys), "equal": yaxis.get("scaleanchor") == "x"},
        "shapes": shapes,
        "traces": traces,
    }
