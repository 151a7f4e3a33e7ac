"""Plotly figures: the clickable map, the animation frames, the comparison charts."""

from __future__ import annotations

import itertools
import math

import plotly.graph_objects as go
import pytest
from hypothesis import given
from hypothesis import strategies as st

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
    roads = _trace(fig, "roads")  # trails: each road once, between two consecutive points
    drawn = [
        frozenset({(roads.x[i], roads.y[i]), (roads.x[i + 1], roads.y[i + 1])})
        for i in range(len(roads.x) - 1)
        if not (math.isnan(roads.x[i]) or math.isnan(roads.x[i + 1]))
    ]
    pos = ROMANIA.nodes
    roads_ = [frozenset({pos[u]["pos"], pos[v]["pos"]}) for u, v in ROMANIA.edges]
    assert sorted(drawn, key=sorted) == sorted(roads_, key=sorted)


def _polygon_cells(trace) -> list[tuple[int, int]]:
    """The grid cells ``(row, col)`` a cell-polygon trace covers, checking its shape.

    Every polygon is a rectangle of whole cells, one row high: its corners sit on
    cell edges (``k - 0.5``), so it fills its grid squares exactly at any size.
    """
    assert trace.fill == "toself" and trace.type == "scatter"
    xs, ys = list(trace.x), list(trace.y)
    assert len(xs) == len(ys) and len(xs) % 5 == 0
    cells = []
    for i in range(0, len(xs), 5):
        (x0, x1, x2, x3, gap), (y0, y1, y2, y3, gap_y) = xs[i : i + 5], ys[i : i + 5]
        assert gap is None and gap_y is None
        assert x0 == x3 and x1 == x2 and y0 == y1 and y2 == y3 and y2 - y0 == 1 and x1 > x0
        assert (x0 + 0.5) % 1 == 0 and (x1 + 0.5) % 1 == 0 and (y0 + 0.5) % 1 == 0
        row = int(y0 + 0.5)
        cells += [(row, c) for c in range(int(x0 + 0.5), int(x1 + 0.5))]
    return cells


def _grid_cells_of(G, nodes) -> set[tuple[int, int]]:
    return {(int(G.nodes[n]["pos"][1]), int(G.nodes[n]["pos"][0])) for n in nodes}


def test_grid_map_is_drawn_as_a_grid_with_routes_on_top():
    G = graphs.grid(12, 20, obstacles=0.3, seed=1, corridor=True)
    route = search.astar(G, (0, 0), (11, 19), graphs.Manhattan.of(G))
    fig = plots.map_figure(G, routes=[("A*", route.path)])
    names = [t.name for t in fig.data]
    assert names.index("A*") > names.index(plots.NODES_TRACE) > names.index("grid lines")
    assert names.index("grid lines") > names.index("obstacle") > names.index("free")
    assert not any(isinstance(t, go.Heatmap) for t in fig.data)  # SVG, drawn to the cell size
    blocked = _polygon_cells(_trace(fig, "obstacle"))
    assert len(blocked) == len(set(blocked))
    assert set(blocked) == set(map(tuple, G.graph["obstacles"]))
    everything = _polygon_cells(_trace(fig, "free"))
    assert sorted(everything) == [(r, c) for r in range(12) for c in range(20)]
    assert set(everything) - set(blocked) == _grid_cells_of(G, G.nodes)
    lines = _trace(fig, "grid lines")  # one line per cell edge, across the whole grid
    assert sorted({x for x in lines.x if x is not None}) == [c - 0.5 for c in range(21)]
    assert sorted({y for y in lines.y if y is not None}) == [r - 0.5 for r in range(13)]
    assert _trace(fig, plots.NODES_TRACE).marker.symbol == "square"
    assert fig.layout.yaxis.autorange == "reversed"


@given(st.sets(st.tuples(st.integers(0, 6), st.integers(0, 9)), max_size=40))
def test_cell_runs_cover_exactly_the_cells_with_maximal_runs(cells):
    runs = plots.cell_runs(cells)
    covered = [(r, c) for r, c0, c1 in runs for c in range(c0, c1 + 1)]
    assert sorted(covered) == sorted(cells)  # each cell once
    for (r, _, c1), (r2, c2, _) in itertools.pairwise(runs):
        assert (r, c1 + 1) != (r2, c2)  # neighbours in a row share one run


@pytest.mark.parametrize(("rows", "cols"), [(5, 5), (25, 40), (60, 80), (60, 10)])
def test_grid_step_cells_are_polygons_covering_the_replayed_state(rows, cols):
    G = graphs.grid(rows, cols, obstacles=0.25, seed=2, corridor=True)
    goal = (rows - 1, cols - 1)
    result = search.astar(G, (0, 0), goal, graphs.Manhattan.of(G), record_trace=True)
    last = len(result.trace) - 1
    for step in sorted({0, 1, last // 3, last // 2, last}):
        fig = plots.step_figure(G, result.trace, step, path=result.path)
        assert not any(isinstance(t, go.Heatmap) for t in fig.data)
        names = [t.name for t in fig.data]
        # the lines between cells lie over the search's cells and under the route
        at = names.index("explored")
        expected = ["explored", "frontier", "grid lines", "route found", "expanding"]
        assert names[at : at + 5] == expected
        explored, frontier, _lines, route, current = fig.data[at : at + 5]
        state = search.trace_state(result.trace, step)
        explored_cells = _polygon_cells(explored)
        assert len(explored_cells) == len(state.explored)
        assert set(explored_cells) == _grid_cells_of(G, state.explored)
        frontier_cells = _polygon_cells(frontier)
        assert len(frontier_cells) == len(state.frontier)
        assert set(frontier_cells) == _grid_cells_of(G, [e.node for e in state.frontier])
        shown = [] if state.current is None else [state.current]
        assert _polygon_cells(current) == sorted(_grid_cells_of(G, shown))
        assert len({explored.fillcolor, frontier.fillcolor, current.fillcolor}) == 3
        assert len(route.x) == (len(result.path) if step == last else 0)
    legend = {t.name for t in fig.data if t.type == "scatter" and t.showlegend is not False}
    assert {"explored", "frontier", "expanding", "obstacle"} <= legend


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


def test_step_title_clears_the_legend_and_says_what_the_step_did():
    result = search.astar(ROMANIA, "Arad", "Bucharest", H, record_trace=True)
    fig = plots.step_figure(ROMANIA, result.trace, 1, path=result.path, title="A*")
    assert fig.layout.title.yref == "container" and fig.layout.margin.t >= 100
    assert fig.layout.legend.yanchor == "bottom" and fig.layout.legend.y == 1.0
    assert "step 1: pop Arad" in fig.layout.title.text
    assert not fig.frames and not fig.layout.sliders  # the page's one step control drives it


def test_step_figures_follow_the_trace():
    result = search.astar(ROMANIA, "Arad", "Bucharest", H, record_trace=True)
    states = list(search.replay(result.trace))
    for step, state in enumerate(states):
        fig = plots.step_figure(
            ROMANIA, result.trace, step, path=result.path, start="Arad", goal="Bucharest"
        )
        shown = {t.name: t for t in fig.data}
        assert len(shown["explored"].x) == len(state.explored)
        assert len(shown["frontier"].x) == len(state.frontier)
        assert len(shown["expanding"].x) == (state.current is not None)
        assert len(shown["route found"].x) == (len(result.path) if step == len(states) - 1 else 0)
    late = plots.step_figure(ROMANIA, result.trace, 10_000)  # clamped to the last step
    assert late.layout.title.text.startswith(f"step {len(states) - 1}:")


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
    texts = [
        str(plots.step_figure(G, trace, step, start=evil, goal="B&C").layout.title.text)
        for step in range(len(trace))
    ]
    assert texts and not any("<a" in text for text in texts)


def _text_boxes(G, px_per_unit: float) -> tuple[dict, dict]:
    """Approximate boxes (x0, x1, y0, y1, map units) of the place names and road lengths.

    Text is about 7 px per character and 15 px high at the map's font sizes; names
    sit 9 px from their marker on the side plotly's ``textposition`` says.
    """
    names, roads = {}, {}
    shown = _trace(plots.map_figure(G), plots.NODES_TRACE).text  # a name can have two lines
    for node, where, text in zip(G.nodes, plots.label_positions(G), shown, strict=True):
        x, y = G.nodes[node]["pos"]
        lines = text.split("<br>")
        w = 7 * max(map(len, lines)) / px_per_unit
        h, gap = 15 * len(lines) / px_per_unit, 9 / px_per_unit
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


@pytest.mark.parametrize(
    ("value", "text"),
    [(140, "140"), (75.0, "75"), (0.246609, "0.247"), (1.5, "1.5"), (1234.6, "1235"), (0, "0")],
)
def test_road_lengths_are_written_short(value, text):
    assert plots.short_number(value) == text


def test_random_graph_road_lengths_on_the_map_have_at_most_three_figures():
    G = graphs.random_geometric(20, seed=3)
    labels = _trace(plots.map_figure(G), "road lengths").text
    assert len(labels) == G.number_of_edges()
    for text, (_, _, weight) in zip(labels, G.edges(data="weight"), strict=True):
        assert len(text.replace("0.", "").lstrip("0")) <= 3
        assert float(text) == pytest.approx(weight, rel=5e-3)


LONG_NAMES = (
    "source,target,weight\nKing's Landing,Winterfell,10\nWinterfell,Castle Black,4\n"
    "King's Landing,Highgarden,6\nHighgarden,Oldtown,3\nOldtown,Sunspear,7\n"
    "Sunspear,King's Landing,8\nCastle Black,Hardhome,5\n"
)


@pytest.mark.parametrize(
    "G",
    [load_graph_csv(LONG_NAMES.encode()), graphs.random_geometric(30, seed=2)],
    ids=["upload", "random"],
)
def test_names_beside_places_at_the_edges_stay_inside_the_map(G):
    fig = plots.map_figure(G)
    x_low, x_high = fig.layout.xaxis.range
    width = plots.MAP_AREA[0]
    per_px = (x_high - x_low) / width  # the x axis is the tight one when the map is wide
    nodes = _trace(fig, plots.NODES_TRACE)
    gap = plots._marker_size(G) / 2 + 4
    for text, x, where in zip(nodes.text, nodes.x, nodes.textposition, strict=True):
        run = len(text) * plots.CHAR_PX
        side = where.split()[1]
        left = x - (run + gap if side == "left" else run / 2 if side == "center" else 0) * per_px
        right = x + (run + gap if side == "right" else run / 2 if side == "center" else 0) * per_px
        slack = 0.01 * per_px  # a hundredth of a pixel: places are drawn as float32
        assert x_low <= left + slack and right <= x_high + slack, (text, where)


def _points_at(fig, x: float, y: float) -> list[tuple[int, object]]:
    """``(trace index, trace name)`` of every trace with a marker drawn at ``(x, y)``."""
    found = []
    for index, trace in enumerate(fig.data):
        if "markers" not in (trace.mode or "") or trace.x is None:
            continue
        if any(px == x and py == y for px, py in zip(trace.x, trace.y, strict=True)):
            found.append((index, trace.name))
    return found


def test_start_and_goal_stars_are_the_places_own_markers_so_their_names_stay_readable():
    # a star drawn over Arad by a trace of its own hid the "d" of "Arad": now the star is
    # Arad's own marker, and plotly writes the name beside it, past the star
    fig = plots.map_figure(ROMANIA, start="Arad", goal="Bucharest")
    nodes = _trace(fig, plots.NODES_TRACE)
    for place in ("Arad", "Bucharest"):
        index = list(nodes.customdata).index(place)
        assert nodes.marker.symbol[index] == "star"
        assert nodes.marker.size[index] > plots._marker_size(ROMANIA)
        assert _points_at(fig, *ROMANIA.nodes[place]["pos"]) == [
            (fig.data.index(nodes), plots.NODES_TRACE)
        ]
    others = [s for s, n in zip(nodes.marker.symbol, nodes.customdata, strict=True) if n != "Arad"]
    assert others.count("star") == 1  # the goal; every other place a dot
    names = {t.name for t in fig.data}
    assert {"start: Arad", "goal: Bucharest"} <= names  # still in the legend


def test_the_expanding_marker_is_drawn_around_the_start_star_not_under_it():
    trace = search.astar(ROMANIA, "Arad", "Bucharest", H, record_trace=True).trace
    fig = plots.step_figure(ROMANIA, trace, 1, start="Arad", goal="Bucharest")  # pops Arad
    at_arad = _points_at(fig, *ROMANIA.nodes["Arad"]["pos"])
    names = [name for _, name in at_arad]
    assert names[-1] == "expanding"  # drawn last at Arad: nothing covers it
    expanding = _trace(fig, "expanding")
    nodes = _trace(fig, plots.NODES_TRACE)
    star = nodes.marker.size[list(nodes.customdata).index("Arad")]
    # a ring wider than the star: the star inside stays in view
    assert expanding.marker.symbol == "circle-open" and expanding.marker.size > star


def test_romania_road_length_between_timisoara_and_lugoj_is_off_their_dots():
    # the 111 sat on the short road, between (and under) the dots of Timisoara and Lugoj
    labels = _trace(plots.map_figure(ROMANIA), "road lengths")
    texts = zip(labels.x, labels.y, labels.text, strict=True)
    (x, y), *_ = [(lx, ly) for lx, ly, t in texts if t == "111"]
    (tx, ty), (lx, ly) = ROMANIA.nodes["Timisoara"]["pos"], ROMANIA.nodes["Lugoj"]["pos"]
    px_per_unit = 0.69  # the map in a 1024 px window, the tightest
    half_w, half_h = 3 * 7 / 2 / px_per_unit, 14 / 2 / px_per_unit
    dot = (plots._marker_size(ROMANIA) / 2) / px_per_unit
    for px, py in ((tx, ty), (lx, ly)):
        assert abs(x - px) > half_w + dot or abs(y - py) > half_h + dot
    # and clear of the road itself: the road's height at the label is outside the text
    road_y = ty + (ly - ty) * (x - tx) / (lx - tx)
    assert abs(road_y - y) > half_h


def _crosses(box, p, q) -> bool:
    """Does the segment ``p``-``q`` pass through ``box`` (x0, x1, y0, y1)?"""
    return any(
        box[0] <= p[0] + (q[0] - p[0]) * t / 100 <= box[1]
        and box[2] <= p[1] + (q[1] - p[1]) * t / 100 <= box[3]
        for t in range(101)
    )


@pytest.mark.parametrize("px_per_unit", [0.69, 1.16])  # the map in 1024 and 1400 px windows
def test_rimnicu_vilcea_is_written_clear_of_every_road(px_per_unit):
    # on one line, right of its place, the name crossed the Fagaras–Bucharest road (211)
    names, _ = _text_boxes(ROMANIA, px_per_unit)
    box = names["Rimnicu Vilcea"]
    crossed = [
        (u, v)
        for u, v in ROMANIA.edges
        if _crosses(box, ROMANIA.nodes[u]["pos"], ROMANIA.nodes[v]["pos"])
    ]
    assert crossed == []


def test_excess_chart_keeps_small_excesses_off_the_axis_next_to_dfs():
    # DFS's routes are up to 17 times the shortest: on a linear axis the course's "B*"
    # excesses (4 to 13 %) were drawn within 2 px of 0, under the axis line
    table = compare.all_pairs(ROMANIA, ["DFS", "A*", 'Course "B*"'], H)
    fig = plots.excess_chart(table)
    values = [y for t in fig.data for y in t.y]
    low, high = fig.layout.yaxis.range or (min(0, *values), max(values))
    bstar = _trace(fig, 'Course "B*"')
    above_zero = [(y - 0) / (high - low) for y in bstar.y if y > 0]
    worse = table[(table["algorithm"] == 'Course "B*"') & (table["excess_pct"] > 0)]
    assert len(above_zero) == len(worse) == 3
    assert min(above_zero) > 0.15  # at least 15 % of the axis (about 50 px) above 0
    assert low < 0  # and the pairs at 0 % sit above the axis's bottom edge
    # the scale is monotone and labelled in %: the ticks read 0, 1, 3, 10...
    order = table.groupby("algorithm", sort=False)["excess_pct"].apply(list)
    for trace in fig.data:
        ranks = sorted(range(len(trace.y)), key=lambda i: trace.y[i])
        assert [order[trace.name][i] for i in ranks] == sorted(order[trace.name])
    assert list(fig.layout.yaxis.ticktext[:4]) == ["0", "1", "3", "10"]
