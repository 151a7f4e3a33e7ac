"""Plotly figure of a checkers position, on the grid board of :mod:`lib.games.drawing.figures`.

Squares carry their standard numbers (1–32). The board is drawn as in
published diagrams, Black at the top, or turned round (``flipped``) so that
White is at the top. Every square of the grid is a click target whose
``customdata = [row, col]`` is in *board* coordinates (row 0 = Black's back
row) whichever way the board is drawn, so :func:`square_from_display` (with
``flipped=False``) turns any click into a square number.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping

import plotly.graph_objects as go

from lib.games import checkers
from lib.games.drawing.figures import (
    FULL_LABEL_CELL_PX,
    MIN_FONT,
    Piece,
    grid_board_figure,
    score_colours,
    score_labels,
    score_words,
)

LIGHT = "#f0d9b5"
DARK = "#b58863"
BLACK_PIECE = ("#1b1b1b", "#f5f5f5")  # fill, outline
WHITE_PIECE = ("#f7f3e8", "#1b1b1b")


def display_position(square: int, flipped: bool = False) -> tuple[int, int]:
    """Display ``(row, col)`` of ``square`` (row 0 at the top of the picture)."""
    row, col = checkers.square_row_col(square)
    return (7 - row, 7 - col) if flipped else (row, col)


def square_from_display(row: int, col: int, flipped: bool = False) -> int | None:
    """The square number drawn at display ``(row, col)``; None for a light square."""
    if flipped:
        row, col = 7 - row, 7 - col
    return checkers.square_at(row, col)


def move_heat(
    scores: Mapping[Hashable, float], selected: int | None
) -> dict[int, tuple[float, Hashable]]:
    """Where to show move scores: per square, the best score and its move.

    With no piece selected each movable piece shows its best move's score; with
    a piece selected, each destination of that piece shows the best score of
    the moves ending there.
    """
    best: dict[int, tuple[float, Hashable]] = {}
    for move, value in scores.items():
        if not isinstance(move, tuple) or len(move) < 2:
            continue
        if selected is None:
            square = move[0]
        elif move[0] == selected:
            square = move[-1]
        else:
            continue
        if square not in best or value > best[square][0]:
            best[square] = (value, move)
    return best


Square = tuple[int, int]
"""A board square as drawn: (display row, display column)."""


def _pieces(state: checkers.CheckersState, flipped: bool) -> tuple[list[Piece], dict[Square, str]]:
    """Every piece to draw (kings marked ``K``) and each dark square's hover text."""
    pieces = []
    hover: dict[Square, str] = {}
    for player, (fill, outline) in ((checkers.BLACK, BLACK_PIECE), (checkers.WHITE, WHITE_PIECE)):
        men, kings = state.pieces(player)
        name = checkers.PLAYER_NAMES[player]
        for square, king in [(s, False) for s in men] + [(s, True) for s in kings]:
            row, col = display_position(square, flipped)
            pieces.append(
                Piece(row, col, fill, outline, "K" if king else "", text_colour="#d4a017")
            )
            hover[(row, col)] = f"{square}: {name} {'king' if king else 'man'}"
    for square in range(1, 33):
        hover.setdefault(display_position(square, flipped), f"{square}: empty")
    return pieces, hover


def _heat(
    scores: Mapping[Hashable, float],
    bounds: Mapping[Hashable, str],
    piece_of: int | None,
    flipped: bool,
    pixels: int,
    hover: dict[Square, str],
) -> tuple[dict[Square, str] | None, dict[Square, str] | None]:
    """The move scores' heat map (:func:`move_heat`): each square's colour and label; the
    best move's value in words is added to the square's ``hover``."""
    best = move_heat(scores, piece_of)
    if not best:
        return None, None
    values = {square: value for square, (value, _) in best.items()}
    colours = score_colours(values)
    labels = score_labels(
        values,
        {square: bounds.get(move, "exact") for square, (_, move) in best.items()},
        compact=pixels / 8 < FULL_LABEL_CELL_PX,
    )
    for square, (value, move) in best.items():
        words = score_words(value, bounds.get(move, "exact"))
        hover[display_position(square, flipped)] += f" · best {checkers.format_move(move)}: {words}"
    heat = {display_position(s, flipped): colours[s] for s in best}
    heat_text = {display_position(s, flipped): labels[s] for s in best}
    return heat, heat_text


def _square_numbers(flipped: bool, pixels: int) -> go.Scatter:
    """The squares' numbers 1–32, small in each dark square's corner."""
    numbers = [display_position(s, flipped) for s in range(1, 33)]
    return go.Scatter(
        x=[c - 0.3 for _, c in numbers],
        y=[r - 0.32 for r, _ in numbers],
        mode="text",
        text=[str(s) for s in range(1, 33)],
        # readable on a projector, and on a piece (dark outline round light digits)
        textfont={
            "size": max(MIN_FONT, pixels / 36),
            "color": "#fff8e7",
            "weight": "bold",
            "shadow": "1px 1px 2px #000, -1px -1px 2px #000",
        },
        hoverinfo="skip",
        name="square numbers",
    )


def checkers_figure(
    state: checkers.CheckersState,
    *,
    selected: Iterable[int] = (),
    targets: Iterable[int] = (),
    last_move: tuple[int, ...] | None = None,
    scores: Mapping[Hashable, float] | None = None,
    bounds: Mapping[Hashable, str] | None = None,
    flipped: bool = False,
    show_numbers: bool = True,
    title: str | None = None,
    pixels: int = 520,
) -> go.Figure:
    """A checkers position.

    ``selected``: squares clicked so far (the piece and any landing squares),
    outlined in blue; ``targets``: squares that may be clicked next (dots);
    ``last_move``: its squares ringed in red; ``scores`` (move -> value): a heat
    map, see :func:`move_heat`. Kings are marked ``K``.
    """
    selected = list(selected)
    pieces, hover = _pieces(state, flipped)
    heat = heat_text = None
    if scores:
        piece_of = selected[0] if selected else None
        heat, heat_text = _heat(scores, bounds or {}, piece_of, flipped, pixels, hover)
    fig = grid_board_figure(
        8,
        8,
        pieces=pieces,
        legal=[display_position(s, flipped) for s in targets],
        last=[display_position(s, flipped) for s in (last_move or ())],
        selected=[display_position(s, flipped) for s in selected],
        heat=heat,
        heat_text=heat_text,
        hover=hover,
        light=LIGHT,
        dark=DARK,
        title=title,
        pixels=pixels,
    )
    if show_numbers:
        fig.add_trace(_square_numbers(flipped, pixels))
        # keep the click-target trace ("squares") last
        fig.data = (*fig.data[:-2], fig.data[-1], fig.data[-2])
    if flipped:
        targets = fig.data[-1]
        targets.customdata = [[7 - r, 7 - c] for r, c in targets.customdata]
    fig.update_xaxes(showticklabels=False)
    fig.update_yaxes(showticklabels=False)
    return fig
