"""The keyed records of Connect Four's opening files: a magic line, then 8 bytes a position.

Red's strategy (:mod:`lib.games.connect_four.strategy`) and Yellow's opening book
(:mod:`lib.games.connect_four.opening_book`) are each a magic line, then one record per
position in increasing key order: the position's key (:func:`keys.book_key`, the smaller of
it and its mirror image's; 7 bytes, little-endian) and one byte of the file's own.

>>> data = records_bytes(b"DEMO\\n", {5: 3, 2: 1})
>>> list(read_records(data, b"DEMO\\n", "demo.bin", "a demo file"))
[(0, 2, 1), (1, 5, 3)]
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TypeVar

from lib.errors import InputError

T = TypeVar("T")

RECORD = 8
"""Bytes per record: the position's key (7, little-endian) and the file's byte (1)."""
KEY_BYTES = RECORD - 1


def records_bytes(magic: bytes, rows: Mapping[int, int]) -> bytes:
    """The file form of ``{key: byte}``: ``magic``, then the records in key order."""
    return magic + b"".join(
        key.to_bytes(KEY_BYTES, "little") + bytes([value]) for key, value in sorted(rows.items())
    )


def read_records(data: bytes, magic: bytes, name: str, what: str) -> Iterator[tuple[int, int, int]]:
    """``(index, key, byte)`` of each record of the file ``name`` (``data``), in order.

    Raises InputError naming the first thing wrong: no ``magic`` line (the file is not
    ``what``), a cut record, keys out of order or repeated.
    """
    if not data.startswith(magic):
        raise InputError(f"{name} is not {what} (no {magic!r} line).")
    body = data[len(magic) :]
    if len(body) % RECORD:
        raise InputError(f"{name}: {len(body)} bytes of records, not a multiple of {RECORD}.")
    previous = -1
    for index, start in enumerate(range(0, len(body), RECORD)):
        key = int.from_bytes(body[start : start + KEY_BYTES], "little")
        if key <= previous:
            raise InputError(f"{name}: entry {index} is out of order or repeated.")
        yield index, key, body[start + KEY_BYTES]
        previous = key


def read_bundled(load: Callable[[Path], T], path: Path, what: str) -> T | None:
    """``load(path)``, or None when the file is missing, unreadable or refused: the game
    then plays without it, by its search, and the server's log says why (a bundled file
    broken in a deployment must not stop every move of the game)."""
    try:
        return load(path)
    except (InputError, OSError) as error:
        logging.getLogger(__name__).warning("%s is not used: %s", what, error)
        return None
