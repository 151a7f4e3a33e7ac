"""Benchmark: our A* against ``networkx.astar_path`` on the same queries, in the same run.

Graphs: a 300x300 grid with 25 % random obstacles (4-connected) and a
100,000-node random geometric graph. Every query is run by both
implementations with the *same heuristic object*; costs must agree. Each
query is timed ``--repeats`` times alternating the two, and the fastest time
of each is kept (the machine is shared, so the minimum is the least noisy
estimate). The target is a total time ratio of at most 0.7.

Also printed: nodes expanded by A* against uniform-cost search (Dijkstra) on
the same queries.

Run: ``python -m bench.routes`` (``--quick`` for a smaller, faster run).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Hashable

import networkx as nx

from lib.routes.graphs import Manhattan, StraightLine, grid, random_geometric
from lib.routes.search import astar, uniform_cost


def _largest_component(G: nx.Graph) -> list[Hashable]:
    return sorted(max(nx.connected_components(G), key=len), key=str)


def _queries(G: nx.Graph, count: int, seed: int) -> list[tuple[Hashable, Hashable]]:
    nodes = _largest_component(G)
    rng = random.Random(seed)
    return [tuple(rng.sample(nodes, 2)) for _ in range(count)]


def _fastest(function: Callable[[], object], repeats: int) -> tuple[float, object]:
    best, value = math.inf, None
    for _ in range(repeats):
        started = time.perf_counter()
        value = function()
        best = min(best, time.perf_counter() - started)
    return best, value


def compare(
    label: str, G: nx.Graph, heuristic, queries: list[tuple[Hashable, Hashable]], repeats: int
) -> dict[str, float]:
    """Time both implementations per query; check equal costs; count expansions."""
    ours_total = theirs_total = 0.0
    expanded_astar = expanded_dijkstra = 0
    for source, target in queries:
        ours_best = theirs_best = math.inf
        for _ in range(repeats):  # alternate, so that load spikes hit both
            t, ours = _fastest(lambda s=source, g=target: astar(G, s, g, heuristic), 1)
            ours_best = min(ours_best, t)
            t, path = _fastest(
                lambda s=source, g=target: nx.astar_path(G, s, g, heuristic=heuristic), 1
            )
            theirs_best = min(theirs_best, t)
        theirs_cost = nx.path_weight(G, path, "weight")
        if not math.isclose(ours.cost, theirs_cost, rel_tol=1e-9, abs_tol=1e-9):
            raise AssertionError(f"{label}: cost {ours.cost} != networkx {theirs_cost}")
        ours_total += ours_best
        theirs_total += theirs_best
        expanded_astar += ours.expanded
        expanded_dijkstra += uniform_cost(G, source, target).expanded
    ratio = ours_total / theirs_total
    print(
        f"{label:<44} {len(queries):>3} queries  ours {ours_total * 1000:8.1f} ms  "
        f"networkx {theirs_total * 1000:8.1f} ms  ratio {ratio:5.2f}  "
        f"{'(target <= 0.70 met)' if ratio <= 0.7 else '(target <= 0.70 NOT met)'}"
    )
    print(
        f"{'':<44} nodes expanded: A* {expanded_astar:,}  Dijkstra {expanded_dijkstra:,}  "
        f"({expanded_astar / max(1, expanded_dijkstra):.1%} of Dijkstra's)"
    )
    return {
        "ratio": ratio,
        "expanded_astar": expanded_astar,
        "expanded_dijkstra": expanded_dijkstra,
    }


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
