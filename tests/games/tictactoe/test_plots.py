"""The tic-tac-toe board figure: a click target per square, marks, last move, a completed
line, the heat map of move scores and the hint."""

from __future__ import annotations

from lib.games import tictactoe
from lib.games.drawing import figures as plots
from lib.games.search.fast import choose_move
from lib.games.tictactoe import CROSS, NOUGHT, state_from_text
from lib.games.tictactoe.plots import LEGAL_DOT, MARKS, tictactoe_figure


def _trace(fig, name: str):
    return next(t for t in fig.data if t.name == name)


def _circles(fig, colour: str) -> list:
    return [s for s in fig.layout.shapes if s.type == "circle" and s.line.color == colour]


def test_one_click_target_per_square_in_board_coordinates():
    fig = tictactoe_figure(tictactoe.initial_state())
    squares = _trace(fig, "squares")
    assert len(squares.customdata) == 9
    for (row, col), x, y in zip(squares.customdata, squares.x, squares.y, strict=True):
        assert (x, y) == (col, row)
        assert plots.square_from_point({"customdata": [row, col]}) == (row, col)
    assert list(fig.layout.xaxis.ticktext) == ["a", "b", "c"]
    assert list(fig.layout.yaxis.ticktext) == ["1", "2", "3"]


def test_marks_last_move_and_legal_dots():
    state = state_from_text("X..\n.O.\n..X")
    fig = tictactoe_figure(state, last_move=8)
    fills = [s.fillcolor for s in fig.layout.shapes if s.type == "circle"]
    assert fills.count(MARKS[CROSS][0]) == 2 and fills.count(MARKS[NOUGHT][0]) == 1
    assert sorted(_trace(fig, "piece labels").text) == ["O", "X", "X"]
    (ring,) = _circles(fig, "#e53935")
    assert (ring.x0 + ring.x1) / 2 == 2 and (ring.y0 + ring.y1) / 2 == 2  # c3
    dots = [s for s in fig.layout.shapes if s.fillcolor == LEGAL_DOT]
    assert len(dots) == 6
    hidden = tictactoe_figure(state, show_legal=False)
    assert not [s for s in hidden.layout.shapes if s.fillcolor == LEGAL_DOT]
    assert "c3 (9): X" in _trace(fig, "squares").hovertext


def test_a_completed_line_is_ringed():
    state = state_from_text("XXX\nOO.\n...")
    rings = _circles(tictactoe_figure(state), "#ff9800")
    assert sorted(((s.y0 + s.y1) / 2, (s.x0 + s.x1) / 2) for s in rings) == [
        (0, 0),
        (0, 1),
        (0, 2),
    ]


def test_scores_are_a_heat_map_on_the_empty_squares_and_the_hint_is_outlined():
    state = state_from_text("XX.\nOO.\n...")
    result = choose_move(state, algorithm="alphabeta", depth=9, exact_root_scores=True)
    fig = tictactoe_figure(state, scores=result.stats.root_scores, marked=result.move)
    labels = _trace(fig, "score labels")
    cells = {
        (round(y), round(x)): text
        for x, y, text in zip(labels.x, labels.y, labels.text, strict=True)
    }
    assert cells[(0, 2)] == "WIN"  # c1 completes the top row
    assert cells[(1, 2)] == "0"  # c2 blocks O and draws
    assert {cells[(2, c)] for c in range(3)} == {"LOSS"}  # O then wins at c2
    outline = [s for s in fig.layout.shapes if s.type == "rect" and s.line.color == "#1e88e5"]
    assert len(outline) == 1 and outline[0].x0 == 2 - 0.47 and outline[0].y0 == -0.47
    dots = [s for s in fig.layout.shapes if s.fillcolor == LEGAL_DOT]
    assert not dots  # every empty square has a score instead


def _blend(colour: str, under: str) -> str:
    """``colour`` (``#rrggbb`` or ``rgba(r,g,b,a)``) drawn over ``under`` (``#rrggbb``)."""
    base = [int(under[i : i + 2], 16) for i in (1, 3, 5)]
    if colour.startswith("#"):
        return colour
    *rgb, alpha = (float(p) for p in colour[colour.index("(") + 1 : -1].split(","))
    mixed = [round(alpha * c + (1 - alpha) * b) for c, b in zip(rgb, base, strict=True)]
    return "#" + "".join(f"{c:02x}" for c in mixed)


def test_the_empty_squares_dots_stand_out_from_the_board():
    """Issue: the legal-move dots (247,249,249 on 236,239,241) were invisible on a projector:
    a dot needs 3:1 against its square (WCAG's contrast for graphics)."""
    from lib.games.tictactoe.plots import BOARD
    from tests.test_charts import contrast_ratio

    fig = tictactoe_figure(tictactoe.initial_state())
    dots = [s for s in fig.layout.shapes if s.type == "circle" and abs((s.x1 - s.x0) - 0.18) < 1e-6]
    assert len(dots) == 9
    for dot in dots:
        assert contrast_ratio(_blend(dot.fillcolor, BOARD), BOARD) >= 3, dot.fillcolor
