"""The search index: built by the generators, read off any graph, kept and dropped safely."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.routes import graphs, search
from lib.routes.compiled import CACHE_KEY, MAX_COMPILED, CompiledGraph, attach, for_query, prepare

FIELDS = ("nodes", "index", "edges")


def _index_of(G: nx.Graph, weight: str = "weight") -> CompiledGraph | None:
    return G.__networkx_cache__.get(CACHE_KEY, {}).get("compiled", {}).get(weight)


def _same(a: CompiledGraph, b: CompiledGraph) -> bool:
    return all(getattr(a, name) == getattr(b, name) for name in FIELDS)


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
