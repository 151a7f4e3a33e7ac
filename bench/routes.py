"""Benchmark: our A* against ``networkx.astar_path`` on the same queries, in the same run.

Graphs: a 300x300 grid with 25 % random obstacles (4-connected) and a
100,000-node random geometric graph (average degree about 10). Every query is
run by every contender with the *same heuristic object*; costs must agree.

Contenders, per query:

- ``networkx``: ``nx.astar_path(G, s, t, heuristic=h)``.
- ``cold``: our :func:`~lib.routes.search.astar` on a graph with nothing
  cached (``G.__networkx_cache__`` emptied first, as a change to the graph
  does): the first query on a map. It searches networkx's dicts directly.
- ``warm``: the graph already compiled (repeated queries on one map).
- ``2nd``: a query that compiles the graph first, which :func:`astar` does by
  itself on the second query of a graph: the median time of
  :func:`~lib.routes.search.prepare` (one pass over every edge, plus indexing
  the heuristic's positions), measured apart, plus the ``warm`` time.

Timing: each query is repeated ``--repeats`` times, the contenders
interleaved in a rotating order so that load spikes hit all of them; the
median of the repeats is kept, both wall time (``perf_counter``) and CPU
time (``process_time``; the machine is shared). The target (at most 0.7x
networkx's time, same cost) is for a single query of a given kind (cold,
2nd, warm): the table gives the ratio of the summed per-query medians (wall
and CPU) and, per query, the median and worst ratio (the worst is a short
query, where fixed costs weigh most). ``ratio <= 0.7?`` says yes when both
the wall and the CPU ratios of the totals are at most 0.7.

Also printed: nodes expanded by A* against uniform-cost search (Dijkstra) on
the same queries.

Run: ``python -m bench.routes`` (``--quick`` for a smaller, faster run).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Hashable

import networkx as nx

from lib.routes.graphs import Manhattan, StraightLine, grid, random_geometric
from lib.routes.search import astar, prepare, uniform_cost

TARGET = 0.7


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


def _without_cache(G: nx.Graph, function: Callable[[], object]) -> Callable[[], object]:
    """``function`` run on ``G`` as if nothing were cached on it (cache put back afterwards)."""

    def run() -> object:
        saved = dict(G.__networkx_cache__)
        G.__networkx_cache__.clear()  # what networkx does when the graph changes
        try:
            return function()
        finally:
            G.__networkx_cache__.update(saved)

    return run


def _prepare_seconds(G: nx.Graph, heuristic, repeats: int) -> tuple[float, float]:
    """Median ``(wall, CPU)`` seconds to compile ``G`` and index ``heuristic``'s positions."""
    walls, cpus = [], []
    for _ in range(repeats):
        G.__networkx_cache__.clear()
        wall, cpu, _ = _timed(lambda: prepare(G).coordinates(heuristic.pos))
        walls.append(wall)
        cpus.append(cpu)
    return statistics.median(walls), statistics.median(cpus)


def compare(
    label: str, G: nx.Graph, heuristic, queries: list[tuple[Hashable, Hashable]], repeats: int
) -> dict[str, float]:
    """Time the contenders per query (medians of interleaved repeats); check equal costs.

    Returns the ratio of the totals to networkx's for ``cold``, ``2nd`` and ``warm``.
    """
    build_wall, build_cpu = _prepare_seconds(G, heuristic, repeats)  # leaves G compiled
    names = ("networkx", "cold", "warm")
    wall: dict[str, list[float]] = {name: [] for name in (*names, "2nd")}  # per-query medians
    cpu: dict[str, list[float]] = {name: [] for name in (*names, "2nd")}
    expanded_astar = expanded_dijkstra = 0
    for q, (source, target) in enumerate(queries):
        runs = {
            "networkx": lambda s=source, t=target: nx.astar_path(G, s, t, heuristic=heuristic),
            "cold": _without_cache(G, lambda s=source, t=target: astar(G, s, t, heuristic)),
            "warm": lambda s=source, t=target: astar(G, s, t, heuristic),
        }
        samples: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in names}
        results: dict[str, object] = {}
        for r in range(repeats):
            shift = (q + r) % len(names)  # rotate who goes first, so load spikes hit all
            for name in names[shift:] + names[:shift]:
                w, c, results[name] = _timed(runs[name])
                samples[name][0].append(w)
                samples[name][1].append(c)
        for name in names:
            wall[name].append(statistics.median(samples[name][0]))
            cpu[name].append(statistics.median(samples[name][1]))
        wall["2nd"].append(build_wall + wall["warm"][-1])
        cpu["2nd"].append(build_cpu + cpu["warm"][-1])
        theirs = nx.path_weight(G, results["networkx"], "weight")
        for name in ("cold", "warm"):
            ours = results[name]
            if not math.isclose(ours.cost, theirs, rel_tol=1e-9, abs_tol=1e-9):
                raise AssertionError(f"{label} {name}: cost {ours.cost} != networkx {theirs}")
        cold, warm = results["cold"], results["warm"]
        if (cold.path, cold.expanded) != (warm.path, warm.expanded):
            raise AssertionError(f"{label}: the compiled search differs from the plain one")
        expanded_astar += warm.expanded
        expanded_dijkstra += uniform_cost(G, source, target).expanded

    print(f"{label}: {len(queries)} queries, medians of {repeats} interleaved repeats")
    print(
        f"  {'':<9}{'wall':>11}{'CPU':>11}{'ratio':>7}{'CPU ratio':>10}"
        f"{'per query: median':>19}{'worst':>9}   ratio <= {TARGET}?"
    )
    ratios: dict[str, float] = {}
    for name in ("networkx", "cold", "2nd", "warm"):
        total_wall, total_cpu = sum(wall[name]), sum(cpu[name])
        line = f"  {name:<9}{total_wall * 1000:8.1f} ms{total_cpu * 1000:8.1f} ms"
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
    mean_saved = (sum(wall["networkx"]) - sum(wall["warm"])) / len(queries)
    print(
        f"  prepare (compile the graph, index the positions; once per graph): "
        f"{build_wall * 1000:.1f} ms wall, {build_cpu * 1000:.1f} ms CPU"
        + (f"; repaid after {math.ceil(build_wall / mean_saved)} queries" if mean_saved > 0 else "")
    )
    print(
        f"  nodes expanded: A* {expanded_astar:,}  Dijkstra {expanded_dijkstra:,}  "
        f"({expanded_astar / max(1, expanded_dijkstra):.1%} of Dijkstra's)"
    )
    return ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller graphs, fewer queries")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--queries", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    side, n = (100, 20_000) if args.quick else (300, 100_000)

    started = time.perf_counter()
    G = grid(side, side, obstacles=0.25, seed=args.seed)
    print(
        f"grid {side}x{side}, 25 % obstacles: {G.number_of_nodes():,} cells, "
        f"{G.number_of_edges():,} moves (built in {time.perf_counter() - started:.1f} s)"
    )
    corner = (
        [((0, 0), (side - 1, side - 1))] if nx.has_path(G, (0, 0), (side - 1, side - 1)) else []
    )
    queries = corner + _queries(G, args.queries - len(corner), args.seed)
    compare("grid, Manhattan heuristic", G, Manhattan.of(G), queries, args.repeats)
    compare("grid, straight-line heuristic", G, StraightLine.of(G), queries, args.repeats)
    del G

    radius = math.sqrt(10.0 / (math.pi * n))  # average degree about 10
    started = time.perf_counter()
    G = random_geometric(n, radius=radius, seed=args.seed)
    print(
        f"random geometric graph: {n:,} nodes, {G.number_of_edges():,} edges, radius "
        f"{radius:.4f} (built in {time.perf_counter() - started:.1f} s)"
    )
    queries = _queries(G, args.queries, args.seed)
    compare("random geometric, straight-line heuristic", G, StraightLine.of(G), queries,
            args.repeats)  # fmt: skip


if __name__ == "__main__":
    main()
