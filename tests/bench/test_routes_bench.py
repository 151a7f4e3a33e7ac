"""The route benchmark runs end to end on a small graph (its figures come from the real run)."""

from __future__ import annotations

from bench import routes as bench
from lib.routes import graphs
from lib.routes.compiled import CACHE_KEY


def test_compare_times_every_contender_and_leaves_the_graph_as_generated(capsys):
    G = graphs.grid(40, 40, obstacles=0.2, seed=2)
    index = G.__networkx_cache__[CACHE_KEY]
    queries = [((0, 0), (39, 39)), *bench._queries(G, 3, seed=1)]
    ratios = bench.compare("small grid", G, graphs.StraightLine.of(G), queries, repeats=1)
    assert set(ratios) == {"indexed", "no index"}
    assert all(ratio > 0 for ratio in ratios.values())
    assert G.__networkx_cache__[CACHE_KEY] is index
    assert "bench_index" not in G.graph
    printed = capsys.readouterr().out
    assert "nodes expanded: A*" in printed and "ratio <= 0.7?" in printed
