"""What a game's board view provides to the shared game page (no Streamlit here).

A game's view module (named by its ``GameSpec.view``, e.g. ``lib/games/othello/view.py``)
defines ``ADAPTER = BoardAdapter(...)``: how a position is drawn (a plotly figure, which the
game page shows as SVG through :func:`lib.games.drawing.board_drawing.drawing`, and its tabs, the
last search's score board and the step-through, as plotly charts), how a click on one of its
squares becomes a move, and the few lines of text around the board.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go

from lib.games.core import GameSpec

Move = Hashable

BOARD_PIXELS = 360
"""Default board size (``BoardView.pixels``): the whole board fits under the title, the buttons
and the status slot at 1024x768 with the sidebar open. The sidebar offers larger sizes."""


@dataclass(frozen=True)
class BoardView:
    """What the board should show besides the position."""

    last_move: Move | None = None
    previous: Any = None  # the position before the last move (to mark changed squares)
    scores: Mapping[Move, float] | None = None  # move -> score heat map
    bounds: Mapping[Move, str] | None = None
    pending: Any = None  # a game's partial click selection (e.g. the piece to move)
    show_legal: bool = True
    title: str | None = None
    pixels: int = BOARD_PIXELS
    flipped: bool = False  # draw the board turned round (games whose adapter is flippable)
    marked: Move | None = None  # a move to outline, e.g. the hint's choice


@dataclass(frozen=True)
class ClickOutcome:
    """Result of a click on a square: a move to play, a new pending selection, or a message."""

    move: Move | None = None
    pending: Any = None
    message: str | None = None


@dataclass(frozen=True)
class BoardAdapter:
    """The game-specific part of a game page.

    ``figure(state, view) -> go.Figure`` draws a position (its clickable
    trace must give ``(row, col)`` through :func:`lib.games.drawing.figures.square_from_point`).
    ``click(state, square, pending) -> ClickOutcome`` turns a clicked square
    into a move. ``cell_label(state, row, col) -> str`` and
    ``board_shape(state) -> (rows, cols)`` enable the button-grid fallback
    (omit them for games without a grid; the move list fallback always works).
    ``status(state) -> str`` is a one-line score, e.g. "Black 12 – White 9".
    """

    game: GameSpec
    figure: Callable[[Any, BoardView], go.Figure]
    click: Callable[[Any, tuple[int, int], Any], ClickOutcome]
    cell_label: Callable[[Any, int, int], str] | None = None
    board_shape: Callable[[Any], tuple[int, int]] | None = None
    status: Callable[[Any], str] | None = None
    # the page's players on a first visit: a person, and the game's default AI
    # (``GameSpec.default_player``) unless given here
    default_players: tuple[str, str] | None = None
    about: str = ""
    # optional: a line of markdown about the position shown under the status line
    # (Sim: who wins from here with perfect play)
    insight: Callable[[Any], str] | None = None
    # optional: each move's proved value in words and a best line from it ("" for none),
    # move -> (words, line), e.g. ("wins in 15 plies", "affaceaffffagcc"), for the moves the
    # game's solver settles within the page's budget; the hint and the move scores show them
    move_insight: Callable[[Any], Mapping[Any, tuple[str, str]]] | None = None
    # optional: offer a "turn the board round" toggle (the figure honours BoardView.flipped
    # and keeps its click targets in board coordinates, so clicks need no change)
    flippable: bool = False
    # optional: what a person to move does, shown in the status line, e.g. "click a dotted square"
    prompt: str = ""

    def __post_init__(self) -> None:
        if self.default_players is None:
            object.__setattr__(self, "default_players", ("human", self.game.default_player))


def load_adapter(game: GameSpec) -> BoardAdapter:
    """The board view of ``game``: the ``ADAPTER`` of the module its spec names."""
    if not game.view:
        raise ValueError(f"{game.title} declares no board view (GameSpec.view)")
    return importlib.import_module(game.view).ADAPTER
