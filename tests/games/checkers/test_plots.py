"""The checkers board figure: click targets, square numbering, orientation, move-score heat."""

from __future__ import annotations

import pytest

from lib.games import checkers
from lib.games.checkers.plots import (
    BLACK_PIECE,
    WHITE_PIECE,
    checkers_figure,
    display_position,
    move_heat,
    square_from_display,
)
from lib.games.drawing.figures import MIN_FONT, square_from_point


def _circles(fig, fill: str) -> list[tuple[float, float]]:
    """Centres (row, col) of the circle shapes filled with ``fill``."""
    return [
        ((shape.y0 + shape.y1) / 2, (shape.x0 + shape.x1) / 2)
        for shape in fig.layout.shapes
        if shape.type == "circle" and shape.fillcolor == fill
    ]


@pytest.mark.parametrize("flipped", [False, True])
def test_display_positions_round_trip(flipped):
    seen = set()
    for square in range(1, 33):
        row, col = display_position(square, flipped)
        assert square_from_display(row, col, flipped) == square
        seen.add((row, col))
    assert len(seen) == 32
    assert display_position(1, flipped=True) == (7, 6)


def test_figure_has_one_click_target_per_grid_square_last():
    state = checkers.initial_state()
    fig = checkers_figure(state, selected=[11], targets=[15, 16], last_move=(22, 18))
    targets = fig.data[-1]
    assert targets.name == "squares"
    assert len(targets.customdata) == 64
    assert len(_circles(fig, BLACK_PIECE[0])) == 12
    assert len(_circles(fig, WHITE_PIECE[0])) == 12
    dots = set(_circles(fig, "rgba(255,255,255,0.6)"))
    assert dots == {display_position(15), display_position(16)}
    numbers = next(t for t in fig.data if t.name == "square numbers")
    assert list(numbers.text) == [str(s) for s in range(1, 33)]
    # a click on the marker of square 15 maps back to 15
    row, col = display_position(15)
    point = {"customdata": [row, col], "x": col, "y": row}
    assert square_from_display(*square_from_point(point)) == 15


def test_turned_board_keeps_board_coordinates_for_clicks():
    fig = checkers_figure(checkers.initial_state(), flipped=True)
    targets = fig.data[-1]
    for (x, y), data in zip(
        zip(targets.x, targets.y, strict=True), targets.customdata, strict=True
    ):
        assert list(data) == [7 - y, 7 - x]
    # square 1 is drawn at the bottom right, and a click there still means square 1
    row, col = display_position(1, flipped=True)
    spots = list(zip(targets.y, targets.x, strict=True))
    index = spots.index((row, col))
    assert square_from_display(*targets.customdata[index]) == 1


def test_kings_are_marked():
    state = checkers.position(black_kings=[14], white=[20])
    fig = checkers_figure(state)
    labels = next(t for t in fig.data if t.name == "piece labels")
    assert list(labels.text) == ["K"]
    assert (labels.y[0], labels.x[0]) == display_position(14)


def test_move_heat_shows_best_move_per_piece_or_destination():
    scores = {(11, 15): 0.5, (11, 16): -0.2, (9, 13): 0.1, (9, 14): 0.7}
    assert move_heat(scores, None) == {11: (0.5, (11, 15)), 9: (0.7, (9, 14))}
    assert move_heat(scores, 11) == {15: (0.5, (11, 15)), 16: (-0.2, (11, 16))}
    fig = checkers_figure(checkers.initial_state(), scores=scores)
    labels = next(t for t in fig.data if t.name == "score labels")
    assert len(labels.text) == 2


def test_score_labels_are_drawn_over_the_pieces_and_numbers_are_readable():
    # a hint with no piece selected puts each movable piece's best score on that piece
    scores = {(11, 15): 0.0429, (9, 13): -0.01}
    fig = checkers_figure(checkers.initial_state(), scores=scores)
    discs = [s for s in fig.layout.shapes if s.type == "circle" and s.fillcolor in BLACK_PIECE]
    assert len(discs) == 12 and all(s.layer == "below" for s in discs)  # under every trace
    labels = next(t for t in fig.data if t.name == "score labels")
    assert sorted(labels.text) == ["+0.0429", "-0.01"]
    assert labels.textfont.size >= MIN_FONT
    for (row, col), x, y in zip(
        [display_position(11), display_position(9)], labels.x, labels.y, strict=True
    ):
        assert x == col and row < y < row + 0.5  # on the piece's square, below its centre
    numbers = next(t for t in fig.data if t.name == "square numbers")
    assert numbers.textfont.size >= MIN_FONT
    small = checkers_figure(checkers.initial_state(), pixels=320)
    assert next(t for t in small.data if t.name == "square numbers").textfont.size >= MIN_FONT


def test_the_400_pixel_board_gets_compact_score_labels():
    scores = {(11, 15): 0.0429, (9, 13): -0.01}
    fig = checkers_figure(checkers.initial_state(), scores=scores, pixels=400)
    labels = next(t for t in fig.data if t.name == "score labels")
    assert sorted(labels.text) == ["+0.04", "-0.01"]  # 50 px squares: five characters at most
