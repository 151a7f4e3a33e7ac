"""Step through a textbook search: the traced run, the tree as it stood at each step.

The reference searches of :mod:`lib.games.search.reference` report every step to a
:class:`~lib.games.search.tracers.StepTracer` (:func:`lib.games.search.tracers.step_through`).
This module turns such a trace into what a step-through page shows:

* :func:`run_step_search` runs the search for a position, cutting the depth
  so the trace stays within :data:`MAX_EVENTS` steps, optionally with the
  moves ordered best-first (:class:`OrderedState`), and counts the nodes of
  plain minimax to the same depth, the yardstick for pruning;
* :func:`tree_at` replays the steps up to one of them: which nodes have been
  entered, the value each has backed up so far, each node's alpha-beta
  window, the children cut-offs skipped, and the counts so far;
* :func:`describe_step` says in a sentence what a step does;
* :func:`code_excerpt` picks the function of the textbook listing a step is in
  (:func:`whole_listing`: all of it), with the row the step is shown on.

Nothing here draws (:mod:`lib.games.drawing.step_tree` does) or imports Streamlit.

Move ordering without touching the textbook code: :class:`OrderedState`
wraps a position so that ``legal_moves()`` lists the moves best-first for the
side to move, by a one-ply look (the heuristic after each move). The
reference alpha-beta, unchanged, then meets the best move first and cuts more.
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lib.errors import InputError
from lib.games import textbook_tree
from lib.games.core import GameSpec
from lib.games.search.reference import minimax_search
from lib.games.search.tracers import (
    MAX_STEP_DEPTH,
    StatsTracer,
    StepEvent,
    StepTrace,
    TextbookListing,
    step_through,
)
from lib.games.search.values import is_win_value, terminal_value

Move = Hashable
EvaluateFunction = Callable[[Any, int], float]

MAX_EVENTS = 5000
"""A step-through keeps at most this many steps: the depth is cut until the trace fits."""

MINIMAX_COUNT_LIMIT = 50_000
"""Plain minimax is counted up to this many nodes (beyond it the page says "more than")."""

ALGORITHMS = ("minimax", "alphabeta", "expectimax")
"""The reference searches a step-through offers (as named in ``reference.SEARCHES``)."""


# -- move ordering ------------------------------------------------------------------


def ordered_moves(state: Any, evaluate: EvaluateFunction) -> list[Move]:
    """``state``'s moves, best first for the side to move by a one-ply look.

    Each move is scored by the position it leads to: a finished game by its
    result (:func:`~lib.games.search.values.terminal_value`), otherwise by
    ``evaluate(child, mover)``. Ties keep the game's own order.
    """
    mover = state.to_move
    moves = state.legal_moves()

    def score(move: Move) -> float:
        child = state.play(move)
        if child.is_terminal():
            return terminal_value(child, mover, 1)
        return float(evaluate(child, mover))

    return sorted(moves, key=score, reverse=True)


@dataclass(frozen=True)
class OrderedState:
    """A position whose ``legal_moves()`` come best-first (see :func:`ordered_moves`).

    Everything else is the wrapped ``state``'s; ``play`` returns a wrapped
    child, so every node of a search over it is ordered. ``evaluate`` scores
    the *unwrapped* positions (the game's heuristic).
    """

    state: Any
    evaluate: EvaluateFunction

    @property
    def to_move(self) -> int:
        """The wrapped position's player to move."""
        return self.state.to_move

    @property
    def key(self) -> Hashable:
        """The wrapped position's key."""
        return self.state.key

    def legal_moves(self) -> list[Move]:
        """The moves, best first for the side to move."""
        return ordered_moves(self.state, self.evaluate)

    def play(self, move: Move) -> OrderedState:
        """The (wrapped) position after ``move``."""
        return OrderedState(self.state.play(move), self.evaluate)

    def is_terminal(self) -> bool:
        """Whether the wrapped game is over."""
        return self.state.is_terminal()

    def winner(self) -> int | None:
        """The wrapped game's winner."""
        return self.state.winner()

    def score(self, player: int) -> float:
        """The wrapped game's margin for ``player``."""
        return self.state.score(player)


@dataclass(frozen=True)
class UnwrapOrdered:
    """``evaluate`` for the positions of an ordered search: scores the wrapped position."""

    evaluate: EvaluateFunction

    def __call__(self, state: Any, player: int) -> float:
        """The heuristic of the position inside ``state`` (an :class:`OrderedState` or not)."""
        return self.evaluate(state.state if isinstance(state, OrderedState) else state, player)


# -- positions ----------------------------------------------------------------------


@dataclass(frozen=True)
class StepPosition:
    """A position to step through: a game position or a textbook tree.

    ``evaluate`` scores positions at the depth limit; ``depth`` is fixed for a
    textbook tree (its height) and None for a game position (the page picks).
    ``abstract`` positions have no board: the page shows the path as text.
    """

    label: str
    state: Any
    evaluate: EvaluateFunction
    format_move: Callable[[Move], str]
    depth: int | None = None
    abstract: bool = False


def textbook_positions() -> tuple[StepPosition, ...]:
    """The textbook's abstract trees: the three-ply tree, and AIMA's figure 5.2."""
    trees = (
        ("Textbook tree: 3 plies, 27 leaves", textbook_tree.THREE_PLY),
        ("Textbook figure 5.2: 2 plies", textbook_tree.AIMA_FIGURE_5_2),
    )
    return tuple(
        StepPosition(
            label,
            textbook_tree.initial_state(tree),
            textbook_tree.leaf_value,
            textbook_tree.format_move,
            depth=textbook_tree.height(tree),
            abstract=True,
        )
        for label, tree in trees
    )


def example_state(game: GameSpec, moves: Sequence[str]) -> Any:
    """The position reached from ``game``'s initial state by ``moves`` in its notation.

    Raises :class:`InputError` for a move that cannot be read or played there.
    """
    state = game.initial_state()
    for number, text in enumerate(moves, start=1):
        if state.is_terminal():
            raise InputError(f"The game is over before move {number} ({text!r}).")
        move = game.parse_move(text, state)
        if move not in state.legal_moves():
            raise InputError(f"Move {number} ({text!r}) is not legal there.")
        state = state.play(move)
    return state


def example_positions(game: GameSpec, evaluate: EvaluateFunction) -> tuple[StepPosition, ...]:
    """``game``'s example positions (``GameSpec.step_examples``), scored with ``evaluate``."""
    examples = getattr(game, "step_examples", ())
    return tuple(
        StepPosition(label, example_state(game, moves), evaluate, game.format_move)
        for label, moves in examples
    )


# -- the traced search --------------------------------------------------------------


@dataclass(frozen=True)
class StepSearch:
    """A traced search of one position, ready to step through.

    ``trace`` is the reference search's trace at ``depth`` plies (``requested``
    was asked for; ``depth_cut`` when a deeper trace would have exceeded the
    step cap). ``minimax_nodes`` counts the nodes of plain minimax to the same
    depth (``minimax_capped``: more than that). ``final`` is the whole tree.
    """

    algorithm: str
    ordering: bool
    depth: int
    requested: int
    depth_cut: bool
    trace: StepTrace
    minimax_nodes: int
    minimax_capped: bool
    final: TreeAtStep

    @property
    def steps(self) -> int:
        """The number of steps recorded."""
        return len(self.trace.events)


class _CountLimit(Exception):
    pass


class _CappedCounter(StatsTracer):
    """A :class:`StatsTracer` that stops the search after ``limit`` nodes."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def enter(self, state: Any, ply: int, alpha: float, beta: float, move: Move | None) -> None:
        """Count the node; stop the search past the limit."""
        if self.nodes >= self.limit:
            raise _CountLimit
        super().enter(state, ply, alpha, beta, move)


def minimax_node_count(
    state: Any, depth: int, evaluate: EvaluateFunction, limit: int = MINIMAX_COUNT_LIMIT
) -> tuple[int, bool]:
    """Nodes of the textbook minimax search of ``state`` to ``depth`` plies (root included).

    Returns ``(nodes, capped)``; ``capped`` when the search was stopped at ``limit`` nodes.
    """
    counter = _CappedCounter(limit)
    try:
        minimax_search(state, depth, evaluate, counter)
    except _CountLimit:
        return counter.nodes, True
    return counter.nodes, False


def run_step_search(
    position: StepPosition,
    *,
    algorithm: str = "alphabeta",
    depth: int = 3,
    ordering: bool = False,
    max_events: int = MAX_EVENTS,
    fit: bool = True,
) -> StepSearch:
    """Trace ``algorithm`` on ``position`` as deep as ``depth`` allows within ``max_events``.

    Depths 1, 2, ... are traced in turn (each costs a fraction of the next) and the
    deepest one that fits is kept; if even one ply does not fit, its first
    ``max_events`` steps are kept (``trace.truncated``). With ``ordering`` the search
    runs on an :class:`OrderedState`. A textbook tree is searched to its own depth.
    Without ``fit`` only ``depth`` itself is traced (cut at ``max_events`` steps if
    too long): the page's comparison uses it to trace a second search to the
    same depth as the first.
    """
    if algorithm not in ALGORITHMS:
        raise InputError(
            f"No step-through for {algorithm!r}; choose one of {', '.join(ALGORITHMS)}."
        )
    if position.depth is not None:
        depth = position.depth
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_STEP_DEPTH:
        raise InputError(f"Step through 1 to {MAX_STEP_DEPTH} plies, not {depth!r}.")
    root: Any = position.state
    evaluate: EvaluateFunction = position.evaluate
    if ordering:
        root, evaluate = OrderedState(root, evaluate), UnwrapOrdered(evaluate)
    trace: StepTrace | None = None
    depth_cut = False
    for tried in range(1 if fit else depth, depth + 1):
        attempt = step_through(
            root, algorithm=algorithm, depth=tried, heuristic=evaluate, max_events=max_events
        )
        if attempt.truncated and trace is not None:
            depth_cut = True
            break
        trace = attempt
        if attempt.truncated:
            depth_cut = tried < depth
            break
    assert trace is not None  # depth >= 1: at least one attempt was kept
    nodes, capped = minimax_node_count(position.state, trace.depth, position.evaluate)
    return StepSearch(
        algorithm=algorithm,
        ordering=ordering,
        depth=trace.depth,
        requested=depth,
        depth_cut=depth_cut,
        trace=trace,
        minimax_nodes=nodes,
        minimax_capped=capped,
        final=tree_at(trace.events, len(trace.events) - 1),
    )


# -- the tree at one step -----------------------------------------------------------


@dataclass
class StepNode:
    """A node of the tree as it stands at one step.

    ``status`` is ``"open"`` (entered, not yet returned: on the path being
    searched), ``"done"`` (returned its value) or ``"pruned"`` (a child a
    cut-off skipped: never entered). ``value`` is the value backed up so far
    (a leaf's score, a max/min node's best so far, a chance node's running
    mean, the value returned once ``done``); ``alpha``/``beta`` its window as
    last seen; ``cut`` whether a cut-off skipped at least one of its moves.
    ``low``/``high`` bound its true value once ``done``: equal when the value
    is exact (every move below it searched, or the skipped ones could not
    matter), see :func:`value_bounds`.
    """

    path: tuple[Move, ...]
    ply: int
    node: str
    alpha: float = -math.inf
    beta: float = math.inf
    value: float | None = None
    status: str = "open"
    leaf: bool = False
    terminal: bool = False
    cut: bool = False
    children: list[tuple[Move, ...]] = field(default_factory=list)
    low: float = -math.inf
    high: float = math.inf

    @property
    def exact(self) -> bool:
        """Whether the node has returned its exact value (not a bound on it)."""
        return self.status == "done" and self.low == self.high


@dataclass(frozen=True)
class TreeAtStep:
    """The tree after step ``step`` (0-based) of a trace.

    ``nodes`` maps each path (the moves from the root) to its :class:`StepNode`,
    in the order they appeared; ``current`` is the path of the node the step
    belongs to. ``visited`` counts the nodes entered so far, ``cutoffs`` the
    cut-offs that skipped at least one move (as
    :attr:`lib.games.search.fast.SearchStats.cutoffs` counts them), ``pruned`` the
    moves they skipped.
    """

    step: int
    event: StepEvent
    nodes: dict[tuple[Move, ...], StepNode]
    current: tuple[Move, ...]
    visited: int
    cutoffs: int
    pruned: int

    @property
    def node(self) -> StepNode:
        """The node the step belongs to."""
        return self.nodes[self.current]

    def open_path(self) -> list[tuple[Move, ...]]:
        """The paths from the root to the current node (the nodes being searched)."""
        return [self.current[:i] for i in range(len(self.current) + 1)]


def tree_at(events: Sequence[StepEvent], step: int) -> TreeAtStep:
    """Replay ``events[0..step]`` into the tree as it stood after step ``step``."""
    if not events:
        raise InputError("The search recorded no step.")
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step < len(events):
        raise InputError(f"Pick a step from 0 to {len(events) - 1}, not {step!r}.")
    nodes: dict[tuple[Move, ...], StepNode] = {}
    visited = cutoffs = pruned = 0
    for event in events[: step + 1]:
        path = event.path
        if event.kind == "enter":
            visited += 1
            nodes[path] = StepNode(path, event.ply, event.node, event.alpha, event.beta)
            if path:
                nodes[path[:-1]].children.append(path)
            continue
        node = nodes[path]
        node.alpha, node.beta = event.alpha, event.beta
        if event.kind == "leaf":
            node.value, node.leaf, node.terminal = event.value, True, event.terminal
        elif event.kind == "backup":
            node.value = event.value
        elif event.kind == "cutoff":
            node.cut = bool(event.pruned)  # meeting the window on the last move skips nothing
            if event.pruned:
                cutoffs += 1
                pruned += len(event.pruned)
            for move in event.pruned:
                child = (*path, move)
                nodes[child] = StepNode(child, event.ply + 1, "pruned", status="pruned")
                node.children.append(child)
        elif event.kind == "exit":
            node.value, node.status = event.value, "done"
            node.low, node.high = value_bounds(node, nodes)
    last = events[step]
    return TreeAtStep(step, last, nodes, last.path, visited, cutoffs, pruned)


def value_bounds(node: StepNode, nodes: dict[tuple[Move, ...], StepNode]) -> tuple[float, float]:
    """What a returned node's true value can be, from its children's: ``(low, high)``.

    A leaf is exact; a move a cut-off skipped could be worth anything; a MAX node's
    value lies between the largest of its children's lows and of their highs, a MIN
    node's likewise with the smallest, a chance node's between their means. A node
    every move below which was searched is therefore exact.
    """
    if node.leaf or not node.children:
        value = math.nan if node.value is None else node.value
        return value, value
    kids = [nodes[child] for child in node.children]
    lows = [kid.low if kid.status == "done" else -math.inf for kid in kids]
    highs = [kid.high if kid.status == "done" else math.inf for kid in kids]
    if node.node == "max":
        return max(lows), max(highs)
    if node.node == "min":
        return min(lows), min(highs)
    return sum(lows) / len(lows), sum(highs) / len(highs)


# -- words --------------------------------------------------------------------------


def value_text(value: float | None) -> str:
    """A value as a label: ``3``, ``-1.5``, ``+∞``, ``win``/``loss`` for a finished game."""
    if value is None:
        return "?"
    if math.isinf(value):
        return "+∞" if value > 0 else "−∞"
    if is_win_value(value):
        return "win" if value > 0 else "loss"
    return f"{value:.3g}"


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural unless one: ``1 cut-off``, ``12 nodes``."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def window_label(alpha: float, beta: float) -> str:
    """The alpha-beta window as ``α=3 β=+∞``."""
    return f"α={value_text(alpha)} β={value_text(beta)}"


def path_text(path: Sequence[Move], format_move: Callable[[Move], str]) -> str:
    """The moves from the root, e.g. ``L M`` or ``d3 c5``; ``root`` for the root."""
    return " ".join(format_move(m) for m in path) or "root"


NODE_NAMES = {"max": "MAX", "min": "MIN", "chance": "chance"}


def describe_step(
    event: StepEvent, format_move: Callable[[Move], str], *, abstract: bool = False
) -> str:
    """One sentence: what step ``event`` does (for the line under the step slider).

    ``abstract``: a textbook tree, whose leaves are numbers, not positions scored by a
    heuristic.
    """
    where = f"{NODE_NAMES.get(event.node, event.node)} node {path_text(event.path, format_move)}"
    value = value_text(event.value)
    if event.kind == "enter":
        return f"Enter {where} (ply {event.ply}), window {window_label(event.alpha, event.beta)}."
    if event.kind == "leaf":
        if abstract and not event.terminal:
            return f"Leaf {path_text(event.path, format_move)}: its fixed value is {value}."
        what = "the game is over" if event.terminal else "depth limit: the heuristic"
        return f"Score {where}: {what} gives {value}."
    if event.kind == "exit" and not event.path:
        kind = NODE_NAMES.get(event.node, event.node)
        return f"The root ({kind} node) returns {value}: the value of the whole search."
    if event.kind == "backup":
        if event.node == "chance":
            return f"Back up into {where}: the mean of its children so far is {value}."
        best = "highest" if event.node == "max" else "lowest"
        return f"Back up into {where}: {value} is the {best} value so far."
    if event.kind == "alpha":
        return f"{where}: alpha raised to {value} (MAX is sure of at least that)."
    if event.kind == "beta":
        return f"{where}: beta lowered to {value} (MIN can hold MAX to that)."
    if event.kind == "cutoff":
        window = f"α={value_text(event.alpha)} ≥ β={value_text(event.beta)}"
        if not event.pruned:
            return (
                f"{where}: {window}, but every move has been searched: nothing is cut off, "
                "and its value is exact."
            )
        skipped = ", ".join(format_move(m) for m in event.pruned)
        return f"Cut-off at {where}: {window}, so its other moves are skipped ({skipped})."
    if event.kind == "exit":
        return f"{where} returns {value} to its parent."
    return f"{event.kind} at {where}."


# -- the code being executed --------------------------------------------------------

_DEF = re.compile(r"^(\s*)def ")


@dataclass(frozen=True)
class CodeExcerpt:
    """Rows of a textbook listing to show, and the one being executed.

    ``rows`` are the lines shown (dedented together); ``numbers`` each row's
    number in the whole :class:`~lib.games.search.tracers.TextbookListing`, so
    an excerpt and the whole listing number a line alike; ``current`` the
    number of the row being executed.
    """

    rows: tuple[str, ...]
    numbers: tuple[int, ...]
    current: int


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def whole_listing(listing: TextbookListing, line: int) -> CodeExcerpt:
    """All of ``listing``, marking the row of a step at source line ``line``."""
    numbers = tuple(range(1, len(listing.rows) + 1))
    return CodeExcerpt(listing.rows, numbers, listing.row_of(line))


def code_excerpt(listing: TextbookListing, line: int) -> CodeExcerpt:
    """The function of ``listing`` that a step at source line ``line`` is in, dedented.

    A reference search is an outer function with nested ones (``value``,
    ``max_value`` ...): the excerpt is the innermost ``def`` holding the step's
    row (a step on a ``def`` row itself, entering it, shows that function), up
    to the next row indented as far as that ``def`` or less, so it fits beside
    the tree. A row outside every nested ``def`` gives the whole listing.
    """
    rows = listing.rows
    current = listing.row_of(line)
    at = current - 1
    target = _indent(rows[at]) + (1 if _DEF.match(rows[at]) else 0)
    start = next(
        (
            i
            for i in range(at, -1, -1)
            if (found := _DEF.match(rows[i])) and len(found.group(1)) < target
        ),
        None,
    )
    if start is None or start == 0:
        return whole_listing(listing, line)
    depth = _indent(rows[start])
    end = next(
        (i for i in range(start + 1, len(rows)) if rows[i].strip() and _indent(rows[i]) <= depth),
        len(rows),
    )
    while end > start + 1 and not rows[end - 1].strip():
        end -= 1
    body = tuple(textwrap.dedent("\n".join(rows[start:end])).splitlines())
    return CodeExcerpt(body, tuple(range(start + 1, end + 1)), current)
