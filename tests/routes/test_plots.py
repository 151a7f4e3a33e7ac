"""Plotly figures: the clickable map, the animation frames, the comparison charts."""

from __future__ import annotations

import plotly.graph_objects as go

from lib.routes import compare, graphs, plots, search
from lib.routes.graphs import StraightLine, romania

ROMANIA = romania()
H = StraightLine.of(ROMANIA)


def _trace(fig, name):
    return next(t for t in fig.data if t.name == name)


def test_map_has_one_clickable_marker_per_place_and_one_line_per_route():
    a = search.astar(ROMANIA, "Arad", "Bucharest", H)
    g = search.greedy_best_first(ROMANIA, "Arad", "Bucharest", H)
    fig = plots.map_figure(ROMANIA, routes=[("A*", a.path), ("Greedy", g.path)],
                           start="Arad", goal="Bucharest")  # fmt: skip
    nodes = _trace(fig, plots.NODES_TRACE)
    assert sorted(nodes.customdata) == sorted(ROMANIA.nodes)
    for label, x, y in zip(nodes.customdata, nodes.x, nodes.y, strict=True):
        assert (x, y) == ROMANIA.nodes[label]["pos"]
    lines = [t for t in fig.data if t.name in ("A*", "Greedy")]
    assert [len(t.x) for t in lines] == [len(a.path), len(g.path)]
    assert lines[0].line.color != lines[1].line.color
    assert any(t.name == "start: Arad" for t in fig.data)
    roads = _trace(fig, "roads")
    assert len(roads.x) == 3 * ROMANIA.number_of_edges()


def test_grid_map_is_drawn_as_a_grid_with_routes_on_top():
    G = graphs.grid(12, 20, obstacles=0.3, seed=1, corridor=True)
    route = search.astar(G, (0, 0), (11, 19), graphs.Manhattan.of(G))
    fig = plots.map_figure(G, routes=[("A*", route.path)])
    names = [t.name for t in fig.data]
    assert names.index("A*") > names.index(plots.NODES_TRACE)
    assert len(_trace(fig, "obstacles").x) == len(G.graph["obstacles"])
    assert _trace(fig, plots.NODES_TRACE).marker.symbol == "square"
    assert fig.layout.yaxis.autorange == "reversed"


def test_animation_frames_follow_the_trace():
    result = search.astar(ROMANIA, "Arad", "Bucharest", H, record_trace=True)
    fig = plots.animation_figure(ROMANIA, result.trace, path=result.path, start="Arad",
                                 goal="Bucharest", title="A*")  # fmt: skip
    states = list(search.replay(result.trace))
    assert len(fig.frames) == len(states)
    assert len(fig.layout.sliders[0].steps) == len(fig.frames)
    assert [b.label for b in fig.layout.updatemenus[0].buttons] == ["▶ Play", "❚❚ Pause"]
    for frame, state in zip(fig.frames, states, strict=True):
        explored, frontier, _route, current, table = frame.data
        assert len(explored.x) == len(state.explored)
        assert len(current.x) == (state.current is not None)
        assert len(frontier.x) == len(state.frontier)
        assert isinstance(table, go.Table)
        shown = list(table.cells.values[0])
        assert shown == [graphs.node_label(e.node) for e in state.frontier[:12]]
    assert len(fig.frames[-1].data[2].x) == len(result.path)
    assert len(fig.frames[0].data[2].x) == 0


def test_long_traces_are_sampled_keeping_the_last_step():
    G = graphs.grid(30, 30, obstacles=0.0)
    result = search.uniform_cost(G, (0, 0), (29, 29), record_trace=True)
    fig = plots.animation_figure(G, result.trace, path=result.path, max_frames=40)
    assert len(fig.frames) == 40
    assert fig.frames[-1].name == str(len(result.trace) - 1)


def test_comparison_charts():
    table = compare.all_pairs(ROMANIA, ["A*", 'Course "B*"'], H)
    summary = compare.summary(table)
    bars = plots.summary_bars(summary, "mean_expanded", "Expanded", y_title="nodes")
    assert list(bars.data[0].x) == list(summary.index)
    assert list(bars.data[0].y) == list(summary.mean_expanded)
    excess = plots.excess_chart(table)
    assert [t.name for t in excess.data] == ["A*", 'Course "B*"']
    assert sum(len(t.y) for t in excess.data) == len(table)
