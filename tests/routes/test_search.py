"""Search algorithms against networkx (the oracle), on Romania and on random graphs."""

from __future__ import annotations

import itertools
import math
import random

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.routes import compare, graphs, search
from lib.routes.compiled import CACHE_KEY, prepare
from lib.routes.graphs import StraightLine, admissible_scale, romania
from lib.routes.search import ALGORITHMS, Part, replay, run

OPTIMAL = ["Uniform-cost", "A*", "IDA*", "Bidirectional UCS"]
ROMANIA = romania()
PAIRS = list(itertools.permutations(ROMANIA.nodes, 2))
DIJKSTRA = dict(nx.all_pairs_dijkstra_path_length(ROMANIA))


def assert_real_path(G, result, source, target):
    """The path starts and ends right, uses real roads, and its roads sum to the cost."""
    path = result.path
    assert path[0] == source and path[-1] == target
    assert all(G.has_edge(u, v) for u, v in itertools.pairwise(path))
    assert len(set(path)) == len(path)
    assert result.cost == pytest.approx(nx.path_weight(G, list(path), "weight"))


def assert_trace_consistent(result, source):
    """Every expanded node was on the frontier just before; the goal is expanded or generated."""
    states = list(replay(result.trace))
    assert states[0].current is None
    assert {e.node for e in states[0].frontier} >= {source}
    for before, step in zip(states, result.trace[1:], strict=False):
        if step.reset:
            continue
        if step.current is not None and step.part in (Part.POP, Part.EXPAND):
            keys = {(e.side, e.node) for e in before.frontier}
            assert (step.side, step.current) in keys
    for state in states:
        for entry in state.frontier:
            assert entry.f >= 0 and entry.g >= 0
    seen = {step.current for step in result.trace} | {
        e.node for step in result.trace for e in step.pushed
    }
    assert result.target in seen


# --------------------------------------------------------------------------- Romania


@pytest.mark.parametrize("name", OPTIMAL)
@pytest.mark.parametrize("heuristic", ["straight", "scaled"])
def test_optimal_algorithms_match_dijkstra_on_every_romania_pair(name, heuristic):
    scale = 1.0 if heuristic == "straight" else admissible_scale(ROMANIA)
    h = StraightLine.of(ROMANIA, scale)
    for s, t in PAIRS:
        result = run(name, ROMANIA, s, t, h)
        assert result.cost == pytest.approx(DIJKSTRA[s][t]), (s, t)
        assert_real_path(ROMANIA, result, s, t)


def test_astar_with_the_book_table_finds_the_book_route():
    result = search.astar(ROMANIA, "Arad", "Bucharest", graphs.bucharest_table())
    assert result.path == ("Arad", "Sibiu", "Rimnicu Vilcea", "Pitesti", "Bucharest")
    assert result.cost == 418
    greedy = search.greedy_best_first(ROMANIA, "Arad", "Bucharest", graphs.bucharest_table())
    assert greedy.path == ("Arad", "Sibiu", "Fagaras", "Bucharest") and greedy.cost == 450


def test_bfs_returns_a_fewest_roads_path_on_every_pair():
    hops = dict(nx.all_pairs_shortest_path_length(ROMANIA))
    for s, t in PAIRS:
        result = search.bfs(ROMANIA, s, t)
        assert result.edges == hops[s][t]
        assert_real_path(ROMANIA, result, s, t)


@pytest.mark.parametrize("name", ["DFS", "Greedy best-first", 'Course "B*"', "Weighted A*"])
def test_suboptimal_algorithms_still_return_real_routes(name):
    h = StraightLine.of(ROMANIA)
    for s, t in PAIRS:
        result = run(name, ROMANIA, s, t, h)
        assert_real_path(ROMANIA, result, s, t)
        assert result.cost >= DIJKSTRA[s][t] - 1e-9


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 80), st.integers(0, 400), st.integers(0, 999), st.booleans())
def test_greedy_best_first_expands_each_place_at_most_once(n, extra, seed, with_h):
    G = nx.gnm_random_graph(n, min(extra, n * (n - 1) // 2), seed=seed)
    rng = random.Random(seed)
    for u, v in G.edges:
        G[u][v]["weight"] = rng.randint(1, 100)
    h = StraightLine(nx.random_layout(G, seed=seed)) if with_h else None
    source, target = 0, n - 1
    if not nx.has_path(G, source, target):
        with pytest.raises(nx.NetworkXNoPath):
            search.greedy_best_first(G, source, target, h)
        return
    result = search.greedy_best_first(G, source, target, h, record_trace=True)
    assert result.expanded <= n
    expanded = [step.current for step in result.trace if step.part is Part.POP]
    assert len(expanded) == len(set(expanded)) == result.expanded
    assert_real_path(G, result, source, target)


@pytest.mark.parametrize("w", [1.0, 1.5, 3.0])
def test_weighted_astar_is_within_w_of_optimal(w):
    h = StraightLine.of(ROMANIA, admissible_scale(ROMANIA))
    for s, t in PAIRS:
        result = search.weighted_astar(ROMANIA, s, t, h, w=w)
        assert result.cost <= w * DIJKSTRA[s][t] + 1e-9


def test_course_bstar_priority_adds_the_distance_from_the_start():
    h = StraightLine.of(ROMANIA)
    result = search.course_bstar(ROMANIA, "Sibiu", "Mehadia", h, record_trace=True)
    for step in result.trace[1:]:
        for e in step.pushed:
            assert e.h == pytest.approx(h(e.node, "Mehadia") + h("Sibiu", e.node))
            assert e.f == pytest.approx(e.g + e.h)


def test_course_bstar_is_suboptimal_on_some_romania_pairs_and_astar_is_not():
    h = StraightLine.of(ROMANIA)
    worse = [
        (s, t)
        for s, t in PAIRS
        if search.course_bstar(ROMANIA, s, t, h).cost > DIJKSTRA[s][t] + 1e-9
    ]
    # With the course's map coordinates these are the ordered pairs it gets wrong
    # (the course's own example is Sibiu -> Mehadia); A* is right on each of them.
    assert set(worse) == {("Sibiu", "Mehadia"), ("Lugoj", "Rimnicu Vilcea"), ("Pitesti", "Fagaras")}
    bstar = search.course_bstar(ROMANIA, "Sibiu", "Mehadia", h)
    assert bstar.cost == 439 and nx.dijkstra_path_length(ROMANIA, "Sibiu", "Mehadia") == 421
    for s, t in worse:
        assert search.astar(ROMANIA, s, t, h).cost == DIJKSTRA[s][t]


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_traces_are_consistent_on_romania(name):
    h = StraightLine.of(ROMANIA)
    for s, t in [("Arad", "Bucharest"), ("Neamt", "Timisoara"), ("Eforie", "Giurgiu")]:
        result = run(name, ROMANIA, s, t, h, record_trace=True)
        assert_trace_consistent(result, s)
        plain = run(name, ROMANIA, s, t, h)
        assert plain.trace == () and plain.path == result.path and plain.cost == result.cost


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_unknown_nodes_and_no_path_raise_networkx_exceptions(name):
    G = ROMANIA.copy()
    G.add_edge("Atlantis", "Lemuria", weight=1)
    G.nodes["Atlantis"]["pos"] = (0, 0)
    G.nodes["Lemuria"]["pos"] = (1, 1)
    h = StraightLine.of(G)
    with pytest.raises(nx.NodeNotFound, match="Source Paris"):
        run(name, G, "Paris", "Arad", h)
    with pytest.raises(nx.NodeNotFound, match="Target Paris"):
        run(name, G, "Arad", "Paris", h)
    with pytest.raises(nx.NetworkXNoPath):
        run(name, G, "Arad", "Atlantis", h)


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_start_equal_to_goal_is_a_zero_route(name):
    result = run(name, ROMANIA, "Arad", "Arad", StraightLine.of(ROMANIA), record_trace=True)
    assert result.path == ("Arad",) and result.cost == 0 and result.edges == 0


def test_trace_cap_and_flag():
    result = search.uniform_cost(
        ROMANIA, "Neamt", "Timisoara", record_trace=True, max_trace_steps=5
    )
    assert len(result.trace) == 5 and result.trace_truncated
    with pytest.raises(InputError):
        search.trace_state((), 0)
    state = search.trace_state(result.trace, 99)
    assert state.step == 4


def test_bad_parameters_raise_input_error():
    with pytest.raises(InputError, match="at least 1"):
        search.weighted_astar(ROMANIA, "Arad", "Bucharest", w=0.5)
    with pytest.raises(InputError, match="Unknown algorithm"):
        run("Teleport", ROMANIA, "Arad", "Bucharest")
    with pytest.raises(InputError, match="IDA\\* gave up"):
        search.ida_star(ROMANIA, "Arad", "Neamt", max_expansions=10)


def test_missing_weights_count_as_one_like_networkx():
    G = nx.cycle_graph(7)
    for node in G:
        G.nodes[node]["pos"] = (math.cos(node), math.sin(node))
    for name in ALGORITHMS:
        result = run(name, G, 0, 3)
        assert result.cost == len(result.path) - 1
    assert search.astar(G, 0, 3, StraightLine(dict(G.nodes(data="pos")), 0.0)).cost == 3


# --------------------------------------------------------------------------- random graphs


@st.composite
def weighted_graphs(draw, directed=False):
    n = draw(st.integers(2, 14))
    p = draw(st.floats(0.1, 0.6))
    seed = draw(st.integers(0, 10_000))
    G = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    weights = draw(
        st.lists(st.integers(0, 20), min_size=G.number_of_edges(), max_size=G.number_of_edges())
    )
    for (u, v), w in zip(G.edges, weights, strict=True):
        G[u][v]["weight"] = float(w)
    coords = draw(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), min_size=n, max_size=n))
    for node, xy in zip(G.nodes, coords, strict=True):
        G.nodes[node]["pos"] = (float(xy[0]), float(xy[1]))
    s, t = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
    return G, s, t


def _oracle(G, s, t):
    try:
        return nx.dijkstra_path_length(G, s, t)
    except nx.NetworkXNoPath:
        return None


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weighted_graphs())
def test_random_graphs_optimal_algorithms_agree_with_dijkstra(case):
    G, s, t = case
    best = _oracle(G, s, t)
    h = StraightLine.of(G, admissible_scale(G))
    for name in ALGORITHMS:
        if best is None:
            with pytest.raises(nx.NetworkXNoPath):
                run(name, G, s, t, h)
            continue
        result = run(name, G, s, t, h, record_trace=True)
        assert_real_path(G, result, s, t)
        assert_trace_consistent(result, s)
        assert result.expanded >= 1 and result.generated >= result.expanded - 1
        if name in OPTIMAL:
            assert result.cost == pytest.approx(best), name
        if name == "BFS":
            assert result.edges == nx.shortest_path_length(G, s, t)


@settings(max_examples=60, deadline=None)
@given(weighted_graphs(directed=True))
def test_random_digraphs_follow_edge_directions(case):
    G, s, t = case
    best = _oracle(G, s, t)
    for name in ("Uniform-cost", "Bidirectional UCS", "A*", "IDA*"):
        if best is None:
            with pytest.raises(nx.NetworkXNoPath):
                run(name, G, s, t)
        else:
            result = run(name, G, s, t)
            assert result.cost == pytest.approx(best)
            assert all(G.has_edge(u, v) for u, v in itertools.pairwise(result.path))


def test_astar_reopens_a_closed_node_when_the_heuristic_is_inconsistent():
    """s-a-c-t costs 5, s-c-t costs 6; h(a) = 4 is admissible but not consistent.

    A* closes c via the direct road (f = 3) before a (f = 5) reveals the
    cheaper route to c; without reopening c it would return 6.
    """
    G = nx.Graph()
    G.add_weighted_edges_from([("s", "a", 1), ("a", "c", 1), ("s", "c", 3), ("c", "t", 3)])
    table = {"s": 0, "a": 4, "c": 0, "t": 0}

    def h(u, v):
        return table[u]

    report = compare.check_heuristic(G, h, goals=["t"])
    assert report.admissible and not report.consistent
    result = search.astar(G, "s", "t", h, record_trace=True)
    assert result.cost == nx.dijkstra_path_length(G, "s", "t") == 5
    assert result.path == ("s", "a", "c", "t")
    expanded = [step.current for step in result.trace if step.part is Part.POP]
    assert expanded.count("c") == 2


@settings(max_examples=20, deadline=None)
@given(st.integers(5, 25), st.integers(5, 25), st.integers(0, 999), st.booleans())
def test_grids_astar_with_grid_heuristics_matches_dijkstra(rows, cols, seed, diagonal):
    G = graphs.grid(rows, cols, obstacles=0.3, seed=seed, diagonal=diagonal, corridor=True)
    h = graphs.make_heuristic(G, graphs.heuristic_choices(G)[0])
    goal = (rows - 1, cols - 1)
    result = search.astar(G, (0, 0), goal, h)
    assert result.cost == pytest.approx(nx.dijkstra_path_length(G, (0, 0), goal))
    assert result.expanded <= search.uniform_cost(G, (0, 0), goal).expanded


# --------------------------------------------------------------------------- compiled graphs


def _summary(result):
    return result.path, result.cost, result.expanded, result.generated, result.max_frontier


@settings(max_examples=25, deadline=None)
@given(st.integers(4, 30), st.integers(0, 999), st.booleans(), st.integers(0, 2))
def test_compiled_search_is_the_same_search_as_on_the_graph(side, seed, diagonal, which):
    """Same path, cost, expanded/generated counts and frontier peak, with or without compiling."""
    G = graphs.grid(side, side, obstacles=0.3, seed=seed, diagonal=diagonal, corridor=True)
    h = graphs.make_heuristic(G, graphs.heuristic_choices(G)[which % 2])
    goal = (side - 1, side - 1)
    G.__networkx_cache__.clear()
    plain = [search.astar(G, (0, 0), goal, h), search.uniform_cost(G, goal, (0, 0))]
    compiled = prepare(G)
    assert compiled is not None and compiled.nodes == list(G)
    again = [search.astar(G, (0, 0), goal, h), search.uniform_cost(G, goal, (0, 0))]
    assert [_summary(r) for r in plain] == [_summary(r) for r in again]


def test_random_geometric_graph_compiles_and_matches_networkx():
    G = graphs.random_geometric(400, seed=5, index=False)
    h = StraightLine.of(G)
    nodes = sorted(max(nx.connected_components(G), key=len))
    pairs = list(zip(nodes[::7], nodes[3::11], strict=False))
    first = [search.astar(G, s, t, h) for s, t in pairs]  # compiles from the second query
    assert CACHE_KEY in G.__networkx_cache__
    second = [search.astar(G, s, t, h) for s, t in pairs]
    assert [_summary(r) for r in first] == [_summary(r) for r in second]
    for (s, t), result in zip(pairs, second, strict=True):
        assert result.cost == pytest.approx(nx.astar_path_length(G, s, t, heuristic=h))
        assert_real_path(G, result, s, t)


def test_graphs_with_missing_weights_search_the_same_before_and_after_compiling():
    G = nx.grid_2d_graph(6, 6)
    for i, (u, v) in enumerate(G.edges):
        if i % 3:
            G[u][v]["weight"] = 1.0 + i % 4
    first = search.astar(G, (0, 0), (5, 5))  # nothing cached yet: it indexes the graph
    assert CACHE_KEY in G.__networkx_cache__
    again = search.astar(G, (0, 0), (5, 5))
    textbook = search.astar(G, (0, 0), (5, 5), record_trace=True)
    assert _summary(first) == _summary(again) == _summary(textbook)
    assert first.cost == nx.dijkstra_path_length(G, (0, 0), (5, 5))


def test_compiled_search_with_positions_missing_falls_back_like_the_graph():
    G = nx.path_graph(4)
    pos = {0: (0.0, 0.0), 1: (1.0, 0.0), 2: (2.0, 0.0)}  # node 3 has no position
    h = StraightLine(pos)
    prepare(G)
    assert search.astar(G, 0, 2, h).cost == 2
    with pytest.raises(KeyError):
        search.astar(G, 0, 3, h)
