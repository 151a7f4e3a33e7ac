"""Othello (Reversi) on integer bitboards, any even board size from 4 to 8.

Squares are bits of a Python ``int`` laid out with a row stride of 8 whatever
the board size: square ``(row, col)`` is bit ``row * 8 + col``, row 0 at the top.
A move is that square index (so a move means the same square on every board
size), or :data:`PASS` (``-1``) when the player to move has no legal move but
the opponent has: passing is an explicit move, so it takes one ply in the
search and in perft, as in the published perft tables.

Move generation uses directional shifts of whole bitboards (a "dumb7fill"
that stops as soon as a direction runs dry), never a per-square loop; the
number of legal moves is a popcount, which :func:`lib.games.core.perft` uses
at depth 1 through :meth:`OthelloState.count_moves`.

Notation: columns ``a``–``h`` left to right, rows ``1``–``8`` top to bottom, so
from the standard start Black's legal moves are d3, c4, f5 and e6.

>>> state = initial_state(8)
>>> [format_move(m) for m in state.legal_moves()]
['d3', 'c4', 'f5', 'e6']
>>> after = state.play(parse_move("d3", state))
>>> after.counts()
(4, 1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from lib.errors import InputError
from lib.games.core import PLAIN_ALPHABETA, ArenaPreset, GameSpec, Heuristic, pruning_pairs

PASS = -1
"""The pass move (only legal when the player to move has no other move)."""

SIZES = (4, 6, 8)
"""Board sizes supported (the UI offers 6 and 8)."""

BLACK, WHITE = 0, 1
COLUMNS = "abcdefgh"


@dataclass(frozen=True)
class Geometry:
    """Bit masks of one board size (read-only constants)."""

    size: int
    full: int  # every square of the board
    inner_cols: int  # squares not in the first or last column (stops wrap-around)
    corners: int
    regions: dict[str, int]  # the 8 positional regions, see REGION_NAMES
    region_sizes: dict[str, int]
    region_weights: tuple[tuple[int, float], ...] = ()  # (mask, 1/size or 0) in REGION_NAMES order


REGION_NAMES = (
    "corner",
    "x_square",
    "c_square",
    "edge_a",
    "edge_b",
    "inner_ring",
    "mid_ring",
    "centre",
)
"""Square classes of the positional heuristics, in order of precedence.

``corner``; ``x_square`` (diagonal neighbour of a corner); ``c_square``
(edge neighbour of a corner); ``edge_a`` (edge squares two from a corner);
``edge_b`` (the other edge squares); ``inner_ring`` (second ring without the
X-squares); ``mid_ring`` and ``centre`` (the third ring and the central 2x2,
together the centre 4x4 region on 8x8). A class may be empty on small boards.
"""


def _region_of(row: int, col: int, size: int) -> str:
    last = size - 1
    ring = min(row, col, last - row, last - col)
    if row in (0, last) and col in (0, last):
        return "corner"
    if row in (1, last - 1) and col in (1, last - 1):
        return "x_square"
    if ring == 0:
        along = min(col, last - col) if row in (0, last) else min(row, last - row)
        return {1: "c_square", 2: "edge_a"}.get(along, "edge_b")
    if ring == size // 2 - 1:
        return "centre"
    if ring == 1:
        return "inner_ring"
    return "mid_ring"


def _geometry(size: int) -> Geometry:
    full = inner = corners = 0
    regions = dict.fromkeys(REGION_NAMES, 0)
    for row in range(size):
        for col in range(size):
            bit = 1 << (row * 8 + col)
            full |= bit
            if 0 < col < size - 1:
                inner |= bit
            region = _region_of(row, col, size)
            regions[region] |= bit
            if region == "corner":
                corners |= bit
    sizes = {name: mask.bit_count() for name, mask in regions.items()}
    per_square = tuple(
        (regions[name], 1.0 / sizes[name] if sizes[name] else 0.0) for name in REGION_NAMES
    )
    return Geometry(size, full, inner, corners, regions, sizes, per_square)


GEOMETRY: dict[int, Geometry] = {size: _geometry(size) for size in SIZES}
"""Masks per board size (constants computed at import, never mutated)."""


def move_mask(player: int, opponent: int, full: int, inner: int) -> int:
    """Bitboard of the legal moves of ``player`` against ``opponent`` (no pass).

    Eight directional fills of the whole board: in each direction the
    opponent discs adjacent to a run starting at one of ``player``'s discs are
    gathered by repeated shifts (at most ``size - 2`` of them, stopping early),
    and the empty square just beyond a run is a legal move.
    """
    empty = full ^ (player | opponent)
    oh = opponent & inner  # horizontal and diagonal runs must not wrap around
    # east (<< 1)
    x = oh & (player << 1)
    t = x
    while x:
        x = oh & (x << 1)
        t |= x
    moves = t << 1
    # west (>> 1)
    x = oh & (player >> 1)
    t = x
    while x:
        x = oh & (x >> 1)
        t |= x
    moves |= t >> 1
    # south (<< 8)
    x = opponent & (player << 8)
    t = x
    while x:
        x = opponent & (x << 8)
        t |= x
    moves |= t << 8
    # north (>> 8)
    x = opponent & (player >> 8)
    t = x
    while x:
        x = opponent & (x >> 8)
        t |= x
    moves |= t >> 8
    # south-east (<< 9)
    x = oh & (player << 9)
    t = x
    while x:
        x = oh & (x << 9)
        t |= x
    moves |= t << 9
    # north-west (>> 9)
    x = oh & (player >> 9)
    t = x
    while x:
        x = oh & (x >> 9)
        t |= x
    moves |= t >> 9
    # south-west (<< 7)
    x = oh & (player << 7)
    t = x
    while x:
        x = oh & (x << 7)
        t |= x
    moves |= t << 7
    # north-east (>> 7)
    x = oh & (player >> 7)
    t = x
    while x:
        x = oh & (x >> 7)
        t |= x
    moves |= t >> 7
    return moves & empty


def flip_mask(square: int, player: int, opponent: int, inner: int) -> int:
    """Bitboard of the opponent discs flipped when ``player`` plays on ``square``."""
    bit = 1 << square
    oh = opponent & inner
    flips = 0
    # left shifts: east 1, south-west 7, south 8, south-east 9
    for shift, run_of in ((1, oh), (7, oh), (8, opponent), (9, oh)):
        x = run_of & (bit << shift)
        if x:
            run = 0
            while x:
                run |= x
                x = run_of & (x << shift)
            if (run << shift) & player:
                flips |= run
        x = run_of & (bit >> shift)
        if x:
            run = 0
            while x:
                run |= x
                x = run_of & (x >> shift)
            if (run >> shift) & player:
                flips |= run
    return flips


def squares_of(mask: int) -> list[int]:
    """The square indices of the set bits of ``mask``, in increasing order."""
    squares = []
    while mask:
        low = mask & -mask
        squares.append(low.bit_length() - 1)
        mask ^= low
    return squares


class OthelloState(NamedTuple):
    """An Othello position: two bitboards, the side to move and the board size.

    Immutable and hashable (a tuple of four ints); ``play`` returns a new state.
    """

    black: int
    white: int
    to_move: int
    size: int = 8

    # -- the game interface ------------------------------------------------------
    @property
    def key(self) -> tuple[int, int, int, int]:
        """The state itself: four small ints identify the position."""
        return self

    def _sides(self) -> tuple[int, int]:
        return (self.black, self.white) if self.to_move == BLACK else (self.white, self.black)

    def move_mask(self) -> int:
        """Bitboard of the placing moves of the player to move (0 if it must pass)."""
        geometry = GEOMETRY[self.size]
        mine, theirs = self._sides()
        return move_mask(mine, theirs, geometry.full, geometry.inner_cols)

    def legal_moves(self) -> list[int]:
        """Squares to play in increasing order, ``[PASS]`` if forced to pass, ``[]`` if over."""
        geometry = GEOMETRY[self.size]
        mine, theirs = self._sides()
        mask = move_mask(mine, theirs, geometry.full, geometry.inner_cols)
        if mask:
            return squares_of(mask)
        if move_mask(theirs, mine, geometry.full, geometry.inner_cols):
            return [PASS]
        return []

    def count_moves(self) -> int:
        """``len(self.legal_moves())`` without building the list (fast perft hook)."""
        geometry = GEOMETRY[self.size]
        mine, theirs = self._sides()
        count = move_mask(mine, theirs, geometry.full, geometry.inner_cols).bit_count()
        if count:
            return count
        return 1 if move_mask(theirs, mine, geometry.full, geometry.inner_cols) else 0

    def play(self, move: int) -> OthelloState:
        """The position after ``move``; raises InputError for a square that flips nothing.

        (A pass is not checked here, for speed: use :func:`parse_move` or
        :meth:`legal_moves` to validate user input.)
        """
        if move == PASS:
            return OthelloState(self.black, self.white, 1 - self.to_move, self.size)
        bit = 1 << move
        inner = GEOMETRY[self.size].inner_cols
        if self.to_move == BLACK:
            flips = flip_mask(move, self.black, self.white, inner)
            if not flips or bit & (self.black | self.white):
                raise InputError(f"{format_move(move)} is not a legal move here.")
            return OthelloState(self.black | bit | flips, self.white ^ flips, WHITE, self.size)
        flips = flip_mask(move, self.white, self.black, inner)
        if not flips or bit & (self.black | self.white):
            raise InputError(f"{format_move(move)} is not a legal move here.")
        return OthelloState(self.black ^ flips, self.white | bit | flips, BLACK, self.size)

    def is_terminal(self) -> bool:
        """True when neither side can move."""
        geometry = GEOMETRY[self.size]
        full, inner = geometry.full, geometry.inner_cols
        return not (
            move_mask(self.black, self.white, full, inner)
            or move_mask(self.white, self.black, full, inner)
        )

    def counts(self) -> tuple[int, int]:
        """(black discs, white discs)."""
        return self.black.bit_count(), self.white.bit_count()

    def winner(self) -> int | None:
        """The player with more discs once the game is over; None for a draw or unfinished game."""
        if not self.is_terminal():
            return None
        black, white = self.counts()
        if black == white:
            return None
        return BLACK if black > white else WHITE

    def score(self, player: int) -> float:
        """Disc difference from ``player``'s view."""
        black, white = self.counts()
        return float(black - white if player == BLACK else white - black)

    def plies_left_hint(self) -> int:
        """The number of empty squares (a search hint for the exact endgame)."""
        return GEOMETRY[self.size].full.bit_count() - (self.black | self.white).bit_count()

    # -- helpers for pages and tests ---------------------------------------------
    def flips(self, move: int) -> int:
        """Bitboard of the discs ``move`` would flip (0 for a pass or an illegal move)."""
        if move == PASS:
            return 0
        mine, theirs = self._sides()
        if (mine | theirs) >> move & 1:
            return 0
        return flip_mask(move, mine, theirs, GEOMETRY[self.size].inner_cols)

    def cell(self, row: int, col: int) -> int | None:
        """BLACK, WHITE or None for the square at ``row``, ``col``."""
        bit = 1 << (row * 8 + col)
        if self.black & bit:
            return BLACK
        if self.white & bit:
            return WHITE
        return None

    def to_text(self) -> str:
        """The board as rows of ``X`` (Black), ``O`` (White) and ``.``, then who moves."""
        symbols = {BLACK: "X", WHITE: "O", None: "."}
        rows = [
            "".join(symbols[self.cell(row, col)] for col in range(self.size))
            for row in range(self.size)
        ]
        return "\n".join([*rows, f"{PLAYER_NAMES[self.to_move]} to move"])

    def __str__(self) -> str:
        return self.to_text()


PLAYER_NAMES = ("Black", "White")


def initial_state(size: int = 8) -> OthelloState:
    """The standard start: White on d4/e5, Black on e4/d5 (scaled to ``size``), Black to move."""
    if size not in SIZES:
        raise InputError(f"Othello board size must be one of {SIZES}, not {size!r}.")
    half = size // 2
    white = (1 << ((half - 1) * 8 + half - 1)) | (1 << (half * 8 + half))
    black = (1 << ((half - 1) * 8 + half)) | (1 << (half * 8 + half - 1))
    return OthelloState(black, white, BLACK, size)


def state_from_text(text: str, to_move: int = BLACK) -> OthelloState:
    """Build a position from rows of ``X``/``B`` (Black), ``O``/``W`` (White) and ``.``/``-``."""
    rows = [line.strip().replace(" ", "") for line in text.strip().splitlines() if line.strip()]
    size = len(rows)
    if size not in SIZES:
        raise InputError(f"A board needs {SIZES} rows, got {size}.")
    black = white = 0
    for row, line in enumerate(rows):
        if len(line) != size:
            raise InputError(f"Row {row + 1} has {len(line)} squares; expected {size}.")
        for col, char in enumerate(line.upper()):
            bit = 1 << (row * 8 + col)
            if char in "XB":
                black |= bit
            elif char in "OW":
                white |= bit
            elif char not in ".-":
                raise InputError(f"Row {row + 1}, column {col + 1}: unknown symbol {char!r}.")
    if to_move not in (BLACK, WHITE):
        raise InputError(f"to_move must be 0 (Black) or 1 (White), not {to_move!r}.")
    return OthelloState(black, white, to_move, size)


def format_move(move: int) -> str:
    """``"d3"`` style name of a move (column letter, row number from the top), or ``"pass"``."""
    if move == PASS:
        return "pass"
    row, col = divmod(int(move), 8)
    return f"{COLUMNS[col]}{row + 1}"


def square(row: int, col: int) -> int:
    """The move placing a disc at ``row``, ``col`` (0-based, row 0 at the top)."""
    return row * 8 + col


_MOVE_PATTERN = re.compile(r"^([a-h])([1-8])$")


def parse_move(text: str, state: OthelloState) -> int:
    """Parse ``"d3"`` / ``"pass"`` and check it is legal in ``state``.

    Raises
    ------
    InputError
        For text that is not a square name, a square off the board, or an
        illegal move (the message lists the legal ones).
    """
    cleaned = str(text).strip().lower()
    legal = state.legal_moves()
    names = ", ".join(format_move(m) for m in legal) or "none (the game is over)"
    if cleaned == "pass":
        move = PASS
    else:
        match = _MOVE_PATTERN.match(cleaned)
        if not match:
            raise InputError(
                f"{text!r} is not a move: write a column a–h and a row 1–8 like 'd3', or 'pass'."
            )
        col, row = COLUMNS.index(match.group(1)), int(match.group(2)) - 1
        if row >= state.size or col >= state.size:
            raise InputError(f"{cleaned} is off the {state.size}x{state.size} board.")
        move = square(row, col)
    if move not in legal:
        raise InputError(f"{cleaned} is not legal here; legal moves: {names}.")
    return move


# -- heuristics -------------------------------------------------------------------


def _sides_for(state: OthelloState, player: int) -> tuple[int, int]:
    return (state.black, state.white) if player == BLACK else (state.white, state.black)


def _ratio(mine: int, theirs: int) -> float:
    total = mine + theirs
    return (mine - theirs) / total if total else 0.0


def disc_difference(state: OthelloState, player: int, weights: tuple[float, ...] = ()) -> float:
    """``(mine − theirs) / (mine + theirs)`` over all discs, in [-1, 1]."""
    mine, theirs = _sides_for(state, player)
    return _ratio(mine.bit_count(), theirs.bit_count())


def corner_difference(state: OthelloState, player: int, weights: tuple[float, ...] = ()) -> float:
    """``(mine − theirs) / (mine + theirs)`` over the four corners (0 with no corner taken)."""
    mine, theirs = _sides_for(state, player)
    corners = GEOMETRY[state.size].corners
    return _ratio((mine & corners).bit_count(), (theirs & corners).bit_count())


def mobility(state: OthelloState, player: int, weights: tuple[float, ...] = ()) -> float:
    """``(mine − theirs) / (mine + theirs)`` over the numbers of legal moves."""
    mine, theirs = _sides_for(state, player)
    geometry = GEOMETRY[state.size]
    full, inner = geometry.full, geometry.inner_cols
    return _ratio(
        move_mask(mine, theirs, full, inner).bit_count(),
        move_mask(theirs, mine, full, inner).bit_count(),
    )


TABLE_CLASSES = ("corner", "x_square", "c_square", "edge_a", "edge_b", "inner_ring", "centre")
"""Weight names of the square-table heuristic (``centre`` covers mid ring and centre)."""


def square_table(state: OthelloState, player: int, weights: tuple[float, ...]) -> float:
    """Sum of the square weights of my discs minus those of the opponent's discs.

    Defaults (8x8): corners 100, X-squares −50, C-squares −20, edges 10 / 5,
    inner ring −2, centre 4x4 −1.
    """
    mine, theirs = _sides_for(state, player)
    regions = GEOMETRY[state.size].regions
    (corner, x_square, c_square, edge_a, edge_b, inner_ring, centre) = weights
    total = 0.0
    for weight, name in (
        (corner, "corner"),
        (x_square, "x_square"),
        (c_square, "c_square"),
        (edge_a, "edge_a"),
        (edge_b, "edge_b"),
        (inner_ring, "inner_ring"),
    ):
        mask = regions[name]
        total += weight * ((mine & mask).bit_count() - (theirs & mask).bit_count())
    mask = regions["mid_ring"] | regions["centre"]
    total += centre * ((mine & mask).bit_count() - (theirs & mask).bit_count())
    return total


def weighted_mix(state: OthelloState, player: int, weights: tuple[float, ...]) -> float:
    """``w_corners·corners + w_discs·discs + w_mobility·mobility`` (each normalised to [-1, 1])."""
    w_corners, w_discs, w_mobility = weights
    value = w_corners * corner_difference(state, player) + w_discs * disc_difference(state, player)
    if w_mobility:
        value += w_mobility * mobility(state, player)
    return value


POSITIONAL_FEATURES = (*REGION_NAMES, "mobility")
"""The 9 features (and weight names) of the positional heuristic, in weight order."""


def positional_features(state: OthelloState, player: int) -> tuple[float, ...]:
    """The 9 positional features for ``player``: 8 region differences, each divided by
    the number of squares in the region (0 for an empty region), and mobility."""
    mine, theirs = _sides_for(state, player)
    geometry = GEOMETRY[state.size]
    features = []
    for name in REGION_NAMES:
        count = geometry.region_sizes[name]
        mask = geometry.regions[name]
        features.append(
            ((mine & mask).bit_count() - (theirs & mask).bit_count()) / count if count else 0.0
        )
    features.append(mobility(state, player))
    return tuple(features)


def positional9(state: OthelloState, player: int, weights: tuple[float, ...]) -> float:
    """Weighted sum of the 9 :func:`positional_features` (weights tuned by a GA)."""
    mine, theirs = _sides_for(state, player)
    geometry = GEOMETRY[state.size]
    total = 0.0
    for weight, (mask, per_square) in zip(weights, geometry.region_weights, strict=False):
        if weight and per_square:
            total += weight * per_square * ((mine & mask).bit_count() - (theirs & mask).bit_count())
    weight = weights[8]
    if weight:
        full, inner = geometry.full, geometry.inner_cols
        my_moves = move_mask(mine, theirs, full, inner).bit_count()
        their_moves = move_mask(theirs, mine, full, inner).bit_count()
        if my_moves + their_moves:
            total += weight * (my_moves - their_moves) / (my_moves + their_moves)
    return total


HEURISTICS: dict[str, Heuristic] = {
    "discs": Heuristic(
        "discs",
        "Disc difference (mine − theirs) / (mine + theirs).",
        disc_difference,
    ),
    "corners": Heuristic(
        "corners",
        "Corner difference (mine − theirs) / (mine + theirs); 0 before any corner is taken.",
        corner_difference,
    ),
    "mobility": Heuristic(
        "mobility",
        "Legal-move difference (mine − theirs) / (mine + theirs).",
        mobility,
    ),
    "table": Heuristic(
        "table",
        "Static square weights: corners 100, X-squares −50, C-squares −20, edges 10/5, "
        "inner ring −2, centre −1; my sum minus the opponent's.",
        square_table,
        TABLE_CLASSES,
        (100.0, -50.0, -20.0, 10.0, 5.0, -2.0, -1.0),
    ),
    "weighted": Heuristic(
        "weighted",
        "Weighted mix: 5·corners + 2·discs (+ mobility, weight 0 by default).",
        weighted_mix,
        ("corners", "discs", "mobility"),
        (5.0, 2.0, 0.0),
    ),
    "positional9": Heuristic(
        "positional9",
        "9 features (corners, X, C, edge A/B, inner ring, mid ring, centre, mobility), "
        "each region's disc difference divided by its number of squares; a GA tunes the weights.",
        positional9,
        POSITIONAL_FEATURES,
        (10.0, -5.0, -2.5, 1.0, 0.5, -0.5, 0.1, 0.1, 3.0),
    ),
}
"""Othello heuristics by name; ``evaluate(state, player, weights)`` from ``player``'s view."""

DEFAULT_HEURISTIC = "positional9"

GAME = GameSpec(
    name="othello",
    title="Othello",
    initial_state=initial_state,
    format_move=format_move,
    parse_move=parse_move,
    heuristics=HEURISTICS,
    default_heuristic=DEFAULT_HEURISTIC,
    state_type=OthelloState,
    exact_solver="lib.games.othello.endgame",
    player_names=PLAYER_NAMES,
    options={"size": (6, 8)},
    option_labels={"size": "Board size"},
    pass_move=PASS,
    evolve_heuristic="positional9",
    # the course's fixed opponent: alpha-beta at depth 1 on the classic square table
    evolve_benchmark="alphabeta:depth=1,heuristic=table",
    evolve_options=(("size", 6),),
    default_player="alphabeta:time=1",  # deepens while its second lasts
    view="lib.games.othello.view",
    features="lib.games.othello.features",
    icon=":material/grid_on:",
    teaches="Play Othello against minimax, alpha-beta or expectimax and see what the AI "
    "searched: nodes, cut-offs, the score of every move, the search tree.",
    order=10,
    presets=(
        ArenaPreset(
            "othello_depth3",
            "Othello 6x6: alpha-beta depth 3 vs random",
            "The smallest study (and the benchmark's workload): alpha-beta at depth 3 "
            "with move ordering and a transposition table against a random player.",
            (("alpha-beta d3 vs random", "alphabeta:depth=3", "random"),),
            (("size", 6),),
        ),
        ArenaPreset(
            "othello_pruning",
            "Othello 6x6: depths 1/3/5/7 with and without pruning vs random",
            "The course's first table: win %, nodes and time per game of minimax (no "
            "pruning) and alpha-beta (pruning only) at each depth, 150 games each. "
            "Minimax at depth 7 takes tens of seconds per game.",
            pruning_pairs((1, 3, 5, 7), (1, 3, 5, 7)),
            (("size", 6),),
        ),
        ArenaPreset(
            "othello_ordering",
            "Othello 6x6: move ordering on/off (EBF)",
            "Alpha-beta at depths 3 and 5 with and without move ordering (no "
            "transposition table), against random: same moves' quality, fewer nodes, a "
            "smaller effective branching factor with ordering.",
            tuple(
                pair
                for d in (3, 5)
                for pair in (
                    (f"d{d} ordering off", PLAIN_ALPHABETA.format(d=d), "random"),
                    (f"d{d} ordering on", f"alphabeta:depth={d},tt=false", "random"),
                )
            ),
            (("size", 6),),
        ),
        ArenaPreset(
            "othello_evaluation",
            "Othello 6x6: simple vs improved evaluation",
            "Alpha-beta depth 3 with the simple disc count against the square-table "
            "evaluation: head to head, and each against random.",
            (
                (
                    "table vs discs",
                    "alphabeta:depth=3,heuristic=table",
                    "alphabeta:depth=3,heuristic=discs",
                ),
                ("discs vs random", "alphabeta:depth=3,heuristic=discs", "random"),
                ("table vs random", "alphabeta:depth=3,heuristic=table", "random"),
            ),
            (("size", 6),),
        ),
    ),
)
