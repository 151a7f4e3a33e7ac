"""Board drawing data: every game's board figure kept whole; what cannot be drawn refused."""

from __future__ import annotations

import json
import random

import numpy as np
import plotly.graph_objects as go
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lib.games.core import get_game
from lib.games.drawing.board_drawing import _per_point, drawing
from lib.games.drawing.view import BoardView, load_adapter

GAMES = ["othello", "checkers", "sim", "tictactoe", "connect_four"]


def _positions(name: str, plies: int = 30, seed: int = 3):
    """Positions of a random game of ``name`` with a view of each (scores, last move)."""
    game = get_game(name)
    rng = random.Random(seed)
    state, previous, last = game.initial_state(), None, None
    for _ply in range(plies):
        moves = state.legal_moves()
        scores = {m: rng.uniform(-1, 1) for m in moves}
        bounds = {m: "≤" for m in moves[::2]}
        marked = moves[0] if moves else None
        yield (
            state,
            BoardView(
                last_move=last,
                previous=previous,
                scores=scores,
                bounds=bounds,
                title="t",
                marked=marked,
                show_legal=_ply % 3 != 0,
                flipped=_ply % 2 == 1,  # games that cannot turn round ignore it
            ),
        )
        if not moves:
            return
        previous, last = state, rng.choice(moves)
        state = state.play(last)


@pytest.mark.parametrize("name", GAMES)
def test_every_board_keeps_its_shapes_traces_and_click_targets(name):
    adapter = load_adapter(get_game(name))
    for state, view in _positions(name):
        fig = adapter.figure(state, view)
        drawn = json.loads(json.dumps(drawing(fig)))  # JSON-ready
        assert (drawn["width"], drawn["height"]) == (fig.layout.width, fig.layout.height)
        assert [s["x0"] for s in drawn["shapes"]] == [s.x0 for s in fig.layout.shapes]
        assert [s["fillcolor"] for s in drawn["shapes"]] == [s.fillcolor for s in fig.layout.shapes]
        assert [t["name"] for t in drawn["traces"]] == [t.name for t in fig.data]
        for trace, original in zip(drawn["traces"], fig.data, strict=True):
            count = len(original.x)
            assert trace["x"] == list(original.x) and trace["y"] == list(original.y)
            for values in (trace["marker"]["size"], trace["marker"]["color"], trace["text"]):
                assert len(values) == count  # spelled out per point
            # colours are CSS colours, never numbers left for a colour scale
            assert all(isinstance(c, str) for c in trace["marker"]["color"])
        (targets,) = [t for t in drawn["traces"] if t["customdata"]]  # one click target trace
        assert all(len(target) == 2 for target in targets["customdata"])
        assert targets["hover"] is not None and all(targets["hover"])


def test_the_othello_board_targets_every_square_in_board_coordinates():
    adapter = load_adapter(get_game("othello"))
    drawn = drawing(adapter.figure(get_game("othello").initial_state(size=6), BoardView()))
    (targets,) = [t for t in drawn["traces"] if t["customdata"]]
    assert sorted(map(tuple, targets["customdata"])) == [(r, c) for r in range(6) for c in range(6)]
    for (row, col), x, y in zip(targets["customdata"], targets["x"], targets["y"], strict=True):
        assert (x, y) == (col, row)
    assert drawn["x"]["ticks"][0] == [0, "a"] and drawn["y"]["ticks"][0] == [0, "1"]
    assert drawn["y"]["range"] == [5.5, -0.5] and drawn["y"]["equal"]  # row 1 at the top


def test_numeric_marker_colours_go_through_their_colour_scale():
    fig = go.Figure(
        go.Scatter(
            x=[0, 1, 2],
            y=[0, 0, 0],
            mode="markers",
            marker={"color": [-1, 0, 1], "colorscale": "RdYlGn", "cmin": -1, "cmax": 1},
        )
    )
    fig.update_layout(width=100, height=100, xaxis_range=[0, 2], yaxis_range=[0, 1])
    colours = drawing(fig)["traces"][0]["marker"]["color"]
    assert colours[0] == "rgb(165, 0, 38)" and colours[2] == "rgb(0, 104, 55)"  # RdYlGn ends


def _figure(*traces, shapes=()) -> go.Figure:
    fig = go.Figure(list(traces))
    fig.update_layout(
        width=100, height=100, xaxis_range=[0, 1], yaxis_range=[0, 1], shapes=list(shapes)
    )
    return fig


@pytest.mark.parametrize(
    "fig",
    [
        _figure(go.Bar(x=[1], y=[1])),
        _figure(go.Scatter(x=[0, 1], y=[0, 1], fill="tozeroy")),
        _figure(go.Scatter(x=[0], y=[0], mode="none")),
        _figure(shapes=[{"type": "line", "x0": 0, "x1": 1, "y0": 0, "y1": 1}]),
        _figure(go.Scatter(x=[0, 1], y=[0, 1], marker={"size": [1, 2, 3]})),
        _figure(go.Scatter(x=[0], y=[0], marker={"symbol": "diamond"})),
        _figure(go.Scatter(x=[0], y=[0], mode="text", text="a", textposition="top center")),
        _figure(go.Scatter(x=[0, 1], y=[0, 1], customdata=[[0, 0]])),
        _figure(go.Scatter(x=[0], y=[0], line={"dash": "4px,2px"})),
        _figure(go.Scatter(x=[0], y=[0])).add_annotation(x=0, y=0, text="a"),
        _figure(go.Scatter(x=[0], y=[0])).update_yaxes(autorange="reversed"),
    ],
    ids=[
        "bar",
        "fill",
        "mode",
        "line shape",
        "sizes",
        "symbol",
        "text position",
        "targets",
        "dash",
        "annotation",
        "autorange",
    ],
)
def test_what_the_board_cannot_draw_is_refused(fig):
    with pytest.raises(ValueError):
        drawing(fig)


@given(
    st.one_of(st.none(), st.integers(), st.text(max_size=3), st.lists(st.integers(), max_size=5)),
    st.integers(0, 5),
)
def test_a_style_is_given_for_each_point(value, count):
    if isinstance(value, list) and len(value) != count:
        with pytest.raises(ValueError):
            _per_point(value, count, "d")
        return
    values = _per_point(value, count, "d")
    assert len(values) == count
    if value is None:
        assert values == ["d"] * count
    elif isinstance(value, list):
        assert values == value
    else:
        assert values == [value] * count


def test_a_bare_figure_gets_plotlys_defaults():
    # a plug-in game's board may leave the size and the ranges to plotly
    drawn = drawing(go.Figure(go.Scatter(x=[0, 1, 2], y=[0, 0, 0], customdata=[[0, 0]] * 3)))
    assert (drawn["width"], drawn["height"]) == (700, 450)
    low, high = drawn["x"]["range"]
    assert low < 0 and high > 2  # the data inside, with a margin
    assert drawn["y"]["range"][0] < 0 < drawn["y"]["range"][1]
    assert drawn["traces"][0]["mode"] == "lines+markers"


def test_numpy_data_text_outlines_and_hidden_traces():
    fig = _figure(
        go.Scatter(
            x=np.arange(3),
            y=np.array([0.5, 0.25, 0.0]),
            customdata=np.array([[0, 0], [0, 1], [0, 2]]),
            mode="markers+text",
            text=["1", "2", "3"],
            textfont={"shadow": "1px 1px 2px #000"},
        ),
        go.Scatter(x=[0], y=[0], visible=False, name="hidden"),
    )
    (trace,) = drawing(fig)["traces"]  # the hidden trace is not drawn
    assert trace["x"] == [0, 1, 2] and trace["y"] == [0.5, 0.25, 0.0]  # plotly's typed arrays
    assert trace["customdata"] == [[0, 0], [0, 1], [0, 2]]
    assert trace["font"]["outline"] == "#000000"  # the shadow drawn as an outline
    ticks = drawing(_figure(go.Scatter(x=[0], y=[0])).update_xaxes(tickvals=[0, 1]))["x"]["ticks"]
    assert ticks == [[0, "0"], [1, "1"]]  # tick labels default to the values
