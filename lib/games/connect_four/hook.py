"""The generic search's exact-endgame hook for Connect Four: the books first, then a proof.

:func:`exact_solution` is what the alpha-beta player asks at every move (the game names this
module as its ``exact_solver``). A position of Red's opening strategy
(:mod:`lib.games.connect_four.strategy`) or Yellow's opening book
(:mod:`lib.games.connect_four.opening_book`) is answered from the book at once. Past them,
within a share of the move's time budget (:func:`attempt_share`): before
:data:`LATE_DISCS` discs a proof of a winning move (:func:`solver.win_solution`), then an
exact solve (:func:`solver.solve`) in the time left; from :data:`LATE_DISCS` on the exact
solve alone. A position the clock does not allow returns None, and the search deepens by
its heuristic in the time left.
"""

from __future__ import annotations

import time
from dataclasses import replace

from lib.games.connect_four import ConnectFourState, opening_book, strategy
from lib.games.connect_four import solver as solver
from lib.games.connect_four.keys import bitboards
from lib.games.connect_four.solver import (
    CENTRE_FIRST,
    STRATEGY_SOURCE,
    YELLOW_BOOK_SOURCE,
    SolveResult,
    move_scores,
    solve,
    win_solution,
)


def load_compiled() -> None:
    """Load (or compile) the solver's machine code and read both opening books: what the
    server's warm-up calls in every process (:mod:`lib.games.compiled_code`), so no move's
    clock pays for them (Yellow's book takes about a quarter second to read and check)."""
    solver.load_compiled()
    strategy.bundled_strategy()
    opening_book.bundled_opening_book()


LATE_DISCS = 12
"""From this many discs on, the compiled solver settles a sensible position within half a
second (``bench/connect_four_solver.py``, section ``reach``), and a proved move beats any
heuristic guess: the attempt gets :data:`LATE_SHARE`."""
LATE_SHARE = 0.8
"""The share of the budget the attempt may spend from :data:`LATE_DISCS` discs on (the
search keeps the rest, enough for its first iterations)."""
WIN_SHARE = 0.5
"""The share of the search's budget :func:`exact_solution` may spend before
:data:`LATE_DISCS` discs, on proving a winning move (:func:`solver.win_solution`) and then
an exact solve: a position the opponent has just given away is proved a win in well under
a second from 9 discs on, and in about 0.2 s (median) with 7 (``bench/connect_four_solver.py``,
section ``wins``). The search keeps the other half."""


def attempt_share(state: ConnectFourState) -> float:
    """The share of the search's budget :func:`exact_solution` spends on ``state``:
    :data:`WIN_SHARE` early, :data:`LATE_SHARE` from :data:`LATE_DISCS` discs."""
    return LATE_SHARE if (state.red | state.yellow).bit_count() >= LATE_DISCS else WIN_SHARE


MIN_SOLVE_SECONDS = 0.01
"""Below this, the time a win proof left is not worth an exact solve's start."""


def strategy_solution(
    state: ConnectFourState, opening: strategy.Strategy | None = None
) -> SolveResult | None:
    """Red's move in ``state`` from ``opening`` (default: the bundled strategy,
    :func:`strategy.bundled_strategy`) when it holds the position, else None.

    The move keeps a proved win, but how soon it wins is not known: its score is the least
    win, 1 (a lower bound), ``source`` is :data:`STRATEGY_SOURCE` and no node was searched.
    """
    opening = opening if opening is not None else strategy.bundled_strategy()
    move = opening.move(state) if opening is not None else None
    if move is None:
        return None
    return SolveResult(
        score=1,
        best_moves=(move,),
        line=(move,),
        nodes=0,
        seconds=0.0,
        moves_played=bitboards(state)[2],
        source=STRATEGY_SOURCE,
    )


def yellow_book_solution(
    state: ConnectFourState, book: opening_book.OpeningBook | None = None
) -> SolveResult | None:
    """Yellow's move in ``state`` from ``book`` (default: the bundled one,
    :func:`opening_book.bundled_opening_book`) when it holds the position, else None.

    ``score`` is the outcome the book's walk proved (1 win, 0 draw, -1 loss; how soon is
    not known, so a win or a loss scores the least), ``source`` is :data:`YELLOW_BOOK_SOURCE`
    and no node was searched.
    """
    book = book if book is not None else opening_book.bundled_opening_book()
    found = book.entry(state) if book is not None else None
    if found is None:
        return None
    column, outcome = found
    return SolveResult(
        score=outcome,
        best_moves=(column,),
        line=(column,),
        nodes=0,
        seconds=0.0,
        moves_played=bitboards(state)[2],
        source=YELLOW_BOOK_SOURCE,
    )


def book_solution(state: ConnectFourState) -> SolveResult | None:
    """The move of Red's opening strategy or of Yellow's opening book (the bundled ones)
    for ``state``, None when neither holds it."""
    return strategy_solution(state) or yellow_book_solution(state)


def exact_solution(
    state: ConnectFourState, time_limit: float | None = None, every_move: bool = False
) -> SolveResult | None:
    """The generic search's exact-endgame hook: :func:`solve` (without the line, only the
    first best move), with ``every_move`` every move's score too, within
    :func:`attempt_share` of ``time_limit`` seconds (None: 1 s). Tried at every move, not
    gated by a count of empty squares: a position the clock does not allow returns None,
    leaving the search the rest of its budget. None too for a finished game.

    A position of Red's opening strategy or Yellow's opening book (:func:`book_solution`)
    is answered from it first, without a search; then, even with ``every_move``, only the
    book's move has a score (the other moves are not proved, and solving them would cost
    the move its time).
    Before :data:`LATE_DISCS` discs, where an exact solve rarely fits, the attempt first
    looks for a proved win (:func:`solver.win_solution`), and solves exactly in what time
    it leaves. With ``every_move``, when not every move's score fits, a proved win is
    returned with only its move scored; anything else gives way to the search (None),
    which scores every move in the time left."""
    if state.is_terminal():
        return None
    known = book_solution(state)
    if known is not None:
        return known
    budget = attempt_share(state) * (1.0 if time_limit is None else time_limit)
    solver.load_compiled()
    started = time.perf_counter()
    deadline = started + budget
    if (state.red | state.yellow).bit_count() < LATE_DISCS:
        won = win_solution(state, budget)
        if won is not None:  # the proved win stands even if every move's score does not fit
            return _scored(won, state, deadline, started) if every_move else won
        if deadline - time.perf_counter() < MIN_SOLVE_SECONDS:  # no win proved in time
            return None
    result = solve(state, time_limit=deadline - time.perf_counter(), line=False, all_best=False)
    if result is None or not every_move:
        return result
    scored = _scored(result, state, deadline, started)
    if scored is result and result.score <= 0:
        return None  # the search scores every move in the time left; a proved win stands
    return scored


def _scored(
    result: SolveResult, state: ConnectFourState, deadline: float, started: float
) -> SolveResult:
    """``result`` with every move's exact score (then its score and best move the best of
    them, centre first) when they are all found before ``deadline``, else ``result``."""
    scores = move_scores(state, time_limit=max(deadline - time.perf_counter(), 0.0))
    if scores is None:
        return result
    best = max(scores.values())
    first = next(column for column in CENTRE_FIRST if scores.get(column) == best)
    return replace(
        result,
        score=best,
        best_moves=(first,),
        source="search",
        move_scores=scores,
        seconds=time.perf_counter() - started,
    )
