"""A typed game tree as a table of its leaves: one row per leaf, its path and its value.

The step-through's "Your own tree" is typed as text
(:func:`lib.games.textbook_tree.tree_from_text`); beside the text a table lists
the leaves left to right (:func:`leaf_rows`), so a student can change a leaf's
value, add a leaf (a row with a new path) or delete one without counting
brackets. The text stays the one source of truth: the edited table is read back
into a tree (:func:`edited_rows`, :func:`tree_from_rows`) and written as text
(:func:`lib.games.textbook_tree.tree_to_text`).

A path is the moves from the root, ``L``, ``M``, ``R`` for the first three
children and ``c3``, ``c4``... beyond, separated by spaces: ``M R`` is the root's
second child's third child. A node's children keep their order, and gaps close
up: delete ``L M`` and ``L R`` becomes ``L M``.

>>> from lib.games.textbook_tree import AIMA_FIGURE_5_2
>>> leaf_rows(AIMA_FIGURE_5_2)[:2]
[('L L', 3), ('L M', 12)]
>>> tree_from_rows([("L", 1), ("M L", 2), ("M c5", 3)])
(1, (2, 3))
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from lib.errors import InputError
from lib.games.textbook_tree import (
    MAX_LEAF_VALUE,
    MAX_LEAVES,
    MAX_LEVELS,
    MOVE_NAMES,
    format_move,
)

Number = int | float


def leaf_rows(tree: Any) -> list[tuple[str, Number]]:
    """``(path, value)`` of every leaf, left to right; the path as the tree chart names it."""
    rows: list[tuple[str, Number]] = []
    stack: list[tuple[Any, tuple[int, ...]]] = [(tree, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, tuple):
            stack.extend((child, (*path, i)) for i, child in reversed(list(enumerate(node))))
        else:
            rows.append((" ".join(format_move(move) for move in path) or "root", node))
    return rows


def _number(row: int, name: str, value: Any) -> Number:
    """The value typed in table row ``row`` (1-based) for the leaf ``name``, checked."""
    where = f"Table, row {row} (leaf {name})"
    if value is None or (isinstance(value, str) and not value.strip()):
        raise InputError(f"{where}: the value is empty; type a number.")
    if isinstance(value, bool):
        raise InputError(f"{where}: {value!r} is not a number.")
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"{where}: {str(value)[:40]!r} is not a number.") from None
    if not math.isfinite(number) or abs(number) > MAX_LEAF_VALUE:
        raise InputError(f"{where}: {number:g} is outside ±{MAX_LEAF_VALUE:,}.")
    return int(number) if number.is_integer() else number


MAX_CHILD = 99
"""The highest child number a path may name (``c99``)."""

_CHILD = re.compile(r"C[0-9]{1,2}")


def parse_path(text: Any, row: int) -> tuple[int, ...]:
    """The moves of a path typed in table row ``row`` (1-based): ``M R``, ``l c4``...

    Raises :class:`InputError` naming the row and the part that is not a move.
    """
    where = f"Table, row {row}"
    if not isinstance(text, str) or not text.strip():
        raise InputError(f"{where}: the leaf's path is empty; type moves like 'M R'.")
    parts = text.replace("→", " ").split()
    if not parts:  # arrows alone: the root, which is never a leaf
        raise InputError(f"{where}: the path {text.strip()!r} has no move; type moves like 'M R'.")
    if len(parts) > MAX_LEVELS:
        raise InputError(f"{where}: the path has {len(parts)} moves; at most {MAX_LEVELS}.")
    moves = []
    for part in parts:
        name = part.upper()
        if name in MOVE_NAMES:
            moves.append(MOVE_NAMES.index(name))
        elif _CHILD.fullmatch(name):
            moves.append(int(name[1:]))
        else:
            raise InputError(
                f"{where}: {part[:20]!r} is not a move; use L, M, R or c3 to c{MAX_CHILD}."
            )
    return tuple(moves)


def tree_from_rows(rows: Sequence[tuple[Any, Any]]) -> tuple:
    """The tree whose leaves are ``rows`` of ``(path, value)`` (table rows, 1-based in messages).

    Raises
    ------
    InputError
        Naming the row: a path that is not moves, an empty or non-numeric value, a value
        beyond ±:data:`~lib.games.textbook_tree.MAX_LEAF_VALUE`, a path given twice, a
        leaf that is also above another leaf, no row at all or more than
        :data:`~lib.games.textbook_tree.MAX_LEAVES`.
    """
    if not rows:
        raise InputError("Table: no leaf left; a tree needs at least one.")
    if len(rows) > MAX_LEAVES:
        raise InputError(f"Table: {len(rows):,} leaves; at most {MAX_LEAVES:,}.")
    leaves: dict[tuple[int, ...], tuple[int, Number]] = {}
    for row, (path_text, value) in enumerate(rows, start=1):
        path = parse_path(path_text, row)
        if path in leaves:
            raise InputError(
                f"Table, row {row}: the path {path_text.strip()!r} is also row {leaves[path][0]}."
            )
        leaves[path] = (row, _number(row, path_text.strip(), value))
    for path, (row, _) in leaves.items():
        for cut in range(1, len(path)):
            if path[:cut] in leaves:
                above = leaves[path[:cut]][0]
                raise InputError(
                    f"Table, row {row}: the path {rows[row - 1][0].strip()!r} goes through "
                    f"row {above}'s leaf; a leaf has no children."
                )
    return _build(leaves, ())


def _build(leaves: Mapping[tuple[int, ...], tuple[int, Number]], path: tuple[int, ...]) -> Any:
    """The node at ``path``: a leaf's value, or its children in order (gaps closed up)."""
    if path in leaves:
        return leaves[path][1]
    depth = len(path)
    children = sorted({p[depth] for p in leaves if len(p) > depth and p[:depth] == path})
    return tuple(_build(leaves, (*path, child)) for child in children)


def edited_rows(
    rows: Sequence[tuple[str, Number]],
    edited: Mapping[Any, Mapping[str, Any]],
    added: Sequence[Mapping[str, Any]],
    deleted: Sequence[Any],
) -> list[tuple[Any, Any]]:
    """``rows`` after a table editor's changes: cells ``edited`` (row -> column -> new
    value), rows ``added`` (column -> value) and rows ``deleted`` (row numbers, 0-based).

    Columns are ``"Leaf"`` (the path) and ``"Value"``; a cell left out keeps its value.
    An added row without a path yet is left out (the student is still filling it in);
    an added row's missing value is empty (:func:`tree_from_rows` then names it).
    """
    table = [list(row) for row in rows]
    for index, cells in edited.items():
        number = int(index)
        if not 0 <= number < len(table):
            raise InputError(f"Table: there is no row {number + 1}.")
        table[number] = [cells.get("Leaf", table[number][0]), cells.get("Value", table[number][1])]
    gone = {int(index) for index in deleted}
    kept = [tuple(row) for number, row in enumerate(table) if number not in gone]
    filled = [cells for cells in added if str(cells.get("Leaf") or "").strip()]
    return kept + [(cells.get("Leaf"), cells.get("Value")) for cells in filled]
