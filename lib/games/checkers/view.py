"""The checkers part of the game page: figure, click-a-piece-then-its-destination, status line.

A move is entered by clicking the piece, then its destination. For a
multi-jump the player clicks either the final square (when only one jump
sequence ends there) or each landing square in turn; the clicks so far are the
page's *pending* selection, drawn outlined, with the squares that may come next
dotted.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from lib.games import checkers
from lib.games.checkers.plots import checkers_figure, square_from_display
from lib.games.drawing.view import BoardAdapter, BoardView, ClickOutcome

PIECE_SYMBOLS = {checkers.BLACK: "⚫", checkers.WHITE: "⚪"}
"""Button symbols of the two sides (kings add a "K")."""


def _clicks(pending: Any) -> tuple[int, ...]:
    return tuple(pending) if isinstance(pending, tuple) else ()


def figure(state: checkers.CheckersState, view: BoardView) -> go.Figure:
    """The board with the pending selection, where to click next, the last move and move scores."""
    clicks = _clicks(view.pending)
    targets: set[int] = set()
    if view.show_legal and not state.is_terminal():
        _, targets = checkers.continue_clicks(state, clicks)
    return checkers_figure(
        state,
        selected=clicks,
        targets=targets,
        last_move=view.last_move if isinstance(view.last_move, tuple) else None,
        scores=view.scores,
        bounds=view.bounds,
        flipped=view.flipped,
        title=view.title,
        pixels=view.pixels,
    )


def move_for_click(
    state: checkers.CheckersState, square: tuple[int, int], pending: Any
) -> ClickOutcome:
    """A click on board ``(row, col)`` given the squares clicked so far (``pending``).

    The figure's click targets carry board coordinates even when it is drawn
    turned round, so no orientation is needed here.
    """
    number = square_from_display(*square)
    clicks = _clicks(pending)
    if number is None:
        return ClickOutcome(
            pending=clicks or None, message="Pieces stand on the dark squares only."
        )
    if clicks and (number != clicks[0] or len(clicks) > 1):
        path = (*clicks, number)
        move, targets = checkers.continue_clicks(state, path)
        if move is not None:
            return ClickOutcome(move=move)
        if targets:
            return ClickOutcome(
                pending=path,
                message=f"Landed on {number}: the capture must go on; click the next landing "
                "square.",
            )
    own = state.black if state.to_move == checkers.BLACK else state.white
    if own & (1 << (number - 1)):
        if clicks == (number,):
            return ClickOutcome()  # a second click on the selected piece drops it
        if any(move[0] == number for move in state.legal_moves()):
            return ClickOutcome(pending=(number,))
        return ClickOutcome(message=checkers.explain_illegal(state, (number,)))
    if not clicks:
        player = checkers.PLAYER_NAMES[state.to_move]
        return ClickOutcome(
            message=f"Click one of {player}'s pieces first (those that can move are dotted)."
        )
    return ClickOutcome(pending=clicks, message=checkers.explain_illegal(state, (*clicks, number)))


def cell_label(state: checkers.CheckersState, row: int, col: int) -> str:
    """Button text of a square: its number and the piece on it, e.g. "11 ⚫" (a black man),
    "11 ⚪ K" (a white king): colour by disc, king by a written "K", never by look-alike
    glyphs."""
    number = square_from_display(row, col)
    if number is None:
        return " "
    bit = 1 << (number - 1)
    king = " K" if state.kings & bit else ""
    if state.black & bit:
        return f"{number} {PIECE_SYMBOLS[checkers.BLACK]}{king}"
    if state.white & bit:
        return f"{number} {PIECE_SYMBOLS[checkers.WHITE]}{king}"
    return str(number)


def status(state: checkers.CheckersState) -> str:
    """Piece counts, e.g. "Black 12 (0 kings) – White 11 (1 king)", and the draw counter."""
    parts = []
    for player in (checkers.BLACK, checkers.WHITE):
        men, kings = state.pieces(player)
        kings_text = f"{len(kings)} king" + ("" if len(kings) == 1 else "s")
        parts.append(f"{checkers.PLAYER_NAMES[player]} {len(men) + len(kings)} ({kings_text})")
    text = " – ".join(parts)
    if state.quiet:
        text += f" · {state.quiet}/{checkers.DRAW_PLIES} plies without capture or man move"
    return text


ABOUT = """
**Rules used here** (English draughts / American checkers): Black moves first;
men move one square diagonally forward, kings one square in any diagonal
direction. **Captures are compulsory**, and a multi-jump is one move that must
go on while the piece can still capture (any capturing sequence may be chosen).
A man reaching the far row is crowned, and that ends the move. A side with no
legal move loses. **Draw rule:** the game is drawn after 40 moves by each side
(80 plies in a row) with no capture and no man move.

**Heuristics.** *course* adds the piece difference and the mobility difference
(how many moves each side's pieces have). *strong* counts kings as worth more
than men and adds back-row guards, centre control and how far men have
advanced; each weight can be changed in the sidebar.

**Minimax / alpha-beta** look a fixed number of plies ahead and score the
positions where they stop with the heuristic; alpha-beta skips branches that
cannot change the result. Forced captures make the tree narrow, so the AI often
sees deeper in tactical positions.
"""

ADAPTER = BoardAdapter(
    game=checkers.GAME,
    figure=figure,
    click=move_for_click,
    cell_label=cell_label,
    board_shape=lambda state: (8, 8),
    status=status,
    flippable=True,
    about=ABOUT,
    prompt="click a piece, then where it goes",
)
