"""Plotly figures for the game pages: grid boards with a move-score heat map, search trees,
per-move score bars. Plain functions: data in, ``go.Figure`` out.

The board figure is generic over grid games (:func:`grid_board_figure`): a game
describes its pieces, marked squares and scores, and gets a figure with one
clickable marker per square (``customdata = [row, col]``, x = column, y = row,
row 0 at the top), which the page turns into a move. :func:`othello_figure`
is the Othello wrapper.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass

import plotly.graph_objects as go
from plotly.colors import sample_colorscale

from lib.charts import MIN_FONT, TEXT_COLOR, TITLE_FONT, readable
from lib.games.search.fast import TreeNode
from lib.games.search.values import is_win_value

Square = tuple[int, int]

BOARD_GREEN = "#2e7d4f"
GRID_LINE = "#14482b"
SCORE_SCALE = "RdYlGn"
FULL_LABEL_CELL_PX = 58
"""Board squares narrower than this (in pixels) get compact score labels (``"≤-0.2"``):
a full label such as ``"≤-0.181"`` is about 53 px wide in bold 14 px type."""


def board_title(title: str | None) -> dict | None:
    """A board figure's title: chart-sized, at the top like the titles of the charts beside it."""
    if not title:
        return None
    return {
        "text": title,
        "font": {"size": TITLE_FONT, "color": TEXT_COLOR},
        "yref": "container",
        "y": 1,
        "yanchor": "top",
        "pad": {"t": 12},
    }


@dataclass(frozen=True)
class Piece:
    """A piece drawn on a square: fill and outline colours, an optional text (e.g. "K")."""

    row: int
    col: int
    fill: str
    line: str = "#222222"
    text: str = ""
    text_colour: str = "#d4a017"


def compact_number(value: float) -> str:
    """A signed score in at most five characters, for small badges.

    ``"+124"``, ``"-12"`` (whole numbers from 10), ``"+2.5"``, ``"+0.04"``
    (two decimals below 1), ``"+12k"``, ``"-3M"``; ``"≈0"`` for a value that
    rounds to zero. The exact value belongs in the hover text.

    >>> [compact_number(v) for v in (0.0429, -124.4, 2.5, 2.0, 12_345, -0.001)]
    ['+0.04', '-124', '+2.5', '+2', '+12k', '≈0']
    """
    sign = "-" if value < 0 else "+"
    size = abs(value)
    if size >= 9.95:
        for scale, suffix in ((1, ""), (1e3, "k"), (1e6, "M"), (1e9, "G")):
            if round(size / scale) < 1000 or suffix == "G":
                return f"{sign}{round(size / scale)}{suffix}"
    if size >= 0.995:
        return f"{sign}{round(size, 1):g}"
    if round(size, 2) == 0:
        return "≈0"
    return sign + f"{size:.2f}".rstrip("0")


def score_labels(
    scores: Mapping[Hashable, float],
    bounds: Mapping[Hashable, str] | None = None,
    *,
    compact: bool = False,
) -> dict[Hashable, str]:
    """Short text for each move score: ``"+0.42"``, ``"≤1.3"`` (an alpha-beta bound), ``"WIN"``.

    ``compact=True`` writes the numbers with :func:`compact_number` and,
    after a bound sign, without ``+`` (``"≥81"``) and with one decimal less
    where needed (``"≤-0.1"``), in the same notation as the full labels: five
    characters at most, for small badges.
    """
    labels = {}
    for move, value in scores.items():
        bound = (bounds or {}).get(move, "exact")
        prefix = {"upper": "≤", "lower": "≥"}.get(bound, "")
        if is_win_value(value):
            text = "WIN" if value > 0 else "LOSS"
        elif value == 0:
            text = "0"
        elif compact:
            text = compact_number(value)
            if prefix:  # "≤0.04", "≤-0.1", "≥81": five characters at most
                text = "0" if text == "≈0" else text.removeprefix("+")
                if len(text) > 4:  # one decimal less, never a dropped leading zero
                    text = f"{value:.1f}".removeprefix("+")
                    text = "0" if float(text) == 0 else text
        else:
            text = f"{value:+.3g}"
        labels[move] = prefix + text
    return labels


def score_words(value: float, bound: str = "exact") -> str:
    """A search score as a student reads it: ``a forced win``, ``+0.42``, ``at most -3``.

    A forced result (:func:`~lib.games.search.values.is_win_value`) is said in words,
    never as its raw ±1e6 score; ``bound`` (``"upper"``/``"lower"``, an alpha-beta
    bound) reads "at most" / "at least".

    >>> score_words(1_000_002.0), score_words(-0.5, "upper")
    ('a forced win', 'at most -0.5')
    """
    if is_win_value(value):
        text = "a forced win" if value > 0 else "a forced loss"
    else:
        text = "0" if value == 0 else f"{value:+.4g}"
    return {"upper": "at most ", "lower": "at least "}.get(bound, "") + text


def score_colours(scores: Mapping[Hashable, float]) -> dict[Hashable, float]:
    """Scores mapped to [-1, 1] for colouring, relative to each other.

    Forced wins are +1 and forced losses -1; the other scores spread over
    [-0.8, 0.8] from the worst to the best (all 0 when they are equal), so the
    best move is the greenest whatever the heuristic's scale.
    """
    plain = [v for v in scores.values() if not is_win_value(v)]
    low, high = min(plain, default=0.0), max(plain, default=0.0)
    colours = {}
    for move, value in scores.items():
        if is_win_value(value):
            colours[move] = 1.0 if value > 0 else -1.0
        elif high > low:
            colours[move] = -0.8 + 1.6 * (value - low) / (high - low)
        else:
            colours[move] = 0.0
    return colours


def _circle(row: float, col: float, radius: float, **style) -> dict:
    return {
        "type": "circle",
        "x0": col - radius,
        "x1": col + radius,
        "y0": row - radius,
        "y1": row + radius,
        **style,
    }


def _square_tile(row: float, col: float, half: float, **style) -> dict:
    """A square shape of half-side ``half`` centred on a square, drawn under the traces."""
    return {
        "type": "rect",
        "x0": col - half,
        "x1": col + half,
        "y0": row - half,
        "y1": row + half,
        **style,
        "layer": "below",
    }


def _board_square_shapes(rows: int, cols: int, light: str, dark: str | None) -> list[dict]:
    """The board's squares, ``dark`` on alternate squares when given."""
    shapes = []
    for r in range(rows):
        for c in range(cols):
            colour = dark if dark is not None and (r + c) % 2 == 1 else light
            shapes.append(
                _square_tile(r, c, 0.5, fillcolor=colour, line={"color": GRID_LINE, "width": 1})
            )
    return shapes


def _heat_colours(heat: Mapping[Square, float]) -> dict[Square, str]:
    """Each scored square's colour on :data:`SCORE_SCALE` (heat -1 red to +1 green)."""
    colours = sample_colorscale(SCORE_SCALE, [(v + 1) / 2 for v in heat.values()])
    return dict(zip(heat, colours, strict=True))


def _heat_tile_shapes(heat_colours: Mapping[Square, str]) -> list[dict]:
    """A tile in its heat colour on each scored square, inside the grid lines."""
    return [
        _square_tile(r, c, 0.46, fillcolor=colour, opacity=0.9, line={"width": 0})
        for (r, c), colour in heat_colours.items()
    ]


def _piece_shapes(pieces: Sequence[Piece]) -> list[dict]:
    """A disc for each piece."""
    return [
        _circle(
            piece.row,
            piece.col,
            0.4,
            fillcolor=piece.fill,
            line={"color": piece.line, "width": 2},
            layer="below",
        )
        for piece in pieces
    ]


def _badge_shapes(heat_colours: Mapping[Square, str], occupied: set[Square]) -> list[dict]:
    """A badge in the heat colour under the score label of each scored square holding a piece."""
    return [
        {
            "type": "rect",
            "x0": c - 0.46,
            "x1": c + 0.46,
            "y0": r + 0.08,
            "y1": r + 0.44,
            "fillcolor": colour,
            "line": {"color": "#111111", "width": 1},
            "layer": "below",
        }
        for (r, c), colour in heat_colours.items()
        if (r, c) in occupied
    ]


def _square_mark_shapes(
    legal: Sequence[Square],
    changed: Sequence[Square],
    last: Sequence[Square],
    selected: Sequence[Square],
) -> list[dict]:
    """Legal-move dots, orange rings on changed squares, red on the last move, blue outlines."""
    shapes = [
        _circle(r, c, 0.09, fillcolor="rgba(255,255,255,0.6)", line={"width": 0}, layer="below")
        for r, c in legal
    ]
    for squares, colour in ((changed, "#ff9800"), (last, "#e53935")):
        for r, c in squares:
            shapes.append(_circle(r, c, 0.44, line={"color": colour, "width": 4}, layer="below"))
    shapes += [_square_tile(r, c, 0.47, line={"color": "#1e88e5", "width": 4}) for r, c in selected]
    return shapes


def _piece_label_trace(
    texts: Sequence[Piece], heat: Mapping[Square, float] | None, cell: float
) -> go.Scatter:
    """The pieces' letters (e.g. "K"), raised on a scored square to clear its score badge."""
    return go.Scatter(
        x=[p.col for p in texts],
        y=[p.row - (0.14 if heat and (p.row, p.col) in heat else 0.0) for p in texts],
        mode="text",
        text=[p.text for p in texts],
        textfont={
            "color": [p.text_colour for p in texts],
            "size": max(MIN_FONT, cell * 0.3),
        },
        hoverinfo="skip",
        name="piece labels",
    )


def _score_label_trace(
    heat_text: Mapping[Square, str],
    heat: Mapping[Square, float] | None,
    occupied: set[Square],
    cell: float,
) -> go.Scatter:
    """The score labels: mid-square, or on the badge in the lower part of an occupied square."""
    squares = list(heat_text)
    values = [(heat or {}).get(sq, 0.0) for sq in squares]
    return go.Scatter(
        x=[c for _, c in squares],
        y=[r + (0.26 if (r, c) in occupied else 0.0) for r, c in squares],
        mode="text",
        text=[heat_text[s] for s in squares],
        textfont={
            "size": max(MIN_FONT, cell * 0.22),
            "color": ["#ffffff" if abs(v) > 0.6 else "#111111" for v in values],
            "weight": "bold",
        },
        hoverinfo="skip",
        name="score labels",
    )


def _click_target_trace(
    rows: int, cols: int, cell: float, hover: Mapping[Square, str], column_names: str
) -> go.Scatter:
    """The "squares" trace: one invisible marker per square with ``customdata=[row, col]``."""
    all_squares = [(r, c) for r in range(rows) for c in range(cols)]
    return go.Scatter(
        x=[c for _, c in all_squares],
        y=[r for r, _ in all_squares],
        customdata=[[r, c] for r, c in all_squares],
        mode="markers",
        marker={"symbol": "square", "size": cell * 0.9, "color": "rgba(255,255,255,0.01)"},
        hovertext=[hover.get((r, c), f"{column_names[c]}{r + 1}") for r, c in all_squares],
        hoverinfo="text",
        name="squares",
        showlegend=False,
    )


def _lay_out_board(
    fig: go.Figure,
    shapes: list[dict],
    rows: int,
    cols: int,
    column_names: str,
    title: str | None,
    pixels: int,
) -> None:
    """Draw ``shapes``; size the board, name its columns on top and its rows on the left."""
    fig.update_layout(
        shapes=shapes,
        width=pixels + 40,
        # an 18 px title needs 42 px above the column letters
        height=pixels + 40 + (42 if title else 0),
        margin={"l": 30, "r": 10, "t": 72 if title else 30, "b": 10},
        showlegend=False,
        plot_bgcolor="white",
        title=board_title(title),
        dragmode=False,
        clickmode="event+select",
    )
    fig.update_xaxes(
        range=[-0.5, cols - 0.5],
        tickvals=list(range(cols)),
        ticktext=list(column_names[:cols]),
        side="top",
        tickfont={"size": MIN_FONT, "color": TEXT_COLOR},
        showgrid=False,
        zeroline=False,
        fixedrange=True,
        constrain="domain",
    )
    fig.update_yaxes(
        range=[rows - 0.5, -0.5],
        tickvals=list(range(rows)),
        ticktext=[str(r + 1) for r in range(rows)],
        tickfont={"size": MIN_FONT, "color": TEXT_COLOR},
        showgrid=False,
        zeroline=False,
        fixedrange=True,
        scaleanchor="x",
        constrain="domain",
    )


def grid_board_figure(
    rows: int,
    cols: int,
    *,
    pieces: Sequence[Piece] = (),
    legal: Sequence[Square] = (),
    last: Sequence[Square] = (),
    changed: Sequence[Square] = (),
    selected: Sequence[Square] = (),
    heat: Mapping[Square, float] | None = None,
    heat_text: Mapping[Square, str] | None = None,
    hover: Mapping[Square, str] | None = None,
    light: str = BOARD_GREEN,
    dark: str | None = None,
    column_names: str = "abcdefghijklmnopqrstuvwxyz",
    title: str | None = None,
    pixels: int = 520,
) -> go.Figure:
    """A clickable square board, drawn in board coordinates so it scales with its container.

    x is the column, y the row (row 0 at the top). ``legal`` squares get a
    small dot, ``last`` a red ring, ``changed`` (e.g. flipped discs) an orange
    ring, ``selected`` a blue outline. ``heat`` maps squares to values in
    [-1, 1] drawn as coloured tiles (red bad, green good) with ``heat_text``
    labels (at least :data:`MIN_FONT` px, drawn above the pieces: on a square
    holding a piece the label sits on a badge in the lower part of the square,
    so the piece stays visible). ``dark`` colours alternate squares (checkers). The last trace,
    named ``"squares"``, holds one invisible marker per square with
    ``customdata=[row, col]``: the click target (see :func:`square_from_point`).
    """
    occupied = {(p.row, p.col) for p in pieces}
    heat_colours = _heat_colours(heat) if heat else {}
    # Every shape is layer="below" (drawn in order, under all traces), so the text
    # traces (score labels, piece letters, square numbers) are drawn on top of the discs.
    shapes = [
        *_board_square_shapes(rows, cols, light, dark),
        *_heat_tile_shapes(heat_colours),
        *_piece_shapes(pieces),
        *_badge_shapes(heat_colours, occupied),
        *_square_mark_shapes(legal, changed, last, selected),
    ]
    cell = pixels / max(rows, cols)
    fig = go.Figure()
    texts = [p for p in pieces if p.text]
    if texts:
        fig.add_trace(_piece_label_trace(texts, heat, cell))
    if heat_text:
        fig.add_trace(_score_label_trace(heat_text, heat, occupied, cell))
    fig.add_trace(_click_target_trace(rows, cols, cell, hover or {}, column_names))
    _lay_out_board(fig, shapes, rows, cols, column_names, title, pixels)
    return fig


def square_from_point(point: Mapping) -> Square | None:
    """The (row, col) of a clicked plotly point of :func:`grid_board_figure`, or None."""
    data = point.get("customdata")
    if isinstance(data, Sequence) and len(data) == 2:
        try:
            return int(data[0]), int(data[1])
        except (TypeError, ValueError, OverflowError):  # e.g. int(inf) from a forged click
            return None
    x, y = point.get("x"), point.get("y")
    if isinstance(x, int | float) and isinstance(y, int | float):
        return round(y), round(x)
    return None


def _score_bars(
    items: list[tuple[Hashable, float]], bounds: Mapping[Hashable, str], cap: float
) -> tuple[list[float], list[str]]:
    """Each move's bar length and its text: the value itself, or for a forced win or loss
    the length ``cap`` and the words (``≤``/``≥`` for an alpha-beta bound)."""
    labels = score_labels(dict(items), bounds)
    lengths, texts = [], []
    for move, value in items:
        if is_win_value(value):
            lengths.append(cap if value > 0 else -cap)
            prefix = {"upper": "≤ ", "lower": "≥ "}.get(bounds.get(move, "exact"), "")
            texts.append(prefix + ("forced win" if value > 0 else "forced loss"))
        else:
            lengths.append(value)
            texts.append(labels[move])
    return lengths, texts


def _score_hover(value: float, bounds: Mapping[Hashable, str], move: Hashable) -> str:
    """A move's value in words for its bar's hover: exact, a bound, or beyond a heuristic."""
    bound = bounds.get(move, "exact")
    words = score_words(value, bound)
    if bound in ("upper", "lower"):
        words += " (alpha-beta bound)"
    elif not is_win_value(value):
        words = "exactly " + words
    if is_win_value(value):
        words += " (beyond any heuristic value)"
    return words


def root_scores_figure(
    scores: Mapping[Hashable, float],
    format_move: Callable[[Hashable], str],
    bounds: Mapping[Hashable, str] | None = None,
    chosen: Hashable | None = None,
    *,
    title: str = "Score of each move",
    axis_title: str = "score for the side to move (search value)",
    texts: Mapping[Hashable, str] | None = None,
    hover: Mapping[Hashable, str] | None = None,
) -> go.Figure:
    """Horizontal bars of each root move's real score (best on top).

    The bar length is the search value itself. Forced wins and losses (values
    beyond the heuristic's range) are drawn at a capped length, 1.25 times the
    largest ordinary score, and labelled "forced win" / "forced loss"; alpha-beta
    bounds are hatched and labelled ``≤``. Hovering gives the exact value.

    Other per-move numbers (MCTS visit counts) reuse the chart with their own
    ``title``, ``axis_title``, bar ``texts`` and ``hover`` texts (move -> text).
    """
    items = sorted(scores.items(), key=lambda kv: kv[1])
    bounds = bounds or {}
    colours = score_colours(dict(items))
    plain = [abs(v) for _, v in items if not is_win_value(v)]
    cap = 1.25 * max(plain, default=0.0) or 1.0
    lengths, bar_texts = _score_bars(items, bounds, cap)
    if texts is not None:
        bar_texts = [texts.get(m, text) for (m, _), text in zip(items, bar_texts, strict=True)]
    names = [format_move(m) + (" ◀" if m == chosen else "") for m, _ in items]
    hover_texts = [
        (hover or {}).get(move) or f"{format_move(move)}: {_score_hover(value, bounds, move)}"
        for move, value in items
    ]
    fig = go.Figure(
        go.Bar(
            x=lengths,
            y=names,
            orientation="h",
            text=bar_texts,
            textposition="outside",
            textfont={"size": MIN_FONT},
            cliponaxis=False,
            marker={
                "color": [colours[m] for m, _ in items],
                "colorscale": SCORE_SCALE,
                "cmin": -1,
                "cmax": 1,
                "line": {"color": "#555555", "width": 1},
                "pattern": {
                    "shape": ["/" if bounds.get(m, "exact") != "exact" else "" for m, _ in items]
                },
            },
            hovertext=hover_texts,
            hoverinfo="text",
        )
    )
    # the axis covers the bars' side(s) only, with room for the labels outside the bars
    low, high = min([0.0, *lengths]), max([0.0, *lengths])
    span = (high - low) or cap
    low = low - 0.45 * span if low < 0 else -0.05 * span
    high = high + 0.45 * span if high > 0 else 0.05 * span
    fig.update_layout(
        height=max(240, 30 * len(items) + 100),
        margin={"l": 70, "r": 30, "t": 40, "b": 50},
        xaxis={
            "title": axis_title,
            "range": [low, high],
            "zeroline": True,
            "zerolinecolor": "#444444",
            "zerolinewidth": 2,
            "tickfont": {"size": MIN_FONT},
        },
        # categories: move names such as checkers' "15-11" must never be read as dates
        yaxis={"tickfont": {"size": MIN_FONT}, "type": "category"},
        title=title,  # short: a half-width chart; hatched bars are explained
        # by the page (and each bar's hover)
    )
    return readable(fig)


def _tree_layout(tree: Sequence[TreeNode]) -> dict[int, tuple[float, int]]:
    """x (leaf order, parents centred over children) and y (ply) for each node."""
    children: dict[int, list[int]] = {node.id: [] for node in tree}
    for node in tree:
        if node.parent is not None:
            children[node.parent].append(node.id)
    position: dict[int, tuple[float, int]] = {}
    next_leaf = 0.0
    stack: list[tuple[int, bool]] = [(tree[0].id, False)]
    while stack:
        node_id, done = stack.pop()
        kids = children[node_id]
        if not kids:
            position[node_id] = (next_leaf, tree[node_id].ply)
            next_leaf += 1
        elif done:
            xs = [position[k][0] for k in kids]
            position[node_id] = ((min(xs) + max(xs)) / 2, tree[node_id].ply)
        else:
            stack.append((node_id, True))
            stack.extend((k, False) for k in reversed(kids))
    return position


TREE_COLOURS = {
    "inner": "#1565c0",
    "leaf": "#2e7d32",
    "terminal": "#6a1b9a",
    "table": "#ef6c00",
    "pruned": "#bdbdbd",
}


TREE_PLOT_PIXELS = 470
"""Width of the search tree's plot area on the narrowest screen aimed at (1024 px, sidebar
open): inner-node values are drawn only where they fit at that width."""
CHAR_PIXELS = 6.5
"""Width of one character of a tree value label (digits and signs at MIN_FONT, measured in
Chromium: "≥1.8" is 26 px wide)."""


def inner_labels_that_fit(
    position: Mapping[int, tuple[float, int]],
    labels: Mapping[int, str],
    *,
    plot_pixels: float = TREE_PLOT_PIXELS,
) -> set[int]:
    """The ids of the inner nodes whose value label (drawn to their right) fits.

    A label fits when the next node drawn on the same ply (any node: its marker is in
    the way) is further right than the label is wide, at ``plot_pixels`` for the
    whole width of the tree; the rightmost node of a ply always has room. Hidden
    values stay in the hover.
    """
    xs = [x for x, _ in position.values()]
    pixels_per_unit = plot_pixels / max(max(xs) - min(xs) + 1, 1)
    by_ply: dict[int, list[tuple[float, int]]] = {}
    for node_id, (x, ply) in position.items():
        by_ply.setdefault(ply, []).append((x, node_id))
    fits = set()
    for row in by_ply.values():
        row.sort()
        for (x, node_id), (next_x, _) in zip(row, [*row[1:], (math.inf, -1)], strict=True):
            text = labels.get(node_id)
            # marker half-width + gap before the text, the text, then the neighbour's marker
            if text and (next_x - x) * pixels_per_unit >= 9 + CHAR_PIXELS * len(text) + 7:
                fits.add(node_id)
    return fits


EDGE_LABEL_AT = 0.6
"""Where along an edge (from the parent) its move is named."""


def edge_label_plies(
    nodes: Sequence[TreeNode],
    position: Mapping[int, tuple[float, int]],
    format_move: Callable[[Hashable], str],
    *,
    plot_pixels: float = TREE_PLOT_PIXELS,
) -> set[int]:
    """The plies whose edges can all be named without their labels running together.

    The labels of the edges into one ply sit on one line; they fit when the closest
    two are further apart than the widest label, at ``plot_pixels`` for the tree.
    """
    xs = [x for x, _ in position.values()]
    pixels_per_unit = plot_pixels / max(max(xs) - min(xs) + 1, 1)
    rows: dict[int, list[tuple[float, int]]] = {}
    for node in nodes:
        if node.parent is None:
            continue
        x0, _ = position[node.parent]
        x1, _ = position[node.id]
        width = CHAR_PIXELS * len(format_move(node.move)) + 4  # text and its white box
        rows.setdefault(node.ply, []).append((x0 + EDGE_LABEL_AT * (x1 - x0), width))
    plies = set()
    for ply, row in rows.items():
        row.sort()
        widest = max(width for _, width in row)
        gaps = [(b - a) * pixels_per_unit for (a, _), (b, _) in itertools.pairwise(row)]
        if not gaps or min(gaps) >= widest:
            plies.add(ply)
    return plies


def _tree_edge_trace(
    nodes: Sequence[TreeNode], position: Mapping[int, tuple[float, int]], *, pruned: bool
) -> go.Scatter:
    """The edges into the searched nodes (solid) or into the pruned ones (dotted grey)."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for node in nodes:
        if node.parent is None or (node.status == "pruned") != pruned:
            continue
        x0, y0 = position[node.parent]
        x1, y1 = position[node.id]
        xs += [x0, x1, None]
        ys += [y0, y1, None]
    return go.Scatter(
        x=xs,
        y=ys,
        mode="lines",
        line={
            "color": "#cfcfcf" if pruned else "#607d8b",
            "width": 1,
            "dash": "dot" if pruned else "solid",
        },
        hoverinfo="skip",
        name="pruned edges" if pruned else "edges",
    )


def _add_edge_move_labels(
    fig: go.Figure,
    nodes: Sequence[TreeNode],
    position: Mapping[int, tuple[float, int]],
    format_move: Callable[[Hashable], str],
) -> None:
    """Name the move on every edge, on a white label near the child end.

    Only on the plies where the labels fit side by side at 1024 px (long checkers
    moves may not).
    """
    named = edge_label_plies(nodes, position, format_move)
    for node in nodes:
        if node.parent is None or node.ply not in named:
            continue
        x0, y0 = position[node.parent]
        x1, y1 = position[node.id]
        fig.add_annotation(
            x=x0 + EDGE_LABEL_AT * (x1 - x0),
            y=y0 + EDGE_LABEL_AT * (y1 - y0),
            text=format_move(node.move),
            showarrow=False,
            font={
                "size": MIN_FONT,
                "color": "#9e9e9e" if node.status == "pruned" else "#263238",
            },
            bgcolor="rgba(255,255,255,0.9)",
            borderpad=1,
        )


def _tree_value_label(node: TreeNode) -> str:
    """A node's value as drawn beside it: compact, ``≤``/``≥`` for a bound, W/L for a forced result.

    The exact value is in the hover; compact labels keep neighbours' labels apart.
    """
    if node.value is None:
        return ""
    if is_win_value(node.value):
        return "W" if node.value > 0 else "L"
    text = "0" if node.value == 0 else compact_number(node.value).removeprefix("+")
    return {"upper": "≤", "lower": "≥"}.get(node.bound, "") + text


def _window_text(value: float) -> str:
    """An alpha or beta as text: ``-12``, ``+∞``, ``win``/``loss`` (a forced result's score)."""
    if math.isinf(value):
        return "+∞" if value > 0 else "−∞"
    if is_win_value(value):
        return "win" if value > 0 else "loss"
    return f"{value:.4g}"


def _tree_node_hover(node: TreeNode, moves: str) -> str:
    """A node's hover: the moves to it, its status and kind, its value and alpha-beta window."""
    return (
        f"{moves}<br>{node.status}, {'max' if node.maximizing else 'min'} node"
        + (
            f"<br>value {score_words(node.value, node.bound)} ({node.bound})"
            if node.value is not None
            else ""
        )
        + (
            f"<br>α={_window_text(node.alpha)}, β={_window_text(node.beta)}"
            if math.isfinite(node.alpha) or math.isfinite(node.beta)
            else ""
        )
    )


def _tree_node_trace(
    status: str,
    group: Sequence[TreeNode],
    position: Mapping[int, tuple[float, int]],
    *,
    labels: Sequence[str],
    hovers: Sequence[str],
    with_text: bool,
    marker_size: int,
) -> go.Scatter:
    """The nodes of one status in its colour: ▲ max, ▼ min, with their value ``labels``."""
    colour = TREE_COLOURS[status]
    return go.Scatter(
        x=[position[n.id][0] for n in group],
        y=[position[n.id][1] for n in group],
        mode="markers+text" if with_text else "markers",
        marker={
            "symbol": ["triangle-up" if n.maximizing else "triangle-down" for n in group],
            "size": marker_size,
            "color": colour,
        },
        text=labels,
        # leaves: value under the node (nothing hangs below it); inner nodes: to the
        # right, clear of the edges to the parent above and the children below
        textposition="bottom center" if status != "inner" else "middle right",
        textfont={"size": MIN_FONT, "color": colour if status != "pruned" else "#757575"},
        hovertext=hovers,
        hoverinfo="text",
        name=status,
    )


def _tree_node_traces(
    nodes: Sequence[TreeNode],
    position: Mapping[int, tuple[float, int]],
    format_move: Callable[[Hashable], str],
    *,
    label_leaves: bool,
) -> list[go.Scatter]:
    """One node trace per status present, in :data:`TREE_COLOURS` order.

    Leaf values are written only with ``label_leaves``; inner values, which run to
    the right of their node, only where the next node leaves room.
    """
    by_id = {node.id: node for node in nodes}

    def moves_to(node: TreeNode) -> str:
        moves = []
        while node.parent is not None:
            moves.append(format_move(node.move))
            node = by_id[node.parent]
        return " ".join(reversed(moves)) or "root"

    inner_fits = inner_labels_that_fit(
        position, {n.id: _tree_value_label(n) for n in nodes if n.status == "inner"}
    )
    traces = []
    for status in TREE_COLOURS:
        group = [n for n in nodes if n.status == status]
        if not group:
            continue
        traces.append(
            _tree_node_trace(
                status,
                group,
                position,
                labels=[
                    _tree_value_label(n) if status != "inner" or n.id in inner_fits else ""
                    for n in group
                ],
                hovers=[_tree_node_hover(n, moves_to(n)) for n in group],
                with_text=label_leaves if status != "inner" else True,
                marker_size=14 if len(nodes) <= 200 else 8,
            )
        )
    return traces


def _lay_out_tree(fig: go.Figure, nodes: Sequence[TreeNode], visited: int) -> None:
    """Height by depth, plies down the side, and a title counting visited and pruned nodes."""
    depth = max(n.ply for n in nodes)
    fig.update_layout(
        height=240 + 130 * depth,
        margin={"l": 50, "r": 40, "t": 40, "b": 30},
        # visited nodes, as the statistics count them; pruned children were never visited
        title=f"Search tree, last iteration ({visited:,} nodes visited; grey = pruned, "
        f"{len(nodes) - visited:,} never visited)",
        legend={"orientation": "h", "y": -0.05},
        plot_bgcolor="white",
    )
    fig.update_yaxes(
        autorange="reversed", title="ply", dtick=1, showgrid=False, tickfont={"size": MIN_FONT}
    )
    fig.update_xaxes(visible=False)


def search_tree_figure(
    tree: Sequence[TreeNode],
    format_move: Callable[[Hashable], str],
    *,
    max_nodes: int = 1500,
) -> go.Figure:
    """Draw a recorded search tree: ▲ max nodes, ▼ min nodes, pruned branches in grey.

    Node text shows the value (``≤``/``≥`` for alpha-beta bounds) and each edge
    names its move while the tree is small enough for the labels to fit; hovering
    shows the move sequence, the status and the alpha-beta window.
    """
    nodes = list(tree[:max_nodes])
    visited = sum(1 for node in nodes if node.status != "pruned")
    if not nodes:
        return go.Figure()
    kept = {node.id for node in nodes}
    nodes = [n for n in nodes if n.parent is None or n.parent in kept]
    position = _tree_layout(nodes)
    # moves and leaf values are written only while they fit (inner values: where they fit)
    small = sum(1 for n in nodes if n.status in ("leaf", "terminal", "table", "pruned")) <= 24
    fig = go.Figure()
    for pruned in (False, True):
        fig.add_trace(_tree_edge_trace(nodes, position, pruned=pruned))
    if small:
        _add_edge_move_labels(fig, nodes, position, format_move)
    for trace in _tree_node_traces(nodes, position, format_move, label_leaves=small):
        fig.add_trace(trace)
    _lay_out_tree(fig, nodes, visited)
    return readable(fig)
