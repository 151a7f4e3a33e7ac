"""Every sidebar widget of a game page sends the browser its value as its default.

Why it matters: :mod:`tests.pages.widget_defaults` (a link's depth 8 came back as 1 mid-game
on a busy page). Checked for every slider, number box, toggle and select of the sidebar, on
the first run, on the runs after it, and after the visitor changes a setting.
"""

from __future__ import annotations

import pytest

from lib.games.core import available_games
from tests.pages.game_app import open_game_page
from tests.pages.widget_defaults import default_mismatches, seeded_widget_count


@pytest.mark.parametrize("game", list(available_games()))
def test_a_links_search_settings_are_each_widgets_default_on_every_run(game):
    spec = available_games()[game]
    second = spec.player_names[1].lower()
    app = open_game_page(game, **{second: "alphabeta:depth=3,time=2.5,beam=2,ordering=false"})
    assert not app.exception
    assert app.slider(key=f"{game}_p1_w_depth").value == 3  # the link's value, not the minimum
    assert seeded_widget_count(app.sidebar) >= 8 and default_mismatches(app.sidebar) == []
    app.run()  # a run after the seeding one
    assert default_mismatches(app.sidebar) == []
    app.slider(key=f"{game}_p1_w_time").set_value(4.0).run()
    app.toggle(key=f"{game}_p1_w_tt").set_value(False).run()
    assert app.slider(key=f"{game}_p1_w_time").value == 4.0
    assert default_mismatches(app.sidebar) == []


def test_mcts_settings_are_each_widgets_default():
    app = open_game_page("tictactoe", o="mcts:sims=300,time=2,c=0.7,rollout=heuristic")
    assert not app.exception
    assert app.number_input(key="tictactoe_p1_w_sims").value == 300
    assert default_mismatches(app.sidebar) == []
    app.run()
    assert default_mismatches(app.sidebar) == []
    app.slider(key="tictactoe_p1_w_c").set_value(1.5).run()
    assert default_mismatches(app.sidebar) == []


def test_a_changed_algorithm_keeps_the_depth_as_its_default():
    app = open_game_page("othello", white="alphabeta:depth=4")
    app.selectbox(key="othello_p1_w_kind").set_value("minimax").run()
    assert app.slider(key="othello_p1_w_depth").value == 4
    assert default_mismatches(app.sidebar) == []
