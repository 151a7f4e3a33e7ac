"""Monte Carlo tree search on the game pages (AppTest): picked in the sidebar, its settings in the
link and within the page's caps, its statistics and visit counts after a move, the hint."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from lib.games import tictactoe
from lib.games.search.mcts import MctsStats
from lib.ui.game_controls import DEFAULT_TIME, UI_MAX_SIMULATIONS
from tests.pages.game_app import RECORD_TAB, open_game_page, open_panels, record, session


def _chart_titles(app: AppTest) -> list[str]:
    titles = []
    for chart in app.get("plotly_chart"):
        layout = json.loads(chart.proto.spec).get("layout", {})
        title = layout.get("title")
        titles.append(title.get("text", "") if isinstance(title, dict) else str(title or ""))
    return titles


def test_picking_mcts_in_the_sidebar_plays_with_it_and_shows_its_statistics():
    app = open_game_page("tictactoe", buttons=True)
    app.selectbox(key="tictactoe_p1_w_kind").set_value("mcts").run()
    assert not app.exception
    assert app.number_input(key="tictactoe_p1_w_sims").value == 1000
    app.number_input(key="tictactoe_p1_w_sims").set_value(250).run()
    assert app.query_params["o"] == "mcts:sims=250,time=5"
    app.button(key="tictactoe_w_cell_1_1").click().run()  # X b2, then the AI replies
    assert not app.exception
    assert len(session(app, "tictactoe").moves) == 2
    decision = session(app, "tictactoe").decisions[1]
    assert isinstance(decision.stats, MctsStats)
    metrics = {m.label: m.value for m in app.metric}
    assert metrics["Simulations"] == "250"
    assert int(metrics["Tree size"].replace(",", "")) == decision.stats.tree_nodes
    # the visit counts: bars and heat map titled so, and a table that adds up to the simulations
    titles = _chart_titles(app)
    assert titles.count("Visits of each move") == 2
    table = app.dataframe[0].value
    assert table["visits"].sum() == 250
    # the move played is the most visited (the table's first row, or tied with it)
    chosen = table[table["move"] == tictactoe.format_move(decision.move)]
    assert chosen["visits"].iloc[0] == table["visits"].max()
    line = " ".join(tictactoe.format_move(m) for m in decision.stats.principal_variation)
    assert any(f"Chosen line (most-visited path): **{line}**" in c.value for c in app.caption)
    open_panels(app, "tictactoe", tab=RECORD_TAB).run()
    assert len(record(app)) == 2
    assert "MCTS 250 sims / 5 s" in app.dataframe[0].value["player"].tolist()


def test_link_settings_beyond_the_caps_are_moved_inside_and_said():
    app = open_game_page("connect_four", yellow="mcts:sims=50000,c=9,rollout=heuristic,time=0.3")
    assert not app.exception
    assert app.number_input(key="connect_four_p1_w_sims").value == UI_MAX_SIMULATIONS
    assert app.slider(key="connect_four_p1_w_c").value == 4.0
    assert app.slider(key="connect_four_p1_w_mcts_time").value == 0.3
    assert app.selectbox(key="connect_four_p1_w_rollout").value == "heuristic"
    warnings = " ".join(w.value for w in app.warning)
    assert "sims 50000 → 20000 (this page allows 1 to 20,000 simulations)" in warnings
    assert "c 9 → 4 (this page allows c from 0 to 4)" in warnings


def test_a_link_with_a_time_budget_only_is_decided_by_the_time():
    app = open_game_page("connect_four", yellow="mcts:time=0.2")
    assert app.number_input(key="connect_four_p1_w_sims").value == UI_MAX_SIMULATIONS
    assert app.slider(key="connect_four_p1_w_mcts_time").value == 0.2


def test_the_hint_uses_the_mcts_player():
    app = open_game_page("connect_four", yellow="mcts:sims=200")
    app.button(key="connect_four_w_hint").click().run()
    assert not app.exception
    hint = session(app, "connect_four").hint
    assert isinstance(hint.stats, MctsStats) and hint.stats.simulations == 200
    assert any("how often each move was tried (200 simulations)" in c.value for c in app.caption)


def test_two_mcts_players_finish_a_game_through_autoplay():
    app = open_game_page("tictactoe", x="mcts:sims=150", o="mcts:sims=150,c=0.8")
    app.toggle(key="tictactoe_w_autoplay").set_value(True).run()
    assert not app.exception
    state = session(app, "tictactoe").state
    assert state.is_terminal()
    assert "Game over" in app.success[0].value


def test_switching_back_from_mcts_does_not_carry_its_time_budget_to_alpha_beta():
    app = open_game_page("connect_four")
    app.selectbox(key="connect_four_p1_w_kind").set_value("mcts").run()
    assert app.query_params["yellow"] == "mcts:sims=1000,time=5"
    app.selectbox(key="connect_four_p1_w_kind").set_value("alphabeta").run()
    assert not app.exception
    assert app.slider(key="connect_four_p1_w_time").value == DEFAULT_TIME
    assert app.query_params["yellow"] == "alphabeta:depth=none,time=1"  # the default AI's
