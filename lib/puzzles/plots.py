"""The puzzle's pictures: a clickable board, and a solution animated on the board (Plotly frames).

The board is one scatter trace of square markers, one per square, read
row by row (``customdata`` is the square's index, for clicks). A tile on its
goal square is green, any other tile blue, the blank white. The animation's
frames restyle that one trace (text and colours) move by move; its slider and
Play / Pause buttons run in the browser, with no rerun of the page.
"""

from __future__ import annotations

import plotly.graph_objects as go

from lib.charts import readable
from lib.puzzles.board import Board, apply_moves, width_of

HOME = "#15803d"  # a tile on its goal square
AWAY = "#1d4ed8"  # a tile elsewhere
BLANK = "#f8fafc"
EDGE = "#0f172a"


def _cells(board: Board) -> tuple[list[int], list[int], list[str], list[str]]:
    width = width_of(board)
    xs = [pos % width for pos in range(len(board))]
    ys = [width - 1 - pos // width for pos in range(len(board))]
    text = [str(t) if t else "" for t in board]
    colours = [BLANK if t == 0 else HOME if t == pos else AWAY for pos, t in enumerate(board)]
    return xs, ys, text, colours


def _trace(board: Board, size: int) -> go.Scatter:
    width = width_of(board)
    xs, ys, text, colours = _cells(board)
    marker_px = int(size / width * 0.86)
    return go.Scatter(
        x=xs,
        y=ys,
        mode="markers+text",
        text=text,
        customdata=list(range(len(board))),
        textfont={"size": max(18, marker_px // 3), "color": "white"},
        marker={
            "symbol": "square",
            "size": marker_px,
            "color": colours,
            "line": {"color": EDGE, "width": 2},
        },
        hovertemplate="square %{customdata}<extra></extra>",
        showlegend=False,
    )


def _layout(fig: go.Figure, board: Board, size: int, title: str | None, extra: int = 0) -> None:
    width = width_of(board)
    axis = {
        "range": [-0.5, width - 0.5],
        "showgrid": False,
        "zeroline": False,
        "showticklabels": False,
        "fixedrange": True,
    }
    fig.update_layout(
        width=size,
        height=size + extra + (30 if title else 0),
        margin={"l": 8, "r": 8, "t": 36 if title else 8, "b": 8 + extra},
        xaxis=axis,
        yaxis={**axis, "scaleanchor": "x"},
        plot_bgcolor="white",
        title=title,
        dragmode=False,
        clickmode="event+select",
    )


def board_figure(board: Board, *, size: int = 340, title: str | None = None) -> go.Figure:
    """The board, each square a marker (click a tile next to the blank to slide it)."""
    fig = go.Figure(_trace(board, size))
    _layout(fig, board, size, title)
    return readable(fig)


def solution_figure(
    board: Board, moves: str, *, size: int = 340, title: str | None = None
) -> go.Figure:
    """The solution animated: one frame per move, a slider and Play / Pause (in the browser)."""
    boards = [board]
    for move in moves:
        boards.append(apply_moves(boards[-1], move))
    fig = go.Figure(_trace(board, size))
    frames = []
    for step, b in enumerate(boards):
        _, _, text, colours = _cells(b)
        frames.append(
            go.Frame(
                name=str(step),
                data=[go.Scatter(text=text, marker={"color": colours})],
                layout={"title": {"text": _step_title(moves, step)}} if title is None else {},
            )
        )
    fig.frames = frames
    play = {"frame": {"duration": 450, "redraw": True}, "fromcurrent": True, "mode": "immediate"}
    pause = {"frame": {"duration": 0, "redraw": False}, "mode": "immediate"}
    fig.update_layout(
        updatemenus=[
            {
                "type": "buttons",
                "direction": "left",
                "x": 0.0,
                "y": -0.02,
                "xanchor": "left",
                "yanchor": "top",
                "pad": {"t": 4},
                "buttons": [
                    {"label": "▶ Play", "method": "animate", "args": [None, play]},
                    {"label": "❚❚ Pause", "method": "animate", "args": [[None], pause]},
                ],
            }
        ],
        sliders=[
            {
                "active": 0,
                "x": 0.0,
                "y": -0.12,
                "len": 1.0,
                "pad": {"t": 8},
                "currentvalue": {"prefix": "move ", "font": {"size": 14}},
                "steps": [
                    {
                        "label": str(step),
                        "method": "animate",
                        "args": [[str(step)], {"frame": {"duration": 0, "redraw": True},
                                               "mode": "immediate"}],
                    }
                    for step in range(len(boards))
                ],
            }
        ],
    )  # fmt: skip
    _layout(fig, board, size, title or _step_title(moves, 0), extra=110)
    return readable(fig)


def _step_title(moves: str, step: int) -> str:
    if step == 0:
        return f"start: {len(moves)} moves to go"
    return f"move {step} of {len(moves)}: blank {moves[step - 1]}"
