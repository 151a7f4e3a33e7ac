"""The pictures of a CSP search at one step: the map, the queens' board, the Sudoku grid, the zebra.

Each function takes the problem's shape (a :class:`~lib.csp.runs.TracedRun`)
and the :class:`~lib.csp.trace.SearchState` at a step, and returns a Plotly
figure (or, for the zebra puzzle, a table): assigned variables drawn in their
value, unassigned ones with what is left of their domain, the variable the
step is about ringed.
"""

from __future__ import annotations

from collections.abc import Collection

import pandas as pd
import plotly.graph_objects as go

from lib.charts import readable
from lib.csp.problems import ZEBRA_GROUPS
from lib.csp.runs import TracedRun
from lib.csp.sudoku import variable
from lib.csp.trace import Kind, SearchState

FILL = {"red": "#ef4444", "green": "#22c55e", "blue": "#3b82f6", "yellow": "#facc15"}
EMPTY = "#e5e7eb"
FOCUS = "#111827"
WIPED = "#7f1d1d"


def _focus(state: SearchState):
    return None if state.event is None else state.event.var


def map_figure(run: TracedRun, state: SearchState, height: int = 460) -> go.Figure:
    """The regions as nodes at their places, borders as lines, coloured as assigned.

    A border between two regions of the same colour (min-conflicts' conflicts) is red.
    """
    places = run.info["places"]
    fig = go.Figure()
    given = state.assignment
    for clash, colour, width in ((False, "#9ca3af", 1.5), (True, "#dc2626", 4)):
        xs, ys = [], []  # borders; in red those whose two regions have the same colour
        for a in run.variables:
            for b in run.neighbours[a]:
                same = a in given and b in given and given[a] == given[b]
                if str(a) < str(b) and same == clash:
                    xs += [places[a][0], places[b][0], None]
                    ys += [places[a][1], places[b][1], None]
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="lines",
                line={"color": colour, "width": width},
                hoverinfo="skip",
                showlegend=False,
            )
        )
    focus = _focus(state)
    colours, texts, hovers, lines = [], [], [], []
    for var in run.variables:
        left = state.domains[var]
        value = state.assignment.get(var)
        colours.append(FILL.get(value, EMPTY) if value is not None else EMPTY)
        short = "".join(str(v)[0].upper() for v in left)
        texts.append(f"{var}<br>{short}" if value is None else str(var))
        hovers.append(
            f"{var}: {value or 'unassigned'}; left: {', '.join(map(str, left)) or 'none'}"
        )
        lines.append(4 if var == focus else (3 if not left else 1))
    fig.add_trace(
        go.Scatter(
            x=[places[v][0] for v in run.variables],
            y=[places[v][1] for v in run.variables],
            mode="markers+text",
            text=texts,
            hovertext=hovers,
            hoverinfo="text",
            textfont={"size": 12},
            marker={
                "size": 34 if len(run.variables) < 20 else 26,
                "color": colours,
                "line": {
                    "width": lines,
                    "color": [FOCUS if v == focus else WIPED for v in run.variables],
                },
            },
            showlegend=False,
        )
    )
    fig.update_layout(
        height=height, margin={"l": 4, "r": 4, "t": 4, "b": 4}, plot_bgcolor="white", dragmode=False
    )
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False)  # fills the column: a map's nodes need room, not its shape
    return readable(fig)


def queens_figure(run: TracedRun, state: SearchState, height: int = 460) -> go.Figure:
    """The board: queens where assigned, squares pruned from a column's domain shaded."""
    n = run.info["n"]
    focus = _focus(state)
    shapes = []
    for c, var in enumerate(run.variables):
        left = set(state.domains[var])
        for r in range(1, n + 1):
            light = (r + c) % 2 == 0
            colour = "#f0d9b5" if light else "#b58863"
            if r not in left and var not in state.assignment:
                colour = "#fca5a5" if light else "#ef4444"  # pruned: no longer possible
            shapes.append(
                {
                    "type": "rect",
                    "x0": c,
                    "x1": c + 1,
                    "y0": r - 1,
                    "y1": r,
                    "fillcolor": colour,
                    "line": {"width": 0},
                    "layer": "below",
                }
            )
        if var == focus:
            shapes.append(
                {
                    "type": "rect",
                    "x0": c,
                    "x1": c + 1,
                    "y0": 0,
                    "y1": n,
                    "line": {"width": 3, "color": FOCUS},
                }
            )
    xs = [c + 0.5 for c, var in enumerate(run.variables) if var in state.assignment]
    ys = [state.assignment[var] - 0.5 for var in run.variables if var in state.assignment]
    fig = go.Figure(
        go.Scatter(
            x=xs,
            y=ys,
            mode="text",
            text=["♛"] * len(xs),
            textfont={"size": max(12, int(300 / n))},
            hoverinfo="skip",
            showlegend=False,
        )
    )
    fig.update_layout(
        shapes=shapes,
        height=height,
        margin={"l": 4, "r": 4, "t": 4, "b": 4},
        plot_bgcolor="white",
        dragmode=False,
    )
    fig.update_xaxes(visible=False, range=[0, n])
    fig.update_yaxes(visible=False, range=[0, n], scaleanchor="x")
    return readable(fig)


def _candidates_text(left: Collection[int]) -> str:
    """A cell's candidates left, in a 3x3 keypad of small digits (a gap for each one gone)."""
    if not left:
        return "∅"
    return "<br>".join(
        " ".join(str(d) if d in left else " " for d in range(k, k + 3)) for k in (1, 4, 7)
    )


def _sudoku_cells(grid: str, state: SearchState) -> tuple[dict[str, list], dict[str, list]]:
    """The digits (givens and assignments, with their colours) and the candidates left, as
    the text traces' columns: ``(digits, candidates)`` of ``x``, ``y``, ``text`` (and
    ``colour`` for digits)."""
    digits: dict[str, list] = {"x": [], "y": [], "text": [], "colour": []}
    candidates: dict[str, list] = {"x": [], "y": [], "text": []}
    for index in range(81):
        r, c = divmod(index, 9)
        var = variable(index)
        value = state.assignment.get(var)
        if value is not None or grid[index] != "0":
            digits["text"].append(str(value if value is not None else grid[index]))
            digits["colour"].append("#111827" if grid[index] != "0" else "#1d4ed8")
            cell = digits
        else:
            candidates["text"].append(_candidates_text(state.domains[var]))
            cell = candidates
        cell["x"].append(c + 0.5)
        cell["y"].append(8.5 - r)
    return digits, candidates


def _sudoku_shapes(focus: object) -> list[dict]:
    """The grid's lines (thick around the boxes) and the cell in focus, shaded."""
    shapes = []
    for index in range(81):
        if variable(index) == focus:
            r, c = divmod(index, 9)
            shapes.append({
                "type": "rect", "x0": c, "x1": c + 1, "y0": 8 - r, "y1": 9 - r,
                "fillcolor": "#fde68a", "line": {"width": 0}, "layer": "below",
            })  # fmt: skip
    for k in range(10):
        line = {"width": 2.5 if k % 3 == 0 else 0.5, "color": "#374151"}
        shapes.append({"type": "line", "x0": k, "x1": k, "y0": 0, "y1": 9, "line": line})
        shapes.append({"type": "line", "x0": 0, "x1": 9, "y0": k, "y1": k, "line": line})
    return shapes


def sudoku_figure(run: TracedRun, state: SearchState, height: int = 460) -> go.Figure:
    """The grid: givens in black, assigned digits in blue, the candidates left in small grey."""
    digits, candidates = _sudoku_cells(run.info["grid"], state)
    fig = go.Figure()
    for cells, font in (
        (candidates, {"size": 12, "color": "#6b7280"}),
        (digits, {"size": 24, "color": digits["colour"]}),
    ):
        fig.add_trace(
            go.Scatter(
                x=cells["x"],
                y=cells["y"],
                mode="text",
                text=cells["text"],
                textfont=font,
                hoverinfo="skip",
                showlegend=False,
            )
        )
    fig.update_layout(
        shapes=_sudoku_shapes(_focus(state)),
        height=height,
        margin={"l": 4, "r": 4, "t": 4, "b": 4},
        plot_bgcolor="white",
        dragmode=False,
    )
    fig.update_xaxes(visible=False, range=[-0.05, 9.05])
    fig.update_yaxes(visible=False, range=[-0.05, 9.05], scaleanchor="x")
    return readable(fig)


def zebra_table(run: TracedRun, state: SearchState) -> pd.DataFrame:
    """Houses 1-5 as rows, the five groups as columns: who is known to be where.

    An assigned attribute is written in its house; an unassigned one in every
    house still in its domain, with a question mark.
    """
    rows = {house: {group: [] for group in ZEBRA_GROUPS} for house in range(1, 6)}
    for group, names in ZEBRA_GROUPS.items():
        for name in names:
            if name in state.assignment:
                rows[state.assignment[name]][group].append(name)
            else:
                for house in state.domains[name]:
                    rows[house][group].append(f"{name}?")
    return pd.DataFrame(
        [
            {"house": house, **{g: ", ".join(v) for g, v in groups.items()}}
            for house, groups in rows.items()
        ]
    ).set_index("house")


def domains_table(run: TracedRun, state: SearchState) -> pd.DataFrame:
    """Every variable: its value (if assigned), how many values are left, and which."""
    return pd.DataFrame(
        [
            {
                "variable": str(var),
                "value": "" if var not in state.assignment else str(state.assignment[var]),
                "left": len(state.domains[var]),
                "domain left": " ".join(map(str, state.domains[var])),
            }
            for var in run.variables
        ]
    )


def figure(run: TracedRun, state: SearchState, height: int = 460) -> go.Figure | None:
    """The picture of ``run`` at ``state`` (None for the zebra puzzle: it is a table)."""
    draw = {"map": map_figure, "queens": queens_figure, "sudoku": sudoku_figure}.get(run.kind)
    return draw(run, state, height) if draw else None


def is_backtrack(state: SearchState) -> bool:
    """Whether the step shown is a backtrack or an undo (the page marks it)."""
    return state.event is not None and state.event.kind in (Kind.BACKTRACK, Kind.UNASSIGN)
