"""All-pairs comparison tables and heuristic checks, against networkx."""

from __future__ import annotations

import math

import networkx as nx
import pytest

from lib.errors import InputError
from lib.routes import compare, graphs, search
from lib.routes.graphs import StraightLine, romania

ROMANIA = romania()
H = StraightLine.of(ROMANIA)


def test_all_pairs_table_against_dijkstra():
    algos = ["A*", "BFS", 'Course "B*"']
    table = compare.all_pairs(ROMANIA, algos, H)
    assert len(table) == 20 * 19 * len(algos)
    assert list(table.columns) == compare.COLUMNS
    lengths = dict(nx.all_pairs_dijkstra_path_length(ROMANIA))
    for row in table.itertuples():
        assert row.optimal_cost == lengths[row.source][row.target]
        assert row.optimal == (row.cost <= row.optimal_cost + 1e-9)
        assert row.excess_pct == pytest.approx(
            100 * (row.cost - row.optimal_cost) / row.optimal_cost
        )
    assert table[table.algorithm == "A*"]["optimal"].all()


def test_unordered_pairs_and_progress():
    calls = []
    table = compare.all_pairs(
        ROMANIA, ["Uniform-cost"], ordered=False, on_progress=lambda d, t: calls.append((d, t))
    )
    assert len(table) == 190
    assert calls[-1] == (190, 190) and len(calls) == 190


def test_summary_counts_optimal_and_suboptimal_pairs():
    table = compare.all_pairs(ROMANIA, ["A*", 'Course "B*"', "Greedy best-first"], H)
    summary = compare.summary(table)
    assert summary.loc["A*", "optimal_share"] == 1.0
    assert summary.loc["A*", "mean_excess_pct"] == 0.0
    for name in summary.index:
        rows = table[table.algorithm == name]
        assert summary.loc[name, "pairs"] == len(rows)
        assert summary.loc[name, "suboptimal_pairs"] == (~rows.optimal).sum()
        assert summary.loc[name, "mean_expanded"] == pytest.approx(rows.expanded.mean())
    bad = compare.suboptimal(table, 'Course "B*"')
    assert len(bad) == summary.loc['Course "B*"', "suboptimal_pairs"] >= 1
    assert (bad.cost > bad.optimal_cost).all()
    assert list(bad.excess_pct) == sorted(bad.excess_pct, reverse=True)
    # fewer expansions than uniform-cost is the point of A*
    ucs = compare.summary(compare.all_pairs(ROMANIA, ["Uniform-cost"]))
    assert summary.loc["A*", "mean_expanded"] < ucs.loc["Uniform-cost", "mean_expanded"]


def test_empty_summary_has_the_columns():
    empty = compare.summary(compare.all_pairs(ROMANIA, ["A*"], pairs=[]))
    assert empty.empty and "optimal_share" in empty.columns


def test_pairs_without_a_route_are_left_out():
    G = ROMANIA.copy()
    G.add_node("Atlantis", pos=(0, 0))
    table = compare.all_pairs(G, ["A*"], StraightLine.of(G), pairs=[("Arad", "Atlantis")])
    assert table.empty


def test_choose_pairs_samples_deterministically():
    G = graphs.random_geometric(100, seed=0)
    a = compare.choose_pairs(G, max_pairs=50, seed=3)
    assert a == compare.choose_pairs(G, max_pairs=50, seed=3)
    assert len(a) == len(set(a)) == 50 and all(s != t for s, t in a)
    assert len(compare.choose_pairs(ROMANIA, ordered=False)) == 190


def test_comparison_size_cap(monkeypatch):
    monkeypatch.setattr(compare, "MAX_SEARCHES", 100)
    with pytest.raises(InputError, match="over the limit of 100 searches"):
        compare.all_pairs(ROMANIA, ["A*"])
    with pytest.raises(InputError, match="Unknown algorithm"):
        compare.all_pairs(ROMANIA, ["Teleport"])
    with pytest.raises(InputError, match="at least one"):
        compare.all_pairs(ROMANIA, [])


def test_check_heuristic_lists_every_overestimate():
    inflated = StraightLine.of(ROMANIA, 1.5)
    report = compare.check_heuristic(ROMANIA, inflated)
    assert not report.admissible and report.goals == 20
    lengths = dict(nx.all_pairs_dijkstra_path_length(ROMANIA))
    expected = {(u, v) for u in ROMANIA for v in ROMANIA if inflated(u, v) > lengths[u][v] + 1e-9}
    assert set(zip(report.admissibility.node, report.admissibility.goal, strict=True)) == expected
    assert (report.admissibility.excess > 0).all()
    assert report.scale == pytest.approx(graphs.admissible_scale(ROMANIA) / 1.5)


def test_check_heuristic_lists_consistency_violations():
    inflated = StraightLine.of(ROMANIA, 1.5)
    report = compare.check_heuristic(ROMANIA, inflated, goals=["Bucharest"])
    for row in report.consistency.itertuples():
        w = ROMANIA[row.u][row.v]["weight"]
        assert row.h_u > w + row.h_v
        assert row.excess == pytest.approx(row.h_u - w - row.h_v)
    assert not report.consistency.empty


def test_check_heuristic_on_romania_map_coordinates_scaled_line_and_book_table():
    raw = compare.check_heuristic(ROMANIA, H)
    assert not raw.admissible and not raw.consistent
    # every violation is real: h exceeds the true cost to that goal
    lengths = dict(nx.all_pairs_dijkstra_path_length(ROMANIA))
    for row in raw.admissibility.itertuples():
        assert row.h > lengths[row.node][row.goal]
    # the tightest pair is Urziceni-Vaslui: 142 km by road, 279.5 in a straight line
    assert raw.scale == pytest.approx(142 / H("Urziceni", "Vaslui"))
    scaled = compare.check_heuristic(ROMANIA, StraightLine.of(ROMANIA, raw.scale))
    assert scaled.admissible and scaled.consistent
    book = compare.check_heuristic(ROMANIA, graphs.bucharest_table())
    assert book.goals == 1 and book.admissible  # other goals are skipped, not failed


def test_check_heuristic_size_cap():
    with pytest.raises(InputError, match="over the limit"):
        compare.check_heuristic(graphs.grid(40, 40, obstacles=0.0), graphs.Manhattan.of(
            graphs.grid(40, 40, obstacles=0.0)))  # fmt: skip


def test_road_checks():
    roads = compare.road_checks(ROMANIA, H)
    assert len(roads) == 23
    for row in roads.itertuples():
        assert row.straight_line == pytest.approx(H(row[1], row.to))
        assert row.excess == pytest.approx(row.straight_line - row.road)
    assert list(roads.excess) == sorted(roads.excess, reverse=True)


def test_trace_tables():
    result = search.astar(ROMANIA, "Arad", "Bucharest", H, record_trace=True)
    steps = compare.trace_table(result.trace)
    assert len(steps) == len(result.trace)
    assert steps.expanded.iloc[-1] == "Bucharest"
    state = search.trace_state(result.trace, 2)
    frontier = compare.frontier_table(state)
    assert list(frontier.f) == sorted(frontier.f)
    assert (frontier.f == frontier.g + frontier.h).all()
    assert math.isclose(frontier.g.min(), min(e.g for e in state.frontier))


def test_every_table_column_has_a_readable_label():
    G = romania()
    h = StraightLine.of(G)
    table = compare.all_pairs(G, ["A*"], h, pairs=[("Arad", "Bucharest")])
    result = search.astar(G, "Arad", "Bucharest", h, record_trace=True)
    state = search.trace_state(result.trace, 1)
    report = compare.check_heuristic(G, h, goals=["Bucharest"])
    tables = [
        table,
        compare.summary(table).reset_index(),
        report.admissibility,
        report.consistency,
        compare.road_checks(G, h),
        compare.frontier_table(state),
        compare.trace_table(result.trace),
    ]
    for frame in tables:
        for column in frame.columns:
            label, _help, _format = compare.COLUMN_LABELS[column]
            assert label and "_" not in label
    assert list(table.columns) == compare.COLUMNS  # the CSV names stay as they are


def test_ida_star_expansion_cap_applies_to_every_search():
    pair = [("Arad", "Bucharest")]
    full = compare.all_pairs(ROMANIA, ["IDA*"], H, pairs=pair)
    expanded = int(full["expanded"].iloc[0])
    assert full["optimal"].all() and expanded > 1
    capped = compare.all_pairs(ROMANIA, ["IDA*"], H, pairs=pair, max_expansions=expanded)
    assert capped["cost"].tolist() == full["cost"].tolist()
    with pytest.raises(InputError, match="gave up"):
        compare.all_pairs(ROMANIA, ["IDA*"], H, pairs=pair, max_expansions=expanded // 2)


def test_route_table_marks_the_shortest_routes_against_dijkstra():
    best = nx.dijkstra_path_length(ROMANIA, "Arad", "Bucharest")
    results = {
        name: search.run(name, ROMANIA, "Arad", "Bucharest", H)
        for name in ("A*", "Greedy best-first", "BFS")
    }
    table = compare.route_table(results, best)
    assert table["algorithm"].tolist() == list(results)
    assert table["cost"].tolist() == [r.cost for r in results.values()]
    assert table["shortest"].tolist() == [r.cost <= best + 1e-9 for r in results.values()]
    assert table["shortest"].tolist() == [True, False, False]
    assert table["roads"].tolist() == [len(r.path) - 1 for r in results.values()]
    assert compare.route_table({}, None).empty


def test_an_algorithm_that_gives_up_is_dropped_from_the_whole_comparison():
    G = graphs.grid(8, 8, obstacles=0.2, seed=2, corridor=True)
    pairs = compare.choose_pairs(G, max_pairs=30, seed=1)
    with pytest.raises(InputError, match="gave up"):
        compare.all_pairs(G, ["A*", "IDA*"], pairs=pairs, max_expansions=20)
    table = compare.all_pairs(G, ["A*", "IDA*"], pairs=pairs, max_expansions=20, drop_failing=True)
    assert set(table["algorithm"]) == {"A*"}
    assert list(table.attrs["dropped"]) == ["IDA*"] and "gave up" in table.attrs["dropped"]["IDA*"]
    linked = [(s, t) for s, t in pairs if nx.has_path(G, s, t)]
    assert len(table) == len(linked)  # A* still compared on every pair with a route
    kept = compare.all_pairs(G, ["A*", "IDA*"], pairs=pairs, drop_failing=True)
    assert kept.attrs["dropped"] == {} and set(kept["algorithm"]) == {"A*", "IDA*"}


def test_all_pairs_leaves_out_a_pair_whose_length_overflows():
    # 1e308 + 1e308 is inf in floating point: A-C has no finite route, A-B and B-C have.
    # (Uploads refuse such lengths; a graph built in code can still have them.)
    G = nx.Graph()
    G.add_weighted_edges_from([("A", "B", 1e308), ("B", "C", 1e308)])
    assert math.isinf(nx.dijkstra_path_length(G, "A", "C"))
    algos = list(search.ALGORITHMS)
    table = compare.all_pairs(G, algos, None)
    finite = {
        (s, t)
        for s, t in compare.choose_pairs(G)
        if math.isfinite(nx.dijkstra_path_length(G, s, t))
    }
    assert set(zip(table.source, table.target, strict=True)) == finite
    assert len(table) == len(finite) * len(algos)
    assert table["optimal"].all()
