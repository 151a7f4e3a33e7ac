"""A tiny explicit game tree satisfying the game interface, for generic tests.

A state is a path into a nested tuple tree; inner nodes are tuples of
children, leaves are numbers (the utility for player 0). Players alternate.
Leaves at the bottom of the tree are *finished* games when ``finished`` is
true (utility = score), otherwise the tree is cut there and the leaf value is
read by :func:`leaf_heuristic`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# AIMA figure 5.2: MAX at the root, three MIN nodes; minimax value 3.
AIMA_TREE = ((3, 12, 8), (2, 4, 6), (14, 5, 2))


@dataclass(frozen=True)
class ToyState:
    tree: Any
    path: tuple[int, ...] = ()
    finished: bool = False

    @property
    def node(self) -> Any:
        node = self.tree
        for index in self.path:
            if not isinstance(node, tuple):
                break  # below a cut-off leaf: the game goes on beyond the tree
            node = node[index]
        return node

    @property
    def to_move(self) -> int:
        return len(self.path) % 2

    @property
    def key(self) -> tuple[int, ...]:
        return self.path

    def legal_moves(self) -> list[int]:
        node = self.node
        if isinstance(node, tuple):
            return list(range(len(node)))
        return [] if self.finished else [0]

    def play(self, move: int) -> ToyState:
        return ToyState(self.tree, (*self.path, move), self.finished)

    def is_terminal(self) -> bool:
        return not self.legal_moves()

    def winner(self) -> int | None:
        value = self.node
        if not self.is_terminal() or value == 0:
            return None
        return 0 if value > 0 else 1

    def score(self, player: int) -> float:
        value = float(self.node) if self.is_terminal() else 0.0
        return value if player == 0 else -value


def leaf_heuristic(state: ToyState, player: int) -> float:
    """The leaf number for player 0 (negated for player 1); 0 for inner nodes."""
    node = state.node
    value = 0.0 if isinstance(node, tuple) else float(node)
    return value if player == 0 else -value
