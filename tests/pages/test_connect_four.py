"""The Connect Four page under AppTest: first load, a game through the button grid to its end,
a full column, AI vs AI autoplay; the click handler (any square of a column plays it)."""

from __future__ import annotations

import contextlib
import dataclasses
import re

import pytest
from streamlit.testing.v1 import AppTest

from lib.games import connect_four
from lib.games.connect_four import RED, YELLOW
from lib.games.connect_four import view as connect_four_view
from lib.games.core import WIN_VALUE
from lib.games.drawing import figures as plots
from lib.games.drawing.view import BoardView
from lib.ui import game_analysis, game_page
from tests.pages.game_app import (
    LAST_SEARCH_TAB,
    RECORD_TAB,
    open_game_page,
    record,
    session,
)


def _open(*, tab: str | None = RECORD_TAB, buttons: bool = True, **params: str) -> AppTest:
    # played through the button board, the game record in view (both drawn only when open)
    return open_game_page("connect_four", tab=tab, buttons=buttons, **params)


def _cell(app: AppTest, row: int, col: int) -> AppTest:
    return app.button(key=f"connect_four_w_cell_{row}_{col}").click().run()


def test_first_load():
    app = _open()
    assert not app.exception
    assert app.title[0].value == "Connect Four"
    assert session(app, "connect_four").state == connect_four.initial_state()
    assert "**Red** to move (Human): click a column" in app.info[0].value
    assert "0/42 discs" in app.info[0].value
    labels = [b.label for b in app.button if b.key and b.key.startswith("connect_four_w_cell_")]
    assert len(labels) == 42
    assert labels[:7] == [f"{c}6" for c in "abcdefg"]  # the top row first
    assert labels[-7:] == [f"{c}1 +" for c in "abcdefg"]  # every column's disc lands on row 1
    assert app.slider(key="connect_four_p1_w_depth").value == 0  # no cap: deepens while time lasts


def test_a_game_through_the_buttons_to_the_end():
    # a random Yellow; Red drops every disc into column d by clicking its top button (any
    # square of a column plays it) until the game ends or d is full, then c, e ...
    app = _open(yellow="random")
    for _ in range(21):
        state = session(app, "connect_four").state
        if state.is_terminal():
            break
        column = next(c for c in (3, 2, 4, 1, 5, 0, 6) if c in state.legal_moves())
        before = len(record(app))
        _cell(app, 0, column)
        assert not app.exception
        assert record(app)[before] == connect_four.format_move(column)
    state = session(app, "connect_four").state
    assert state.is_terminal()
    assert "Game over" in app.success[0].value
    winner = state.winner()
    assert winner in (RED, YELLOW, None)
    moves = session(app, "connect_four").moves
    assert record(app) == [connect_four.format_move(m) for m in moves]
    assert connect_four.state_from_moves("".join(record(app))) == state


def test_a_full_column_gets_a_message():
    app = _open(yellow="human")  # two people: six clicks on a1 fill column a, no four
    for _ in range(6):
        _cell(app, 5, 0)
    assert record(app) == ["a"] * 6
    _cell(app, 5, 0)
    assert not app.exception
    assert any("Column a is full" in w.value for w in app.warning)
    assert len(record(app)) == 6
    assert app.button(key="connect_four_w_cell_0_0").label == "a6 🟡"


def test_ai_vs_ai_autoplay_to_the_end():
    app = _open(red="alphabeta:depth=2", yellow="random")
    app.toggle(key="connect_four_w_autoplay").set_value(True).run()
    assert not app.exception
    state = session(app, "connect_four").state
    assert state.is_terminal()
    assert "Game over" in app.success[0].value


def test_click_handler_plays_the_column_of_any_square():
    state = connect_four.state_from_moves("aaaaaad")
    for row in range(6):
        square = plots.square_from_point({"customdata": [row, 3]})
        assert connect_four_view.move_for_square(state, square, None).move == 3
    assert "Column a is full" in connect_four_view.move_for_square(state, (5, 0), None).message
    assert "outside" in connect_four_view.move_for_square(state, (0, 7), None).message
    assert connect_four_view.cell_label(state, 5, 3) == "d1 🔴"
    assert connect_four_view.cell_label(state, 4, 3) == "d2 +"
    assert connect_four_view.cell_label(state, 3, 3) == "d3"
    assert connect_four_view.cell_label(state, 0, 0) == "a6 🟡"
    fig = connect_four_view.figure(state, BoardView(last_move=3))
    assert fig.data[-1].name == "squares"
    assert "7/42 discs" in connect_four_view.status(state)


# -- the hint and the move scores speak the proof ----------------------------------------


def _proved_lines(app: AppTest) -> dict[str, str]:
    """The proved-moves list the page shows: column -> "wins in 15 plies, line ..."."""
    found = {}
    for block in app.markdown:
        for line in block.value.splitlines():
            matched = re.fullmatch(r"- \*\*([a-g])\*\* (.+)", line)
            if matched:
                found[matched[1]] = matched[2]
    return found


def _check_lines(moves: str, proved: dict[str, str]) -> None:
    """Each proved line starts with its move and ends the game as and when its words say."""
    mover = connect_four.state_from_moves(moves).to_move
    for column, text in proved.items():
        words, line = re.fullmatch(r"(.+), line ([a-g]+)", text).groups()
        assert line[0] == column
        end = connect_four.state_from_moves(moves + line)  # refuses a move after the end
        assert end.is_terminal()
        plies = re.fullmatch(r"(wins|loses) in (\d+) pl(?:y|ies)", words)
        if plies:
            assert len(line) == int(plies[2])
            assert end.winner() == (mover if plies[1] == "wins" else 1 - mover)
        else:
            assert words == "draws" and end.winner() is None


@pytest.mark.parametrize(
    ("moves", "expected"),
    [
        ("dddddbbebbdgbgggbgeeeaae", {"a": "wins", "c": "wins"}),  # only a and c win
        ("dcdddfdcffdacccffa", {"a": "wins"}),  # only a wins
        ("caecgfccbdccgbggegfdafaabddefa", {"d": "draws"}),  # only d draws
    ],
)
def test_the_hint_says_which_moves_win_draw_or_lose_and_the_line(monkeypatch, moves, expected):
    monkeypatch.setattr(connect_four_view, "MOVE_VERDICT_SECONDS", 60.0)  # a loaded machine
    connect_four_view.every_move_settled.cache_clear()
    app = _open(yellow="human")
    game = session(app, "connect_four")
    for move in moves:
        game.play(connect_four.parse_move(move, game.state))
    app.run()
    app.button(key="connect_four_w_hint").click().run()
    assert not app.exception
    assert session(app, "connect_four").hint is not None
    proved = _proved_lines(app)
    state = connect_four.state_from_moves(moves)
    assert sorted(proved) == [connect_four.format_move(m) for m in state.legal_moves()]
    best = {column: re.split("[ ,]", text)[0] for column, text in proved.items()}
    assert {c: w for c, w in best.items() if w != "loses"} == expected
    _check_lines(moves, proved)
    connect_four_view.every_move_settled.cache_clear()


def test_moves_the_solver_cannot_settle_keep_the_search_score(monkeypatch):
    monkeypatch.setattr(connect_four_view, "MOVE_VERDICT_SECONDS", 0.01)
    connect_four_view.every_move_settled.cache_clear()
    app = _open(yellow="human")
    app.button(key="connect_four_w_hint").click().run()  # the empty board: only the book's d
    assert not app.exception
    assert session(app, "connect_four").hint is not None
    assert any("Hint: **" in caption.value for caption in app.caption)
    assert _proved_lines(app) == {"d": "book move, proved win, line d…"}
    game = session(app, "connect_four")
    # Yellow must block d: every other move loses at once; d needs a search (in no book)
    for move in "agbgc":
        game.play(connect_four.parse_move(move, game.state))
    assert connect_four_view.hook.book_solution(game.state) is None
    app.run()
    app.button(key="connect_four_w_hint").click().run()
    assert not app.exception
    hint = session(app, "connect_four").hint
    proved = _proved_lines(app)
    # in 0.01 s the solver settles some of the moves that lose at once (a busy machine fewer),
    # never d; each move it leaves keeps the search's score, in words
    assert proved["d"].startswith("not proved by the solver")
    for column, score in hint.stats.root_scores.items():
        move = connect_four.format_move(column)
        if proved[move].startswith("loses in 2 plies"):
            assert move != "d" and proved[move] == f"loses in 2 plies, line {move}d"
            continue
        bound = "at most " if hint.stats.root_bounds.get(column) == "upper" else ""
        if abs(score) > WIN_VALUE / 2:
            words = "finds " + bound + ("a forced win" if score > 0 else "a forced loss")
        else:
            words = f"scores it {bound}{'0' if score == 0 else f'{score:+.4g}'}"
        assert proved[move] == f"not proved by the solver; the search {words}"
        assert "e+0" not in proved[move]
    assert sorted(proved) == list("abcdefg")
    connect_four_view.every_move_settled.cache_clear()


def test_the_last_search_tab_labels_the_proved_moves(monkeypatch):
    monkeypatch.setattr(connect_four_view, "MOVE_VERDICT_SECONDS", 60.0)
    # the AI's own exact attempt (18 discs: a late one) gets 20 times its 1 s budget: room
    # for a loaded machine
    monkeypatch.setattr(connect_four_view.hook, "LATE_SHARE", 20.0)
    connect_four_view.every_move_settled.cache_clear()
    app = _open(tab=LAST_SEARCH_TAB, red="human", yellow="human")
    game = session(app, "connect_four")
    moves = "dcdddfdcffdacccffa"  # Red to move: only a wins
    for move in moves:
        game.play(connect_four.parse_move(move, game.state))
    app.selectbox(key="connect_four_p0_w_kind").set_value("alphabeta").run()  # Red: the AI
    assert not app.exception
    assert session(app, "connect_four").ply == len(moves) + 1  # the AI has played
    assert session(app, "connect_four").decisions[-1].stats.exact_endgame
    assert any("Proved by the exact solver" in block.value for block in app.markdown)
    proved = _proved_lines(app)
    assert {c for c, text in proved.items() if text.startswith("wins")} == {"a"}
    _check_lines(moves, proved)
    connect_four_view.every_move_settled.cache_clear()


def test_the_last_search_tab_does_not_hold_up_a_move_the_solver_did_not_settle(monkeypatch):
    calls = []
    monkeypatch.setattr(
        connect_four_view.solver, "move_verdicts", lambda state, **_: calls.append(state) or {}
    )
    # Yellow's opening book would answer d at once: the move must come from a search here
    # (in this process: a move worker would not see the patch)
    monkeypatch.setattr(connect_four_view.hook, "book_solution", lambda state: None)
    monkeypatch.setattr(game_page, "move_pool", lambda: None)
    connect_four_view.every_move_settled.cache_clear()
    app = _open(tab=LAST_SEARCH_TAB, red="human", yellow="alphabeta:depth=2")
    app.button(key="connect_four_w_cell_5_3").click().run()  # Red d1, the AI answers at depth 2
    assert not app.exception
    assert session(app, "connect_four").ply == 2
    assert session(app, "connect_four").decisions[1].stats.root_scores  # the panel has scores
    assert calls == []  # a heuristic search: the panel did not ask the solver for each move
    assert not any("Proved by the exact solver" in block.value for block in app.markdown)
    app.button(key="connect_four_w_hint").click().run()  # the hint always asks
    assert len(calls) == 1
    connect_four_view.every_move_settled.cache_clear()


def test_the_start_answer_points_to_a_tab_the_page_has():
    # the panel beside the board is short and sends the reader to a tab for more: that tab
    # must be one of the tabs under the board, by its label
    app = _open(tab=None)
    answer = next(m.value for m in app.markdown if "Who wins from the start?" in m.value)
    pointed = re.findall(r"under \*([^*]+)\*", answer)
    assert pointed, answer
    assert set(pointed) <= set(game_analysis.ANALYSIS_TABS), pointed
    missing = connect_four_view.start_answer(None)
    assert set(re.findall(r"under \*([^*]+)\*", missing)) <= set(game_analysis.ANALYSIS_TABS)


def test_the_verdict_beside_the_board_is_worked_out_under_a_spinner(monkeypatch):
    # a fresh install compiles the solver during the first verdict (seconds): the page
    # must say it is working, not sit grey and silent
    import streamlit

    spinning: list[str] = []
    seen: list[list[str]] = []
    real_spinner = streamlit.spinner

    @contextlib.contextmanager
    def spinner(text: str = "", **kwargs):
        spinning.append(text)
        with real_spinner(text, **kwargs):
            yield
        spinning.pop()

    def verdict(state):
        seen.append(list(spinning))
        return "a verdict"

    monkeypatch.setattr(streamlit, "spinner", spinner)
    adapter = dataclasses.replace(connect_four_view.ADAPTER, insight=verdict)
    monkeypatch.setattr(game_page, "load_adapter", lambda game: adapter)
    app = _open(tab=None)
    assert not app.exception
    assert seen and all(s == ["Working out who wins from here…"] for s in seen)
    assert any(m.value == "a verdict" for m in app.markdown)


def test_a_win_found_without_a_search_shows_no_branching_factor():
    # Red drops into d; Yellow completes a four in c at once: the solver sees the winning
    # square without searching a position, so there is no branching factor to show (not 0.00)
    app = _open(tab=LAST_SEARCH_TAB, moves=",".join("beebcedfeaeagd"))
    app = _cell(app, 0, 3)
    assert not app.exception
    game = session(app, "connect_four")
    stats = game.last_decision()[1].stats
    assert game.moves[-2:] == [3, 2] and stats.by_solver and stats.nodes == 0
    metrics = {m.label: m.value for m in app.metric}
    assert (metrics["Nodes"], metrics["EBF"]) == ("0", "—")


def test_a_win_the_solver_did_not_settle_is_said_in_words_as_the_board_says_it(monkeypatch):
    """d,e,b,e,a,c,b,c,b,b,c,c: the search sees a forced win for e (the board says WIN);
    the hint's list, when the solver has no time to settle e, says so in words."""
    verdicts = connect_four_view.solver.move_verdicts

    def without_e(state, **kwargs):  # as a busy server: e is not settled in time
        return {m: v for m, v in verdicts(state, **kwargs).items() if m != 4}

    monkeypatch.setattr(connect_four_view.solver, "move_verdicts", without_e)
    monkeypatch.setattr(connect_four_view.hook, "strategy_solution", lambda state: None)
    connect_four_view.every_move_settled.cache_clear()
    app = _open(yellow="human")
    game = session(app, "connect_four")
    for move in "debeacbcbbcc":
        game.play(connect_four.parse_move(move, game.state))
    app.run()
    app.button(key="connect_four_w_hint").click().run()
    assert not app.exception
    scores = session(app, "connect_four").hint.stats.root_scores
    assert scores[4] > WIN_VALUE / 2  # e: a forced win for the search
    text = "\n".join(m.value for m in app.markdown)
    assert "e+0" not in text and "search score" not in text
    proved = _proved_lines(app)
    assert proved["e"] == "not proved by the solver; the search finds a forced win"
    assert proved["d"].startswith("wins in ")  # settled by the solver, as the board says
    connect_four_view.every_move_settled.cache_clear()
