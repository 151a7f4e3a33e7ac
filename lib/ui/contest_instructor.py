"""The contest page's instructor view: open, close and reopen contests, moderate entries,
publish the formulas, manage polls, download everything as CSV.

Every action needs the instructor (:func:`lib.ui.contest_common.instructor_allowed`): a
login through the host's identity provider with an e-mail on the instructors' list
(``st.login``), or the instructor's key; without either configured a hosted server refuses
and says how to set one.
"""

from __future__ import annotations

import datetime
import time

import streamlit as st

from lib.contest import contests as C
from lib.contest import polls
from lib.contest.access import login_instructor
from lib.contest.store import Store
from lib.contest.tables import export_tables
from lib.errors import InputError
from lib.games.arena.options import format_option_value, option_label
from lib.games.core import available_games, get_game
from lib.ui.common import csv_download, escape_markdown, user_errors
from lib.ui.contest_common import (
    CODE_KEY,
    INSTRUCTOR_KEY,
    actor,
    configured_key,
    current_login,
    hosted,
    instructor_allowed,
    instructors,
    login_providers,
)


def show_login() -> tuple[bool, bool]:
    """Where the host configured ``st.login`` and an instructors' list: log in or out, and
    who is logged in. Returns (login offered, this session is a logged-in instructor)."""
    providers = login_providers()
    try:
        allowed = instructors()
    except InputError as error:
        st.error(escape_markdown(error))
        return False, False
    if not providers or not allowed:
        return False, False
    login = current_login()
    if login.logged_in:
        left, right = st.columns([3, 1], vertical_alignment="center")
        is_instructor = login_instructor(login, allowed)
        left.text(
            f"Logged in as {login.email or 'an account without an e-mail address'}"
            + (": an instructor." if is_instructor else ": not on this server's instructors' list.")
        )
        right.button("Log out", key="ct_w_logout", icon=":material/logout:", on_click=st.logout)
        return True, is_instructor
    with st.container(horizontal=True):
        for provider in providers:
            label = "Log in as the instructor" + (f" ({provider})" if provider else "")
            st.button(
                label, key=f"ct_w_login_{provider or ''}", icon=":material/login:",
                on_click=st.login, args=(provider,),
            )  # fmt: skip
    st.caption("After logging in, the app opens on its home page: come back to this page.")
    return True, False


def show_key_gate() -> bool:
    """Log in, or type the instructor's key where one is set; True when this session may act."""
    offered, logged_in = show_login()
    if logged_in:
        return True
    if configured_key():
        st.text_input(
            "Instructor's key" + (" (or log in)" if offered else ""),
            type="password",
            key=INSTRUCTOR_KEY,
        )
    elif offered:
        pass  # the login buttons are the way in
    elif hosted():
        st.error(
            "Contests cannot be run on this hosted server until an instructor's key is set. "
            "Set the environment variable AI\\_SEARCH\\_LAB\\_INSTRUCTOR\\_KEY, or add "
            '`instructor_key = "..."` under `[contest]` in `.streamlit/secrets.toml`, or let '
            "instructors log in: an `[auth]` identity provider and "
            '`instructors = ["..."]` under `[contest]` (see docs/contest.md).'
        )
        return False
    else:
        st.caption("A local install: no instructor's key is needed.")
    allowed = instructor_allowed()
    if configured_key() and st.session_state.get(INSTRUCTOR_KEY) and not allowed:
        st.error("That is not the instructor's key.")
    return allowed


CONTEST_WIDGET = "ct_w_contest"
"""The contest chooser's key: it follows the session's contest (``CODE_KEY``), so the panel
switches to a contest just opened."""


def _open_form(store: Store) -> None:
    """The form that opens a new contest."""
    games = available_games()
    st.markdown("**Open a new contest**")
    game = st.selectbox(
        "Game", list(games), index=list(games).index("othello"),
        format_func=lambda name: games[name].title, key="ct_w_game",
    )  # fmt: skip
    with st.form("ct_w_open"):
        title = st.text_input("Title", "Class contest", max_chars=C.MAX_TITLE, key="ct_w_title")
        options = {}
        for name, allowed in get_game(game).options.items():
            options[name] = st.selectbox(
                option_label(get_game(game), name), list(allowed),
                format_func=lambda v, n=name: format_option_value(get_game(game), n, v),
                key=f"ct_w_option_{name}",
            )  # fmt: skip
        seconds = st.slider(
            "Time per move (s)", 0.02, C.MAX_SECONDS, C.DEFAULT_SECONDS, 0.01, key="ct_w_seconds"
        )
        depth = st.slider("Depth cap", 1, 8, C.DEFAULT_DEPTH, key="ct_w_max_depth")
        algorithms = st.multiselect(
            "Algorithms allowed", list(C.ALGORITHMS), list(C.ALGORITHMS),
            format_func=C.ALGORITHMS.get, key="ct_w_algorithms",
        )  # fmt: skip
        per_entry = st.slider(
            "Games per new entry", 2, C.MAX_GAMES, C.DEFAULT_GAMES, 2, key="ct_w_games"
        )
        cap = st.number_input(
            "Most entries", 2, C.MAX_ENTRIES, C.DEFAULT_MAX_ENTRIES, key="ct_w_cap"
        )
        minutes = st.number_input(
            "Closes in (minutes; 0: when you close it)", 0, 7 * 24 * 60, 0, key="ct_w_close"
        )
        if st.form_submit_button("Open contest"):
            with user_errors():
                settings = C.ContestSettings(
                    game=game, options=options, title=title, seconds_per_move=seconds,
                    max_depth=depth, algorithms=tuple(algorithms), games_per_entry=per_entry,
                    max_entries=int(cap), closes_at=time.time() + 60 * minutes if minutes else None,
                )  # fmt: skip
                contest = C.open_contest(store, settings, actor())
                st.session_state[CODE_KEY] = contest.code
                st.success(f"Contest open: join code {contest.code}")


def _follow_chooser() -> None:
    """The instructor picked a contest: it becomes the session's contest before the run."""
    st.session_state[CODE_KEY] = st.session_state[CONTEST_WIDGET]


def _choose_contest(store: Store) -> C.Contest | None:
    """A select box of every contest (newest first); the one chosen."""
    every = C.list_contests(store)
    if not every:
        return None
    codes = [c.code for c in every]
    chosen = st.session_state.get(CODE_KEY)
    if chosen in codes:  # the session's contest (just opened, or joined in another view)
        st.session_state[CONTEST_WIDGET] = chosen
    code = st.selectbox(
        "Contest", codes, index=codes.index(chosen) if chosen in codes else 0,
        format_func=lambda c: f"{c} · {next(x.title for x in every if x.code == c)}",
        key=CONTEST_WIDGET, on_change=_follow_chooser,
    )  # fmt: skip
    st.session_state[CODE_KEY] = code
    return next(c for c in every if c.code == code)


def _contest_actions(store: Store, contest: C.Contest) -> None:
    """The join code and link, close/reopen, house entries, publishing."""
    st.metric("Join code", contest.code)
    st.code(f"contest?code={contest.code}", language=None)
    closes = (
        datetime.datetime.fromtimestamp(contest.closes_at).strftime("%Y-%m-%d %H:%M")
        if contest.closes_at else "when you close it"
    )  # fmt: skip
    st.caption(f"{'Open' if contest.is_open else 'Closed'} · closes {closes}")
    left, middle, right = st.columns(3)
    with user_errors():
        if left.button("Reopen" if not contest.is_open else "Close", key="ct_w_status"):
            C.set_status(store, contest.code, "open" if not contest.is_open else "closed")
            st.rerun()
        if middle.button("Enter the house players", key="ct_w_house"):
            added = C.add_house_entries(store, contest.code)
            st.success(f"Entered: {', '.join(added) or 'all were in already'}")
        label = "Hide the formulas" if contest.formulas_published else "Publish the formulas"
        if right.button(label, key="ct_w_publish", disabled=contest.is_open):
            C.publish_formulas(store, contest.code, not contest.formulas_published)
            st.rerun()


def _moderation(store: Store, contest: C.Contest) -> None:
    """The entries, and hide/show/remove/rename one of them."""
    tables = export_tables(store, contest.code)
    listed = tables["entries"]
    st.dataframe(listed, hide_index=True, key="ct_w_entries")
    if listed.empty:
        return
    with st.form("ct_w_moderate"):
        entry = st.selectbox(
            "Entry", list(listed.entry),
            format_func=lambda e: f"{e}: {listed.set_index('entry').name[e]}", key="ct_w_entry",
        )  # fmt: skip
        action = st.radio(
            "Action", ["hide", "show", "remove", "rename"], horizontal=True, key="ct_w_action"
        )
        new_name = st.text_input("New name (rename)", max_chars=40, key="ct_w_new_name")
        if st.form_submit_button("Apply"):
            with user_errors():
                C.moderate(store, contest.code, int(entry), action, new_name)
                st.success(f"Entry {entry}: {action} done.")
    for name, table in tables.items():
        csv_download(
            table,
            f"contest-{contest.code}-{name}.csv",
            f"{name.capitalize()} CSV",
            f"ct_w_csv_{name}",
        )


def _polls(store: Store, contest: C.Contest) -> None:
    """The live poll's reveal and close buttons."""
    poll = polls.live_poll(store, contest.code)
    if poll is None:
        st.caption("No poll is live. Open one from the route page's quiz or the step-through.")
        return
    st.text(f"Live poll: {poll.question} ({poll.state})")
    left, right = st.columns(2)
    if poll.state == "open" and left.button("Reveal the answer", key="ct_w_reveal"):
        polls.reveal(store, contest.code, poll.id)
        st.rerun()
    if right.button("Close the poll", key="ct_w_close_poll"):
        polls.set_poll_state(store, contest.code, poll.id, "closed")
        st.rerun()


def show_instructor(store: Store) -> None:
    """The instructor's view (after the key gate)."""
    if not show_key_gate():
        return
    _open_form(store)
    contest = _choose_contest(store)
    if contest is None:
        return
    _contest_actions(store, contest)
    st.subheader("Entries")
    _moderation(store, contest)
    st.subheader("Poll")
    _polls(store, contest)
