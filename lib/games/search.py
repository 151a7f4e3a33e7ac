"""Adversarial search, generic over the game interface of :mod:`lib.games.core`.

One entry point, :func:`choose_move`, runs one of

* ``"minimax"``: the textbook depth-limited minimax (no pruning);
* ``"alphabeta"``: minimax with alpha-beta pruning, **fail-soft** (a value
  ``v <= alpha`` is an upper bound of the true value, ``v >= beta`` a lower
  bound, anything in between exact), optional move ordering, an optional
  transposition table, an optional beam and an exact endgame mode;
* ``"expectimax"``: the side to move maximises, the opponent is modelled as
  moving uniformly at random (its nodes average their children);
* ``"greedy"``: the best move by a one-ply evaluation;
* ``"random"``: a uniformly random legal move,

and returns a :class:`SearchResult` with the move, its value and a
:class:`SearchStats` record (nodes, leaf evaluations, cut-offs, depth reached,
seconds, effective branching factor, per-root-move scores, principal variation
and, for small searches, the explored tree).

Values are always from the point of view of the player to move at the root
(who maximises). A finished game scores ``±(WIN_VALUE + margin - ply)``: far
beyond any heuristic value, bigger wins first, and among equal margins a faster
win (or a slower loss: "lose as late as possible") is preferred. A draw scores 0.

Alpha-beta returns exactly the minimax value at the same depth, with or
without ordering and transposition table (the tests check this on hundreds of
random positions): the table only reuses a value searched to the same depth,
and stores win/loss values relative to the node so that their ply adjustment
stays right wherever the position recurs. A beam, by design, is not exact.

Optional game hooks, used when a state provides them:

* ``state.plies_left_hint() -> int``: an estimate of the plies left (Othello:
  the empty squares). With ``endgame_exact=k`` the search goes to the end of
  the game when the hint is at most ``k``, and the beam is switched off there.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from lib.errors import InputError
from lib.games.core import WIN_VALUE, Heuristic

Move = Hashable
EvaluateFunction = Callable[[Any, int], float]

ALGORITHMS: dict[str, str] = {
    "alphabeta": "Alpha-beta",
    "minimax": "Minimax",
    "expectimax": "Expectimax (random opponent)",
    "greedy": "Greedy (one ply)",
    "random": "Random",
}
"""Algorithm name -> label shown to users."""

MAX_DEPTH = 64
"""Hard cap on the nominal depth (the UI caps much lower)."""

UNLIMITED = 10_000
"""Depth used for a search to the end of the game (exact endgame)."""

_INF = math.inf
_WIN_THRESHOLD = WIN_VALUE / 2
_CHECK_EVERY = 255  # check the clock every 256 nodes


class _Timeout(Exception):
    """Raised inside a search iteration when the time budget is spent."""


@dataclass
class TreeNode:
    """One node of a recorded search tree (for drawing small searches).

    ``status`` is ``"inner"`` (expanded), ``"leaf"`` (evaluated at the depth
    limit), ``"terminal"`` (finished game), ``"table"`` (value taken from the
    transposition table) or ``"pruned"`` (never searched: cut off by
    alpha-beta or dropped by the beam). ``bound`` says whether ``value`` is
    ``"exact"``, a ``"lower"`` or an ``"upper"`` bound (alpha-beta).
    """

    id: int
    parent: int | None
    move: Move | None
    ply: int
    maximizing: bool
    status: str = "inner"
    value: float | None = None
    bound: str = "exact"
    alpha: float = -_INF
    beta: float = _INF


@dataclass
class SearchStats:
    """What a search did. ``ebf`` is the effective branching factor ``nodes ** (1/depth)``."""

    algorithm: str = "alphabeta"
    nodes: int = 0
    leaf_evaluations: int = 0
    ordering_evaluations: int = 0
    terminal_nodes: int = 0
    cutoffs: int = 0
    table_hits: int = 0
    depth_reached: int = 0
    seconds: float = 0.0
    ebf: float = 0.0
    root_scores: dict[Move, float] = field(default_factory=dict)
    root_bounds: dict[Move, str] = field(default_factory=dict)
    principal_variation: list[Move] = field(default_factory=list)
    tree: list[TreeNode] | None = None
    tree_truncated: bool = False
    exact_endgame: bool = False
    solved: bool = False  # every leaf of the last iteration was a finished game
    timed_out: bool = False
    iterations: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class SearchResult:
    """The chosen move, its value (root player's view) and the search statistics."""

    move: Move
    value: float
    stats: SearchStats


def effective_branching_factor(nodes: int, depth: int) -> float:
    """``nodes ** (1 / depth)``: the branching factor of a uniform tree of that size."""
    if depth <= 0 or nodes <= 0:
        return 0.0
    return float(nodes) ** (1.0 / depth)


def terminal_value(state: Any, player: int, ply: int) -> float:
    """Value of a finished game for ``player``, found ``ply`` plies below the root.

    ``WIN_VALUE + margin - ply`` for a win (margin = the game's ``score``),
    its negative for a loss, 0 for a draw.
    """
    winner = state.winner()
    if winner is None:
        return 0.0
    value = WIN_VALUE + abs(float(state.score(player))) - ply
    return value if winner == player else -value


def is_win_value(value: float) -> bool:
    """True for a value that means a forced win or loss (beyond every heuristic)."""
    return abs(value) > _WIN_THRESHOLD


def default_heuristic(state: Any) -> Heuristic:
    """The default heuristic of the game ``state`` belongs to (its module's ``GAME``)."""
    module = sys.modules.get(type(state).__module__)
    game = getattr(module, "GAME", None)
    if game is None:
        raise InputError(f"No game found for a state of type {type(state).__name__}.")
    return game.heuristics[game.default_heuristic]


def resolve_evaluator(state: Any, heuristic: Any) -> EvaluateFunction:
    """Turn ``heuristic`` (None, a name, a Heuristic or a callable) into ``evaluate(state, p)``."""
    if heuristic is None:
        return default_heuristic(state).bind()
    if isinstance(heuristic, str):
        module = sys.modules.get(type(state).__module__)
        game = getattr(module, "GAME", None)
        if game is None or heuristic not in game.heuristics:
            known = ", ".join(game.heuristics) if game is not None else "none"
            raise InputError(f"Unknown heuristic {heuristic!r}; choose one of {known}.")
        return game.heuristics[heuristic].bind()
    if isinstance(heuristic, Heuristic):
        return heuristic.bind()
    if callable(heuristic):
        return heuristic
    raise InputError(f"A heuristic must be a name or a function, not {heuristic!r}.")


def _to_table(value: float, ply: int) -> float:
    """Make a win/loss value relative to the node before storing it."""
    if value > _WIN_THRESHOLD:
        return value + ply
    if value < -_WIN_THRESHOLD:
        return value - ply
    return value


def _from_table(value: float, ply: int) -> float:
    """Inverse of :func:`_to_table` at the node's ply."""
    if value > _WIN_THRESHOLD:
        return value - ply
    if value < -_WIN_THRESHOLD:
        return value + ply
    return value


_EXACT, _LOWER, _UPPER = 0, 1, 2


class _Searcher:
    """The state of one search call (counters, table, tree); not shared, not reused."""

    def __init__(
        self,
        root_player: int,
        evaluate: EvaluateFunction,
        *,
        ordering: bool,
        transposition: bool,
        beam: int | None,
        endgame_exact: int | None,
        record_tree: bool,
        max_tree_nodes: int,
    ) -> None:
        self.root_player = root_player
        self.evaluate = evaluate
        self.ordering = ordering
        self.table: dict[Hashable, tuple[int, int, float, Move]] | None = (
            {} if transposition else None
        )
        self.beam = beam
        self.endgame_exact = endgame_exact
        self.stats = SearchStats()
        self.deadline: float | None = None
        self.depth_cut = 0  # leaves cut by the depth limit in the current iteration
        self.pv: list[list[Move]] = [[] for _ in range(8)]
        self.record = record_tree
        self.max_tree_nodes = max_tree_nodes
        self.tree: list[TreeNode] = []

    # -- helpers -----------------------------------------------------------------
    def _tick(self) -> None:
        stats = self.stats
        stats.nodes += 1
        if (
            self.deadline is not None
            and not stats.nodes & _CHECK_EVERY
            and time.perf_counter() > self.deadline
        ):
            raise _Timeout

    def _pv_slot(self, ply: int) -> None:
        while len(self.pv) <= ply + 1:
            self.pv.append([])
        self.pv[ply] = []

    def _near_end(self, state: Any) -> bool:
        if self.endgame_exact is None:
            return False
        hint = getattr(state, "plies_left_hint", None)
        return hint is not None and hint() <= self.endgame_exact

    def _node(self, parent: int | None, move: Move, ply: int, maximizing: bool) -> int | None:
        if not self.record:
            return None
        if len(self.tree) >= self.max_tree_nodes:
            self.stats.tree_truncated = True
            self.record = False
            return None
        node_id = len(self.tree)
        self.tree.append(TreeNode(node_id, parent, move, ply, maximizing))
        return node_id

    def _set(self, node: int | None, status: str, value: float, bound: str = "exact") -> None:
        if node is not None:
            record = self.tree[node]
            record.status, record.value, record.bound = status, value, bound

    def _leaf(
        self, state: Any, moves: list, depth: int, ply: int, node: int | None
    ) -> float | None:
        """The value of a terminal or depth-limited node, or None to search on."""
        if not moves:
            self.stats.terminal_nodes += 1
            value = terminal_value(state, self.root_player, ply)
            self._set(node, "terminal", value)
            return value
        if depth <= 0:
            self.stats.leaf_evaluations += 1
            self.depth_cut += 1
            value = float(self.evaluate(state, self.root_player))
            self._set(node, "leaf", value)
            return value
        return None

    def _children(
        self, state: Any, moves: list, depth: int, maximizing: bool, first: Move | None = None
    ) -> list[tuple[Move, Any]]:
        """(move, child) pairs, best-looking first when ordering (or a beam) asks for it.

        Without ordering the children are not built here (``None``): the caller
        plays each move only when it gets to it, so a cut-off saves the rest.
        """
        beam = self.beam
        use_beam = beam is not None and len(moves) > beam and not self._near_end(state)
        if not ((self.ordering and depth >= 2) or use_beam):
            children: list[tuple[Move, Any]] = [(move, None) for move in moves]
        else:
            children = [(move, state.play(move)) for move in moves]
            evaluate, me = self.evaluate, self.root_player
            self.stats.ordering_evaluations += len(children)
            scored = [(evaluate(child, me), i) for i, (_, child) in enumerate(children)]
            scored.sort(key=lambda pair: pair[0], reverse=maximizing)
            children = [children[i] for _, i in scored]
            if use_beam:
                children = children[:beam]
        if first is not None:
            for i, (move, _) in enumerate(children):
                if move == first:
                    if i:
                        children.insert(0, children.pop(i))
                    break
        return children

    def _prune_rest(
        self, node: int | None, state: Any, rest: Sequence[tuple[Move, Any]], ply: int
    ) -> None:
        if node is None:
            return
        for move, child in rest:
            if child is None:
                child = state.play(move)
            child_id = self._node(node, move, ply + 1, child.to_move == self.root_player)
            if child_id is None:
                return
            self.tree[child_id].status = "pruned"
            self.tree[child_id].value = None

    # -- minimax -----------------------------------------------------------------
    def minimax(self, state: Any, depth: int, ply: int, node: int | None = None) -> float:
        """Plain depth-limited minimax (the textbook version)."""
        self._tick()
        self._pv_slot(ply)
        moves = state.legal_moves()
        value = self._leaf(state, moves, depth, ply, node)
        if value is not None:
            return value
        maximizing = state.to_move == self.root_player
        best = -_INF if maximizing else _INF
        for move in moves:
            child = state.play(move)
            child_id = self._node(node, move, ply + 1, child.to_move == self.root_player)
            value = self.minimax(child, depth - 1, ply + 1, child_id)
            if ply == 0:
                self.stats.root_scores[move] = value
                self.stats.root_bounds[move] = "exact"
            if (value > best) if maximizing else (value < best):
                best = value
                self.pv[ply] = [move, *self.pv[ply + 1]]
        self._set(node, "inner", best)
        return best

    # -- expectimax --------------------------------------------------------------
    def expectimax(self, state: Any, depth: int, ply: int, node: int | None = None) -> float:
        """The root player maximises; the opponent's value is the mean over its moves."""
        self._tick()
        self._pv_slot(ply)
        moves = state.legal_moves()
        value = self._leaf(state, moves, depth, ply, node)
        if value is not None:
            return value
        maximizing = state.to_move == self.root_player
        best = -_INF
        total = 0.0
        for move in moves:
            child = state.play(move)
            child_id = self._node(node, move, ply + 1, child.to_move == self.root_player)
            value = self.expectimax(child, depth - 1, ply + 1, child_id)
            if ply == 0:
                self.stats.root_scores[move] = value
                self.stats.root_bounds[move] = "exact"
            if maximizing:
                if value > best:
                    best = value
                    self.pv[ply] = [move, *self.pv[ply + 1]]
            else:
                total += value
        result = best if maximizing else total / len(moves)
        self._set(node, "inner", result)
        return result

    # -- alpha-beta --------------------------------------------------------------
    def alphabeta(
        self,
        state: Any,
        depth: int,
        ply: int,
        alpha: float,
        beta: float,
        node: int | None = None,
        presorted: bool = False,
        exact_root: bool = False,
    ) -> float:
        """Fail-soft alpha-beta from the root player's view (max and min nodes)."""
        self._tick()
        self._pv_slot(ply)
        if node is not None:
            self.tree[node].alpha, self.tree[node].beta = alpha, beta
        moves = state.legal_moves()
        value = self._leaf(state, moves, depth, ply, node)
        if value is not None:
            return value
        table = self.table
        table_move = None
        key = None
        if table is not None:
            key = state.key
            entry = table.get(key)
            if entry is not None:
                entry_depth, flag, stored, table_move = entry
                if entry_depth == depth and ply > 0:
                    value = _from_table(stored, ply)
                    if (
                        flag == _EXACT
                        or (flag == _LOWER and value >= beta)
                        or (flag == _UPPER and value <= alpha)
                    ):
                        self.stats.table_hits += 1
                        bound = ("exact", "lower", "upper")[flag]
                        self._set(node, "table", value, bound)
                        return value
        maximizing = state.to_move == self.root_player
        if presorted:
            # the root, in the order of the previous iteration's scores
            children = [(move, None) for move in moves]
            if self.beam is not None and len(children) > self.beam and not self._near_end(state):
                children = children[: self.beam]
        else:
            children = self._children(state, moves, depth, maximizing, table_move)
        alpha0, beta0 = alpha, beta
        best = -_INF if maximizing else _INF
        best_move = children[0][0]
        for index, (move, child) in enumerate(children):
            if child is None:
                child = state.play(move)
            child_id = self._node(node, move, ply + 1, child.to_move == self.root_player)
            if exact_root:
                value = self.alphabeta(child, depth - 1, ply + 1, -_INF, _INF, child_id)
            else:
                value = self.alphabeta(child, depth - 1, ply + 1, alpha, beta, child_id)
            if ply == 0:
                self.stats.root_scores[move] = value
                if exact_root:
                    self.stats.root_bounds[move] = "exact"
                elif maximizing:
                    self.stats.root_bounds[move] = "upper" if value <= alpha else "exact"
                else:
                    self.stats.root_bounds[move] = "lower" if value >= beta else "exact"
            if maximizing:
                if value > best:
                    best, best_move = value, move
                    self.pv[ply] = [move, *self.pv[ply + 1]]
                    if best > alpha:
                        alpha = best
            else:
                if value < best:
                    best, best_move = value, move
                    self.pv[ply] = [move, *self.pv[ply + 1]]
                    if best < beta:
                        beta = best
            if alpha >= beta:
                if index + 1 < len(children):  # count cut-offs that prune something
                    self.stats.cutoffs += 1
                    self._prune_rest(node, state, children[index + 1 :], ply)
                break
        if best <= alpha0:
            flag, bound = _UPPER, "upper"
        elif best >= beta0:
            flag, bound = _LOWER, "lower"
        else:
            flag, bound = _EXACT, "exact"
        if table is not None:
            table[key] = (depth, flag, _to_table(best, ply), best_move)
        self._set(node, "inner", best, bound)
        return best


def choose_move(
    state: Any,
    *,
    algorithm: str = "alphabeta",
    depth: int = 4,
    heuristic: Any = None,
    ordering: bool = True,
    time_limit: float | None = None,
    beam: int | None = None,
    endgame_exact: int | None = None,
    transposition: bool = True,
    record_tree: bool = False,
    rng: np.random.Generator | None = None,
    exact_root_scores: bool = False,
    iterative: bool | None = None,
    max_tree_nodes: int = 4000,
) -> SearchResult:
    """Choose a move for the player to move in ``state``.

    Parameters
    ----------
    algorithm:
        One of :data:`ALGORITHMS`.
    depth:
        Plies to search (1 to :data:`MAX_DEPTH`); a forced pass is a ply.
    heuristic:
        ``evaluate(state, player) -> float`` (e.g. ``Heuristic.bind(weights)``),
        a heuristic name of the game, a :class:`Heuristic`, or None for the
        game's default heuristic.
    ordering:
        Alpha-beta: search the best-looking moves first (one-ply evaluation,
        the transposition table's best move, and at the root the previous
        iteration's scores).
    time_limit:
        Seconds. Enables iterative deepening (depth 1, 2, ... up to ``depth``);
        the deepest completed iteration is used. Depth 1 always completes.
    beam:
        Alpha-beta / minimax-style pruning of all but the ``beam`` best-looking
        moves at every node (not exact), except near the end of the game.
    endgame_exact:
        Search to the end of the game when ``state.plies_left_hint()`` is at
        most this (Othello: empty squares); also where the beam switches off.
    transposition:
        Alpha-beta: reuse values of positions reached by another move order.
    record_tree:
        Record the explored tree (capped at ``max_tree_nodes`` nodes) in ``stats.tree``.
    rng:
        Used by ``"random"``, and to break ties between equally good moves
        (root moves are shuffled before the search). None: no shuffling.
    exact_root_scores:
        Alpha-beta: search every root move with a full window so each root
        score is exact (costs nodes); otherwise non-best root scores may be
        bounds (``stats.root_bounds``).
    iterative:
        Force iterative deepening on or off (default: on iff ``time_limit``).

    Raises
    ------
    InputError
        For a finished game, an unknown algorithm or out-of-range settings.

    Examples
    --------
    >>> from lib.games import othello
    >>> result = choose_move(othello.initial_state(6), depth=2)
    >>> othello.format_move(result.move) in {"c2", "b3", "e4", "d5"}
    True
    """
    if algorithm not in ALGORITHMS:
        raise InputError(f"Unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}.")
    if not isinstance(depth, int | np.integer) or not 1 <= depth <= MAX_DEPTH:
        raise InputError(f"Search depth must be a whole number from 1 to {MAX_DEPTH}, not {depth}.")
    if time_limit is not None and not time_limit > 0:
        raise InputError(f"The time budget must be positive seconds, not {time_limit}.")
    if beam is not None and beam < 1:
        raise InputError(f"The beam width must be at least 1, not {beam}.")
    moves = list(state.legal_moves())
    if not moves:
        raise InputError("The game is over: there is no move to choose.")
    started = time.perf_counter()
    stats_algorithm = algorithm
    if rng is not None and len(moves) > 1:
        moves = [moves[i] for i in rng.permutation(len(moves))]

    if algorithm == "random":
        generator = rng if rng is not None else np.random.default_rng()
        move = moves[int(generator.integers(len(moves)))]
        stats = SearchStats(algorithm="random", nodes=1, depth_reached=0)
        stats.principal_variation = [move]
        stats.seconds = time.perf_counter() - started
        return SearchResult(move, 0.0, stats)

    evaluate = resolve_evaluator(state, heuristic)
    player = state.to_move
    if algorithm == "greedy":
        stats = SearchStats(algorithm="greedy", nodes=1, depth_reached=1)
        best_move, best = moves[0], -_INF
        for move in moves:
            child = state.play(move)
            stats.nodes += 1
            if child.is_terminal():
                stats.terminal_nodes += 1
                value = terminal_value(child, player, 1)
            else:
                stats.leaf_evaluations += 1
                value = float(evaluate(child, player))
            stats.root_scores[move] = value
            stats.root_bounds[move] = "exact"
            if value > best:
                best_move, best = move, value
        stats.principal_variation = [best_move]
        stats.ebf = effective_branching_factor(stats.nodes, 1)
        stats.seconds = time.perf_counter() - started
        return SearchResult(best_move, best, stats)

    searcher = _Searcher(
        player,
        evaluate,
        ordering=ordering and algorithm == "alphabeta",
        transposition=transposition and algorithm == "alphabeta",
        beam=beam,
        endgame_exact=endgame_exact,
        record_tree=record_tree,
        max_tree_nodes=max_tree_nodes,
    )
    stats = searcher.stats
    stats.algorithm = stats_algorithm
    target = depth
    if searcher._near_end(state):
        target = UNLIMITED
        stats.exact_endgame = True
    if iterative is None:
        iterative = time_limit is not None
    depths = range(1, target + 1) if iterative else [target]
    best_move, best_value = moves[0], 0.0
    root_order: list[Move] = list(moves)
    presorted = False
    completed = False
    for current in depths:
        searcher.depth_cut = 0
        searcher.tree = []
        searcher.record = record_tree
        stats.tree_truncated = False
        searcher.deadline = started + time_limit if time_limit is not None and completed else None
        scores_before = dict(stats.root_scores)
        bounds_before = dict(stats.root_bounds)
        stats.root_scores, stats.root_bounds = {}, {}
        nodes_before = stats.nodes
        root_id = searcher._node(None, None, 0, True)
        try:
            if algorithm == "minimax":
                value = searcher.minimax(_Root(state, root_order), current, 0, root_id)
            elif algorithm == "expectimax":
                value = searcher.expectimax(_Root(state, root_order), current, 0, root_id)
            else:
                value = searcher.alphabeta(
                    _Root(state, root_order),
                    current,
                    0,
                    -_INF,
                    _INF,
                    root_id,
                    presorted=presorted,
                    exact_root=exact_root_scores,
                )
        except _Timeout:
            stats.timed_out = True
            stats.root_scores, stats.root_bounds = scores_before, bounds_before
            break
        completed = True
        best_value = value
        pv = list(searcher.pv[0])
        best_move = pv[0] if pv else best_move
        stats.principal_variation = pv
        stats.depth_reached = current
        stats.solved = searcher.depth_cut == 0
        stats.iterations.append(
            {
                "depth": current,
                "nodes": stats.nodes - nodes_before,
                "seconds": time.perf_counter() - started,
                "move": best_move,
                "value": value,
            }
        )
        if record_tree:
            stats.tree = searcher.tree
        if ordering:
            scores = stats.root_scores
            root_order = sorted(root_order, key=lambda m: -scores.get(m, -_INF))
            root_order.remove(best_move)
            root_order.insert(0, best_move)
            presorted = True
        if stats.solved:
            break
        if time_limit is not None and time.perf_counter() - started > time_limit:
            break
    stats.seconds = time.perf_counter() - started
    stats.ebf = effective_branching_factor(stats.nodes, max(stats.depth_reached, 1))
    return SearchResult(best_move, best_value, stats)


class _Root:
    """A root state whose moves come in a given order (minimax/expectimax root ordering)."""

    __slots__ = ("_order", "_state")

    def __init__(self, state: Any, order: Sequence[Move]) -> None:
        self._state = state
        self._order = list(order)

    def legal_moves(self) -> list[Move]:
        return list(self._order)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


def minimax(state: Any, depth: int, heuristic: Any = None, **options: Any) -> SearchResult:
    """Depth-limited minimax: ``choose_move(state, algorithm="minimax", ...)``."""
    return choose_move(state, algorithm="minimax", depth=depth, heuristic=heuristic, **options)


def alphabeta(state: Any, depth: int, heuristic: Any = None, **options: Any) -> SearchResult:
    """Alpha-beta (fail-soft): ``choose_move(state, algorithm="alphabeta", ...)``."""
    return choose_move(state, algorithm="alphabeta", depth=depth, heuristic=heuristic, **options)


def expectimax(state: Any, depth: int, heuristic: Any = None, **options: Any) -> SearchResult:
    """Expectimax against a uniformly random opponent: ``choose_move(..., "expectimax")``."""
    return choose_move(state, algorithm="expectimax", depth=depth, heuristic=heuristic, **options)


VARIANTS: dict[str, dict[str, Any]] = {
    "minimax": {"algorithm": "minimax"},
    "alpha-beta": {"algorithm": "alphabeta", "ordering": False, "transposition": False},
    "alpha-beta + ordering": {"algorithm": "alphabeta", "ordering": True, "transposition": False},
    "alpha-beta + ordering + table": {
        "algorithm": "alphabeta",
        "ordering": True,
        "transposition": True,
    },
}
"""The search variants :func:`compare_variants` runs, from plain minimax to the full engine."""


def compare_variants(
    state: Any,
    depth: int,
    heuristic: Any = None,
    variants: Sequence[str] = tuple(VARIANTS),
    on_progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Search ``state`` to ``depth`` with each variant (no time budget) and report the cost.

    Every variant returns the same value (the minimax value); what changes is
    the work: one row per variant with ``nodes``, ``leaf_evaluations``,
    ``cutoffs``, ``ebf``, ``seconds``, ``value`` and the chosen ``move``.
    """
    unknown = [name for name in variants if name not in VARIANTS]
    if unknown:
        raise InputError(
            f"Unknown search variant {unknown[0]!r}; choose from {', '.join(VARIANTS)}."
        )
    evaluate = resolve_evaluator(state, heuristic)
    rows = []
    for index, name in enumerate(variants):
        result = choose_move(state, depth=depth, heuristic=evaluate, **VARIANTS[name])
        stats = result.stats
        rows.append(
            {
                "variant": name,
                "move": result.move,
                "value": result.value,
                "nodes": stats.nodes,
                "leaf_evaluations": stats.leaf_evaluations,
                "cutoffs": stats.cutoffs,
                "ebf": stats.ebf,
                "seconds": stats.seconds,
            }
        )
        if on_progress is not None:
            on_progress(index + 1, len(variants))
    return rows
