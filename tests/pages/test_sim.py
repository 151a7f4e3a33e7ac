"""The Sim page under AppTest: who starts, lines coloured through the move list, the AI's
reply, the perfect-play verdict, the perfect player through AI-vs-AI autoplay; the handler."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from lib.games import sim
from lib.ui import game_page, sim_view

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "sim.py")


def _app(**params: str) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=60)
    for name, value in params.items():
        app.query_params[name] = value
    return app.run()


def _session(app: AppTest) -> game_page.GameSession:
    return app.session_state["sim_session"]


def _record(app: AppTest) -> list[str]:
    return app.code[0].value.split() if len(app.code) else []


def _play(app: AppTest, line: str) -> AppTest:
    app.selectbox(key="sim_w_move_text").set_value(line)
    return app.button(key="sim_w_play_listed").click().run()


def test_first_load_with_red_starting():
    app = _app(first="red")
    assert not app.exception
    assert app.title[0].value == "The Game of Sim"
    assert _session(app).state == sim.initial_state(sim.RED)
    assert "0/15 lines coloured" in app.info[0].value
    verdict = " ".join(m.value for m in app.markdown)
    assert "**Blue wins**" in verdict  # the second player wins the empty board
    assert app.selectbox(key="sim_w_opt_first").label == "Who starts"


def test_a_few_lines_and_the_ai_replies():
    app = _app(first="red", blue="alphabeta:depth=3")
    for turn in range(3):
        state = _session(app).state
        line = sim.format_move(state.legal_moves()[0])
        _play(app, line)
        assert not app.exception
        moves = _record(app)
        assert moves[2 * turn] == line and len(moves) == 2 * turn + 2
    state = _session(app).state
    assert state.coloured() == 6
    assert f"{state.coloured()}/15 lines coloured" in app.info[0].value
    metrics = {m.label: m.value for m in app.metric}
    assert int(metrics["Nodes"].replace(",", "")) > 0


def test_blue_starts_and_the_ai_moves_first():
    app = _app(first="blue", blue="greedy")
    state = _session(app).state
    assert state.coloured() == 1 and state.blue.bit_count() == 1 and state.to_move == sim.RED


def test_perfect_player_wins_as_second_player_through_autoplay():
    app = _app(first="red", red="random", blue="perfect")
    app.toggle(key="sim_w_autoplay").set_value(True).run()
    assert not app.exception
    state = _session(app).state
    assert state.is_terminal() and state.winner() == sim.BLUE
    assert "Blue wins" in app.success[0].value
    assert any("completed the triangle" in m.value for m in app.markdown)
    # the perfect player's last decision carries the exact value of every line it could play
    _, decision = _session(app).last_decision()
    assert set(decision.stats.root_scores.values()) <= {-1.0, 1.0}


def test_click_handler():
    state = sim.position(red=[(1, 2)], blue=[(3, 4)])
    assert sim_view.move_for_click(state, (2, 5), None).move == (2, 5)
    assert sim_view.move_for_click(state, (5, 2), None).move == (2, 5)
    assert "already red" in sim_view.move_for_click(state, (1, 2), None).message
    assert "free" in sim_view.move_for_click(state, (7, 7), None).message
    fig = sim_view.figure(state, game_page.BoardView(last_move=(3, 4)))
    assert fig.data[-1].name == "lines"
    assert "Blue" in sim_view.status(state) and "2/15" in sim_view.status(state)
