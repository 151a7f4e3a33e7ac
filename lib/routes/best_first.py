"""Best-first search written once, as in the textbook; each algorithm is its priority ``f``.

:func:`best_first_search` is the reference a student reads (AIMA's
BEST-FIRST-SEARCH on a graph). Uniform-cost search, greedy best-first, A*,
weighted A* and the course's "B*" differ only in the priority ``f(n, g)``
that orders the frontier (``g``: the length of the route found to ``n``):

=================  ================================
Uniform-cost       ``f = g``
Greedy best-first  ``f = h(n, goal)``
A*                 ``f = g + h(n, goal)``
Weighted A*        ``f = g + w * h(n, goal)``
Course "B*"        ``f = g + (h(n, goal) + h(start, n))``
=================  ================================

What the search does is reported to a :class:`SearchTracer` (counts, and the
trace steps the page animates), never kept inline. Untraced A* and
uniform-cost queries run :mod:`lib.routes.kernel` instead, the same search
with cheaper bookkeeping; tests prove the two return the same path, cost and
counts. :func:`pseudocode` gives this function's source and the line of each
part (pop, goal test, expand, push, update) for the page's code panel.

>>> from lib.routes.graphs import romania, StraightLine
>>> G, h = romania(), StraightLine.of(romania())
>>> best_first_search(G, "Arad", "Bucharest", astar_priority(h, "Arad", "Bucharest"))[1]
418.0
"""

from __future__ import annotations

import ast
import inspect
import itertools
import textwrap
from collections.abc import Callable, Hashable
from heapq import heappop, heappush

import networkx as nx

from lib.routes.trace import FrontierEntry, Part, Recorder, TraceStep

Heuristic = Callable[[Hashable, Hashable], float]
#: A priority ``f(node, g)``: the frontier entry with the lowest f is expanded first.
Priority = Callable[[Hashable, float], float]


def no_estimate(u: Hashable, v: Hashable) -> float:
    """The heuristic ``h = 0`` (used when no heuristic is given)."""
    return 0.0


# --------------------------------------------------------------------------- priorities


def uniform_cost_priority(heuristic: Heuristic, source: Hashable, target: Hashable) -> Priority:
    """Uniform-cost search (Dijkstra): ``f = g``, the cheapest route so far first."""
    return lambda node, g: g


def greedy_priority(heuristic: Heuristic, source: Hashable, target: Hashable) -> Priority:
    """Greedy best-first search: ``f = h(n, goal)``, whatever looks closest to the goal."""
    return lambda node, g: heuristic(node, target)


def astar_priority(heuristic: Heuristic, source: Hashable, target: Hashable) -> Priority:
    """A*: ``f = g + h(n, goal)``, the estimated length of the whole route through n."""
    return lambda node, g: g + heuristic(node, target)


def weighted_astar_priority(
    heuristic: Heuristic, source: Hashable, target: Hashable, w: float = 1.5
) -> Priority:
    """Weighted A*: ``f = g + w * h(n, goal)``, trusting the estimate ``w`` times more."""
    return lambda node, g: g + w * heuristic(node, target)


def course_bstar_priority(heuristic: Heuristic, source: Hashable, target: Hashable) -> Priority:
    """The course's "B*": ``f = g + (h(n, goal) + h(start, n))``; it can overestimate."""
    return lambda node, g: g + (heuristic(node, target) + heuristic(source, node))


# --------------------------------------------------------------------------- the search


class SearchTracer:
    """What :func:`best_first_search` reports: counts always, trace steps when recording.

    An entry's ``h`` in the trace is ``f(node, 0)``: the part of the priority
    that does not depend on the route so far (``w * h`` for weighted A*,
    ``h(n, goal) + h(start, n)`` for the course's "B*", 0 for uniform-cost).
    """

    def __init__(self, f: Priority, recorder: Recorder | None = None) -> None:
        self.f = f
        self.recorder = recorder if recorder is not None else Recorder(False, 0)
        self.expanded = 0
        self.generated = 0
        self.max_frontier = 0
        self._reached: set = set()

    def push(self, frontier: list, node: Hashable, g: float, parent: Hashable | None) -> None:
        """``node`` was pushed with cost ``g`` (an update if it was reached before)."""
        self.generated += 1
        self.max_frontier = max(self.max_frontier, len(frontier))
        if self.recorder.on:
            part = Part.UPDATE if node in self._reached else Part.PUSH
            self._reached.add(node)
            entry = FrontierEntry(node, g, self.f(node, 0.0), self.f(node, g), parent)
            self.recorder.add(TraceStep(parent, (entry,), part=part))

    def pop(self, node: Hashable) -> None:
        """``node`` was taken off the frontier, to be goal-tested and expanded."""
        self.expanded += 1
        if self.recorder.on:
            self.recorder.add(TraceStep(node, (), part=Part.POP))

    def goal(self, node: Hashable) -> None:
        """``node`` passed the goal test."""
        if self.recorder.on:
            self.recorder.add(TraceStep(node, (), part=Part.GOAL_TEST, note="goal reached"))


def path_to(parent: dict, node: Hashable) -> list:
    """The route to ``node``, following the parents back to the start."""
    path = [node]
    while (node := parent[node]) is not None:
        path.append(node)
    return path[::-1]


def best_first_search(
    G: nx.Graph,
    source: Hashable,
    target: Hashable,
    f: Priority,
    weight: str = "weight",
    *,
    reopen: bool = True,
    tracer: SearchTracer | None = None,
) -> tuple[list, float]:
    """Best-first graph search: expand the frontier entry with the lowest ``f(n, g)`` first.

    Returns ``(path, cost)``; raises :class:`networkx.NetworkXNoPath` when the
    target cannot be reached. A place is pushed again whenever a cheaper
    route to it is found, and the outdated entry is skipped when it comes
    off, so A* stays optimal with an admissible heuristic even if it is not
    consistent. With ``reopen=False`` (greedy search) an expanded place is
    never pushed again. On equal ``f`` the newest entry goes first.
    """
    tracer = tracer if tracer is not None else SearchTracer(f)
    g = {source: 0.0}  # the length of the cheapest route found to each place
    parent = {source: None}
    closed = set()  # the places expanded so far
    newest = itertools.count(0, -1)  # tie-breaker: on equal f, the newest entry first
    frontier = [(f(source, 0.0), next(newest), 0.0, source)]  # [push]
    tracer.push(frontier, source, 0.0, None)
    while frontier:
        _, _, cost, node = heappop(frontier)  # [pop]
        if cost > g[node]:
            continue  # outdated: a cheaper route to node was pushed since
        tracer.pop(node)
        if node == target:  # [goal test]
            tracer.goal(node)
            return path_to(parent, node), cost
        closed.add(node)
        for child, road in G[node].items():  # [expand]
            if child in closed and not reopen:
                continue
            new_cost = cost + road.get(weight, 1)
            if child in g and new_cost >= g[child]:
                continue  # no cheaper than the route already found
            g[child], parent[child] = new_cost, node  # [update]
            heappush(frontier, (f(child, new_cost), next(newest), new_cost, child))  # [push]
            tracer.push(frontier, child, new_cost, node)
    raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")


# --------------------------------------------------------------------------- the code panel


def pseudocode(function: Callable = best_first_search) -> tuple[str, dict[Part, tuple[int, ...]]]:
    """``function``'s source without its docstring, and the 1-based lines of each part.

    The parts are the lines marked ``# [pop]``, ``# [goal test]`` and so on,
    in order (``push`` is marked twice: the start's push, then a child's).
    """
    source = textwrap.dedent(inspect.getsource(function))
    lines = source.splitlines()
    first = ast.parse(source).body[0].body[0]  # type: ignore[attr-defined]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        del lines[first.lineno - 1 : first.end_lineno]  # the docstring
    parts: dict[Part, tuple[int, ...]] = {}
    for number, line in enumerate(lines, start=1):
        for part in Part:
            if f"# [{part.value}]" in line:
                parts[part] = (*parts.get(part, ()), number)
    return "\n".join(lines), parts


def line_of(step: TraceStep, parts: dict[Part, tuple[int, ...]]) -> int | None:
    """The line of :func:`pseudocode` that ``step`` is (``None`` if its part is not marked).

    The first push (of the start, before the loop) is the first ``push`` mark;
    every other push is the last one, inside the loop.
    """
    lines = parts.get(step.part)
    if not lines:
        return None
    return lines[0] if step.part is Part.PUSH and step.current is None else lines[-1]
