"""The Othello board as a plotly figure (drawn with the shared grid board)."""

from __future__ import annotations

from collections.abc import Mapping

import plotly.graph_objects as go

from lib.games import othello
from lib.games.drawing.figures import (
    FULL_LABEL_CELL_PX,
    Piece,
    grid_board_figure,
    score_colours,
    score_labels,
    score_words,
)
from lib.games.othello import OthelloState


def othello_figure(
    state: OthelloState,
    *,
    last_move: int | None = None,
    flipped: int = 0,
    scores: Mapping[int, float] | None = None,
    bounds: Mapping[int, str] | None = None,
    show_legal: bool = True,
    marked: int | None = None,
    title: str | None = None,
    pixels: int = 520,
) -> go.Figure:
    """An Othello position; ``scores`` (move -> value) become a heat map on their squares
    (in place of the legal-move dots there), ``marked`` gets a blue outline (a hint)."""
    n = state.size
    pieces = []
    for r in range(n):
        for c in range(n):
            owner = state.cell(r, c)
            if owner is not None:
                black = owner == othello.BLACK
                pieces.append(
                    Piece(
                        r, c, "#111111" if black else "#f5f5f5", "#f5f5f5" if black else "#111111"
                    )
                )
    legal = []
    if show_legal:
        legal = [
            divmod(m, 8)
            for m in state.legal_moves()
            if m != othello.PASS and not (scores and m in scores)
        ]
    selected = [] if marked is None or marked == othello.PASS else [divmod(marked, 8)]
    flipped_squares = [divmod(s, 8) for s in othello.squares_of(flipped)]
    last = [] if last_move is None or last_move == othello.PASS else [divmod(last_move, 8)]
    heat = heat_text = None
    if scores:
        placed = {m: v for m, v in scores.items() if m != othello.PASS}
        colours = score_colours(placed)
        labels = score_labels(placed, bounds, compact=pixels / n < FULL_LABEL_CELL_PX)
        heat = {divmod(m, 8): colours[m] for m in placed}
        heat_text = {divmod(m, 8): labels[m] for m in placed}
    hover = {}
    for r in range(n):
        for c in range(n):
            name = othello.format_move(othello.square(r, c))
            owner = state.cell(r, c)
            what = "empty" if owner is None else othello.PLAYER_NAMES[owner]
            square = othello.square(r, c)
            if scores and square in scores:
                bound = (bounds or {}).get(square, "exact")
                what += f", score {score_words(scores[square], bound)}"
            hover[(r, c)] = f"{name}: {what}"
    return grid_board_figure(
        n,
        n,
        pieces=pieces,
        legal=legal,
        last=last,
        changed=flipped_squares,
        selected=selected,
        heat=heat,
        heat_text=heat_text,
        hover=hover,
        title=title,
        pixels=pixels,
    )
