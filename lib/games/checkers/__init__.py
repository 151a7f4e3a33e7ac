"""English draughts (American checkers) on 32-square bitboards.

The 32 playable (dark) squares are numbered 1–32 as in published checkers
literature: square 1 is on Black's back row (the top row of the usual
diagram), 32 on White's. Bit ``n - 1`` of a mask stands for square ``n``::

       1   2   3   4        Black starts on 1–12 and moves down the diagram,
     5   6   7   8          White starts on 21–32 and moves up.
       9  10  11  12
    13  14  15  16
      17  18  19  20
    21  22  23  24
      25  26  27  28
    29  30  31  32

Rules (the English / American game):

* Black moves first; men move and capture one square diagonally forward,
  kings one square diagonally in all four directions.
* Captures are compulsory. A multi-jump is ONE move and must be continued
  while the jumping piece can capture again; any capturing sequence may be
  chosen (no maximum-capture rule). A piece cannot be jumped twice.
* A man reaching the far row is crowned and the move ends there.
* A player with no legal move (no pieces left, or all blocked) loses.
* Draw rule used here: the game is drawn once 40 moves by each side (80 plies
  in a row) have been played with no capture and no man move, that is, kings
  only shuffling. The count is part of the state.

A move is the tuple of squares the piece visits: ``(11, 15)`` is written
``11-15``, the double jump ``(22, 15, 8)`` is written ``22x15x8``.

>>> state = initial_state()
>>> sorted(format_move(m) for m in state.legal_moves())
['10-14', '10-15', '11-15', '11-16', '12-16', '9-13', '9-14']
>>> format_move(parse_move("11-15", state))
'11-15'
>>> from lib.games.core import perft
>>> perft(state, 3)
302
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import NamedTuple

from lib.errors import InputError
from lib.games.core import PLAIN_ALPHABETA, ArenaPreset, GameSpec, Heuristic

Move = tuple[int, ...]
"""The squares (1–32) a piece visits: ``(from, to)`` or ``(from, land1, land2, ...)``."""

BLACK, WHITE = 0, 1
PLAYER_NAMES = ("Black", "White")
DRAW_PLIES = 80
"""Plies in a row without a capture or a man move after which the game is drawn."""

FULL = (1 << 32) - 1
"""Mask of all 32 playable squares."""


# --------------------------------------------------------------------------- geometry


def square_row_col(square: int) -> tuple[int, int]:
    """Row (0 = Black's back row, the top of the diagram) and column 0–7 of ``square`` 1–32.

    >>> square_row_col(1), square_row_col(5), square_row_col(32)
    ((0, 1), (1, 0), (7, 6))
    """
    if not 1 <= square <= 32:
        raise InputError(f"Square {square} does not exist; squares are numbered 1 to 32.")
    row, index = divmod(square - 1, 4)
    return row, 2 * index + (1 if row % 2 == 0 else 0)


def square_at(row: int, col: int) -> int | None:
    """The square number at ``(row, col)``; None for a light square or off the board."""
    if not (0 <= row < 8 and 0 <= col < 8) or (row + col) % 2 == 0:
        return None
    return row * 4 + col // 2 + 1


def mask_of(squares: Iterable[int]) -> int:
    """The bitboard with the given squares (1–32) set."""
    mask = 0
    for square in squares:
        square_row_col(square)  # validates
        mask |= 1 << (square - 1)
    return mask


def squares_of(mask: int) -> list[int]:
    """The square numbers set in ``mask``, ascending."""
    squares = []
    while mask:
        bit = mask & -mask
        squares.append(bit.bit_length())
        mask ^= bit
    return squares


def _where(predicate: Callable[[int, int], bool]) -> int:
    return mask_of(n for n in range(1, 33) if predicate(*square_row_col(n)))


# One diagonal step changes the square index by an offset that depends on the
# row's parity; each mask holds the squares from which that offset is a legal step.
_DOWN4 = _where(lambda r, c: r < 7)  # down-left on even rows, down-right on odd rows
_DOWN5 = _where(lambda r, c: r < 7 and r % 2 == 0 and c < 7)  # down-right, even rows
_DOWN3 = _where(lambda r, c: r < 7 and r % 2 == 1 and c > 0)  # down-left, odd rows
_UP4 = _where(lambda r, c: r > 0)  # up-left on even rows, up-right on odd rows
_UP3 = _where(lambda r, c: r > 0 and r % 2 == 0 and c < 7)  # up-right, even rows
_UP5 = _where(lambda r, c: r > 0 and r % 2 == 1 and c > 0)  # up-left, odd rows
_EVEN = _where(lambda r, c: r % 2 == 0)
_ODD = FULL & ~_EVEN

CROWN_ROW = (_where(lambda r, c: r == 7), _where(lambda r, c: r == 0))
"""Per player, the far row where its men are crowned (Black: 29–32, White: 1–4)."""
BACK_ROW = (CROWN_ROW[WHITE], CROWN_ROW[BLACK])
"""Per player, its own back row (Black: 1–4, White: 29–32)."""
CENTRE = mask_of((10, 11, 14, 15, 18, 19, 22, 23))
"""The eight central squares."""


def _down_left(mask: int) -> int:
    return ((mask & _DOWN4 & _EVEN) << 4) | ((mask & _DOWN3) << 3)


def _down_right(mask: int) -> int:
    return ((mask & _DOWN5) << 5) | ((mask & _DOWN4 & _ODD) << 4)


def _up_left(mask: int) -> int:
    return ((mask & _UP4 & _EVEN) >> 4) | ((mask & _UP5) >> 5)


def _up_right(mask: int) -> int:
    return ((mask & _UP3) >> 3) | ((mask & _UP4 & _ODD) >> 4)


def _jump_table(directions: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per square index 0–31: the (jumped-square bit, landing square) pairs in ``directions``."""
    table = []
    for square in range(1, 33):
        row, col = square_row_col(square)
        entries = []
        for dr, dc in directions:
            over = square_at(row + dr, col + dc)
            land = square_at(row + 2 * dr, col + 2 * dc)
            if over is not None and land is not None:
                entries.append((1 << (over - 1), land))
        table.append(tuple(entries))
    return tuple(table)


_JUMPS_DOWN = _jump_table(((1, -1), (1, 1)))
_JUMPS_UP = _jump_table(((-1, -1), (-1, 1)))
_JUMPS_ALL = _jump_table(((1, -1), (1, 1), (-1, -1), (-1, 1)))
_JUMPED: dict[tuple[int, int], int] = {
    (square, land): over for square in range(1, 33) for over, land in _JUMPS_ALL[square - 1]
}
"""(from, landing) of a single jump -> bit of the jumped square."""


# --------------------------------------------------------------------------- move generation


def _jump_landings(down: int, up: int, opp: int, empty: int) -> int:
    """Landing squares of all single jumps by ``down``/``up`` movers over ``opp`` (bit-parallel)."""
    return (
        _down_left(_down_left(down) & opp)
        | _down_right(_down_right(down) & opp)
        | _up_left(_up_left(up) & opp)
        | _up_right(_up_right(up) & opp)
    ) & empty


def _extend_jumps(
    path: Move,
    square: int,
    opp: int,
    empty: int,
    table: tuple[tuple[tuple[int, int], ...], ...],
    crown: int,
    out: list[Move],
) -> None:
    """Append to ``out`` every complete capturing sequence continuing ``path`` from ``square``."""
    extended = False
    for over, land in table[square - 1]:
        if opp & over:
            land_bit = 1 << (land - 1)
            if empty & land_bit:
                extended = True
                step = (*path, land)
                if land_bit & crown:
                    out.append(step)  # crowning ends the move
                else:
                    _extend_jumps(step, land, opp ^ over, empty, table, crown, out)
    if not extended and len(path) > 1:
        out.append(path)


def _captures(own: int, opp: int, kings: int, player: int, empty: int) -> list[Move]:
    moves: list[Move] = []
    men_table = _JUMPS_DOWN if player == BLACK else _JUMPS_UP
    crown = CROWN_ROW[player]
    pieces = own
    while pieces:
        bit = pieces & -pieces
        pieces ^= bit
        square = bit.bit_length()
        # the jumping piece has left its square: it may pass over it again (kings)
        if kings & bit:
            _extend_jumps((square,), square, opp, empty | bit, _JUMPS_ALL, 0, moves)
        else:
            _extend_jumps((square,), square, opp, empty | bit, men_table, crown, moves)
    return moves


def _simple_moves(down: int, up: int, empty: int) -> list[Move]:
    moves: list[Move] = []
    if down:
        for shift, mask in ((4, _DOWN4), (5, _DOWN5), (3, _DOWN3)):
            targets = ((down & mask) << shift) & empty
            while targets:
                bit = targets & -targets
                targets ^= bit
                to = bit.bit_length()
                moves.append((to - shift, to))
    if up:
        for shift, mask in ((4, _UP4), (3, _UP3), (5, _UP5)):
            targets = ((up & mask) >> shift) & empty
            while targets:
                bit = targets & -targets
                targets ^= bit
                to = bit.bit_length()
                moves.append((to + shift, to))
    return moves


def _movers(black: int, white: int, kings: int, player: int) -> tuple[int, int, int, int, int]:
    """``(own, opp, down, up, empty)``: ``player``'s pieces, the opponent's, the pieces
    moving down / up the diagram (men forward, kings both ways) and the empty squares."""
    empty = FULL & ~(black | white)
    if player == BLACK:
        return black, white, black, black & kings, empty
    return white, black, white & kings, white, empty


def _count_simple_moves(down: int, up: int, empty: int) -> int:
    """``len(_simple_moves(down, up, empty))`` by popcounts, without building the list."""
    return (
        (((down & _DOWN4) << 4) & empty).bit_count()
        + (((down & _DOWN5) << 5) & empty).bit_count()
        + (((down & _DOWN3) << 3) & empty).bit_count()
        + (((up & _UP4) >> 4) & empty).bit_count()
        + (((up & _UP3) >> 3) & empty).bit_count()
        + (((up & _UP5) >> 5) & empty).bit_count()
    )


def _moves_for(black: int, white: int, kings: int, player: int) -> list[Move]:
    """Legal moves of ``player`` on the given bitboards (whoever is to move)."""
    own, opp, down, up, empty = _movers(black, white, kings, player)
    if _jump_landings(down, up, opp, empty):
        return _captures(own, opp, kings, player, empty)
    return _simple_moves(down, up, empty)


def _has_move(black: int, white: int, kings: int, player: int) -> bool:
    _, opp, down, up, empty = _movers(black, white, kings, player)
    steps = _down_left(down) | _down_right(down) | _up_left(up) | _up_right(up)
    return bool(steps & empty or _jump_landings(down, up, opp, empty))


def is_capture(move: Move) -> bool:
    """True for a jump (a single jump spans two rows; a multi-jump has 3+ squares)."""
    return len(move) > 2 or abs(move[1] - move[0]) > 5


# --------------------------------------------------------------------------- state


class CheckersState(NamedTuple):
    """A checkers position: immutable and hashable (a tuple of five integers).

    ``black`` / ``white`` are the masks of each side's pieces, ``kings`` the
    mask of the kings of both sides, ``to_move`` 0 (Black) or 1 (White), and
    ``quiet`` the plies played in a row without a capture or a man move (the
    draw counter).
    """

    black: int
    white: int
    kings: int
    to_move: int = BLACK
    quiet: int = 0

    @property
    def key(self) -> tuple[int, int, int, int, int]:
        """The position itself (it already is a compact tuple of integers)."""
        return tuple(self)  # type: ignore[return-value]

    def legal_moves(self) -> list[Move]:
        """Legal moves of the side to move; captures only, when one exists."""
        if self.quiet >= DRAW_PLIES:
            return []
        return _moves_for(self.black, self.white, self.kings, self.to_move)

    def count_moves(self) -> int:
        """``len(self.legal_moves())`` without building the list (popcounts; used by perft)."""
        if self.quiet >= DRAW_PLIES:
            return 0
        own, opp, down, up, empty = _movers(self.black, self.white, self.kings, self.to_move)
        if _jump_landings(down, up, opp, empty):
            return len(_captures(own, opp, self.kings, self.to_move, empty))
        return _count_simple_moves(down, up, empty)

    def play(self, move: Move) -> CheckersState:
        """The position after ``move`` (assumed legal; use :func:`parse_move` for user input)."""
        black, white, kings, to_move, quiet = self
        start, end = move[0], move[-1]
        from_bit = 1 << (start - 1)
        to_bit = 1 << (end - 1)
        captured = 0
        if len(move) > 2 or abs(end - start) > 5:
            previous = start
            for square in move[1:]:
                captured |= _JUMPED[previous, square]
                previous = square
        king = kings & from_bit
        if captured:
            kings &= ~captured
            quiet = 0
        elif king:
            quiet += 1
        else:
            quiet = 0
        if king:
            kings = (kings ^ from_bit) | to_bit
        elif to_bit & CROWN_ROW[to_move]:
            kings |= to_bit
        if to_move == BLACK:
            return CheckersState(((black ^ from_bit) | to_bit), white & ~captured, kings, 1, quiet)
        return CheckersState(black & ~captured, ((white ^ from_bit) | to_bit), kings, 0, quiet)

    def is_drawn(self) -> bool:
        """True when the 40-move rule has ended the game in a draw."""
        return self.quiet >= DRAW_PLIES

    def is_terminal(self) -> bool:
        """True when the game is over (no legal move, or the 40-move draw)."""
        return self.quiet >= DRAW_PLIES or not _has_move(
            self.black, self.white, self.kings, self.to_move
        )

    def winner(self) -> int | None:
        """The winner of a finished game (the side that still has a move); None otherwise."""
        if self.quiet >= DRAW_PLIES or not self.is_terminal():
            return None
        return 1 - self.to_move

    def score(self, player: int) -> float:
        """Piece difference for ``player`` (kings count one), forced to agree with the result."""
        own, opp = (self.black, self.white) if player == BLACK else (self.white, self.black)
        diff = float(own.bit_count() - opp.bit_count())
        if not self.is_terminal():
            return diff
        winner = self.winner()
        if winner is None:
            return 0.0
        return max(diff, 1.0) if winner == player else min(diff, -1.0)

    def pieces(self, player: int) -> tuple[list[int], list[int]]:
        """``(men, kings)`` square lists of ``player``."""
        own = self.black if player == BLACK else self.white
        return squares_of(own & ~self.kings), squares_of(own & self.kings)

    def __str__(self) -> str:
        """An ASCII diagram: b/w men, B/W kings, ``.`` empty dark squares, Black at the top."""
        rows = []
        for row in range(8):
            cells = []
            for col in range(8):
                square = square_at(row, col)
                if square is None:
                    cells.append(" ")
                    continue
                bit = 1 << (square - 1)
                char = "."
                if self.black & bit:
                    char = "b"
                elif self.white & bit:
                    char = "w"
                cells.append(char.upper() if self.kings & bit else char)
            rows.append(" ".join(cells))
        rows.append(f"{PLAYER_NAMES[self.to_move]} to move")
        return "\n".join(rows)


def initial_state() -> CheckersState:
    """The start position: Black men on 1–12, White men on 21–32, Black to move."""
    return CheckersState(mask_of(range(1, 13)), mask_of(range(21, 33)), 0, BLACK, 0)


def position(
    black: Iterable[int] = (),
    white: Iterable[int] = (),
    black_kings: Iterable[int] = (),
    white_kings: Iterable[int] = (),
    to_move: int = BLACK,
    quiet: int = 0,
) -> CheckersState:
    """Set up a position from square lists (men and kings of each side).

    >>> print(position(black=[1], white_kings=[32], to_move=WHITE).pieces(WHITE))
    ([], [32])
    """
    masks = [mask_of(black), mask_of(white), mask_of(black_kings), mask_of(white_kings)]
    used = 0
    for mask in masks:
        if used & mask:
            raise InputError(f"Square {squares_of(used & mask)[0]} holds two pieces.")
        used |= mask
    if to_move not in (BLACK, WHITE):
        raise InputError(f"to_move must be 0 (Black) or 1 (White), got {to_move!r}.")
    men_on_crown = (masks[0] & CROWN_ROW[BLACK]) | (masks[1] & CROWN_ROW[WHITE])
    if men_on_crown:
        raise InputError(
            f"A man on square {squares_of(men_on_crown)[0]} would already have been crowned."
        )
    return CheckersState(
        masks[0] | masks[2], masks[1] | masks[3], masks[2] | masks[3], to_move, quiet
    )


# --------------------------------------------------------------------------- notation

_MOVE_RE = re.compile(r"^\s*(\d{1,2})\s*(?:([-x])\s*(\d{1,2})((?:\s*x\s*\d{1,2})*))\s*$", re.I)


def format_move(move: Move) -> str:
    """Standard notation: ``11-15`` for a move, ``22x15x8`` for a (multi-)jump."""
    return ("x" if is_capture(move) else "-").join(str(square) for square in move)


def parse_move(text: str, state: CheckersState) -> Move:
    """The legal move of ``state`` written ``text`` (``11-15``, ``22x15x8`` or short ``22x8``).

    Raises :class:`InputError` for malformed text or an illegal move, saying why
    (for instance that a capture is compulsory).
    """
    match = _MOVE_RE.match(str(text))
    if not match:
        raise InputError(
            f"Cannot read the move {text!r}: write it as two squares 1–32 joined by '-' for a "
            "move (11-15) or by 'x' for a jump (22x15, 22x15x8)."
        )
    squares = tuple(int(s) for s in re.findall(r"\d+", text))
    for square in squares:
        if not 1 <= square <= 32:
            raise InputError(
                f"Square {square} in the move {text!r} does not exist; squares are 1 to 32."
            )
    legal = state.legal_moves()
    if squares in legal:
        return squares
    if len(squares) == 2:
        matches = [m for m in legal if m[0] == squares[0] and m[-1] == squares[1]]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            options = ", ".join(format_move(m) for m in matches)
            raise InputError(
                f"{text!r} is ambiguous: several jump sequences end there ({options}); "
                "write the landing squares in between."
            )
    raise InputError(explain_illegal(state, squares))


def explain_illegal(state: CheckersState, squares: Move) -> str:
    """A plain-language reason why the move through ``squares`` is not legal in ``state``."""
    name = format_move(squares) if len(squares) > 1 else str(squares[0])
    if state.is_terminal():
        return f"The game is over; {name} cannot be played."
    legal = state.legal_moves()
    player = PLAYER_NAMES[state.to_move]
    own = state.black if state.to_move == BLACK else state.white
    start_bit = 1 << (squares[0] - 1)
    if not own & start_bit:
        return f"There is no {player} piece on square {squares[0]}."
    if is_capture(legal[0]):
        jumps = ", ".join(format_move(m) for m in legal)
        if len(squares) == 1 and not any(m[0] == squares[0] for m in legal):
            return (
                f"Captures are compulsory: {player} must jump ({jumps}), and the piece on "
                f"{squares[0]} cannot capture."
            )
        if len(squares) == 1:
            own_jumps = ", ".join(format_move(m) for m in legal if m[0] == squares[0])
            return f"The piece on {squares[0]} must capture: {own_jumps}."
        if not is_capture(squares):
            return f"Captures are compulsory: {player} must jump ({jumps})."
        from_here = [m for m in legal if m[0] == squares[0]]
        if from_here and any(m[: len(squares)] == squares for m in from_here):
            return (
                f"The jump must go on while the piece can capture: "
                f"{', '.join(format_move(m) for m in from_here)}."
            )
        return f"{name} is not a legal jump; the legal jumps are {jumps}."
    from_here = [m for m in legal if m[0] == squares[0]]
    if not from_here:
        return f"The piece on {squares[0]} cannot move now."
    return (
        f"{name} is not legal; the piece on {squares[0]} can play "
        f"{', '.join(format_move(m) for m in from_here)}."
    )


# --------------------------------------------------------------------------- click input


def continue_clicks(state: CheckersState, clicks: tuple[int, ...]) -> tuple[Move | None, set[int]]:
    """Interpret the squares a user clicked so far (piece first, then destination(s)).

    Returns ``(move, targets)``: ``move`` is the legal move the clicks pick
    (the path clicked landing by landing, or just the piece and the final
    square when that is unambiguous), else None; ``targets`` are the squares
    that may be clicked next (empty when the clicks match no legal move).
    """
    legal = state.legal_moves()
    if not clicks:
        return None, {m[0] for m in legal}
    prefix = [m for m in legal if m[: len(clicks)] == clicks]
    complete = [m for m in prefix if len(m) == len(clicks)]
    if len(clicks) == 2:
        by_end = [m for m in legal if m[0] == clicks[0] and m[-1] == clicks[1]]
        if len(by_end) == 1 and not any(len(m) > 2 for m in prefix if m not in by_end):
            return by_end[0], set()
    if len(complete) == 1 and len(prefix) == 1:
        return complete[0], set()
    targets = {m[len(clicks)] for m in prefix if len(m) > len(clicks)}
    if len(clicks) == 1:
        ends = [m[-1] for m in prefix]
        targets |= {end for end in ends if ends.count(end) == 1}
    return None, targets


# --------------------------------------------------------------------------- heuristics


def _sides(state: CheckersState, player: int) -> tuple[int, int]:
    return (state.black, state.white) if player == BLACK else (state.white, state.black)


def mobility(state: CheckersState, player: int) -> int:
    """Moves ``player``'s pieces have in ``state``: every step and every jump sequence.

    Counted as if it were ``player``'s turn and as if captures were optional.
    With the compulsory-capture rule applied, a side that *may* capture would
    show a mobility of 1 or 2 and a mobility term would reward leaving pieces
    en prise (the opponent is "immobilised" by its forced capture); counting
    all moves keeps the term a measure of freedom. :func:`legal_mobility`
    counts legal moves only.
    """
    own, opp, down, up, empty = _movers(state.black, state.white, state.kings, player)
    count = _count_simple_moves(down, up, empty)
    if _jump_landings(down, up, opp, empty):
        count += len(_captures(own, opp, state.kings, player, empty))
    return count


def legal_mobility(state: CheckersState, player: int) -> int:
    """Legal-move count of ``player`` in ``state`` (as if it were ``player``'s turn)."""
    return len(_moves_for(state.black, state.white, state.kings, player))


def _course(state: CheckersState, player: int, weights: tuple[float, ...]) -> float:
    w_pieces, w_mobility = weights
    own, opp = _sides(state, player)
    value = w_pieces * (own.bit_count() - opp.bit_count())
    if w_mobility:
        value += w_mobility * (mobility(state, player) - mobility(state, 1 - player))
    return value


def _advancement(men: int, player: int) -> int:
    """Sum over ``men`` of the rows advanced from the player's back row (0–6)."""
    total = 0
    for square in squares_of(men):
        row = (square - 1) >> 2
        total += row if player == BLACK else 7 - row
    return total


def _strong(state: CheckersState, player: int, weights: tuple[float, ...]) -> float:
    w_man, w_king, w_back, w_centre, w_advance = weights
    own, opp = _sides(state, player)
    kings = state.kings
    value = w_man * ((own & ~kings).bit_count() - (opp & ~kings).bit_count())
    value += w_king * ((own & kings).bit_count() - (opp & kings).bit_count())
    value += w_back * (
        (own & ~kings & BACK_ROW[player]).bit_count()
        - (opp & ~kings & BACK_ROW[1 - player]).bit_count()
    )
    value += w_centre * ((own & CENTRE).bit_count() - (opp & CENTRE).bit_count())
    if w_advance:
        value += (
            w_advance
            * (_advancement(own & ~kings, player) - _advancement(opp & ~kings, 1 - player))
            / 7.0
        )
    return value


HEURISTICS: dict[str, Heuristic] = {
    "course": Heuristic(
        name="course",
        description=(
            "The course's evaluation: piece difference plus mobility difference, "
            "equally weighted. Mobility counts every step and jump of a side's pieces "
            "(as if captures were optional), so a forced capture does not look like "
            "a side being hemmed in."
        ),
        function=_course,
        weight_names=("pieces", "mobility"),
        default_weights=(1.0, 1.0),
    ),
    "strong": Heuristic(
        name="strong",
        description=(
            "Material with kings worth more than men, plus men guarding the back row, "
            "pieces on the eight centre squares and how far men have advanced (rows / 7)."
        ),
        function=_strong,
        weight_names=("man", "king", "back row", "centre", "advancement"),
        default_weights=(1.0, 1.5, 0.2, 0.1, 0.3),
    ),
    "material": Heuristic(
        name="material",
        description="Piece difference only (men and kings count one each).",
        function=lambda state, player, weights: weights[0] * _course(state, player, (1.0, 0.0)),
        weight_names=("pieces",),
        default_weights=(1.0,),
    ),
}


GAME = GameSpec(
    name="checkers",
    title="Checkers",
    initial_state=initial_state,
    format_move=format_move,
    parse_move=parse_move,
    heuristics=HEURISTICS,
    default_heuristic="strong",
    state_type=CheckersState,
    player_names=PLAYER_NAMES,
    default_player="alphabeta:time=1",  # deepens while its second lasts
    view="lib.games.checkers.view",
    features="lib.games.checkers.features",
    icon=":material/apps:",
    teaches="Play English draughts (compulsory captures, multi-jumps, kings) against minimax "
    "or alpha-beta with the course's heuristic or a stronger one, and see what it searched.",
    order=20,
    presets=(
        ArenaPreset(
            "checkers_pruning",
            "Checkers: minimax vs alpha-beta vs random at depths 3 and 4",
            "Minimax and alpha-beta each against random, and against each other, at "
            "depths 3 and 4 (the strong evaluation).",
            tuple(
                pair
                for d in (3, 4)
                for pair in (
                    (f"minimax d{d} vs random", f"minimax:depth={d}", "random"),
                    (f"alpha-beta d{d} vs random", PLAIN_ALPHABETA.format(d=d), "random"),
                    (
                        f"alpha-beta d{d} vs minimax d{d}",
                        PLAIN_ALPHABETA.format(d=d),
                        f"minimax:depth={d}",
                    ),
                )
            ),
        ),
        ArenaPreset(
            "checkers_evaluation",
            "Checkers: simple vs improved evaluation",
            "Alpha-beta depth 4 with the course's evaluation (pieces and mobility) against "
            "the strong one (men, kings, back row, centre, advancement).",
            (
                (
                    "strong vs course",
                    "alphabeta:depth=4,heuristic=strong",
                    "alphabeta:depth=4,heuristic=course",
                ),
                ("course vs random", "alphabeta:depth=4,heuristic=course", "random"),
                ("strong vs random", "alphabeta:depth=4,heuristic=strong", "random"),
            ),
        ),
    ),
)
