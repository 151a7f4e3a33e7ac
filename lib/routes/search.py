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

Untraced A* and uniform-cost queries search the graph's index
(:class:`~lib.routes.compiled.CompiledGraph`: integer-indexed lists kept in
``G.__networkx_cache__``) when it has one: the generators in
:mod:`lib.routes.graphs` build it with the graph, and any other graph gets it
on its second query. It is the same search (same path, cost and counts); only
its bookkeeping is cheaper.

The trace is a list of :class:`TraceStep` deltas (what was expanded, what was
pushed); :func:`replay` turns it into the frontier, explored set and current
node after every step, which is what the page animates. Recording it costs
time and memory, so it is off by default and capped by ``max_trace_steps``.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import defaultdict, deque
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from heapq import heappop, heappush, heappushpop

import networkx as nx

from lib.errors import InputError
from lib.routes.compiled import CompiledGraph, for_query
from lib.routes.graphs import Manhattan, Octile, StraightLine

Heuristic = Callable[[Hashable, Hashable], float]

#: Default cap on recorded trace steps (the animation never needs more).
MAX_TRACE_STEPS = 5_000
#: Default cap on IDA* node expansions, summed over all its iterations.
MAX_IDA_EXPANSIONS = 1_000_000


@dataclass(frozen=True)
class FrontierEntry:
    """A node on the frontier: its cost so far ``g``, estimate ``h`` and priority ``f``.

    ``side`` is ``"forward"`` or ``"backward"`` for bidirectional search, else
    ``""``. For the course's "B*", ``h`` is ``h(n, goal) + h(start, n)``.
    """

    node: Hashable
    g: float
    h: float
    f: float
    parent: Hashable | None
    side: str = ""


@dataclass(frozen=True)
class TraceStep:
    """One step of a search, as a change to the frontier.

    ``current`` is the node taken off the frontier and expanded (``None`` for
    the first step, which only pushes the start, and for an IDA* restart);
    ``pushed`` are the entries added to the frontier or improved by this
    step. ``reset`` (IDA*) clears the frontier and explored set first.
    """

    current: Hashable | None
    pushed: tuple[FrontierEntry, ...]
    side: str = ""
    reset: bool = False
    note: str = ""


@dataclass(frozen=True)
class TraceState:
    """The search as it stands after a step: what :func:`replay` yields."""

    step: int
    current: Hashable | None
    side: str
    frontier: tuple[FrontierEntry, ...]  # sorted by f, then g
    explored: frozenset
    note: str = ""


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


@dataclass
class _Recorder:
    """Collects trace steps up to a cap (a no-op when recording is off)."""

    on: bool
    cap: int
    steps: list[TraceStep] = field(default_factory=list)
    truncated: bool = False

    def add(self, step: TraceStep) -> None:
        if len(self.steps) < self.cap:
            self.steps.append(step)
        else:
            self.truncated = True


# --------------------------------------------------------------------------- helpers


def _check_nodes(G: nx.Graph, source: Hashable, target: Hashable) -> None:
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")


def _no_path(source: Hashable, target: Hashable) -> nx.NetworkXNoPath:
    return nx.NetworkXNoPath(f"Node {target} not reachable from {source}")


def _walk_back(parent: dict, node: Hashable) -> list:
    path = [node]
    while (node := parent[node]) is not None:
        path.append(node)
    path.reverse()
    return path


def _path_cost(G: nx.Graph, path: list, weight: str) -> float:
    return float(sum(G[u][v].get(weight, 1) for u, v in itertools.pairwise(path)))


def _trivial(name: str, source: Hashable, recorder: _Recorder, started: float) -> RouteResult:
    recorder.add(TraceStep(None, (FrontierEntry(source, 0.0, 0.0, 0.0, None),)))
    recorder.add(TraceStep(source, ()))
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
    """Adjacency to follow: successors, or predecessors for a backward search."""
    if backward and G.is_directed():
        return G._pred  # read-only use of networkx's adjacency
    return G._adj


def apply_step(step: TraceStep, frontier: dict, explored: set) -> None:
    """Update ``frontier`` (keyed by ``(side, node)``) and ``explored`` in place with ``step``."""
    if step.reset:
        frontier.clear()
        explored.clear()
    if step.current is not None:
        frontier.pop((step.side, step.current), None)
        explored.add(step.current)
    for entry in step.pushed:
        frontier[(entry.side, entry.node)] = entry


def replay(
    trace: tuple[TraceStep, ...] | list[TraceStep], steps: Iterable[int] | None = None
) -> Iterator[TraceState]:
    """The frontier, explored set and current node after each step of ``trace``.

    Frontier entries are keyed by ``(side, node)``: an improved entry
    replaces the old one, an expanded node leaves the frontier and joins the
    explored set. With ``steps``, only the states after those step indices
    are built (building every state of a long trace costs time quadratic in
    its length).
    """
    wanted = None if steps is None else set(steps)
    frontier: dict[tuple[str, Hashable], FrontierEntry] = {}
    explored: set = set()
    for index, step in enumerate(trace):
        apply_step(step, frontier, explored)
        if wanted is None or index in wanted:
            ordered = tuple(sorted(frontier.values(), key=lambda e: (e.f, -e.g)))
            yield TraceState(
                index, step.current, step.side, ordered, frozenset(explored), step.note
            )


def trace_state(trace: tuple[TraceStep, ...] | list[TraceStep], step: int) -> TraceState:
    """The state after step ``step`` (0-based) of ``trace``."""
    if not trace:
        raise InputError("This search has no recorded trace (record_trace was off).")
    step = max(0, min(step, len(trace) - 1))
    return next(replay(trace[: step + 1], steps=[step]))


# --------------------------------------------------------------------------- best-first family

#: Heuristic classes whose formula the best-first loop computes inline (no call per node).
_INLINE: dict[type, int] = {StraightLine: 1, Manhattan: 2, Octile: 3}


def _estimate(
    heuristic: Heuristic | None,
    source: Hashable,
    target: Hashable,
    h_weight: float,
    start_term: bool,
    node: Hashable,
) -> float:
    """The best-first estimate of ``node``: ``h_weight*h(node, target)`` [``+ h(source, node)``]."""
    if heuristic is None:
        return 0.0
    value = h_weight * heuristic(node, target)
    if start_term:
        value += heuristic(source, node)
    return value


def _best_first(
    name: str,
    G: nx.Graph,
    source: Hashable,
    target: Hashable,
    heuristic: Heuristic | None,
    weight: str,
    *,
    g_weight: float,
    h_weight: float,
    start_term: bool,
    record_trace: bool,
    max_trace_steps: int,
    reopen: bool = True,
) -> RouteResult:
    """Best-first graph search on ``f = g_weight*g + h_weight*h(n, t) [+ h(s, n)]``.

    With ``reopen=False`` a node is expanded at most once (a cheaper route
    found to it later is ignored); otherwise it is reopened then.
    A node is (re-)pushed whenever a cheaper route to it is found, and stale
    heap entries are skipped on removal, so with an admissible heuristic A*
    stays optimal even if the heuristic is inconsistent. Ties on ``f`` go to
    the most recently pushed entry (deeper first), which saves expansions on
    grids. The straight-line heuristic is computed inline.
    """
    started = time.perf_counter()
    _check_nodes(G, source, target)
    rec = _Recorder(record_trace, max_trace_steps)
    if source == target:
        return _trivial(name, source, rec, started)
    adj = _neighbours(G)
    # kind: 0 no heuristic, 1 straight line, 2 Manhattan, 3 octile (all inlined), 4 any callable
    kind = 0
    if heuristic is not None and h_weight != 0:
        kind = _INLINE.get(type(heuristic), 4) if not start_term else 4
    pos: dict = {}
    gx = gy = scale = 0.0
    if kind in (1, 2, 3):
        pos = heuristic.pos
        gx, gy = pos[target]
        scale = heuristic.scale * h_weight
    estimate = partial(_estimate, heuristic, source, target, h_weight, start_term)
    h0 = estimate(source) if kind else 0.0
    if not rec.on and kind in (0, 1, 2, 3) and g_weight == 1.0:
        compiled = for_query(G, weight)
        if compiled is not None and compiled.wt is None:
            compiled = None  # a missing weight: the dict loop hands over to the general loop
        coords = compiled.coordinates(pos) if compiled is not None and kind else None
        try:
            if compiled is not None and (kind == 0 or coords is not None):
                found = _compiled_astar(compiled, coords, source, target, gx, gy, scale, h0, kind)
            else:
                found = _fast_astar(adj, source, target, pos, gx, gy, scale, h0, kind, weight)
        except KeyError as error:  # an edge without ``weight``: take the general loop (weight 1)
            if error.args != (weight,):
                raise
        else:
            if found is None:
                raise _no_path(source, target)
            g, path, expanded, generated, max_frontier = found
            return RouteResult(
                name,
                source,
                target,
                tuple(path),
                float(g),
                expanded,
                generated,
                max_frontier,
                time.perf_counter() - started,
            )
    hcache: dict = {}
    closed: set | None = None if reopen else set()  # expanded nodes, when never reopened
    best = {source: 0.0}
    parent: dict = {source: None}
    heap = [(h0, 0, 0.0, source)]
    tie = 0
    expanded = 0
    generated = 1
    max_frontier = 1
    record = rec.on
    if record:
        rec.add(TraceStep(None, (FrontierEntry(source, 0.0, h0, h0, None),)))
    hypot = math.hypot
    push, pop = heappush, heappop
    root2m1 = math.sqrt(2.0) - 1.0
    while heap:
        if len(heap) > max_frontier:
            max_frontier = len(heap)
        _, _, g, u = pop(heap)
        if g > best[u]:
            continue  # stale entry: a cheaper route to u was found later
        expanded += 1
        if closed is not None:
            closed.add(u)
        if u == target:
            if record:
                rec.add(TraceStep(u, ()))
            path = _walk_back(parent, u)
            return RouteResult(
                name,
                source,
                target,
                tuple(path),
                float(g),
                expanded,
                generated,
                max_frontier,
                time.perf_counter() - started,
                tuple(rec.steps),
                rec.truncated,
            )
        pushed = [] if record else None
        for v, data in adj[u].items():
            if closed is not None and v in closed:
                continue
            g2 = g + data.get(weight, 1)
            old = best.get(v)
            if old is not None and g2 >= old:
                continue
            best[v] = g2
            parent[v] = u
            if kind == 1:
                x, y = pos[v]
                hv = hypot(x - gx, y - gy) * scale
            elif kind == 2:
                x, y = pos[v]
                hv = (abs(x - gx) + abs(y - gy)) * scale
            elif kind == 0:
                hv = 0.0
            elif kind == 3:
                x, y = pos[v]
                dx, dy = abs(x - gx), abs(y - gy)
                hv = (max(dx, dy) + root2m1 * min(dx, dy)) * scale
            else:
                hv = hcache.get(v)
                if hv is None:
                    hv = hcache[v] = estimate(v)
            f = g_weight * g2 + hv if g_weight else hv
            tie -= 1
            push(heap, (f, tie, g2, v))
            generated += 1
            if record:
                pushed.append(FrontierEntry(v, g2, hv, f, u))
        if record:
            rec.add(TraceStep(u, tuple(pushed)))
    raise _no_path(source, target)


def _fast_astar(
    adj: dict,
    source: Hashable,
    target: Hashable,
    pos: dict,
    gx: float,
    gy: float,
    scale: float,
    h0: float,
    kind: int,
    weight: str,
) -> tuple[float, list, int, int, int] | None:
    """The untraced A* / uniform-cost loop on networkx's dicts (a graph's first query).

    ``kind`` picks the inlined heuristic: 0 none, 1 straight line, 2 Manhattan, 3 octile.

    Same search as the general loop, with two savings: the best child of each
    expansion is held back and merged with the next pop by ``heappushpop``
    (often it is the next node, and then the heap is not touched at all), and
    a node's parent is recorded when it is expanded rather than each time it
    is pushed. Returns ``(cost, path, expanded, generated, max_frontier)`` or
    ``None`` when the target is unreachable.
    """
    hypot = math.hypot
    push, pop, pushpop = heappush, heappop, heappushpop
    root2m1 = math.sqrt(2.0) - 1.0
    best = {source: 0.0}
    best_get = best.get
    parent: dict = {}
    heap: list = []
    held = (h0, 0, 0.0, source, None)  # (f, tie, g, node, parent)
    tie = expanded = 0
    generated = max_frontier = 1
    while True:
        if held is not None:
            item = pushpop(heap, held) if heap else held
            held = None
        elif heap:
            item = pop(heap)
        else:
            return None
        _, _, g, u, p = item
        if g > best[u]:
            continue  # stale: a cheaper route to u was pushed later
        parent[u] = p
        expanded += 1
        if u == target:
            return g, _walk_back(parent, u), expanded, generated, max_frontier
        for v, data in adj[u].items():
            old = best_get(v)
            if old is not None:
                if old <= g:
                    continue  # weights are >= 0: no cheaper this way, skip the weight lookup
                g2 = g + data[weight]
                if g2 >= old:
                    continue
            else:
                g2 = g + data[weight]
            best[v] = g2
            tie -= 1
            if kind == 1:
                x, y = pos[v]
                entry = (g2 + hypot(x - gx, y - gy) * scale, tie, g2, v, u)
            elif kind == 0:
                entry = (g2, tie, g2, v, u)
            else:
                x, y = pos[v]
                dx, dy = abs(x - gx), abs(y - gy)
                if kind == 3:  # octile
                    dx, dy = (dx, dy) if dx > dy else (dy, dx)
                    dy *= root2m1
                entry = (g2 + (dx + dy) * scale, tie, g2, v, u)
            generated += 1
            if held is None:
                held = entry
            elif entry < held:
                push(heap, held)
                held = entry
            else:
                push(heap, entry)
        size = len(heap) + (held is not None)
        if size > max_frontier:
            max_frontier = size


def _compiled_astar(
    compiled: CompiledGraph,
    coords: tuple[list, list] | None,
    source: Hashable,
    target: Hashable,
    gx: float,
    gy: float,
    scale: float,
    h0: float,
    kind: int,
) -> tuple[float, list, int, int, int] | None:
    """:func:`_fast_astar` on a :class:`CompiledGraph`: same search, same ties, same result.

    Nodes are list indices: neighbours and weights come from flat lists, the
    cheapest cost so far is a dict for the first ``n / 256`` expansions and
    then a list over the whole graph (so short queries do not pay for a list
    of every node), the parents of expanded nodes a dict, and heap entries
    are ``(f, tie, g, index, parent index)``.
    ``coords`` are the heuristic's positions by index (``None`` for ``kind`` 0).
    """
    nodes, ptr, nbr, wt = compiled.nodes, compiled.ptr, compiled.nbr, compiled.wt
    index = compiled.index
    xs, ys = coords if coords is not None else ((), ())
    s, t = index[source], index[target]
    hypot = math.hypot
    push, pop, pushpop = heappush, heappop, heappushpop
    root2m1 = math.sqrt(2.0) - 1.0
    # Cheapest cost so far: a dict while the search is small, then a list over the whole
    # graph (allocating it costs about as much as n / 256 expansions on the dict).
    n = len(nodes)
    best: dict | list = defaultdict(math.inf.__float__)
    best[s] = 0.0
    switch = max(64, n >> 8)
    parent: dict[int, int] = {}  # the parent when expanded
    heap: list = []
    held: tuple | None = (h0, 0, 0.0, s, -1)
    tie = expanded = 0
    generated = max_frontier = 1
    while True:
        if held is not None:
            item = pushpop(heap, held) if heap else held
            held = None
        elif heap:
            item = pop(heap)
        else:
            return None
        _, _, g, u, p = item
        if g > best[u]:
            continue  # stale: a cheaper route to u was pushed later
        parent[u] = p
        expanded += 1
        if expanded == switch:
            table = [math.inf] * n
            for i, cost in best.items():
                table[i] = cost
            best = table
        if u == t:
            path = [u]
            while (u := parent[u]) >= 0:
                path.append(u)
            return g, [nodes[i] for i in reversed(path)], expanded, generated, max_frontier
        for k in range(ptr[u], ptr[u + 1]):
            v = nbr[k]
            old = best[v]
            if old <= g:
                continue  # weights are >= 0: no cheaper this way
            g2 = g + wt[k]
            if g2 >= old:
                continue
            best[v] = g2
            tie -= 1
            if kind == 1:
                entry = (g2 + hypot(xs[v] - gx, ys[v] - gy) * scale, tie, g2, v, u)
            elif kind == 0:
                entry = (g2, tie, g2, v, u)
            else:
                dx, dy = abs(xs[v] - gx), abs(ys[v] - gy)
                if kind == 3:  # octile
                    dx, dy = (dx, dy) if dx > dy else (dy, dx)
                    dy *= root2m1
                entry = (g2 + (dx + dy) * scale, tie, g2, v, u)
            generated += 1
            if held is None:
                held = entry
            elif entry < held:
                push(heap, held)
                held = entry
            else:
                push(heap, entry)
        size = len(heap) + (held is not None)
        if size > max_frontier:
            max_frontier = size


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
        g_weight=1.0,
        h_weight=0.0,
        start_term=False,
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
        g_weight=0.0,
        h_weight=1.0,
        start_term=False,
        record_trace=record_trace,
        max_trace_steps=max_trace_steps,
        reopen=False,
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
        g_weight=1.0,
        h_weight=1.0,
        start_term=False,
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
        g_weight=1.0,
        h_weight=w,
        start_term=False,
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
        g_weight=1.0,
        h_weight=1.0,
        start_term=True,
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
    rec = _Recorder(record_trace, max_trace_steps)
    if source == target:
        return _trivial("BFS", source, rec, started)
    adj = _neighbours(G)
    parent: dict = {source: None}
    cost = {source: 0.0}
    depth = {source: 0}
    queue = deque([source])
    if rec.on:
        rec.add(TraceStep(None, (FrontierEntry(source, 0.0, 0.0, 0.0, None),)))
    expanded, generated, max_frontier = 0, 1, 1
    while queue:
        max_frontier = max(max_frontier, len(queue))
        u = queue.popleft()
        expanded += 1
        pushed = []
        for v, data in adj[u].items():
            if v in parent:
                continue
            parent[v] = u
            cost[v] = cost[u] + data.get(weight, 1)
            depth[v] = depth[u] + 1
            generated += 1
            if rec.on:
                pushed.append(FrontierEntry(v, cost[v], 0.0, float(depth[v]), u))
            if v == target:
                if rec.on:
                    rec.add(TraceStep(u, tuple(pushed), note="goal generated"))
                path = _walk_back(parent, v)
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
    rec = _Recorder(record_trace, max_trace_steps)
    if source == target:
        return _trivial("DFS", source, rec, started)
    adj = _neighbours(G)
    parent: dict = {}
    stack: list[tuple[Hashable, Hashable | None, float, int]] = [(source, None, 0.0, 0)]
    if rec.on:
        rec.add(TraceStep(None, (FrontierEntry(source, 0.0, 0.0, 0.0, None),)))
    expanded, generated, max_frontier = 0, 1, 1
    while stack:
        max_frontier = max(max_frontier, len(stack))
        u, up, g, d = stack.pop()
        if u in parent:
            continue
        parent[u] = up
        expanded += 1
        if u == target:
            if rec.on:
                rec.add(TraceStep(u, ()))
            return RouteResult(
                "DFS",
                source,
                target,
                tuple(_walk_back(parent, u)),
                g,
                expanded,
                generated,
                max_frontier,
                time.perf_counter() - started,
                tuple(rec.steps),
                rec.truncated,
            )
        pushed = []
        for v, data in reversed(list(adj[u].items())):
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
    rec = _Recorder(record_trace, max_trace_steps)
    if source == target:
        return _trivial("IDA*", source, rec, started)
    adj = _neighbours(G)

    def h(node: Hashable) -> float:
        return 0.0 if heuristic is None else heuristic(node, target)

    hcache = {source: h(source)}
    bound = hcache[source]
    expanded, generated, max_frontier, iterations = 0, 0, 1, 0
    while True:
        iterations += 1
        next_bound = math.inf
        best_g = {source: 0.0}
        on_path: set = set()
        # stack items: (node, g, parent, depth-first iterator over neighbours or None)
        stack: list[list] = [[source, 0.0, None, None]]
        generated += 1
        if rec.on:
            entry = FrontierEntry(source, 0.0, hcache[source], hcache[source], None)
            rec.add(
                TraceStep(
                    None,
                    (entry,),
                    reset=True,
                    note=f"iteration {iterations}: bound f ≤ {bound:.4g}",
                )
            )
        while stack:
            max_frontier = max(max_frontier, len(stack))
            top = stack[-1]
            u, g, _, children = top
            if children is None:
                if g > best_g.get(u, math.inf):
                    stack.pop()  # a cheaper route to u was found since it was pushed
                    continue
                expanded += 1
                if expanded > max_expansions:
                    raise InputError(
                        f"IDA* gave up after {max_expansions:,} expansions; "
                        "try a smaller graph or another algorithm."
                    )
                if u == target:
                    if rec.on:
                        rec.add(TraceStep(u, ()))
                    path = [item[0] for item in stack]
                    return RouteResult(
                        "IDA*",
                        source,
                        target,
                        tuple(path),
                        g,
                        expanded,
                        generated,
                        max_frontier,
                        time.perf_counter() - started,
                        tuple(rec.steps),
                        rec.truncated,
                        notes=f"{iterations} iterations",
                    )
                on_path.add(u)
                kids = []
                for v, data in adj[u].items():
                    if v in on_path:
                        continue
                    g2 = g + data.get(weight, 1)
                    hv = hcache.get(v)
                    if hv is None:
                        hv = hcache[v] = h(v)
                    f = g2 + hv
                    if f > bound:
                        next_bound = min(next_bound, f)
                        continue
                    if g2 >= best_g.get(v, math.inf):
                        continue
                    best_g[v] = g2
                    kids.append((f, v, g2, hv))
                kids.sort(key=lambda item: item[0])
                generated += len(kids)
                if rec.on:
                    rec.add(
                        TraceStep(u, tuple(FrontierEntry(v, g2, hv, f, u) for f, v, g2, hv in kids))
                    )
                top[3] = iter(kids)
                children = top[3]
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
    rec = _Recorder(record_trace, max_trace_steps)
    if source == target:
        return _trivial("Bidirectional UCS", source, rec, started)
    sides = ("forward", "backward")
    adj = (_neighbours(G), _neighbours(G, backward=True))
    best = ({source: 0.0}, {target: 0.0})
    parent: tuple[dict, dict] = ({source: None}, {target: None})
    done: tuple[set, set] = (set(), set())
    heaps: tuple[list, list] = ([(0.0, 0, source)], [(0.0, 0, target)])
    if rec.on:
        rec.add(
            TraceStep(
                None,
                (
                    FrontierEntry(source, 0.0, 0.0, 0.0, None, "forward"),
                    FrontierEntry(target, 0.0, 0.0, 0.0, None, "backward"),
                ),
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
        g, _, u = heappop(heaps[s])
        if u in done[s] or g > best[s][u]:
            continue
        done[s].add(u)
        expanded += 1
        pushed = []
        other = best[1 - s]
        for v, data in adj[s][u].items():
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
    forward = _walk_back(parent[0], meet)
    backward = _walk_back(parent[1], meet)[::-1]
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
    optimal: str  # when the route found is guaranteed shortest


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

INFO: dict[str, AlgorithmInfo] = {
    "BFS": AlgorithmInfo("Breadth-first: fewest roads, ignores lengths.", False, "never"),
    "DFS": AlgorithmInfo("Depth-first: dives down one road at a time.", False, "never"),
    "Uniform-cost": AlgorithmInfo("Dijkstra: cheapest route so far first.", False, "always"),
    "Greedy best-first": AlgorithmInfo("Goes where h looks smallest (f = h).", True, "never"),
    "A*": AlgorithmInfo("f = g + h.", True, "if h is admissible"),
    "Weighted A*": AlgorithmInfo("f = g + w·h, w ≥ 1: faster, ≤ w × optimal.", True, "never"),
    "IDA*": AlgorithmInfo("Depth-first with a rising f bound.", True, "if h is admissible"),
    "Bidirectional UCS": AlgorithmInfo("Dijkstra from both ends.", False, "always"),
    'Course "B*"': AlgorithmInfo(
        "The course's variant, f = g + h(n, goal) + h(start, n); not Berliner's B*.",
        True,
        "never",
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
