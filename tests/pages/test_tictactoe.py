"""The tic-tac-toe page under AppTest: first load, a whole game through the button grid against
the default AI (which never loses), occupied squares, AI vs AI to a draw; the click handler."""

from __future__ import annotations

import time

from streamlit.testing.v1 import AppTest

from lib.games import tictactoe
from lib.games.drawing import figures as plots
from lib.games.drawing.view import BoardView
from lib.games.session import GameSession
from lib.games.tictactoe import CROSS, NOUGHT
from lib.games.tictactoe import view as tictactoe_view
from lib.ui import game_page
from lib.ui.game_board import handle_square
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
    return open_game_page("tictactoe", tab=tab, buttons=buttons, **params)


def _cell(app: AppTest, row: int, col: int) -> AppTest:
    return app.button(key=f"tictactoe_w_cell_{row}_{col}").click().run()


def test_first_load():
    app = _open()
    assert not app.exception
    assert app.title[0].value == "Tic-tac-toe"
    assert session(app, "tictactoe").state == tictactoe.initial_state()
    assert "**X** to move (Human): click an empty square" in app.info[0].value
    assert "lines still open: X 8, O 8" in app.info[0].value
    labels = [b.label for b in app.button if b.key and b.key.startswith("tictactoe_w_cell_")]
    assert labels == [f"{c}{r}" for r in (1, 2, 3) for c in "abc"]
    verdict = " ".join(m.value for m in app.markdown)
    assert "With perfect play from here the game is a **draw**." in verdict
    # the default AI plays O without a depth cap: to the end of the game within its second
    assert app.selectbox(key="tictactoe_p1_w_kind").value == "alphabeta"
    assert app.slider(key="tictactoe_p1_w_depth").value == 0


def test_a_whole_game_through_the_buttons_against_the_default_ai():
    app = _open()
    for _ in range(5):
        state = session(app, "tictactoe").state
        if state.is_terminal():
            break
        move = state.legal_moves()[-1]  # the human takes the last empty square each time
        before = len(record(app))
        _cell(app, *divmod(move, 3))
        assert not app.exception
        assert record(app)[before] == tictactoe.format_move(move)
    state = session(app, "tictactoe").state
    assert state.is_terminal()
    assert state.winner() != CROSS  # the AI never loses
    assert "Game over" in app.success[0].value
    assert record(app) == [tictactoe.format_move(m) for m in session(app, "tictactoe").moves]
    labels = {b.label for b in app.button if b.key and b.key.startswith("tictactoe_w_cell_")}
    assert sum(label.endswith(" O") for label in labels) == state.o.bit_count()
    open_panels(app, "tictactoe", tab=LAST_SEARCH_TAB).run()
    metrics = {m.label: m.value for m in app.metric}
    assert int(metrics["Nodes"].replace(",", "")) > 0


def test_an_occupied_square_gets_a_message():
    app = _open(o="greedy")
    _cell(app, 1, 1)
    assert record(app)[0] == "b2" and len(record(app)) == 2
    _cell(app, 1, 1)
    assert not app.exception
    assert any("b2 already holds an X" in w.value for w in app.warning)
    assert len(record(app)) == 2


def test_two_perfect_ais_draw_through_autoplay():
    app = _open(x="alphabeta:depth=8", o="alphabeta:depth=8")
    assert record(app) == []
    app.toggle(key="tictactoe_w_autoplay").set_value(True).run()
    assert not app.exception
    state = session(app, "tictactoe").state
    assert state.is_terminal() and state.winner() is None
    assert "Draw" in app.success[0].value


def test_autoplay_shows_each_move_for_its_pace_and_step_plays_at_once(monkeypatch):
    app = _open(x="alphabeta:depth=8", o="alphabeta:depth=8")
    started = time.monotonic()
    app.toggle(key="tictactoe_w_autoplay").set_value(True).run()
    plies = len(record(app))
    assert plies == 9 and time.monotonic() - started >= plies * game_page.AUTOPLAY_PACE
    monkeypatch.setattr(game_page, "AUTOPLAY_PACE", 10.0)  # Step never waits for it
    app = _open(x="alphabeta:depth=8", o="alphabeta:depth=8")
    started = time.monotonic()
    app.button(key="tictactoe_w_step").click().run()
    assert len(record(app)) == 1 and time.monotonic() - started < 8.0


def test_verdict():
    def verdict(text: str) -> str:
        return tictactoe_view.verdict(tictactoe.state_from_text(text))

    assert verdict("...\n...\n...") == "With perfect play from here the game is a **draw**."
    assert verdict("XX.\nOO.\n...") == "With perfect play from here **X wins**."  # c1 now
    # O to move takes c2 before X can take c1
    assert verdict("XX.\nOO.\nX..") == "With perfect play from here **O wins**."
    assert verdict("X.O\nXO.\nOX.") == "O has three in a row: c1, b2, a3."
    assert verdict("XOX\nXOO\nOXX") == "The board is full without three in a row: a draw."


def test_click_handler():
    state = tictactoe.state_from_text("X..\n.O.\n...")
    point = {"customdata": [2, 1]}
    assert tictactoe_view.move_for_square(state, plots.square_from_point(point), None).move == 7
    assert "already holds an O" in tictactoe_view.move_for_square(state, (1, 1), None).message
    assert "outside" in tictactoe_view.move_for_square(state, (3, 0), None).message
    assert tictactoe_view.cell_label(state, 0, 0) == "a1 X"
    assert tictactoe_view.cell_label(state, 1, 1) == "b2 O"
    fig = tictactoe_view.figure(state, BoardView(last_move=4))
    assert fig.data[-1].name == "squares"
    session_ = GameSession.new(tictactoe.GAME, {})
    handle_square(tictactoe_view.ADAPTER, session_, (0, 2), human_sides={CROSS})
    assert session_.moves == [2]
    handle_square(tictactoe_view.ADAPTER, session_, (0, 0), human_sides={CROSS})
    assert session_.moves == [2] and "O is thinking…" in session_.message
    assert session_.state.to_move == NOUGHT
