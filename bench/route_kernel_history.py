"""Benchmark: today's route kernel against the flat-list (CSR) kernel it replaced, in one run.

Until commit 882cfbc the A* fast path was written twice in ``lib/routes/search.py``:
``_compiled_astar`` on flat lists (``ptr``, ``nbr``, ``wt``, built by that commit's
``lib/routes/compiled.py``) and ``_fast_astar`` on networkx's dicts. They were merged
into one kernel (:func:`lib.routes.kernel.fast_best_first`) on one index (a dict of
neighbours per node). This script reads the old code from git (``git show``), runs both
kernels on the same queries in the same process, interleaved (5 repeats, the order
alternating), and prints the median CPU times and their ratio, per graph and heuristic:

- ``indexed``: both on their own index (built before timing);
- ``dicts``: both on networkx's dicts, every query a graph's first (no index).

Then, on the graphs of :mod:`bench.routes` (300x300 grid, 100,000 places) built without
an index, as a graph built elsewhere is: the old ``CompiledGraph(G)`` (flat lists, every
edge read) against today's :func:`lib.routes.compiled.prepare` (lazy: nodes only, each
node's roads read on its first expansion), 7 repeats interleaved. Because the lazy index
moves that reading into the queries, the totals of index + first query, + second query
and + all five queries follow, old against new (5 repeats; a fresh index each repeat).

Run: ``python -m bench.route_kernel_history`` (needs the git history of this repository;
``--prepare`` for the second part only).
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import networkx as nx

from lib.routes import kernel as new
from lib.routes.compiled import prepare
from lib.routes.graphs import Manhattan, StraightLine, grid, random_geometric

ROOT = Path(__file__).resolve().parents[1]
OLD = "882cfbc"


def _old_source(path: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{OLD}:{path}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def _import(folder: Path, name: str, text: str) -> ModuleType:
    """Import ``text`` as the module ``name`` (written to ``folder``)."""
    file = folder / f"{name}.py"
    file.write_text(text)
    spec = importlib.util.spec_from_file_location(name, file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load_old() -> tuple[ModuleType, ModuleType]:
    """The old ``compiled`` module, and a module of the old kernels (from the old search.py)."""
    source = _old_source("lib/routes/search.py")
    wanted = ("_fast_astar", "_compiled_astar", "_walk_back")
    kernels = "\n\n".join(
        ast.get_source_segment(source, node)
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef) and node.name in wanted
    )
    header = (
        "from __future__ import annotations\nimport math\nfrom collections import defaultdict\n"
        "from collections.abc import Hashable\n"
        "from heapq import heappop, heappush, heappushpop\n"
        "from compiled_old import CompiledGraph\n\n"
    )
    with tempfile.TemporaryDirectory() as folder:
        sys.path.insert(0, folder)
        try:
            compiled = _import(Path(folder), "compiled_old", _old_source("lib/routes/compiled.py"))
            sys.modules["compiled_old"] = compiled
            return compiled, _import(Path(folder), "kernels_old", header + kernels)
        finally:
            sys.path.remove(folder)


KIND = {type(None): 0, StraightLine: 1, Manhattan: 2}


def _run_old(
    old: ModuleType, compiled: object | None, G: nx.Graph, s: object, t: object, h
) -> tuple:
    """The old fast path as its ``astar`` called it: on the old index, else on the dicts."""
    kind = KIND[type(h)]
    pos = h.pos if h is not None else {}
    gx, gy = pos[t] if kind else (0.0, 0.0)
    scale = h.scale if h is not None else 0.0
    h0 = h(s, t) if h is not None else 0.0
    if compiled is not None:
        coords = compiled.coordinates(pos) if kind else None
        return old._compiled_astar(compiled, coords, s, t, gx, gy, scale, h0, kind)
    return old._fast_astar(G._adj, s, t, pos, gx, gy, scale, h0, kind, "weight")


def _queries(G: nx.Graph, k: int, seed: int) -> list[tuple]:
    """``k`` random (start, goal) pairs in ``G``'s largest component."""
    nodes = sorted(max(nx.connected_components(G), key=len), key=str)
    rng = random.Random(seed)
    return [tuple(rng.sample(nodes, 2)) for _ in range(k)]


def _compare(
    old_module: ModuleType,
    old: ModuleType,
    G: nx.Graph,
    h,
    queries,
    indexed: bool,
    repeats: int = 5,
):
    """Median CPU seconds of the old and the new kernel over ``queries`` (same costs)."""
    index = dict(G.__networkx_cache__)  # today's index, as the generator built it
    old_index = old_module.CompiledGraph(G) if indexed else None
    times: dict[str, list[float]] = {"old": [], "new": []}
    costs: dict[str, list[float]] = {}
    for repeat in range(repeats):
        for name in ("old", "new") if repeat % 2 else ("new", "old"):
            started = time.process_time()
            found = []
            for s, t in queries:
                G.__networkx_cache__.clear()  # no index: every query is the graph's first
                if indexed:
                    G.__networkx_cache__.update(index)
                if name == "old":
                    found.append(_run_old(old, old_index, G, s, t, h)[0])
                else:
                    found.append(new.run_fast(G, s, t, h, "weight", 1.0)[0])
            times[name].append(time.process_time() - started)
            costs[name] = found
    G.__networkx_cache__.clear()
    G.__networkx_cache__.update(index)
    assert all(math.isclose(a, b) for a, b in zip(costs["old"], costs["new"], strict=True))
    return statistics.median(times["old"]), statistics.median(times["new"])


def _prepare_times(old_module: ModuleType, G: nx.Graph, repeats: int = 7) -> tuple[float, float]:
    """Median CPU seconds of the old index built off ``G``'s dicts and of today's ``prepare``."""
    times: dict[str, list[float]] = {"old": [], "new": []}
    for repeat in range(repeats):
        for name in ("old", "new") if repeat % 2 else ("new", "old"):
            G.__networkx_cache__.clear()
            started = time.process_time()
            built = old_module.CompiledGraph(G) if name == "old" else prepare(G)
            times[name].append(time.process_time() - started)
            del built
    G.__networkx_cache__.clear()
    return statistics.median(times["old"]), statistics.median(times["new"])


def _first_queries(
    old_module: ModuleType, old: ModuleType, G: nx.Graph, h, queries, repeats: int = 5
) -> dict[str, list[float]]:
    """Median cumulative CPU seconds: index, + each query in turn (a fresh index per repeat)."""
    marks: dict[str, list[list[float]]] = {"old": [], "new": []}
    costs: dict[str, list[float]] = {}
    for repeat in range(repeats):
        for name in ("old", "new") if repeat % 2 else ("new", "old"):
            G.__networkx_cache__.clear()
            started = time.process_time()
            index = old_module.CompiledGraph(G) if name == "old" else prepare(G)
            times, found = [time.process_time() - started], []
            for s, t in queries:
                if name == "old":
                    found.append(_run_old(old, index, G, s, t, h)[0])
                else:
                    found.append(new.run_fast(G, s, t, h, "weight", 1.0)[0])
                times.append(time.process_time() - started)
            marks[name].append(times)
            costs[name] = found
    G.__networkx_cache__.clear()
    assert all(math.isclose(a, b) for a, b in zip(costs["old"], costs["new"], strict=True))
    return {
        name: [statistics.median(at) for at in zip(*runs, strict=True)]
        for name, runs in marks.items()
    }


def _print_prepare(old_module: ModuleType, old: ModuleType) -> None:
    """The index off a graph's dicts, old against new, alone and with its first queries."""
    n = 100_000
    maze = grid(300, 300, obstacles=0.25, seed=1, index=False)
    places = random_geometric(n, radius=math.sqrt(10.0 / (math.pi * n)), seed=1, index=False)
    graphs = [("grid 300x300", maze), ("100,000 places", places)]
    print(f"\nindex read off the dicts  {OLD:>10s} {'today':>10s}  today/{OLD}  (CPU, median of 7)")
    for name, G in graphs:
        before, after = _prepare_times(old_module, G)
        print(f"{name:25s} {before * 1000:7.1f} ms {after * 1000:7.1f} ms  {after / before:.3f}")
    print(f"\nindex + queries (CPU, cumulative, median of 5)  {'index':>8s} {'+1st':>8s} "
          f"{'+2nd':>8s} {'+5':>8s}   ratio +1st +2nd +5")  # fmt: skip
    cases = [
        ("grid 300x300, Manhattan", maze, Manhattan.of(maze)),
        ("grid 300x300, h = 0", maze, None),
        ("100,000 places, straight line", places, StraightLine.of(places)),
        ("100,000 places, h = 0", places, None),
    ]
    for name, G, h in cases:
        found = _first_queries(old_module, old, G, h, _queries(G, 5, 1))
        for who in ("old", "new"):
            label = f"{name}, {OLD if who == 'old' else 'today'}"
            at = [found[who][k] * 1000 for k in (0, 1, 2, 5)]
            line = f"{label:47s} " + " ".join(f"{x:8.1f}" for x in at)
            if who == "new":
                ratios = [found["new"][k] / found["old"][k] for k in (1, 2, 5)]
                line += "   " + " ".join(f"{r:.2f}" for r in ratios)
            print(line, flush=True)


def _print_kernels(old_module: ModuleType, old: ModuleType) -> None:
    """The kernels, old against new, on each graph and heuristic, indexed and on the dicts."""
    maze = grid(200, 200, obstacles=0.25, seed=1)
    places = random_geometric(20_000, seed=1)
    cases = [
        ("grid 200x200, Manhattan", maze, Manhattan.of(maze)),
        ("grid 200x200, straight line", maze, StraightLine.of(maze)),
        ("grid 200x200, h = 0", maze, None),
        ("20,000 places, straight line", places, StraightLine.of(places)),
    ]
    print(f"{'':30s} {'':8s} {OLD:>10s} {'today':>10s}  today/{OLD}  (CPU, 12 queries)")
    for name, G, h in cases:
        queries = _queries(G, 12, 7)
        for indexed in (True, False):
            before, after = _compare(old_module, old, G, h, queries, indexed)
            mode = "indexed" if indexed else "dicts"
            print(
                f"{name:30s} {mode:8s} {before * 1000:7.1f} ms {after * 1000:7.1f} ms"
                f"  {after / before:.3f}",
                flush=True,
            )


def main() -> None:
    """Print old and new CPU times and their ratio for each graph, heuristic and mode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prepare", action="store_true", help="only the index off the dicts")
    args = parser.parse_args()
    old_module, old = _load_old()
    if not args.prepare:
        _print_kernels(old_module, old)
    _print_prepare(old_module, old)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
