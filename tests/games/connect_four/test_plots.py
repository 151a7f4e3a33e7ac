"""The Connect Four board figure: a click target per square, discs, the last disc, a completed
four, move scores on each column's landing square and the hint."""

from __future__ import annotations

import pytest

from lib.games import connect_four
from lib.games.connect_four import ROWS, state_from_moves
from lib.games.connect_four.plots import (
    DISCS,
    HOLE,
    LANDING_HOLE,
    connect_four_figure,
    display_row,
    landing_square,
)
from lib.games.drawing import figures as plots
from lib.games.search.fast import choose_move


def _trace(fig, name: str):
    return next(t for t in fig.data if t.name == name)


def _centre(shape) -> tuple[float, float]:
    return ((shape.y0 + shape.y1) / 2, (shape.x0 + shape.x1) / 2)


def _fills(fig) -> list[str]:
    return [s.fillcolor for s in fig.layout.shapes if s.type == "circle"]


def test_one_click_target_per_square_and_rows_counted_from_the_bottom():
    fig = connect_four_figure(connect_four.initial_state())
    squares = _trace(fig, "squares")
    assert len(squares.customdata) == 42
    for (row, col), x, y in zip(squares.customdata, squares.x, squares.y, strict=True):
        assert (x, y) == (col, row)
        assert plots.square_from_point({"customdata": [row, col]}) == (row, col)
    assert list(fig.layout.xaxis.ticktext) == list("abcdefg")
    assert list(fig.layout.yaxis.ticktext) == ["6", "5", "4", "3", "2", "1"]


def test_discs_holes_last_disc_and_landing_squares():
    state = state_from_moves("ddc")  # Red d1 c1, Yellow d2
    fig = connect_four_figure(state, last_move=2)
    fills = _fills(fig)
    assert fills.count(DISCS[connect_four.RED][0]) == 2
    assert fills.count(DISCS[connect_four.YELLOW][0]) == 1
    assert fills.count(LANDING_HOLE[0]) == 7  # one per column, where its next disc lands
    assert fills.count(HOLE[0]) == 42 - 3 - 7
    (ring,) = [s for s in fig.layout.shapes if s.type == "circle" and s.line.color == "#e53935"]
    assert _centre(ring) == (display_row(0), 2)  # c1, the disc just dropped
    dots = [s for s in fig.layout.shapes if s.fillcolor == "rgba(255,255,255,0.6)"]
    assert sorted(_centre(s) for s in dots) == sorted(
        landing_square(state, column) for column in range(7)
    )
    assert (display_row(2), 3) in [_centre(s) for s in dots]  # d3 above d1, d2


def test_a_full_column_has_no_landing_square():
    state = state_from_moves("aaaaaa")
    assert landing_square(state, 0) is None
    fig = connect_four_figure(state)
    dots = [s for s in fig.layout.shapes if s.fillcolor == "rgba(255,255,255,0.6)"]
    assert len(dots) == 6 and all(_centre(s)[1] != 0 for s in dots)


def test_a_completed_four_is_ringed():
    state = state_from_moves("ddccbae")  # Red b1 c1 d1 e1
    rings = [s for s in connect_four_figure(state).layout.shapes if s.line.color == "#ff9800"]
    assert sorted(_centre(s) for s in rings) == [(ROWS - 1, c) for c in (1, 2, 3, 4)]


@pytest.mark.parametrize("moves", ["", "ddcceg", "aaaaaadd"])
def test_scores_sit_on_the_landing_squares_and_the_hint_is_outlined(moves):
    state = state_from_moves(moves)
    result = choose_move(state, algorithm="alphabeta", depth=3, exact_root_scores=True)
    fig = connect_four_figure(state, scores=result.stats.root_scores, marked=result.move)
    labels = _trace(fig, "score labels")
    placed = {(round(y), round(x)) for x, y in zip(labels.x, labels.y, strict=True)}
    assert placed == {landing_square(state, column) for column in state.legal_moves()}
    outline = [s for s in fig.layout.shapes if s.type == "rect" and s.line.color == "#1e88e5"]
    assert len(outline) == 1
    assert _centre(outline[0]) == landing_square(state, result.move)
    # a scored landing square shows its heat tile, not a hole on top of it
    assert _fills(fig).count(LANDING_HOLE[0]) == 0
