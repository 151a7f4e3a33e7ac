"""Exact Othello endgames: the final disc margin of a position with perfect play.

Two solvers of the same game, tested equal to each other and to the generic
search of :mod:`lib.games.search`:

* :func:`negamax_margin`, the textbook version a student reads: negamax with
  alpha-beta over :class:`~lib.games.othello.OthelloState` objects
  (``legal_moves``, ``play``), no tricks;
* :func:`solve`, the fast path used by players and pages. It works on the two
  bitboards alone (no state objects in the inner loops) and uses the public
  techniques of endgame programs:

  - **fastest-first ordering**: far from the end, moves that leave the
    opponent the fewest replies are searched first (a move the opponent can
    hardly answer is usually good, and small subtrees are cheap to refute);
  - a **transposition table** (a dict per solve) holding the bounds found for
    each position and its best move, which is searched first when the position
    recurs (by transposition, or in a re-search);
  - **parity**: near the end, empty squares in regions (board quadrants) with
    an odd number of empties are tried first: whoever plays last in a region
    tends to keep its discs;
  - a **dedicated solver for the last few empties** that walks a short list of
    empty squares and counts flips along precomputed rays, with no move
    generation, no sorting and no table; the very last empty square only
    counts flips;
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

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from lib.errors import InputError
from lib.games.othello import GEOMETRY, PASS, OthelloState, format_move

MAX_MARGIN = 64
"""No final margin exceeds the number of squares (64 on 8x8)."""

SHALLOW_EMPTIES = 6
"""At this many empty squares or fewer the dedicated last-empties solver takes over."""

TABLE_MIN_EMPTIES = 7
"""Positions with at least this many empties go into the transposition table
(below it a position is cheaper to search again than to look up)."""


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


# -- board tables for the fast solver ---------------------------------------------------


class _Tables(NamedTuple):
    """Read-only masks of one board size used by the fast solver."""

    size: int
    squares: int  # size * size
    full: int
    inner: int  # squares off the first and last column (stops wrap-around of shifts)
    # per square: (the next square, the whole ray) of each direction with room for a flip,
    # rays going to higher square indices and rays going to lower ones
    rays_up: tuple[tuple[tuple[int, int], ...], ...]
    rays_down: tuple[tuple[tuple[int, int], ...], ...]
    neighbours: tuple[int, ...]  # per square: its (up to 8) neighbouring squares
    # per square: the opponent discs among its neighbours -> (rays up, rays down) that
    # start with one of them (the only rays along which a move can flip)
    rays_by_neighbours: tuple[dict[int, tuple[tuple[int, ...], tuple[int, ...]]], ...]
    region: tuple[int, ...]  # per square: the bit of its parity region (quadrant)
    square_rank: tuple[int, ...]  # per square: static preference (corners 0 ... X-squares 3)
    corners: int


def _build_tables(size: int) -> _Tables:
    geometry = GEOMETRY[size]
    rays_up: list[tuple[tuple[int, int], ...]] = []
    rays_down: list[tuple[tuple[int, int], ...]] = []
    region: list[int] = []
    square_rank: list[int] = []
    half = size // 2
    for index in range(64):
        row, col = divmod(index, 8)
        ups: list[tuple[int, int]] = []
        downs: list[tuple[int, int]] = []
        if row < size and col < size:
            for d_row in (-1, 0, 1):
                for d_col in (-1, 0, 1):
                    if not d_row and not d_col:
                        continue
                    ray, length = 0, 0
                    r, c = row + d_row, col + d_col
                    while 0 <= r < size and 0 <= c < size:
                        ray |= 1 << (r * 8 + c)
                        length += 1
                        r, c = r + d_row, c + d_col
                    if length >= 2:  # a flip needs an opponent disc and one of mine beyond
                        next_square = 1 << ((row + d_row) * 8 + col + d_col)
                        (ups if d_row * 8 + d_col > 0 else downs).append((next_square, ray))
        rays_up.append(tuple(ups))
        rays_down.append(tuple(downs))
        region.append(1 << ((row >= half) * 2 + (col >= half)))
        bit = 1 << index
        if bit & geometry.corners:
            rank = 0
        elif bit & geometry.regions["x_square"]:
            rank = 3
        elif bit & geometry.regions["c_square"]:
            rank = 2
        else:
            rank = 1
        square_rank.append(rank)
    neighbours = []
    rays_by_neighbours = []
    for index in range(64):
        around = 0
        for next_square, _ in rays_up[index] + rays_down[index]:
            around |= next_square
        row, col = divmod(index, 8)
        for d_row in (-1, 0, 1):
            for d_col in (-1, 0, 1):
                r, c = row + d_row, col + d_col
                if (d_row or d_col) and 0 <= r < size and 0 <= c < size and row < size:
                    around |= 1 << (r * 8 + c)
        neighbours.append(around)
        bits = [1 << i for i in range(64) if around >> i & 1]
        by_mask = {}
        for subset in range(1 << len(bits)):
            mask = sum(bit for j, bit in enumerate(bits) if subset >> j & 1)
            by_mask[mask] = (
                tuple(ray for next_square, ray in rays_up[index] if next_square & mask),
                tuple(ray for next_square, ray in rays_down[index] if next_square & mask),
            )
        rays_by_neighbours.append(by_mask)
    return _Tables(
        size,
        size * size,
        geometry.full,
        geometry.inner_cols,
        tuple(rays_up),
        tuple(rays_down),
        tuple(neighbours),
        tuple(rays_by_neighbours),
        tuple(region),
        tuple(square_rank),
        geometry.corners,
    )


@functools.cache
def _tables(size: int) -> _Tables:
    """The tables of one board size, built on first use (about 0.1 s for 8x8) and then
    shared: they are constants, never mutated."""
    return _build_tables(size)


# -- the fast solver ---------------------------------------------------------------------


class _Solver:
    """One exact solve: the kernels bound to one board size, a transposition table
    and a node counter (a fresh solver per call, so nothing is shared between calls)."""

    def __init__(self, tables: _Tables) -> None:
        self.tables = tables
        self.deep_nodes = 0
        # (player, opponent) -> (lower bound, upper bound, best square)
        self.table: dict[tuple[int, int], tuple[int, int, int]] = {}
        # root move -> the lowest upper bound of its margin seen (the guess for its own solve)
        self.root_upper: dict[int, int] = {}
        self.flips, self.moves = _kernels(tables)
        self.shallow, self.shallow_nodes = _last_empties_solver(tables, self.flips)

    # .. far from the end: move generation, fastest-first, transposition table ...........

    def deep(self, player: int, opponent: int, alpha: int, beta: int, empty_count: int) -> int:
        """Fail-soft alpha-beta with fastest-first ordering and a transposition table."""
        if empty_count <= SHALLOW_EMPTIES:
            return self.shallow(player, opponent, alpha, beta, self.parity_order(player, opponent))
        self.deep_nodes += 1
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
            for _, square, new_player, new_opponent in children:
                child = table.get((new_opponent, new_player))
                if child is not None and -child[1] >= beta:
                    self.store(key, alpha, beta, -child[1], square, entry)
                    return -child[1]
        for _, square, new_player, new_opponent in children:
            value = -self.deep(
                new_opponent, new_player, -beta, -(alpha if alpha > best else best), child_empties
            )
            if value > best:
                best, best_square = value, square
                if value >= beta:
                    break
        if empty_count >= TABLE_MIN_EMPTIES:
            self.store(key, alpha, beta, best, best_square, entry)
        return best

    def exact(self, player: int, opponent: int, empty_count: int, guess: int = 0) -> int:
        """The exact margin of a position, by :func:`_bisect` over windowed searches."""
        return _bisect(
            lambda alpha, beta: self.deep(player, opponent, alpha, beta, empty_count), guess
        )

    def root(self, children: list[tuple[int, int, int, int]], empty_count: int) -> tuple[int, int]:
        """The best move at the root and its exact margin.

        Each test asks whether some move reaches the tested value (stopping at the first
        that does); the move that last proved the lower bound is a best move.
        """
        best_square = children[0][1]

        def test(alpha: int, beta: int) -> int:
            nonlocal best_square
            ordered = sorted(children, key=lambda child: child[1] != best_square)
            best = -MAX_MARGIN - 1
            for _, square, new_player, new_opponent in ordered:
                value = -self.deep(
                    new_opponent, new_player, -beta, -max(alpha, best), empty_count - 1
                )
                if value <= max(alpha, best):  # an upper bound of this move's margin
                    self.root_upper[square] = min(value, self.root_upper.get(square, value))
                if value > best:
                    best = value
                    if value > alpha:
                        best_square = square
                    if value >= beta:
                        break
            return best

        margin = _bisect(test)
        return best_square, margin

    def ordered_children(
        self, player: int, opponent: int, moves: int, hint: int
    ) -> list[tuple[int, int, int, int]]:
        """The children as (sort key, square, new player, new opponent), best-looking first.

        Fastest first: fewest opponent replies (weighted by 16) first, corners before
        other squares before X-squares as a tie-break, the table's best move before all.
        """
        flips, legal, rank = self.flips, self.moves, self.tables.square_rank
        corners = self.tables.corners
        children = []
        while moves:
            bit = moves & -moves
            moves ^= bit
            square = bit.bit_length() - 1
            flipped = flips(square, player, opponent)
            new_player = player | flipped | bit
            new_opponent = opponent ^ flipped
            if square == hint:
                order = -1
            else:
                replies = legal(new_opponent, new_player)
                order = 16 * (replies.bit_count() + (replies & corners).bit_count()) + rank[square]
            children.append((order, square, new_player, new_opponent))
        children.sort()
        return children

    def parity_order(self, player: int, opponent: int) -> list[int]:
        """The empty squares, those in regions with an odd number of empties first."""
        tables = self.tables
        empty = tables.full ^ (player | opponent)
        squares = []
        parity = 0
        while empty:
            bit = empty & -empty
            empty ^= bit
            square = bit.bit_length() - 1
            squares.append(square)
            parity ^= tables.region[square]
        region, rank = tables.region, tables.square_rank
        squares.sort(key=lambda sq: (not parity & region[sq], rank[sq]))
        return squares

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
    at 0 and move away in growing steps (to 8, 24, 56) until the value is bracketed, and
    only then bisect. A ``guess`` (a bound known from earlier searches) replaces 0.
    """
    lower, upper = -MAX_MARGIN, MAX_MARGIN
    middle, step = max(-MAX_MARGIN, min(MAX_MARGIN, guess // 2 * 2)), 8
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
    tables: _Tables, flips: Callable[[int, int, int], int]
) -> tuple[Callable[[int, int, int, int, list[int]], int], Callable[[], int]]:
    """The solver of the last few empties: ``shallow(player, opponent, alpha, beta,
    empties)`` and the count of the nodes it has visited.

    Closures rather than methods so the hot loops read no attributes. No move
    generation: each empty square of the list (in parity order) is tried by
    computing its flips, and the last square only counts them.
    """
    squares = tables.squares
    nodes = 0

    def last1(player: int, opponent: int, square: int) -> int:
        """Margin with one empty square: only the number of flipped discs matters."""
        nonlocal nodes
        nodes += 1
        mine = player.bit_count()
        flipped = flips(square, player, opponent).bit_count()
        if flipped:
            return 2 * (mine + 1 + flipped) - squares
        flipped = flips(square, opponent, player).bit_count()
        if flipped:
            return 2 * (mine - flipped) - squares
        # nobody can play there: the empty square goes to the winner
        difference = 2 * mine + 1 - squares
        return difference + 1 if difference > 0 else difference - 1

    def last2(player: int, opponent: int, alpha: int, beta: int, first: int, second: int) -> int:
        """Margin with two empty squares ``first`` and ``second`` (no list, no loop)."""
        nonlocal nodes
        nodes += 1
        best = -MAX_MARGIN - 1
        flipped = flips(first, player, opponent)
        if flipped:
            best = -last1(opponent ^ flipped, player | flipped | (1 << first), second)
            if best >= beta:
                return best
        flipped = flips(second, player, opponent)
        if flipped:
            value = -last1(opponent ^ flipped, player | flipped | (1 << second), first)
            if value > best:
                best = value
        if best > -MAX_MARGIN - 1:
            return best
        if flips(first, opponent, player) or flips(second, opponent, player):
            return -last2(opponent, player, -beta, -alpha, first, second)
        return _final(player, opponent, 2)

    def shallow(player: int, opponent: int, alpha: int, beta: int, empties: list[int]) -> int:
        """Fail-soft alpha-beta over the empty squares in ``empties`` (parity order)."""
        nonlocal nodes
        count = len(empties)
        if count == 2:
            return last2(player, opponent, alpha, beta, empties[0], empties[1])
        if count < 2:
            return last1(player, opponent, empties[0]) if empties else _final(player, opponent, 0)
        nodes += 1
        best = -MAX_MARGIN - 1
        for index, square in enumerate(empties):
            flipped = flips(square, player, opponent)
            if not flipped:
                continue
            if count == 3:
                first, second = empties[:index] + empties[index + 1 :]
                value = -last2(
                    opponent ^ flipped,
                    player | flipped | (1 << square),
                    -beta,
                    -(alpha if alpha > best else best),
                    first,
                    second,
                )
            else:
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

    def node_count() -> int:
        return nodes

    return shallow, node_count


def _kernels(tables: _Tables) -> tuple[Callable[[int, int, int], int], Callable[[int, int], int]]:
    """``flips(square, player, opponent)`` and ``moves(player, opponent)`` for one size.

    Closures over the size's masks (so the hot loops read no attributes).
    """
    rays_by_neighbours, neighbours = tables.rays_by_neighbours, tables.neighbours
    full, inner = tables.full, tables.inner

    def flips(square: int, player: int, opponent: int) -> int:
        """The discs ``player`` flips by playing ``square`` (0: not a legal move)."""
        # only rays that start with an opponent disc can flip anything
        ups, downs = rays_by_neighbours[square][opponent & neighbours[square]]
        not_opponent = ~opponent
        flipped = 0
        for ray in ups:
            # the nearest square along the ray that is not the opponent's: the lowest bit
            stop = ray & not_opponent
            stop &= -stop
            if stop & player:
                flipped |= ray & (stop - 1)
        for ray in downs:
            # going down, the nearest such square is the highest bit
            stop = ray & not_opponent
            if stop:
                length = stop.bit_length()
                if player >> (length - 1) & 1:
                    flipped |= ray >> length << length
        return flipped

    def moves(player: int, opponent: int) -> int:
        """Bitboard of the legal moves (a run-doubling fill in each of the 8 directions)."""
        edge_safe = opponent & inner
        run = edge_safe & (player << 1)
        run |= edge_safe & (run << 1)
        pairs = edge_safe & (edge_safe << 1)
        run |= pairs & (run << 2)
        run |= pairs & (run << 2)
        found = run << 1
        run = edge_safe & (player >> 1)
        run |= edge_safe & (run >> 1)
        pairs = edge_safe & (edge_safe >> 1)
        run |= pairs & (run >> 2)
        run |= pairs & (run >> 2)
        found |= run >> 1
        run = opponent & (player << 8)
        run |= opponent & (run << 8)
        pairs = opponent & (opponent << 8)
        run |= pairs & (run << 16)
        run |= pairs & (run << 16)
        found |= run << 8
        run = opponent & (player >> 8)
        run |= opponent & (run >> 8)
        pairs = opponent & (opponent >> 8)
        run |= pairs & (run >> 16)
        run |= pairs & (run >> 16)
        found |= run >> 8
        run = edge_safe & (player << 7)
        run |= edge_safe & (run << 7)
        pairs = edge_safe & (edge_safe << 7)
        run |= pairs & (run << 14)
        run |= pairs & (run << 14)
        found |= run << 7
        run = edge_safe & (player >> 7)
        run |= edge_safe & (run >> 7)
        pairs = edge_safe & (edge_safe >> 7)
        run |= pairs & (run >> 14)
        run |= pairs & (run >> 14)
        found |= run >> 7
        run = edge_safe & (player << 9)
        run |= edge_safe & (run << 9)
        pairs = edge_safe & (edge_safe << 9)
        run |= pairs & (run << 18)
        run |= pairs & (run << 18)
        found |= run << 9
        run = edge_safe & (player >> 9)
        run |= edge_safe & (run >> 9)
        pairs = edge_safe & (edge_safe >> 9)
        run |= pairs & (run >> 18)
        run |= pairs & (run >> 18)
        found |= run >> 9
        return found & full & ~(player | opponent)

    return flips, moves


# -- when to use it -----------------------------------------------------------------------

SOLVABLE_EMPTIES: tuple[tuple[float, int, int], ...] = (
    (2.0, 14, 12),
    (0.5, 12, 11),
    (0.1, 10, 10),
    (0.0, 8, 8),
)
"""(time budget in seconds, most empty squares for the best move, most for every move's
margin), largest budget first: what :func:`solve` finished within the budget on the
development machine (2 shared cores), in CPU seconds, over positions from random play
(harder than the FFO positions, which at 14 empties take 0.1-0.3 s): the slowest of
8 took 0.03 s at 8 empties, 0.02 s at 10, 0.17 s at 12 and 1.1 s at 14; every move's
margin took 0.08 s at 10 empties and 0.4 s at 12."""


def solvable_empties(time_limit: float | None, every_move: bool = False) -> int:
    """The most empty squares :func:`solve` is expected to finish within ``time_limit``
    seconds (None: no limit given, taken as 1 s). See :data:`SOLVABLE_EMPTIES`."""
    budget = 1.0 if time_limit is None else time_limit
    for seconds, best_move_empties, every_move_empties in SOLVABLE_EMPTIES:
        if budget >= seconds:
            return every_move_empties if every_move else best_move_empties
    return 0


# -- the entry point ---------------------------------------------------------------------


def solve(state: OthelloState, *, every_move: bool = False) -> EndgameResult:
    """Solve ``state`` exactly: the best move and its final margin (side to move's view).

    The first move (fastest-first order) is searched with the full window; every
    other move is first tested with a null window against the best value so far
    and searched again only if it beats it. With ``every_move=True`` every legal
    move's exact margin is computed too (for a hint that shows them all).

    Raises
    ------
    InputError
        For a finished game or a state that is not an Othello position.
    """
    if not isinstance(state, OthelloState) or state.size not in GEOMETRY:
        raise InputError("The exact endgame solver needs an Othello position.")
    started = time.perf_counter()
    solver = _Solver(_tables(state.size))
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
        for _, square, new_player, new_opponent in children:
            if square != best_square:
                guess = solver.root_upper.get(square, best)
                margins[square] = -solver.exact(new_opponent, new_player, empty_count - 1, -guess)
    margins = {square: margins[square] for square in sorted(margins, key=lambda s: -margins[s])}
    return EndgameResult(best_square, best, margins, solver.nodes(), time.perf_counter() - started)
