"""The Connect Four part of the game page: figure, click-a-column, status line, exact verdict."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import plotly.graph_objects as go

from lib.games import connect_four
from lib.games.connect_four import COLUMNS, ROWS, solver
from lib.games.connect_four.plots import connect_four_figure, display_row
from lib.games.drawing.view import BoardAdapter, BoardView, ClickOutcome

SYMBOLS = {connect_four.RED: "🔴", connect_four.YELLOW: "🟡"}


def figure(state: connect_four.ConnectFourState, view: BoardView) -> go.Figure:
    """The board with the last disc, a completed four, move scores and the hint."""
    return connect_four_figure(
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
    state: connect_four.ConnectFourState, square: tuple[int, int], pending: Any
) -> ClickOutcome:
    """A click anywhere in a column drops a disc into it, unless it is full."""
    _, column = square
    if not 0 <= column < COLUMNS:
        return ClickOutcome(message="That click was outside the board.")
    if state.height(column) >= ROWS:
        return ClickOutcome(
            message=f"Column {connect_four.format_move(column)} is full; pick another column."
        )
    return ClickOutcome(move=column)


def cell_label(state: connect_four.ConnectFourState, row: int, col: int) -> str:
    """Button text: the column and row ("d1"), with the disc there or "+" where the
    column's next disc lands; any button of a column plays that column."""
    height = ROWS - 1 - row
    name = f"{connect_four.format_move(col)}{height + 1}"
    owner = state.cell(col, height)
    if owner is not None:
        return f"{name} {SYMBOLS[owner]}"
    if display_row(state.height(col)) == row and not state.is_terminal():
        return f"{name} +"
    return name


def status(state: connect_four.ConnectFourState) -> str:
    """Discs played and each side's open threes (windows one disc short of a four)."""
    red_threes, _, yellow_threes, _ = connect_four.window_counts(state, connect_four.RED)
    discs = state.occupied().bit_count()
    return f"{discs}/42 discs · open threes: 🔴 Red {red_threes}, 🟡 Yellow {yellow_threes}"


ABOUT = """
**Rules.** Red and Yellow take turns dropping a disc into one of the seven columns; it
falls to the lowest empty square. Four in a row, a column or a diagonal wins; a full
board is a draw.

**Who wins from the start?** *Known, not proved on this page:* Red, the first player,
wins with perfect play, and only by opening in the centre column d (opening in c or e
draws; a, b, f or g lose). This was established in 1988 by James D. Allen and,
independently, by Victor Allis, and later confirmed by exhaustive computer databases.
This page's exact solver cannot prove it: a position with 8 discs already takes it
minutes. What it does prove is shown beside the board: the verdict of every position it
settles within its budget (sometimes from about 12 discs on, usually from 20), and the
positions of its opening book, which it solved ahead of time.

**Search.** About 4.5 trillion positions: the AI cannot look to the end, so how far it
looks (depth), what it thinks of the positions where it stops (the heuristic) and how
well it orders moves decide how it plays. Alpha-beta with move ordering and a
transposition table answers at depth 8 in about a second.

**Heuristics.** *threats* counts open threes (three discs in a window of four the
opponent has not blocked) and open twos, mine minus the opponent's, plus discs in the
centre column, which lies in the most windows. *open windows* counts the windows still
open for each side. The heat map puts each column's score on the square where its disc
would land.
"""

VERDICT_SECONDS = 0.3
"""How long the page's verdict may solve a position before saying it is not solved."""


def start_answer(solved: str | None) -> str:
    """The empty board's verdict: the known result, labelled as known, and what this solver
    did with it just now (short: the panel beside the board is narrow; *About* says more).

    ``solved`` is the solver's answer for the empty board within :data:`VERDICT_SECONDS` in
    words (None: not finished, as always on this machine).
    """
    tried = (
        f"this solver did not finish the empty board in {VERDICT_SECONDS:g} s"
        if solved is None
        else f"this solver just found: {solved}"
    )
    return (
        "**Who wins from the start?** Red, only by opening in the centre column d: *known* "
        f"(Allen and Allis, 1988), *not proved here*: {tried}. More under *About*."
    )


@functools.lru_cache(maxsize=512)
def verdict(state: connect_four.ConnectFourState) -> str:
    """Who wins from here with perfect play, proved by the exact solver (or why not shown).

    Cached per position: the result is a pure function of the position, so the
    cache is safe to share between visitors, and a rerun of the page does not
    solve again.
    """
    if state.is_terminal():
        return ""
    result = solver.solve(state, time_limit=VERDICT_SECONDS, book=solver.bundled_book())
    if state == connect_four.initial_state():
        return start_answer(result and result.describe())
    empties = state.plies_left_hint()
    if result is None:
        return (
            f"Not solved within {VERDICT_SECONDS:g} s ({empties} empty squares): the AI "
            "searches by its heuristic here, and tries the exact solver at each move."
        )
    best = ", ".join(connect_four.format_move(move) for move in result.best_moves)
    how = (
        "from the opening book, computed by this solver"
        if result.source == "book"
        else (f"solved: {result.nodes:,} positions in {result.seconds:.2f} s")
    )
    shown = result.line_text()
    return (
        f"With perfect play from here: **{result.describe()}**; best {best}"
        + (f", line {shown}" if shown else "")
        + f" ({how})."
    )


MOVE_VERDICT_SECONDS = 1.0
"""How long the hint and the move scores may solve the positions after each move, in all
(the default AI's budget for one move): a move not settled in its share keeps its
heuristic score."""


class _Unsettled(Exception):
    """Some move was not settled in time: the moves that were, not to be cached."""

    def __init__(self, settled: Mapping[int, tuple[str, str]]) -> None:
        super().__init__("not every move was settled")
        self.settled = settled


@functools.lru_cache(maxsize=512)
def every_move_settled(state: connect_four.ConnectFourState) -> Mapping[int, tuple[str, str]]:
    """The solver's words and line for every move; raises :class:`_Unsettled` (which the
    cache does not keep) when some move was not settled in time."""
    found = solver.move_verdicts(state, time_limit=MOVE_VERDICT_SECONDS, book=solver.bundled_book())
    settled = MappingProxyType(
        {move: (found[move].text(), found[move].line_text()) for move in found}
    )
    if len(settled) < len(state.legal_moves()):
        raise _Unsettled(settled)
    return settled


def move_insight(state: connect_four.ConnectFourState) -> Mapping[int, tuple[str, str]]:
    """Each move the exact solver settles within :data:`MOVE_VERDICT_SECONDS`: its value in
    words, counted in plies from here as :func:`verdict` counts, and a best line from it,
    e.g. ``{0: ("wins in 15 plies", "affaceaffffagcc")}``.

    Read-only, since every visitor may get the same mapping: a position whose every move was
    settled is cached (a pure function of the position); a partial answer, which a busy
    machine may give, is not, so a later ask can settle more.
    """
    try:
        return every_move_settled(state)
    except _Unsettled as unsettled:
        return unsettled.settled


ADAPTER = BoardAdapter(
    game=connect_four.GAME,
    figure=figure,
    click=move_for_square,
    cell_label=cell_label,
    board_shape=lambda state: (ROWS, COLUMNS),
    status=status,
    about=ABOUT,
    prompt="click a column",
    insight=verdict,
    move_insight=move_insight,
)
