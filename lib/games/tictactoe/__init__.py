"""Tic-tac-toe on two 9-bit bitboards: the game every course on game search starts with.

X (player 0) and O (player 1) take turns marking an empty square of a 3x3
grid; three of your marks in a row, column or diagonal wins, and a full
board without a line is a draw. With perfect play the game is a draw, and
the whole game tree is small (255,168 games, 5,478 positions), so the
search can go to the end from any position and its tree can be drawn.

Bit layout: square ``(row, col)`` (row 0 at the top) is bit ``row * 3 + col``
of an ``int``, so the board is::

    0 | 1 | 2        a1 | b1 | c1
    3 | 4 | 5        a2 | b2 | c2
    6 | 7 | 8        a3 | b3 | c3

A state is X's mask and O's mask; whose turn it is follows from the number
of marks (X moves first), so there is nothing else to store. A line is a
mask of three bits and "X owns the line" is ``x & line == line``: no loop
over squares, no copies of a board. A move is the square index 0–8, written
``b2`` (column letter, row number from the top) or as a number 1–9 in the
same reading order (1 = a1, 5 = b2, 9 = c3).

>>> state = initial_state()
>>> state = state.play(parse_move("b2", state))
>>> state = state.play(parse_move("1", state))
>>> print(state)
O . .
. X .
. . .
X to move
>>> [format_move(m) for m in state.legal_moves()][:3]
['b1', 'c1', 'a2']
"""

from __future__ import annotations

import re
from typing import NamedTuple

from lib.errors import InputError
from lib.games.core import ArenaPreset, GameSpec, Heuristic, pruning_pairs

CROSS, NOUGHT = 0, 1
"""The players: X (crosses) moves first, O (noughts) second."""
PLAYER_NAMES = ("X", "O")
SIZE = 3
SQUARES = SIZE * SIZE
FULL = (1 << SQUARES) - 1
"""Mask of all nine squares."""
COLUMNS = "abc"

LINES: tuple[int, ...] = (
    0b000_000_111,  # top row: squares 0, 1, 2
    0b000_111_000,  # middle row
    0b111_000_000,  # bottom row
    0b001_001_001,  # left column: squares 0, 3, 6
    0b010_010_010,  # middle column
    0b100_100_100,  # right column
    0b100_010_001,  # diagonal: squares 0, 4, 8
    0b001_010_100,  # anti-diagonal: squares 2, 4, 6
)
"""The eight winning lines, each the mask of its three squares."""

CENTRE = 1 << 4
CORNERS = (1 << 0) | (1 << 2) | (1 << 6) | (1 << 8)


def has_line(mask: int) -> bool:
    """True when the marks of ``mask`` fill one of the eight lines."""
    return any(mask & line == line for line in LINES)


def squares_of(mask: int) -> list[int]:
    """The square indices of the set bits of ``mask``, in increasing order."""
    return [square for square in range(SQUARES) if mask >> square & 1]


class TicTacToeState(NamedTuple):
    """A position: X's marks and O's marks as 9-bit masks (immutable, hashable).

    The side to move is not stored: X moves when both have as many marks.
    """

    x: int = 0
    o: int = 0

    # -- the game interface ------------------------------------------------------
    @property
    def to_move(self) -> int:
        """X (0) when the numbers of marks are equal, else O (1)."""
        return CROSS if self.x.bit_count() == self.o.bit_count() else NOUGHT

    @property
    def key(self) -> int:
        """The position as one 18-bit integer (O's marks above X's)."""
        return self.o << SQUARES | self.x

    def empty(self) -> int:
        """Mask of the empty squares."""
        return FULL & ~(self.x | self.o)

    def legal_moves(self) -> list[int]:
        """The empty squares in increasing order; none once somebody has a line."""
        if has_line(self.x) or has_line(self.o):
            return []
        return squares_of(self.empty())

    def count_moves(self) -> int:
        """``len(self.legal_moves())`` without building the list (a perft hook)."""
        if has_line(self.x) or has_line(self.o):
            return 0
        return self.empty().bit_count()

    def play(self, move: int) -> TicTacToeState:
        """The position after the side to move marks square ``move``.

        Raises InputError for a square off the board or already marked.
        """
        if not 0 <= move < SQUARES:
            raise InputError(f"There is no square {move!r}: squares are 0–8 (a1 to c3).")
        bit = 1 << move
        if (self.x | self.o) & bit:
            raise InputError(f"{format_move(move)} is already marked.")
        if self.to_move == CROSS:
            return TicTacToeState(self.x | bit, self.o)
        return TicTacToeState(self.x, self.o | bit)

    def is_terminal(self) -> bool:
        """True when somebody has three in a row or the board is full."""
        return has_line(self.x) or has_line(self.o) or not self.empty()

    def winner(self) -> int | None:
        """The player with three in a row; None for a draw or an unfinished game."""
        if has_line(self.x):
            return CROSS
        if has_line(self.o):
            return NOUGHT
        return None

    def score(self, player: int) -> float:
        """+1 if ``player`` has won, -1 if the opponent has, 0 otherwise."""
        winner = self.winner()
        if winner is None:
            return 0.0
        return 1.0 if winner == player else -1.0

    def plies_left_hint(self) -> int:
        """The number of empty squares (an upper bound on the plies left)."""
        return self.empty().bit_count()

    # -- helpers for pages and tests ---------------------------------------------
    def cell(self, row: int, col: int) -> int | None:
        """CROSS, NOUGHT or None for the square at ``row``, ``col``."""
        bit = 1 << (row * SIZE + col)
        if self.x & bit:
            return CROSS
        if self.o & bit:
            return NOUGHT
        return None

    def winning_line(self) -> int:
        """The mask of a completed line (0 if there is none)."""
        for line in LINES:
            if self.x & line == line or self.o & line == line:
                return line
        return 0

    def to_text(self) -> str:
        """The board as three rows of ``X``, ``O`` and ``.``, then who moves."""
        symbols = {CROSS: "X", NOUGHT: "O", None: "."}
        rows = [
            " ".join(symbols[self.cell(row, col)] for col in range(SIZE)) for row in range(SIZE)
        ]
        if self.is_terminal():
            winner = self.winner()
            last = "Draw" if winner is None else f"{PLAYER_NAMES[winner]} wins"
        else:
            last = f"{PLAYER_NAMES[self.to_move]} to move"
        return "\n".join([*rows, last])

    def __str__(self) -> str:
        return self.to_text()


def initial_state() -> TicTacToeState:
    """The empty board, X to move."""
    return TicTacToeState(0, 0)


def state_from_text(text: str) -> TicTacToeState:
    """A position from three rows of ``X``, ``O`` and ``.`` (spaces ignored).

    Raises :class:`InputError` for a malformed board or impossible mark counts
    (X moves first, so X has as many marks as O or one more).
    """
    rows = [line.replace(" ", "") for line in str(text).strip().splitlines() if line.strip()]
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise InputError("A tic-tac-toe board is three rows of three squares (X, O or .).")
    x = o = 0
    for row, line in enumerate(rows):
        for col, char in enumerate(line.upper()):
            bit = 1 << (row * SIZE + col)
            if char == "X":
                x |= bit
            elif char == "O":
                o |= bit
            elif char not in ".-":
                raise InputError(f"Row {row + 1}, column {col + 1}: unknown symbol {char!r}.")
    if x.bit_count() - o.bit_count() not in (0, 1):
        raise InputError("X moves first: X must have as many marks as O, or one more.")
    return TicTacToeState(x, o)


def square(row: int, col: int) -> int:
    """The move marking ``row``, ``col`` (0-based, row 0 at the top)."""
    return row * SIZE + col


def format_move(move: int) -> str:
    """``"b2"`` style name of a square: column a–c, row 1–3 from the top."""
    row, col = divmod(int(move), SIZE)
    return f"{COLUMNS[col]}{row + 1}"


_NAME = re.compile(r"^([abc])([123])$")
_NUMBER = re.compile(r"^[1-9]$")


def parse_move(text: str, state: TicTacToeState) -> int:
    """The square written ``text`` (``"b2"``, or 1–9 in reading order), checked to be free.

    Raises
    ------
    InputError
        For text that names no square, a square already marked, or a finished game.
    """
    cleaned = str(text).strip().lower()
    if _NUMBER.match(cleaned):
        move = int(cleaned) - 1
    else:
        match = _NAME.match(cleaned)
        if not match:
            raise InputError(
                f"{text!r} is not a square: write a column a–c and a row 1–3 like 'b2', "
                "or a number 1–9 (1 = a1 top left, 9 = c3 bottom right)."
            )
        move = square(int(match[2]) - 1, COLUMNS.index(match[1]))
    if state.is_terminal():
        raise InputError("The game is over: no square can be marked.")
    owner = state.cell(*divmod(move, SIZE))
    if owner is not None:
        raise InputError(
            f"{format_move(move)} already holds an {PLAYER_NAMES[owner]}; pick an empty square."
        )
    return move


# -- heuristics -------------------------------------------------------------------


def line_counts(state: TicTacToeState, player: int) -> tuple[int, int, int, int]:
    """``(my open twos, my open ones, their open twos, their open ones)``.

    A line is *open* for a player when the opponent has no mark in it; an open
    two is an open line holding two of the player's marks (a threat to win).
    """
    mine, theirs = (state.x, state.o) if player == CROSS else (state.o, state.x)
    my_two = my_one = their_two = their_one = 0
    for line in LINES:
        own, other = (mine & line).bit_count(), (theirs & line).bit_count()
        if not other:
            if own == 2:
                my_two += 1
            elif own == 1:
                my_one += 1
        elif not own:
            if other == 2:
                their_two += 1
            elif other == 1:
                their_one += 1
    return my_two, my_one, their_two, their_one


def lines(state: TicTacToeState, player: int, weights: tuple[float, ...]) -> float:
    """Open twos and ones (mine minus theirs) plus the centre and corners held.

    ``two·(my open twos − theirs) + one·(my open ones − theirs) + centre·(±1 for
    the centre) + corner·(my corners − theirs)``.
    """
    w_two, w_one, w_centre, w_corner = weights
    my_two, my_one, their_two, their_one = line_counts(state, player)
    mine, theirs = (state.x, state.o) if player == CROSS else (state.o, state.x)
    centre = (1 if mine & CENTRE else 0) - (1 if theirs & CENTRE else 0)
    corners = (mine & CORNERS).bit_count() - (theirs & CORNERS).bit_count()
    return (
        w_two * (my_two - their_two)
        + w_one * (my_one - their_one)
        + w_centre * centre
        + w_corner * corners
    )


def open_lines(state: TicTacToeState, player: int, weights: tuple[float, ...] = ()) -> float:
    """The classic evaluation (Nilsson): lines still open for me minus lines open for them."""
    mine, theirs = (state.x, state.o) if player == CROSS else (state.o, state.x)
    mine_open = sum(1 for line in LINES if not theirs & line)
    theirs_open = sum(1 for line in LINES if not mine & line)
    return float(mine_open - theirs_open)


HEURISTICS: dict[str, Heuristic] = {
    "lines": Heuristic(
        "lines",
        "Open two-in-a-rows (weight 'two') and open single marks ('one'), mine minus the "
        "opponent's, plus the centre and the corners held.",
        lines,
        ("two", "one", "centre", "corner"),
        (10.0, 1.0, 3.0, 1.0),
    ),
    "open lines": Heuristic(
        "open lines",
        "The textbook evaluation: lines still open for me (no opponent mark) minus lines "
        "still open for the opponent.",
        open_lines,
    ),
}
"""Tic-tac-toe heuristics by name; ``evaluate(state, player, weights)`` from ``player``'s view."""

GAME = GameSpec(
    name="tictactoe",
    title="Tic-tac-toe",
    initial_state=initial_state,
    format_move=format_move,
    parse_move=parse_move,
    heuristics=HEURISTICS,
    default_heuristic="lines",
    state_type=TicTacToeState,
    player_names=PLAYER_NAMES,
    evolve_heuristic="lines",
    evolve_benchmark="alphabeta:depth=2",
    default_player="alphabeta:time=1",  # deepens while its second lasts
    view="lib.games.tictactoe.view",
    features="lib.games.tictactoe.features",
    icon=":material/tag:",
    teaches="Where every course starts: the whole game tree fits on screen, so you can watch "
    "minimax find that perfect play draws and alpha-beta prune the branches that cannot matter.",
    order=5,
    tree_depth=9,
    step_examples=(
        ("Endgame: X to move must block b3 (a draw)", ("a1", "b2", "c3", "b1")),
        ("Endgame: X to move must block a2 (a draw)", ("b2", "a1", "c1", "a3")),
        ("Endgame: X has forked, O to move (X wins)", ("a1", "b2", "c3", "a3", "c1")),
        ("Six squares left, O to move (X wins)", ("a1", "b1", "b2")),
    ),
    presets=(
        ArenaPreset(
            "tictactoe_perfect_draws",
            "Tic-tac-toe: perfect play draws",
            "Alpha-beta searching to the end of the game (depth 9) against itself: every "
            "game is a draw. Against random it never loses.",
            (
                ("alpha-beta d9 vs alpha-beta d9", "alphabeta:depth=9", "alphabeta:depth=9"),
                ("alpha-beta d9 vs random", "alphabeta:depth=9", "random"),
            ),
            games=20,
        ),
        ArenaPreset(
            "tictactoe_pruning",
            "Tic-tac-toe: depths 1/2/9 with and without pruning vs random",
            "Minimax and alpha-beta (pruning only) looking 1, 2 and 9 plies ahead against a "
            "random player: the same results, far fewer nodes with pruning (minimax at depth 9 "
            "searches the whole tree, about 3 s for an opening move).",
            pruning_pairs((1, 2, 9), (1, 2, 9)),
            games=20,
        ),
    ),
)
