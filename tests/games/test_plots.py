"""Game figures: clickable squares, heat-map colours and labels, search-tree drawing."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from lib.games import othello, plots
from lib.games.core import WIN_VALUE
from lib.games.search import choose_move
from tests.games.toy import AIMA_TREE, ToyState, leaf_heuristic


def _trace(fig: go.Figure, name: str):
    return next(t for t in fig.data if t.name == name)


def test_board_has_one_click_target_per_square_and_round_trips():
    state = othello.initial_state(6)
    fig = plots.othello_figure(state)
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
    fig = plots.othello_figure(after, last_move=othello.square(2, 3), flipped=flipped)
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
    fig = plots.othello_figure(state, scores=result.stats.root_scores, marked=result.move)
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
    iterations = plots.iterations_figure(result.stats.iterations)
    assert list(iterations.data[0].x) == ["1", "2", "3"]


def test_variants_figure_has_a_bar_per_variant():
    rows = [
        {"variant": "minimax", "nodes": 1000, "ebf": 10.0},
        {"variant": "alpha-beta", "nodes": 100, "ebf": 4.6},
    ]
    fig = plots.variants_figure(rows)
    assert list(fig.data[0].x) == ["minimax", "alpha-beta"]
    assert list(fig.data[0].y) == [1000, 100]
    assert fig.layout.yaxis.type == "log"
