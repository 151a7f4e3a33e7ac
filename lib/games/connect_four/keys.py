"""Position keys of the solver's tables and files: a key, its mirror image, back to a state.

A position's key is ``position + mask`` (the side to move's discs plus every disc, in the
project's bit layout: :mod:`lib.games.connect_four`): unique, 49 bits, and the same for
the solver's table, the score book and the opening strategy. A position and its left-right
mirror image have the same value, so the files store the smaller of the two keys.

>>> from lib.games.connect_four import state_from_moves
>>> key = book_key(*bitboards(state_from_moves("ab"))[:2])
>>> key == book_key(*bitboards(state_from_moves("gf"))[:2]), key_discs(key)
(True, 2)
"""

from __future__ import annotations

from lib.games.connect_four import COLUMNS, STRIDE, ConnectFourState


def position_key(position: int, mask: int) -> int:
    """The unique key of a position: the mover's discs plus every disc."""
    return position + mask


def mirror_key(key: int) -> int:
    """The key of the left-right mirror image of the position with ``key``."""
    mirrored = 0
    for column in range(COLUMNS):
        lane = (key >> (STRIDE * column)) & ((1 << STRIDE) - 1)
        mirrored |= lane << (STRIDE * (COLUMNS - 1 - column))
    return mirrored


def book_key(position: int, mask: int) -> int:
    """The key under which the opening book stores a position: the smaller of the key
    and its mirror image's (mirror images have the same score)."""
    key = position + mask
    return min(key, mirror_key(key))


def bitboards(state: ConnectFourState) -> tuple[int, int, int]:
    """``(position, mask, moves played)`` of a project state: the mover's discs, all discs."""
    mask = state.red | state.yellow
    played = mask.bit_count()
    position = state.red if played % 2 == 0 else state.yellow
    return position, mask, played


def stored_key(state: ConnectFourState) -> tuple[int, bool]:
    """The key a file stores ``state`` under (:func:`book_key`), and whether ``state`` is the
    mirror image of the stored position (a stored column then reads ``COLUMNS - 1 - c``)."""
    position, mask, _played = bitboards(state)
    key = position + mask
    twin = mirror_key(key)
    return (twin, True) if twin < key else (key, False)


def state_from_key(key: int) -> ConnectFourState:
    """The position whose key (``position + mask``) is ``key``."""
    mask = 0
    for column in range(COLUMNS):
        lane = (key >> (STRIDE * column)) & ((1 << STRIDE) - 1)
        height = (lane + 1).bit_length() - 1
        mask |= ((1 << height) - 1) << (STRIDE * column)
    position = key - mask
    other = position ^ mask
    if mask.bit_count() % 2 == 0:
        return ConnectFourState(position, other)
    return ConnectFourState(other, position)


def key_discs(key: int) -> int:
    """The number of discs of the position with ``key`` (``position + mask``)."""
    discs = 0
    for column in range(COLUMNS):
        lane = (key >> (STRIDE * column)) & ((1 << STRIDE) - 1)
        # the lane is the column's discs (a run from the bottom) plus the mover's among
        # them; adding one more carries up to the square just above the top disc
        discs += (lane + 1).bit_length() - 1
    return discs
