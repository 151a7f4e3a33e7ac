"""Nim's board view: one row of counters; clicking counter k takes the counters from k on."""

from __future__ import annotations

import plotly.graph_objects as go

from lib.games.drawing.view import BoardAdapter, BoardView, ClickOutcome

from . import GAME, NimState


def figure(state: NimState, view: BoardView) -> go.Figure:
    columns = list(range(state.counters))
    return go.Figure(
        go.Scatter(
            x=columns,
            y=[0] * len(columns),
            mode="markers",
            customdata=[[0, c] for c in columns],
            marker={"size": 24},
        )
    )


def click(state: NimState, square: tuple[int, int], pending: object) -> ClickOutcome:
    take = state.counters - square[1]
    if take not in state.legal_moves():
        return ClickOutcome(message="Take one to three counters from the right.")
    return ClickOutcome(move=take)


ADAPTER = BoardAdapter(
    game=GAME,
    figure=figure,
    click=click,
    cell_label=lambda state, r, c: "●" if c < state.counters else "",
    board_shape=lambda state: (1, 11),
    status=lambda state: f"{state.counters} counters left",
)
