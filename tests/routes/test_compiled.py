"""The search index: built by the generators, read off any graph, kept and dropped safely."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.routes import graphs, search
from lib.routes.compiled import (
    CACHE_KEY,
    MAX_COMPILED,
    CompiledGraph,
    attach,
    for_query,
    prepare,
)


def _index_of(G: nx.Graph, weight: str = "weight") -> CompiledGraph | None:
    return G.__networkx_cache__.get(CACHE_KEY, {}).get("compiled", {}).get(weight)


def _ordered(edges: list[dict] | None) -> list | None:
    """Each node's roads as a list (dicts compare equal in any order; the search's ties don't)."""
    return None if edges is None else [None if d is None else list(d.items()) for d in edges]


def _same(a: CompiledGraph, b: CompiledGraph) -> bool:
    """Equal nodes, index and roads, in order (a lazy index's roads read in full first)."""
    a.read_all()
    b.read_all()
    return (a.nodes, a.index, _ordered(a.edges)) == (b.nodes, b.index, _ordered(b.edges))


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 25),
    st.integers(1, 25),
    st.sampled_from([0.0, 0.2, 0.5]),
    st.booleans(),
    st.integers(0, 999),
)
def test_grid_index_built_with_the_graph_equals_the_one_read_off_its_dicts(
    rows, cols, obstacles, diagonal, seed
):
    G = graphs.grid(rows, cols, obstacles=obstacles, diagonal=diagonal, seed=seed, corridor=True)
    built = _index_of(G)
    assert built is not None
    assert _same(built, CompiledGraph(G))
    pairs = [pair for edges in built.edges for pair in edges.items()]
    assert all(type(i) is int and type(w) is float for i, w in pairs)


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 600), st.integers(0, 999))
def test_random_graph_index_built_with_the_graph_equals_the_one_read_off_its_dicts(n, seed):
    G = graphs.random_geometric(n, seed=seed)
    assert _same(_index_of(G), CompiledGraph(G))


def test_edge_arrays_give_networkx_adjacency_order_for_any_node_labels():
    nodes = ["d", "a", "c", "b"]
    first, second = np.array([0, 3, 1, 2, 0]), np.array([3, 1, 2, 0, 1])
    weights = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    G = nx.Graph()
    G.add_nodes_from(nodes)
    G.add_weighted_edges_from(
        (nodes[a], nodes[b], w) for a, b, w in zip(first, second, weights, strict=True)
    )
    assert _same(CompiledGraph.from_edge_arrays(nodes, first, second, weights), CompiledGraph(G))


def test_generated_graphs_search_their_index_from_the_first_query():
    G = graphs.grid(30, 30, obstacles=0.2, seed=3)
    h = graphs.StraightLine.of(G)
    built = _index_of(G)
    first = search.astar(G, (0, 0), (29, 29), h)
    assert for_query(G, "weight") is built  # still the generator's, nothing rebuilt
    assert built.coordinates(h.pos) is not None  # the query indexed the heuristic's positions
    assert first.cost == pytest.approx(nx.astar_path_length(G, (0, 0), (29, 29), heuristic=h))
    plain = graphs.grid(30, 30, obstacles=0.2, seed=3, index=False)
    assert CACHE_KEY not in plain.__networkx_cache__
    again = search.astar(plain, (0, 0), (29, 29), h)  # networkx's dicts: the same search
    assert (again.path, again.expanded, again.generated) == (
        first.path,
        first.expanded,
        first.generated,
    )
    assert _index_of(plain) is None  # a single query does not index a graph
    search.astar(plain, (0, 0), (29, 29), h)
    assert _index_of(plain) is not None  # the second does


def test_attach_keeps_one_index_per_weight_and_replaces_it():
    G = nx.path_graph(3)
    nx.set_edge_attributes(G, 1.0, "weight")
    old = prepare(G)
    new = CompiledGraph(G)
    assert attach(G, new) and _index_of(G) is new and old is not new
    assert not attach(G.subgraph([0, 1]), new)  # views are never given one


def test_compiled_graph_is_dropped_when_the_graph_changes():
    G = nx.path_graph(6)
    nx.set_edge_attributes(G, 1.0, "weight")
    prepare(G)
    assert search.astar(G, 0, 5).cost == 5
    G.add_edge(0, 5, weight=1.5)  # networkx empties G.__networkx_cache__
    assert CACHE_KEY not in G.__networkx_cache__
    assert search.astar(G, 0, 5).cost == 1.5
    prepare(G)
    G.remove_edge(0, 5)
    assert search.astar(G, 0, 5).cost == 5
    prepare(G)
    G.remove_node(3)
    with pytest.raises(nx.NetworkXNoPath):
        search.astar(G, 0, 5)
    with pytest.raises(nx.NodeNotFound):
        search.astar(G, 0, 3)


def test_views_and_multigraphs_are_not_compiled():
    G = nx.path_graph(5)
    view = G.subgraph([0, 1, 2])
    assert prepare(view) is None
    search.astar(view, 0, 2)
    search.astar(view, 0, 2)
    assert CACHE_KEY not in view.__networkx_cache__
    G.remove_edge(1, 2)  # the view follows its parent: a cache on it would now be stale
    with pytest.raises(nx.NetworkXNoPath):
        search.astar(view, 0, 2)
    assert prepare(nx.MultiGraph(G)) is None


def test_compiled_graphs_per_graph_are_bounded_and_keyed_by_weight():
    G = nx.Graph()
    G.add_edge("a", "b", weight=1, time=5)
    G.add_edge("b", "c", weight=1, time=5)
    G.add_edge("a", "c", weight=3, time=1)
    for attribute in ("weight", "time", "length", "weight"):
        prepare(G, attribute)
    assert len(G.__networkx_cache__[CACHE_KEY]["compiled"]) <= MAX_COMPILED
    assert search.uniform_cost(G, "a", "c", weight="weight").cost == 2
    assert search.uniform_cost(G, "a", "c", weight="time").cost == 1
    assert search.uniform_cost(G, "a", "c", weight="length").cost == 1  # missing counts as 1


# --------------------------------------------------------------------------- the lazy index


def _summary(result: search.RouteResult) -> tuple:
    return result.path, result.cost, result.expanded, result.generated, result.max_frontier


SEARCHES = (
    lambda G, s, t, h, traced: search.astar(G, s, t, h, record_trace=traced),
    lambda G, s, t, h, traced: search.uniform_cost(G, s, t, record_trace=traced),
    lambda G, s, t, h, traced: search.weighted_astar(G, s, t, h, w=1.5, record_trace=traced),
    lambda G, s, t, h, traced: search.astar(G, s, t, record_trace=traced),
)


def _run_all(G: nx.Graph, queries: list[tuple], h, traced: bool = False) -> list:
    """Each query's summary, or the exception type when there is no path.

    ``traced``: the textbook search (which records the trace) instead of the fast path.
    """
    results = []
    for which, s, t in queries:
        try:
            results.append(_summary(SEARCHES[which](G, s, t, h, traced)))
        except nx.NetworkXNoPath:
            results.append(nx.NetworkXNoPath)
    return results


@settings(max_examples=30, deadline=None)
@given(
    st.integers(1, 1000),
    st.booleans(),
    st.integers(2, 14),
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10**6), st.integers(0, 10**6)),
             min_size=1, max_size=6),
)  # fmt: skip
def test_lazy_index_searches_exactly_as_the_complete_one(seed, random_places, side, picks):
    """Query by query, a lazy index (read off the dicts) = the generator's complete index."""
    if random_places:  # nodes 0..n-1: their own index
        make = lambda index: graphs.random_geometric(side * side, seed=seed, index=index)  # noqa: E731
    else:  # (row, column) nodes: looked up in the index
        make = lambda index: graphs.grid(side, side, obstacles=0.3, seed=seed, index=index)  # noqa: E731
    complete, G = make(True), make(False)
    nodes = list(G)
    queries = [(w, nodes[a % len(nodes)], nodes[b % len(nodes)]) for w, a, b in picks]
    lazy = prepare(G)
    assert lazy.edges == [None] * len(nodes)  # nothing read yet
    h = graphs.StraightLine.of(G)
    assert _run_all(G, queries, h) == _run_all(complete, queries, h)
    assert _index_of(G) is lazy  # searched, not rebuilt
    built = _index_of(complete).edges
    read = [i for i, roads in enumerate(lazy.edges) if roads is not None]
    # what was read is what the generator built, in the same order
    assert all(list(lazy.edges[i].items()) == list(built[i].items()) for i in read)
    results = _run_all(complete, queries, h)
    if nx.NetworkXNoPath not in results:  # (counts are only reported with a path)
        assert len(read) <= sum(r[2] for r in results)  # only expanded nodes are read
    assert _ordered(lazy.read_all()) == _ordered(built)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(2, 8),
    st.integers(2, 8),
    st.sets(st.integers(0, 200), max_size=4),
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10**6), st.integers(0, 10**6)),
             min_size=1, max_size=5),
)  # fmt: skip
def test_lazy_index_with_missing_weights_searches_as_the_textbook(rows, cols, missing, picks):
    """Edges without weight count as 1 on the index too: every query equals the textbook's."""
    G = nx.grid_2d_graph(rows, cols)
    for i, (u, v) in enumerate(G.edges):
        if i not in missing:
            G[u][v]["weight"] = 1.0 + i % 3
    nodes = list(G)
    queries = [(w, nodes[a % len(nodes)], nodes[b % len(nodes)]) for w, a, b in picks]
    textbook = _run_all(G, queries, None, traced=True)
    first = []
    for query in queries:
        G.__networkx_cache__.clear()  # every query a graph's first
        first += _run_all(G, [query], None)
    assert first == textbook
    G.__networkx_cache__.clear()
    lazy = prepare(G)
    assert _run_all(G, queries, None) == textbook
    read = [i for i, roads in enumerate(lazy.edges) if roads is not None]
    assert all(
        list(lazy.edges[i].items())
        == [(lazy.index[v], d.get("weight", 1)) for v, d in G[nodes[i]].items()]
        for i in read
    )
    assert None not in lazy.read_all()


def test_threads_searching_one_lazy_index_get_the_serial_results():
    G = graphs.random_geometric(3000, seed=4, index=False)
    h = graphs.StraightLine.of(G)
    nodes = sorted(G)
    queries = [(i % 4, nodes[i * 37 % 3000], nodes[i * 101 % 3000]) for i in range(24)]
    serial = _run_all(graphs.random_geometric(3000, seed=4), queries, h)
    lazy = prepare(G)
    with ThreadPoolExecutor(4) as pool:
        found = list(pool.map(lambda query: _run_all(G, [query], h)[0], queries))
    assert found == serial
    complete = _index_of(graphs.random_geometric(3000, seed=4))
    assert _index_of(G) is lazy and _ordered(lazy.read_all()) == _ordered(complete.edges)


def test_a_complete_index_reads_nothing():
    G = graphs.grid(5, 5, obstacles=0.0)
    built = _index_of(G)
    assert built.read_all() is built.edges and None not in built.edges
    assert built.fill(7) is built.edges[7]  # nothing read: the generator gave every node its roads


@pytest.mark.parametrize("diagonal", [False, True])
def test_a_grid_walled_everywhere_is_an_empty_graph_with_an_empty_index(diagonal):
    G = graphs.grid_from_terrain(np.zeros((3, 4), np.uint8), diagonal=diagonal)
    assert G.number_of_nodes() == 0 and len(G.graph["obstacles"]) == 12
    empty = CompiledGraph.from_edge_arrays([], np.array([], int), np.array([], int), np.array([]))
    assert _same(empty, CompiledGraph(nx.Graph())) and _same(_index_of(G), empty)
