"""The Sim page under AppTest: who starts, lines coloured through the move list, the AI's
reply, the perfect-play verdict, the perfect player through AI-vs-AI autoplay; the handler."""

from __future__ import annotations

import numpy as np
from streamlit.testing.v1 import AppTest

from lib.games import sim
from lib.games.drawing.view import BoardView
from lib.games.session import GameSession
from lib.games.sim import view as sim_view
from lib.ui.common import escape_markdown
from tests.pages.game_app import (
    LAST_SEARCH_TAB,
    RECORD_TAB,
    open_game_page,
    open_panels,
    record,
    session,
)


def _open(*, tab: str | None = RECORD_TAB, buttons: bool = True, **params: str) -> AppTest:
    # played through the button board, the game record in view (both drawn only when open)
    return open_game_page("sim", tab=tab, buttons=buttons, **params)


def _play(app: AppTest, line: str) -> AppTest:
    app.selectbox(key="sim_w_move_text").set_value(line)
    return app.button(key="sim_w_play_listed").click().run()


def test_first_load_with_red_starting():
    app = _open(first="red")
    assert not app.exception
    assert app.title[0].value == "The Game of Sim"
    assert session(app, "sim").state == sim.initial_state(sim.RED)
    assert "0/15 lines coloured" in app.info[0].value
    assert "Red** to move (Human): click the marker of a dashed line" in app.info[0].value
    verdict = " ".join(m.value for m in app.markdown)
    assert "**Blue wins**" in verdict  # the second player wins the empty board
    assert app.selectbox(key="sim_w_opt_first").label == "Who starts"


def test_a_few_lines_and_the_ai_replies():
    app = _open(first="red", blue="alphabeta:depth=3")
    for turn in range(3):
        state = session(app, "sim").state
        line = sim.format_move(state.legal_moves()[0])
        _play(app, line)
        assert not app.exception
        moves = record(app)
        assert moves[2 * turn] == line and len(moves) == 2 * turn + 2
    state = session(app, "sim").state
    assert state.coloured() == 6
    assert f"{state.coloured()}/15 lines coloured" in app.info[0].value
    open_panels(app, "sim", tab=LAST_SEARCH_TAB).run()
    metrics = {m.label: m.value for m in app.metric}
    assert int(metrics["Nodes"].replace(",", "")) > 0


def test_blue_starts_and_the_ai_moves_first():
    app = _open(first="blue", blue="greedy")
    state = session(app, "sim").state
    assert state.coloured() == 1 and state.blue.bit_count() == 1 and state.to_move == sim.RED


def test_perfect_player_wins_as_second_player_through_autoplay():
    app = _open(first="red", red="random", blue="perfect")
    app.toggle(key="sim_w_autoplay").set_value(True).run()
    assert not app.exception
    state = session(app, "sim").state
    assert state.is_terminal() and state.winner() == sim.BLUE
    assert "Blue wins" in app.success[0].value
    assert any("completed the triangle" in m.value for m in app.markdown)
    # the perfect player's last decision carries the exact value of every line it could play
    _, decision = session(app, "sim").last_decision()
    assert set(decision.stats.root_scores.values()) <= {-1.0, 1.0}


def test_click_handler():
    state = sim.position(red=[(1, 2)], blue=[(3, 4)])
    assert sim_view.move_for_click(state, (2, 5), None).move == (2, 5)
    assert sim_view.move_for_click(state, (5, 2), None).move == (2, 5)
    assert "already red" in sim_view.move_for_click(state, (1, 2), None).message
    assert "free" in sim_view.move_for_click(state, (7, 7), None).message
    fig = sim_view.figure(state, BoardView(last_move=(3, 4)))
    assert fig.data[-1].name == "lines"
    assert "Blue" in sim_view.status(state) and "2/15" in sim_view.status(state)


def test_url_text_in_a_warning_is_shown_as_text_not_as_an_image():
    evil = "![x](http://example.com/a.png)"
    app = _open(first=evil, blue=evil)
    assert not app.exception
    warnings = [w.value for w in app.warning]
    assert any("The link's first=" in w for w in warnings)
    assert any("The link's blue=" in w for w in warnings)
    assert all(escape_markdown(evil) in w for w in warnings)
    assert not any("](" in w for w in warnings)


def test_hint_uses_the_perfect_solver_and_outlines_its_line():
    state = sim.position(red=[(1, 2), (3, 4)], blue=[(1, 3), (2, 5)])
    app = _open(first="red", red="human", blue="alphabeta:depth=1")
    for line in ("1-2", "1-3", "3-4", "2-5"):
        session(app, "sim").play(sim.parse_move(line, session(app, "sim").state))
    assert session(app, "sim").state == state
    app.button(key="sim_w_hint").click().run()
    assert not app.exception
    hint = session(app, "sim").hint
    exact = sim.move_values(state)
    assert hint.stats.root_scores == {m: float(v) for m, v in exact.items()}
    assert exact[hint.move] == max(exact.values())
    figure = sim_view.figure(state, BoardView(marked=hint.move))
    assert any(t.name == "suggested line" for t in figure.data)
    assert "Perfect" in app.button(key="sim_w_hint").help


def test_who_starts_names_and_autoplay_only_for_two_ai_players():
    app = _open(first="random")
    assert app.selectbox(key="sim_w_opt_first").options == ["Red", "Blue", "Coin toss"]
    assert app.toggle(key="sim_w_autoplay").disabled  # a person plays one side
    app = _open(first="red", red="random", blue="greedy")
    assert not app.toggle(key="sim_w_autoplay").disabled


def test_verdict_names_every_triangle_closed_at_once():
    state = sim.position(
        red=[(1, 2), (1, 3), (2, 4), (3, 4), (2, 3)], blue=[(1, 5), (2, 6), (3, 5), (4, 6)]
    )
    assert len(sim.triangles_in(state.red)) == 2
    text = sim_view.verdict(state)
    assert "the triangles 1-2-3 and 2-3-4" in text


def test_verdict_agrees_in_number_with_the_winning_lines():
    rng = np.random.default_rng(3)
    seen = set()
    for _ in range(200):
        state = sim.initial_state(sim.RED)
        while not state.is_terminal() and len(seen) < 2:
            wins = sum(v > 0 for v in sim.move_values(state).values())
            text = sim_view.verdict(state)
            if wins == 1 and state.free().bit_count() > 1:
                assert f"1 of the {state.free().bit_count()} free lines keeps the win" in text
                seen.add(1)
            elif wins > 1:
                assert f"{wins} of the" in text and "lines keep the win" in text
                seen.add(2)
            moves = state.legal_moves()
            state = state.play(moves[int(rng.integers(len(moves)))])
        if len(seen) == 2:
            break
    assert seen == {1, 2}


def test_the_pages_coin_toss_comes_from_the_sessions_seed():
    def first(seed: int) -> int:
        return GameSession.new(sim.GAME, {"first": sim.RANDOM}, seed).state.to_move

    assert [first(seed) for seed in range(8)] == [first(seed) for seed in range(8)]
    assert {first(seed) for seed in range(8)} == {sim.RED, sim.BLUE}
    assert all(first(seed) == sim.initial_state(sim.RANDOM, seed).to_move for seed in range(8))
