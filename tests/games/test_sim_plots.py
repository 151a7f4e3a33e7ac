"""The Sim figure: line click targets, the losing triangle, move scores."""

from __future__ import annotations

import itertools
import math

from lib.games import sim
from lib.games.plots import MIN_FONT
from lib.games.sim_plots import line_from_point, point_xy, sim_figure, target_xy


def test_click_targets_are_distinct_and_map_back_to_lines():
    fig = sim_figure(sim.initial_state())
    targets = fig.data[-1]
    assert targets.name == "lines"
    assert len(targets.customdata) == 15
    lines = [line_from_point({"customdata": data}) for data in targets.customdata]
    assert sorted(lines) == sorted(sim.LINES)
    spots = [target_xy(line) for line in sim.LINES]
    closest = min(math.dist(p, q) for p, q in itertools.combinations(spots, 2))
    assert closest > 0.2  # the long diagonals are nudged off the shared centre
    assert line_from_point({"customdata": [1, 1]}) is None
    assert line_from_point({}) is None


def test_points_on_a_circle():
    for point in range(1, 7):
        assert abs(math.hypot(*point_xy(point)) - 1) < 1e-12


def test_losing_triangle_is_highlighted_only_at_the_end():
    playing = sim.position(red=[(1, 2), (1, 3)], blue=[(4, 5)], to_move=sim.BLUE)
    assert "losing triangle" not in [t.name for t in sim_figure(playing).data]
    over = playing.play((5, 6)).play((2, 3))
    fig = sim_figure(over, last_move=(2, 3))
    triangle = next(t for t in fig.data if t.name == "losing triangle")
    corners = {(round(x, 6), round(y, 6)) for x, y in zip(triangle.x, triangle.y, strict=True)}
    assert corners == {tuple(round(v, 6) for v in point_xy(p)) for p in (1, 2, 3)}


def test_scores_label_only_free_lines():
    state = sim.position(red=[(1, 2)], blue=[(3, 4)])
    fig = sim_figure(state, scores={(1, 3): 2.0, (1, 2): 5.0, (5, 6): -1.0})
    scores = next(t for t in fig.data if t.name == "move scores")
    assert len(scores.text) == 2
    assert scores.textfont.size >= MIN_FONT  # readable on a projector


def test_the_marked_free_line_is_outlined_and_a_coloured_one_is_not():
    state = sim.position(red=[(1, 2)], blue=[(3, 4)])
    fig = sim_figure(state, marked=(2, 5))
    outline = [t for t in fig.data if t.name == "suggested line"]
    assert len(outline) == 1
    xs, ys = outline[0].x, outline[0].y
    ends = {(round(x, 6), round(y, 6)) for x, y in zip(xs, ys, strict=True) if x is not None}
    assert ends == {tuple(round(v, 6) for v in point_xy(p)) for p in (2, 5)}
    taken = sim_figure(state, marked=(1, 2))
    assert not any(t.name == "suggested line" for t in taken.data)
    assert not any(t.name == "suggested line" for t in sim_figure(state).data)
