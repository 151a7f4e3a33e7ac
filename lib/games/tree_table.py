"""A typed game tree as a table of its leaves: one row per leaf, its path and its value.

The step-through's "Your own tree" is typed as text
(:func:`lib.games.textbook_tree.tree_from_text`); beside the text a table lists
the leaves left to right, so a student can change a leaf's value without
counting brackets. The text stays the one source of truth: an edited table is
turned back into a tree (:func:`with_leaf_values`) and then into text
(:func:`lib.games.textbook_tree.tree_to_text`). The shape of the tree (how many
children each node has) is changed in the text.

>>> from lib.games.textbook_tree import AIMA_FIGURE_5_2
>>> leaf_rows(AIMA_FIGURE_5_2)[:2]
[('L L', 3), ('L M', 12)]
>>> with_leaf_values(AIMA_FIGURE_5_2, {1: 7})[0]
(3, 7, 8)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from lib.errors import InputError
from lib.games.textbook_tree import MAX_LEAF_VALUE, format_move

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


def with_leaf_values(tree: Any, values: Mapping[int, Any]) -> tuple:
    """``tree`` with leaf ``i`` (0-based, left to right, as :func:`leaf_rows`) set to ``values[i]``.

    Raises
    ------
    InputError
        Naming the table row (1-based) and the leaf: an empty value, something that
        is not a number, a value beyond ±:data:`~lib.games.textbook_tree.MAX_LEAF_VALUE`,
        or a row the tree does not have.
    """
    rows = leaf_rows(tree)
    for index in values:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(rows):
            raise InputError(f"Table: there is no row {index!r}; the tree has {len(rows)} leaves.")
    checked = {i: _number(i + 1, rows[i][0], value) for i, value in values.items()}
    counter = iter(range(len(rows)))

    def rebuild(node: Any) -> Any:
        if isinstance(node, tuple):
            return tuple(rebuild(child) for child in node)
        index = next(counter)
        return checked.get(index, node)

    return rebuild(tree)
