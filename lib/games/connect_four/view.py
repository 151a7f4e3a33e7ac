"""The Connect Four part of the game page: figure, click-a-column, status line, exact verdict."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import plotly.graph_objects as go

from lib.games import connect_four
from lib.games.compiled_code import compiling_elsewhere
from lib.games.connect_four import COLUMNS, ROWS, hook, solver, start
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


KNOWN = (
    "Red, the first player, wins with perfect play, and only by opening in the centre column "
    "d (opening in c or e draws; a, b, f or g lose). This was established in 1988 by James "
    "D. Allen and, independently, by Victor Allis, and later confirmed by exhaustive computer "
    "databases."
)


def _about_start(proof: start.StartProof | None) -> str:
    """The *How it thinks* tab's paragraph on the start: proved here (with how), or known only."""
    if proof is None:
        return (
            f"**Who wins from the start?** *Known, not proved on this page:* {KNOWN} This "
            "page's exact solver has not proved it here: its proof file is missing."
        )
    minutes = proof.total_cpu_seconds() / 60
    return (
        "**Who wins from the start?** *Proved by this app's own solver:* "
        f"{_outcomes_text(proof)}. The compiled solver searched the position after each of "
        f"the first moves a, b, c and d (e, f and g are their mirror images) ahead of time: "
        f"{proof.total_nodes():,} positions in {minutes:.0f} CPU minutes on one core "
        "(`scripts/prove_connect_four_start.py`; `docs/games.md` has the figures). The result "
        "is the known one: established in 1988 by James D. Allen and, independently, by "
        "Victor Allis. Live, beside the board, the solver proves the positions it settles "
        "within its budget (usually from about 12 discs on) and those of its opening book."
    )


def _outcomes_text(proof: start.StartProof) -> str:
    """``"Red wins only by opening in d; c and e draw; a, b, f and g lose"`` from the proof."""
    groups: dict[int, list[str]] = {1: [], 0: [], -1: []}
    for column in range(COLUMNS):
        groups[proof.outcome(column)].append(connect_four.format_move(column))

    def listed(names: list[str]) -> str:
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    if not groups[1]:
        return "Red wins with no first move"
    parts = [f"Red wins only by opening in {listed(groups[1])}"]
    for outcome, verb in ((0, "draw"), (-1, "lose")):
        if groups[outcome]:
            parts.append(
                f"{listed(groups[outcome])} {verb if len(groups[outcome]) > 1 else verb + 's'}"
            )
    return "; ".join(parts)


ABOUT = (
    """
**Rules.** Red and Yellow take turns dropping a disc into one of the seven columns; it
falls to the lowest empty square. Four in a row, a column or a diagonal wins; a full
board is a draw.

"""
    + _about_start(start.bundled_start_proof())
    + """

**Search.** About 4.5 trillion positions: the AI cannot look to the end, so how far it
looks (depth), what it thinks of the positions where it stops (the heuristic) and how
well it orders moves decide how it plays. Alpha-beta with move ordering and a
transposition table answers at depth 8 in about a second; from about 12 discs on the
exact solver usually settles the position within the AI's second, and it plays the
proved move. Before that it plays from two books worked out ahead by the same solver.
As Red: Red's winning strategy read off the solver's own proof that the centre wins, a
move proved to keep the win for every reply Yellow can make, down to where the solver
takes over ("book move, proved win"). As Yellow: for every move Red can make, a move
labelled by what the solver proved of it (a win, a draw, or "every move loses"), so a win
Red gives away in the opening is kept. Past the books it looks for a move it can prove
wins, cheaper than the exact score.

**Heuristics.** *threats* counts open threes (three discs in a window of four the
opponent has not blocked) and open twos, mine minus the opponent's, plus discs in the
centre column, which lies in the most windows. *open windows* counts the windows still
open for each side. The heat map puts each column's score on the square where its disc
would land.
"""
)

VERDICT_SECONDS = 0.3
"""How long the page's verdict may solve a position before saying it is not solved."""


def start_answer(proof: start.StartProof | None) -> str:
    """The empty board's verdict: proved by this app's solver ahead of time (from ``proof``,
    the bundled proof file), or without it the known result labelled as known (short: the
    panel beside the board is narrow; the *How it thinks* tab says more)."""
    if proof is None:
        return (
            "**Who wins from the start?** Red, only by opening in the centre column d: *known* "
            "(Allen and Allis, 1988), *not proved here* (the proof file is missing). More "
            "under *How it thinks*."
        )
    return (
        f"**Who wins from the start?** {_outcomes_text(proof)}: *proved* ahead of time by "
        f"this app's solver ({proof.total_nodes():,} positions); known since 1988 (Allen, "
        "Allis). More under *How it thinks*."
    )


COMPILING = (
    "The exact solver is still being compiled on this server (once after an install, some "
    "seconds): who wins from here is shown when it is ready."
)
"""The verdict while the server compiles the solver: the page does not wait for it."""


def verdict(state: connect_four.ConnectFourState) -> str:
    """Who wins from here with perfect play, proved by the exact solver (or why not shown).

    While the server compiles the solver (:func:`compiling_elsewhere`) a position that
    needs a live solve says so instead of waiting (that answer is not cached).
    """
    if state.is_terminal():
        return ""
    if state == connect_four.initial_state():  # far beyond a live solve: proved ahead
        return start_answer(start.bundled_start_proof())
    if compiling_elsewhere():
        return COMPILING
    return _solved_verdict(state)


@functools.lru_cache(maxsize=512)
def _solved_verdict(state: connect_four.ConnectFourState) -> str:
    """:func:`verdict` by a live solve. Cached per position: the result is a pure function
    of the position, so the cache is safe to share between visitors, and a rerun of the
    page does not solve again."""
    result = solver.solve(state, time_limit=VERDICT_SECONDS, book=solver.bundled_book())
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

    A move of Red's opening strategy or Yellow's opening book the solver did not settle is
    labelled as such (:func:`with_book_move`). Read-only, since every visitor may get the
    same mapping: a position whose every move was settled is cached (a pure function of the
    position); a partial answer, which a busy machine may give, is not, so a later ask can
    settle more.
    """
    if compiling_elsewhere():  # the page does not wait for the compiler
        return with_book_move(state, {})
    try:
        return with_book_move(state, every_move_settled(state))
    except _Unsettled as unsettled:
        return with_book_move(state, unsettled.settled)


def with_book_move(
    state: connect_four.ConnectFourState, settled: Mapping[int, tuple[str, str]]
) -> Mapping[int, tuple[str, str]]:
    """``settled`` with the move of Red's opening strategy or Yellow's opening book, when the
    position is in one and the solver did not settle that move: labelled as the book
    proved it, e.g. "book move, proved win" (how soon is unknown)."""
    book = hook.book_solution(state)
    if book is None or book.best_move in settled:
        return settled
    label = (book.book_words() or "", connect_four.format_move(book.best_move) + "…")
    return MappingProxyType({**settled, book.best_move: label})


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
