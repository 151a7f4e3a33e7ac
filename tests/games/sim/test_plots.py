"""The Sim figure: line click targets, the losing triangle, move scores."""

from __future__ import annotations

import itertools
import math

import pytest

from lib.games import sim
from lib.games.core import WIN_VALUE
from lib.games.drawing.figures import MIN_FONT
from lib.games.sim.plots import line_from_point, point_xy, sim_figure, target_xy


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


def _on_line(line: sim.Move, xy: tuple[float, float]) -> bool:
    """Whether ``xy`` lies on the segment ``line`` (strictly between its end points)."""
    (xa, ya), (xb, yb) = point_xy(line[0]), point_xy(line[1])
    cross = (xb - xa) * (xy[1] - ya) - (yb - ya) * (xy[0] - xa)
    t = ((xy[0] - xa) * (xb - xa) + (xy[1] - ya) * (yb - ya)) / math.dist((xa, ya), (xb, yb)) ** 2
    return abs(cross) < 1e-9 and 0.1 < t < 0.9


def test_every_target_sits_on_its_own_line_away_from_the_centre():
    for line in sim.LINES:
        assert _on_line(line, target_xy(line))
        assert math.hypot(*target_xy(line)) > 0.15  # not on the crossing of the diagonals


@pytest.mark.parametrize(("pixels", "title"), [(400, "Score of each move it considered"),
                                               (480, None)])  # fmt: skip
def test_score_badges_hold_their_labels_and_do_not_touch(pixels, title):
    # every line free and scored, with the widest labels the search gives
    values = [0.0429, -0.0512, 124.4, -124.0, 2.0, -3.5, WIN_VALUE, -WIN_VALUE, 0.0, 81.0,
              -0.0031, 12.5, 1.0, -1.0, 12_345.0]  # fmt: skip
    scores = dict(zip(sim.LINES, values, strict=True))
    bounds = {line: "upper" for line in sim.LINES[:6]} | {sim.LINES[9]: "lower"}
    fig = sim_figure(sim.initial_state(), scores=scores, bounds=bounds, pixels=pixels, title=title)
    badges = next(t for t in fig.data if t.name == "move scores")
    assert len(badges.text) == 15
    margin = fig.layout.margin
    across = min(fig.layout.width - margin.l - margin.r, fig.layout.height - margin.t - margin.b)
    per_unit = across / (fig.layout.xaxis.range[1] - fig.layout.xaxis.range[0])
    # bold characters at 14 px are under 8 px wide: every label fits inside its badge
    assert badges.textfont.size == MIN_FONT
    for text, size in zip(badges.text, badges.marker.size, strict=True):
        assert len(text) <= 5 and 8 * len(text) <= size, (text, size)
    spots = list(zip(badges.x, badges.y, badges.marker.size, strict=True))
    for (x1, y1, s1), (x2, y2, s2) in itertools.combinations(spots, 2):
        apart = max(abs(x1 - x2), abs(y1 - y2)) * per_unit  # squares: the larger offset
        assert apart >= (s1 + s2) / 2 + 4, ((x1, y1), (x2, y2), apart)  # a visible gap
