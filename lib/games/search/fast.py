"""Adversarial search, generic over the game interface of :mod:`lib.games.core`: the fast path.

The same algorithms as the textbook writes them, one short function each, are in
:mod:`lib.games.search.reference`; tests prove this engine returns their values on every
game (and, without ordering and table, visits the same nodes). This one adds what
playing needs: move ordering, a transposition table, iterative deepening under a
time budget, a beam, an exact endgame mode, and statistics for the pages.

One entry point, :func:`choose_move`, runs one of

* ``"minimax"``: depth-limited minimax (no pruning);
* ``"alphabeta"``: minimax with alpha-beta pruning, **fail-soft** (a value
  ``v <= alpha`` is an upper bound of the true value, ``v >= beta`` a lower
  bound, anything in between exact), optional move ordering, an optional
  transposition table, an optional beam and an exact endgame mode;
* ``"expectimax"``: the side to move maximises, the opponent is modelled as
  moving uniformly at random (its nodes average their children);
* ``"greedy"``: the best move by a one-ply evaluation;
* ``"random"``: a uniformly random legal move,

and returns a :class:`SearchResult` with the move, its value and a
:class:`SearchStats` record (nodes, leaf evaluations, cut-offs, completed depth,
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

import importlib
import math
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from lib.durations import duration_text
from lib.errors import InputError
from lib.games.compiled_code import compiling_elsewhere
from lib.games.core import WIN_VALUE, Heuristic, game_of
from lib.games.search.values import WIN_THRESHOLD as _WIN_THRESHOLD
from lib.games.search.values import terminal_value

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
_CHECK_EVERY = 255  # check the clock every 256 nodes
#: Seconds between two calls of a search's ``on_progress`` callback.
PROGRESS_EVERY = 0.25


class _Timeout(Exception):
    """Raised inside a search iteration when the time budget is spent."""


@dataclass
class TreeNode:
    """One node of a recorded search tree (for drawing small searches).

    ``status`` is ``"inner"`` (expanded), ``"leaf"`` (evaluated at the depth
    limit), ``"terminal"`` (finished game), ``"table"`` (value taken from the
    transposition table) or ``"pruned"`` (a child an alpha-beta cut-off
    skipped: never visited, so not counted in ``SearchStats.nodes``; moves a
    beam drops are not recorded). ``bound`` says whether ``value`` is
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
    """What a search did.

    The counters (``nodes``, ``leaf_evaluations``, ``ordering_evaluations``,
    ``terminal_nodes``, ``cutoffs``, ``table_hits``) count the whole search:
    every iteration of iterative deepening, including one the time budget
    stopped. ``nodes`` counts each node visited once (the root included);
    ``cutoffs`` counts the cut-offs that skip at least one move.

    Everything else describes the **completed** iterations only: ``completed_depth``
    is the depth of the deepest one (the move comes from it), ``completed_nodes``
    their nodes, ``iterations`` one row each (``depth``, ``nodes``, ``seconds``,
    ``move``, ``value``), ``ebf`` = ``completed_nodes ** (1 / completed_depth)``,
    and ``root_scores``, ``principal_variation``, ``solved`` and ``tree`` come
    from the deepest one. ``unfinished_nodes`` are the nodes of an iteration the
    time budget stopped (``timed_out``).

    ``tree`` (when recorded) holds the visited nodes of the deepest completed
    iteration plus, with status ``"pruned"``, the children a cut-off skipped:
    those were never visited and are not counted anywhere (``tree_visited``
    counts the others).
    """

    algorithm: str = "alphabeta"
    nodes: int = 0
    leaf_evaluations: int = 0
    ordering_evaluations: int = 0
    terminal_nodes: int = 0
    cutoffs: int = 0
    table_hits: int = 0
    completed_depth: int = 0
    completed_nodes: int = 0
    seconds: float = 0.0
    ebf: float = 0.0
    root_scores: dict[Move, float] = field(default_factory=dict)
    root_bounds: dict[Move, str] = field(default_factory=dict)
    principal_variation: list[Move] = field(default_factory=list)
    tree: list[TreeNode] | None = None
    tree_truncated: bool = False
    exact_endgame: bool = False
    solved: bool = False  # every leaf of the deepest completed iteration was a finished game
    timed_out: bool = False
    iterations: list[dict[str, Any]] = field(default_factory=list)
    time_limit: float | None = None  # the budget the search was given (seconds), if any
    depth_cap: int | None = None  # the deepest iteration allowed (None: until the end or the clock)
    # seconds the game's exact endgame solver ran before it gave up (0: not tried or it solved)
    exact_attempt_seconds: float = 0.0
    # the game's exact solver chose the move: it counts positions only, so ``cutoffs`` and
    # ``leaf_evaluations`` were not counted (not zero)
    by_solver: bool = False
    # the game's exact solver was left out: the server was still compiling it
    solver_compiling: bool = False

    def budget_text(self) -> str:
        """Depth reached and time used against the budget, e.g. ``"depth 7, 812 ms of 1 s"``."""
        depth = "to the end" if self.exact_endgame and self.solved else str(self.completed_depth)
        used = duration_text(self.seconds) + (
            f" of {self.time_limit:g} s" if self.time_limit is not None else ""
        )
        return f"depth {depth}, {used}"

    def progress_text(self) -> str:
        """How far a running search has got, for a page's "is thinking" line."""
        depth = f", depth {self.completed_depth + 1}" if self.iterations else ""
        return f"{self.nodes:,} positions{depth}"

    @property
    def depth_reached(self) -> int:
        """The depth of the deepest completed iteration (the older name of ``completed_depth``)."""
        return self.completed_depth

    @property
    def unfinished_nodes(self) -> int:
        """Nodes of the iteration the time budget stopped (0 if none was stopped)."""
        return self.nodes - self.completed_nodes

    @property
    def tree_visited(self) -> int:
        """Nodes of the recorded tree that were visited (pruned children left out)."""
        return sum(node.status != "pruned" for node in self.tree or ())


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


def default_heuristic(state: Any) -> Heuristic:
    """The default heuristic of the game ``state`` belongs to (found by its spec's state type)."""
    game = game_of(state)
    if game is None:
        raise InputError(f"No game found for a state of type {type(state).__name__}.")
    return game.heuristics[game.default_heuristic]


def resolve_evaluator(state: Any, heuristic: Any) -> EvaluateFunction:
    """Turn ``heuristic`` (None, a name, a Heuristic or a callable) into ``evaluate(state, p)``."""
    if heuristic is None:
        return default_heuristic(state).bind()
    if isinstance(heuristic, str):
        game = game_of(state)
        if game is None or heuristic not in game.heuristics:
            known = ", ".join(game.heuristics) if game is not None else "none"
            raise InputError(f"Unknown heuristic {heuristic!r}; choose one of {known}.")
        return game.heuristics[heuristic].bind()
    if isinstance(heuristic, Heuristic):
        return heuristic.bind()
    if callable(heuristic):
        return heuristic
    raise InputError(f"A heuristic must be a name or a function, not {heuristic!r}.")


def _from_node(value: float, ply: int) -> float:
    """A value counted from a node ``ply`` plies deep instead of from the root.

    Win/loss values carry their distance (:func:`terminal_value`); the table stores
    them counted from the node, so they stay right wherever the position recurs, and
    ``_from_node(stored, -ply)`` counts them from the root again.
    """
    if value > _WIN_THRESHOLD:
        return value + ply
    if value < -_WIN_THRESHOLD:
        return value - ply
    return value


_EXACT, _LOWER, _UPPER = 0, 1, 2  # table flags: the stored value is exact or a bound
_BOUNDS = ("exact", "lower", "upper")


class _Searcher:
    """The state of one search call (counters, table, principal variation, tree).

    Not shared, not reused. Counters live in ``self.stats`` directly. The tree
    is recorded only when ``record_tree``: a node's id is then passed down the
    recursion (None when not recording, so the fast path skips all of it).
    """

    def __init__(
        self,
        state: Any,
        evaluate: EvaluateFunction,
        options: SearchOptions,
        on_progress: Callable[[SearchStats], None] | None = None,
    ) -> None:
        self.root_player = state.to_move
        self.evaluate = evaluate
        self.is_alphabeta = options.algorithm == "alphabeta"
        self.chance = options.algorithm == "expectimax"
        self.ordering = options.ordering and self.is_alphabeta
        # every algorithm: root moves in the last iteration's order
        self.root_ordering = options.ordering
        self.table: dict[Hashable, tuple[int, int, float, Move]] | None = (
            {} if options.transposition and self.is_alphabeta else None
        )
        self.beam = options.beam
        self.endgame_exact = options.endgame_exact
        self.stats = SearchStats(algorithm=options.algorithm)
        self.deadline: float | None = None
        self.on_progress = on_progress
        self.next_progress = 0.0  # the first report comes at the first check
        self.depth_cut = 0  # leaves cut by the depth limit in the current iteration
        self.pv: list[list[Move]] = []
        self.max_tree_nodes = options.max_tree_nodes
        self.tree: list[TreeNode] | None = None  # a list while recording
        self.tree_truncated = False

    # -- bookkeeping -------------------------------------------------------------
    def _enter(self, ply: int) -> None:
        """Count the node, watch the clock, clear the node's principal variation."""
        stats = self.stats
        stats.nodes += 1
        if not stats.nodes & _CHECK_EVERY:
            self._watch()
        self.pv[ply] = []

    def _watch(self) -> None:
        """Every few hundred nodes: stop at the deadline, report progress now and then.

        ``on_progress`` may raise to abandon the search (a page whose visitor left
        or asked for something else): nothing outside this searcher has changed.
        """
        if self.deadline is None and self.on_progress is None:
            return
        now = time.perf_counter()
        if self.deadline is not None and now > self.deadline:
            raise _Timeout
        if self.on_progress is not None and now >= self.next_progress:
            self.next_progress = now + PROGRESS_EVERY
            self.on_progress(self.stats)

    def near_end(self, state: Any) -> bool:
        """True when the exact endgame applies (``plies_left_hint() <= endgame_exact``)."""
        if self.endgame_exact is None:
            return False
        hint = getattr(state, "plies_left_hint", None)
        return hint is not None and hint() <= self.endgame_exact

    def _beam(self, state: Any, moves: list) -> int | None:
        """How many of ``moves`` the beam keeps; None when it keeps them all."""
        beam = self.beam
        if beam is None or len(moves) <= beam or self.near_end(state):
            return None
        return beam

    def _record(self, parent: int | None, move: Move, ply: int, child: Any) -> int | None:
        """Add a tree record below ``parent`` (None: not recording, or the tree is full)."""
        tree = self.tree
        if tree is None or (parent is None and ply > 0):
            return None
        if len(tree) >= self.max_tree_nodes:
            self.tree_truncated = True
            return None
        tree.append(TreeNode(len(tree), parent, move, ply, child.to_move == self.root_player))
        return len(tree) - 1

    def _set(self, node: int | None, status: str, value: float, bound: str = "exact") -> None:
        if node is not None:
            record = self.tree[node]
            record.status, record.value, record.bound = status, value, bound

    def _prune(self, node: int | None, state: Any, rest: Sequence[tuple[Move, Any]]) -> None:
        """Record the children a cut-off skips (never visited) as pruned."""
        if node is None:
            return
        for move, child in rest:
            if child is None:
                child = state.play(move)
            child_id = self._record(node, move, self.tree[node].ply + 1, child)
            if child_id is None:
                return
            self.tree[child_id].status = "pruned"

    def _leaf(self, state: Any, moves: list | None, ply: int, node: int | None) -> float:
        """The value of a finished game (no ``moves``) or of a node at the depth limit.

        At the depth limit ``moves`` is None and ``state.is_terminal()`` decides:
        most nodes are there, and the check is cheaper than listing the moves.
        """
        if moves is not None or state.is_terminal():
            self.stats.terminal_nodes += 1
            value = terminal_value(state, self.root_player, ply)
            self._set(node, "terminal", value)
            return value
        self.stats.leaf_evaluations += 1
        self.depth_cut += 1
        value = float(self.evaluate(state, self.root_player))
        self._set(node, "leaf", value)
        return value

    def _children(
        self, state: Any, moves: list, depth: int, maximizing: bool, first: Move | None = None
    ) -> list[tuple[Move, Any]]:
        """(move, child) pairs, best-looking first when ordering (or a beam) asks for it.

        Without ordering the children are not built here (``None``): the caller
        plays each move only when it gets to it, so a cut-off saves the rest.
        """
        beam = self._beam(state, moves)
        if not ((self.ordering and depth >= 2) or beam):
            children: list[tuple[Move, Any]] = [(move, None) for move in moves]
        else:
            children = [(move, state.play(move)) for move in moves]
            evaluate, me = self.evaluate, self.root_player
            self.stats.ordering_evaluations += len(children)
            scored = [(evaluate(child, me), i) for i, (_, child) in enumerate(children)]
            scored.sort(key=lambda pair: pair[0], reverse=maximizing)
            children = [children[i] for _, i in scored]
            if beam:
                children = children[:beam]
        if first is not None:  # the table's best move first
            index = next((i for i, (move, _) in enumerate(children) if move == first), 0)
            children.insert(0, children.pop(index))
        return children

    # -- the root ----------------------------------------------------------------
    def root(
        self, state: Any, order: list[Move], depth: int, presorted: bool, exact: bool
    ) -> float:
        """Search the root (the root player maximises) to ``depth``; return its value.

        Records each root move's score and whether it is exact or a bound. The
        root's moves come in ``order`` (the previous iteration's when
        ``presorted``); alpha-beta's ``exact`` searches each with a full window.
        """
        self.pv = [[] for _ in range(depth + 2)]
        self._enter(0)
        node = self._record(None, None, 0, state)
        stats = self.stats
        table, table_move = self.table, None
        if table is not None and state.key in table:
            table_move = table[state.key][3]
        if not self.is_alphabeta:
            children = [(move, None) for move in order]
        elif presorted:
            children = [(move, None) for move in order[: self._beam(state, order)]]
        else:
            children = self._children(state, order, depth, True, table_move)
        alpha = best = -_INF
        for move, child in children:
            if child is None:
                child = state.play(move)
            child_id = self._record(node, move, 1, child)
            if not self.is_alphabeta:
                value = self.full_width(child, depth - 1, 1, child_id)
            else:
                value = self.alphabeta(
                    child, depth - 1, 1, -_INF if exact else alpha, _INF, child_id
                )
            stats.root_scores[move] = value
            upper = self.is_alphabeta and not exact and value <= alpha
            stats.root_bounds[move] = "upper" if upper else "exact"
            if value > best:
                best = alpha = value
                self.pv[0] = [move, *self.pv[1]]
        if table is not None:
            table[state.key] = (depth, _EXACT, best, self.pv[0][0])
        self._set(node, "inner", best)
        return best

    # -- minimax and expectimax --------------------------------------------------
    def full_width(self, state: Any, depth: int, ply: int, node: int | None) -> float:
        """Minimax below the root, every move searched; expectimax averages the opponent's."""
        self._enter(ply)
        if depth <= 0:
            return self._leaf(state, None, ply, node)
        moves = state.legal_moves()
        if not moves:
            return self._leaf(state, moves, ply, node)
        maximizing = state.to_move == self.root_player
        chance = self.chance and not maximizing
        best = -_INF if maximizing else _INF
        total = 0.0
        for move in moves:
            child = state.play(move)
            child_id = None if node is None else self._record(node, move, ply + 1, child)
            value = self.full_width(child, depth - 1, ply + 1, child_id)
            if chance:
                total += value
            elif (value > best) if maximizing else (value < best):
                best = value
                self.pv[ply] = [move, *self.pv[ply + 1]]
        if chance:
            best = total / len(moves)
        self._set(node, "inner", best)
        return best

    # -- alpha-beta --------------------------------------------------------------
    def alphabeta(
        self, state: Any, depth: int, ply: int, alpha: float, beta: float, node: int | None
    ) -> float:
        """Fail-soft alpha-beta below the root, from the root player's view.

        Same value as ``full_width`` (minimax); children are ordered and the
        table consulted when asked. The table keeps ``(depth, flag, value,
        best move)``: a value searched to the same depth, exact or a bound.
        """
        self._enter(ply)
        if node is not None:
            self.tree[node].alpha, self.tree[node].beta = alpha, beta
        if depth <= 0:
            return self._leaf(state, None, ply, node)
        moves = state.legal_moves()
        if not moves:
            return self._leaf(state, moves, ply, node)
        table, key, table_move = self.table, None, None
        if table is not None:
            key = state.key
            entry = table.get(key)
            if entry is not None:
                entry_depth, flag, stored, table_move = entry
                if entry_depth == depth:
                    value = _from_node(stored, -ply)
                    if (
                        flag == _EXACT
                        or (flag == _LOWER and value >= beta)
                        or (flag == _UPPER and value <= alpha)
                    ):
                        self.stats.table_hits += 1
                        self._set(node, "table", value, _BOUNDS[flag])
                        return value
        maximizing = state.to_move == self.root_player
        children = self._children(state, moves, depth, maximizing, table_move)
        alpha0, beta0 = alpha, beta
        best = -_INF if maximizing else _INF
        best_move = children[0][0]
        for index, (move, child) in enumerate(children):
            if child is None:
                child = state.play(move)
            child_id = None if node is None else self._record(node, move, ply + 1, child)
            value = self.alphabeta(child, depth - 1, ply + 1, alpha, beta, child_id)
            if (value > best) if maximizing else (value < best):
                best, best_move = value, move
                self.pv[ply] = [move, *self.pv[ply + 1]]
                if maximizing and best > alpha:
                    alpha = best
                elif not maximizing and best < beta:
                    beta = best
            if alpha >= beta:
                if index + 1 < len(children):  # count cut-offs that skip something
                    self.stats.cutoffs += 1
                    self._prune(node, state, children[index + 1 :])
                break
        flag = _UPPER if best <= alpha0 else _LOWER if best >= beta0 else _EXACT
        if table is not None:
            table[key] = (depth, flag, _from_node(best, ply), best_move)
        self._set(node, "inner", best, _BOUNDS[flag])
        return best


def _check_request(state: Any, algorithm: str, depth: Any, time_limit: Any, beam: Any) -> list:
    """The legal moves of ``state``; InputError for a request that cannot be searched."""
    if algorithm not in ALGORITHMS:
        raise InputError(f"Unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}.")
    if depth is None:
        if time_limit is None and algorithm not in ("greedy", "random"):
            raise InputError("A search without a depth needs a time budget.")
    elif not isinstance(depth, int | np.integer) or not 1 <= depth <= MAX_DEPTH:
        raise InputError(f"Search depth must be a whole number from 1 to {MAX_DEPTH}, not {depth}.")
    if time_limit is not None and not time_limit > 0:
        raise InputError(f"The time budget must be positive seconds, not {time_limit}.")
    if beam is not None and beam < 1:
        raise InputError(f"The beam width must be at least 1, not {beam}.")
    moves = list(state.legal_moves())
    if not moves:
        raise InputError("The game is over: there is no move to choose.")
    return moves


@dataclass(frozen=True)
class SearchOptions:
    """The settings of one search: :func:`choose_move`'s keywords but ``rng`` and
    ``on_progress`` (what it draws from and whom it tells, not how it searches)."""

    algorithm: str = "alphabeta"
    depth: int | None = 4
    heuristic: Any = None
    ordering: bool = True
    time_limit: float | None = None
    beam: int | None = None
    endgame_exact: int | None = None
    transposition: bool = True
    record_tree: bool = False
    exact_root_scores: bool = False
    iterative: bool | None = None
    max_tree_nodes: int = 4000

    @property
    def tries_solver(self) -> bool:
        """Alpha-beta with a time budget and no tree recorded: the kind of search that tries
        the game's exact endgame solver first (when the game has one)."""
        clocked = self.time_limit is not None
        return self.algorithm == "alphabeta" and clocked and not self.record_tree

    def one_ply(self) -> SearchOptions:
        """These settings as greedy searches: each move scored once, nothing more."""
        return replace(
            self,
            depth=1,
            iterative=False,
            time_limit=None,
            record_tree=False,
            beam=None,
            endgame_exact=None,
        )


def choose_move(
    state: Any,
    *,
    algorithm: str = "alphabeta",
    depth: int | None = 4,
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
    on_progress: Callable[[SearchStats], None] | None = None,
) -> SearchResult:
    """Choose a move for the player to move in ``state``.

    Parameters
    ----------
    algorithm:
        One of :data:`ALGORITHMS`.
    depth:
        Plies to search (1 to :data:`MAX_DEPTH`); a forced pass is a ply. With a
        ``time_limit`` it is a cap on iterative deepening, and None means no cap: the
        search deepens until the clock runs out or every line reaches the end of the game.
    heuristic:
        ``evaluate(state, player) -> float`` (e.g. ``Heuristic.bind(weights)``), a
        heuristic name of the game, a :class:`Heuristic`, or None: the game's default.
    ordering:
        Alpha-beta: best-looking moves first (one-ply evaluation, the table's best
        move, and at the root the previous iteration's scores).
    time_limit:
        Seconds. Enables iterative deepening (depth 1, 2, ... up to ``depth``);
        the deepest completed iteration is used. Depth 1 always completes. Alpha-beta
        first tries the game's exact endgame solver, if it has one, with this budget
        (:func:`_exact_endgame`); if that gives up, the deepening gets the time left.
    beam:
        Alpha-beta: only the ``beam`` best-looking moves at every node (not exact).
    endgame_exact:
        Search to the end of the game when ``state.plies_left_hint()`` is at most
        this (Othello: empty squares); also where the beam switches off.
    transposition:
        Alpha-beta: reuse values of positions reached by another move order.
    record_tree:
        Record the explored tree (capped at ``max_tree_nodes`` records) in ``stats.tree``.
    rng:
        Used by ``"random"``, and to break ties (root moves are shuffled first).
    exact_root_scores:
        Alpha-beta: every root move searched with a full window, so each root score
        is exact (costs nodes); otherwise they may be bounds (``stats.root_bounds``).
    iterative:
        Force iterative deepening on or off (default: on iff ``time_limit``).
    on_progress:
        Called with the statistics so far every :data:`PROGRESS_EVERY` seconds; an
        exception it raises abandons the search (a page stops a search nobody awaits).

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
    options = SearchOptions(
        algorithm=algorithm,
        depth=depth,
        heuristic=heuristic,
        ordering=ordering,
        time_limit=time_limit,
        beam=beam,
        endgame_exact=endgame_exact,
        transposition=transposition,
        record_tree=record_tree,
        exact_root_scores=exact_root_scores,
        iterative=iterative,
        max_tree_nodes=max_tree_nodes,
    )
    return search(state, options, rng=rng, on_progress=on_progress)


def search(
    state: Any,
    options: SearchOptions,
    *,
    rng: np.random.Generator | None = None,
    on_progress: Callable[[SearchStats], None] | None = None,
) -> SearchResult:
    """:func:`choose_move` with its settings in one :class:`SearchOptions`."""
    o = options
    moves = _check_request(state, o.algorithm, o.depth, o.time_limit, o.beam)
    started, compiling = _start_clock(state, options)
    if rng is not None and len(moves) > 1:
        moves = [moves[i] for i in rng.permutation(len(moves))]
    if options.algorithm == "random":
        result = _random_move(moves, rng)
    elif solution := _exact_endgame(state, options):
        result = solution
    else:
        result = _heuristic_search(state, moves, started, options, on_progress)
    _close_stats(result.stats, started, options.time_limit, compiling)
    return result


def _heuristic_search(
    state: Any,
    moves: list[Move],
    started: float,
    options: SearchOptions,
    on_progress: Callable[[SearchStats], None] | None,
) -> SearchResult:
    """The heuristic search of :func:`search`, with the time left of a budget that began
    at ``started``.

    Iterative deepening is on with a budget (and always without a depth), unless
    ``options.iterative`` says otherwise. Greedy is a one-ply minimax. The time an exact
    endgame solver spent before giving up is noted in the statistics.
    """
    evaluate = resolve_evaluator(state, options.heuristic)
    if options.algorithm == "greedy":
        options = options.one_ply()
    searcher = _Searcher(state, evaluate, options, on_progress)
    searcher.stats.depth_cap = options.depth
    if _exact_solver(state, options) is not None:  # it was tried first, and gave up
        searcher.stats.exact_attempt_seconds = time.perf_counter() - started
    iterative = options.iterative
    if iterative is None or options.depth is None:
        iterative = options.time_limit is not None
    deadline = None if options.time_limit is None else started + options.time_limit
    return _deepen(
        searcher,
        state,
        moves,
        options.depth,
        iterative,
        deadline,
        options.exact_root_scores,
        options.record_tree,
    )


def _random_move(moves: list[Move], rng: np.random.Generator | None) -> SearchResult:
    """A uniformly random one of ``moves`` (from ``rng``, else a fresh generator)."""
    generator = rng if rng is not None else np.random.default_rng()
    move = moves[int(generator.integers(len(moves)))]
    stats = SearchStats(algorithm="random", nodes=1, completed_nodes=1)
    stats.principal_variation = [move]
    return SearchResult(move, 0.0, stats)


def _start_clock(state: Any, options: SearchOptions) -> tuple[float, bool]:
    """The move's start time, read once the game's exact solver is ready: loading its
    compiled code (``load_compiled``, once per process) is not the move's thinking time;
    and whether the solver is left out, the server still compiling it elsewhere."""
    compiling = _solver_compiling(state, options)
    solver = _exact_solver(state, options)
    if solver is not None and hasattr(solver, "load_compiled"):
        solver.load_compiled()
    return time.perf_counter(), compiling


def _close_stats(
    stats: SearchStats, started: float, time_limit: float | None, compiling: bool
) -> None:
    """Note in ``stats`` the move's time and budget, and whether the solver was left out."""
    stats.seconds, stats.time_limit = time.perf_counter() - started, time_limit
    stats.solver_compiling = compiling


def _solver_name(state: Any, options: SearchOptions) -> str:
    """The module name of the game's exact endgame solver when this kind of search tries it
    (:attr:`SearchOptions.tries_solver`) and the game names one; else ``""``."""
    if not options.tries_solver:
        return ""
    game = game_of(state)
    return game.exact_solver if game is not None and game.exact_solver else ""


def _solver_compiling(state: Any, options: SearchOptions) -> bool:
    """Whether this search left out the game's exact solver because the server was still
    compiling it (:func:`lib.games.compiled_code.compiling_elsewhere`)."""
    return bool(_solver_name(state, options)) and compiling_elsewhere()


def _exact_solver(state: Any, options: SearchOptions) -> Any | None:
    """The module of the game's exact endgame solver when this search tries it, else None:
    alpha-beta with a time budget, no tree recorded, a game that names one, and its compiled
    code not being compiled elsewhere right now (the move does not wait seconds for it)."""
    name = _solver_name(state, options)
    if not name or compiling_elsewhere():
        return None
    return importlib.import_module(name)


def _exact_endgame(state: Any, options: SearchOptions) -> SearchResult | None:
    """The game's own exact endgame solver, when it has one and it fits the time budget.

    A game may name an exact solver (:attr:`GameSpec.exact_solver`) whose
    ``exact_solution(state, time_limit, every_move) -> result | None`` gives
    (best move, its exact final ``margin`` for the side to move, with ``every_move``
    the ``move_margins`` of all moves, ``nodes``); alpha-beta with a time budget tries
    it at every move with the whole budget as its limit, and the solver gives up (None)
    when it cannot finish in time, leaving the deepening the time that is left. Wins are
    scored like finished games (``WIN_VALUE + margin``), so the page shows them as forced
    wins with their margin.
    """
    solver = _exact_solver(state, options)
    if solver is None:
        return None
    every_move = options.exact_root_scores
    solution = solver.exact_solution(state, options.time_limit, every_move=every_move)
    if solution is None:
        return None

    def value(margin: float) -> float:
        return 0.0 if margin == 0 else math.copysign(WIN_VALUE + abs(margin), margin)

    stats = SearchStats(
        algorithm=options.algorithm,
        nodes=solution.nodes,
        completed_nodes=solution.nodes,
        completed_depth=state.plies_left_hint(),
        exact_endgame=True,
        solved=True,
        principal_variation=[solution.best_move],
        by_solver=True,
    )
    stats.ebf = effective_branching_factor(stats.completed_nodes, max(stats.completed_depth, 1))
    margins = solution.move_margins or {solution.best_move: solution.margin}
    stats.root_scores = {move: value(margin) for move, margin in margins.items()}
    stats.root_bounds = dict.fromkeys(margins, "exact")
    return SearchResult(solution.best_move, value(solution.margin), stats)


def _deepen(
    searcher: _Searcher,
    state: Any,
    moves: list[Move],
    depth: int | None,
    iterative: bool,
    deadline: float | None,
    exact_root_scores: bool,
    record_tree: bool,
) -> SearchResult:
    """Search to ``depth`` (or depth 1, 2, ... when ``iterative``) until done or out of time.

    ``depth`` None: no cap, the iterations go on until every line reaches the end of
    the game (``solved``) or the clock runs out (or, as a guard, :data:`MAX_DEPTH`).
    The first iteration always completes; later ones are abandoned when the clock
    passes ``deadline``, and the deepest completed one gives the move.
    """
    stats = searcher.stats
    target = MAX_DEPTH if depth is None else depth
    if searcher.near_end(state):
        target = UNLIMITED
        stats.exact_endgame = True
    best_move, best_value = moves[0], 0.0
    root_order = list(moves)
    presorted = False
    started = time.perf_counter()
    for current in range(1, target + 1) if iterative else [target]:
        searcher.depth_cut = 0
        searcher.tree = [] if record_tree else None
        searcher.tree_truncated = False
        searcher.deadline = deadline if stats.iterations else None
        scores_before, bounds_before = stats.root_scores, stats.root_bounds
        stats.root_scores, stats.root_bounds = {}, {}
        nodes_before = stats.nodes
        try:
            value = searcher.root(state, root_order, current, presorted, exact_root_scores)
        except _Timeout:
            stats.timed_out = True
            stats.root_scores, stats.root_bounds = scores_before, bounds_before
            break
        best_value = value
        pv = list(searcher.pv[0])
        best_move = pv[0] if pv else best_move
        stats.principal_variation = pv
        stats.completed_depth = current
        stats.completed_nodes += stats.nodes - nodes_before
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
            stats.tree, stats.tree_truncated = searcher.tree, searcher.tree_truncated
        if searcher.root_ordering:
            # the next iteration searches the root moves best first (ties keep their order)
            scores = stats.root_scores
            root_order.sort(key=lambda m: -scores.get(m, -_INF))
            root_order.remove(best_move)
            root_order.insert(0, best_move)
            presorted = True
        if stats.solved or (deadline is not None and time.perf_counter() > deadline):
            break
    stats.ebf = effective_branching_factor(stats.completed_nodes, max(stats.completed_depth, 1))
    return SearchResult(best_move, best_value, stats)


def minimax(state: Any, depth: int, heuristic: Any = None, **options: Any) -> SearchResult:
    """Depth-limited minimax: ``choose_move(state, algorithm="minimax", ...)``."""
    return choose_move(state, algorithm="minimax", depth=depth, heuristic=heuristic, **options)


def alphabeta(state: Any, depth: int, heuristic: Any = None, **options: Any) -> SearchResult:
    """Alpha-beta (fail-soft): ``choose_move(state, algorithm="alphabeta", ...)``."""
    return choose_move(state, algorithm="alphabeta", depth=depth, heuristic=heuristic, **options)


def expectimax(state: Any, depth: int, heuristic: Any = None, **options: Any) -> SearchResult:
    """Expectimax against a uniformly random opponent: ``choose_move(..., "expectimax")``."""
    return choose_move(state, algorithm="expectimax", depth=depth, heuristic=heuristic, **options)
