"""Where the maps write names and road lengths, and the comparison charts."""

from __future__ import annotations

import itertools

import pytest

from lib.routes import animation, compare, graphs, plots
from lib.routes.graphs import StraightLine, load_graph_csv, romania

ROMANIA = romania()
H = StraightLine.of(ROMANIA)


def _trace(fig, name):
    return next(t for t in fig.data if t.name == name)


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


def _dark(colour: str) -> bool:
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.45


def test_map_text_is_big_and_dark_enough_for_a_projector():
    style = animation.route_map_data(ROMANIA, start="Arad", goal="Bucharest")["style"]
    for size, colour in (
        (style["placeFont"], style["placeText"]),
        (style["roadFont"], style["roadText"]),
    ):
        assert size >= 14 and _dark(colour)
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


def test_comparison_charts():
    table = compare.all_pairs(ROMANIA, ["A*", 'Course "B*"'], H)
    summary = compare.summary(table)
    bars = plots.summary_bars(summary, "mean_expanded", "Expanded", y_title="nodes")
    assert list(bars.data[0].x) == list(summary.index)
    assert list(bars.data[0].y) == list(summary.mean_expanded)
    excess = plots.excess_chart(table)
    assert [t.name for t in excess.data] == ["A*", 'Course "B*"']
    assert sum(len(t.y) for t in excess.data) == len(table)


def _text_boxes(G, px_per_unit: float) -> tuple[dict, dict]:
    """Approximate boxes (x0, x1, y0, y1, map units) of the place names and road lengths.

    Text is about 7 px per character and 15 px high at the map's font sizes; names
    sit 9 px from their marker on the side the map's data says (``labels.where``).
    """
    data = animation.route_map_data(G)
    names, roads = {}, {}
    labels = data["labels"]  # a name can have two lines
    for node, where, text in zip(G.nodes, labels["where"], labels["text"], strict=True):
        x, y = G.nodes[node]["pos"]
        lines = text.split("\n")
        w = 7 * max(map(len, lines)) / px_per_unit
        h, gap = 15 * len(lines) / px_per_unit, 9 / px_per_unit
        vertical, horizontal = where.split()
        x0 = {"left": x - gap - w, "center": x - w / 2, "right": x + gap}[horizontal]
        y0 = {"top": y + gap, "middle": y - h / 2, "bottom": y - gap - h}[vertical]
        names[node] = (x0, x0 + w, y0, y0 + h)
    lengths = data["roadLengths"]
    for x, y, label in zip(lengths["x"], lengths["y"], lengths["text"], strict=True):
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
    labels = [text for _, _, text in plots.road_lengths(G)]
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
    (x_low, x_high), _ = plots.map_ranges(G)
    width = plots.MAP_AREA[0]
    per_px = (x_high - x_low) / width  # the x axis is the tight one when the map is wide
    labels = animation.route_map_data(G)["labels"]
    xs = [x for x, _ in (G.nodes[n]["pos"] for n in G.nodes)]
    gap = plots._marker_size(G) / 2 + 4
    for text, x, where in zip(labels["text"], xs, labels["where"], strict=True):
        run = len(text) * plots.CHAR_PX
        side = where.split()[1]
        left = x - (run + gap if side == "left" else run / 2 if side == "center" else 0) * per_px
        right = x + (run + gap if side == "right" else run / 2 if side == "center" else 0) * per_px
        slack = 0.01 * per_px  # a hundredth of a pixel: places are drawn as float32
        assert x_low <= left + slack and right <= x_high + slack, (text, where)


def test_romania_road_length_between_timisoara_and_lugoj_is_off_their_dots():
    # the 111 sat on the short road, between (and under) the dots of Timisoara and Lugoj
    (x, y), *_ = [(lx, ly) for lx, ly, t in plots.road_lengths(ROMANIA) if t == "111"]
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
