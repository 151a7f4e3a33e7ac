"""Tracers for the textbook searches of :mod:`lib.games.search.reference`.

The reference searches do no bookkeeping of their own; they tell a tracer what
they do (:class:`lib.games.search.reference.Tracer`). Here are the tracers:

* :class:`StatsTracer` counts what :class:`lib.games.search.fast.SearchStats`
  counts (nodes, leaf evaluations, finished games, cut-offs, deepest ply,
  each root move's value);
* :class:`StepTracer` records every step (enter a node, score a leaf, back a
  value up, raise alpha, lower beta, cut off, return) with the path of moves
  from the root, the alpha-beta window at that moment, the value and the line
  of the reference source being executed, for a step-through page;
* :class:`TreeTracer` records the explored tree as
  :class:`lib.games.search.fast.TreeNode` records, pruned children included, so
  the fast engine's tree drawing can show it;
* :class:`MultiTracer` passes every call on to several tracers.

:func:`source_listing` gives a reference search's source with the line of
each step and the textbook listing a student reads (the tracer's lines hidden),
and :func:`step_through` runs a search under a :class:`StepTracer`.
"""

from __future__ import annotations

import bisect
import inspect
import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lib.errors import InputError
from lib.games.search.fast import (
    SearchStats,
    TreeNode,
    effective_branching_factor,
    resolve_evaluator,
)
from lib.games.search.reference import SEARCHES, Tracer

Move = Hashable

STEP_KINDS = ("enter", "leaf", "backup", "alpha", "beta", "cutoff", "exit")
"""The kinds of :class:`StepEvent`, in the order a node usually produces them."""

MAX_STEP_EVENTS = 5000
"""Default cap on the steps a :class:`StepTracer` records."""

MAX_STEP_DEPTH = 8
"""Deepest search :func:`step_through` accepts (the events are capped anyway)."""


class StatsTracer:
    """Counts what a search did, with the meanings of :class:`~lib.games.search.fast.SearchStats`.

    ``nodes`` counts every node entered (the root included), ``leaf_evaluations``
    the heuristic evaluations at the depth limit, ``terminal_nodes`` the finished
    games, ``cutoffs`` the cut-offs that skip at least one move, ``max_ply`` the
    deepest ply entered, and ``root_scores`` the value each searched root move
    returned (a bound when alpha-beta cut below it).
    """

    def __init__(self) -> None:
        self.nodes = 0
        self.leaf_evaluations = 0
        self.terminal_nodes = 0
        self.cutoffs = 0
        self.pruned_moves = 0
        self.max_ply = 0
        self.root_scores: dict[Move, float] = {}
        self._path: list[Move | None] = []

    def enter(self, state: Any, ply: int, alpha: float, beta: float, move: Move | None) -> None:
        """Count the node and push its move."""
        self.nodes += 1
        self.max_ply = max(self.max_ply, ply)
        self._path.append(move)

    def leaf(self, value: float, terminal: bool) -> None:
        """Count a finished game or a heuristic evaluation."""
        if terminal:
            self.terminal_nodes += 1
        else:
            self.leaf_evaluations += 1

    def backup(self, value: float) -> None:
        """Nothing to count."""

    def alpha_raised(self, alpha: float) -> None:
        """Nothing to count."""

    def beta_lowered(self, beta: float) -> None:
        """Nothing to count."""

    def cutoff(self, pruned_moves: Sequence[Move]) -> None:
        """Count a cut-off that skips moves (one after the last move skips nothing)."""
        if pruned_moves:
            self.cutoffs += 1
            self.pruned_moves += len(pruned_moves)

    def exit(self, value: float) -> None:
        """Pop the node; a root move's value is its score."""
        move = self._path.pop()
        if len(self._path) == 1:
            self.root_scores[move] = value

    def search_stats(self, algorithm: str, depth: int) -> SearchStats:
        """These counts as a :class:`~lib.games.search.fast.SearchStats` of one ``depth`` search."""
        return SearchStats(
            algorithm=algorithm,
            nodes=self.nodes,
            leaf_evaluations=self.leaf_evaluations,
            terminal_nodes=self.terminal_nodes,
            cutoffs=self.cutoffs,
            completed_depth=depth,
            completed_nodes=self.nodes,
            ebf=effective_branching_factor(self.nodes, depth),
            root_scores=dict(self.root_scores),
        )


@dataclass(frozen=True)
class TextbookListing:
    """The listing a student reads: a reference search without its tracer bookkeeping.

    ``rows`` are the source's lines with the tracer's lines (``tracer.enter(...)``,
    ``tracer = NullTracer() ...``) left out and the ``# step:`` comments cut off;
    ``source_lines`` gives, for each row, its line (1-based) in the source text
    of ``source_length`` lines. Rows are numbered from 1 as shown.
    """

    rows: tuple[str, ...]
    source_lines: tuple[int, ...]
    source_length: int

    @property
    def text(self) -> str:
        """The rows as one text."""
        return "\n".join(self.rows)

    def row_of(self, line: int) -> int:
        """The row (1-based) on which a step recorded at source line ``line`` is shown.

        A shown line is its own row; a hidden tracer line belongs to the statement it
        reports on, the nearest shown line above it (``tracer.enter`` is shown on the
        ``def`` it enters), or below it when none is above.
        """
        last = self.source_length
        if isinstance(line, bool) or not isinstance(line, int) or not 1 <= line <= last:
            raise InputError(f"Line {line!r} is not in the listing (1 to {last}).")
        if not self.rows:
            raise InputError("Every line of the listing is hidden: there is nothing to show.")
        above = bisect.bisect_right(self.source_lines, line)
        return above if above else 1


@dataclass(frozen=True)
class SourceListing:
    """A reference search's source and the line (1-based, in ``text``) of each step.

    ``lines`` maps a step marker of the source (``"enter"``, ``"leaf"``,
    ``"terminal"``, ``"max backup"``, ``"min backup"``, ``"chance backup"``,
    ``"alpha"``, ``"beta"``, ``"max cutoff"``, ``"min cutoff"``, ``"exit"``)
    to its line; markers are the ``# step:`` comments. ``textbook`` is the
    listing shown to a student (:class:`TextbookListing`).
    """

    algorithm: str
    text: str
    lines: Mapping[str, int]
    textbook: TextbookListing


_MARKER = re.compile(r"#\s*step:\s*(.+?)\s*$")
_STEP_COMMENT = re.compile(r"\s*#\s*step:.*$")
_TRACER_LINE = re.compile(r"^\s*tracer\s*(\.|=)")
"""A line of tracer bookkeeping (a call on the tracer, or choosing it), hidden from students."""


def textbook_listing(text: str) -> TextbookListing:
    """``text`` without its tracer lines and ``# step:`` comments (see :class:`TextbookListing`).

    >>> shown = textbook_listing("def f(tracer):\\n  tracer.enter()  # step: enter\\n  return 1")
    >>> shown.rows, shown.source_lines, shown.row_of(2)
    (('def f(tracer):', '  return 1'), (1, 3), 1)
    """
    source = text.splitlines()
    kept = [
        (number, _STEP_COMMENT.sub("", row))
        for number, row in enumerate(source, start=1)
        if not _TRACER_LINE.match(row)
    ]
    return TextbookListing(
        tuple(row for _, row in kept), tuple(number for number, _ in kept), len(source)
    )


def source_listing(algorithm: str) -> SourceListing:
    """The source of the reference search ``algorithm`` and the line of each step."""
    if algorithm not in SEARCHES:
        raise InputError(
            f"No reference search called {algorithm!r}; choose one of {', '.join(SEARCHES)}."
        )
    text = inspect.getsource(SEARCHES[algorithm])
    lines = {}
    for number, line in enumerate(text.splitlines(), start=1):
        found = _MARKER.search(line)
        if found:
            lines[found.group(1)] = number
    return SourceListing(algorithm, text, lines, textbook_listing(text))


@dataclass(frozen=True)
class StepEvent:
    """One step of a traced search.

    ``kind`` is one of :data:`STEP_KINDS`; ``path`` the moves from the root to
    the node the step belongs to; ``node`` is ``"max"``, ``"min"`` or
    ``"chance"``; ``alpha``/``beta`` the node's window after the step;
    ``value`` the value the step computed (None for ``enter``); ``line`` the
    line of the source listing being executed; ``pruned`` the moves a
    cut-off skips; ``terminal`` whether a leaf is a finished game.
    """

    index: int
    kind: str
    path: tuple[Move, ...]
    ply: int
    node: str
    alpha: float
    beta: float
    value: float | None
    line: int
    pruned: tuple[Move, ...] = ()
    terminal: bool = False


class StepLimitReached(Exception):
    """Raised by a :class:`StepTracer` with ``stop_search`` when its cap is reached."""


@dataclass
class _Frame:
    move: Move | None
    ply: int
    node: str
    alpha: float
    beta: float


class StepTracer:
    """Records the ordered steps of a reference search for a step-through page.

    At most ``max_events`` steps are kept; past that ``truncated`` is set and
    the rest are dropped, or, with ``stop_search``, :class:`StepLimitReached`
    is raised to end the search at once.
    """

    def __init__(
        self,
        algorithm: str = "alphabeta",
        *,
        max_events: int = MAX_STEP_EVENTS,
        stop_search: bool = False,
    ) -> None:
        if max_events < 1:
            raise InputError(f"A step trace needs room for at least one step, not {max_events}.")
        self.listing = source_listing(algorithm)
        self.max_events = max_events
        self.stop_search = stop_search
        self.events: list[StepEvent] = []
        self.truncated = False
        self._opponent = "chance" if algorithm == "expectimax" else "min"
        self._root_player: int | None = None
        self._stack: list[_Frame] = []

    def _record(
        self,
        kind: str,
        marker: str,
        value: float | None,
        pruned: Sequence[Move] = (),
        terminal: bool = False,
    ) -> None:
        if len(self.events) >= self.max_events:
            self.truncated = True
            if self.stop_search:
                raise StepLimitReached(f"more than {self.max_events} steps")
            return
        top = self._stack[-1]
        path = tuple(frame.move for frame in self._stack[1:])
        self.events.append(
            StepEvent(
                index=len(self.events),
                kind=kind,
                path=path,
                ply=top.ply,
                node=top.node,
                alpha=top.alpha,
                beta=top.beta,
                value=value,
                line=self.listing.lines[marker],
                pruned=tuple(pruned),
                terminal=terminal,
            )
        )

    def enter(self, state: Any, ply: int, alpha: float, beta: float, move: Move | None) -> None:
        """Push the node and record the step."""
        if self._root_player is None:
            self._root_player = state.to_move
        node = "max" if state.to_move == self._root_player else self._opponent
        self._stack.append(_Frame(move, ply, node, alpha, beta))
        self._record("enter", "enter", None)

    def leaf(self, value: float, terminal: bool) -> None:
        """Record the leaf's score."""
        self._record("leaf", "terminal" if terminal else "leaf", value, terminal=terminal)

    def backup(self, value: float) -> None:
        """Record the node's new value."""
        node = self._stack[-1].node
        self._record("backup", f"{node} backup", value)

    def alpha_raised(self, alpha: float) -> None:
        """Narrow the window and record the step."""
        self._stack[-1].alpha = alpha
        self._record("alpha", "alpha", alpha)

    def beta_lowered(self, beta: float) -> None:
        """Narrow the window and record the step."""
        self._stack[-1].beta = beta
        self._record("beta", "beta", beta)

    def cutoff(self, pruned_moves: Sequence[Move]) -> None:
        """Record the cut-off and the moves it skips."""
        node = self._stack[-1].node
        self._record("cutoff", f"{node} cutoff", None, pruned=pruned_moves)

    def exit(self, value: float) -> None:
        """Record the returned value and pop the node."""
        self._record("exit", "exit", value)
        self._stack.pop()


class TreeTracer:
    """Records the explored tree as :class:`~lib.games.search.fast.TreeNode` records.

    Children skipped by a cut-off are added with status ``"pruned"`` (never
    visited: they are not counted in ``visited``). At most ``max_nodes``
    records are kept; past that ``truncated`` is set.
    """

    def __init__(self, max_nodes: int = 4000) -> None:
        self.max_nodes = max_nodes
        self.tree: list[TreeNode] = []
        self.truncated = False
        self.visited = 0
        self._root_player: int | None = None
        self._stack: list[tuple[int | None, Any]] = []  # (record id or None, state)

    def _add(self, parent: int | None, move: Move | None, ply: int, state: Any) -> int | None:
        if len(self.tree) >= self.max_nodes:
            self.truncated = True
            return None
        node_id = len(self.tree)
        maximizing = state.to_move == self._root_player
        self.tree.append(TreeNode(node_id, parent, move, ply, maximizing))
        return node_id

    def enter(self, state: Any, ply: int, alpha: float, beta: float, move: Move | None) -> None:
        """Add the node (unless the tree is full or its parent was left out)."""
        self.visited += 1
        if self._root_player is None:
            self._root_player = state.to_move
        parent = self._stack[-1][0] if self._stack else None
        node_id = None
        if parent is not None or not self._stack:
            node_id = self._add(parent, move, ply, state)
        if node_id is not None:
            self.tree[node_id].alpha, self.tree[node_id].beta = alpha, beta
        self._stack.append((node_id, state))

    def leaf(self, value: float, terminal: bool) -> None:
        """Mark the node as a finished game or an evaluated leaf."""
        node_id = self._stack[-1][0]
        if node_id is not None:
            self.tree[node_id].status = "terminal" if terminal else "leaf"

    def backup(self, value: float) -> None:
        """Nothing to record: the node's value is set when it returns."""

    def alpha_raised(self, alpha: float) -> None:
        """Nothing to record (the node keeps the window it was entered with)."""

    def beta_lowered(self, beta: float) -> None:
        """Nothing to record (the node keeps the window it was entered with)."""

    def cutoff(self, pruned_moves: Sequence[Move]) -> None:
        """Add the skipped children as pruned records."""
        node_id, state = self._stack[-1]
        if node_id is None:
            return
        for move in pruned_moves:
            child_id = self._add(node_id, move, self.tree[node_id].ply + 1, state.play(move))
            if child_id is None:
                return
            self.tree[child_id].status = "pruned"

    def exit(self, value: float) -> None:
        """Set the node's value and whether it is exact or a bound of its window."""
        node_id, _ = self._stack.pop()
        if node_id is None:
            return
        node = self.tree[node_id]
        node.value = value
        if node.status == "inner" and value <= node.alpha:
            node.bound = "upper"
        elif node.status == "inner" and value >= node.beta:
            node.bound = "lower"


class MultiTracer:
    """Passes every call on to each of ``tracers`` in turn."""

    def __init__(self, *tracers: Tracer) -> None:
        self.tracers = tracers

    def enter(self, state: Any, ply: int, alpha: float, beta: float, move: Move | None) -> None:
        """Pass on."""
        for tracer in self.tracers:
            tracer.enter(state, ply, alpha, beta, move)

    def leaf(self, value: float, terminal: bool) -> None:
        """Pass on."""
        for tracer in self.tracers:
            tracer.leaf(value, terminal)

    def backup(self, value: float) -> None:
        """Pass on."""
        for tracer in self.tracers:
            tracer.backup(value)

    def alpha_raised(self, alpha: float) -> None:
        """Pass on."""
        for tracer in self.tracers:
            tracer.alpha_raised(alpha)

    def beta_lowered(self, beta: float) -> None:
        """Pass on."""
        for tracer in self.tracers:
            tracer.beta_lowered(beta)

    def cutoff(self, pruned_moves: Sequence[Move]) -> None:
        """Pass on."""
        for tracer in self.tracers:
            tracer.cutoff(pruned_moves)

    def exit(self, value: float) -> None:
        """Pass on."""
        for tracer in self.tracers:
            tracer.exit(value)


@dataclass(frozen=True)
class StepTrace:
    """A traced reference search: its steps, its source and, if it finished, its result.

    ``value`` and ``move`` are None when the search was stopped at the step cap
    (``truncated``).
    """

    algorithm: str
    depth: int
    events: tuple[StepEvent, ...]
    listing: SourceListing
    truncated: bool
    value: float | None
    move: Move | None
    stats: SearchStats = field(default_factory=SearchStats)


def step_through(
    state: Any,
    *,
    algorithm: str = "alphabeta",
    depth: int = 2,
    heuristic: Any = None,
    max_events: int = MAX_STEP_EVENTS,
) -> StepTrace:
    """Run the reference search ``algorithm`` on ``state`` and record every step.

    ``heuristic`` is as in :func:`lib.games.search.fast.choose_move`. The search
    stops after ``max_events`` steps (``truncated``); the steps so far are kept.

    >>> from lib.games import textbook_tree
    >>> trace = step_through(
    ...     textbook_tree.initial_state(textbook_tree.AIMA_FIGURE_5_2),
    ...     depth=2, heuristic=textbook_tree.leaf_value)
    >>> trace.value, [e.kind for e in trace.events][:3]
    (3.0, ['enter', 'enter', 'enter'])
    """
    if algorithm not in SEARCHES:
        raise InputError(
            f"No reference search called {algorithm!r}; choose one of {', '.join(SEARCHES)}."
        )
    if not isinstance(depth, int) or not 1 <= depth <= MAX_STEP_DEPTH:
        raise InputError(
            f"A step-through searches 1 to {MAX_STEP_DEPTH} plies deep, not {depth!r}."
        )
    if state.is_terminal():
        raise InputError("The game is over: there is nothing to search.")
    evaluate = resolve_evaluator(state, heuristic)
    steps = StepTracer(algorithm, max_events=max_events, stop_search=True)
    counts = StatsTracer()
    try:
        value, move = SEARCHES[algorithm](state, depth, evaluate, MultiTracer(steps, counts))
    except StepLimitReached:
        value, move = None, None
    return StepTrace(
        algorithm=algorithm,
        depth=depth,
        events=tuple(steps.events),
        listing=steps.listing,
        truncated=steps.truncated,
        value=value,
        move=move,
        stats=counts.search_stats(algorithm, depth),
    )
