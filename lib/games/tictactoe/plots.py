"""Plotly figure of a tic-tac-toe position, built on the generic grid board of
:mod:`lib.games.drawing.figures`.

Each square is a click target with ``customdata = [row, col]`` (row 0 at the
top), the same coordinates as :func:`lib.games.tictactoe.square`.
"""

from __future__ import annotations

from collections.abc import Mapping

import plotly.graph_objects as go

from lib.games import tictactoe
from lib.games.drawing.figures import (
    FULL_LABEL_CELL_PX,
    Piece,
    grid_board_figure,
    score_colours,
    score_labels,
    score_words,
)

BOARD = "#eceff1"
LEGAL_DOT = "#546e7a"
"""The dot on an empty square: 4.7:1 on :data:`BOARD` (the shared boards' translucent white
dot, made for dark squares, was invisible on this light one)."""
DOT_RADIUS = 0.09
"""Radius of the shared boards' legal-move dot, in squares."""
MARKS = {
    tictactoe.CROSS: ("#c62828", "#7f0000", "X"),  # fill, outline, letter
    tictactoe.NOUGHT: ("#1565c0", "#0d2c5e", "O"),
}


def tictactoe_figure(
    state: tictactoe.TicTacToeState,
    *,
    last_move: int | None = None,
    scores: Mapping[int, float] | None = None,
    bounds: Mapping[int, str] | None = None,
    show_legal: bool = True,
    marked: int | None = None,
    title: str | None = None,
    pixels: int = 360,
) -> go.Figure:
    """The 3x3 board: X and O marks, the last move ringed red, a completed line ringed
    orange, move scores as a heat map on the empty squares, ``marked`` (a hint) outlined."""
    pieces = []
    for row in range(tictactoe.SIZE):
        for col in range(tictactoe.SIZE):
            owner = state.cell(row, col)
            if owner is not None:
                fill, line, letter = MARKS[owner]
                pieces.append(Piece(row, col, fill, line, letter, "#ffffff"))
    scores = dict(scores or {})
    legal = []
    if show_legal:
        legal = [divmod(m, tictactoe.SIZE) for m in state.legal_moves() if m not in scores]
    heat = heat_text = None
    if scores:
        colours = score_colours(scores)
        labels = score_labels(scores, bounds, compact=pixels / 3 < FULL_LABEL_CELL_PX)
        heat = {divmod(m, 3): colours[m] for m in scores}
        heat_text = {divmod(m, 3): labels[m] for m in scores}
    hover = {}
    for row in range(tictactoe.SIZE):
        for col in range(tictactoe.SIZE):
            move = tictactoe.square(row, col)
            owner = state.cell(row, col)
            what = "empty" if owner is None else tictactoe.PLAYER_NAMES[owner]
            if move in scores:
                what += f", score {score_words(scores[move], (bounds or {}).get(move, 'exact'))}"
            hover[(row, col)] = f"{tictactoe.format_move(move)} ({move + 1}): {what}"
    fig = grid_board_figure(
        tictactoe.SIZE,
        tictactoe.SIZE,
        pieces=pieces,
        legal=legal,
        last=[] if last_move is None else [divmod(last_move, 3)],
        changed=[divmod(s, 3) for s in tictactoe.squares_of(state.winning_line())],
        selected=[] if marked is None else [divmod(marked, 3)],
        heat=heat,
        heat_text=heat_text,
        hover=hover,
        light=BOARD,
        column_names=tictactoe.COLUMNS,
        title=title,
        pixels=pixels,
    )
    return _darken_dots(fig, legal)


def _darken_dots(fig: go.Figure, legal: list[tuple[int, int]]) -> go.Figure:
    """Draw the legal-move dots of ``legal`` squares in :data:`LEGAL_DOT`."""
    centres = {(float(col), float(row)) for row, col in legal}
    for shape in fig.layout.shapes:
        centre = ((shape.x0 + shape.x1) / 2, (shape.y0 + shape.y1) / 2)
        if (
            shape.type == "circle"
            and abs(shape.x1 - shape.x0 - 2 * DOT_RADIUS) < 1e-9
            and centre in centres
        ):
            shape.fillcolor = LEGAL_DOT
    return fig
