"""Edits of a grid map (walls, terrain costs) as pure functions, their link text and CSV files.

A grid's *terrain* is a ``rows`` x ``cols`` array of whole numbers: each cell's cost
(1, 3 or 10, :data:`COSTS`) or 0 for a wall. :func:`base_terrain` reads it from a grid
graph, :func:`apply_edit` paints one :class:`CellEdit` (a tool and the cells it
touched) and returns a new array, and :func:`lib.routes.graphs.grid_from_terrain`
builds the graph searched. The browser sends edits as plain JSON
(:func:`parse_edit` checks them); a link carries the difference from the generated
grid as run-length text (:func:`encode_terrain`, :func:`decode_terrain`); and
:func:`edges_csv` / :func:`nodes_csv` write any map in the upload format that
:func:`lib.routes.graphs.load_graph_csv` reads.

>>> base = np.ones((2, 3), dtype=np.uint8)
>>> walled = apply_edit(base, CellEdit("wall", ((0, 1), (1, 1))))
>>> walled.tolist()
[[1, 0, 1], [1, 0, 1]]
>>> text = encode_terrain(base, walled)
>>> bool((decode_terrain(base, text) == walled).all())
True
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable
from dataclasses import dataclass
from types import MappingProxyType

import networkx as nx
import numpy as np
import pandas as pd

from lib.common import safe_csv_bytes
from lib.errors import InputError
from lib.routes.graphs import node_label

#: A cell's cost when it is not a wall; 0 is a wall.
COSTS = (1, 3, 10)
WALL = 0
#: The painting tools and the terrain each gives a cell (read-only).
TOOLS = MappingProxyType({"wall": WALL, "erase": 1, "cost 3": 3, "cost 10": 10})
#: Most cells one edit may touch (a drag over a whole 60x80 grid is 4,800).
MAX_EDIT_CELLS = 10_000
#: Longest link text of map edits read or written (characters, after ``edits=``).
MAX_LINK_CHARS = 2_000
#: The link text's first character: the version of its encoding.
LINK_VERSION = "1"
# run symbols: the cell as generated, or its new terrain
_KEEP = 0
_SYMBOLS = (WALL, *COSTS)  # symbol k + 1 is terrain _SYMBOLS[k]
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")


class EditError(InputError):
    """A map edit from the browser that cannot be applied (the message names what is wrong)."""


class EditLinkError(InputError):
    """A link's map edits that cannot be read (the message names what is wrong)."""


@dataclass(frozen=True)
class CellEdit:
    """One stroke of a tool: ``tool`` (a key of :data:`TOOLS`) painted on ``cells`` (row, col)."""

    tool: str
    cells: tuple[tuple[int, int], ...]


def base_terrain(G: nx.Graph) -> np.ndarray:
    """The terrain of grid graph ``G`` (its walls and the costs in ``G.graph["costs"]``)."""
    if G.graph.get("kind") != "grid":
        raise EditError("Only grid maps have cells to edit.")
    terrain = np.ones((G.graph["rows"], G.graph["cols"]), dtype=np.uint8)
    for r, c in G.graph.get("obstacles", ()):
        terrain[r, c] = WALL
    for r, c, cost in G.graph.get("costs", ()):
        terrain[r, c] = cost
    return terrain


def apply_edit(
    terrain: np.ndarray, edit: CellEdit, keep: Iterable[tuple[int, int]] = ()
) -> np.ndarray:
    """A new terrain: ``terrain`` with ``edit``'s cells painted, except the cells in ``keep``.

    ``keep`` holds the start and goal: a wall painted over them leaves them free.

    >>> apply_edit(np.ones((1, 3), np.uint8), CellEdit("wall", ((0, 0), (0, 2))), [(0, 2)])
    array([[0, 1, 1]], dtype=uint8)
    """
    value = TOOLS[edit.tool]
    painted = terrain.copy()
    kept = set(keep)
    for r, c in edit.cells:
        if (r, c) not in kept or value != WALL:
            painted[r, c] = value
    return painted


def apply_edits(
    terrain: np.ndarray, edits: Iterable[CellEdit], keep: Iterable[tuple[int, int]] = ()
) -> np.ndarray:
    """``terrain`` with every edit of ``edits`` applied in order (see :func:`apply_edit`)."""
    kept = tuple(keep)
    for edit in edits:
        terrain = apply_edit(terrain, edit, kept)
    return terrain


def walled_ends(terrain: np.ndarray, ends: Iterable[tuple[int, int] | None]) -> list:
    """The cells of ``ends`` that are walls of ``terrain``, in order (``None``, off-grid skipped).

    The editor's walls spare the start and the goal; a link's edits may wall them, and the
    page frees them again (an ``"erase"`` :class:`CellEdit` of these cells) and says so.
    """
    rows, cols = terrain.shape
    return [
        cell
        for cell in ends
        if cell is not None
        and 0 <= cell[0] < rows
        and 0 <= cell[1] < cols
        and terrain[cell] == WALL
    ]


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_edit(value: object, rows: int, cols: int) -> CellEdit:
    """The edit the map sent (``{"tool": ..., "cells": [row, col, row, col, ...]}``), checked.

    Raises :class:`EditError` for anything else: an unknown tool, cells that are not
    pairs of whole numbers inside the ``rows`` x ``cols`` grid, or more than
    :data:`MAX_EDIT_CELLS` cells.

    >>> parse_edit({"tool": "wall", "cells": [0, 1, 0, 2]}, 2, 3)
    CellEdit(tool='wall', cells=((0, 1), (0, 2)))
    """
    if not isinstance(value, dict):
        raise EditError("The map edit is not a tool and cells.")
    tool, flat = value.get("tool"), value.get("cells")
    if tool not in TOOLS:
        raise EditError(f"Unknown map tool {str(tool)[:40]!r}; the tools are {', '.join(TOOLS)}.")
    if not isinstance(flat, list) or len(flat) % 2 or not flat:
        raise EditError("The map edit's cells are not pairs of row and column.")
    if len(flat) > 2 * MAX_EDIT_CELLS:
        raise EditError(f"One map edit may touch at most {MAX_EDIT_CELLS:,} cells.")
    if not all(_whole(v) for v in flat):
        raise EditError("The map edit's rows and columns must be whole numbers.")
    cells = tuple(zip(flat[::2], flat[1::2], strict=True))
    outside = [(r, c) for r, c in cells if not (0 <= r < rows and 0 <= c < cols)]
    if outside:
        r, c = outside[0]
        raise EditError(f"The cell {r},{c} is outside the {rows}x{cols} grid.")
    return CellEdit(tool, tuple(dict.fromkeys(cells)))


# --------------------------------------------------------------------------- link text


def _varint(number: int) -> bytes:
    out = bytearray()
    while True:
        byte, number = number & 0x7F, number >> 7
        out.append(byte | (0x80 if number else 0))
        if not number:
            return bytes(out)


def encode_terrain(base: np.ndarray, terrain: np.ndarray) -> str:
    """Link text for ``terrain`` as changes of ``base``: ``""`` when nothing changed.

    Cells in row-major order form runs of one symbol (unchanged, or the new
    terrain); each run is a varint ``length * 8 + symbol``, and the bytes are
    base64url without padding after :data:`LINK_VERSION`. :func:`decode_terrain` reads it.
    """
    if base.shape != terrain.shape:
        raise ValueError("the terrain and its base differ in shape")
    changed = base != terrain
    if not changed.any():
        return ""
    lookup = {value: k + 1 for k, value in enumerate(_SYMBOLS)}
    symbols = np.where(changed, np.vectorize(lookup.get, otypes=[np.int64])(terrain), _KEEP)
    flat = symbols.ravel()
    edges = np.flatnonzero(np.diff(flat)) + 1
    starts = np.concatenate(([0], edges))
    lengths = np.diff(np.concatenate((starts, [flat.size])))
    runs = b"".join(
        _varint(int(n) * 8 + int(flat[s])) for s, n in zip(starts, lengths, strict=True)
    )
    return LINK_VERSION + base64.urlsafe_b64encode(runs).decode("ascii").rstrip("=")


def _runs(raw: bytes) -> list[tuple[int, int]]:
    """The ``(symbol, length)`` runs of the link's bytes, or :class:`EditLinkError`."""
    runs: list[tuple[int, int]] = []
    number, shift = 0, 0
    for byte in raw:
        number |= (byte & 0x7F) << shift
        shift += 7
        if shift > 21:
            raise EditLinkError("The link's map edits hold a run longer than any grid.")
        if byte & 0x80:
            continue
        symbol, length = number & 7, number >> 3
        if symbol > len(_SYMBOLS) or length == 0:
            raise EditLinkError("The link's map edits hold a cell that is not a wall or cost.")
        runs.append((symbol, length))
        number, shift = 0, 0
    if shift:
        raise EditLinkError("The link's map edits are cut short.")
    return runs


def decode_terrain(base: np.ndarray, text: str) -> np.ndarray:
    """The terrain that link text ``text`` (:func:`encode_terrain`) makes of ``base``.

    Raises :class:`EditLinkError`, naming the problem, for text over
    :data:`MAX_LINK_CHARS`, another version, characters outside base64url, bytes
    that are not runs of known symbols, or runs that do not cover ``base``'s cells
    exactly (the edits of another grid).
    """
    if not text:
        return base.copy()
    if len(text) > MAX_LINK_CHARS:
        raise EditLinkError(
            f"The link's map edits are {len(text):,} characters long; at most "
            f"{MAX_LINK_CHARS:,} are read."
        )
    if text[0] != LINK_VERSION:
        raise EditLinkError("The link's map edits are in an unknown format (not version 1).")
    body = text[1:]
    if not _BASE64URL.fullmatch(body) or len(body) % 4 == 1:
        raise EditLinkError("The link's map edits are not base64url text; was the link cut?")
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise EditLinkError("The link's map edits are not base64url text.") from None
    runs = _runs(raw)
    total = sum(length for _, length in runs)
    if total != base.size:
        raise EditLinkError(
            f"The link's map edits are for a grid of {total:,} cells; this grid has "
            f"{base.size:,} (rows x columns)."
        )
    symbols = np.repeat(
        np.array([s for s, _ in runs], dtype=np.int64), [n for _, n in runs]
    ).reshape(base.shape)
    values = np.array((0, *_SYMBOLS), dtype=np.uint8)[symbols]
    return np.where(symbols == _KEEP, base, values).astype(np.uint8)


# --------------------------------------------------------------------------- upload format


def edges_csv(G: nx.Graph) -> bytes:
    """``G``'s roads in the upload format's edges CSV (``source,target,weight``)."""
    table = pd.DataFrame(
        [(node_label(u), node_label(v), float(w)) for u, v, w in G.edges(data="weight")],
        columns=["source", "target", "weight"],
    )
    return safe_csv_bytes(table)


def nodes_csv(G: nx.Graph) -> bytes:
    """``G``'s places in the upload format's nodes CSV (``node,x,y``)."""
    table = pd.DataFrame(
        [(node_label(n), float(x), float(y)) for n, (x, y) in G.nodes(data="pos")],
        columns=["node", "x", "y"],
    )
    return safe_csv_bytes(table)
