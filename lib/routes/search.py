"""Route search algorithms, one function per algorithm, in the style of networkx.

Every algorithm has the signature ``algorithm(G, source, target,
heuristic=None, weight="weight", *, record_trace=False, ...)`` and returns a
frozen :class:`RouteResult` (path, cost, nodes expanded and generated, peak
frontier size, seconds and, when asked for, a step-by-step trace). Unknown
nodes raise :class:`networkx.NodeNotFound`; an unreachable target raises
:class:`networkx.NetworkXNoPath`, exactly as networkx's own functions do.

``heuristic(u, v)`` estimates the cost from ``u`` to ``v`` (``None`` means 0).
Edge weights must be non-negative; a missing weight counts as 1.

>>> from lib.routes.graphs import romania, StraightLine
>>> G = romania()
>>> result = astar(G, "Arad", "Bucharest", StraightLine.of(G))
>>> result.path, result.cost
(('Arad', 'Sibiu', 'Rimnicu Vilcea', 'Pitesti', 'Bucharest'), 418.0)

Uniform-cost, greedy best-first, A*, weighted A* and the course's "B*" are
one search, :func:`lib.routes.best_first.best_first_search` (the textbook's,
which records the trace), each with its own priority. Untraced A*, weighted
A* and uniform-cost queries run its fast path, :mod:`lib.routes.kernel`,
which searches the graph's index (:mod:`lib.routes.compiled`) when it has
one: the same search (same path, cost and counts), with cheaper bookkeeping.

The trace is a list of :class:`~lib.routes.trace.TraceStep` deltas;
:func:`~lib.routes.trace.replay` turns it into the frontier, explored set and
current node after every step, which is what the page animates. Recording it
costs time and memory, so it is off by default and capped by
``max_trace_steps``.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import deque
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from functools import partial
from heapq import heappop, heappush
from typing import Protocol

import networkx as nx

from lib.errors import InputError
from lib.routes.best_first import (
    Priority,
    SearchTracer,
    astar_priority,
    best_first_search,
    course_bstar_priority,
    greedy_priority,
    no_estimate,
    path_to,
    uniform_cost_priority,
    weighted_astar_priority,
)
from lib.routes.kernel import NotFast, run_fast
from lib.routes.trace import (  # re-exported: the trace types are part of this API
    FrontierEntry,
    Part,
    Recorder,
    TraceState,
    TraceStep,
    apply_step,
    replay,
    trace_state,
)

__all__ = [
    "ALGORITHMS",
    "INFO",
    "FrontierEntry",
    "ImplicitGraph",
    "Part",
    "RouteResult",
    "TraceState",
    "TraceStep",
    "apply_step",
    "astar",
    "bfs",
    "bidirectional_uniform_cost",
    "course_bstar",
    "dfs",
    "greedy_best_first",
    "ida_star",
    "replay",
    "run",
    "trace_state",
    "uniform_cost",
    "weighted_astar",
]

Heuristic = Callable[[Hashable, Hashable], float]


class ImplicitGraph(Protocol):
    """A state space searched without building it: what the searches ask of a graph.

    ``node in G`` says whether a node belongs to it; ``G[u]`` maps each
    neighbour of ``u`` to its edge data (``{"weight": w}``, or ``{}`` for 1),
    generated when asked; ``is_directed()`` is ``False`` when every edge can
    be walked back (bidirectional search needs that). Every algorithm here
    except the fast path of A* and uniform-cost accepts one in place of a
    networkx graph (e.g. :class:`lib.puzzles.space.PuzzleSpace`).
    """

    def __contains__(self, node: object) -> bool: ...

    def __getitem__(self, node: Hashable) -> Mapping[Hashable, Mapping]: ...

    def is_directed(self) -> bool: ...


#: Default cap on recorded trace steps (the animation never needs more).
MAX_TRACE_STEPS = 5_000
#: Default cap on IDA* node expansions, summed over all its iterations.
MAX_IDA_EXPANSIONS = 1_000_000


@dataclass(frozen=True)
class RouteResult:
    """What one search found and what it cost to find it."""

    algorithm: str
    source: Hashable
    target: Hashable
    path: tuple
    cost: float
    expanded: int
    generated: int
    max_frontier: int
    seconds: float
    trace: tuple[TraceStep, ...] = ()
    trace_truncated: bool = False
    notes: str = ""

    @property
    def edges(self) -> int:
        """Number of roads on the path."""
        return len(self.path) - 1


# --------------------------------------------------------------------------- helpers


def _check_nodes(G: nx.Graph, source: Hashable, target: Hashable) -> None:
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")


def _no_path(source: Hashable, target: Hashable) -> nx.NetworkXNoPath:
    return nx.NetworkXNoPath(f"Node {target} not reachable from {source}")


def _path_cost(G: nx.Graph, path: list, weight: str) -> float:
    return float(sum(G[u][v].get(weight, 1) for u, v in itertools.pairwise(path)))


def _trivial(name: str, source: Hashable, recorder: Recorder, started: float) -> RouteResult:
    recorder.add(TraceStep(None, (FrontierEntry(source, 0.0, 0.0, 0.0, None),), part=Part.PUSH))
    recorder.add(TraceStep(source, (), part=Part.GOAL_TEST))
    return RouteResult(
        name,
        source,
        source,
        (source,),
        0.0,
        1,
        1,
        1,
        time.perf_counter() - started,
        tuple(recorder.steps),
        recorder.truncated,
    )


def _neighbours(G: nx.Graph, backward: bool = False) -> dict:
    """Adjacency to follow: successors, or predecessors for a backward search.

    A graph that is not a networkx graph is an implicit state space
    (:class:`ImplicitGraph`): ``G[u]`` generates ``u``'s neighbours when asked.
    """
    if not isinstance(G, nx.Graph):
        return G  # type: ignore[return-value]
    if backward and G.is_directed():
        return G._pred  # read-only use of networkx's adjacency
    return G._adj


# --------------------------------------------------------------------------- best-first family


def _best_first(
    name: str,
    G: nx.Graph,
    source: Hashable,
    target: Hashable,
    heuristic: Heuristic | None,
    weight: str,
    priority: Callable[..., Priority],
    *,
    w: float = 1.0,
    fast: bool = False,
    reopen: bool = True,
    record_trace: bool,
    max_trace_steps: int,
) -> RouteResult:
    """Run :func:`~lib.routes.best_first.best_first_search` with ``priority``.

    ``fast`` marks the priorities of the form ``g + w * h`` (A*, weighted A*,
    uniform-cost): untraced, they take :func:`lib.routes.kernel.run_fast`
    when it can run the query, the same search with cheaper bookkeeping.
    """
    started = time.perf_counter()
    _check_nodes(G, source, target)
    if fast and not record_trace and isinstance(G, nx.Graph):
        try:
            found = run_fast(G, source, target, heuristic, weight, w)
        except NotFast:
            pass
        else:
            if found is None:
                raise _no_path(source, target)
            cost, path, expanded, generated, max_frontier = found
            seconds = time.perf_counter() - started
            return RouteResult(
                name, source, target, tuple(path), float(cost), expanded, generated,
                max_frontier, seconds,
            )  # fmt: skip
    f = priority(no_estimate if heuristic is None else heuristic, source, target)
    recorder = Recorder(record_trace, max_trace_steps)
    tracer = SearchTracer(f, recorder)
    path, cost = best_first_search(G, source, target, f, weight, reopen=reopen, tracer=tracer)
    return RouteResult(
        name, source, target, tuple(path), float(cost), tracer.expanded, tracer.generated,
        tracer.max_frontier, time.perf_counter() - started, tuple(recorder.steps),
        recorder.truncated,
    )  # fmt: skip


def uniform_cost(
    G: nx.Graph,
    source: Hashable,
    target: Hashable,
    heuristic: Heuristic | None = None,
    weight: str = "weight",
    *,
    record_trace: bool = False,
    max_trace_steps: int = MAX_TRACE_STEPS,
) -> RouteResult:
    """Uniform-cost search (Dijkstra): expand the cheapest route so far; optimal.

    ``heuristic`` is accepted for a uniform signature and ignored.
    """
    return _best_first(
        "Uniform-cost",
        G,
        source,
        target,
        None,
        weight,
        uniform_cost_priority,
        fast=True,
        record_trace=record_trace,
        max_trace_steps=max_trace_steps,
    )


def greedy_best_first(
    G: nx.Graph,
    source: Hashable,
    target: Hashable,
    heuristic: Heuristic | None = None,
    weight: str = "weight",
    *,
    record_trace: bool = False,
    max_trace_steps: int = MAX_TRACE_STEPS,
) -> RouteResult:
    """Greedy best-first search: expand the node that looks closest to the goal (f = h).

    Each node is expanded at most once, as in the graph search of AIMA's 3rd
    edition and PathFinding.js: while a node waits on the frontier a cheaper
    route to it replaces its parent, but an expanded node is never reopened
    (f ignores g, so reopening would only chase cheaper routes at the cost
    of expanding a node many times over).
    """
    return _best_first(
        "Greedy best-first",
        G,
        source,
        target,
        heuristic,
        weight,
        greedy_priority,
        reopen=False,
        record_trace=record_trace,
        max_trace_steps=max_trace_steps,
    )


def astar(
    G: nx.Graph,
    source: Hashable,
    target: Hashable,
    heuristic: Heuristic | None = None,
    weight: str = "weight",
    *,
    record_trace: bool = False,
    max_trace_steps: int = MAX_TRACE_STEPS,
) -> RouteResult:
    """A* search (f = g + h): optimal when the heuristic never overestimates.

    >>> from lib.routes.graphs import grid, StraightLine
    >>> G = grid(5, 5, obstacles=0.0)
    >>> astar(G, (0, 0), (4, 4), StraightLine.of(G)).cost
    8.0
    """
    return _best_first(
        "A*",
        G,
        source,
        target,
        heuristic,
        weight,
        astar_priority,
        fast=True,
        record_trace=record_trace,
        max_trace_steps=max_trace_steps,
    )


def weighted_astar(
    G: nx.Graph,
    source: Hashable,
    target: Hashable,
    heuristic: Heuristic | None = None,
    weight: str = "weight",
    *,
    w: float = 1.5,
    record_trace: bool = False,
    max_trace_steps: int = MAX_TRACE_STEPS,
) -> RouteResult:
    """Weighted A* (f = g + w*h, w >= 1): fewer expansions, cost at most w x optimal."""
    if not (w >= 1.0 and math.isfinite(w)):
        raise InputError(f"The weight w of weighted A* must be at least 1, got {w}.")
    return _best_first(
        f"Weighted A* (w={w:g})",
        G,
        source,
        target,
        heuristic,
        weight,
        partial(weighted_astar_priority, w=w),
        w=w,
        fast=True,
        record_trace=record_trace,
        max_trace_steps=max_trace_steps,
    )


def course_bstar(
    G: nx.Graph,
    source: Hashable,
    target: Hashable,
    heuristic: Heuristic | None = None,
    weight: str = "weight",
    *,
    record_trace: bool = False,
    max_trace_steps: int = MAX_TRACE_STEPS,
) -> RouteResult:
    """The course's "B*" (f = g + h(n, goal) + h(start, n)); not Berliner's B*.

    Adding ``h(start, n)`` penalises nodes far from the start, so the priority
    overestimates and the route found can be longer than the optimum.
    """
    return _best_first(
        'Course "B*"',
        G,
        source,
        target,
        heuristic,
        weight,
        course_bstar_priority,
        record_trace=record_trace,
        max_trace_steps=max_trace_steps,
    )


# --------------------------------------------------------------------------- uninformed


def bfs(
    G: nx.Graph,
    source: Hashable,
    target: Hashable,
    heuristic: Heuristic | None = None,
    weight: str = "weight",
    *,
    record_trace: bool = False,
    max_trace_steps: int = MAX_TRACE_STEPS,
) -> RouteResult:
    """Breadth-first search: fewest roads, ignoring their lengths (goal test on generation).

    In the trace, ``f`` is the depth (number of roads) and ``g`` the route length.
    """
    started = time.perf_counter()
    _check_nodes(G, source, target)
    rec = Recorder(record_trace, max_trace_steps)
    if source == target:
        return _trivial("BFS", source, rec, started)
    adj = _neighbours(G)
    parent: dict = {source: None}
    cost = {source: 0.0}
    depth = {source: 0}
    queue = deque([source])  # [push]
    if rec.on:
        rec.add(TraceStep(None, (FrontierEntry(source, 0.0, 0.0, 0.0, None),), part=Part.PUSH))
    expanded, generated, max_frontier = 0, 1, 1
    while queue:
        max_frontier = max(max_frontier, len(queue))
        u = queue.popleft()  # [pop]
        expanded += 1
        pushed = []
        for v, data in adj[u].items():  # [expand]
            if v in parent:
                continue
            parent[v] = u
            cost[v] = cost[u] + data.get(weight, 1)
            depth[v] = depth[u] + 1
            generated += 1
            if rec.on:
                pushed.append(FrontierEntry(v, cost[v], 0.0, float(depth[v]), u))
            if v == target:  # [goal test] (on generation)
                if rec.on:
                    rec.add(TraceStep(u, tuple(pushed), note="goal generated", part=Part.GOAL_TEST))
                path = path_to(parent, v)
                return RouteResult(
                    "BFS",
                    source,
                    target,
                    tuple(path),
                    cost[v],
                    expanded,
                    generated,
                    max(max_frontier, len(queue) + 1),
                    time.perf_counter() - started,
                    tuple(rec.steps),
                    rec.truncated,
                )
            queue.append(v)
        if rec.on:
            rec.add(TraceStep(u, tuple(pushed)))
    raise _no_path(source, target)


def dfs(
    G: nx.Graph,
    source: Hashable,
    target: Hashable,
    heuristic: Heuristic | None = None,
    weight: str = "weight",
    *,
    record_trace: bool = False,
    max_trace_steps: int = MAX_TRACE_STEPS,
) -> RouteResult:
    """Depth-first graph search: follow one road as deep as possible; finds *a* route.

    Neighbours are expanded in the graph's order. In the trace ``f`` is the depth.
    """
    started = time.perf_counter()
    _check_nodes(G, source, target)
    rec = Recorder(record_trace, max_trace_steps)
    if source == target:
        return _trivial("DFS", source, rec, started)
    adj = _neighbours(G)
    parent: dict = {}
    stack: list[tuple[Hashable, Hashable | None, float, int]] = [(source, None, 0.0, 0)]  # [push]
    if rec.on:
        rec.add(TraceStep(None, (FrontierEntry(source, 0.0, 0.0, 0.0, None),), part=Part.PUSH))
    expanded, generated, max_frontier = 0, 1, 1
    while stack:
        max_frontier = max(max_frontier, len(stack))
        u, up, g, d = stack.pop()  # [pop]
        if u in parent:
            continue
        parent[u] = up
        expanded += 1
        if u == target:  # [goal test]
            if rec.on:
                rec.add(TraceStep(u, (), part=Part.GOAL_TEST))
            return RouteResult(
                "DFS",
                source,
                target,
                tuple(path_to(parent, u)),
                g,
                expanded,
                generated,
                max_frontier,
                time.perf_counter() - started,
                tuple(rec.steps),
                rec.truncated,
            )
        pushed = []
        for v, data in reversed(list(adj[u].items())):  # [expand]
            if v in parent:
                continue
            g2 = g + data.get(weight, 1)
            stack.append((v, u, g2, d + 1))
            generated += 1
            if rec.on:
                pushed.append(FrontierEntry(v, g2, 0.0, float(d + 1), u))
        if rec.on:
            rec.add(TraceStep(u, tuple(pushed)))
    raise _no_path(source, target)


# --------------------------------------------------------------------------- IDA*


def ida_star(
    G: nx.Graph,
    source: Hashable,
    target: Hashable,
    heuristic: Heuristic | None = None,
    weight: str = "weight",
    *,
    record_trace: bool = False,
    max_trace_steps: int = MAX_TRACE_STEPS,
    max_expansions: int = MAX_IDA_EXPANSIONS,
) -> RouteResult:
    """Iterative-deepening A*: depth-first searches bounded by f, raising the bound each time.

    Memory stays linear in the path length apart from a per-iteration table
    of the cheapest ``g`` seen at each node, which prunes revisits that are no
    cheaper (plain IDA* on a graph with cycles re-explores exponentially many
    routes). Optimal with an admissible heuristic. Gives up with
    :class:`InputError` after ``max_expansions`` expansions in total.
    """
    started = time.perf_counter()
    _check_nodes(G, source, target)
    rec = Recorder(record_trace, max_trace_steps)
    if source == target:
        return _trivial("IDA*", source, rec, started)
    search = _IdaSearch(G, target, heuristic, weight, rec, max_expansions)
    bound = search.estimate(source)
    while True:
        next_bound = math.inf
        best_g = {source: 0.0}  # the cheapest g seen at each place in this iteration
        on_path: set = set()
        # stack items: (node, g, parent, iterator over its children, or None before expansion)
        stack: list[list] = [[source, 0.0, None, None]]  # [push]
        search.restart(source, bound)
        while stack:
            search.frontier_size(len(stack))
            top = stack[-1]
            u, g, _, children = top
            if children is None:
                if g > best_g.get(u, math.inf):
                    stack.pop()  # a cheaper route to u was found since it was pushed
                    continue
                search.count_expansion()
                if u == target:  # [goal test]
                    search.goal(u)
                    return search.result(source, [item[0] for item in stack], g, started)
                on_path.add(u)
                kids, over = search.children(u, g, bound, on_path, best_g)  # [expand]
                next_bound = min(next_bound, over)
                top[3] = children = iter(kids)
            child = next(children, None)
            if child is None:
                on_path.discard(u)
                stack.pop()
                continue
            _, v, g2, _ = child
            stack.append([v, g2, u, None])
        if next_bound == math.inf:
            raise _no_path(source, target)
        bound = next_bound


class _IdaSearch:
    """What IDA* keeps across its iterations: counts, each place's estimate, the trace.

    It also lists a place's children within the bound (:meth:`children`), so
    that :func:`ida_star` reads as the algorithm.
    """

    def __init__(
        self,
        G: nx.Graph,
        target: Hashable,
        heuristic: Heuristic | None,
        weight: str,
        recorder: Recorder,
        max_expansions: int,
    ) -> None:
        self.adj = _neighbours(G)
        self.target, self.heuristic, self.weight = target, heuristic, weight
        self.recorder, self.max_expansions = recorder, max_expansions
        self.known: dict = {}  # each place's estimate
        self.expanded, self.generated, self.max_frontier, self.iterations = 0, 0, 1, 0

    def estimate(self, node: Hashable) -> float:
        """``h(node, target)``, computed once per place (0 without a heuristic)."""
        h = self.known.get(node)
        if h is None:
            h = self.heuristic(node, self.target) if self.heuristic is not None else 0.0
            self.known[node] = h
        return h

    def restart(self, source: Hashable, bound: float) -> None:
        """An iteration starts: the start alone on the stack (a reset of the frontier)."""
        self.iterations += 1
        self.generated += 1
        if self.recorder.on:
            h = self.estimate(source)
            self.recorder.add(
                TraceStep(
                    None,
                    (FrontierEntry(source, 0.0, h, h, None),),
                    reset=True,
                    note=f"iteration {self.iterations}: bound f ≤ {bound:.4g}",
                    part=Part.PUSH,
                )
            )

    def frontier_size(self, size: int) -> None:
        """The stack holds ``size`` entries now."""
        self.max_frontier = max(self.max_frontier, size)

    def count_expansion(self) -> None:
        """Count one expansion; give up with :class:`InputError` past the cap."""
        self.expanded += 1
        if self.expanded > self.max_expansions:
            raise InputError(
                f"IDA* gave up after {self.max_expansions:,} expansions; "
                "try a smaller graph or another algorithm."
            )

    def goal(self, node: Hashable) -> None:
        """``node`` passed the goal test."""
        if self.recorder.on:
            self.recorder.add(TraceStep(node, (), part=Part.GOAL_TEST))

    def children(
        self, u: Hashable, g: float, bound: float, on_path: set, best_g: dict
    ) -> tuple[list, float]:
        """``u``'s children within ``bound``, cheapest ``f`` first, and the lowest ``f`` over it.

        A child is ``(f, node, g, h)``; it is skipped when it is on the current
        path or reached no cheaper than before in this iteration.
        """
        kids = []
        over = math.inf
        for v, data in self.adj[u].items():
            if v in on_path:
                continue
            g2 = g + data.get(self.weight, 1)
            hv = self.estimate(v)
            f = g2 + hv
            if f > bound:
                over = min(over, f)
                continue
            if g2 >= best_g.get(v, math.inf):
                continue
            best_g[v] = g2
            kids.append((f, v, g2, hv))
        kids.sort(key=lambda item: item[0])
        self.generated += len(kids)
        if self.recorder.on:
            entries = tuple(FrontierEntry(v, g2, hv, f, u) for f, v, g2, hv in kids)
            self.recorder.add(TraceStep(u, entries))
        return kids, over

    def result(self, source: Hashable, path: list, cost: float, started: float) -> RouteResult:
        """The route found, with the counts of every iteration."""
        return RouteResult(
            "IDA*", source, self.target, tuple(path), cost, self.expanded, self.generated,
            self.max_frontier, time.perf_counter() - started, tuple(self.recorder.steps),
            self.recorder.truncated, notes=f"{self.iterations} iterations",
        )  # fmt: skip


# --------------------------------------------------------------------------- bidirectional


def bidirectional_uniform_cost(
    G: nx.Graph,
    source: Hashable,
    target: Hashable,
    heuristic: Heuristic | None = None,
    weight: str = "weight",
    *,
    record_trace: bool = False,
    max_trace_steps: int = MAX_TRACE_STEPS,
) -> RouteResult:
    """Bidirectional uniform-cost search: Dijkstra from both ends until they provably meet.

    Expands on the side with the smaller frontier key and stops when the two
    smallest keys add up to at least the best meeting cost found. Optimal.
    ``heuristic`` is accepted for a uniform signature and ignored.
    """
    started = time.perf_counter()
    _check_nodes(G, source, target)
    rec = Recorder(record_trace, max_trace_steps)
    if source == target:
        return _trivial("Bidirectional UCS", source, rec, started)
    sides = ("forward", "backward")
    adj = (_neighbours(G), _neighbours(G, backward=True))
    best = ({source: 0.0}, {target: 0.0})
    parent: tuple[dict, dict] = ({source: None}, {target: None})
    done: tuple[set, set] = (set(), set())
    heaps: tuple[list, list] = ([(0.0, 0, source)], [(0.0, 0, target)])  # [push]
    if rec.on:
        rec.add(
            TraceStep(
                None,
                (
                    FrontierEntry(source, 0.0, 0.0, 0.0, None, "forward"),
                    FrontierEntry(target, 0.0, 0.0, 0.0, None, "backward"),
                ),
                part=Part.PUSH,
            )
        )
    tie = 0
    expanded, generated, max_frontier = 0, 2, 2
    mu, meet = math.inf, None
    while heaps[0] and heaps[1]:
        max_frontier = max(max_frontier, len(heaps[0]) + len(heaps[1]))
        if heaps[0][0][0] + heaps[1][0][0] >= mu:
            break
        s = 0 if heaps[0][0][0] <= heaps[1][0][0] else 1
        g, _, u = heappop(heaps[s])  # [pop]
        if u in done[s] or g > best[s][u]:
            continue
        done[s].add(u)
        expanded += 1
        pushed = []
        other = best[1 - s]
        for v, data in adj[s][u].items():  # [expand]
            g2 = g + data.get(weight, 1)
            if g2 < best[s].get(v, math.inf):
                best[s][v] = g2
                parent[s][v] = u
                tie += 1
                heappush(heaps[s], (g2, tie, v))
                generated += 1
                if rec.on:
                    pushed.append(FrontierEntry(v, g2, 0.0, g2, u, sides[s]))
            if v in other and best[s][v] + other[v] < mu:
                mu, meet = best[s][v] + other[v], v
        if rec.on:
            rec.add(TraceStep(u, tuple(pushed), side=sides[s]))
    if meet is None:
        raise _no_path(source, target)
    forward = path_to(parent[0], meet)
    backward = path_to(parent[1], meet)[::-1]
    path = forward + backward[1:]
    return RouteResult(
        "Bidirectional UCS",
        source,
        target,
        tuple(path),
        _path_cost(G, path, weight),
        expanded,
        generated,
        max_frontier,
        time.perf_counter() - started,
        tuple(rec.steps),
        rec.truncated,
    )


# --------------------------------------------------------------------------- registry


@dataclass(frozen=True)
class AlgorithmInfo:
    """How the page presents an algorithm."""

    description: str
    uses_heuristic: bool
    optimal: str  # is the route found guaranteed shortest? GUARANTEED, IF_ADMISSIBLE or NOT_...


ALGORITHMS: dict[str, Callable[..., RouteResult]] = {
    "BFS": bfs,
    "DFS": dfs,
    "Uniform-cost": uniform_cost,
    "Greedy best-first": greedy_best_first,
    "A*": astar,
    "Weighted A*": weighted_astar,
    "IDA*": ida_star,
    "Bidirectional UCS": bidirectional_uniform_cost,
    'Course "B*"': course_bstar,
}

#: The shortest-route guarantees (wording for the page's table of algorithms).
GUARANTEED, IF_ADMISSIBLE, NOT_GUARANTEED = "yes", "if h is admissible", "not guaranteed"

INFO: dict[str, AlgorithmInfo] = {
    "BFS": AlgorithmInfo("Breadth-first: fewest roads, ignores lengths.", False, NOT_GUARANTEED),
    "DFS": AlgorithmInfo("Depth-first: dives down one road at a time.", False, NOT_GUARANTEED),
    "Uniform-cost": AlgorithmInfo("Dijkstra: cheapest route so far first.", False, GUARANTEED),
    "Greedy best-first": AlgorithmInfo(
        "Goes where h looks smallest (f = h).", True, NOT_GUARANTEED
    ),
    "A*": AlgorithmInfo("f = g + h.", True, IF_ADMISSIBLE),
    "Weighted A*": AlgorithmInfo(
        "f = g + w·h, w ≥ 1: faster, ≤ w × optimal.", True, NOT_GUARANTEED
    ),
    "IDA*": AlgorithmInfo("Depth-first with a rising f bound.", True, IF_ADMISSIBLE),
    "Bidirectional UCS": AlgorithmInfo("Dijkstra from both ends.", False, GUARANTEED),
    'Course "B*"': AlgorithmInfo(
        "The course's variant, f = g + h(n, goal) + h(start, n); not Berliner's B*.",
        True,
        NOT_GUARANTEED,
    ),
}


def run(
    name: str,
    G: nx.Graph,
    source: Hashable,
    target: Hashable,
    heuristic: Heuristic | None = None,
    *,
    weight: str = "weight",
    w: float = 1.5,
    record_trace: bool = False,
    max_trace_steps: int = MAX_TRACE_STEPS,
    max_expansions: int = MAX_IDA_EXPANSIONS,
) -> RouteResult:
    """Run the algorithm registered as ``name`` (passing ``w`` / ``max_expansions`` where used)."""
    if name not in ALGORITHMS:
        raise InputError(f"Unknown algorithm {name!r}; choose one of {', '.join(ALGORITHMS)}.")
    extra: dict = {}
    if name == "Weighted A*":
        extra["w"] = w
    if name == "IDA*":
        extra["max_expansions"] = max_expansions
    return ALGORITHMS[name](
        G,
        source,
        target,
        heuristic,
        weight,
        record_trace=record_trace,
        max_trace_steps=max_trace_steps,
        **extra,
    )
