"""Connect Four solved exactly: a position's score under perfect play, its best moves and line.

The design is Pascal Pons' strong solver on integer bitboards. :class:`_Search` is
the readable version, in plain Python, that a student reads; the solves run the same
search compiled by numba (:mod:`lib.games.connect_four.compiled`, about 25x faster;
``compiled=False`` runs the readable one, and the tests hold the two equal):

* **position + mask**: the search keeps two integers, the discs of the side to
  move (``position``) and every disc (``mask``), in the project's bit layout
  (7 bits a column, the spare bit on top; see :mod:`lib.games.connect_four`).
  Playing ``move`` (the bit of the square) is ``position ^ mask, mask | move``:
  the opponent's discs become "the side to move's". ``position + mask`` is a
  unique key for the position (the spare bits make the sum carry-free per column).
* **negamax with alpha-beta**, never allocating beyond small integers;
* **non-losing moves only**: when the opponent threatens to win on a square the
  mover can play, that move is forced (two such threats: the mover has lost); a
  move under one of the opponent's winning squares hands over the win and is not
  searched. So a searched position never has an immediate win for the mover;
* **move ordering by threats**: moves creating more winning squares for the mover
  first, ties broken centre first;
* a **transposition table** (a dict per solve; two NumPy arrays in the compiled
  search) keeping a lower or an upper bound per position;
* **null-window search**: instead of one search with the whole score range, a
  few searches each ask "is the score above ``m``?" with the window
  ``[m, m + 1]``, narrowing ``[min, max]`` until it holds one score. Each probe
  prunes far more than a full window, and the table carries its work to the
  next (with a table that keeps every bound, as here, the probes together cost
  about as many nodes as one full-window search: ``bench/connect_four_solver.py``);
* an optional **book** of exact scores computed ahead by this solver
  (``scripts/make_connect_four_book.py``), looked up only at the numbers of discs
  it covers.

Compiled, the solver settles most positions from about 12 discs on within half a
second, and one with 8 discs in a second or a few. The empty board is still far
beyond a live solve: :mod:`lib.games.connect_four.start` proves who wins from it
ahead of time (``scripts/prove_connect_four_start.py``).

Scores (Pons' convention) are from the side to move's view: 0 for a draw; a
win with the winner's ``k``-th disc of the game scores ``22 - k`` (positive
for the mover, negative for the opponent). So a faster win scores more: the
mover who wins at once with ``n`` discs on the board scores ``(43 - n) // 2``,
and the last-ditch win with the 21st disc scores 1. :func:`describe` turns a
score into words counted in plies (single moves of either side) to the end.

>>> from lib.games.connect_four import state_from_moves
>>> result = solve(state_from_moves("dddddbbebbdgbgggbgeeeaae"))
>>> sorted(format_move(move) for move in result.best_moves), result.describe()
(['a', 'c'], 'Red wins in 15 plies')
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from lib.errors import InputError
from lib.games.connect_four import (
    COLUMNS,
    PLAYER_NAMES,
    ROWS,
    STRIDE,
    ConnectFourState,
    format_move,
)
from lib.games.connect_four import compiled as kernel
from lib.games.connect_four import records as records
from lib.games.connect_four.keys import (
    bitboards,
    book_key,
    key_discs,
    mirror_key,
    state_from_key,
)
from lib.games.connect_four.keys import (
    position_key as position_key,
)

BOOK_PATH = Path(__file__).resolve().parents[3] / "data" / "connect_four_book.bin"
"""The bundled opening book (see :func:`load_book`)."""
BOOK_MAGIC = b"C4BOOK1\n"
BOOK_RECORD = 8
"""Bytes per book entry: the position key (7 bytes, little-endian) and the score (1, signed)."""

SQUARES = COLUMNS * ROWS
BOTTOM = sum(1 << (STRIDE * column) for column in range(COLUMNS))
"""The bottom square of every column."""
COLUMN_MASK: tuple[int, ...] = tuple(
    ((1 << ROWS) - 1) << (STRIDE * column) for column in range(COLUMNS)
)
"""The six squares of each column."""
BOARD = sum(COLUMN_MASK)
"""Every square of the board (no spare bits)."""
CENTRE_FIRST: tuple[int, ...] = (3, 2, 4, 1, 5, 0, 6)
"""Columns in the order moves are tried when they threaten equally: centre first."""
MOVE_BITS = STRIDE * COLUMNS
"""Bits holding a move's square in the packed sort keys of the search."""

TABLE_LIMIT = 1_000_000
"""Most positions kept in a solve's table (about 90 bytes each) before it is emptied:
a long solve on a shared server must not take its memory."""
CHECK_EVERY = 63
"""The clock and ``should_stop`` are checked every ``CHECK_EVERY + 1`` nodes."""
_CENTRE_FIRST_MASKS = tuple(
    (len(CENTRE_FIRST) - 1 - rank, COLUMN_MASK[column]) for rank, column in enumerate(CENTRE_FIRST)
)
"""``(tie break, column mask)`` per column, centre first: the higher tie break is tried first."""
_LOWER = 64
"""Lower bounds are stored as ``bound + _LOWER`` (above ``_LOWER // 2``), upper bounds as is."""


class _OutOfTime(Exception):
    """Raised inside the search when the time limit passes or ``should_stop`` says so."""


@dataclass(frozen=True)
class SolveResult:
    """The exact solution of a position.

    ``score`` is Pons' score from the side to move's view (see the module
    docstring); ``best_moves`` every column (0–6) achieving it, centre first;
    ``line`` a principal line from the position to the end of the game with both
    sides playing best (the mover's move first; shorter if the clock ran out
    while following it); ``nodes`` the positions searched; ``source`` is
    ``"search"``, ``"book"`` when the opening book held the score, ``"strategy"`` for a
    move read from Red's opening strategy or ``"win proof"`` for a move proved to win
    (then ``score`` is 1, a lower bound: a win, how soon not known;
    :func:`hook.strategy_solution`, :func:`win_solution`), ``"yellow book"`` for a move of
    Yellow's opening book (``score`` 1, 0 or -1: a win, a draw or a loss, how soon not
    known; :func:`hook.yellow_book_solution`).
    ``move_scores`` holds every legal move's score when asked for (else empty).

    ``best_move``, ``margin`` and ``move_margins`` are the names the generic
    search's exact-endgame hook reads (see :func:`hook.exact_solution`).
    """

    score: int
    best_moves: tuple[int, ...]
    line: tuple[int, ...]
    nodes: int
    seconds: float
    moves_played: int
    source: str = "search"
    move_scores: dict[int, int] = field(default_factory=dict, hash=False)

    @property
    def best_move(self) -> int:
        """The first best move, centre first."""
        return self.best_moves[0]

    @property
    def margin(self) -> int:
        """The score, under the name the generic search's endgame hook reads."""
        return self.score

    @property
    def move_margins(self) -> dict[int, int]:
        """Every move's score when computed, else only the best move's."""
        return self.move_scores or {self.best_move: self.score}

    @property
    def to_move(self) -> int:
        """The side to move: 0 (Red) or 1 (Yellow)."""
        return self.moves_played % 2

    def describe(self) -> str:
        """Who wins and how soon: ``"Red wins in 13 plies"``, ``"draw"``, ...; for a move of
        Red's opening strategy ``"Red wins (book move, proved win)"``, for a win proof
        ``"Yellow wins (proved win, how soon not searched)"``."""
        if self.source == YELLOW_BOOK_SOURCE:
            words = YELLOW_BOOK_WORDS[self.score]
            if self.score == 0:
                return f"draw ({words})"
            winner = self.to_move if self.score > 0 else 1 - self.to_move
            return f"{PLAYER_NAMES[winner]} wins ({words})"
        words = {STRATEGY_SOURCE: STRATEGY_WORDS, WIN_PROOF_SOURCE: WIN_PROOF_WORDS}
        if self.source in words:
            return f"{PLAYER_NAMES[self.to_move]} wins ({words[self.source]})"
        return describe(self.score, self.moves_played)

    def book_words(self) -> str | None:
        """How a book move is explained (``"book move, proved win"``), None for a search's."""
        if self.source == YELLOW_BOOK_SOURCE:
            return YELLOW_BOOK_WORDS[self.score]
        return STRATEGY_WORDS if self.source == STRATEGY_SOURCE else None

    def line_text(self) -> str:
        """The principal line in the project's notation, e.g. ``"cdcad"``; ``"cd…"`` when
        the clock stopped it before the end of the game (:func:`line_text`)."""
        return line_text(self.line, self.score, self.moves_played)


def plies_to_end(score: int, moves_played: int) -> int | None:
    """The number of plies (moves of either side) to the winning move, counted from
    the position with ``moves_played`` discs, when ``score`` is a win or a loss
    for the side to move; None for a draw.

    >>> plies_to_end(1, 0), plies_to_end(-1, 1), plies_to_end(18, 7)
    (41, 40, 1)
    """
    if score == 0:
        return None
    winner_moves_at = moves_played if score > 0 else moves_played + 1
    # the winning disc is dropped with n discs on the board, n of the winner's parity
    # and (43 - n) // 2 == |score|: two values of n satisfy the second, one the first
    last = SQUARES + 1 - 2 * abs(score)
    if (last - winner_moves_at) % 2:
        last -= 1
    return last - moves_played + 1


def line_text(line: Sequence[int], score: int, moves_played: int) -> str:
    """A best line from the position with ``moves_played`` discs and exact ``score``, in
    the project's notation, with "…" when it stops before the end of the game (the clock
    ran out while following it): a short line is not taken for the whole game.

    >>> line_text((2, 4), -8, 8), line_text((3,), 18, 7)
    ('ce…', 'd')
    """
    plies = plies_to_end(score, moves_played)
    whole = SQUARES - moves_played if plies is None else plies
    text = "".join(format_move(move) for move in line)
    return text if len(line) >= whole else text + "…"


def describe(score: int, moves_played: int) -> str:
    """A score in words from the side to move's view, counted in plies to the end.

    >>> describe(1, 0), describe(0, 5), describe(-2, 1)
    ('Red wins in 41 plies', 'draw', 'Yellow loses in 38 plies')
    """
    mover = PLAYER_NAMES[moves_played % 2]
    plies = plies_to_end(score, moves_played)
    if plies is None:
        return "draw"
    verb = "wins" if score > 0 else "loses"
    unit = "ply" if plies == 1 else "plies"
    return f"{mover} {verb} in {plies} {unit}"


def winning_squares(position: int, mask: int) -> int:
    """The empty squares where the owner of ``position`` would complete a four.

    Squares need not be playable yet (the disc below may be missing). For each
    direction, a square wins when three discs lie next to it: three on one side,
    or two on one side and one on the other.
    """
    # up a column only three discs below can complete a four; along a row (shift 7)
    # and the two diagonals (6, 8), three on one side or two on one side and one on
    # the other (written out: this is most of the search's time)
    found = (position << 1) & (position << 2) & (position << 3)
    up, up2, down, down2 = position << 7, position << 14, position >> 7, position >> 14
    found |= up & up2 & ((position << 21) | down)
    found |= down & down2 & ((position >> 21) | up)
    up, up2, down, down2 = position << 6, position << 12, position >> 6, position >> 12
    found |= up & up2 & ((position << 18) | down)
    found |= down & down2 & ((position >> 18) | up)
    up, up2, down, down2 = position << 8, position << 16, position >> 8, position >> 16
    found |= up & up2 & ((position << 24) | down)
    found |= down & down2 & ((position >> 24) | up)
    return found & (BOARD ^ mask)


def can_win_now(position: int, mask: int) -> bool:
    """True when the side to move has a playable square completing a four."""
    return bool(winning_squares(position, mask) & (mask + BOTTOM) & BOARD)


@dataclass(frozen=True)
class Book:
    """Exact scores of chosen positions, computed by this solver ahead of time.

    ``scores`` maps :func:`book_key` (a position and its mirror image share one
    entry) to the score for the side to move; ``plies`` holds the numbers of discs
    of the positions it covers, so the search looks positions up only there.
    """

    scores: dict[int, int]
    plies: frozenset[int]

    def __len__(self) -> int:
        return len(self.scores)

    @functools.cached_property
    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.uint64]:
        """The book for the compiled search: its keys sorted, their scores, and its plies as
        a bit set (bit ``n``: positions with ``n`` discs). Read-only, computed once."""
        keys = np.array(sorted(self.scores), dtype=np.uint64)
        scores = np.array([self.scores[int(key)] for key in keys], dtype=np.int8)
        keys.flags.writeable = scores.flags.writeable = False
        return keys, scores, np.uint64(sum(1 << plies for plies in self.plies))

    def score_of(self, state: ConnectFourState) -> int | None:
        """The stored score of ``state`` (side to move's view), None when not in the book."""
        position, mask, played = bitboards(state)
        if played not in self.plies:
            return None
        return self.scores.get(book_key(position, mask))


def book_from_scores(scores: dict[int, int]) -> Book:
    """A :class:`Book` of ``{book key: score}``."""
    return Book(dict(scores), frozenset(key_discs(key) for key in scores))


def book_bytes(scores: dict[int, int]) -> bytes:
    """The file form of ``{book key: score}``: a magic line, then 8-byte records by key."""
    records = b"".join(
        key.to_bytes(BOOK_RECORD - 1, "little") + score.to_bytes(1, "little", signed=True)
        for key, score in sorted(scores.items())
    )
    return BOOK_MAGIC + records


def load_book(path: str | Path | None = None) -> Book:
    """Read a book written by ``scripts/make_connect_four_book.py`` (default: the bundled one).

    Raises InputError when the file is not a book.
    """
    data = Path(path or BOOK_PATH).read_bytes()
    body = data[len(BOOK_MAGIC) :]
    if not data.startswith(BOOK_MAGIC) or len(body) % BOOK_RECORD:
        raise InputError(f"{Path(path or BOOK_PATH).name} is not a Connect Four book.")
    scores = {}
    for start in range(0, len(body), BOOK_RECORD):
        record = body[start : start + BOOK_RECORD]
        scores[int.from_bytes(record[:-1], "little")] = int.from_bytes(
            record[-1:], "little", signed=True
        )
    return book_from_scores(scores)


@functools.cache
def bundled_book() -> Book | None:
    """The bundled book, read once per process (read-only, shared by every session); None
    without a valid file (:func:`records.read_bundled`: the solver then searches from the
    start)."""
    return records.read_bundled(load_book, BOOK_PATH, "The solver's opening book")


def book_entries(book: Book) -> Iterable[tuple[ConnectFourState, int]]:
    """Every ``(position, score)`` of ``book`` (one of each mirror pair), by key."""
    for key in sorted(book.scores):
        yield state_from_key(key), book.scores[key]


def non_losing_columns(state: ConnectFourState) -> list[int]:
    """The columns (left to right) that win at once or do not let the opponent win at once.

    Without a win, a threat of the opponent on a playable square must be blocked
    (two such threats: every move loses), and a square right under one of its
    winning squares hands it over. Empty for a finished game.
    """
    if state.is_terminal():
        return []
    position, mask, _played = bitboards(state)
    playable = (mask + BOTTOM) & BOARD
    wins = winning_squares(position, mask) & playable
    threats = winning_squares(position ^ mask, mask)
    forced = playable & threats
    candidates = 0 if forced & (forced - 1) else forced or playable
    safe = (candidates & ~(threats >> 1)) | wins
    return [column for column in range(COLUMNS) if safe & COLUMN_MASK[column]]


class _Search:
    """One solve's search: the transposition table, the node count and the clock."""

    def __init__(
        self,
        deadline: float | None,
        should_stop: Callable[[], bool] | None,
        book: Book | None,
    ) -> None:
        self.table: dict[int, int] = {}
        self.nodes = 0
        self.deadline = deadline
        self.should_stop = should_stop
        self.book = book.scores if book else {}
        self.book_plies = book.plies if book else frozenset()

    def _check_clock(self) -> None:
        """Every few nodes: stop when out of time, and keep the table's memory bounded."""
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise _OutOfTime
        if self.should_stop is not None and self.should_stop():
            raise _OutOfTime
        if len(self.table) > TABLE_LIMIT:
            # the bounds only save work: forgetting them all keeps every answer right
            self.table.clear()

    def negamax(
        self, position: int, mask: int, played: int, alpha: int, beta: int, threats: int
    ) -> int:
        """The score if it lies strictly inside ``(alpha, beta)``; else a bound beyond it.

        ``threats`` are the opponent's winning squares (``winning_squares(position ^
        mask, mask)``; the parent computed them to order its moves). Precondition:
        the side to move cannot win at once, and the game is not over.
        """
        self.nodes += 1
        if not self.nodes & CHECK_EVERY:
            self._check_clock()
        possible = (mask + BOTTOM) & BOARD
        forced = possible & threats
        if forced:
            if forced & (forced - 1):  # two threats to block: the opponent wins next move
                return -((SQUARES - played) // 2)
            possible = forced
        possible &= ~(threats >> 1)  # never play right under an opponent's winning square
        if not possible:
            return -((SQUARES - played) // 2)
        if played >= SQUARES - 2:  # the last two discs cannot win for either side
            return 0
        lowest = -((SQUARES - 2 - played) // 2)  # the opponent cannot win at once
        if alpha < lowest:
            alpha = lowest
            if alpha >= beta:
                return alpha
        highest = (SQUARES - 1 - played) // 2  # the mover cannot win at once
        key = position + mask
        stored = self.table.get(key)
        if stored is not None:
            if stored > _LOWER // 2:
                lowest = stored - _LOWER
                if alpha < lowest:
                    alpha = lowest
                    if alpha >= beta:
                        return alpha
            else:
                highest = stored
        if beta > highest:
            beta = highest
            if alpha >= beta:
                return beta
        if played in self.book_plies:
            known = self.book.get(min(key, mirror_key(key)))
            if known is not None:
                return known
        # the moves, most threatening first: a move's new winning squares are exactly the
        # threats its child position faces, so they are packed with it and passed down
        order = []
        for tie_break, column_mask in _CENTRE_FIRST_MASKS:
            move = possible & column_mask
            if move:
                created = winning_squares(position | move, mask)
                rank = created.bit_count() << 3 | tie_break
                order.append((rank << 2 * MOVE_BITS) | (created << MOVE_BITS) | move)
        if len(order) > 1:
            order.sort(reverse=True)
        opponent = position ^ mask
        negamax = self.negamax
        for packed in order:
            score = -negamax(
                opponent,
                mask | (packed & BOARD),
                played + 1,
                -beta,
                -alpha,
                (packed >> MOVE_BITS) & BOARD,
            )
            if score >= beta:
                self.table[key] = score + _LOWER
                return score
            if score > alpha:
                alpha = score
        self.table[key] = alpha
        return alpha

    def enter(self, position: int, mask: int, played: int, alpha: int, beta: int) -> int:
        """:meth:`negamax` of a position reached from outside the search (no threats yet)."""
        threats = winning_squares(position ^ mask, mask)
        return self.negamax(position, mask, played, alpha, beta, threats)

    def score(self, position: int, mask: int, played: int) -> int:
        """The exact score of a position that is not over, narrowing null windows."""
        if can_win_now(position, mask):
            return (SQUARES + 1 - played) // 2
        low = -((SQUARES - played) // 2)
        high = (SQUARES + 1 - played) // 2
        while low < high:
            middle = low + (high - low) // 2
            # probe near zero first: most positions are decided by a small margin
            if middle <= 0 and low // 2 < middle:
                middle = low // 2
            elif middle >= 0 and high // 2 > middle:
                middle = high // 2
            found = self.enter(position, mask, played, middle, middle + 1)
            if found <= middle:
                high = found
            else:
                low = found
        return low

    def full_window_score(self, position: int, mask: int, played: int) -> int:
        """The exact score by one search with the whole score range (for tests)."""
        if can_win_now(position, mask):
            return (SQUARES + 1 - played) // 2
        low = -((SQUARES - played) // 2)
        high = (SQUARES + 1 - played) // 2
        return self.enter(position, mask, played, low - 1, high + 1)

    def achieves(self, position: int, mask: int, played: int, move: int, target: int) -> bool:
        """True when playing the square ``move`` scores at least ``target`` for the mover."""
        if winning_squares(position, mask) & move:
            return (SQUARES + 1 - played) // 2 >= target
        opponent, after = position ^ mask, mask | move
        if after == BOARD:
            return target <= 0
        if can_win_now(opponent, after):
            return -((SQUARES - played) // 2) >= target
        # the child scores at most -target exactly when the move scores at least target
        return self.enter(opponent, after, played + 1, -target, -target + 1) <= -target

    def move_score(self, position: int, mask: int, played: int, move: int) -> int:
        """The exact score of playing the square ``move``, from the mover's view."""
        if winning_squares(position, mask) & move:
            return (SQUARES + 1 - played) // 2
        opponent, after = position ^ mask, mask | move
        if after == BOARD:
            return 0
        return -self.score(opponent, after, played + 1)


class _CompiledSearch(_Search):
    """:class:`_Search` with its negamax compiled (:mod:`lib.games.connect_four.compiled`):
    the same null windows, moves and lines, the node search in machine code.

    The table is two NumPy arrays owned by this solve. The clock cannot be read inside the
    compiled search, so it runs in chunks of nodes: when a chunk is spent the search
    unwinds, the clock and ``should_stop`` are read here, and the same probe starts again
    with the table keeping what the earlier chunks proved. The table starts small
    (:data:`FIRST_TABLE_SIZE`: most solves are short, and every new page of a large table
    costs a page fault) and is replaced by one of ``table_size`` slots once the search
    has outgrown it (its bounds are lost: work, never a right answer).
    """

    def __init__(
        self,
        deadline: float | None,
        should_stop: Callable[[], bool] | None,
        book: Book | None,
        table_size: int,
    ) -> None:
        self.deadline = deadline
        self.should_stop = should_stop
        self.table_size = table_size
        self.keys, self.values = kernel.new_table(min(table_size, FIRST_TABLE_SIZE))
        self.scratch = kernel.new_scratch()
        self.counter = np.zeros(2, dtype=np.int64)  # nodes searched, the budget
        self.book_arrays = book.arrays if book else _NO_BOOK
        self.unlimited = deadline is None and should_stop is None
        self.chunk = FIRST_CHUNK

    @property
    def nodes(self) -> int:  # type: ignore[override]
        """Positions searched so far (a chunk's re-descent counted again)."""
        return int(self.counter[0])

    def _check_clock(self) -> None:
        """Between chunks: stop when out of time or asked to."""
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise _OutOfTime
        if self.should_stop is not None and self.should_stop():
            raise _OutOfTime

    def enter(self, position: int, mask: int, played: int, alpha: int, beta: int) -> int:
        """The compiled negamax of a position reached from outside the search, chunk by chunk."""
        threats = np.uint64(winning_squares(position ^ mask, mask))
        book_keys, book_scores, book_plies = self.book_arrays
        while True:
            budget = kernel.UNLIMITED if self.unlimited else self.nodes + self.chunk
            if self.keys.size < self.table_size:
                budget = min(budget, GROW_AFTER * self.keys.size)
            self.counter[1] = budget
            found = kernel.negamax(
                np.uint64(position), np.uint64(mask), played, alpha, beta, threats,
                self.keys, self.values, book_keys, book_scores, book_plies,
                self.scratch, self.counter,
            )  # fmt: skip
            if found != kernel.ABORT:
                return found
            if self.keys.size < self.table_size and self.nodes >= GROW_AFTER * self.keys.size:
                self.keys, self.values = kernel.new_table(self.table_size)
            self._check_clock()
            # longer chunks once the search has shown it is long: fewer re-descents
            self.chunk = min(2 * self.chunk, LAST_CHUNK)


FIRST_CHUNK = 1 << 12
"""Nodes of the compiled search's first chunk between two reads of the clock (under a
millisecond); each chunk doubles up to :data:`LAST_CHUNK`.

A chunk must outlast the re-descent to where the last one stopped (at most a node per move
tried on each square of the path, :data:`REDESCENT`, when the table keeps what was proved):
a shorter chunk would spend itself re-descending and never finish."""
REDESCENT = SQUARES * COLUMNS
"""The most nodes a resumed search visits to come back to where its last chunk stopped."""
LAST_CHUNK = 1 << 15
"""The longest chunk: about 5 ms at 6.5 million nodes a second, so a time limit is overrun by
a few milliseconds at most (more when the machine is busy)."""
FIRST_TABLE_SIZE = 131_101
"""Slots of the compiled table a solve starts with: the smallest prime over ``2**17``, the
least for which a slot and a key's low 32 bits identify a 49-bit key (640 KB)."""
GROW_AFTER = 4
"""The table grows once the search has visited this many nodes per slot."""
SMALL_TABLE_SIZE = 2_097_143
"""Slots of the compiled table for a solve limited to under :data:`SMALL_TABLE_SECONDS`: a
prime under ``2**21``, 10 MB; a short solve cannot fill more, and touches fewer pages."""
SMALL_TABLE_SECONDS = 2.0
_NO_BOOK = (np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int8), np.uint64(0))


def load_compiled() -> None:
    """Load (or, once per install, compile) the compiled search before any clock starts:
    a cost of the process, not of the position (:func:`compiled.load_compiled`)."""
    kernel.load_compiled()


def _ready(compiled: bool) -> None:
    """Before a solve reads its clock: the compiled search loaded, when it is the one used."""
    if compiled:
        load_compiled()


def _new_search(
    deadline: float | None,
    should_stop: Callable[[], bool] | None,
    book: Book | None,
    compiled: bool,
    time_limit: float | None,
) -> _Search:
    """The search of one solve: compiled (a table sized to the time limit), or the readable one."""
    if not compiled:
        return _Search(deadline, should_stop, book)
    small = time_limit is not None and time_limit < SMALL_TABLE_SECONDS
    size = SMALL_TABLE_SIZE if small else kernel.TABLE_SIZE
    return _CompiledSearch(deadline, should_stop, book, size)


def _moves_centre_first(mask: int) -> list[tuple[int, int]]:
    """``(column, square)`` of every playable column, centre first."""
    possible = (mask + BOTTOM) & BOARD
    found = []
    for column in CENTRE_FIRST:
        move = possible & COLUMN_MASK[column]
        if move:
            found.append((column, move))
    return found


def _principal_line(search: _Search, position: int, mask: int, played: int, score: int) -> list:
    """Best moves from the position to the end of the game (both sides), centre first.

    After a best move with score ``s`` the opponent's position scores ``-s``; each
    step only asks, move by move, whether the move reaches the known score.
    Stops early (shorter line) if the clock runs out.
    """
    line: list[int] = []
    try:
        while True:
            best = next(
                (
                    (column, move)
                    for column, move in _moves_centre_first(mask)
                    if search.achieves(position, mask, played, move, score)
                ),
                None,
            )
            if best is None:  # cannot happen for an exact score; keeps the loop finite
                return line
            column, move = best
            line.append(column)
            if winning_squares(position, mask) & move or (mask | move) == BOARD:
                return line
            position, mask, played, score = position ^ mask, mask | move, played + 1, -score
    except _OutOfTime:
        return line


def _start(state: ConnectFourState) -> tuple[int, int, int]:
    """The bitboards of ``state``, refusing anything that is not a game in progress."""
    if not isinstance(state, ConnectFourState):
        raise InputError("The Connect Four solver needs a Connect Four position.")
    if state.is_terminal():
        raise InputError("The game is over: there is nothing left to solve.")
    return bitboards(state)


def solve(
    state: ConnectFourState,
    *,
    time_limit: float | None = None,
    should_stop: Callable[[], bool] | None = None,
    book: Book | None = None,
    line: bool = True,
    compiled: bool = True,
    all_best: bool = True,
) -> SolveResult | None:
    """Solve ``state`` exactly: its score, every best move and a principal line.

    Returns None when the search runs out of time (``time_limit`` seconds, checked
    every few thousand nodes, a few milliseconds) or ``should_stop()`` turns true. With a
    ``book`` (:func:`load_book`) positions it holds are not searched. ``line=False`` skips
    the principal line (each of its steps is a few null-window searches).
    ``compiled=False`` searches with the readable pure-Python negamax (the reference the
    tests hold the compiled one to; about 25x slower). ``all_best=False`` stops at the
    first best move, centre first (a player needs one; the others cost a search each).

    Raises
    ------
    InputError
        For a finished game or a state that is not a Connect Four position.
    """
    position, mask, played = _start(state)
    _ready(compiled)
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    search = _new_search(deadline, should_stop, book, compiled, time_limit)
    source = "search"
    try:
        known = book.score_of(state) if book else None
        if known is not None:
            score, source = known, "book"
        else:
            score = search.score(position, mask, played)
        best: list[int] = []
        for column, move in _moves_centre_first(mask):
            if (all_best or not best) and search.achieves(position, mask, played, move, score):
                best.append(column)
    except _OutOfTime:
        return None
    principal = _principal_line(search, position, mask, played, score) if line else []
    return SolveResult(
        score=score,
        best_moves=tuple(best),
        line=tuple(principal),
        nodes=search.nodes,
        seconds=time.perf_counter() - started,
        moves_played=played,
        source=source,
    )


def score(
    state: ConnectFourState,
    *,
    time_limit: float | None = None,
    should_stop: Callable[[], bool] | None = None,
    book: Book | None = None,
    compiled: bool = True,
) -> int | None:
    """The exact score of ``state`` alone (side to move's view; no moves, no line),
    or None when out of time. Raises InputError like :func:`solve`; ``compiled`` as there."""
    position, mask, played = _start(state)
    known = book.score_of(state) if book else None
    if known is not None:
        return known
    _ready(compiled)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    try:
        search = _new_search(deadline, should_stop, book, compiled, time_limit)
        return search.score(position, mask, played)
    except _OutOfTime:
        return None


def move_scores(
    state: ConnectFourState,
    *,
    time_limit: float | None = None,
    should_stop: Callable[[], bool] | None = None,
    book: Book | None = None,
    compiled: bool = True,
) -> dict[int, int] | None:
    """The exact score of every legal move (column → score, mover's view), or None
    when out of time. One table serves all the moves, so later ones go faster;
    ``compiled`` as in :func:`solve`.

    Raises InputError for a finished game or a state that is not Connect Four.
    """
    position, mask, played = _start(state)
    _ready(compiled)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    search = _new_search(deadline, should_stop, book, compiled, time_limit)
    try:
        return {
            column: search.move_score(position, mask, played, move)
            for column, move in sorted(_moves_centre_first(mask))
        }
    except _OutOfTime:
        return None


def threat_order(state: ConnectFourState, columns: Iterable[int]) -> list[int]:
    """``columns`` in the search's own order: most new winning squares for the mover first,
    centre first on ties (a winning move, when there is one, usually comes first)."""
    position, mask, _played = bitboards(state)
    rank = {column: len(CENTRE_FIRST) - i for i, column in enumerate(CENTRE_FIRST)}

    def threats(column: int) -> int:
        """The mover's winning squares once its disc is in ``column``."""
        return winning_squares(position | state.landing(column), mask).bit_count()

    return sorted(columns, key=lambda column: (-threats(column), -rank[column]))


WIN_PROOF_SOURCE = "win proof"
"""The :attr:`SolveResult.source` of a move the solver proved wins (:func:`win_solution`)."""
WIN_PROOF_WORDS = "proved win, how soon not searched"
"""How a move of :func:`win_solution` is explained."""


def win_solution(state: ConnectFourState, time_limit: float) -> SolveResult | None:
    """A move proved to win, by a null-window search per move ("does it score at least 1?")
    in :func:`threat_order`, within ``time_limit`` seconds; None when no move wins or the
    clock ran out first.

    Far cheaper than an exact score early in the game: a position the opponent has just
    given away is proved a win long before its exact score is found. As for a strategy move,
    ``score`` is 1 (a lower bound) and ``source`` is :data:`WIN_PROOF_SOURCE`.

    Raises InputError for a finished game or a state that is not Connect Four.
    """
    position, mask, played = _start(state)
    load_compiled()
    started = time.perf_counter()
    search = _new_search(started + time_limit, None, None, True, time_limit)
    try:
        won = next(
            (
                column
                for column in threat_order(state, state.legal_moves())
                if search.achieves(position, mask, played, state.landing(column), 1)
            ),
            None,
        )
    except _OutOfTime:
        return None
    if won is None:
        return None
    return SolveResult(
        score=1,
        best_moves=(won,),
        line=(won,),
        nodes=search.nodes,
        seconds=time.perf_counter() - started,
        moves_played=played,
        source=WIN_PROOF_SOURCE,
    )


STRATEGY_SOURCE = "strategy"
"""The :attr:`SolveResult.source` of a move read from Red's opening strategy."""
STRATEGY_WORDS = "book move, proved win"
"""How a move of Red's opening strategy is explained: it wins, how soon is not known."""


YELLOW_BOOK_SOURCE = "yellow book"
"""The :attr:`SolveResult.source` of a move read from Yellow's opening book."""
YELLOW_BOOK_WORDS = {
    1: STRATEGY_WORDS,
    0: "book move, proved draw",
    -1: "book move, every move loses",
}
"""How a move of Yellow's opening book is explained, by its outcome."""


@dataclass(frozen=True)
class MoveVerdict:
    """The proved value of one move: its score (mover's view), and a best line from it.

    ``line`` starts with the move itself and follows best play to the end of the game
    (shorter if the clock ran out while following it); ``moves_played`` is the number of
    discs before the move, so :meth:`text` counts plies as the page's verdict does.
    """

    move: int
    score: int
    line: tuple[int, ...]
    moves_played: int

    def text(self) -> str:
        """``"wins in 15 plies"``, ``"draws"`` or ``"loses in 12 plies"``, counted from the
        position before the move (its own ply included), as :func:`describe` counts."""
        plies = plies_to_end(self.score, self.moves_played)
        if plies is None:
            return "draws"
        unit = "ply" if plies == 1 else "plies"
        return f"{'wins' if self.score > 0 else 'loses'} in {plies} {unit}"

    def line_text(self) -> str:
        """The line in the project's notation, e.g. ``"acdcd"``; ``"ac…"`` when the clock
        stopped it before the end of the game (:func:`line_text`)."""
        return line_text(self.line, self.score, self.moves_played)


def move_verdicts(
    state: ConnectFourState,
    *,
    time_limit: float,
    book: Book | None = None,
) -> dict[int, MoveVerdict]:
    """Every legal move whose exact value the solver proves within ``time_limit`` seconds
    in all, with a best line; a move it cannot settle in its share is left out.

    Each move is solved as the position after it, with the time the earlier moves left
    shared among the moves still to try, centre first. Empty for a finished game.
    """
    if state.is_terminal():
        return {}
    position, mask, played = bitboards(state)
    load_compiled()
    deadline = time.perf_counter() + time_limit
    moves = _moves_centre_first(mask)
    found: dict[int, MoveVerdict] = {}
    for index, (column, move) in enumerate(moves):
        if winning_squares(position, mask) & move:
            found[column] = MoveVerdict(column, (SQUARES + 1 - played) // 2, (column,), played)
            continue
        child = state.play(column)
        if child.is_terminal():  # the board is full: a draw
            found[column] = MoveVerdict(column, 0, (column,), played)
            continue
        share = (deadline - time.perf_counter()) / (len(moves) - index)
        result = solve(child, time_limit=share, book=book) if share > 0 else None
        if result is not None:
            found[column] = MoveVerdict(column, -result.score, (column, *result.line), played)
    return dict(sorted(found.items()))


def full_window_score(state: ConnectFourState) -> int:
    """The exact score by one alpha-beta search over the whole score range, no null
    windows and no book: the slower reference the tests hold :func:`solve` to."""
    position, mask, played = _start(state)
    return _Search(None, None, None).full_window_score(position, mask, played)
