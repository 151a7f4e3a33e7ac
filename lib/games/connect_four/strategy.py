"""Red's proved winning strategy for the opening: a move for every Red position it reaches.

The empty board is a win for Red (:mod:`lib.games.connect_four.start`), but a live
solve settles a position only from about 12 discs on; before that a 1-second player
would play by heuristic and may give the win away. So
``scripts/make_connect_four_strategy.py`` walks the solver's own proof: at each Red
turn from the start it keeps the first move (in the search's order) that the solver
proves still wins, and follows **every** Yellow reply, down to :attr:`Strategy.plies`
discs. Whatever Yellow plays, Red's position stays in the strategy until then, and
each of its moves keeps a proved win.

The file is in the style of the score book (:mod:`lib.games.connect_four.solver`): a
magic line, then 8-byte records sorted by key (:mod:`lib.games.connect_four.records`):
the position's key (``position + mask``, the smaller of it and its mirror image's:
:func:`keys.book_key`; 7 bytes, little-endian) and the column (1 byte) for the position
in that orientation.

>>> strategy = Strategy({keys.book_key(0, 0): 3})
>>> from lib.games.connect_four import initial_state
>>> strategy.move(initial_state()), strategy.plies
(3, 0)
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from lib.errors import InputError
from lib.games.connect_four import COLUMNS, ROWS, STRIDE, ConnectFourState
from lib.games.connect_four import keys as keys
from lib.games.connect_four import records as records

STRATEGY_PATH = Path(__file__).resolve().parents[3] / "data" / "connect_four_strategy.bin"
"""The bundled strategy (see :func:`load_strategy`)."""
MAGIC = b"C4STRAT1\n"
LANE = (1 << STRIDE) - 1
"""The bits of one column in a key."""
RED_TO_MOVE = 0


@dataclass(frozen=True)
class Strategy:
    """Red's move (a column, 0–6) for each position of the strategy, by :func:`keys.book_key`.

    The move is the one for the position in its stored orientation (the smaller key); the
    mirror image plays the mirrored column (:meth:`move`).
    """

    moves: Mapping[int, int]

    def __post_init__(self) -> None:
        object.__setattr__(self, "moves", MappingProxyType(dict(self.moves)))

    def __len__(self) -> int:
        return len(self.moves)

    def __iter__(self) -> Iterator[int]:
        return iter(sorted(self.moves))

    @functools.cached_property
    def plies(self) -> int:
        """Discs of its deepest positions (0 for an empty strategy)."""
        return max((keys.key_discs(key) for key in self.moves), default=0)

    def move(self, state: ConnectFourState) -> int | None:
        """The strategy's column for ``state`` (Red to move), None when it has no entry."""
        key, mirrored = keys.stored_key(state)
        stored = self.moves.get(key)
        return COLUMNS - 1 - stored if mirrored and stored is not None else stored


def strategy_bytes(moves: Mapping[int, int]) -> bytes:
    """The file form of ``{book key: column}``: the magic line, then records by key."""
    return records.records_bytes(MAGIC, moves)


def _check_entry(index: int, key: int, column: int) -> None:
    """Refuse a record that is not a Red position in its stored orientation with a legal move."""
    where = f"entry {index} (key {key:#x})"
    heights = []
    for lane_index in range(COLUMNS):
        lane = (key >> (STRIDE * lane_index)) & LANE
        if lane == LANE:  # a column of seven discs
            raise InputError(f"{where}: column {lane_index} is overfull; not a position.")
        heights.append((lane + 1).bit_length() - 1)
    if sum(heights) % 2 != RED_TO_MOVE:
        raise InputError(f"{where}: {sum(heights)} discs, so Yellow to move; expected Red.")
    state = keys.state_from_key(key)
    if state.red.bit_count() != state.yellow.bit_count():
        raise InputError(
            f"{where}: {state.red.bit_count()} Red and {state.yellow.bit_count()} Yellow "
            "discs; Red to move has as many as Yellow."
        )
    if keys.mirror_key(key) < key:
        raise InputError(f"{where}: stored as the mirror image, not the smaller key.")
    if column >= COLUMNS or heights[column] >= ROWS:
        raise InputError(f"{where}: move {column} is not a legal column (0-6, not full).")
    if state.is_terminal():
        raise InputError(f"{where}: the game is already over.")


def load_strategy(path: str | Path | None = None) -> Strategy:
    """Read a strategy written by ``scripts/make_connect_four_strategy.py`` (default: the
    bundled one).

    Raises InputError naming the first thing wrong: not the magic line, a cut record, keys
    out of order or repeated, a record that is not a Red position with a legal move.
    """
    file = Path(path or STRATEGY_PATH)
    moves: dict[int, int] = {}
    for index, key, column in records.read_records(
        file.read_bytes(), MAGIC, file.name, "a Connect Four strategy"
    ):
        _check_entry(index, key, column)
        moves[key] = column
    return Strategy(moves)


@functools.cache
def bundled_strategy() -> Strategy | None:
    """The bundled strategy, read once per process (read-only); None without a valid file
    (:func:`records.read_bundled`: Red then plays by its search)."""
    return records.read_bundled(load_strategy, STRATEGY_PATH, "Red's opening strategy")
