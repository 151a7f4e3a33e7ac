"""Minimax, alpha-beta and expectimax as the textbook writes them, one short function each.

This is the code a student reads. Each search is an outer function holding two
or three nested functions, in the style of aima-python's ``alphabeta_search``:

* ``value(state, ply, ...)`` enters a node, scores it if the game is over or
  the depth limit is reached, and otherwise hands it to ``max_value`` (the
  root player to move) or to ``min_value`` / ``chance_value`` (the opponent);
* ``max_value`` / ``min_value`` loop over the moves and back up the best value.

``ply`` counts the plies from the root: the search stops at ``ply == depth``,
and a win found at a smaller ply scores higher. ``move`` (the move that led to
the node) is passed only for the tracer, to say where the search is.

The search reports what it does to a *tracer* (see :class:`Tracer`) instead of
counting anything itself: :mod:`lib.games.search.tracers` has one that counts nodes
(as :class:`lib.games.search.fast.SearchStats` does), one that records the steps
for a step-through page and one that records the tree. The ``# step:``
comments mark the line each tracer call belongs to; a page highlights that
line while it replays the steps (:func:`lib.games.search.tracers.source_listing`).

Values follow the same conventions as the fast engine in :mod:`lib.games.search.fast`
(tests prove both return the same values): scores are from the point of view of
the player to move at the root, a finished game scores
:func:`~lib.games.search.values.terminal_value` (beyond every heuristic, faster wins
first), and a forced pass is a move like any other. Which side maximises is
read from ``state.to_move``, so a game where one side moves twice in a row is
searched correctly.

Example: AIMA's figure 5.2 (a MAX root over three MIN nodes)

>>> from lib.games import textbook_tree
>>> root = textbook_tree.initial_state(textbook_tree.AIMA_FIGURE_5_2)
>>> alphabeta_search(root, 2, textbook_tree.leaf_value)
(3.0, 0)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol

from lib.games.search.values import terminal_value

Move = Hashable
EvaluateFunction = Callable[[Any, int], float]


class Tracer(Protocol):
    """What a search tells its observer, in the order it happens.

    ``enter`` and ``exit`` bracket every node (depth-first), so a tracer can
    keep the path from the root on a stack; the other calls describe the node
    entered last and not yet exited. Values are from the root player's view.
    """

    def enter(self, state: Any, ply: int, alpha: float, beta: float, move: Move | None) -> None:
        """A node is visited: ``move`` led to it (None at the root), ``ply`` plies deep.

        ``alpha``/``beta`` is the alpha-beta window it was searched with
        (``-inf``/``inf`` for minimax and expectimax).
        """

    def leaf(self, value: float, terminal: bool) -> None:
        """The node is scored: a finished game (``terminal``) or the heuristic at the limit."""

    def backup(self, value: float) -> None:
        """The node's value so far changed after a child returned (max, min or running mean)."""

    def alpha_raised(self, alpha: float) -> None:
        """A max node raised alpha: the root player is sure of at least ``alpha``."""

    def beta_lowered(self, beta: float) -> None:
        """A min node lowered beta: the opponent can hold the root player to ``beta``."""

    def cutoff(self, pruned_moves: Sequence[Move]) -> None:
        """The window closed: the node returns early and ``pruned_moves`` are never searched."""

    def exit(self, value: float) -> None:
        """The node returns ``value`` to its parent."""


class NullTracer:
    """A tracer that ignores everything (the default: the search costs no bookkeeping)."""

    def enter(self, state: Any, ply: int, alpha: float, beta: float, move: Move | None) -> None:
        """Ignored."""

    def leaf(self, value: float, terminal: bool) -> None:
        """Ignored."""

    def backup(self, value: float) -> None:
        """Ignored."""

    def alpha_raised(self, alpha: float) -> None:
        """Ignored."""

    def beta_lowered(self, beta: float) -> None:
        """Ignored."""

    def cutoff(self, pruned_moves: Sequence[Move]) -> None:
        """Ignored."""

    def exit(self, value: float) -> None:
        """Ignored."""


INF = math.inf


def minimax_search(
    state: Any, depth: int, evaluate: EvaluateFunction, tracer: Tracer | None = None
) -> tuple[float, Move | None]:
    """The minimax value of ``state`` searched ``depth`` plies deep, and the best move.

    ``evaluate(state, player)`` scores positions at the depth limit.
    """
    tracer = NullTracer() if tracer is None else tracer
    player = state.to_move  # the root player: MAX

    def value(state, ply, move):
        tracer.enter(state, ply, -INF, INF, move)  # step: enter
        if state.is_terminal():
            v, best = terminal_value(state, player, ply), None  # step: terminal
            tracer.leaf(v, terminal=True)
        elif ply == depth:
            v, best = float(evaluate(state, player)), None  # step: leaf
            tracer.leaf(v, terminal=False)
        elif state.to_move == player:
            v, best = max_value(state, ply)
        else:
            v, best = min_value(state, ply)
        tracer.exit(v)
        return v, best  # step: exit

    def max_value(state, ply):
        v, best = -INF, None
        for move in state.legal_moves():
            child_value, _ = value(state.play(move), ply + 1, move)
            if child_value > v:
                v, best = child_value, move  # step: max backup
                tracer.backup(v)
        return v, best

    def min_value(state, ply):
        v, best = INF, None
        for move in state.legal_moves():
            child_value, _ = value(state.play(move), ply + 1, move)
            if child_value < v:
                v, best = child_value, move  # step: min backup
                tracer.backup(v)
        return v, best

    return value(state, 0, None)


def alphabeta_search(
    state: Any, depth: int, evaluate: EvaluateFunction, tracer: Tracer | None = None
) -> tuple[float, Move | None]:
    """Minimax with alpha-beta pruning: the same value, fewer nodes.

    ``alpha`` is the best value MAX is already sure of on the path to the
    root, ``beta`` the best for MIN; a node whose value falls outside the
    window cannot change the root's choice, so its remaining moves are
    skipped (fail-soft: the value returned is then a bound).
    """
    tracer = NullTracer() if tracer is None else tracer
    player = state.to_move  # the root player: MAX

    def value(state, ply, alpha, beta, move):
        tracer.enter(state, ply, alpha, beta, move)  # step: enter
        if state.is_terminal():
            v, best = terminal_value(state, player, ply), None  # step: terminal
            tracer.leaf(v, terminal=True)
        elif ply == depth:
            v, best = float(evaluate(state, player)), None  # step: leaf
            tracer.leaf(v, terminal=False)
        elif state.to_move == player:
            v, best = max_value(state, ply, alpha, beta)
        else:
            v, best = min_value(state, ply, alpha, beta)
        tracer.exit(v)
        return v, best  # step: exit

    def max_value(state, ply, alpha, beta):
        v, best = -INF, None
        moves = state.legal_moves()
        for i, move in enumerate(moves):
            child_value, _ = value(state.play(move), ply + 1, alpha, beta, move)
            if child_value > v:
                v, best = child_value, move  # step: max backup
                tracer.backup(v)
                if v > alpha:
                    alpha = v  # step: alpha
                    tracer.alpha_raised(alpha)
            if v >= beta:
                tracer.cutoff(moves[i + 1 :])
                return v, best  # step: max cutoff
        return v, best

    def min_value(state, ply, alpha, beta):
        v, best = INF, None
        moves = state.legal_moves()
        for i, move in enumerate(moves):
            child_value, _ = value(state.play(move), ply + 1, alpha, beta, move)
            if child_value < v:
                v, best = child_value, move  # step: min backup
                tracer.backup(v)
                if v < beta:
                    beta = v  # step: beta
                    tracer.beta_lowered(beta)
            if v <= alpha:
                tracer.cutoff(moves[i + 1 :])
                return v, best  # step: min cutoff
        return v, best

    return value(state, 0, -INF, INF, None)


def expectimax_search(
    state: Any, depth: int, evaluate: EvaluateFunction, tracer: Tracer | None = None
) -> tuple[float, Move | None]:
    """Expectimax against an opponent who picks one of its moves uniformly at random.

    The root player maximises; at the opponent's nodes (chance nodes) the
    value is the mean of the children's values.
    """
    tracer = NullTracer() if tracer is None else tracer
    player = state.to_move  # the root player: MAX

    def value(state, ply, move):
        tracer.enter(state, ply, -INF, INF, move)  # step: enter
        if state.is_terminal():
            v, best = terminal_value(state, player, ply), None  # step: terminal
            tracer.leaf(v, terminal=True)
        elif ply == depth:
            v, best = float(evaluate(state, player)), None  # step: leaf
            tracer.leaf(v, terminal=False)
        elif state.to_move == player:
            v, best = max_value(state, ply)
        else:
            v, best = chance_value(state, ply), None
        tracer.exit(v)
        return v, best  # step: exit

    def max_value(state, ply):
        v, best = -INF, None
        for move in state.legal_moves():
            child_value, _ = value(state.play(move), ply + 1, move)
            if child_value > v:
                v, best = child_value, move  # step: max backup
                tracer.backup(v)
        return v, best

    def chance_value(state, ply):
        moves = state.legal_moves()
        total = 0.0
        for count, move in enumerate(moves, start=1):
            child_value, _ = value(state.play(move), ply + 1, move)
            total += child_value  # step: chance backup
            tracer.backup(total / count)
        return total / len(moves)

    return value(state, 0, None)


SEARCHES: dict[str, Callable[..., tuple[float, Move | None]]] = {
    "minimax": minimax_search,
    "alphabeta": alphabeta_search,
    "expectimax": expectimax_search,
}
"""Algorithm name (as in :data:`lib.games.search.fast.ALGORITHMS`) -> reference search."""
