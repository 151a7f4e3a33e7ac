"""Small fixed game trees from the textbook, as positions the searches can step through.

A position is a path into a nested tuple: inner nodes are tuples of children,
leaves are the numbers printed under the figure (the value for MAX, the
player to move at the root). MAX and MIN alternate. The tree is cut at its
leaves: they are scored by :data:`LEAF_VALUE` (a heuristic, not a finished
game), and beyond a leaf the only move is a pass that keeps its value, so a
search deeper than the tree returns the same value.

This is not a game of the app (the module has no ``GAME``); it is the class's
worked example. A class can type its own tree as nested lists of leaf values
(:func:`tree_from_text`):

>>> state = tree_from_text("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
>>> state.tree == AIMA_FIGURE_5_2, height(state.tree)
(True, 2)
>>> tree_to_text(state.tree)
'[[3, 12, 8], [2, 4, 6], [14, 5, 2]]'

``AIMA_FIGURE_5_2``: Russell & Norvig's two-ply tree. Minimax value 3 (move
0); alpha-beta, searching left to right, skips the second and third leaves
below the second MIN node (2 is already worse for MAX than the 3 it has).

``THREE_PLY``: a three-ply tree (MAX, MIN, MAX, 27 leaves) whose first MIN
node is the figure's leaves. Minimax value 8 (move 2). Alpha-beta, left to
right:

* below MIN node 0, MAX node 0 returns 12, MAX node 1 returns 6 (beta is 6),
  and MAX node 2 stops at its first leaf 14 >= 6: leaves 5 and 2 are skipped;
  MIN node 0 is worth 6 (alpha = 6 at the root);
* below MIN node 1, MAX node 0 returns 5 <= 6: MIN node 1 stops, and its
  other two MAX nodes (six leaves) are skipped;
* below MIN node 2, MAX node 0 returns 9 (beta = 9), MAX node 1 stops at its
  first leaf 10 >= 9 (leaves 3 and 1 skipped), MAX node 2 returns 8: MIN
  node 2 is worth 8, the root's value.

Ten of the 27 leaves are never evaluated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from lib.errors import InputError, echo
from lib.games.core import Heuristic

AIMA_FIGURE_5_2: tuple = ((3, 12, 8), (2, 4, 6), (14, 5, 2))
"""The two-ply tree of AIMA's figure 5.2 (alpha-beta on it: figure 5.5)."""

THREE_PLY: tuple = (
    ((3, 12, 8), (2, 4, 6), (14, 5, 2)),
    ((1, 5, 3), (8, 7, 6), (9, 1, 2)),
    ((7, 9, 4), (10, 3, 1), (5, 8, 2)),
)
"""A three-ply tree, branching 3: a deep cut-off below MIN node 1, shallow ones elsewhere."""

PASS = -1
"""The move beyond a leaf of the tree (the position keeps its value)."""

MOVE_NAMES = "LMR"
"""Moves are shown as Left, Middle, Right (child 0, 1, 2)."""


@dataclass(frozen=True)
class TreeState:
    """A node of a fixed tree: the tree and the path of moves from the root."""

    tree: tuple
    path: tuple[int, ...] = ()

    @property
    def node(self) -> Any:
        """The subtree (a tuple) or the leaf number at this path."""
        node = self.tree
        for move in self.path:
            if move == PASS:
                break
            node = node[move]
        return node

    @property
    def to_move(self) -> int:
        """MAX (0) at even plies, MIN (1) at odd plies."""
        return len(self.path) % 2

    @property
    def key(self) -> tuple[int, ...]:
        """The path identifies the node."""
        return self.path

    def legal_moves(self) -> list[int]:
        """One move per child; a pass below a leaf."""
        node = self.node
        return list(range(len(node))) if isinstance(node, tuple) else [PASS]

    def play(self, move: int) -> TreeState:
        """The child reached by ``move``."""
        if move not in self.legal_moves():
            raise InputError(f"Move {move!r} is not a move of this tree node.")
        return TreeState(self.tree, (*self.path, move))

    def is_terminal(self) -> bool:
        """Never: the tree is cut at its leaves, not finished there."""
        return False

    def winner(self) -> int | None:
        """No one (the game never finishes)."""
        return None

    def score(self, player: int) -> float:
        """0: only the heuristic scores this tree."""
        return 0.0

    def __str__(self) -> str:
        return "root" if not self.path else " ".join(format_move(m) for m in self.path)


def initial_state(tree: tuple = THREE_PLY) -> TreeState:
    """The root of ``tree`` (MAX to move)."""
    if not isinstance(tree, tuple) or not tree:
        raise InputError("A textbook tree is a non-empty nested tuple of numbers.")
    return TreeState(tree)


def format_move(move: int) -> str:
    """``L``, ``M``, ``R`` for children 0 to 2 (``c3``... beyond), ``pass`` below a leaf."""
    if move == PASS:
        return "pass"
    return MOVE_NAMES[move] if 0 <= move < len(MOVE_NAMES) else f"c{move}"


def height(tree: Any) -> int:
    """The number of plies from the root to the deepest leaf."""
    return 1 + max(height(child) for child in tree) if isinstance(tree, tuple) else 0


def _leaf_value(state: TreeState, player: int, weights: tuple[float, ...]) -> float:
    node = state.node
    value = 0.0 if isinstance(node, tuple) else float(node)
    return value if player == 0 else -value


LEAF_VALUE = Heuristic(
    "leaf value",
    "The number printed under the leaf (for MAX); 0 above the leaves.",
    _leaf_value,
)
"""The textbook's leaf numbers as a heuristic."""

leaf_value = LEAF_VALUE.bind()
"""``leaf_value(state, player)``: the evaluator the searches call."""


# -- a tree typed by the class -----------------------------------------------------------

MAX_TEXT = 10_000
"""The longest tree text read (characters)."""

MAX_LEAVES = 1_000
"""The most leaves a typed tree may have."""

MAX_LEVELS = 8
"""The deepest a typed tree may be (plies from the root to its deepest leaf)."""

MAX_LEAF_VALUE = 10_000
"""Leaf values lie within ±this (far inside the searches' win values)."""

_TOKEN = re.compile(
    r"\s*(?:(?P<number>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)|(?P<mark>[][(),])|(?P<other>\S))"
)
_CLOSING = {"[": "]", "(": ")"}


def _where(text: str, offset: int) -> str:
    """``character N`` (1-based), with the line for text of several lines."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"line {line}, character {column}" if "\n" in text else f"character {offset + 1}"


class _TreeReader:
    """A recursive-descent reader of one tree text, with the position of every token."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = [
            (m.lastgroup, m.group(m.lastgroup), m.start(m.lastgroup))
            for m in _TOKEN.finditer(text)
            if m.lastgroup
        ]
        self.next = 0
        self.leaves = 0

    def fail(self, offset: int, message: str) -> InputError:
        return InputError(f"Tree, at {_where(self.text, offset)}: {message}")

    def peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.next] if self.next < len(self.tokens) else None

    def node(self, level: int) -> Any:
        """A number (a leaf) or a bracketed list of nodes."""
        token = self.peek()
        if token is None:
            raise self.fail(len(self.text), "the text ends where a number or '[' was expected.")
        kind, value, offset = token
        self.next += 1
        if kind == "number":
            return self.leaf(value, offset)
        if value in _CLOSING:
            return self.children(value, offset, level + 1)
        raise self.fail(offset, f"found {echo(value)!r} where a number or '[' was expected.")

    def leaf(self, value: str, offset: int) -> int | float:
        number = float(value)
        if abs(number) > MAX_LEAF_VALUE:
            raise self.fail(offset, f"the leaf {echo(value)} is outside ±{MAX_LEAF_VALUE:,}.")
        self.leaves += 1
        if self.leaves > MAX_LEAVES:
            raise self.fail(offset, f"more than {MAX_LEAVES:,} leaves; type a smaller tree.")
        return int(number) if number.is_integer() else number

    def children(self, opening: str, offset: int, level: int) -> tuple:
        if level > MAX_LEVELS:
            raise self.fail(offset, f"the tree is deeper than {MAX_LEVELS} levels.")
        closing, children = _CLOSING[opening], []
        while True:
            token = self.peek()
            if token is None:
                raise self.fail(offset, f"this {opening!r} is never closed by {closing!r}.")
            _, value, at = token
            if value == closing:
                self.next += 1
                if not children:
                    raise self.fail(offset, f"an empty subtree {opening}{closing}: give it leaves.")
                return tuple(children)
            if children:
                if value != ",":
                    raise self.fail(
                        at, f"found {echo(value)!r} where ',' or {closing!r} was expected."
                    )
                self.next += 1
            children.append(self.node(level))


def tree_from_text(text: str) -> TreeState:
    """The root of the tree ``text`` types as nested lists of leaf values (MAX to move).

    ``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]`` is AIMA's figure 5.2: a MAX root,
    three MIN nodes, nine leaves. Parentheses work as brackets; leaves may sit at
    different depths. Nothing is evaluated: the text is read token by token.

    Raises
    ------
    InputError
        Naming the character (and line) where the text goes wrong: an unbalanced
        bracket, something that is not a number, an empty subtree, more than
        :data:`MAX_LEAVES` leaves or :data:`MAX_LEVELS` levels, or text over
        :data:`MAX_TEXT` characters.
    """
    if len(text) > MAX_TEXT:
        raise InputError(f"Tree: the text has {len(text):,} characters; at most {MAX_TEXT:,}.")
    reader = _TreeReader(text)
    first = reader.peek()
    if first is None:
        raise InputError("Tree: the text is empty; type e.g. [[3, 12, 8], [2, 4, 6], [14, 5, 2]].")
    if first[1] not in _CLOSING:
        raise reader.fail(first[2], "a tree starts with '[' (a single number is not a tree).")
    tree = reader.node(0)
    extra = reader.peek()
    if extra is not None:
        raise reader.fail(extra[2], f"found {echo(extra[1])!r} after the tree's last ']'.")
    return initial_state(tree)


def tree_to_text(tree: Any) -> str:
    """The text :func:`tree_from_text` reads back as ``tree``."""
    if isinstance(tree, tuple):
        return "[" + ", ".join(tree_to_text(child) for child in tree) + "]"
    return repr(tree)
