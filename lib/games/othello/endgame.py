"""Exact Othello endgames: the final disc margin of a position with perfect play.

Two solvers of the same game, tested equal to each other and to the generic
search of :mod:`lib.games.search.fast`:

* :func:`negamax_margin`, the textbook version a student reads: negamax with
  alpha-beta over :class:`~lib.games.othello.OthelloState` objects
  (``legal_moves``, ``play``), no tricks;
* :func:`solve`, the fast path used by players and pages. It works on the two
  bitboards alone (no state objects in the inner loops; the bitboard kernels are
  in :mod:`lib.games.othello.endgame_kernels`) and uses the public techniques of
  endgame programs:

  - **fastest-first ordering**: far from the end, moves that leave the
    opponent the fewest replies are searched first (a move the opponent can
    hardly answer is usually good, and small subtrees are cheap to refute); the
    replies of all the children are found by one move generation over the
    children packed side by side in one integer; among moves leaving as many
    replies, those giving the mover more discs next to its own corners (discs
    that can never be flipped) go first;
  - a **transposition table** (a dict per solve) holding the bounds found for
    each position and its best move, which is searched first when the position
    recurs (by transposition, or in a re-search);
  - **parity**: near the end, empty squares in regions (board quadrants) with
    an odd number of empties are tried first: whoever plays last in a region
    tends to keep its discs;
  - a **dedicated solver for the last few empties** that walks a short list of
    empty squares and computes flips along precomputed rays, with no move
    generation, no sorting and no table (the last four have a function each,
    taking the squares as arguments); the very last empty square only counts
    flips, looked up in a table by the discs on its four lines;
  - **narrow windows** for the best move: instead of one search with the full
    window, a few searches each answer one question ("is the margin 0? above?
    8?") with a window holding a single possible margin, and the answers bracket
    the exact value (:func:`_bisect`); every other root move is only tested
    against the value to beat. Narrow windows prune far more, and the table
    carries the work of one search over to the next;
  - **enhanced transposition cut-offs**: a child already known (from the table)
    to refute the window ends the node before any search.

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

from lib.errors import InputError
from lib.games.othello import GEOMETRY, PASS, OthelloState, format_move
from lib.games.othello.endgame_kernels import (
    LANE,
    EndgameTables,
    corner_stable,
    endgame_tables,
    kernels,
)

MAX_MARGIN = 64
"""No final margin exceeds the number of squares (64 on 8x8)."""

SHALLOW_EMPTIES = 6
"""At this many empty squares or fewer the dedicated last-empties solver takes over."""

SHALLOW_TABLE_EMPTIES = 6
"""Positions handed to the last-empties solver with this many empties keep their bounds in a
table of their own: the narrow-window tests search the same positions again and again."""

TABLE_MIN_EMPTIES = 7
"""Positions with at least this many empties go into the transposition table
(below it a position is cheaper to search again than to look up)."""

CHECK_EVERY = 32
"""The clock (and the cancel callback) is read once every this many positions far from the
end (at least 7 empties): each has some 30 positions below it nearer the end, so 32 of them
take a few milliseconds, and one reading of the clock costs less than one node."""

FIRST_TEST_SHARE = 0.25
"""The search hook gives up when the first narrow-window test (about half of a solve's work)
has not finished within this share of the budget: the rest would not fit, and the search
falls back with the time left."""

STABLE_WEIGHT = 2
"""In the fastest-first key, one reply of the opponent weighs 16 and one disc of the mover made
unflippable by a corner weighs this much (a tie-break among moves leaving as many replies:
4% fewer positions on FFO #21-#24 and #29)."""

_LANE_MASK = (1 << LANE) - 1  # one position of a packed integer (see othello_endgame_kernels)

Child = tuple[int, int, int, int, int]
"""A child of a position as the fast solver orders them: (sort key, square played, the
mover's discs after it, the opponent's, the opponent's legal moves there)."""


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
    """One exact solve: the kernels bound to one board size, a transposition table
    and a node counter (a fresh solver per call, so nothing is shared between calls).

    ``deadline`` (a ``time.perf_counter()`` value) and ``should_stop`` end the solve
    with :class:`_OutOfTime`; both are looked at every :data:`CHECK_EVERY` nodes far
    from the end. ``give_up_at`` does the same until the first root test has finished.
    """

    def __init__(
        self,
        tables: EndgameTables,
        deadline: float | None = None,
        should_stop: Callable[[], bool] | None = None,
        give_up_at: float | None = None,
    ) -> None:
        self.tables = tables
        self.deep_nodes = 0
        self.deadline = deadline
        self.should_stop = should_stop
        self.give_up_at = give_up_at
        self.watching = deadline is not None or should_stop is not None or give_up_at is not None
        # (player, opponent) -> (lower bound, upper bound, best square)
        self.table: dict[tuple[int, int], tuple[int, int, int]] = {}
        # (player, opponent) -> (lower bound, upper bound) at SHALLOW_TABLE_EMPTIES empties
        self.shallow_table: dict[tuple[int, int], tuple[int, int]] = {}
        # root move -> the lowest upper bound of its margin seen (the guess for its own solve)
        self.root_upper: dict[int, int] = {}
        self.flips, self.moves = kernels(tables)
        self.shallow, self.shallow_nodes = _last_empties_solver(tables, self.flips)

    # .. far from the end: move generation, fastest-first, transposition table ...........

    def deep(
        self, player: int, opponent: int, alpha: int, beta: int, empty_count: int, moves: int = -1
    ) -> int:
        """Fail-soft alpha-beta with fastest-first ordering and a transposition table.

        ``moves``: the legal moves of ``player`` when already known (the parent found
        them while ordering its children), -1 otherwise.
        """
        if empty_count <= SHALLOW_EMPTIES:
            if empty_count < SHALLOW_TABLE_EMPTIES:
                return self.shallow(
                    player, opponent, alpha, beta, self.parity_order(player, opponent)
                )
            return self.shallow_with_table(player, opponent, alpha, beta)
        self.deep_nodes += 1
        if self.watching and not self.deep_nodes % CHECK_EVERY:
            self.check_clock()
        key = (player, opponent)
        entry = self.table.get(key) if empty_count >= TABLE_MIN_EMPTIES else None
        hint = -1
        if entry is not None:
            lower, upper, hint = entry
            if lower >= beta:
                return lower
            if upper <= alpha or lower == upper:
                return upper
            alpha = max(alpha, lower)
            beta = min(beta, upper)
        if moves < 0:
            moves = self.moves(player, opponent)
        if not moves:
            if not self.moves(opponent, player):
                return _final(player, opponent, empty_count)
            return -self.deep(opponent, player, -beta, -alpha, empty_count)
        best, best_square = -MAX_MARGIN - 1, -1
        child_empties = empty_count - 1
        if hint >= 0 and moves >> hint & 1:
            # the table's best move first, before the cost of ordering the others
            flipped = self.flips(hint, player, opponent)
            best = -self.deep(
                opponent ^ flipped, player | flipped | (1 << hint), -beta, -alpha, child_empties
            )
            best_square = hint
            if best >= beta:
                self.store(key, alpha, beta, best, best_square, entry)
                return best
            moves ^= 1 << hint
        children = self.ordered_children(player, opponent, moves, -1)
        if child_empties >= TABLE_MIN_EMPTIES:
            # enhanced transposition cut-off: a child already known to refute the window
            table = self.table
            for _, square, new_player, new_opponent, _ in children:
                child = table.get((new_opponent, new_player))
                if child is not None and -child[1] >= beta:
                    self.store(key, alpha, beta, -child[1], square, entry)
                    return -child[1]
        for _, square, new_player, new_opponent, replies in children:
            value = -self.deep(
                new_opponent,
                new_player,
                -beta,
                -(alpha if alpha > best else best),
                child_empties,
                replies,
            )
            if value > best:
                best, best_square = value, square
                if value >= beta:
                    break
        if empty_count >= TABLE_MIN_EMPTIES:
            self.store(key, alpha, beta, best, best_square, entry)
        return best

    def shallow_with_table(self, player: int, opponent: int, alpha: int, beta: int) -> int:
        """The last-empties solver behind a table of bounds (no best move: the solver keeps
        its own parity order)."""
        key = (player, opponent)
        bounds = self.shallow_table.get(key)
        if bounds is not None:
            lower, upper = bounds
            if lower >= beta:
                return lower
            if upper <= alpha or lower == upper:
                return upper
            alpha, beta = max(alpha, lower), min(beta, upper)
        else:
            lower, upper = -MAX_MARGIN, MAX_MARGIN
        value = self.shallow(player, opponent, alpha, beta, self.parity_order(player, opponent))
        if value <= alpha:
            upper = min(upper, value)
        elif value >= beta:
            lower = max(lower, value)
        else:
            lower = upper = value
        self.shallow_table[key] = (lower, upper)
        return value

    def check_clock(self) -> None:
        """Raise :class:`_OutOfTime` past the deadline (or the first test's), or when asked."""
        now = time.perf_counter()
        if (
            (self.deadline is not None and now > self.deadline)
            or (self.give_up_at is not None and now > self.give_up_at)
            or (self.should_stop is not None and self.should_stop())
        ):
            raise _OutOfTime

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

    def ordered_children(self, player: int, opponent: int, moves: int, hint: int) -> list[Child]:
        """The children as (sort key, square, new player, new opponent, the opponent's
        moves there), best-looking first.

        Fastest first: fewest opponent replies (weighted by 16) first, then most discs made
        safe by a corner (:data:`STABLE_WEIGHT`), corners before other squares before
        X-squares as a tie-break, the table's best move before all.
        """
        flips, legal, rank = self.flips, self.moves, self.tables.square_rank
        corners = self.tables.corners
        grown = []
        packed_players = packed_opponents = shift = 0
        while moves:
            bit = moves & -moves
            moves ^= bit
            square = bit.bit_length() - 1
            flipped = flips(square, player, opponent)
            new_player = player | flipped | bit
            new_opponent = opponent ^ flipped
            grown.append((square, new_player, new_opponent))
            packed_players |= new_player << shift
            packed_opponents |= new_opponent << shift
            shift += LANE
        # every child's replies in one call: the children side by side in one integer
        replies = legal(packed_opponents, packed_players)
        stable = corner_stable(packed_players, self.tables)
        children = []
        for square, new_player, new_opponent in grown:
            theirs = replies & _LANE_MASK
            replies >>= LANE
            if square == hint:
                order = -1
            else:
                order = (
                    16 * (theirs.bit_count() + (theirs & corners).bit_count())
                    - STABLE_WEIGHT * (stable & _LANE_MASK).bit_count()
                    + rank[square]
                )
            stable >>= LANE
            children.append((order, square, new_player, new_opponent, theirs))
        children.sort()
        return children

    def parity_order(self, player: int, opponent: int) -> list[int]:
        """The empty squares, those in regions with an odd number of empties first (and
        by static rank within each group)."""
        region = self.tables.region
        empty = self.tables.full ^ (player | opponent)
        squares = []
        parity = 0
        while empty:
            square = empty.bit_length() - 1
            empty ^= 1 << square
            squares.append(square)
            parity ^= region[square]
        squares.reverse()  # ties in increasing square order
        squares.sort(key=self.tables.square_rank.__getitem__)
        odd = [square for square in squares if parity & region[square]]
        if len(odd) == len(squares) or not odd:
            return squares
        return odd + [square for square in squares if not parity & region[square]]

    def nodes(self) -> int:
        """Positions visited so far, near the end and far from it."""
        return self.deep_nodes + self.shallow_nodes()

    def store(
        self,
        key: tuple[int, int],
        alpha: int,
        beta: int,
        value: int,
        square: int,
        entry: tuple[int, int, int] | None,
    ) -> None:
        """Record what a fail-soft search with window (alpha, beta) proved about ``key``."""
        lower, upper = (entry[0], entry[1]) if entry is not None else (-MAX_MARGIN, MAX_MARGIN)
        if value <= alpha:
            upper = min(upper, value)
        elif value >= beta:
            lower = max(lower, value)
        else:
            lower = upper = value
        self.table[key] = (lower, upper, square)


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


def _final(player: int, opponent: int, empty_count: int) -> int:
    """Margin of a finished game for ``player``, empties to the winner."""
    difference = player.bit_count() - opponent.bit_count()
    if difference > 0:
        return difference + empty_count
    if difference < 0:
        return difference - empty_count
    return 0


def _last_empties_solver(
    tables: EndgameTables, flips: Callable[[int, int, int], int]
) -> tuple[Callable[[int, int, int, int, list[int]], int], Callable[[], int]]:
    """The solver of the last few empties: ``shallow(player, opponent, alpha, beta,
    empties)`` and the count of the nodes it has visited.

    Closures rather than methods so the hot loops read no attributes. No move
    generation: each empty square of the list (in parity order) is tried by
    computing its flips (skipped at once when no opponent disc is next to it). The
    last four empties have a function each taking the squares as arguments (no
    lists), and the very last square only counts flips, by table. Each function is
    built by its own step below and counts its own nodes.
    """
    last1, count1 = _last1_solver(tables)
    last2, count2 = _last2_solver(tables, flips, last1)
    last3, count3 = _last3_solver(tables, flips, last2)
    last4, count4 = _last4_solver(tables, flips, last3)
    shallow, count5 = _list_solver(tables, flips, last1, last2, last3, last4)

    def node_count() -> int:
        return count1() + count2() + count3() + count4() + count5()

    return shallow, node_count


def _last1_solver(tables: EndgameTables) -> tuple[Callable[[int, int], int], Callable[[], int]]:
    """``last1(player, square)``: the margin with one empty square, and its node count."""
    squares, last_lines = tables.squares, tables.last_lines
    nodes = 0

    def last1(player: int, square: int) -> int:
        """Margin with one empty square: only the number of flipped discs matters.

        The board is full but for ``square``, so the side to move's discs on the four
        lines through it give both players' flip counts (see ``last_lines``).
        """
        nonlocal nodes
        nodes += 1
        mask1, count1, mask2, count2, mask3, count3, mask4, count4 = last_lines[square]
        counts = (
            count1[player & mask1]
            + count2[player & mask2]
            + count3[player & mask3]
            + count4[player & mask4]
        )
        mine = player.bit_count()
        if counts & 0xFF:  # I play the square
            return 2 * (mine + 1 + (counts & 0xFF)) - squares
        if counts:  # I pass, the opponent plays it
            return 2 * (mine - (counts >> 8)) - squares
        # nobody can play there: the empty square goes to the winner
        difference = 2 * mine + 1 - squares
        return difference + 1 if difference > 0 else difference - 1

    return last1, lambda: nodes


def _last2_solver(
    tables: EndgameTables, flips: Callable[[int, int, int], int], last1: Callable[[int, int], int]
) -> tuple[Callable[..., int], Callable[[], int]]:
    """``last2(player, opponent, alpha, beta, first, second)`` and its node count."""
    neighbours = tables.neighbours
    nodes = 0

    def last2(player: int, opponent: int, alpha: int, beta: int, first: int, second: int) -> int:
        """Margin with two empty squares ``first`` and ``second`` (no list, no loop)."""
        nonlocal nodes
        nodes += 1
        best = -MAX_MARGIN - 1
        if opponent & neighbours[first]:
            flipped = flips(first, player, opponent)
            if flipped:
                best = -last1(opponent ^ flipped, second)
                if best >= beta:
                    return best
        if opponent & neighbours[second]:
            flipped = flips(second, player, opponent)
            if flipped:
                value = -last1(opponent ^ flipped, first)
                if value > best:
                    best = value
        if best > -MAX_MARGIN - 1:
            return best
        if flips(first, opponent, player) or flips(second, opponent, player):
            return -last2(opponent, player, -beta, -alpha, first, second)
        return _final(player, opponent, 2)

    return last2, lambda: nodes


def _last3_solver(
    tables: EndgameTables, flips: Callable[[int, int, int], int], last2: Callable[..., int]
) -> tuple[Callable[..., int], Callable[[], int]]:
    """``last3(player, opponent, alpha, beta, first, second, third)`` and its node count."""
    neighbours = tables.neighbours
    nodes = 0

    def last3(
        player: int, opponent: int, alpha: int, beta: int, first: int, second: int, third: int
    ) -> int:
        """Margin with three empty squares (in parity order)."""
        nonlocal nodes
        nodes += 1
        # unrolled (no loop over tuples of squares): this runs hundreds of thousands of times
        best = -MAX_MARGIN - 1
        if opponent & neighbours[first]:
            flipped = flips(first, player, opponent)
            if flipped:
                best = -last2(
                    opponent ^ flipped,
                    player | flipped | (1 << first),
                    -beta,
                    -alpha,
                    second,
                    third,
                )
                if best >= beta:
                    return best
        if opponent & neighbours[second]:
            flipped = flips(second, player, opponent)
            if flipped:
                value = -last2(
                    opponent ^ flipped,
                    player | flipped | (1 << second),
                    -beta,
                    -(alpha if alpha > best else best),
                    first,
                    third,
                )
                if value > best:
                    best = value
                    if value >= beta:
                        return best
        if opponent & neighbours[third]:
            flipped = flips(third, player, opponent)
            if flipped:
                value = -last2(
                    opponent ^ flipped,
                    player | flipped | (1 << third),
                    -beta,
                    -(alpha if alpha > best else best),
                    first,
                    second,
                )
                if value > best:
                    return value
        if best > -MAX_MARGIN - 1:
            return best
        if (
            flips(first, opponent, player)
            or flips(second, opponent, player)
            or flips(third, opponent, player)
        ):
            return -last3(opponent, player, -beta, -alpha, first, second, third)
        return _final(player, opponent, 3)

    return last3, lambda: nodes


def _last4_solver(
    tables: EndgameTables, flips: Callable[[int, int, int], int], last3: Callable[..., int]
) -> tuple[Callable[..., int], Callable[[], int]]:
    """``last4(player, opponent, alpha, beta, first, ..., fourth)`` and its node count."""
    neighbours = tables.neighbours
    nodes = 0

    def last4(
        player: int,
        opponent: int,
        alpha: int,
        beta: int,
        first: int,
        second: int,
        third: int,
        fourth: int,
    ) -> int:
        """Margin with four empty squares (in parity order)."""
        nonlocal nodes
        nodes += 1
        # unrolled like last3
        best = -MAX_MARGIN - 1
        if opponent & neighbours[first]:
            flipped = flips(first, player, opponent)
            if flipped:
                best = -last3(
                    opponent ^ flipped,
                    player | flipped | (1 << first),
                    -beta,
                    -alpha,
                    second,
                    third,
                    fourth,
                )
                if best >= beta:
                    return best
        if opponent & neighbours[second]:
            flipped = flips(second, player, opponent)
            if flipped:
                value = -last3(
                    opponent ^ flipped,
                    player | flipped | (1 << second),
                    -beta,
                    -(alpha if alpha > best else best),
                    first,
                    third,
                    fourth,
                )
                if value > best:
                    best = value
                    if value >= beta:
                        return best
        if opponent & neighbours[third]:
            flipped = flips(third, player, opponent)
            if flipped:
                value = -last3(
                    opponent ^ flipped,
                    player | flipped | (1 << third),
                    -beta,
                    -(alpha if alpha > best else best),
                    first,
                    second,
                    fourth,
                )
                if value > best:
                    best = value
                    if value >= beta:
                        return best
        if opponent & neighbours[fourth]:
            flipped = flips(fourth, player, opponent)
            if flipped:
                value = -last3(
                    opponent ^ flipped,
                    player | flipped | (1 << fourth),
                    -beta,
                    -(alpha if alpha > best else best),
                    first,
                    second,
                    third,
                )
                if value > best:
                    return value
        if best > -MAX_MARGIN - 1:
            return best
        if any(flips(square, opponent, player) for square in (first, second, third, fourth)):
            return -last4(opponent, player, -beta, -alpha, first, second, third, fourth)
        return _final(player, opponent, 4)

    return last4, lambda: nodes


def _list_solver(
    tables: EndgameTables,
    flips: Callable[[int, int, int], int],
    last1: Callable[[int, int], int],
    last2: Callable[..., int],
    last3: Callable[..., int],
    last4: Callable[..., int],
) -> tuple[Callable[[int, int, int, int, list[int]], int], Callable[[], int]]:
    """``shallow(player, opponent, alpha, beta, empties)`` over a list of empty squares
    (the last four handed to ``last4`` ... ``last1``) and its node count."""
    neighbours = tables.neighbours
    nodes = 0

    def shallow(player: int, opponent: int, alpha: int, beta: int, empties: list[int]) -> int:
        """Fail-soft alpha-beta over the empty squares in ``empties`` (parity order)."""
        nonlocal nodes
        count = len(empties)
        if count <= 4:
            if count == 4:
                return last4(player, opponent, alpha, beta, *empties)
            if count == 3:
                return last3(player, opponent, alpha, beta, *empties)
            if count == 2:
                return last2(player, opponent, alpha, beta, *empties)
            if count == 1:
                # the side to move may have to pass: last1 counts both sides' flips
                return last1(player, empties[0])
            return _final(player, opponent, 0)
        nodes += 1
        best = -MAX_MARGIN - 1
        for index, square in enumerate(empties):
            if not opponent & neighbours[square]:
                continue
            flipped = flips(square, player, opponent)
            if not flipped:
                continue
            value = -shallow(
                opponent ^ flipped,
                player | flipped | (1 << square),
                -beta,
                -(alpha if alpha > best else best),
                empties[:index] + empties[index + 1 :],
            )
            if value > best:
                best = value
                if value >= beta:
                    return best
        if best > -MAX_MARGIN - 1:
            return best
        # no move: pass if the opponent can play, else the game is over
        for square in empties:
            if flips(square, opponent, player):
                return -shallow(opponent, player, -beta, -alpha, empties)
        return _final(player, opponent, count)

    return shallow, lambda: nodes


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
    read every :data:`CHECK_EVERY` positions far from the end. Without any of the three
    it always returns a result.

    Raises
    ------
    InputError
        For a finished game or a state that is not an Othello position.
    """
    if not isinstance(state, OthelloState) or state.size not in GEOMETRY:
        raise InputError("The exact endgame solver needs an Othello position.")
    started = time.perf_counter()
    solver = _Solver(
        endgame_tables(state.size),
        None if time_limit is None else started + time_limit,
        should_stop,
        None if give_up_after is None else started + give_up_after,
    )
    try:
        return _solve(solver, state, every_move, started)
    except _OutOfTime:
        return None


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
    solver.deep_nodes += 1
    children = solver.ordered_children(player, opponent, moves, -1)
    best_square, best = solver.root(children, empty_count)
    margins = {best_square: best}
    if every_move:
        for _, square, new_player, new_opponent, _ in children:
            if square != best_square:
                guess = solver.root_upper.get(square, best)
                margins[square] = -solver.exact(new_opponent, new_player, empty_count - 1, -guess)
    margins = {square: margins[square] for square in sorted(margins, key=lambda s: -margins[s])}
    return EndgameResult(best_square, best, margins, solver.nodes(), time.perf_counter() - started)
