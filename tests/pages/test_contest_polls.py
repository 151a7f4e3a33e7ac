"""Class polls opened from the pages where a student predicts (AppTest): the route quiz's
"which place is expanded next" and the step-through's "what is the root worth" and "which
move does minimax choose"."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from lib.contest import contests as C
from lib.contest import polls
from lib.contest.store import URL_ENV, Store
from lib.games import core, textbook_tree
from lib.games.search.predict import pruned_edges
from lib.games.search.reference import minimax_search
from lib.routes import graphs, quiz, search
from lib.ui import routes_quiz
from lib.ui.contest_common import PLAYER_ENV
from lib.ui.step_panel import OWN_TREE
from tests.pages.game_app import STEP_TAB, open_game_page, session
from tests.pages.test_contest import AUTH

ROUTES = str(Path(__file__).resolve().parents[2] / "pages" / "routes.py")


@pytest.fixture
def contest(tmp_path, monkeypatch) -> tuple[Store, C.Contest]:
    url = f"sqlite:///{tmp_path / 'contest.sqlite3'}"
    monkeypatch.setenv(URL_ENV, url)
    monkeypatch.setenv(PLAYER_ENV, "0")
    monkeypatch.setenv("AI_SEARCH_LAB_LOCAL", "1")  # a local install: no key needed
    monkeypatch.delenv(C.INSTRUCTOR_KEY_ENV, raising=False)
    store = Store(url)
    return store, C.open_contest(store, C.ContestSettings(game="tictactoe", options={}))


def _open_poll(app: AppTest, prefix: str, code: str) -> AppTest:
    app.text_input(key=f"{prefix}_poll_code").input(code).run()
    return app.button(key=f"{prefix}_poll_open").click().run()


def test_the_route_quiz_opens_its_question_as_a_poll(contest) -> None:
    store, opened = contest
    app = AppTest.from_file(ROUTES, default_timeout=60)
    app.session_state[routes_quiz.OPEN_KEY] = True
    app = _open_poll(app.run(), "rt_w_quiz", opened.code)
    assert "only one possible answer" in app.error[-1].value  # the start alone on the frontier
    app = app.button(key="rt_w_quiz_pick_0_0").click().run()  # on to question 2
    app = _open_poll(app, "rt_w_quiz", opened.code)
    assert not app.exception and "is open" in app.success[-1].value
    poll = polls.live_poll(store, opened.code)
    G = graphs.romania()
    traced = search.run("A*", G, "Arad", "Bucharest", graphs.StraightLine.of(G), record_trace=True)
    first = quiz.questions("A*", traced.trace)[1]  # the page's default: A*, Arad to Bucharest
    assert len(first.frontier) >= 2
    assert poll.choices == tuple(choice.label for choice in first.frontier)
    assert poll.answer == first.choice(first.answer).label
    assert poll.explanation == quiz.explain("A*", first, first.answer)


def test_the_step_through_opens_the_root_value_as_a_poll(contest) -> None:
    store, opened = contest
    app = open_game_page("tictactoe", tab=STEP_TAB)
    app.selectbox(key="tictactoe_step_w_position").set_value(OWN_TREE).run()
    app.selectbox(key="tictactoe_step_w_algorithm").set_value("alphabeta").run()
    app = _open_poll(app, "tictactoe_step", opened.code)
    assert not app.exception
    poll = polls.live_poll(store, opened.code)
    assert poll.kind == "root_value" and poll.answer == "3"  # AIMA figure 5.2's value
    assert set(poll.choices) == {"2", "3", "4", "5", "6", "8", "12", "14"}
    state = textbook_tree.tree_from_text("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
    cut = pruned_edges(state, 2, textbook_tree.LEAF_VALUE.evaluate)
    named = poll.explanation.removeprefix("The root is worth 3. Alpha-beta cuts off: ")
    assert len(named.rstrip(".").split(", ")) == len(cut) == 2  # the figure's two cut leaves


def test_the_step_through_opens_the_move_minimax_chooses_as_a_poll(contest) -> None:
    """On the board's position: the root's moves, the textbook minimax's move at the page's
    depth, and the explanation beside the single student's reveal."""
    store, opened = contest
    app = open_game_page("tictactoe", tab=STEP_TAB)
    app.number_input(key="tictactoe_step_w_depth").set_value(3).run()
    app = _open_poll(app, "tictactoe_step", opened.code)
    assert not app.exception and "is open" in app.success[-1].value
    poll = polls.live_poll(store, opened.code)
    game = core.get_game("tictactoe")
    state = session(app, "tictactoe").state
    evaluate = game.heuristics[game.default_heuristic].bind()
    _, best_move = minimax_search(state, 3, evaluate)  # the oracle: the textbook search
    assert poll.kind == "root_move" and poll.state == "open"
    assert poll.question.endswith("Which move will minimax choose, 3 plies deep?")
    assert poll.choices == tuple(game.format_move(m) for m in state.legal_moves())
    assert poll.answer == game.format_move(best_move)
    assert poll.explanation.startswith(f"Minimax chooses {poll.answer}: ")
    # the single student's reveal names the same move
    app.selectbox(key="tictactoe_step_w_predict_move").set_value(poll.answer)
    app = app.button(key="tictactoe_step_w_reveal_move").click().run()
    said = [m.value.replace("\\", "") for m in app.markdown if m.value.startswith("**Right")]
    assert len(said) == 1 and f"minimax chooses {poll.answer}" in said[0]


def test_an_instructor_logged_in_through_the_provider_opens_a_poll_without_a_key(
    contest, monkeypatch
) -> None:
    store, opened = contest
    monkeypatch.delenv("AI_SEARCH_LAB_LOCAL")  # a hosted server, no key: only the login
    app = AppTest.from_file(ROUTES, default_timeout=60)
    app.session_state[routes_quiz.OPEN_KEY] = True
    app.secrets["auth"] = AUTH
    app.secrets["contest"] = {"instructors": ["teach@school.org"]}
    app.user = {"is_logged_in": True, "email": "ada@school.org"}  # a student's login
    app = app.run().button(key="rt_w_quiz_pick_0_0").click().run()  # on to question 2
    app = _open_poll(app, "rt_w_quiz", opened.code)
    assert "not on this server's list" in app.error[-1].value
    assert polls.live_poll(store, opened.code) is None
    app.user = {"is_logged_in": True, "email": "teach@school.org"}
    app = app.run()
    assert not [t for t in app.text_input if t.key == "ct_instructor_key"]
    app = app.button(key="rt_w_quiz_poll_open").click().run()
    assert not app.exception and "is open" in app.success[-1].value
    assert polls.live_poll(store, opened.code).kind == "route_next"


def test_a_hosted_server_without_a_key_opens_no_poll(contest, monkeypatch) -> None:
    store, opened = contest
    monkeypatch.delenv("AI_SEARCH_LAB_LOCAL")
    app = AppTest.from_file(ROUTES, default_timeout=60)
    app.session_state[routes_quiz.OPEN_KEY] = True
    app = _open_poll(app.run(), "rt_w_quiz", opened.code)
    assert "instructor" in app.error[-1].value and polls.live_poll(store, opened.code) is None
