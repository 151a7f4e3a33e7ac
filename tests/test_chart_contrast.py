"""Axis text of the app's charts on a projector: 4.5:1 contrast against the page (WCAG AA).

Streamlit's chart theme draws tick labels and axis titles that a figure leaves
uncoloured in grey rgb(128, 132, 149), 3.7:1 on white (the browser tests read
the drawn colours); so every axis a chart shows must colour its text itself.
"""

from __future__ import annotations

import re

import plotly.graph_objects as go
import pytest

from lib.charts import TEXT_COLOR
from lib.games import tictactoe
from lib.games.core import available_games
from lib.games.drawing import figures as plots
from lib.games.drawing import search_charts as search_plots
from lib.games.drawing.view import BoardView, load_adapter
from lib.games.search.fast import choose_move
from tests.test_charts import app_background, contrast_ratio

STREAMLIT_AXIS_GREY = "rgb(128, 132, 149)"
"""What Streamlit's chart theme draws uncoloured axis text in."""
AXIS_NAME = re.compile(r"^[xy]axis\d*$")


def axis_text_colours(fig: go.Figure) -> dict[str, str]:
    """The colour each shown axis's tick labels and title are drawn in (the theme's grey if
    the figure leaves it unset), named ``"xaxis ticks"``, ``"yaxis2 title"``..."""
    names = {"xaxis", "yaxis"} | {n for n in fig.layout.to_plotly_json() if AXIS_NAME.match(n)}
    colours: dict[str, str] = {}
    for name in sorted(names):
        axis = fig.layout[name]
        if axis.visible is False:
            continue
        if axis.showticklabels is not False:
            colours[f"{name} ticks"] = axis.tickfont.color or STREAMLIT_AXIS_GREY
        if axis.title.text:
            colours[f"{name} title"] = axis.title.font.color or STREAMLIT_AXIS_GREY
    return colours


def low_contrast(fig: go.Figure) -> dict[str, float]:
    """The axis texts of ``fig`` under 4.5:1 against the app's background, with their ratio."""
    background = app_background()
    ratios = {
        where: contrast_ratio(colour, background)
        for where, colour in axis_text_colours(fig).items()
    }
    return {where: round(ratio, 2) for where, ratio in ratios.items() if ratio < 4.5}


def test_the_check_sees_the_themes_grey_and_the_apps_text_colour():
    bare = go.Figure(go.Bar(x=["a"], y=[1]))
    bare.update_layout(xaxis_title="move")
    assert set(low_contrast(bare)) == {"xaxis ticks", "xaxis title", "yaxis ticks"}
    bare.update_xaxes(tickfont_color=TEXT_COLOR, title_font_color=TEXT_COLOR)
    bare.update_yaxes(visible=False)
    assert low_contrast(bare) == {}
    # the theme's own text colour and the charts' both pass on the theme's background
    assert contrast_ratio(TEXT_COLOR, app_background()) >= 4.5


@pytest.mark.parametrize("name", sorted(available_games()))
def test_every_games_board_labels_its_rows_and_columns_readably(name):
    game = available_games()[name]
    adapter = load_adapter(game)
    state = game.initial_state()
    for view in (BoardView(), BoardView(title="Score of each move it considered", pixels=400)):
        fig = adapter.figure(state, view)
        assert low_contrast(fig) == {}, (name, view.title)
        if view.title:
            assert contrast_ratio(fig.layout.title.font.color, app_background()) >= 4.5


def test_every_search_chart_labels_its_axes_readably():
    state = tictactoe.initial_state().play(4)  # a centre opening: a small tree
    result = choose_move(state, depth=2, record_tree=True, exact_root_scores=True)
    stats = result.stats
    figures = {
        "move scores": plots.root_scores_figure(
            stats.root_scores, tictactoe.format_move, stats.root_bounds, result.move
        ),
        "tree": plots.search_tree_figure(stats.tree, tictactoe.format_move),
        "iterations": search_plots.iterations_figure(stats.iterations),
        "variants": search_plots.variants_figure(
            [
                {"variant": "minimax", "nodes": 64, "ebf": 8.0},
                {"variant": "alpha-beta", "nodes": 20, "ebf": 4.5},
            ]
        ),
    }
    for name, fig in figures.items():
        assert low_contrast(fig) == {}, name
