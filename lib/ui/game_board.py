"""The board the visitor plays on: the clickable board, its keyboard-friendly fallback, and
what a click does.

A click (on the board, a button of the grid or the move list) is applied in its widget's
callback, before the rerun draws the board, and only to the position the visitor saw:
a click on a board that has changed since is dropped and explained.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import streamlit as st

from lib.errors import InputError
from lib.games.core import GameSpec
from lib.games.drawing import figures as plots
from lib.games.drawing.board_drawing import drawing
from lib.games.drawing.view import BoardAdapter, BoardView
from lib.games.session import STALE_MESSAGE, GameSession
from lib.ui.components.game_board import game_board
from lib.ui.game_sidebar import PageSettings
from lib.ui.game_state import GamePageState


def _ai_plays_on(page: GamePageState, human_sides: set[int]) -> bool:
    """Whether the AI to move searches without being asked: a person plays the other side,
    or Autoplay is on."""
    return len(human_sides) == 1 or page.autoplay


def not_your_turn(game: GameSpec, state: Any, ai_plays_on: bool) -> str:
    """What a click on the AI's turn is told: the side thinking, or how to make it move."""
    if ai_plays_on:
        return f"{game.player_names[state.to_move]} is thinking…: wait for its move."
    return "It is the AI's turn: use Step or Autoplay, or make this side human."


def _on_board_click(
    adapter: BoardAdapter, page: GamePageState, human_sides: set[int], at_ply: int
) -> None:
    """The board's click callback: apply the clicked move before the rerun draws the board."""
    session = page.session
    event = page.board_event
    target = event.get("click") if isinstance(event, Mapping) else None
    session.nonce += 1  # the board's revision: this click was handled
    square = plots.square_from_point({"customdata": target}) if target is not None else None
    if square is None:
        return
    handle_square(
        adapter, session, square, human_sides, at_ply, ai_plays_on=_ai_plays_on(page, human_sides)
    )


def handle_square(
    adapter: BoardAdapter,
    session: GameSession,
    square: tuple[int, int],
    human_sides: set[int],
    at_ply: int | None = None,
    *,
    ai_plays_on: bool | None = None,
) -> None:
    """Apply a click on ``square`` (from the board or the button grid) to ``session``.

    ``at_ply`` is the number of moves on the board the person clicked: a click on a
    board that has changed since (the AI replied, an Undo) is dropped and explained.
    ``ai_plays_on``: the AI to move searches by itself (default: a person plays the
    other side); a click on its turn is then told it is thinking.
    """
    if at_ply is not None and at_ply != session.ply:
        session.message = STALE_MESSAGE
        return
    state = session.state
    if not state.legal_moves():
        session.message = "The game is over: start a new game."
        return
    if state.to_move not in human_sides:
        thinking = len(human_sides) == 1 if ai_plays_on is None else ai_plays_on
        session.message = not_your_turn(adapter.game, state, thinking)
        return
    outcome = adapter.click(state, square, session.pending)
    session.pending = outcome.pending
    session.message = outcome.message
    if outcome.move is not None:
        try:
            session.play(outcome.move, None, "human", at_ply=at_ply)
        except InputError as error:
            session.message = str(error)


def board_widget(
    adapter: BoardAdapter, page: GamePageState, view: BoardView, human_sides: set[int]
) -> None:
    """The clickable board (SVG, no plotly.js); a click applies the move in the callback.

    Its key is the same in every run: under a new key Streamlit kept the previous board,
    faded, beside the new one until the run ended (a whole AI search). The board shows
    the session's click count (``data-revision``), so a page script can tell a click
    was handled.
    """
    session = page.session
    game_board(
        drawing(adapter.figure(session.state, view)),
        key=page.BOARD,
        revision=session.nonce,
        on_click=functools.partial(_on_board_click, adapter, page, human_sides, session.ply),
    )


def _on_grid_click(
    adapter: BoardAdapter,
    page: GamePageState,
    square: tuple[int, int],
    humans: set[int],
    at_ply: int,
) -> None:
    handle_square(
        adapter, page.session, square, humans, at_ply, ai_plays_on=_ai_plays_on(page, humans)
    )


def _on_list_move(
    adapter: BoardAdapter, page: GamePageState, humans: set[int], at_ply: int
) -> None:
    session = page.session
    if at_ply != session.ply:
        session.message = STALE_MESSAGE
        return
    state = session.state
    text = page.move_text
    if state.to_move not in humans:
        session.message = not_your_turn(adapter.game, state, _ai_plays_on(page, humans))
        return
    try:
        move = adapter.game.parse_move(text, state)
        session.play(move, None, "human", at_ply=at_ply)
        session.message = None
    except InputError as error:
        session.message = str(error)


def fallback_controls(adapter: BoardAdapter, page: GamePageState, human_sides: set[int]) -> None:
    """Button grid (grid games) and a move-list picker: the board without a mouse."""
    session = page.session
    state = session.state
    game = adapter.game
    # drawn only while open (its 64 buttons were most of a first visit's wait in the browser)
    fallback = st.expander(
        "Keyboard-friendly board (buttons)", key=page.FALLBACK, on_change="rerun"
    )
    if not fallback.open:
        return
    with fallback:
        if adapter.cell_label is not None and adapter.board_shape is not None:
            rows, cols = adapter.board_shape(state)
            for r in range(rows):
                columns = st.columns(cols, gap=None)
                for c in range(cols):
                    columns[c].button(
                        adapter.cell_label(state, r, c),
                        key=page.cell_key(r, c),
                        on_click=_on_grid_click,
                        args=(adapter, page, (r, c), human_sides, session.ply),
                        use_container_width=True,
                    )
        moves = state.legal_moves()
        if moves:
            names = [game.format_move(m) for m in moves]
            st.selectbox("Or pick a legal move", names, key=page.MOVE_TEXT)
            st.button(
                "Play this move",
                key=page.PLAY_LISTED,
                on_click=_on_list_move,
                args=(adapter, page, human_sides, session.ply),
            )


def board_view(
    session: GameSession, settings: PageSettings, human_sides: set[int], *, pixels: int
) -> BoardView:
    """What the board shows besides the position: the last move, the hint's scores, and the
    legal-move dots only when a person is to move (not while an AI is to move and thinks:
    they were the person's moves, not clickable then)."""
    state = session.state
    hint = session.hint if session.hint_ply == session.ply else None
    return BoardView(
        last_move=session.moves[-1] if session.moves else None,
        previous=session.states[-2] if len(session.states) > 1 else None,
        scores=hint.stats.root_scores if hint else None,
        bounds=hint.stats.root_bounds if hint else None,
        marked=hint.move if hint else None,
        pending=session.pending,
        show_legal=settings.show_legal and state.to_move in human_sides,
        flipped=settings.flipped,
        pixels=pixels,
    )
