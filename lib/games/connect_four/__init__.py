"""Connect Four on integer bitboards: 7 columns, 6 rows, four in a row wins.

Red (player 0) and Yellow (player 1) take turns dropping a disc into one of
the seven columns; it falls to the lowest empty square. Four discs of one
colour in a row, a column or a diagonal win; a full board without four in a
row is a draw. A move is the column, 0–6, written ``a``–``g`` from left to
right (the numbers ``1``–``7`` are read too).

Bit layout (the classic one, John Tromp's): each column takes 7 bits, six for
its squares from the bottom up and one spare bit on top that always stays
empty::

     6 13 20 27 34 41 48     <- spare bits (never set)
     5 12 19 26 33 40 47     <- top row
     4 11 18 25 32 39 46
     3 10 17 24 31 38 45
     2  9 16 23 30 37 44
     1  8 15 22 29 36 43
     0  7 14 21 28 35 42     <- bottom row
     a  b  c  d  e  f  g

Square ``(column c, height h)`` is bit ``7 * c + h``. Going up a column is a
shift by 1, along a row by 7, along the diagonals by 6 and 8. The spare bit
stops a run from wrapping from the top of one column into the bottom of the
next, so "four in a row in direction ``s``" is two shifts and two ANDs::

    pairs = discs & (discs >> s)            # a disc with another one s further on
    four = pairs & (pairs >> 2 * s)         # two such pairs, 2s apart

and the square a disc dropped into column ``c`` lands on is the lowest empty
bit of that column: ``(occupied + BOTTOM) & COLUMN[c]``, where adding the
column's bottom bit carries over the occupied squares.

A state is Red's mask and Yellow's mask; the side to move follows from the
number of discs (Red moves first).

>>> state = initial_state()
>>> for name in "ddcc":
...     state = state.play(parse_move(name, state))
>>> state.to_text().splitlines()[-3:]  # the two bottom rows, then who moves
['..YY...', '..RR...', 'Red to move']
>>> state_from_moves("ddcc" "ba" "e").winner()  # Red: b, c, d, e along the bottom row
0
"""

from __future__ import annotations

import re
from typing import NamedTuple

from lib.errors import InputError
from lib.games.core import ArenaPreset, GameSpec, Heuristic, pruning_pairs

RED, YELLOW = 0, 1
PLAYER_NAMES = ("Red", "Yellow")
COLUMNS = 7
ROWS = 6
STRIDE = ROWS + 1
"""Bits per column: six squares and one spare bit on top."""
COLUMN_NAMES = "abcdefg"

BOTTOM = sum(1 << (STRIDE * c) for c in range(COLUMNS))
"""The bottom square of every column."""
COLUMN_MASKS: tuple[int, ...] = tuple(((1 << ROWS) - 1) << (STRIDE * c) for c in range(COLUMNS))
"""The six squares of each column."""
TOP: tuple[int, ...] = tuple(1 << (STRIDE * c + ROWS - 1) for c in range(COLUMNS))
"""The top square of each column: the column is full when it is occupied."""
BOARD = sum(COLUMN_MASKS)
"""Every square of the board (no spare bits)."""
SQUARES = COLUMNS * ROWS
DIRECTIONS = (1, STRIDE, STRIDE - 1, STRIDE + 1)
"""Bit shifts of the four directions: up a column, along a row, and the two diagonals."""
CENTRE_COLUMN = COLUMN_MASKS[3]


def bit(column: int, height: int) -> int:
    """The bit of the square in ``column`` (0–6), ``height`` squares up (0 = bottom)."""
    return 1 << (STRIDE * column + height)


def _windows() -> tuple[int, ...]:
    """Every group of four squares in a line on the board (69 of them), as masks."""
    found = []
    for column in range(COLUMNS):
        for height in range(ROWS):
            for dc, dh in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(column + k * dc, height + k * dh) for k in range(4)]
                if all(0 <= c < COLUMNS and 0 <= h < ROWS for c, h in cells):
                    found.append(sum(bit(c, h) for c, h in cells))
    return tuple(found)


WINDOWS: tuple[int, ...] = _windows()
"""The 69 groups of four squares in a line (the ways to win), each a mask."""


def has_four(discs: int) -> bool:
    """True when ``discs`` hold four in a row in any direction (two shifts per direction)."""
    for shift in DIRECTIONS:
        pairs = discs & (discs >> shift)
        if pairs & (pairs >> 2 * shift):
            return True
    return False


class ConnectFourState(NamedTuple):
    """A position: Red's and Yellow's discs as bitboards (immutable, hashable).

    The side to move is not stored: Red moves when both have as many discs.
    """

    red: int = 0
    yellow: int = 0

    # -- the game interface ------------------------------------------------------
    @property
    def to_move(self) -> int:
        """Red (0) when the numbers of discs are equal, else Yellow (1)."""
        return RED if self.red.bit_count() == self.yellow.bit_count() else YELLOW

    @property
    def key(self) -> tuple[int, int]:
        """The state itself: two integers identify the position."""
        return self

    def occupied(self) -> int:
        """Mask of the squares holding a disc."""
        return self.red | self.yellow

    def _over(self) -> bool:
        # only the side that just moved can have four in a row; checking both is for
        # positions set up by hand, and costs little
        return (
            has_four(self.red)
            or has_four(self.yellow)
            or (self.red | self.yellow).bit_count() == SQUARES
        )

    def legal_moves(self) -> list[int]:
        """The columns that are not full, left to right; none once the game is over."""
        if self._over():
            return []
        occupied = self.red | self.yellow
        return [column for column in range(COLUMNS) if not occupied & TOP[column]]

    def count_moves(self) -> int:
        """``len(self.legal_moves())`` without building the list (a perft hook)."""
        if self._over():
            return 0
        return COLUMNS - (self.occupied() & sum(TOP)).bit_count()

    def landing(self, column: int) -> int:
        """The bit of the square a disc dropped into ``column`` lands on (0 if full)."""
        return (self.occupied() + BOTTOM) & COLUMN_MASKS[column]

    def play(self, move: int) -> ConnectFourState:
        """The position after the side to move drops a disc into column ``move``.

        Raises InputError for a full column or a column off the board.
        """
        if not 0 <= move < COLUMNS:
            raise InputError(f"There is no column {move!r}: columns are a–g.")
        square = (self.red | self.yellow) + BOTTOM & COLUMN_MASKS[move]
        if not square:
            raise InputError(f"Column {format_move(move)} is full.")
        if self.red.bit_count() == self.yellow.bit_count():
            return ConnectFourState(self.red | square, self.yellow)
        return ConnectFourState(self.red, self.yellow | square)

    def is_terminal(self) -> bool:
        """True after four in a row, or when the board is full."""
        return self._over()

    def winner(self) -> int | None:
        """The player with four in a row; None for a draw or an unfinished game."""
        if has_four(self.red):
            return RED
        if has_four(self.yellow):
            return YELLOW
        return None

    def score(self, player: int) -> float:
        """For a finished game ±(1 + empty squares): an early win counts most; else 0."""
        winner = self.winner()
        if winner is None:
            return 0.0
        margin = 1.0 + SQUARES - self.occupied().bit_count()
        return margin if winner == player else -margin

    def plies_left_hint(self) -> int:
        """The number of empty squares (an upper bound on the plies left)."""
        return SQUARES - self.occupied().bit_count()

    # -- helpers for pages and tests ---------------------------------------------
    def cell(self, column: int, height: int) -> int | None:
        """RED, YELLOW or None for the square in ``column``, ``height`` up from the bottom."""
        square = bit(column, height)
        if self.red & square:
            return RED
        if self.yellow & square:
            return YELLOW
        return None

    def height(self, column: int) -> int:
        """The number of discs in ``column``."""
        return (self.occupied() & COLUMN_MASKS[column]).bit_count()

    def winning_squares(self) -> list[tuple[int, int]]:
        """``(column, height)`` of the squares of every completed four (empty if none)."""
        squares: set[tuple[int, int]] = set()
        for discs in (self.red, self.yellow):
            for window in WINDOWS:
                if discs & window == window:
                    squares.update(squares_of(window))
        return sorted(squares)

    def to_text(self) -> str:
        """Six rows, top row first, of ``R``, ``Y`` and ``.``; then who moves or the result."""
        symbols = {RED: "R", YELLOW: "Y", None: "."}
        rows = [
            "".join(symbols[self.cell(column, height)] for column in range(COLUMNS))
            for height in reversed(range(ROWS))
        ]
        if self.is_terminal():
            winner = self.winner()
            last = "Draw" if winner is None else f"{PLAYER_NAMES[winner]} wins"
        else:
            last = f"{PLAYER_NAMES[self.to_move]} to move"
        return "\n".join([*rows, last])

    def __str__(self) -> str:
        return self.to_text()


def squares_of(mask: int) -> list[tuple[int, int]]:
    """``(column, height)`` of the squares of ``mask``."""
    return [
        (column, height)
        for column in range(COLUMNS)
        for height in range(ROWS)
        if mask & bit(column, height)
    ]


def initial_state() -> ConnectFourState:
    """The empty board, Red to move."""
    return ConnectFourState(0, 0)


def state_from_moves(moves: str) -> ConnectFourState:
    """The position after the columns in ``moves`` (e.g. ``"dcdc"`` or ``"4343"``) are played."""
    state = initial_state()
    for char in str(moves).replace(" ", ""):
        state = state.play(parse_move(char, state))
    return state


def state_from_text(text: str) -> ConnectFourState:
    """A position from six rows (top row first) of ``R``, ``Y`` and ``.``.

    Raises :class:`InputError` for a malformed board, a floating disc, or
    impossible disc counts (Red moves first).
    """
    rows = [line.replace(" ", "") for line in str(text).strip().splitlines() if line.strip()]
    if len(rows) != ROWS or any(len(row) != COLUMNS for row in rows):
        raise InputError("A Connect Four board is six rows of seven squares (R, Y or .).")
    red = yellow = 0
    for index, line in enumerate(rows):
        height = ROWS - 1 - index
        for column, char in enumerate(line.upper()):
            if char == "R":
                red |= bit(column, height)
            elif char == "Y":
                yellow |= bit(column, height)
            elif char not in ".-":
                raise InputError(f"Row {index + 1}, column {column + 1}: unknown symbol {char!r}.")
    occupied = red | yellow
    if occupied & ~(BOTTOM | occupied << 1):  # a disc with an empty square under it
        raise InputError("Every disc must rest on the bottom or on another disc.")
    if red.bit_count() - yellow.bit_count() not in (0, 1):
        raise InputError("Red moves first: Red must have as many discs as Yellow, or one more.")
    return ConnectFourState(red, yellow)


def format_move(move: int) -> str:
    """The column's letter, ``a``–``g`` from the left."""
    return COLUMN_NAMES[int(move)]


_LETTER = re.compile(r"^[a-g]$")
_NUMBER = re.compile(r"^[1-7]$")


def parse_move(text: str, state: ConnectFourState) -> int:
    """The column written ``text`` (``a``–``g``, or ``1``–``7`` from the left), checked.

    Raises
    ------
    InputError
        For text that names no column, a full column, or a finished game.
    """
    cleaned = str(text).strip().lower()
    if _LETTER.match(cleaned):
        move = COLUMN_NAMES.index(cleaned)
    elif _NUMBER.match(cleaned):
        move = int(cleaned) - 1
    else:
        raise InputError(f"{text!r} is not a column: write a letter a–g or a number 1–7.")
    if state.is_terminal():
        raise InputError("The game is over: no disc can be dropped.")
    if state.occupied() & TOP[move]:
        raise InputError(f"Column {format_move(move)} is full; pick another column.")
    return move


# -- heuristics -------------------------------------------------------------------


def window_counts(state: ConnectFourState, player: int) -> tuple[int, int, int, int]:
    """``(my open threes, my open twos, their open threes, their open twos)``.

    A window (four squares in a line) is *open* for a player when the
    opponent has no disc in it: it can still become the player's four. An
    open three is an open window holding three of the player's discs.
    """
    mine, theirs = (state.red, state.yellow) if player == RED else (state.yellow, state.red)
    my_three = my_two = their_three = their_two = 0
    for window in WINDOWS:
        if not theirs & window:
            count = (mine & window).bit_count()
            if count == 3:
                my_three += 1
            elif count == 2:
                my_two += 1
        elif not mine & window:
            count = (theirs & window).bit_count()
            if count == 3:
                their_three += 1
            elif count == 2:
                their_two += 1
    return my_three, my_two, their_three, their_two


def _window_starts() -> tuple[tuple[int, int], ...]:
    """Per direction ``s``, the mask of the first squares of the windows ``p, p+s, p+2s, p+3s``."""
    starts: dict[int, int] = dict.fromkeys(DIRECTIONS, 0)
    for window in WINDOWS:
        first = window & -window
        rest = window ^ first
        step = (rest & -rest).bit_length() - first.bit_length()
        starts[step] |= first
    return tuple(starts.items())


WINDOW_STARTS = _window_starts()
"""``(shift, mask of window starts)`` per direction, for :func:`window_counts_fast`."""


def window_counts_fast(state: ConnectFourState, player: int) -> tuple[int, int, int, int]:
    """:func:`window_counts` for all 69 windows at once (bit-parallel), the search's fast path.

    For a direction ``s`` the four squares of the window starting at ``p`` are
    lined up on bit ``p`` by the shifts ``0, s, 2s, 3s``; adding those four
    bitboards bit by bit (a carry-save adder) gives every window's disc count
    in two bit planes at once. A window is open for a side when OR-ing the
    opponent's four shifted bitboards leaves its start bit clear.
    """
    mine, theirs = (state.red, state.yellow) if player == RED else (state.yellow, state.red)
    my_three = my_two = their_three = their_two = 0
    for shift, starts in WINDOW_STARTS:
        m1, m2, m3 = mine >> shift, mine >> 2 * shift, mine >> 3 * shift
        t1, t2, t3 = theirs >> shift, theirs >> 2 * shift, theirs >> 3 * shift
        mine_open = starts & ~(theirs | t1 | t2 | t3)
        theirs_open = starts & ~(mine | m1 | m2 | m3)
        # mine: count = low + 2 * (number of carries); exactly one carry marks 2 or 3
        low_ab, carry_ab = mine ^ m1, mine & m1
        low_cd, carry_cd = m2 ^ m3, m2 & m3
        low = low_ab ^ low_cd
        one_carry = carry_ab ^ carry_cd ^ (low_ab & low_cd)
        my_three += (mine_open & low & one_carry).bit_count()
        my_two += (mine_open & ~low & one_carry).bit_count()
        low_ab, carry_ab = theirs ^ t1, theirs & t1
        low_cd, carry_cd = t2 ^ t3, t2 & t3
        low = low_ab ^ low_cd
        one_carry = carry_ab ^ carry_cd ^ (low_ab & low_cd)
        their_three += (theirs_open & low & one_carry).bit_count()
        their_two += (theirs_open & ~low & one_carry).bit_count()
    return my_three, my_two, their_three, their_two


def threats(state: ConnectFourState, player: int, weights: tuple[float, ...]) -> float:
    """Open threes and twos (mine minus theirs) plus discs in the centre column.

    ``three·(my open threes − theirs) + two·(my open twos − theirs) +
    centre·(my centre-column discs − theirs)``. The centre column is in the
    most windows, so discs there take part in the most possible fours.
    """
    w_three, w_two, w_centre = weights
    # the search calls this at every leaf: the bit-parallel count, tested equal to the loop
    my_three, my_two, their_three, their_two = window_counts_fast(state, player)
    mine, theirs = (state.red, state.yellow) if player == RED else (state.yellow, state.red)
    centre = (mine & CENTRE_COLUMN).bit_count() - (theirs & CENTRE_COLUMN).bit_count()
    return w_three * (my_three - their_three) + w_two * (my_two - their_two) + w_centre * centre


ODD_ROWS = sum(bit(column, height) for column in range(COLUMNS) for height in (0, 2, 4))
"""The squares of rows 1, 3 and 5 (heights 0, 2, 4): Red's good threats are there."""
EVEN_ROWS = BOARD & ~ODD_ROWS
"""The squares of rows 2, 4 and 6: Yellow's good threats are there."""


def four_completions(discs: int, empty: int) -> int:
    """The ``empty`` squares that would complete a four of ``discs`` (playable now or later)."""
    found = (discs << 1) & (discs << 2) & (discs << 3)  # three below, in the column
    for shift in (STRIDE, STRIDE - 1, STRIDE + 1):
        pair = (discs << shift) & (discs << 2 * shift)
        found |= pair & (discs << 3 * shift)
        found |= pair & (discs >> shift)
        pair = (discs >> shift) & (discs >> 2 * shift)
        found |= pair & (discs << shift)
        found |= pair & (discs >> 3 * shift)
    return found & empty


def threat_parity(state: ConnectFourState, player: int, weights: tuple[float, ...]) -> float:
    """:func:`threats` plus ``parity`` times (my threats on my rows − theirs on theirs).

    A threat is an empty square that would complete a four. Late in the game the
    columns fill up in turn, and Red (who moves first) gets the squares of the odd
    rows, Yellow those of the even rows: a threat on its owner's parity tends to be
    cashed in, one on the other parity is usually blocked in time.
    """
    *window_weights, w_parity = weights
    value = threats(state, player, tuple(window_weights))
    empty = BOARD & ~(state.red | state.yellow)
    red = (four_completions(state.red, empty) & ODD_ROWS).bit_count()
    yellow = (four_completions(state.yellow, empty) & EVEN_ROWS).bit_count()
    return value + w_parity * (red - yellow if player == RED else yellow - red)


def open_windows(state: ConnectFourState, player: int, weights: tuple[float, ...] = ()) -> float:
    """Windows still open for me minus windows still open for the opponent."""
    mine, theirs = (state.red, state.yellow) if player == RED else (state.yellow, state.red)
    mine_open = sum(1 for window in WINDOWS if not theirs & window)
    theirs_open = sum(1 for window in WINDOWS if not mine & window)
    return float(mine_open - theirs_open)


HEURISTICS: dict[str, Heuristic] = {
    "threats": Heuristic(
        "threats",
        "Open threes (weight 'three') and open twos ('two'), mine minus the opponent's, "
        "plus discs in the centre column ('centre'). A window of four is open for a "
        "player when the opponent has no disc in it.",
        threats,
        ("three", "two", "centre"),
        (5.0, 2.0, 3.0),
    ),
    "threat parity": Heuristic(
        "threat parity",
        "The threats heuristic plus squares that would complete a four on the owner's "
        "rows ('parity'): odd rows for Red, even rows for Yellow, where the columns "
        "filling up in turn let the owner play them.",
        threat_parity,
        ("three", "two", "centre", "parity"),
        (5.0, 2.0, 3.0, 4.0),
    ),
    "open windows": Heuristic(
        "open windows",
        "Groups of four squares still open for me minus those still open for the opponent "
        "(the tic-tac-toe textbook evaluation, for four in a row).",
        open_windows,
    ),
}
"""Connect Four heuristics by name; ``evaluate(state, player, weights)`` from ``player``'s view."""

GAME = GameSpec(
    name="connect_four",
    title="Connect Four",
    initial_state=initial_state,
    format_move=format_move,
    parse_move=parse_move,
    heuristics=HEURISTICS,
    default_heuristic="threats",
    state_type=ConnectFourState,
    exact_solver="lib.games.connect_four.hook",
    player_names=PLAYER_NAMES,
    evolve_heuristic="threats",
    evolve_benchmark="alphabeta:depth=2",
    # deepens while its second lasts; threat parity won more against MCTS (bench/README.md)
    default_player="alphabeta:time=1,heuristic=threat parity",
    view="lib.games.connect_four.view",
    features="lib.games.connect_four.features",
    icon=":material/view_column:",
    teaches="Drop discs to get four in a row: a tree too big to search to the end, so the "
    "heuristic (open threes, the centre) and move ordering decide how well the AI plays.",
    order=15,
    presets=(
        ArenaPreset(
            "connect_four_depth",
            "Connect Four: alpha-beta depths 2/4/6 vs random",
            "How far ahead is enough against a random player: alpha-beta (with ordering "
            "and a transposition table) at depths 2, 4 and 6.",
            tuple(
                (f"alpha-beta d{d} vs random", f"alphabeta:depth={d}", "random") for d in (2, 4, 6)
            ),
            games=20,
        ),
        ArenaPreset(
            "connect_four_pruning",
            "Connect Four: depths 1/3/5 with and without pruning vs random",
            "Minimax (no pruning) and plain alpha-beta against random: the same games, "
            "fewer nodes with pruning.",
            pruning_pairs((1, 3, 5), (1, 3)),
            games=20,
        ),
        ArenaPreset(
            "connect_four_evaluation",
            "Connect Four: threats vs open windows",
            "Alpha-beta depth 4 with the threat count against the plain open-windows "
            "count, head to head.",
            (
                (
                    "threats vs open windows",
                    "alphabeta:depth=4,heuristic=threats",
                    "alphabeta:depth=4,heuristic=open windows",
                ),
            ),
            games=20,
        ),
    ),
)
