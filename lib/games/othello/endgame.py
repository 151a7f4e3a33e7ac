"""Exact Othello endgames: the final disc margin of a position with perfect play.

Two solvers of the same game, tested equal to each other and to the generic
search of :mod:`lib.games.search.fast`:

* :func:`negamax_margin`, the textbook version a student reads: negamax with
  alpha-beta over :class:`~lib.games.othello.OthelloState` objects
  (``legal_moves``, ``play``), no tricks;
* :func:`solve`, the fast path used by players and pages. Below the root it runs
  as machine code: the search (:mod:`lib.games.othello.endgame_search`) and its
  bitboard kernels (:mod:`lib.games.othello.endgame_kernels`) are compiled by
  numba, on two ``uint64`` bitboards with no Python object in the loop, some 20
  times faster than the same search in Python. This module keeps the parts that
  run a few dozen times per solve: the root, the narrow windows and the clock.
  It uses the public techniques of endgame programs:

  - **fastest-first ordering**: far from the end, moves that leave the
    opponent the fewest replies are searched first (a move the opponent can
    hardly answer is usually good, and small subtrees are cheap to refute);
    among moves leaving as many replies, those giving the mover more discs
    next to its own corners (discs that can never be flipped) go first;
  - a **transposition table** (a NumPy array per solve, at most 2 ** 20
    entries) holding the bounds found for each position and its best move,
    which is searched first when the position recurs (by transposition, or in a
    re-search);
  - **parity**: near the end, empty squares in regions (board quadrants) with
    an odd number of empties are tried first: whoever plays last in a region
    tends to keep its discs;
  - a **dedicated solver for the last few empties** that walks a short list of
    empty squares and computes flips along precomputed rays, with no move
    generation, no sorting and no table (the last four have a function each,
    taking the squares as arguments); the very last empty square only counts
    flips;
  - **narrow windows** for the best move: instead of one search with the full
    window, a few searches each answer one question ("is the margin 0? above?
    8?") with a window holding a single possible margin, and the answers bracket
    the exact value (:func:`_bisect`); every other root move is only tested
    against the value to beat. Narrow windows prune far more, and the table
    carries the work of one search over to the next;
  - **enhanced transposition cut-offs**: a child already known (from the table)
    to refute the window ends the node before any search.

Time limits and cancelling: compiled code cannot call back into Python cheaply, so
the compiled search gets a budget of nodes (about :data:`CHECK_SECONDS` of work),
stops when it runs out, and is started again after a look at the clock and at the
cancel callback; its table keeps the work done, so little is searched twice.

The first solve of a process loads the compiled code from numba's cache on disk
(about 0.3 s); when that cache is cold (a new install) it compiles it first, which
takes some 10 seconds once. Both happen before the solve's clock starts
(:func:`load_compiled`), so a time limit only ever counts the search.

Scores ("margins") are final disc differences from the point of view of the
side to move: my discs minus the opponent's when the game ends, **empty squares
counted to the winner** (nobody gets them after a draw). That is the convention
of the FFO test suite, of Edax and of tournament Othello: a game won 33 to 30
with one square empty scores +4 for the winner. The whole board is the prize:
margins lie between ``-size**2`` and ``+size**2``.

>>> from lib.games.othello import format_move, state_from_text
>>> state = state_from_text('''
... XXXXXXXX
... XXXXXXXX
... XXXXXXXX
... XXXXXXXX
... XXXXXXXX
... XXXXXXXX
... XXXXXXOO
... XXXXXX..
... ''')
>>> result = solve(state, every_move=True)
>>> result.margin, sorted((format_move(m), v) for m, v in result.move_margins.items())
(64, [('g8', 64), ('h8', 64)])
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from lib.errors import InputError
from lib.games.othello import GEOMETRY, PASS, OthelloState, format_move
from lib.games.othello.endgame_kernels import BOARD, FULL, INNER, endgame_tables, legal_moves
from lib.games.othello.endgame_search import (
    BUDGET,
    MAX_MARGIN,
    NODES,
    STOPPED,
    UNKNOWN,
    Workspace,
    deep,
    new_workspace,
    ordered_children,
)

FIRST_TEST_SHARE = 0.25
"""The search hook gives up when the first narrow-window test (about half of a solve's work)
has not finished within this share of the budget: the rest would not fit, and the search
falls back with the time left."""

CHECK_SECONDS = 0.004
"""A watched solve (a time limit, a cancel callback) looks at the clock and the callback about
this often: the compiled search stops after a budget of nodes sized to take this long at
the speed measured so far, and starts again from the root move it was searching (its
table keeps the work done)."""

FIRST_BUDGET = 5_000
"""Nodes before the first look at the clock (the speed is not known yet)."""

TABLE_BITS = (12, 20)
"""The transposition table has ``2 ** (empties + 2)`` entries, within these powers of two
(2 ** 20 entries: 24 MB, freed after the solve)."""

Child = tuple[int, int, int, int, int]
"""A child of the root as the solver orders them: (sort key, square played, the mover's
discs after it, the opponent's, the opponent's legal moves there)."""


@dataclass(frozen=True)
class EndgameResult:
    """The exact solution of an Othello position.

    ``margin`` and every value of ``move_margins`` are final disc differences
    from the side to move's view, empties counted to the winner (see the module
    docstring). ``move_margins`` holds every legal move when the solve was asked
    for them (``every_move=True``), otherwise only the best move. ``best_move``
    is :data:`~lib.games.othello.PASS` when the side to move must pass.
    ``nodes`` counts every position visited (each one a call of the search).
    """

    best_move: int
    margin: int
    move_margins: dict[int, int] = field(default_factory=dict)
    nodes: int = 0
    seconds: float = 0.0

    def describe(self) -> str:
        """One line such as ``"g8 +18 (95,808 nodes, 0.21 s)"``."""
        return (
            f"{format_move(self.best_move)} {self.margin:+d} "
            f"({self.nodes:,} nodes, {self.seconds:.2f} s)"
        )


# -- the textbook solver ----------------------------------------------------------------


def final_margin(state: OthelloState) -> int:
    """The margin of a finished game for the side to move, empties to the winner."""
    mine, theirs = (state.black, state.white) if state.to_move == 0 else (state.white, state.black)
    difference = mine.bit_count() - theirs.bit_count()
    empties = state.plies_left_hint()
    if difference > 0:
        return difference + empties
    if difference < 0:
        return difference - empties
    return 0


def negamax_margin(state: OthelloState, alpha: int = -MAX_MARGIN, beta: int = MAX_MARGIN) -> int:
    """The exact final margin for the side to move: negamax with alpha-beta.

    The textbook algorithm on game states: a finished game scores its margin;
    otherwise the value is the best over the legal moves (a pass included) of
    minus the opponent's value. The window ``(alpha, beta)`` only prunes: the
    result is exact when it lies strictly inside, a bound otherwise.
    """
    moves = state.legal_moves()
    if not moves:
        return final_margin(state)
    best = -MAX_MARGIN - 1
    for move in moves:
        value = -negamax_margin(state.play(move), -beta, -max(alpha, best))
        if value > best:
            best = value
            if best >= beta:
                break
    return best


# -- the fast solver ---------------------------------------------------------------------


class _OutOfTime(Exception):
    """Raised inside a solve when its deadline passes or ``should_stop`` says so."""


class _Solver:
    """One exact solve: the board's masks, a :class:`~lib.games.othello.endgame_search.Workspace`
    (the table, the buffers, the node count) and the clock (a fresh solver per call, so
    nothing is shared between calls).

    ``deadline`` (a ``time.perf_counter()`` value) and ``should_stop`` end the solve with
    :class:`_OutOfTime`; both are looked at about every :data:`CHECK_SECONDS`.
    ``give_up_at`` does the same until the first test has finished.
    """

    def __init__(
        self,
        size: int,
        empty_count: int,
        deadline: float | None = None,
        should_stop: Callable[[], bool] | None = None,
        give_up_at: float | None = None,
    ) -> None:
        self.tables = endgame_tables(size)
        self.deadline = deadline
        self.should_stop = should_stop
        self.give_up_at = give_up_at
        watching = deadline is not None or should_stop is not None or give_up_at is not None
        low, high = TABLE_BITS
        bits = max(low, min(high, empty_count + 2))
        self.work: Workspace = new_workspace(bits, FIRST_BUDGET if watching else 2**62)
        self.checked_at = (time.perf_counter(), 0)  # (clock, nodes) at the last look
        # root move -> the lowest upper bound of its margin seen (the guess for its own solve)
        self.root_upper: dict[int, int] = {}

    def moves(self, player: int, opponent: int) -> int:
        """The legal moves of ``player``, a bitboard."""
        board = self.tables[BOARD]
        return int(legal_moves(np.uint64(player), np.uint64(opponent), board[FULL], board[INNER]))

    def deep(
        self, player: int, opponent: int, alpha: int, beta: int, empty_count: int, moves: int = -1
    ) -> int:
        """The compiled search's fail-soft value of a position for the window (alpha, beta),
        started again after each look at the clock until it finishes.

        ``moves``: the legal moves of ``player`` when already known, -1 otherwise.
        """
        work = self.work
        known = UNKNOWN if moves < 0 else np.uint64(moves)
        while True:
            work.control[STOPPED] = 0
            value = deep(
                np.uint64(player),
                np.uint64(opponent),
                alpha,
                beta,
                empty_count,
                known,
                (self.tables, work.table, work.children, work.squares, work.control),
            )
            if not work.control[STOPPED]:
                return int(value)
            self.check_clock()

    def check_clock(self) -> None:
        """Raise :class:`_OutOfTime` past the deadline (or the first test's), or when asked;
        otherwise give the search its next budget of nodes."""
        now = time.perf_counter()
        if (
            (self.deadline is not None and now > self.deadline)
            or (self.give_up_at is not None and now > self.give_up_at)
            or (self.should_stop is not None and self.should_stop())
        ):
            raise _OutOfTime
        control = self.work.control
        then, nodes_then = self.checked_at
        speed = (control[NODES] - nodes_then) / max(now - then, 1e-6)
        self.checked_at = (now, int(control[NODES]))
        control[BUDGET] = control[NODES] + max(1_000, int(speed * CHECK_SECONDS))

    def exact(self, player: int, opponent: int, empty_count: int, guess: int = 0) -> int:
        """The exact margin of a position, by :func:`_bisect` over windowed searches."""

        def test(alpha: int, beta: int) -> int:
            value = self.deep(player, opponent, alpha, beta, empty_count)
            self.give_up_at = None  # one test has finished in time
            return value

        return _bisect(test, guess)

    def root(self, children: list[Child], empty_count: int) -> tuple[int, int]:
        """The best move at the root and its exact margin.

        Each test asks whether some move reaches the tested value (stopping at the first
        that does); the move that last proved the lower bound is a best move.
        """
        best_square = children[0][1]

        def test(alpha: int, beta: int) -> int:
            nonlocal best_square
            ordered = sorted(children, key=lambda child: child[1] != best_square)
            best = -MAX_MARGIN - 1
            for _, square, new_player, new_opponent, replies in ordered:
                value = -self.deep(
                    new_opponent, new_player, -beta, -max(alpha, best), empty_count - 1, replies
                )
                if value <= max(alpha, best):  # an upper bound of this move's margin
                    self.root_upper[square] = min(value, self.root_upper.get(square, value))
                if value > best:
                    best = value
                    if value > alpha:
                        best_square = square
                    if value >= beta:
                        break
            self.give_up_at = None  # one test has finished in time
            return best

        margin = _bisect(test)
        return best_square, margin

    def ordered_children(self, player: int, opponent: int, moves: int) -> list[Child]:
        """The children of a position, best-looking first (see
        :func:`~lib.games.othello.endgame_search.ordered_children`)."""
        out = np.zeros_like(self.work.children[0])
        count = ordered_children(
            np.uint64(player), np.uint64(opponent), np.uint64(moves), self.tables, out
        )
        return [tuple(int(value) for value in row) for row in out[:count]]  # type: ignore[misc]

    def nodes(self) -> int:
        """Positions visited so far, near the end and far from it."""
        return int(self.work.control[NODES])


def _bisect(test: Callable[[int, int], int], guess: int = 0) -> int:
    """The exact value of a search ``test(alpha, beta)`` (fail-soft alpha-beta) by narrow
    windows: a galloping search from 0, then bisection.

    Margins on a board with an even number of squares are even (the winner's discs plus
    the empties minus the loser's discs is the board size minus twice the loser's discs),
    so a window ``(b - 1, b + 1)`` around an even ``b`` holds one possible value: the
    search either proves the value is ``b``, or gives a bound below or above it. Narrow
    windows cut far more than a full window, and the transposition table keeps the work
    of one test for the next. A test far from the value is not cheap (proving "less than
    +32" can cost as much as finding +8), and most margins are small, so the tests start
    at 0 and move away in growing steps (to 4, 12, 28) until the value is bracketed, and
    only then bisect. A ``guess`` (a bound known from earlier searches) replaces 0.
    """
    lower, upper = -MAX_MARGIN, MAX_MARGIN
    middle, step = max(-MAX_MARGIN, min(MAX_MARGIN, guess // 2 * 2)), 4
    while True:
        value = test(middle - 1, middle + 1)
        if value == middle:
            return value
        if value > middle:
            lower = value
            middle = max(value, middle + step)
        else:
            upper = value
            middle = min(value, middle - step)
        if lower >= upper:
            return lower
        step *= 2
        if not lower < middle < upper or (lower > -MAX_MARGIN and upper < MAX_MARGIN):
            middle = (lower + upper) // 4 * 2  # the even number at or just below the middle


# -- the search's hook -------------------------------------------------------------------


def exact_solution(
    state: OthelloState, time_limit: float | None = None, every_move: bool = False
) -> EndgameResult | None:
    """The search's exact-endgame hook: :func:`solve` within ``time_limit`` seconds, or None.

    The solve is simply tried with the budget as its time limit (None: no limit): it
    returns None when the budget runs out first, and also as soon as its first
    narrow-window test has not finished within :data:`FIRST_TEST_SHARE` of the budget
    (far from the end that test alone would outlast the budget, and the search falls
    back with most of the time left). None for a finished game.
    """
    if state.is_terminal():
        return None
    give_up = None if time_limit is None else FIRST_TEST_SHARE * time_limit
    return solve(state, every_move=every_move, time_limit=time_limit, give_up_after=give_up)


# -- the entry point ---------------------------------------------------------------------


def solve(
    state: OthelloState,
    *,
    every_move: bool = False,
    time_limit: float | None = None,
    should_stop: Callable[[], bool] | None = None,
    give_up_after: float | None = None,
) -> EndgameResult | None:
    """Solve ``state`` exactly: the best move and its final margin (side to move's view).

    The margin is bracketed by narrow-window tests over all the root moves (fastest
    first, the last test's best move before the others; see :func:`_bisect`). With
    ``every_move=True`` every other legal move's exact margin is computed too (for a
    hint that shows them all), each starting from the bound the tests left on it.

    A solve keeps time: past ``time_limit`` seconds, or when ``should_stop()`` returns
    True, or when its first narrow-window test is still running after ``give_up_after``
    seconds, it stops and returns None ("not solved"); the clock and the callback are
    read about every :data:`CHECK_SECONDS` (between two runs of the compiled search, which
    cannot call back into Python cheaply). Without any of the three it always returns a
    result.

    Raises
    ------
    InputError
        For a finished game or a state that is not an Othello position.
    """
    if not isinstance(state, OthelloState) or state.size not in GEOMETRY:
        raise InputError("The exact endgame solver needs an Othello position.")
    load_compiled()
    started = time.perf_counter()
    solver = _Solver(
        state.size,
        state.plies_left_hint(),
        None if time_limit is None else started + time_limit,
        should_stop,
        None if give_up_after is None else started + give_up_after,
    )
    try:
        return _solve(solver, state, every_move, started)
    except _OutOfTime:
        return None


def load_compiled() -> None:
    """Have the compiled search ready before a solve's clock starts.

    The first call of a compiled function in a process loads its machine code from
    numba's cache on disk (about 0.3 s), or compiles it when the cache is cold (some
    10 s, once per install): a cost of the process, not of any one position, which would
    otherwise eat a move's whole time budget. A tiny solve (two empty squares) calls
    every compiled function that :func:`solve` calls.
    """
    if deep.signatures:  # already loaded in this process
        return
    board = 0xFFFF_FFFF_FFFF_FFFF & ~(0b11 << 62)  # full but g8 and h8
    white = 0b11 << 54  # g7 and h7: Black takes them with g8
    _solve(_Solver(8, 2), OthelloState(board & ~white, white, 0, 8), False, time.perf_counter())


def _solve(solver: _Solver, state: OthelloState, every_move: bool, started: float) -> EndgameResult:
    """The steps of :func:`solve` once the solver is built (it may raise ``_OutOfTime``)."""
    player, opponent = (
        (state.black, state.white) if state.to_move == 0 else (state.white, state.black)
    )
    empty_count = state.plies_left_hint()
    moves = solver.moves(player, opponent)
    if not moves:
        if not solver.moves(opponent, player):
            raise InputError("The game is over: there is no move to solve.")
        margin = -solver.exact(opponent, player, empty_count)
        return EndgameResult(
            PASS, margin, {PASS: margin}, solver.nodes(), time.perf_counter() - started
        )
    solver.work.control[NODES] += 1  # the root
    children = solver.ordered_children(player, opponent, moves)
    best_square, best = solver.root(children, empty_count)
    margins = {best_square: best}
    if every_move:
        for _, square, new_player, new_opponent, _ in children:
            if square != best_square:
                guess = solver.root_upper.get(square, best)
                margins[square] = -solver.exact(new_opponent, new_player, empty_count - 1, -guess)
    margins = {square: margins[square] for square in sorted(margins, key=lambda s: -margins[s])}
    return EndgameResult(best_square, best, margins, solver.nodes(), time.perf_counter() - started)
