"""The search tree drawn beside the step section: the trace's nodes, parents and frontier."""

from __future__ import annotations

import itertools

import pytest

from lib.charts import MIN_FONT
from lib.routes import search, search_tree
from lib.routes.graphs import StraightLine, grid, romania
from lib.routes.trace import replay


def _traced(name: str, G=None, start="Arad", goal="Bucharest"):
    G = romania() if G is None else G
    return search.run(name, G, start, goal, StraightLine.of(G), record_trace=True)


@pytest.mark.parametrize("name", ["BFS", "DFS", "Uniform-cost", "Greedy best-first", "A*", "IDA*"])
def test_nodes_parents_and_frontier_at_every_step_equal_the_trace(name):
    trace = _traced(name).trace
    for state in replay(trace):
        tree = search_tree.build(trace, state.step, goal="Bucharest")
        assert tree.frontier == {(e.side, e.node) for e in state.frontier}
        assert tree.explored == {("", n) for n in state.explored}
        for entry in state.frontier:  # the frontier's parents and values are the tree's
            node = tree.nodes[("", entry.node)]
            assert (node.g, node.h, node.f) == (entry.g, entry.h, entry.f)
            assert node.parent == (None if entry.parent is None else ("", entry.parent))
        # every place reached is on the tree, every parent link is a road of the map
        reached = {e.node for s in trace[: state.step + 1] for e in s.pushed}
        if not any(s.reset for s in trace[1 : state.step + 1]):
            assert {place for _, place in tree.nodes} == reached
        for node in tree.nodes.values():
            if node.parent is not None:
                assert romania().has_edge(node.parent[1], node.place)
                assert node.depth == tree.nodes[node.parent].depth + 1
        current = trace[state.step].current
        assert tree.current == (None if current is None else ("", current))


def test_the_goal_path_is_marked_once_the_goal_test_passes_and_is_the_route_found():
    result = _traced("A*")
    last = len(result.trace) - 1
    assert search_tree.build(result.trace, last - 1, goal="Bucharest").path == ()
    tree = search_tree.build(result.trace, last, goal="Bucharest")
    assert tuple(place for _, place in tree.path) == result.path
    # Bucharest was first reached through Fagaras (450), then more cheaply through Pitesti
    assert tree.nodes[("", "Bucharest")].parent == ("", "Pitesti")
    assert tree.nodes[("", "Bucharest")].g == 418


def test_bfs_marks_the_goal_when_it_is_generated():
    result = _traced("BFS")
    tree = search_tree.build(result.trace, len(result.trace) - 1, goal="Bucharest")
    assert tuple(place for _, place in tree.path) == result.path


def test_bidirectional_search_grows_two_trees():
    trace = _traced("Bidirectional UCS").trace
    tree = search_tree.build(trace, 6)
    roots = {n.key for n in tree.nodes.values() if n.parent is None}
    assert roots == {("forward", "Arad"), ("backward", "Bucharest")}


def test_layout_puts_depth_in_rows_children_in_push_order_and_parents_over_them():
    trace = _traced("BFS").trace
    tree = search_tree.build(trace, len(trace) - 1)
    where = search_tree.layout(tree)
    for key, node in tree.nodes.items():
        assert where[key][1] == -node.depth
        kids = tree.kids(key)
        assert [tree.nodes[k].order for k in kids] == sorted(tree.nodes[k].order for k in kids)
        xs = [where[k][0] for k in kids]
        assert xs == sorted(xs)
        if kids:
            assert where[key][0] == pytest.approx((xs[0] + xs[-1]) / 2)
    rows: dict[float, list[float]] = {}
    for x, y in where.values():
        rows.setdefault(y, []).append(x)
    for xs in rows.values():  # no two nodes of a row on top of each other
        xs.sort()
        assert all(b - a >= 0.5 for a, b in itertools.pairwise(xs))


def test_a_small_tree_is_drawn_whole_with_values_and_readable_text():
    result = _traced("A*")
    tree = search_tree.build(result.trace, len(result.trace) - 1, goal="Bucharest")
    assert search_tree.window(tree) is tree
    fig = search_tree.tree_figure(tree, title="A*")
    texts = [t for trace in fig.data if trace.text for t in trace.text]
    pitesti = tree.nodes[("", "Pitesti")]
    assert f"Pitesti<br>317+{pitesti.h:.4g}={pitesti.f:.4g}" in texts  # g + h = f on the node
    assert all(trace.textfont.size >= MIN_FONT for trace in fig.data if trace.text)
    clickable = {
        c[0] for trace in fig.data if trace.customdata is not None for c in trace.customdata
    }
    assert clickable == {place for _, place in tree.nodes}
    names = {trace.name for trace in fig.data}
    assert {"frontier", "explored", "being expanded", "goal path"} <= names
    ringed = next(trace for trace in fig.data if trace.name == "being expanded")
    assert list(ringed.customdata) == [["Bucharest"]]
    assert not fig.layout.annotations


def test_past_a_few_hundred_nodes_only_the_part_around_the_current_node_is_drawn():
    G = grid(30, 30, obstacles=0.1, seed=4)
    result = search.run("BFS", G, (0, 0), (29, 29), None, record_trace=True)
    step = len(result.trace) * 2 // 3
    tree = search_tree.build(result.trace, step, goal=(29, 29))
    assert len(tree.nodes) > 300
    shown = search_tree.window(tree, max_nodes=120)
    assert len(shown.nodes) <= 120
    assert shown.hidden == len(tree.nodes) - len(shown.nodes)
    focus = tree.current
    node = tree.nodes[focus]
    assert focus in shown.nodes
    rows = {n.depth for n in shown.nodes.values()}
    assert len(rows) <= search_tree.MAX_ROWS and max(rows) - min(rows) < search_tree.MAX_ROWS
    key, above = focus, 0  # its ancestors, up to MAX_ROWS - 3 rows above it
    while key is not None and above <= search_tree.MAX_ROWS - 3:
        assert key in shown.nodes
        key, above = tree.nodes[key].parent, above + 1
    assert key is None or key not in shown.nodes
    siblings = tree.kids(node.parent)
    assert set(siblings) <= shown.nodes.keys()
    assert set(tree.kids(focus)) <= shown.nodes.keys()
    # the frontier kept is the nearest to the current node
    distance = search_tree._distances(tree, focus)
    band = range(min(rows), max(rows) + 1)
    kept = [distance[k] for k in shown.frontier]
    left = [distance[k] for k in tree.frontier - shown.frontier if tree.nodes[k].depth in band]
    assert kept and (not left or max(kept) <= min(left) + 2)
    fig = search_tree.tree_figure(shown)
    assert fig.layout.annotations[0].text == f"{shown.hidden:,} more nodes not shown"


def test_a_small_but_deep_tree_shows_the_rows_around_the_current_node():
    G = grid(8, 8, obstacles=0.0)
    result = search.run("DFS", G, (0, 0), (7, 7), None, record_trace=True)
    tree = search_tree.build(result.trace, len(result.trace) // 2)
    assert len(tree.nodes) <= search_tree.MAX_SHOWN
    assert max(n.depth for n in tree.nodes.values()) >= search_tree.MAX_ROWS
    shown = search_tree.window(tree)
    rows = sorted({n.depth for n in shown.nodes.values()})
    assert rows == list(range(rows[0], rows[0] + len(rows))) and len(rows) <= search_tree.MAX_ROWS
    assert tree.current in shown.nodes and shown.hidden == len(tree.nodes) - len(shown.nodes) > 0
    fig = search_tree.tree_figure(shown)
    assert fig.layout.yaxis.range[1] == -rows[0] + 0.35  # the picture starts at the first row kept
    assert fig.layout.height <= 80 + search_tree.ROW_PX * search_tree.MAX_ROWS


def test_a_deep_depth_first_tree_lays_out_without_recursion():
    G = grid(40, 40, obstacles=0.0)
    result = search.run("DFS", G, (0, 0), (39, 39), None, record_trace=True, max_trace_steps=5000)
    tree = search_tree.build(result.trace, len(result.trace) - 1, goal=(39, 39))
    assert max(n.depth for n in tree.nodes.values()) > 1000
    shown = search_tree.window(tree)
    assert len(shown.nodes) <= search_tree.MAX_SHOWN
    search_tree.tree_figure(shown)


def _labels(fig):
    """(x, y, text) of every written label."""
    return [
        (x, y, text)
        for trace in fig.data
        if trace.text
        for x, y, text in zip(trace.x, trace.y, trace.text, strict=True)
        if text
    ]


def test_labels_never_overlap_and_romania_s_tree_has_every_one():
    result = _traced("A*")
    tree = search_tree.build(result.trace, len(result.trace) - 1, goal="Bucharest")
    assert len(_labels(search_tree.tree_figure(tree))) == len(tree.nodes)
    G = grid(25, 40, obstacles=0.25, seed=1, corridor=True)
    traced = search.run("BFS", G, (0, 0), (24, 39), None, record_trace=True)
    some_left_out = False
    for step in (150, 300, 700):
        shown = search_tree.window(search_tree.build(traced.trace, step))
        fig = search_tree.tree_figure(shown)
        labels = _labels(fig)
        some_left_out |= len(labels) < len(shown.nodes)
        unit = search_tree.PLOT_PX / (fig.layout.xaxis.range[1] - fig.layout.xaxis.range[0])
        for (x1, y1, a), (x2, y2, b) in itertools.combinations(labels, 2):
            if y1 == y2:
                width = max(len(line) for line in a.split("<br>") + b.split("<br>"))
                assert abs(x1 - x2) * unit >= search_tree.CHAR_PX * width
    assert some_left_out
    current = next(t for t in fig.data if t.name == "being expanded")
    assert current.text[0]  # the node being expanded is always labelled
