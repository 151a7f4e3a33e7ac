"""The tic-tac-toe part of the game page: figure, click-a-square, status line."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from lib.games import tictactoe
from lib.games.drawing.view import BoardAdapter, BoardView, ClickOutcome
from lib.games.search import fast as search
from lib.games.tictactoe.plots import tictactoe_figure


def figure(state: tictactoe.TicTacToeState, view: BoardView) -> go.Figure:
    """The board with the last move, a completed line, move scores and the hint."""
    return tictactoe_figure(
        state,
        last_move=view.last_move if isinstance(view.last_move, int) else None,
        scores=view.scores,
        bounds=view.bounds,
        show_legal=view.show_legal,
        marked=view.marked if isinstance(view.marked, int) else None,
        title=view.title,
        pixels=view.pixels,
    )


def move_for_square(
    state: tictactoe.TicTacToeState, square: tuple[int, int], pending: Any
) -> ClickOutcome:
    """A click on ``square``: mark it if it is empty, else say why not."""
    row, col = square
    if not (0 <= row < tictactoe.SIZE and 0 <= col < tictactoe.SIZE):
        return ClickOutcome(message="That click was outside the board.")
    owner = state.cell(row, col)
    if owner is not None:
        name = tictactoe.format_move(tictactoe.square(row, col))
        return ClickOutcome(
            message=f"{name} already holds an {tictactoe.PLAYER_NAMES[owner]}; "
            "click an empty square."
        )
    return ClickOutcome(move=tictactoe.square(row, col))


def cell_label(state: tictactoe.TicTacToeState, row: int, col: int) -> str:
    """Button text: the square's name and its mark ("b2 X"), or the name alone when empty."""
    name = tictactoe.format_move(tictactoe.square(row, col))
    owner = state.cell(row, col)
    return name if owner is None else f"{name} {tictactoe.PLAYER_NAMES[owner]}"


def status(state: tictactoe.TicTacToeState) -> str:
    """Open lines of each side (the textbook evaluation's two counts)."""
    x_open = sum(1 for line in tictactoe.LINES if not state.o & line)
    o_open = sum(1 for line in tictactoe.LINES if not state.x & line)
    return f"lines still open: X {x_open}, O {o_open}"


def verdict(state: tictactoe.TicTacToeState) -> str:
    """Who wins from here with perfect play: alpha-beta to the end of the game (exact)."""
    if state.is_terminal():
        line = tictactoe.squares_of(state.winning_line())
        if not line:
            return "The board is full without three in a row: a draw."
        names = ", ".join(tictactoe.format_move(square) for square in line)
        return f"{tictactoe.PLAYER_NAMES[state.winner()]} has three in a row: {names}."
    result = search.choose_move(state, algorithm="alphabeta", depth=tictactoe.SQUARES)
    mover = tictactoe.PLAYER_NAMES[state.to_move]
    if result.value == 0:
        return "With perfect play from here the game is a **draw**."
    winner = mover if result.value > 0 else tictactoe.PLAYER_NAMES[1 - state.to_move]
    return f"With perfect play from here **{winner} wins**."


ABOUT = """
**Rules.** X and O take turns marking an empty square; three in a row, column or
diagonal wins. With perfect play the game is a **draw**.

**The whole tree.** From the empty board there are 255,168 possible games and 5,478
positions, so a search can look to the end of the game: minimax at depth 9 visits all
549,946 nodes, alpha-beta with good move ordering about 2,000. Record the search tree
with a small depth to see which branches alpha-beta prunes.

**Heuristics** matter only when the search stops early: *lines* counts open
two-in-a-rows (a threat to win) and single marks in open lines, mine minus the
opponent's, plus the centre and corners; *open lines* is the textbook evaluation, lines
still open for me minus lines still open for the opponent.

**The default AI** searches 8 plies: to the end of the game from every position after
the first move (and on the empty board every first move draws), so it never loses.
"""

ADAPTER = BoardAdapter(
    game=tictactoe.GAME,
    figure=figure,
    click=move_for_square,
    cell_label=cell_label,
    board_shape=lambda state: (tictactoe.SIZE, tictactoe.SIZE),
    status=status,
    about=ABOUT,
    insight=verdict,
    prompt="click an empty square",
)
