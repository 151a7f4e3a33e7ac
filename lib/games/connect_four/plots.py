"""Plotly figure of a Connect Four position, built on the generic grid board of
:mod:`lib.games.drawing.figures`.

The picture has the top row first: display ``(row, col)`` is the square in
column ``col`` at height ``ROWS - 1 - row``. Every square is a click target
(``customdata = [row, col]``); a click anywhere in a column plays that column.
Move scores are drawn on the square where each column's disc would land.
"""

from __future__ import annotations

from collections.abc import Mapping

import plotly.graph_objects as go

from lib.games import connect_four
from lib.games.connect_four import COLUMNS, ROWS
from lib.games.drawing.figures import (
    FULL_LABEL_CELL_PX,
    Piece,
    grid_board_figure,
    score_colours,
    score_labels,
    score_words,
)

BOARD = "#1e56b0"
HOLE = ("#f5f7fa", "#123a78")  # fill, outline of an empty square
LANDING_HOLE = ("#9fb4d6", "#123a78")
"""A legal column's landing square: darker, so its white legal-move dot shows."""
DISCS = {connect_four.RED: ("#d32f2f", "#7f0000"), connect_four.YELLOW: ("#fdd835", "#8d6e00")}


def display_row(height: int) -> int:
    """The picture's row (0 at the top) of a square ``height`` up from the bottom."""
    return ROWS - 1 - height


def landing_square(state: connect_four.ConnectFourState, column: int) -> tuple[int, int] | None:
    """Display ``(row, col)`` where a disc dropped into ``column`` lands (None: full)."""
    height = state.height(column)
    return None if height >= ROWS else (display_row(height), column)


def last_square(state: connect_four.ConnectFourState, column: int) -> tuple[int, int] | None:
    """Display ``(row, col)`` of the top disc of ``column`` (the last one dropped there)."""
    height = state.height(column)
    return None if height == 0 else (display_row(height - 1), column)


def connect_four_figure(
    state: connect_four.ConnectFourState,
    *,
    last_move: int | None = None,
    scores: Mapping[int, float] | None = None,
    bounds: Mapping[int, str] | None = None,
    show_legal: bool = True,
    marked: int | None = None,
    title: str | None = None,
    pixels: int = 360,
) -> go.Figure:
    """The board: red and yellow discs in white holes, the last disc ringed red, a
    completed four ringed orange, each column's move score as a heat tile on its landing
    square (legal columns without a score get a dot there), ``marked`` (a hint) outlined."""
    scores = dict(scores or {})
    landing = {column: landing_square(state, column) for column in state.legal_moves()}
    pieces = []
    for column in range(COLUMNS):
        for height in range(ROWS):
            owner = state.cell(column, height)
            square = (display_row(height), column)
            if owner is not None:
                pieces.append(Piece(*square, *DISCS[owner]))
            elif landing.get(column) != square:
                pieces.append(Piece(*square, *HOLE))
            elif column not in scores:  # a scored landing square shows its heat tile instead
                pieces.append(Piece(*square, *(LANDING_HOLE if show_legal else HOLE)))
    legal = []
    if show_legal:
        legal = [square for column, square in landing.items() if column not in scores]
    heat = heat_text = None
    scored = {column: value for column, value in scores.items() if column in landing}
    if scored:
        colours = score_colours(scored)
        cell = pixels / max(ROWS, COLUMNS)
        labels = score_labels(scored, bounds, compact=cell < FULL_LABEL_CELL_PX)
        heat = {landing[column]: colours[column] for column in scored}
        heat_text = {landing[column]: labels[column] for column in scored}
    hover = {}
    for column in range(COLUMNS):
        name = connect_four.format_move(column)
        for height in range(ROWS):
            owner = state.cell(column, height)
            what = "empty" if owner is None else connect_four.PLAYER_NAMES[owner]
            text = f"column {name}, row {height + 1} from the bottom: {what}"
            if column in scored and landing[column] == (display_row(height), column):
                text += (
                    f", score {score_words(scored[column], (bounds or {}).get(column, 'exact'))}"
                )
            hover[(display_row(height), column)] = text
    last = last_square(state, last_move) if last_move is not None else None
    selected = landing.get(marked) if marked is not None else None
    fig = grid_board_figure(
        ROWS,
        COLUMNS,
        pieces=pieces,
        legal=legal,
        last=[last] if last else [],
        changed=[(display_row(h), c) for c, h in state.winning_squares()],
        selected=[selected] if selected else [],
        heat=heat,
        heat_text=heat_text,
        hover=hover,
        light=BOARD,
        column_names=connect_four.COLUMN_NAMES,
        title=title,
        pixels=pixels,
    )
    # rows are counted from the bottom, as the discs stack
    fig.update_yaxes(ticktext=[str(ROWS - row) for row in range(ROWS)])
    return fig
