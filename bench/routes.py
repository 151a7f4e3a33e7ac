"""Benchmark: our A* against ``networkx.astar_path`` on the same queries, in the same run.

Graphs: a 300x300 grid with 25 % random obstacles (4-connected) and a
100,000-node random geometric graph (average degree about 10), both from
:mod:`lib.routes.graphs`. Every query is run by every contender with the same
heuristic values; costs must agree.

Contenders, per query:

- ``networkx``: ``nx.astar_path(G, s, t, heuristic=h)``.
- ``indexed``: our :func:`~lib.routes.search.astar` on the graph as
  :mod:`lib.routes.graphs` builds it, with its search index
  (:mod:`lib.routes.compiled`): any query on a generated map, the first one
  included. What the index adds to building the graph is printed. The first
  query with a heuristic object also indexes its positions (read into lists
  once per heuristic): that time is measured apart and added to the first
  query's.
- ``no index``: our astar on a graph without an index (``G.__networkx_cache__``
  emptied first, as a change to the graph does): the first query on a graph
  built elsewhere. It searches networkx's dicts, as networkx does; from the
  second query on, such a graph is indexed (``prepare`` line: what that costs;
  the index is lazy, each node's roads are read on its first expansion, so
  the queries that follow pay for reading the nodes they expand:
  ``python -m bench.route_kernel_history --prepare`` times both) and searched
  as ``indexed``.

Timing: each query is repeated ``--repeats`` times, the contenders
interleaved in a rotating order so that load spikes hit all of them; the
median of the repeats is kept, both wall time (``perf_counter``) and CPU
time (``process_time``; the machine is shared). The target (at most 0.7x
networkx's time, same cost) is per contender: the table gives the ratio of
the summed per-query medians (wall and CPU) and, per query, the median and
worst ratio (the worst is a short query, where fixed costs weigh most).
``ratio <= 0.7?`` says yes when both the wall and the CPU ratios of the
totals are at most 0.7.

Also printed: nodes expanded by A* against uniform-cost search (Dijkstra) on
the same queries.

A graph built elsewhere with a heuristic of the user's own (printed first,
:func:`compare_user_graph`): ``networkx.grid_2d_graph(300, 300)`` with a
quarter of its places removed (no weights: every road counts 1) and a plain
Python Manhattan function; 6 queries, each the best of 3 CPU times,
our :func:`~lib.routes.search.astar` alternated with
``networkx.astar_path_length``. The graph keeps its index between queries,
as a user's graph does; what :func:`~lib.routes.compiled.prepare` costs to
index it is printed beside, against one networkx query.

Run: ``python -m bench.routes`` (``--quick`` for a smaller, faster run;
``--user-graph`` for the user's graph alone).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Hashable
from functools import partial

import networkx as nx

from lib.routes.compiled import CACHE_KEY, prepare
from lib.routes.graphs import Manhattan, StraightLine, grid, random_geometric
from lib.routes.search import astar, uniform_cost

TARGET = 0.7
#: Contenders in table order (see the module docstring).
CONTENDERS = ("networkx", "indexed", "no index")


def _largest_component(G: nx.Graph) -> list[Hashable]:
    return sorted(max(nx.connected_components(G), key=len), key=str)


def _queries(G: nx.Graph, count: int, seed: int) -> list[tuple[Hashable, Hashable]]:
    nodes = _largest_component(G)
    rng = random.Random(seed)
    return [tuple(rng.sample(nodes, 2)) for _ in range(count)]


def _timed(function: Callable[[], object]) -> tuple[float, float, object]:
    """``(wall seconds, CPU seconds, value)`` of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    value = function()
    return time.perf_counter() - wall, time.process_time() - cpu, value


def _indexed(G: nx.Graph, heuristic, source: Hashable, target: Hashable) -> Callable[[], object]:
    """Set up a query on ``G`` with the generator's index alone in its cache."""
    G.__networkx_cache__.clear()
    G.__networkx_cache__[CACHE_KEY] = G.graph["bench_index"]
    return lambda: astar(G, source, target, heuristic)


def _no_index(G: nx.Graph, heuristic, source: Hashable, target: Hashable) -> Callable[[], object]:
    """Set up a query on ``G`` with nothing cached on it (a graph built elsewhere)."""
    G.__networkx_cache__.clear()  # what networkx does when the graph changes
    return lambda: astar(G, source, target, heuristic)


def _networkx(G: nx.Graph, heuristic, source: Hashable, target: Hashable) -> Callable[[], object]:
    return lambda: nx.astar_path(G, source, target, heuristic=heuristic)


SETUP = {"networkx": _networkx, "indexed": _indexed, "no index": _no_index}


def compare(
    label: str, G: nx.Graph, heuristic, queries: list[tuple[Hashable, Hashable]], repeats: int
) -> dict[str, float]:
    """Time the contenders per query (medians of interleaved repeats); check equal costs.

    ``G`` must come from a generator with its index. Returns each contender's
    ratio of total wall time to networkx's.
    """
    G.graph["bench_index"] = G.__networkx_cache__[CACHE_KEY]  # the generator's index
    compiled = G.graph["bench_index"]["compiled"]["weight"]
    positions, _, _ = _timed(lambda: compiled.coordinates(dict(heuristic.pos)))
    compiled.coordinates(heuristic.pos)  # kept, as after the heuristic's first query
    wall: dict[str, list[float]] = {name: [] for name in CONTENDERS}  # per-query medians
    cpu: dict[str, list[float]] = {name: [] for name in CONTENDERS}
    expanded_astar = expanded_dijkstra = 0
    for q, (source, target) in enumerate(queries):
        samples: dict[str, tuple[list[float], list[float]]] = {n: ([], []) for n in CONTENDERS}
        results: dict[str, object] = {}
        for r in range(repeats):
            shift = (q + r) % len(CONTENDERS)  # rotate who goes first, so load spikes hit all
            for name in CONTENDERS[shift:] + CONTENDERS[:shift]:
                w, c, results[name] = _timed(SETUP[name](G, heuristic, source, target))
                samples[name][0].append(w)
                samples[name][1].append(c)
        for name in CONTENDERS:
            wall[name].append(statistics.median(samples[name][0]))
            cpu[name].append(statistics.median(samples[name][1]))
        if q == 0:
            wall["indexed"][0] += positions  # the heuristic's first query indexes its positions
            cpu["indexed"][0] += positions
        theirs = nx.path_weight(G, results["networkx"], "weight")
        ours = [results[name] for name in CONTENDERS[1:]]
        for name, result in zip(CONTENDERS[1:], ours, strict=True):
            if not math.isclose(result.cost, theirs, rel_tol=1e-9, abs_tol=1e-9):
                raise AssertionError(f"{label} {name}: cost {result.cost} != networkx {theirs}")
        if len({(result.path, result.expanded) for result in ours}) != 1:
            raise AssertionError(f"{label}: the indexed search differs from the plain one")
        expanded_astar += ours[0].expanded
        expanded_dijkstra += uniform_cost(G, source, target).expanded

    print(f"{label}: {len(queries)} queries, medians of {repeats} interleaved repeats")
    print(
        f"  {'':<10}{'wall':>11}{'CPU':>11}{'ratio':>7}{'CPU ratio':>10}"
        f"{'per query: median':>19}{'worst':>9}   ratio <= {TARGET}?"
    )
    ratios: dict[str, float] = {}
    for name in CONTENDERS:
        total_wall, total_cpu = sum(wall[name]), sum(cpu[name])
        line = f"  {name:<10}{total_wall * 1000:8.1f} ms{total_cpu * 1000:8.1f} ms"
        if name != "networkx":
            ratio = total_wall / sum(wall["networkx"])
            cpu_ratio = total_cpu / sum(cpu["networkx"])
            per_query = [o / t for o, t in zip(wall[name], wall["networkx"], strict=True)]
            line += (
                f"{ratio:7.2f}{cpu_ratio:10.2f}{statistics.median(per_query):19.2f}"
                f"{max(per_query):9.2f}   {'yes' if max(ratio, cpu_ratio) <= TARGET else 'no'}"
            )
            ratios[name] = ratio
        print(line)
    G.__networkx_cache__.clear()
    build_wall, build_cpu, _ = _timed(lambda: prepare(G))
    G.__networkx_cache__[CACHE_KEY] = G.graph.pop("bench_index")  # G as generated again
    print(f"  indexing the heuristic's positions (first query, counted): {positions * 1000:.1f} ms")
    print(
        f"  prepare (index a graph built elsewhere, on its second query; lazy): "
        f"{build_wall * 1000:.1f} ms wall, {build_cpu * 1000:.1f} ms CPU"
    )
    print(
        f"  nodes expanded: A* {expanded_astar:,}  Dijkstra {expanded_dijkstra:,}  "
        f"({expanded_astar / max(1, expanded_dijkstra):.1%} of Dijkstra's)"
    )
    return ratios


def _manhattan(u: tuple, v: tuple) -> float:
    """A heuristic as a user writes it: a plain Python function of two grid cells."""
    return abs(u[0] - v[0]) + abs(u[1] - v[1])


def _best_cpu(function: Callable[[], object], store: list[float]) -> object:
    """Call ``function``, keep the lowest CPU time in ``store[0]``; return its value."""
    _, cpu, value = _timed(function)
    store[0] = min(store[0], cpu)
    return value


def compare_user_graph(side: int, queries: int, repeats: int, seed: int) -> float:
    """Our astar against ``networkx.astar_path_length`` on a graph built elsewhere.

    Returns our total CPU time over networkx's (each query the best of ``repeats``).
    """
    G = nx.grid_2d_graph(side, side)
    rng = random.Random(seed)
    G.remove_nodes_from(rng.sample(sorted(G), side * side // 4))
    pairs = _queries(G, queries, seed)
    ours_total = theirs_total = 0.0
    for q, (source, target) in enumerate(pairs):
        ours, theirs = [math.inf], [math.inf]
        run_ours = partial(_best_cpu, partial(astar, G, source, target, _manhattan), ours)
        run_theirs = partial(
            _best_cpu,
            partial(nx.astar_path_length, G, source, target, heuristic=_manhattan),
            theirs,
        )
        for r in range(repeats):
            if (q + r) % 2:  # alternate who goes first
                length, found = run_theirs(), run_ours()
            else:
                found, length = run_ours(), run_theirs()
            if found.cost != length:
                raise AssertionError(f"user's graph: cost {found.cost} != networkx {length}")
        ours_total += ours[0]
        theirs_total += theirs[0]
    prepared = [math.inf]
    for _ in range(repeats):
        G.__networkx_cache__.clear()
        _best_cpu(lambda: prepare(G), prepared)
    ratio = ours_total / theirs_total
    print(
        f"user's graph: networkx {side}x{side} grid, a quarter of the places removed, "
        f"a plain Python heuristic; {queries} queries, best of {repeats} CPU, alternated"
    )
    print(f"  networkx.astar_path_length {theirs_total * 1000:8.1f} ms CPU (reference)")
    print(
        f"  astar                      {ours_total * 1000:8.1f} ms CPU   ratio {ratio:.2f}"
        f"   ratio <= {TARGET}? {'yes' if ratio <= TARGET else 'no'}"
    )
    print(
        f"  prepare (lazy index)       {prepared[0] * 1000:8.1f} ms CPU   "
        f"{prepared[0] / (theirs_total / queries):.2f} of one networkx query"
    )
    return ratio


def _build(label: str, make: Callable[..., nx.Graph]) -> nx.Graph:
    """``make(index=True)``, printing its build time against ``make(index=False)``'s.

    Wall and CPU time: on a shared machine one wall figure can be off by a second.
    """
    plain, plain_cpu, G = _timed(lambda: make(index=False))
    del G
    indexed, indexed_cpu, G = _timed(lambda: make(index=True))
    print(
        f"{label} (built in {plain:.2f} s; {indexed:.2f} s with its search index, "
        f"+{(indexed - plain) * 1000:.0f} ms; CPU {plain_cpu:.2f} s, {indexed_cpu:.2f} s, "
        f"+{(indexed_cpu - plain_cpu) * 1000:.0f} ms)"
    )
    return G


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller graphs, fewer queries")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--queries", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--user-graph", action="store_true", help="the user's graph alone")
    args = parser.parse_args()
    side, n = (100, 20_000) if args.quick else (300, 100_000)

    compare_user_graph(side, 6, args.repeats, args.seed)
    if args.user_graph:
        return

    G = _build(
        f"grid {side}x{side}, 25 % obstacles",
        lambda index: grid(side, side, obstacles=0.25, seed=args.seed, index=index),
    )
    print(f"  {G.number_of_nodes():,} cells, {G.number_of_edges():,} moves")
    corner = (
        [((0, 0), (side - 1, side - 1))] if nx.has_path(G, (0, 0), (side - 1, side - 1)) else []
    )
    queries = corner + _queries(G, args.queries - len(corner), args.seed)
    compare("grid, Manhattan heuristic", G, Manhattan.of(G), queries, args.repeats)
    compare("grid, straight-line heuristic", G, StraightLine.of(G), queries, args.repeats)
    del G

    radius = math.sqrt(10.0 / (math.pi * n))  # average degree about 10
    G = _build(
        f"random geometric graph: {n:,} nodes, radius {radius:.4f}",
        lambda index: random_geometric(n, radius=radius, seed=args.seed, index=index),
    )
    print(f"  {G.number_of_edges():,} edges")
    queries = _queries(G, args.queries, args.seed)
    compare("random geometric, straight-line heuristic", G, StraightLine.of(G), queries,
            args.repeats)  # fmt: skip


if __name__ == "__main__":
    main()
