"""The Othello part of the game page: figure, click-to-move, button labels, status line."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import plotly.graph_objects as go

from lib.games import othello
from lib.games.compiled_code import compiling_elsewhere
from lib.games.drawing.view import BoardAdapter, BoardView, ClickOutcome
from lib.games.othello import endgame
from lib.games.othello import plots as othello_plots

SYMBOLS = {othello.BLACK: "⚫", othello.WHITE: "⚪", None: "·"}


def figure(state: othello.OthelloState, view: BoardView) -> go.Figure:
    """The board with legal moves, the last move and the discs it flipped, and move scores."""
    flipped = 0
    if view.previous is not None and view.last_move not in (None, othello.PASS):
        # the side to move now is the one whose discs were just flipped
        if state.to_move == othello.BLACK:
            flipped = view.previous.black & ~state.black
        else:
            flipped = view.previous.white & ~state.white
    return othello_plots.othello_figure(
        state,
        last_move=view.last_move,
        flipped=flipped,
        scores=view.scores,
        bounds=view.bounds,
        show_legal=view.show_legal,
        marked=view.marked,
        title=view.title,
        pixels=view.pixels,
    )


def move_for_square(
    state: othello.OthelloState, square: tuple[int, int], pending: Any
) -> ClickOutcome:
    """A click on ``square``: the move if legal, else a message saying why not."""
    row, col = square
    if not (0 <= row < state.size and 0 <= col < state.size):
        return ClickOutcome(message="That click was outside the board.")
    legal = state.legal_moves()
    name = othello.format_move(othello.square(row, col))
    if legal == [othello.PASS]:
        return ClickOutcome(
            message=f"{othello.PLAYER_NAMES[state.to_move]} has no legal move and must pass: "
            "press Pass above the board."
        )
    move = othello.square(row, col)
    if move in legal:
        return ClickOutcome(move=move)
    if state.cell(row, col) is not None:
        return ClickOutcome(message=f"{name} is already taken; legal moves are marked with dots.")
    return ClickOutcome(
        message=f"{name} flips no disc, so it is not legal. Legal: "
        + ", ".join(othello.format_move(m) for m in legal)
        + "."
    )


def cell_label(state: othello.OthelloState, row: int, col: int) -> str:
    """Button text of a square: its name and a disc ("d4 ⚪"), or a "+" for a legal move
    ("d3 +"), or the name alone (empty), so a keyboard or screen-reader user hears which
    square each button is (as checkers' buttons carry the square numbers)."""
    name = othello.format_move(othello.square(row, col))
    owner = state.cell(row, col)
    if owner is not None:
        return f"{name} {SYMBOLS[owner]}"
    if othello.square(row, col) in state.legal_moves():
        # plain ASCII: a full-width plus showed as a missing glyph without CJK fonts
        return f"{name} +"
    return name


def status(state: othello.OthelloState) -> str:
    """Disc count line, e.g. "⚫ Black 12 – 9 White ⚪"."""
    black, white = state.counts()
    return f"⚫ Black {black} – {white} White ⚪"


ABOUT = """
**Minimax** looks a fixed number of moves (plies) ahead, assumes both sides play
their best, and scores the positions where it stops with a **heuristic**. A finished
game scores far beyond any heuristic (bigger and faster wins first).

**Alpha-beta** gets the same answer while skipping branches that cannot change it
(the cut-offs); good **move ordering** (best-looking moves first) makes it skip
more, which shows as a smaller **effective branching factor** `nodes^(1/depth)`.
The heat map shows the score of each move at the root; with alpha-beta, scores
marked ≤ are only bounds: the search proved those moves are no better, no more.

**Expectimax** assumes the opponent moves at random and averages over its moves:
the right model against a random player, too optimistic against a good one.

**Exact endgame.** Alpha-beta with a time budget first hands every position to an
exact solver, compiled to machine code, which searches to the end of the game and
finds the best move and the final disc margin. Far from the end it gives up after a
quarter of the budget and the heuristic search has the rest; from about 18 empty
squares on it usually finishes within the AI's second, and the AI plays perfectly: the
last search says "the game's exact solver chose the move", and its scores are forced
wins and losses. The solver counts positions, not cut-offs.
"""

MOVE_VERDICT_SECONDS = 1.0
"""How long the hint and the move scores may solve a position exactly (the default AI's
budget for one move): beyond it the moves keep their search scores."""


def margin_words(margin: int) -> str:
    """A final margin in words, mover's view: "wins by 12 discs", "draws", "loses by 1 disc"."""
    if margin == 0:
        return "draws"
    discs = "disc" if abs(margin) == 1 else "discs"
    return f"{'wins' if margin > 0 else 'loses'} by {abs(margin)} {discs}"


@functools.lru_cache(maxsize=256)
def _every_move_solved(state: othello.OthelloState) -> Mapping[int, tuple[str, str]]:
    """Each move's exact final margin in words (no line); raises TimeoutError, which the
    cache does not keep, when the solver did not finish in time."""
    result = endgame.solve(state, every_move=True, time_limit=MOVE_VERDICT_SECONDS)
    if result is None:
        raise TimeoutError
    margins = result.move_margins or {result.best_move: result.margin}
    return MappingProxyType({move: (margin_words(m), "") for move, m in margins.items()})


def move_insight(state: othello.OthelloState) -> Mapping[int, tuple[str, str]]:
    """Every move's exact final margin, when the exact solver settles the position within
    :data:`MOVE_VERDICT_SECONDS` (empty otherwise, or for a finished game). Read-only and
    cached once settled: a pure function of the position, shared by every visitor."""
    if state.is_terminal():
        return {}
    if compiling_elsewhere():  # the page does not wait for the compiler
        return {}
    try:
        return _every_move_solved(state)
    except TimeoutError:
        return {}


ADAPTER = BoardAdapter(
    game=othello.GAME,
    figure=figure,
    click=move_for_square,
    cell_label=cell_label,
    board_shape=lambda state: (state.size, state.size),
    status=status,
    about=ABOUT,
    prompt="click a square with a dot",
    move_insight=move_insight,
)
