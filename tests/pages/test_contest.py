"""The class contest page under AppTest: the student's, the projector's and the
instructor's views, on an SQLite file of the test's own."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from streamlit.testing.v1 import AppTest

from lib.contest import contests as C
from lib.contest import polls
from lib.contest.identity import new_token
from lib.contest.schema import entries, versions
from lib.contest.store import URL_ENV, Store
from lib.ui.contest_common import PLAYER_ENV, TOKEN_KEY

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "contest.py")
SETTINGS = C.ContestSettings(game="tictactoe", options={}, max_depth=2, games_per_entry=2)


@pytest.fixture
def store(tmp_path, monkeypatch) -> Store:
    url = f"sqlite:///{tmp_path / 'contest.sqlite3'}"
    monkeypatch.setenv(URL_ENV, url)
    monkeypatch.setenv(PLAYER_ENV, "0")  # the tests play no games in the background
    monkeypatch.delenv("AI_SEARCH_LAB_LOCAL", raising=False)
    monkeypatch.delenv(C.INSTRUCTOR_KEY_ENV, raising=False)
    return Store(url)


def _app(**query: str) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=60)
    for key, value in query.items():
        app.query_params[key] = value
    return app.run()


def _button(app: AppTest, label: str):
    return next(b for b in app.button if b.label == label)


def _texts(app: AppTest) -> list[str]:
    return [t.value for t in app.text]


def test_a_student_joins_submits_and_sees_the_entry_as_text(store: Store) -> None:
    contest = C.open_contest(store, SETTINGS)
    app = _app(code=contest.code)
    assert not app.exception
    hostile = "<b>Ada</b> **bold**"
    app.text_input(key="ct_w_name").input(hostile)
    app = _button(app, "Join").click().run()
    assert not app.exception and app.session_state[TOKEN_KEY]
    assert app.query_params["entry"] == app.session_state[TOKEN_KEY]
    assert f"Playing as: {hostile}" in _texts(app)  # as text, not Markdown or HTML
    assert not any(hostile in m.value for m in app.markdown)
    app.text_area(key="ct_w_formula").input("lines ** 2")
    app = _button(app, "Submit entry").click().run()
    assert "**" in app.error[0].value.replace("\\", "")  # the game page's message
    app.text_area(key="ct_w_formula").input("lines + 2*centre")
    app = _button(app, "Submit entry").click().run()
    assert not app.exception and "Version 1 submitted" in app.success[0].value
    with store.read() as connection:
        assert connection.scalars(sa.select(versions.c.text)).all() == ["lines + 2*centre"]
        assert connection.scalars(sa.select(entries.c.name)).all() == [hostile]


def test_a_stale_link_and_a_bad_code_get_a_message(store: Store) -> None:
    contest = C.open_contest(store, SETTINGS)
    app = _app(code=contest.code, entry="not-a-token")
    assert "not (or no longer) valid" in app.error[0].value.replace("\\", "")
    app = _button(app, "Join again").click().run()  # forget the stale token: the join form
    assert "entry" not in app.query_params and app.text_input(key="ct_w_name")
    app = _app(code="0O0O0O")
    assert "join code" in app.error[0].value


def test_the_projector_shows_the_board_and_the_poll(store: Store) -> None:
    contest = C.open_contest(store, SETTINGS)
    for i, name in enumerate(("Ada", "<script>x</script>")):
        token = new_token()
        C.join(store, contest.code, name, token, f"s{i}")
        C.submit(store, contest.code, token, C.Submission(formula="lines"), f"request-{i}", "s")
    poll = polls.open_poll(
        store, contest.code, kind="route_next", question="Which node next?",
        choices=["A", "B"], answer="B", explanation="B has the lowest f.", request_key="poll-1234",
    )  # fmt: skip
    polls.answer_poll(store, contest.code, poll.id, "voter-1", "A", "s1")
    app = _app(view="projector", code=contest.code)
    assert not app.exception
    board = app.dataframe[0].value
    assert set(board["Name"]) == {"Ada", "<script>x</script>"}
    assert list(board.columns) == ["Rank", "Name", "Rating", "W/D/L", "Games", "Change"]
    assert set(board["Change"]) == {"new"}
    assert "Which node next?" in _texts(app)
    polls.reveal(store, contest.code, poll.id)
    app = _app(view="projector", code=contest.code)
    assert "Answer: B" in app.success[0].value and "B has the lowest f." in _texts(app)


def test_the_instructor_needs_the_key_on_a_hosted_server(store: Store, monkeypatch) -> None:
    app = _app(view="instructor")
    assert "until an instructor's key is set" in app.error[0].value
    assert not [b for b in app.button if b.label == "Open contest"]
    monkeypatch.setenv(C.INSTRUCTOR_KEY_ENV, "sesame-321")
    app = _app(view="instructor")
    app.text_input(key="ct_instructor_key").input("wrong").run()
    assert "not the instructor's key" in app.error[0].value
    app.text_input(key="ct_instructor_key").input("sesame-321").run()
    app.selectbox(key="ct_w_game").set_value("tictactoe").run()
    app = _button(app, "Open contest").click().run()
    assert not app.exception
    (contest,) = C.list_contests(store)
    assert contest.game == "tictactoe" and app.metric[0].value == contest.code
    C.join(store, contest.code, "Rude name", new_token(), "s1")
    app.run()
    app.radio(key="ct_w_action").set_value("rename")
    app.text_input(key="ct_w_new_name").input("Kind name")
    app = _button(app, "Apply").click().run()
    with store.read() as connection:
        assert connection.scalars(sa.select(entries.c.name)).all() == ["Kind name"]
    app = _button(app, "Close").click().run()
    assert not C.get_contest(store, contest.code).is_open


def test_a_second_contest_opened_is_the_one_the_panel_shows(store: Store, monkeypatch) -> None:
    monkeypatch.setenv(C.INSTRUCTOR_KEY_ENV, "sesame-321")
    app = _app(view="instructor")
    app.text_input(key="ct_instructor_key").input("sesame-321").run()
    app.selectbox(key="ct_w_game").set_value("tictactoe").run()
    app = _button(app, "Open contest").click().run()
    app.text_input(key="ct_w_title").input("Second contest")
    app = _button(app, "Open contest").click().run()
    assert not app.exception
    newest = C.list_contests(store)[0]
    assert newest.title == "Second contest" and len(C.list_contests(store)) == 2
    assert app.selectbox(key="ct_w_contest").value == newest.code
    assert app.metric[0].value == newest.code  # the join code the room copies
    first = C.list_contests(store)[1]
    app.selectbox(key="ct_w_contest").set_value(first.code).run()  # picked back by hand
    assert app.metric[0].value == first.code


AUTH = {
    "redirect_uri": "http://localhost:8501/oauth2callback",
    "cookie_secret": "a-test-cookie-secret",
    "client_id": "lab",
    "client_secret": "lab-secret",
    "server_metadata_url": "http://localhost:1/.well-known/openid-configuration",
}
"""An identity provider as a host sets one up for st.login (never contacted here)."""


def _login_app(user: dict, instructors: list[str], key: str | None = None) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.query_params["view"] = "instructor"
    app.secrets["auth"] = AUTH
    app.secrets["contest"] = {
        "instructors": instructors,
        **({"instructor_key": key} if key else {}),
    }
    app.user = user
    return app.run()


def test_an_instructor_logged_in_through_the_provider_types_no_key(store: Store) -> None:
    """A hosted server with no key: the listed e-mail (any case) is the instructor; another
    login, or none, gets no instructor's controls; logging out ends it."""
    teacher = {"is_logged_in": True, "email": "Teach@School.org", "email_verified": True}
    app = _login_app(teacher, ["teach@school.org"])
    assert not app.exception and not app.error
    assert "Logged in as Teach@School.org: an instructor." in _texts(app)
    assert not [t for t in app.text_input if t.key == "ct_instructor_key"]
    app.selectbox(key="ct_w_game").set_value("tictactoe").run()
    app = _button(app, "Open contest").click().run()
    assert not app.exception and [c.game for c in C.list_contests(store)] == ["tictactoe"]
    app = _button(app, "Log out").click().run()
    assert not [b for b in app.button if b.label == "Open contest"]
    assert _button(app, "Log in as the instructor")
    student = {"is_logged_in": True, "email": "ada@school.org", "email_verified": True}
    app = _login_app(student, ["teach@school.org"])
    assert "not on this server's instructors' list" in _texts(app)[0]
    assert not [b for b in app.button if b.label == "Open contest"]
    unverified = {**teacher, "email_verified": False}
    app = _login_app(unverified, ["teach@school.org"])
    assert not [b for b in app.button if b.label == "Open contest"]


def test_with_a_key_too_a_logged_out_instructor_may_type_it(store: Store) -> None:
    app = _login_app({"is_logged_in": False}, ["teach@school.org"], key="sesame-321")
    assert _button(app, "Log in as the instructor")
    app.text_input(key="ct_instructor_key").input("sesame-321").run()
    assert not app.exception and _button(app, "Open contest")


def test_a_malformed_instructors_list_says_which_entry(store: Store) -> None:
    app = _login_app({"is_logged_in": True, "email": "teach@school.org"}, ["teach@school.org", "x"])
    assert "Entry 2 of the secret contest.instructors" in app.error[0].value.replace("\\", "")
    assert not [b for b in app.button if b.label == "Open contest"]


def test_a_student_answers_the_live_poll_once_and_may_change_it(store: Store) -> None:
    contest = C.open_contest(store, SETTINGS)
    app = _app(code=contest.code)
    assert not [r for r in app.radio if r.key.startswith("ct_w_poll_")]  # no poll yet
    poll = polls.open_poll(
        store, contest.code, kind="route_next", question="Which node *next*?",
        choices=["A*", "B"], answer="B", explanation="B has the lowest f.", request_key="poll-1234",
    )  # fmt: skip
    app.run()  # the poll appears (in the browser: by itself, the fragment redraws)
    assert "Which node *next*?" in _texts(app)
    app.radio(key=f"ct_w_poll_{poll.id}").set_value("A*").run()
    app = app.button(key=f"ct_w_poll_send_{poll.id}").click().run()
    assert polls.poll_counts(store, poll) == {"A*": 1, "B": 0}
    assert "Answer sent: A\\*." in app.success[0].value  # a choice is text, not Markdown
    app.radio(key=f"ct_w_poll_{poll.id}").set_value("B").run()
    app = app.button(key=f"ct_w_poll_send_{poll.id}").click().run()
    assert polls.poll_counts(store, poll) == {"A*": 0, "B": 1}  # changed, not doubled
    polls.reveal(store, contest.code, poll.id)
    app.run()
    assert not [r for r in app.radio if r.key.startswith("ct_w_poll_")]  # closed for answers


def test_a_link_s_unknown_view_is_named_and_the_student_s_view_shown(store: Store) -> None:
    app = _app(view="zzz")
    assert not app.exception
    assert [w.value for w in app.warning] == [
        "The link's view=zzz is not a view (student, projector, instructor); "
        "using the student's view."
    ]
    assert app.button_group(key="ct_w_view").value == "Student"
    projector = _app(view="PROJECTOR")  # any case
    assert not projector.warning and projector.button_group(key="ct_w_view").value == "Projector"
