"""Plotly figures: the clickable map, the animation frames, the comparison charts."""

from __future__ import annotations

import itertools

import plotly.graph_objects as go
import pytest

from lib.routes import compare, graphs, plots, search
from lib.routes.graphs import StraightLine, load_graph_csv, romania

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
    cells = _trace(fig, "obstacles")
    assert isinstance(cells, go.Heatmap)  # drawn to the cell size, whatever the window
    blocked = {(r, c) for r in range(12) for c in range(20) if cells.z[r][c] == 1}
    free = {(r, c) for r in range(12) for c in range(20) if cells.z[r][c] == 0}
    assert blocked == set(map(tuple, G.graph["obstacles"]))
    assert free == {G.nodes[n]["pos"][::-1] for n in G.nodes}
    assert _trace(fig, plots.NODES_TRACE).marker.symbol == "square"
    assert fig.layout.yaxis.autorange == "reversed"


@pytest.mark.parametrize(("rows", "cols"), [(5, 5), (25, 40), (60, 80), (60, 10)])
def test_grid_animation_cells_fit_their_cells(rows, cols):
    G = graphs.grid(rows, cols, obstacles=0.25, seed=2, corridor=True)
    goal = (rows - 1, cols - 1)
    result = search.astar(G, (0, 0), goal, graphs.Manhattan.of(G), record_trace=True)
    fig = plots.animation_figure(G, result.trace, path=result.path, max_frames=10)
    for frame in fig.frames:
        cells = frame.data[0]
        assert isinstance(cells, go.Heatmap)
        state = search.trace_state(result.trace, int(frame.name))
        flat = [v for row in cells.z for v in row]
        assert flat.count(1) == len(state.explored)
        assert flat.count(2) == len(state.frontier)
        for node in state.explored:
            x, y = G.nodes[node]["pos"]
            assert cells.z[int(y)][int(x)] == 1
    # markers that remain (the place being expanded) never outgrow a cell at 800 px
    cell = plots.cell_size(G, plots.ANIMATION_AREA)
    assert fig.frames[0].data[3].marker.size <= 1.3 * cell


def _dark(colour: str) -> bool:
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.45


def test_map_text_is_big_and_dark_enough_for_a_projector():
    fig = plots.map_figure(ROMANIA, start="Arad", goal="Bucharest")
    for name in (plots.NODES_TRACE, "road lengths"):
        font = _trace(fig, name).textfont
        assert font.size >= 14 and _dark(font.color), name
    assert fig.layout.font.size >= 14 and _dark(fig.layout.font.color)
    names = _trace(fig, plots.NODES_TRACE)
    assert names.cliponaxis is False  # names at the edge are not cut off
    table = compare.all_pairs(ROMANIA, ["A*", "BFS"], H, pairs=[("Arad", "Bucharest")])
    for chart in (
        plots.summary_bars(compare.summary(table), "mean_expanded", "E", y_title="n"),
        plots.excess_chart(table),
    ):
        assert chart.layout.xaxis.tickfont.size >= 14 and _dark(chart.layout.xaxis.tickfont.color)
        assert chart.layout.yaxis.title.font.size >= 14


def test_romania_names_sit_away_from_the_roads():
    positions = dict(zip(ROMANIA.nodes, plots.label_positions(ROMANIA), strict=True))
    assert positions["Arad"] == "middle left" and positions["Bucharest"] == "bottom right"
    G = load_graph_csv("source,target,weight\nA,B,1\nA,C,1\n", "node,x,y\nA,0,0\nB,1,0\nC,0,1\n")
    where = dict(zip(G.nodes, plots.label_positions(G), strict=True))
    assert where == {"A": "bottom left", "B": "middle right", "C": "top center"}


def test_animation_controls_do_not_cover_the_slider_value_and_title_clears_the_legend():
    result = search.astar(ROMANIA, "Arad", "Bucharest", H, record_trace=True)
    fig = plots.animation_figure(ROMANIA, result.trace, path=result.path, title="A*")
    buttons, slider = fig.layout.updatemenus[0], fig.layout.sliders[0]
    assert buttons.xanchor == "left" and slider.currentvalue.xanchor == "right"
    assert slider.pad.t >= 50  # the slider sits under the buttons' row
    assert fig.layout.title.yref == "container" and fig.layout.margin.t >= 100
    assert fig.layout.legend.yanchor == "bottom" and fig.layout.legend.y == 1.0
    tables = [t for t in fig.data if isinstance(t, go.Table)]
    assert len(tables) == 1
    assert tables[0].domain.y[1] < buttons.y  # the table is under the controls


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


def test_uploaded_place_names_are_plot_text_not_html():
    evil = '<a href="http://attacker.example">Iasi</a>'
    G = load_graph_csv(f"source,target,weight\n{evil},B&C,1\n".encode())
    fig = plots.map_figure(G, routes=[("r", [evil, "B&C"])], start=evil, goal="B&C", title="t")
    nodes = _trace(fig, plots.NODES_TRACE)
    shown = ['&lt;a href="http://attacker.example"&gt;Iasi&lt;/a&gt;', "B&amp;C"]
    assert sorted(nodes.customdata) == sorted(shown) and sorted(nodes.text) == sorted(shown)
    names = " ".join(t.name or "" for t in fig.data)
    assert "<a" not in names and "start: &lt;a" in names
    trace = search.astar(G, evil, "B&C", record_trace=True).trace
    animation = plots.animation_figure(G, trace, start=evil, goal="B&C")
    texts = [str(frame.layout.title.text) for frame in animation.frames]
    assert texts and not any("<a" in text for text in texts)


def _text_boxes(G, px_per_unit: float) -> tuple[dict, dict]:
    """Approximate boxes (x0, x1, y0, y1, map units) of the place names and road lengths.

    Text is about 7 px per character and 15 px high at the map's font sizes; names
    sit 9 px from their marker on the side plotly's ``textposition`` says.
    """
    names, roads = {}, {}
    for node, where in zip(G.nodes, plots.label_positions(G), strict=True):
        x, y = G.nodes[node]["pos"]
        w, h, gap = 7 * len(node) / px_per_unit, 15 / px_per_unit, 9 / px_per_unit
        vertical, horizontal = where.split()
        x0 = {"left": x - gap - w, "center": x - w / 2, "right": x + gap}[horizontal]
        y0 = {"top": y + gap, "middle": y - h / 2, "bottom": y - gap - h}[vertical]
        names[node] = (x0, x0 + w, y0, y0 + h)
    text = next(t for t in plots.map_figure(G).data if t.name == "road lengths")
    for x, y, label in zip(text.x, text.y, text.text, strict=True):
        w, h = 7 * len(label) / px_per_unit, 14 / px_per_unit
        roads[(x, y, label)] = (x - w / 2, x + w / 2, y - h / 2, y + h / 2)
    return names, roads


def _overlap(a, b) -> bool:
    return a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]


@pytest.mark.parametrize("px_per_unit", [0.69, 1.16])  # the map in 1024 and 1400 px windows
def test_romania_names_and_road_lengths_do_not_overlap(px_per_unit):
    names, roads = _text_boxes(ROMANIA, px_per_unit)
    clashes = [(a, b) for a, b in itertools.combinations(names, 2) if _overlap(names[a], names[b])]
    clashes += [(a, r) for a in names for r in roads if _overlap(names[a], roads[r])]
    assert clashes == []
    # a moved road length stays on its own road
    for (u, v), at in plots.ROMANIA_ROAD_LABELS_AT.items():
        assert ROMANIA.has_edge(u, v) and 0.25 <= at <= 0.75
