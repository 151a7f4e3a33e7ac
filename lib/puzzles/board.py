"""The sliding-tile board: a tuple of tiles, parsed, tested for solvability, moved and shuffled.

A board is a tuple of ``n * n`` integers read row by row, ``0`` the blank
(9 tiles for the 8-puzzle, 16 for the 15-puzzle). The goal has the blank in
the top-left corner, ``0 1 2 ... n*n-1``, as in AIMA and Korf's 15-puzzle
instances. A move names the way the *blank* goes: ``U``, ``D``, ``L``, ``R``.

>>> board = parse_board("1 0 2  3 4 5  6 7 8")
>>> moves_to_goal = "L"
>>> apply_moves(board, moves_to_goal) == goal_board(3)
True
>>> solvability(parse_board("0 2 1 3 4 5 6 7 8", require_solvable=False)).solvable
False
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass
from functools import cache

from lib.errors import InputError

Board = tuple[int, ...]

#: The blank's moves, in the order every search tries them.
MOVES = "UDLR"
#: The move that undoes each move.
OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}
#: Board widths the lab solves: the 8-puzzle (3) and the 15-puzzle (4).
WIDTHS = {9: 3, 16: 4}
NAMES = {3: "8-puzzle", 4: "15-puzzle"}


def width_of(board: Board) -> int:
    """The board's side (3 or 4)."""
    return WIDTHS[len(board)]


def goal_board(width: int) -> Board:
    """The goal: the blank top left, then the tiles in order."""
    return tuple(range(width * width))


# --------------------------------------------------------------------------- parsing


def parse_board(text: str, *, require_solvable: bool = True) -> Board:
    """Read a board typed as tiles row by row, ``0`` the blank (spaces, commas or new lines).

    Raises :class:`InputError` naming what is wrong: a token that is not a
    whole number, the wrong number of tiles, a tile out of range, a tile
    twice or missing, and (with ``require_solvable``) a board of the wrong
    parity, with the reason.
    """
    tokens = [t for t in re.split(r"[\s,;/|]+", text.strip()) if t]
    if not tokens:
        raise InputError("The board is empty: type the tiles row by row, 0 for the blank.")
    tiles = []
    for position, token in enumerate(tokens, start=1):
        if token in {"_", "."}:
            token = "0"
        if not re.fullmatch(r"[-+]?\d+", token):
            raise InputError(
                f"Tile {position} of the board, {token[:20]!r}, is not a whole number "
                "(type the tiles row by row, 0 for the blank)."
            )
        if len(token.lstrip("+-")) > 3:  # never read as a number: no huge conversions
            shown = token[:20] + ("…" if len(token) > 20 else "")
            raise InputError(
                f"Tile {position} of the board, {shown!r}, is too large: the tiles run from "
                "0 to 15 at most (0 the blank)."
            )
        tiles.append(int(token))
    if len(tiles) not in WIDTHS:
        raise InputError(
            f"The board has {len(tiles)} tiles; the 8-puzzle needs 9 and the 15-puzzle 16 "
            "(counting 0 for the blank)."
        )
    board = tuple(tiles)
    _check_tiles(board)
    if require_solvable:
        verdict = solvability(board)
        if not verdict.solvable:
            raise InputError(f"This board cannot be solved: {verdict.reason}")
    return board


def _check_tiles(board: Board) -> None:
    """Raise :class:`InputError` unless ``board`` holds each of 0..n-1 exactly once."""
    n = len(board)
    seen: dict[int, int] = {}
    for position, tile in enumerate(board, start=1):
        if not 0 <= tile < n:
            raise InputError(
                f"Tile {position} of the board is {tile}, but the {NAMES[WIDTHS[n]]} "
                f"has tiles 0 to {n - 1} only."
            )
        if tile in seen:
            raise InputError(
                f"Tile {tile} appears twice on the board (places {seen[tile]} and {position}); "
                f"each of 0 to {n - 1} must appear once."
            )
        seen[tile] = position


def format_board(board: Board) -> str:
    """The board as typed: tiles row by row, separated by spaces."""
    return " ".join(str(t) for t in board)


# --------------------------------------------------------------------------- solvability


@dataclass(frozen=True)
class Solvability:
    """Whether a board can reach the goal, and why, in words."""

    solvable: bool
    inversions: int
    blank_row: int  # 0 = top row
    reason: str


def inversions(board: Board) -> int:
    """Pairs of tiles (blank left out) that stand in the wrong order, reading row by row."""
    tiles = [t for t in board if t]
    return sum(1 for i, a in enumerate(tiles) for b in tiles[i + 1 :] if a > b)


def solvability(board: Board) -> Solvability:
    """The parity test: can ``board`` reach the goal (blank top left)?

    A move left or right keeps the order of the tiles; a move up or down
    jumps one tile over ``width - 1`` others, changing the number of
    inversions by an even amount on the 3-wide board and an odd amount on
    the 4-wide one (where the blank's row changes by one too). So on the
    8-puzzle the parity of the inversions never changes, and on the
    15-puzzle the parity of the inversions plus the blank's row never does. The goal has no
    inversions and the blank on row 0, so the count must be even.
    """
    width = width_of(board)
    inv = inversions(board)
    row = board.index(0) // width
    if width % 2:
        ok = inv % 2 == 0
        reason = (
            f"it has {inv} inversion{'s' * (inv != 1)} (pairs of tiles in the wrong order, "
            "blank left out), "
            f"an {'even' if ok else 'odd'} number; every move keeps that parity and the goal "
            "has 0, so only boards with an even number can be solved."
        )
    else:
        total = inv + row
        ok = total % 2 == 0
        reason = (
            f"it has {inv} inversion{'s' * (inv != 1)} (pairs of tiles in the wrong order, blank "
            f"left out) and the blank on row {row} (rows counted from 0 at the top); "
            f"{inv} + {row} = {total} is {'even' if ok else 'odd'}. Every move keeps the parity "
            "of inversions plus the blank's row, and the goal has 0 + 0, so it must be even."
        )
    if not ok:
        reason += " Swapping any two tiles (not the blank) makes it solvable."
    return Solvability(ok, inv, row, reason)


# --------------------------------------------------------------------------- moves


@cache
def move_table(width: int) -> tuple[tuple[tuple[str, int], ...], ...]:
    """For each blank position, its moves and where the blank goes, in ``MOVES`` order."""
    table = []
    for pos in range(width * width):
        row, col = divmod(pos, width)
        options = []
        if row > 0:
            options.append(("U", pos - width))
        if row < width - 1:
            options.append(("D", pos + width))
        if col > 0:
            options.append(("L", pos - 1))
        if col < width - 1:
            options.append(("R", pos + 1))
        table.append(tuple(options))
    return tuple(table)


def slide(board: Board, blank: int, to: int) -> Board:
    """``board`` with the blank at ``blank`` swapped with the tile at ``to``."""
    tiles = list(board)
    tiles[blank], tiles[to] = tiles[to], 0
    return tuple(tiles)


def successors(board: Board) -> list[tuple[str, Board]]:
    """The boards one move away, with the blank's move, in ``MOVES`` order."""
    blank = board.index(0)
    return [(move, slide(board, blank, to)) for move, to in move_table(width_of(board))[blank]]


def apply_moves(board: Board, moves: str) -> Board:
    """The board after the blank makes ``moves`` (raises :class:`InputError` on an illegal one)."""
    width = width_of(board)
    for index, move in enumerate(moves, start=1):
        blank = board.index(0)
        to = dict(move_table(width)[blank]).get(move)
        if to is None:
            raise InputError(f"Move {index}, {move!r}, is not open to the blank here.")
        board = slide(board, blank, to)
    return board


def moves_between(path: list[Board] | tuple[Board, ...]) -> str:
    """The blank's moves along a path of boards, each one move from the last."""
    out = []
    for a, b in itertools.pairwise(path):
        width = width_of(a)
        delta = b.index(0) - a.index(0)
        out.append({-width: "U", width: "D", -1: "L", 1: "R"}[delta])
    return "".join(out)


# --------------------------------------------------------------------------- shuffles


def shuffle(width: int, steps: int, seed: int) -> Board:
    """The goal after ``steps`` random moves of the blank (never straight back), seeded.

    Always solvable; the optimal length is at most ``steps``.
    """
    if width not in NAMES:
        raise InputError(f"The board width must be 3 or 4, got {width}.")
    if not 0 <= steps <= 10_000:
        raise InputError(f"The number of shuffle moves must be 0 to 10,000, got {steps}.")
    rng = random.Random(seed)
    board, last = goal_board(width), ""
    for _ in range(steps):
        options = [(m, b) for m, b in successors(board) if m != OPPOSITE.get(last)]
        last, board = rng.choice(options)
    return board


def random_board(width: int, seed: int) -> Board:
    """A uniformly random solvable board (a random permutation, two tiles swapped if needed)."""
    rng = random.Random(seed)
    tiles = list(range(width * width))
    rng.shuffle(tiles)
    board = tuple(tiles)
    if not solvability(board).solvable:
        i, j = [k for k, t in enumerate(tiles) if t][:2]
        tiles[i], tiles[j] = tiles[j], tiles[i]
        board = tuple(tiles)
    return board
