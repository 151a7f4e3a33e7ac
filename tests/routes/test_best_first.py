"""The textbook best-first search, its fast kernel (tested equal to it) and its code panel."""

from __future__ import annotations

import math
import random

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lib.routes import graphs, search
from lib.routes.best_first import (
    SearchTracer,
    astar_priority,
    best_first_search,
    line_of,
    no_estimate,
    pseudocode,
    uniform_cost_priority,
    weighted_astar_priority,
)
from lib.routes.compiled import prepare
from lib.routes.kernel import HeuristicKind, NotFast, kind_of, run_fast
from lib.routes.trace import Part, Recorder, replay


def plain_straight_line(G: nx.Graph, scale: float = 1.0):
    """A plain Python function heuristic, as a user writes one: the kernel calls it."""
    pos = nx.get_node_attributes(G, "pos")

    def straight_line(u, v):
        (x, y), (gx, gy) = pos[u], pos[v]
        return math.hypot(x - gx, y - gy) * scale

    return straight_line


HEURISTICS = {
    HeuristicKind.NONE: lambda G, scale: None,
    HeuristicKind.CALLABLE: plain_straight_line,
    HeuristicKind.STRAIGHT_LINE: graphs.StraightLine.of,
    HeuristicKind.MANHATTAN: graphs.Manhattan.of,
    HeuristicKind.OCTILE: graphs.Octile.of,
}


def readable(G, source, target, heuristic, w):
    """``best_first_search`` with ``f = g + w h``: (path, cost, expanded, generated, peak)."""
    h = no_estimate if heuristic is None else heuristic
    f = (
        astar_priority(h, source, target)
        if w == 1.0
        else weighted_astar_priority(h, source, target, w=w)
    )
    tracer = SearchTracer(f)
    try:
        path, cost = best_first_search(G, source, target, f, tracer=tracer)
    except nx.NetworkXNoPath:
        return None
    return cost, path, tracer.expanded, tracer.generated, tracer.max_frontier


@st.composite
def weighted_graphs(draw):
    """Small random graphs with integer lengths and grid-like coordinates: many equal f."""
    n = draw(st.integers(2, 40))
    p = draw(st.floats(0.05, 0.5))
    G = nx.gnp_random_graph(n, p, seed=draw(st.integers(0, 10_000)))
    lengths = st.integers(0, 12).map(float)
    for u, v in G.edges:
        G[u][v]["weight"] = draw(lengths)
    coords = st.tuples(st.integers(0, 6), st.integers(0, 6))
    for node in G:
        G.nodes[node]["pos"] = tuple(map(float, draw(coords)))
    return G, draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    weighted_graphs(),
    st.sampled_from(list(HeuristicKind)),
    st.sampled_from([1.0, 1.5, 3.0]),
    st.sampled_from([1.0, 0.7]),
    st.booleans(),
)
def test_kernel_is_the_textbook_search_with_cheaper_bookkeeping(case, kind, w, scale, indexed):
    """Same path, cost, expanded, generated and peak frontier, on the index or the dicts."""
    G, s, t = case
    heuristic = HEURISTICS[kind](G, scale)
    assert kind_of(heuristic) is kind
    if indexed:
        prepare(G)
    expected = readable(G, s, t, heuristic, w)
    if kind not in (HeuristicKind.NONE, HeuristicKind.CALLABLE) and scale != 1.0 and w != 1.0:
        with pytest.raises(NotFast):  # w * scale as one factor could round differently
            run_fast(G, s, t, heuristic, "weight", w)
        if expected is not None:  # the public search takes the textbook's loop then
            public = search.weighted_astar(G, s, t, heuristic, w=w)
            assert (public.cost, list(public.path), public.expanded) == expected[:3]
        return
    fast = run_fast(G, s, t, heuristic, "weight", w)
    assert fast == expected
    if expected is not None and w == 1.0:  # the oracle: admissible heuristics give the optimum
        optimum = nx.dijkstra_path_length(G, s, t)
        if kind is HeuristicKind.NONE:
            assert expected[0] == pytest.approx(optimum)
        scaled = graphs.StraightLine.of(G, graphs.admissible_scale(G))
        assert run_fast(G, s, t, scaled, "weight", 1.0)[0] == pytest.approx(optimum)


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 30), st.integers(0, 999), st.booleans(), st.booleans())
def test_kernel_equals_the_textbook_search_on_grids(side, seed, diagonal, uniform):
    """Grids have many equal f (ties) and searches long enough to switch to the cost list."""
    G = graphs.grid(side, side, obstacles=0.25, seed=seed, diagonal=diagonal, corridor=True)
    h = None if uniform else graphs.make_heuristic(G, graphs.heuristic_choices(G)[0])
    goal = (side - 1, side - 1)
    fast = run_fast(G, (0, 0), goal, h, "weight", 1.0)
    assert fast == readable(G, (0, 0), goal, h, 1.0)
    assert fast[0] == pytest.approx(nx.dijkstra_path_length(G, (0, 0), goal))
    public = search.uniform_cost(G, goal, (0, 0)) if uniform else search.astar(G, (0, 0), goal, h)
    traced = (
        search.uniform_cost(G, goal, (0, 0), record_trace=True)
        if uniform
        else search.astar(G, (0, 0), goal, h, record_trace=True)
    )
    fields = ("path", "cost", "expanded", "generated", "max_frontier")
    assert [getattr(public, f) for f in fields] == [getattr(traced, f) for f in fields]


def test_missing_weights_count_as_one_and_are_not_fast_on_a_view():
    H = nx.path_graph(4)
    H[0][1]["weight"] = 2.0
    assert run_fast(H, 0, 3, None, "weight", 1.0)[:2] == (4.0, [0, 1, 2, 3])  # as the textbook
    assert search.astar(H, 0, 3, record_trace=True).cost == 4.0
    with pytest.raises(NotFast):  # a view keeps no index, where a missing weight is read as 1
        run_fast(H.subgraph([0, 1, 2, 3]), 0, 3, None, "weight", 1.0)


def test_a_table_heuristic_is_called_once_per_place_reached():
    G, table = graphs.romania(), graphs.bucharest_table()
    calls = []

    def counted(u, v):
        calls.append(u)
        return table(u, v)

    fast = run_fast(G, "Arad", "Bucharest", counted, "weight", 1.0)
    assert fast == readable(G, "Arad", "Bucharest", table, 1.0)
    traced = search.astar(G, "Arad", "Bucharest", table, record_trace=True)
    reached = {entry.node for step in traced.trace for entry in step.pushed} - {"Arad"}
    assert sorted(calls) == sorted(reached)  # each place once, though some were pushed twice
    assert len(reached) < fast[3] - 1


@settings(max_examples=20, deadline=None)
@given(st.integers(4, 25), st.integers(0, 999), st.booleans())
def test_a_plain_function_on_a_graph_built_elsewhere_equals_networkx(side, seed, weighted):
    """A user's graph (networkx grid, a quarter of the places removed) and Python heuristic."""
    G = nx.grid_2d_graph(side, side)
    rng = random.Random(seed)
    G.remove_nodes_from(rng.sample(sorted(G), side * side // 4))
    if weighted:
        for u, v in G.edges:
            G[u][v]["weight"] = rng.choice([1.0, 1.5, 2.0])

    def manhattan(u, v):
        return abs(u[0] - v[0]) + abs(u[1] - v[1])

    component = sorted(max(nx.connected_components(G), key=len))
    queries = [tuple(rng.sample(component, 2)) for _ in range(3)] if len(component) > 1 else []
    for s, t in queries * 2:  # the first query reads networkx's dicts, the second the index
        fast = search.astar(G, s, t, manhattan)
        traced = search.astar(G, s, t, manhattan, record_trace=True)
        assert fast.cost == pytest.approx(nx.astar_path_length(G, s, t, heuristic=manhattan))
        assert (fast.path, fast.cost, fast.expanded, fast.generated, fast.max_frontier) == (
            traced.path,
            traced.cost,
            traced.expanded,
            traced.generated,
            traced.max_frontier,
        )


def test_the_trace_records_each_part_of_the_pseudocode_in_order():
    G, h = graphs.romania(), graphs.StraightLine.of(graphs.romania())
    result = search.astar(G, "Arad", "Bucharest", h, record_trace=True)
    trace = result.trace
    assert trace[0].part is Part.PUSH and trace[0].current is None
    assert trace[-1].part is Part.GOAL_TEST and trace[-1].current == "Bucharest"
    pops = [step.current for step in trace if step.part is Part.POP]
    assert len(pops) == result.expanded
    assert sum(len(step.pushed) for step in trace) == result.generated
    states = list(replay(trace))
    expanding = None
    for before, step in zip(states, trace[1:], strict=False):
        if step.part is Part.POP:
            assert step.current in {e.node for e in before.frontier}  # taken off the frontier
            expanding = step.current
        elif step.part in (Part.PUSH, Part.UPDATE):
            assert step.current == expanding and len(step.pushed) == 1
            (entry,) = step.pushed
            assert entry.parent == expanding
            assert entry.f == pytest.approx(entry.g + h(entry.node, "Bucharest"))
            assert (step.part is Part.UPDATE) == (entry.node in {e.node for e in before.frontier})


def test_an_update_is_a_cheaper_route_to_a_place_already_reached():
    G = nx.Graph()
    G.add_weighted_edges_from([("s", "a", 1), ("s", "b", 5), ("a", "b", 1), ("b", "t", 1)])
    result = search.uniform_cost(G, "s", "t", record_trace=True)
    updates = [step.pushed[0] for step in result.trace if step.part is Part.UPDATE]
    assert [(e.node, e.g, e.parent) for e in updates] == [("b", 2.0, "a")]


def test_pseudocode_marks_the_line_of_each_part():
    source, parts = pseudocode()
    lines = source.splitlines()
    assert lines[0].startswith("def best_first_search(")
    assert '"""' not in source  # the docstring is left out of the panel
    assert set(parts) == set(Part)
    assert "heappop(frontier)" in lines[parts[Part.POP][0] - 1]
    assert "== target" in lines[parts[Part.GOAL_TEST][0] - 1]
    assert ".items()" in lines[parts[Part.EXPAND][0] - 1]
    assert "parent[child]" in lines[parts[Part.UPDATE][0] - 1]
    first_push, loop_push = parts[Part.PUSH]
    assert "frontier = [" in lines[first_push - 1]
    assert "heappush(frontier" in lines[loop_push - 1]
    assert len(lines) <= 40


def test_every_step_of_a_best_first_trace_has_a_line():
    _, parts = pseudocode()
    G = graphs.grid(8, 8, obstacles=0.2, seed=2)
    recorder = Recorder(True, 10_000)
    f = uniform_cost_priority(no_estimate, (0, 0), (7, 7))
    best_first_search(G, (0, 0), (7, 7), f, tracer=SearchTracer(f, recorder))
    lines = [line_of(step, parts) for step in recorder.steps]
    assert None not in lines
    assert lines[0] == parts[Part.PUSH][0] and lines[-1] == parts[Part.GOAL_TEST][0]
    assert set(lines) == {
        parts[Part.PUSH][0],
        parts[Part.PUSH][1],
        parts[Part.POP][0],
        parts[Part.GOAL_TEST][0],
        *[parts[Part.UPDATE][0]] * any(step.part is Part.UPDATE for step in recorder.steps),
    }
