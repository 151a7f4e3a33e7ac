"""Yellow's opening book: a move for every Yellow position it reaches, with what was proved of it.

Red wins from the start (:mod:`lib.games.connect_four.start`), so Yellow can only wait
for Red to give its win away. Early in the game a live solve rarely proves anything in
the AI's second, so ``scripts/make_connect_four_yellow_book.py`` walks Yellow's turns
ahead of time: from the empty board it follows **every** Red move and the book's own
Yellow move, and at each Yellow turn keeps

* a move the solver proves **wins** (outcome 1), the first in the search's order;
* else a move it proves **draws** (outcome 0: no move wins, this one keeps the draw);
* else, every move losing, the move of the default heuristic's alpha-beta (outcome -1).

Whatever Red plays, Yellow's position stays in the book down to :attr:`OpeningBook.plies`
discs (or deeper, in the subtrees Yellow has won), and a win Red gives away is kept.

The file: a magic line, then 8-byte records sorted by key
(:mod:`lib.games.connect_four.records`): the position's key
(``position + mask``, the smaller of it and its mirror image's: :func:`keys.book_key`;
7 bytes, little-endian) and one byte, the column (bits 0-2) for the position in that
orientation plus ``outcome + 1`` times 8.

>>> from lib.games.connect_four import initial_state
>>> after_a = initial_state().play(0)  # Yellow to move; its mirror image is after g
>>> book = OpeningBook({keys.book_key(*keys.bitboards(after_a)[:2]): (1, 1)})
>>> book.entry(after_a), book.entry(initial_state().play(6))
((1, 1), (5, 1))
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from lib.errors import InputError
from lib.games.connect_four import COLUMNS, STRIDE, ConnectFourState
from lib.games.connect_four import keys as keys
from lib.games.connect_four import records as records

BOOK_PATH = Path(__file__).resolve().parents[3] / "data" / "connect_four_yellow_book.bin"
"""The bundled book (see :func:`load_opening_book`)."""
MAGIC = b"C4OPEN1\n"
LANE = (1 << STRIDE) - 1
"""The bits of one column in a key."""
OUTCOME_SHIFT = 3
"""The move byte holds the column in its low bits and ``outcome + 1`` from this bit on."""
OUTCOMES = (-1, 0, 1)
"""Loss, draw and win, for the side to move."""


@dataclass(frozen=True)
class OpeningBook:
    """``(column, outcome)`` for each position of the book, by :func:`keys.book_key`: the
    move for the position in its stored orientation (the mirror image plays the mirrored
    column, :meth:`entry`) and what the solver proved of it for the side to move."""

    entries: Mapping[int, tuple[int, int]]

    def __post_init__(self) -> None:
        object.__setattr__(self, "entries", MappingProxyType(dict(self.entries)))

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[int]:
        return iter(sorted(self.entries))

    @functools.cached_property
    def plies(self) -> int:
        """Discs of its deepest positions (0 for an empty book)."""
        return max((keys.key_discs(key) for key in self.entries), default=0)

    def entry(self, state: ConnectFourState) -> tuple[int, int] | None:
        """``(column, outcome)`` for ``state``, None when the book has no entry."""
        key, mirrored = keys.stored_key(state)
        stored = self.entries.get(key)
        return (COLUMNS - 1 - stored[0], stored[1]) if mirrored and stored is not None else stored


def book_bytes(entries: Mapping[int, tuple[int, int]]) -> bytes:
    """The file form of ``{book key: (column, outcome)}``: the magic line, then records."""
    moves = {
        key: column | (outcome + 1) << OUTCOME_SHIFT for key, (column, outcome) in entries.items()
    }
    return records.records_bytes(MAGIC, moves)


def _check_position(where: str, key: int) -> ConnectFourState:
    """The position of ``key``, refusing one that is not a game in progress, Yellow to move."""
    for lane_index in range(COLUMNS):
        if (key >> (STRIDE * lane_index)) & LANE == LANE:  # a column of seven discs
            raise InputError(f"{where}: column {lane_index} is overfull; not a position.")
    state = keys.state_from_key(key)
    red, yellow = state.red.bit_count(), state.yellow.bit_count()
    if red != yellow + 1:
        raise InputError(
            f"{where}: {red} Red and {yellow} Yellow discs; Yellow to move has one fewer."
        )
    if keys.mirror_key(key) < key:
        raise InputError(f"{where}: stored as the mirror image, not the smaller key.")
    if state.is_terminal():
        raise InputError(f"{where}: the game is already over.")
    return state


def _check_entry(index: int, key: int, move: int) -> tuple[int, int]:
    """``(column, outcome)`` of a record, refusing one that is not a position with a legal
    move and a known outcome."""
    where = f"entry {index} (key {key:#x})"
    state = _check_position(where, key)
    column, outcome = move & ((1 << OUTCOME_SHIFT) - 1), (move >> OUTCOME_SHIFT) - 1
    if outcome not in OUTCOMES:
        raise InputError(f"{where}: outcome {outcome} is not -1, 0 or 1 (loss, draw, win).")
    if column not in state.legal_moves():
        raise InputError(f"{where}: move {column} is not a legal column (0-6, not full).")
    return column, outcome


def load_opening_book(path: str | Path | None = None) -> OpeningBook:
    """Read a book written by ``scripts/make_connect_four_yellow_book.py`` (default: the
    bundled one).

    Raises InputError naming the first thing wrong: not the magic line, a cut record, keys
    out of order or repeated, a record that is not a Yellow position with a legal move and an
    outcome.
    """
    file = Path(path or BOOK_PATH)
    read = records.read_records(file.read_bytes(), MAGIC, file.name, "a Connect Four opening book")
    return OpeningBook({key: _check_entry(index, key, move) for index, key, move in read})


@functools.cache
def bundled_opening_book() -> OpeningBook | None:
    """The bundled book, read once per process (read-only); None without a valid file
    (:func:`records.read_bundled`: Yellow then plays by its search)."""
    return records.read_bundled(load_opening_book, BOOK_PATH, "Yellow's opening book")
