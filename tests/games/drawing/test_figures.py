"""Game figures: clickable squares, heat-map colours and labels, search-tree drawing."""

from __future__ import annotations

import math

import plotly.graph_objects as go
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lib.games import othello, sim
from lib.games.core import WIN_VALUE
from lib.games.drawing import figures as plots
from lib.games.drawing import search_charts as search_plots
from lib.games.othello import plots as othello_plots
from lib.games.search import variants
from lib.games.search.fast import choose_move
from tests.games.toy import AIMA_TREE, ToyState, leaf_heuristic


def _trace(fig: go.Figure, name: str):
    return next(t for t in fig.data if t.name == name)


def test_board_has_one_click_target_per_square_and_round_trips():
    state = othello.initial_state(6)
    fig = othello_plots.othello_figure(state)
    squares = _trace(fig, "squares")
    assert len(squares.customdata) == 36
    for (row, col), x, y in zip(squares.customdata, squares.x, squares.y, strict=True):
        assert (x, y) == (col, row)
        assert plots.square_from_point({"customdata": [row, col]}) == (row, col)
        assert plots.square_from_point({"x": float(col), "y": float(row)}) == (row, col)
    assert plots.square_from_point({}) is None


def test_discs_legal_marks_and_highlights_are_drawn():
    state = othello.initial_state(8)
    after = state.play(othello.square(2, 3))
    flipped = after.black & ~state.black & ~(1 << othello.square(2, 3))
    fig = othello_plots.othello_figure(after, last_move=othello.square(2, 3), flipped=flipped)
    circles = [s for s in fig.layout.shapes if s.type == "circle"]
    discs = [s for s in circles if s.fillcolor in ("#111111", "#f5f5f5")]
    assert len(discs) == sum(after.counts()) == 5
    rings = [s for s in circles if s.line.color in ("#e53935", "#ff9800")]
    assert len(rings) == 2  # last move and one flipped disc
    dots = [s for s in circles if s.fillcolor == "rgba(255,255,255,0.6)"]
    assert len(dots) == len(after.legal_moves())
    assert list(fig.layout.xaxis.ticktext) == list("abcdefgh")
    assert list(fig.layout.yaxis.ticktext) == [str(i) for i in range(1, 9)]


def test_score_colours_and_labels():
    scores = {1: 2.0, 2: -1.0, 3: WIN_VALUE + 3, 4: -WIN_VALUE - 2, 5: 0.5}
    colours = plots.score_colours(scores)
    assert colours[3] == 1.0 and colours[4] == -1.0
    assert colours[1] == pytest.approx(0.8) and colours[2] == pytest.approx(-0.8)
    assert -0.8 < colours[5] < 0.8
    assert plots.score_colours({1: 3.0, 2: 3.0}) == {1: 0.0, 2: 0.0}
    labels = plots.score_labels(scores, {2: "upper"})
    assert labels[3] == "WIN" and labels[4] == "LOSS" and labels[2] == "≤-1" and labels[1] == "+2"


def test_heat_map_tiles_sit_on_the_scored_squares():
    state = othello.initial_state(8)
    result = choose_move(state, depth=2, exact_root_scores=True)
    fig = othello_plots.othello_figure(state, scores=result.stats.root_scores, marked=result.move)
    labels = _trace(fig, "score labels")
    dots = [s for s in fig.layout.shapes if s.fillcolor == "rgba(255,255,255,0.6)"]
    assert not dots  # the scores replace the legal-move dots
    outline = [s for s in fig.layout.shapes if s.type == "rect" and s.line.color == "#1e88e5"]
    row, col = divmod(result.move, 8)
    assert len(outline) == 1 and outline[0].x0 == col - 0.47 and outline[0].y0 == row - 0.47
    assert {(int(y), int(x)) for x, y in zip(labels.x, labels.y, strict=True)} == {
        divmod(m, 8) for m in state.legal_moves()
    }


def test_search_tree_figure_greys_pruned_branches():
    result = choose_move(
        ToyState(AIMA_TREE), depth=2, heuristic=leaf_heuristic, ordering=False, record_tree=True
    )
    fig = plots.search_tree_figure(result.stats.tree, str)
    pruned_nodes = _trace(fig, "pruned")
    assert len(pruned_nodes.x) == 2
    pruned_edges = _trace(fig, "pruned edges")
    assert pruned_edges.line.dash == "dot"
    # the root sits above the middle of its children
    positions = plots._tree_layout(result.stats.tree)
    children = [n.id for n in result.stats.tree if n.parent == 0]
    xs = [positions[c][0] for c in children]
    assert positions[0][0] == pytest.approx((min(xs) + max(xs)) / 2)


def test_root_scores_and_iterations_figures():
    result = choose_move(othello.initial_state(6), depth=3, time_limit=5.0)
    bars = plots.root_scores_figure(
        result.stats.root_scores, othello.format_move, result.stats.root_bounds, result.move
    )
    assert len(bars.data[0].y) == len(result.stats.root_scores)
    assert any("◀" in name for name in bars.data[0].y)
    iterations = search_plots.iterations_figure(result.stats.iterations)
    assert list(iterations.data[0].x) == ["1", "2", "3"]


def test_variants_figure_has_a_bar_per_variant():
    rows = [
        {"variant": "minimax", "nodes": 1000, "ebf": 10.0},
        {"variant": "alpha-beta", "nodes": 100, "ebf": 4.6},
    ]
    fig = search_plots.variants_figure(rows)
    assert list(fig.data[0].x) == ["minimax", "alpha-beta"]
    assert list(fig.data[0].y) == [1000, 100]
    assert fig.layout.yaxis.type == "log"


def test_variant_labels_are_one_part_per_line_and_colours_follow_the_variant():
    rows = [
        {"variant": name, "nodes": 100 - 10 * i, "ebf": 3.0}
        for i, name in enumerate(list(variants.VARIANTS)[1:])  # minimax left out (too deep)
    ]
    fig = search_plots.variants_figure(rows)
    # on one line the long names ran into each other at 1024 px
    assert list(fig.layout.xaxis.ticktext) == [
        "alpha-beta",
        "alpha-beta<br>+ ordering",
        "alpha-beta<br>+ ordering<br>+ table",
    ]
    with_minimax = search_plots.variants_figure(
        [{"variant": "minimax", "nodes": 9, "ebf": 3.0}, *rows]
    )
    assert list(with_minimax.data[0].marker.color)[1:] == list(fig.data[0].marker.color)


def _filled_shapes(fig: go.Figure) -> list:
    return [s for s in fig.layout.shapes if s.fillcolor is not None]


def test_filled_shapes_sit_below_the_text_so_labels_show_on_pieces():
    # a scored square holding a disc (as on checkers, where a piece shows its best move)
    pieces = [plots.Piece(0, 0, "#111111"), plots.Piece(1, 1, "#f5f5f5", text="K")]
    fig = plots.grid_board_figure(
        3,
        3,
        pieces=pieces,
        legal=[(2, 2)],
        heat={(0, 0): 0.8, (2, 1): -0.8},
        heat_text={(0, 0): "+0.04", (2, 1): "-0.5"},
    )
    # plotly draws layout shapes above the traces unless layer="below": every filled
    # shape (squares, heat tiles, discs, badges, dots) must be below the score text
    assert _filled_shapes(fig) and all(s.layer == "below" for s in fig.layout.shapes)
    labels = _trace(fig, "score labels")
    assert list(labels.text) == ["+0.04", "-0.5"]
    assert labels.textfont.size >= plots.MIN_FONT
    # on the disc the label sits on a badge in the heat colour, in the lower half
    badges = [s for s in fig.layout.shapes if s.type == "rect" and s.y0 > 0 and s.y1 < 0.5]
    assert len(badges) == 1 and badges[0].y0 < labels.y[0] < badges[0].y1
    assert labels.y[1] == 2  # an empty square: label in the middle of its tile
    assert _trace(fig, "piece labels").textfont.size >= plots.MIN_FONT


def test_root_score_bars_have_the_real_values_and_capped_forced_results():
    scores = {"a": -0.127, "b": 0.0429, "c": 0.01, "w": WIN_VALUE + 3, "l": -WIN_VALUE - 1}
    fig = plots.root_scores_figure(scores, str, {"c": "upper"}, chosen="b")
    bar = fig.data[0]
    length = dict(zip(bar.y, bar.x, strict=True))
    assert length["a"] == -0.127 and length["b ◀"] == 0.0429 and length["c"] == 0.01
    cap = 1.25 * 0.127
    assert length["w"] == pytest.approx(cap) and length["l"] == pytest.approx(-cap)
    text = dict(zip(bar.y, bar.text, strict=True))
    assert text["w"] == "forced win" and text["l"] == "forced loss" and text["c"] == "≤+0.01"
    hover = dict(zip(bar.y, bar.hovertext, strict=True))
    assert "-0.127" in hover["a"] and "at most" in hover["c"] and "forced" in hover["w"]
    assert list(bar.y) == ["l", "a", "c", "b ◀", "w"]  # worst at the bottom, best on top
    assert "score" in fig.layout.xaxis.title.text and "relative" not in fig.layout.xaxis.title.text
    low, high = fig.layout.xaxis.range
    assert low < -cap and high > cap  # every bar fits, with room for its label


def test_search_tree_names_moves_on_edges_and_labels_are_readable():
    result = choose_move(
        ToyState(AIMA_TREE), depth=2, heuristic=leaf_heuristic, ordering=False, record_tree=True
    )
    tree = result.stats.tree
    fig = plots.search_tree_figure(tree, lambda move: f"m{move}")
    edge_labels = sorted(a.text for a in fig.layout.annotations)
    assert edge_labels == sorted(f"m{n.move}" for n in tree if n.parent is not None)
    assert all(a.font.size >= plots.MIN_FONT for a in fig.layout.annotations)
    for status in ("inner", "leaf", "pruned"):
        assert _trace(fig, status).textfont.size >= plots.MIN_FONT
    assert _trace(fig, "inner").textposition == "middle right"  # clear of the edges


@pytest.mark.parametrize("nodes", [[5, 30], [3000, 9000], [12, 4_000_000]])
def test_log_axes_label_only_powers_of_ten_and_at_least_three(nodes):
    iterations = search_plots.iterations_figure(
        [{"depth": i + 1, "nodes": n} for i, n in enumerate(nodes)]
    )
    variants = search_plots.variants_figure(
        [{"variant": f"v{i}", "nodes": n, "ebf": 2.0} for i, n in enumerate(nodes)]
    )
    for fig in (iterations, variants):
        axis = fig.layout.yaxis
        assert axis.type == "log" and len(axis.tickvals) >= 3
        exponents = [math.log10(v) for v in axis.tickvals]
        assert exponents == [round(e) for e in exponents]  # powers of ten, no "2 5" ticks
        assert list(axis.ticktext) == [search_plots.power_label(round(e)) for e in exponents]
        low, high = axis.range
        assert low == 0 and 10**high > max(nodes)  # bars start at 1 node (no "0.1"), all fit


def test_bar_labels_above_the_tallest_bar_are_not_clipped_by_the_axis():
    # Seen on the Checkers page at depth 8: the "10,717" over the last bar was cut in half.
    iterations = [{"depth": d + 1, "nodes": n} for d, n in enumerate([8, 104, 2524, 10717])]
    variants = [{"variant": "v", "nodes": 10717, "ebf": 3.0}]
    for fig in (search_plots.iterations_figure(iterations), search_plots.variants_figure(variants)):
        (bar,) = fig.data
        assert bar.textposition == "outside" and bar.cliponaxis is False


def test_power_labels():
    assert [search_plots.power_label(e) for e in (-2, 0, 3, 6, 7)] == [
        "0.01",
        "1",
        "1,000",
        "1M",
        "10M",
    ]


def test_root_score_axis_covers_only_the_sides_with_bars():
    losing = plots.root_scores_figure({"a": -0.8, "b": -2.5}, str).layout.xaxis.range
    assert losing[0] < -2.5 and 0 <= losing[1] < 0.5  # no empty right half
    winning = plots.root_scores_figure({"a": 0.04, "b": 0.01}, str).layout.xaxis.range
    assert -0.01 < winning[0] <= 0 and winning[1] > 0.04
    assert plots.root_scores_figure({}, str).data[0].x == ()  # nothing to draw, no crash


def text_sizes(figure) -> dict[str, float | None]:
    """The font size of every text outside the plotted marks, by where it is."""
    layout = figure.layout
    sizes = {
        "title": layout.title.font.size,
        "legend": layout.legend.font.size,
        "hover": layout.hoverlabel.font.size,
    }
    for name in ("xaxis", "yaxis"):
        axis = layout[name]
        sizes[f"{name} ticks"] = axis.tickfont.size
        sizes[f"{name} title"] = axis.title.font.size
    for index, annotation in enumerate(layout.annotations):
        sizes[f"annotation {index}"] = annotation.font.size
    for index, trace in enumerate(figure.data):
        if getattr(trace, "colorbar", None) is not None:
            sizes[f"colour bar {index}"] = trace.colorbar.title.font.size
    return sizes


def test_analysis_charts_use_the_apps_font_sizes():
    result = choose_move(
        ToyState(AIMA_TREE), depth=2, heuristic=leaf_heuristic, ordering=False, record_tree=True
    )
    figures = {
        "scores": plots.root_scores_figure({"a": 1.0, "b": -2.0}, str),
        "tree": plots.search_tree_figure(result.stats.tree, str),
        "iterations": search_plots.iterations_figure([{"depth": 1, "nodes": 5}]),
        "variants": search_plots.variants_figure([{"variant": "minimax", "nodes": 9, "ebf": 3.0}]),
    }
    for name, figure in figures.items():
        sizes = text_sizes(figure)
        assert sizes.pop("title") == plots.TITLE_FONT, name
        small = {where: size for where, size in sizes.items() if (size or 0) < plots.MIN_FONT}
        assert not small, (name, small)


def test_readable_raises_small_text_and_keeps_larger_text():
    fig = go.Figure(go.Scatter(x=[0, 1], y=[0, 1], mode="text", text=["a", "b"],
                               textfont={"size": [10, 30]}))  # fmt: skip
    fig.add_annotation(x=0, y=0, text="big", font={"size": 24})
    fig.add_annotation(x=1, y=1, text="small", font={"size": 9})
    plots.readable(fig)
    assert list(fig.data[0].textfont.size) == [plots.MIN_FONT, 30]
    assert [a.font.size for a in fig.layout.annotations] == [24, plots.MIN_FONT]
    assert fig.layout.xaxis.tickfont.size == plots.MIN_FONT


@given(st.floats(min_value=-999_000, max_value=999_000))
def test_compact_numbers_are_short_signed_and_close(value):
    text = plots.compact_number(value)
    assert len(text) <= 5
    if text == "≈0":
        assert abs(value) < 0.005
        return
    assert text[0] == ("-" if value < 0 else "+")
    if abs(value) < 999.5:  # no k/M suffix: the number itself, rounded
        assert len(text) <= 5 and abs(float(text) - value) <= 0.05 * abs(value) + 0.005
    else:
        assert text.endswith("k") and abs(float(text[:-1]) * 1000 - value) <= 500


def test_compact_score_labels_fit_five_characters():
    values = [0.0429, -0.0512, -124.4, -3.5, 0.001, 81.0, WIN_VALUE, -WIN_VALUE, 0.0]
    scores = dict(enumerate(values))
    exact = plots.score_labels(scores, compact=True)
    assert list(exact.values()) == ["+0.04", "-0.05", "-124", "-3.5", "≈0", "+81", "WIN",
                                    "LOSS", "0"]  # fmt: skip
    upper = plots.score_labels(scores, dict.fromkeys(scores, "upper"), compact=True)
    assert list(upper.values()) == ["≤0.04", "≤-0.1", "≤-124", "≤-3.5", "≤0", "≤81", "≤WIN",
                                    "≤LOSS", "≤0"]  # fmt: skip
    assert max(len(label) for label in upper.values()) == 5


def test_small_board_squares_get_compact_score_labels():
    state = othello.initial_state(8)
    scores = {move: -0.18123 for move in state.legal_moves()}
    bounds = dict.fromkeys(scores, "upper")
    # 65 px and 50 px squares: the same notation, one decimal less on the small one
    for pixels, expected in ((520, "≤-0.181"), (400, "≤-0.2")):
        fig = othello_plots.othello_figure(state, scores=scores, bounds=bounds, pixels=pixels)
        labels = _trace(fig, "score labels")
        assert set(labels.text) == {expected}
        cell = pixels / 8  # bold 14 px characters are under 7.5 px wide: inside the tile
        assert all(7.5 * len(text) <= 0.92 * cell for text in labels.text)


def test_search_tree_values_are_compact():
    result = choose_move(othello.initial_state(6), depth=3, time_limit=5.0, record_tree=True)
    fig = plots.search_tree_figure(result.stats.tree, othello.format_move)
    labels = [text for trace in fig.data if trace.text for text in trace.text if text]
    assert labels and max(len(text) for text in labels if text not in ("W", "L")) <= 5
    assert any("." in text for text in labels)  # fractional values keep two decimals at most
    assert all(len(text.rpartition(".")[2]) <= 2 for text in labels if "." in text)


def test_search_tree_inner_values_do_not_run_into_the_next_node():
    # a 6x6 depth-3 tree: at ply 2, inner nodes a few leaves apart used to overlap labels
    result = choose_move(othello.initial_state(6), depth=3, ordering=False, record_tree=True)
    tree = result.stats.tree
    fig = plots.search_tree_figure(tree, othello.format_move)
    inner = _trace(fig, "inner")
    position = plots._tree_layout(tree)
    xs = [x for x, _ in position.values()]
    pixels_per_unit = plots.TREE_PLOT_PIXELS / (max(xs) - min(xs) + 1)
    shown = [(x, y, text) for x, y, text in zip(inner.x, inner.y, inner.text, strict=True) if text]
    assert (position[0][0], 0) in {(x, y) for x, y, _ in shown}  # the root's value
    assert len(shown) < len(inner.x)  # some did not fit at 1024 px
    for x, y, text in shown:
        right = [nx for nx, ny in position.values() if ny == y and nx > x]
        if right:
            gap = (min(right) - x) * pixels_per_unit
            assert gap >= plots.CHAR_PIXELS * len(text) + 16
    # hidden values are still in the hover
    assert all("value" in hover for hover in inner.hovertext)


def test_a_small_tree_keeps_every_inner_value():
    result = choose_move(
        ToyState(AIMA_TREE), depth=2, heuristic=leaf_heuristic, ordering=False, record_tree=True
    )
    inner = _trace(plots.search_tree_figure(result.stats.tree, str), "inner")
    assert all(inner.text)


def test_edge_moves_are_named_only_on_plies_where_they_fit():
    result = choose_move(
        ToyState(AIMA_TREE), depth=2, heuristic=leaf_heuristic, ordering=False, record_tree=True
    )
    tree = result.stats.tree
    long_name = lambda move: f"long-move-{move}"  # noqa: E731 - 11 characters, as '11x18x25'
    fig = plots.search_tree_figure(tree, long_name)
    named = sorted(a.text for a in fig.layout.annotations)
    # the three root moves are far apart; the nine leaf edges are too close for such names
    assert named == sorted(long_name(n.move) for n in tree if n.ply == 1)
    assert plots.edge_label_plies(tree, plots._tree_layout(tree), long_name) == {1}
    # short names fit on both plies
    assert plots.edge_label_plies(tree, plots._tree_layout(tree), str) == {1, 2}


def test_a_big_tree_still_shows_the_root_value():
    result = choose_move(sim.initial_state(), depth=3, ordering=False, record_tree=True)
    tree = result.stats.tree
    assert len(tree) > 400
    inner = _trace(plots.search_tree_figure(tree, sim.format_move), "inner")
    assert "text" in inner.mode  # drawn, not only in the hover
    root = plots._tree_layout(tree)[0]
    shown = {(x, y) for x, y, text in zip(inner.x, inner.y, inner.text, strict=True) if text}
    assert root in shown


def test_move_score_bars_are_categories_so_checkers_moves_are_not_read_as_dates():
    from lib.games import checkers

    state = checkers.initial_state()
    scores = {move: float(i) for i, move in enumerate(state.legal_moves())}
    figure = plots.root_scores_figure(scores, checkers.format_move)
    assert figure.layout.yaxis.type == "category"
    names = list(figure.data[0].y)
    assert len(names) == len(scores) == len(set(names))
    assert any("-" in name for name in names)  # e.g. "11-15", which plotly would take for a date


def test_the_tree_title_counts_visited_nodes_as_the_statistics_do():
    state = othello.initial_state(6)
    result = choose_move(state, depth=3, record_tree=True, ordering=False, transposition=False)
    figure = plots.search_tree_figure(result.stats.tree, othello.format_move)
    visited = result.stats.tree_visited
    pruned = sum(1 for node in result.stats.tree if node.status == "pruned")
    assert pruned > 0  # the count differs from the records when something was pruned
    assert f"{visited:,} nodes visited" in figure.layout.title.text
    assert visited == result.stats.nodes
    assert f"{pruned:,} never visited" in figure.layout.title.text
