"""The fast path of A*, weighted A* and uniform-cost search: one loop, tested equal to the textbook.

:func:`fast_best_first` is :func:`lib.routes.best_first.best_first_search`
with ``f = g + w * h`` and the same tie-breaking (newest entry first on
equal ``f``), so it returns the same path, cost and expanded / generated /
peak-frontier counts. It is faster because:

- a heuristic of the named kinds (:class:`HeuristicKind`) is computed
  inline from coordinates, with no call per node, and its scale and ``w`` are
  one factor (when that gives the same numbers: ``w`` or the scale is 1); any
  other function is called once per place reached, not once per push;
- neighbours and road lengths come from the graph's search
  index (:mod:`lib.routes.compiled`: integer nodes, one dict of lengths per
  node, read on the node's first expansion when the index is lazy) when it
  has one, else off networkx's dicts;
- the best child of each expansion is held back and merged with the next pop
  by ``heappushpop`` (often it is the next node, and the heap is not touched);
- a node's parent is recorded when it is expanded, not each time it is pushed;
- the cheapest cost so far skips a neighbour before its length is added when
  the neighbour was already reached at most as cheaply as the node itself.

:func:`run_fast` decides whether a query can take this path and prepares its
inputs: the index, or networkx's dicts on a graph's first query when every
road it meets has a weight.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from enum import Enum
from heapq import heappop, heappush, heappushpop

import networkx as nx

from lib.routes.compiled import CompiledGraph, for_query, prepare
from lib.routes.graphs import Manhattan, Octile, StraightLine

#: ``(cost, path, expanded, generated, max_frontier)``, or ``None`` when there is no path.
FastResult = tuple[float, list, int, int, int] | None


class HeuristicKind(Enum):
    """The heuristics the fast path computes inline, from the nodes' coordinates."""

    NONE = "h = 0"
    STRAIGHT_LINE = "straight line"
    MANHATTAN = "Manhattan"
    OCTILE = "octile"
    CALLABLE = "any function"


#: The heuristic classes the fast path recognises (exactly these classes, no subclasses).
KINDS: dict[type, HeuristicKind] = {
    StraightLine: HeuristicKind.STRAIGHT_LINE,
    Manhattan: HeuristicKind.MANHATTAN,
    Octile: HeuristicKind.OCTILE,
}


#: The kinds computed from the nodes' coordinates.
COORDINATE_KINDS = frozenset(KINDS.values())


def kind_of(heuristic: Callable | None) -> HeuristicKind:
    """The kind of ``heuristic``: ``NONE`` for none, an inline kind, else ``CALLABLE``."""
    if heuristic is None:
        return HeuristicKind.NONE
    return KINDS.get(type(heuristic), HeuristicKind.CALLABLE)


@dataclass(frozen=True)
class Estimate:
    """How :func:`fast_best_first` estimates ``h``: ``factor * d``, ``d`` the distance left.

    For the coordinate kinds ``d`` is the kind's distance from ``points[v]``
    (``v``'s ``(x, y)``) to the target's point. For
    :attr:`HeuristicKind.CALLABLE` it is ``function(v, target)``, called once
    per place reached, with ``v`` and the target given as their ``labels``
    when there are labels (the graph's nodes, on an index). ``factor`` is the
    heuristic's scale times ``w`` (see :func:`run_fast`).
    """

    kind: HeuristicKind
    factor: float = 1.0
    points: Sequence | dict = ()
    function: Callable[[Hashable, Hashable], float] | None = None
    labels: Sequence | None = None


def fast_best_first(
    adjacency: Sequence[dict | None] | dict,
    weight: str | None,
    source: Hashable,
    target: Hashable,
    estimate: Estimate,
    size: int = 0,
    fill: Callable[[int], dict] | None = None,
) -> FastResult:
    """Best-first search on ``f = g + h``, ``h`` as :class:`Estimate` says.

    ``adjacency[u]`` maps ``u``'s neighbours to their roads: the road's length
    itself (the index; ``weight`` None) or its edge data, whose ``weight`` key
    holds the length (networkx's dicts). On a lazy index an entry of ``None``
    is read by ``fill(u)``. With nodes ``0..size-1`` (``size`` > 0) the costs
    move from a dict to a list once the search is large enough to pay for one.
    Returns ``(cost, path, expanded, generated, max_frontier)``, or ``None``
    when the target is unreachable.
    """
    kind, factor, points, labels = estimate.kind, estimate.factor, estimate.points, estimate.labels
    straight, no_h = kind is HeuristicKind.STRAIGHT_LINE, kind is HeuristicKind.NONE
    octile, called = kind is HeuristicKind.OCTILE, kind is HeuristicKind.CALLABLE
    gx, gy = (0.0, 0.0) if no_h or called else points[target]
    goal, function = target if labels is None else labels[target], estimate.function
    known: dict = {}  # the estimate of each place reached, for a function heuristic
    hypot, inf, root2m1 = math.hypot, math.inf, math.sqrt(2.0) - 1.0
    push, pop, pushpop = heappush, heappop, heappushpop
    direct = weight is None  # the index holds the lengths themselves
    best: dict | list = defaultdict(math.inf.__float__)  # the cheapest cost so far
    best[source] = 0.0
    switch = max(64, size >> 8) if size else -1  # when best becomes a list (_cost_list)
    parent: dict = {}  # a node's parent, recorded when it is expanded
    heap: list = []
    held: tuple | None = (0.0, 0, 0.0, source, None)  # (f, tie, g, node, parent)
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
            continue  # outdated: a cheaper route to u was pushed since
        parent[u] = p
        expanded += 1
        if expanded == switch:
            best = _cost_list(best, size)
        if u == target:
            return g, _walk_back(parent, u), expanded, generated, max_frontier
        roads = adjacency[u]
        if roads is None:  # a lazy index: u's first expansion reads its roads
            roads = fill(u)
        for v, road in roads.items():
            old = best[v]
            if old <= g:
                continue  # lengths are >= 0: no cheaper this way
            g2 = g + road if direct else g + road[weight]
            if g2 >= old:
                continue
            best[v] = g2
            tie -= 1
            if straight:
                x, y = points[v]
                entry = (g2 + hypot(x - gx, y - gy) * factor, tie, g2, v, u)
            elif no_h:
                entry = (g2, tie, g2, v, u)
            elif called:  # one call per place, on its first reach (as networkx does)
                if old < inf:
                    hv = known[v]
                elif labels is None:
                    hv = known[v] = function(v, goal)
                else:
                    hv = known[v] = function(labels[v], goal)
                entry = (g2 + hv * factor, tie, g2, v, u)
            else:
                x, y = points[v]
                dx, dy = abs(x - gx), abs(y - gy)
                if octile:
                    dx, dy = (dx, dy) if dx > dy else (dy, dx)
                    dy *= root2m1
                entry = (g2 + (dx + dy) * factor, tie, g2, v, u)
            generated += 1
            if held is None:
                held = entry
            elif entry < held:
                push(heap, held)
                held = entry
            else:
                push(heap, entry)
        size_now = len(heap) + (held is not None)
        if size_now > max_frontier:
            max_frontier = size_now


def _cost_list(best: dict, size: int) -> list:
    """The cheapest costs so far as a list over nodes ``0..size-1`` (infinite when unreached).

    Reading a list is cheaper than the dict; the kernel switches after
    ``size / 256`` expansions, when allocating the list costs about as much
    as the expansions so far.
    """
    table = [math.inf] * size
    for node, cost in best.items():
        table[node] = cost
    return table


def _walk_back(parent: dict, node: Hashable) -> list:
    """The route to ``node``, following the parents of expanded nodes back to the start."""
    path = [node]
    while (node := parent[node]) is not None:
        path.append(node)
    return path[::-1]


class NotFast(Exception):
    """This query cannot take the fast path (a scaled heuristic with ``w`` > 1, for example)."""


def run_fast(
    G: nx.Graph,
    source: Hashable,
    target: Hashable,
    heuristic: Callable | None,
    weight: str,
    w: float,
) -> FastResult:
    """:func:`fast_best_first` on ``G`` (its index when it has one, else its dicts).

    Raises :class:`NotFast` when the query needs the general search: a scaled
    heuristic with ``w`` other than 1, or a road without ``weight`` where no
    index can read it as 1 (a graph view, or places without positions). A
    heuristic of no inline kind is called once per place reached.
    """
    kind = kind_of(heuristic)
    called = kind is HeuristicKind.CALLABLE
    scale = 1.0 if called else 0.0 if heuristic is None else heuristic.scale
    if w != 1.0 and scale != 1.0 and kind is not HeuristicKind.NONE:
        # The textbook's f is g + w * (d * scale): one factor w * scale could round differently.
        raise NotFast("a scaled heuristic with w other than 1")
    factor = scale * w
    pos: dict = {} if heuristic is None or called else heuristic.pos
    compiled = for_query(G, weight)
    points = None if compiled is None else _points(compiled, pos, kind)
    if points is not None:
        return _search_index(compiled, points, source, target, heuristic, factor, kind)
    adj = G._adj  # read-only use of networkx's adjacency
    estimate = Estimate(kind, factor, pos, heuristic)
    try:
        return fast_best_first(adj, weight, source, target, estimate)
    except KeyError as error:
        if error.args != (weight,):
            raise
    # A road without the weight (it counts as 1): the index reads it so.
    compiled = prepare(G, weight)
    points = None if compiled is None else _points(compiled, pos, kind)
    if points is None:
        raise NotFast("a road without weight, and no index to read it (a view, or no positions)")
    return _search_index(compiled, points, source, target, heuristic, factor, kind)


def _points(compiled: CompiledGraph, pos: dict, kind: HeuristicKind) -> Sequence | None:
    """The coordinates ``kind`` reads, by index (``None`` if a place has no position)."""
    return compiled.coordinates(pos) if kind in COORDINATE_KINDS else ()


def _search_index(
    compiled: CompiledGraph,
    points: Sequence,
    source: Hashable,
    target: Hashable,
    heuristic: Callable | None,
    factor: float,
    kind: HeuristicKind,
) -> FastResult:
    """:func:`fast_best_first` on ``compiled``, with the path given as the graph's nodes."""
    nodes, index = compiled.nodes, compiled.index
    estimate = Estimate(kind, factor, points, heuristic, nodes)
    found = fast_best_first(
        compiled.edges, None, index[source], index[target], estimate, len(nodes), compiled.fill
    )
    if found is None:
        return None
    return found[0], [nodes[i] for i in found[1]], *found[2:]
