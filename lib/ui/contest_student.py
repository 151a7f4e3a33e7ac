"""The contest page's student view: join with the code and a name, submit, see your entry.

The author token is kept in the session and put in the page's link (``?code=..&entry=..``),
which the student is told to keep: it is the only way back to their entry from another
browser. Everything a student typed is shown as text (``st.text``, ``st.dataframe``).
"""

from __future__ import annotations

import uuid

import streamlit as st

from lib.contest import contests as C
from lib.contest import polls
from lib.contest.identity import MAX_NAME, new_token
from lib.contest.store import Store
from lib.contest.tables import own_entry, public_versions
from lib.errors import InputError
from lib.games.core import get_game
from lib.games.formula import MAX_TEXT
from lib.ui.common import escape_markdown, user_errors
from lib.ui.contest_board import REFRESH_SECONDS
from lib.ui.contest_common import CODE_KEY, TOKEN_KEY, actor

REQUEST_KEY = "ct_request"
"""Session key of the pending submission's request key (a retry reuses it)."""

VOTER_KEY = "ct_voter"
"""Session key of this browser's poll-voter secret."""

SENT_KEY = "ct_poll_sent"
"""Session key prefix (``_<poll id>``) of the answer this browser sent to a poll."""


def code_from_link() -> str:
    """The contest code to show: the session's, else the link's ``code``."""
    if CODE_KEY not in st.session_state and st.query_params.get("code"):
        st.session_state[CODE_KEY] = st.query_params["code"][:20]
    if TOKEN_KEY not in st.session_state and st.query_params.get("entry"):
        st.session_state[TOKEN_KEY] = st.query_params["entry"][:200]
    return st.session_state.get(CODE_KEY, "")


def show_join(store: Store) -> C.Contest | None:
    """The join form (code and name); returns the contest once the code is good."""
    code = st.text_input("Join code", value=code_from_link(), max_chars=12, key="ct_w_code")
    if not code:
        st.info("Type the join code your instructor shows.")
        return None
    try:
        contest = C.get_contest(store, code)
    except InputError as error:
        st.error(str(error).replace("*", "\\*"))
        return None
    st.session_state[CODE_KEY] = contest.code
    st.text(f"{contest.title} · {get_game(contest.game).title} · {contest.status}")
    if st.session_state.get(TOKEN_KEY):
        return contest
    with st.form("ct_w_join"):
        name = st.text_input("Your display name", max_chars=MAX_NAME, key="ct_w_name")
        if st.form_submit_button("Join"):
            with user_errors():
                token = new_token()
                C.join(store, contest.code, name, token, actor())
                st.session_state[TOKEN_KEY] = token
                st.query_params["code"] = contest.code
                st.query_params["entry"] = token
                st.rerun()
    return contest


def _submission_form(contest: C.Contest) -> C.Submission | None:
    """The entry form; the submission when its button was pressed."""
    spec = get_game(contest.game)
    with st.form("ct_w_submit"):
        kind = st.radio("Entry", ["Formula", "Heuristic weights"], horizontal=True, key="ct_w_kind")
        formula = st.text_area(
            "Formula over the game's features (as on the game page)",
            max_chars=MAX_TEXT,
            key="ct_w_formula",
        )
        heuristic = st.selectbox("Heuristic", list(spec.heuristics), key="ct_w_heuristic")
        weights = st.text_input(
            "Weights (numbers separated by commas; empty: default)", key="ct_w_weights"
        )
        algorithm = st.selectbox(
            "Algorithm",
            list(contest.algorithms),
            format_func=C.ALGORITHMS.get,
            key="ct_w_algorithm",
        )
        depth = st.slider(
            "Depth (alpha-beta, expectimax)",
            1,
            contest.max_depth,
            contest.max_depth,
            key="ct_w_depth",
        )
        exploration = st.slider("Exploration c (MCTS)", 0.0, 3.0, 1.4, 0.1, key="ct_w_c")
        st.caption(f"Every move has {contest.seconds_per_move:g} s.")
        if not st.form_submit_button("Submit entry"):
            return None
    if kind == "Formula":
        return C.Submission(
            algorithm=algorithm, formula=formula, depth=depth, exploration=exploration
        )
    try:
        parsed = tuple(float(w) for w in weights.split(",") if w.strip()) or None
    except ValueError:
        raise InputError("Weights must be numbers separated by commas, e.g. 1, 0.5, 2.") from None
    return C.Submission(
        algorithm=algorithm,
        heuristic=heuristic,
        weights=parsed,
        depth=depth,
        exploration=exploration,
    )


def show_entry(store: Store, contest: C.Contest) -> None:
    """The student's own entry: the link to keep, the form, its versions and games."""
    token = st.session_state.get(TOKEN_KEY)
    if not token:
        return
    try:
        own_entry(store, contest.code, token)
    except InputError as error:
        st.error(escape_markdown(error))
        if st.button("Join again", key="ct_w_forget"):
            del st.session_state[TOKEN_KEY]
            st.query_params.pop("entry", None)
            st.rerun()
        return
    with user_errors():
        name, versions, games = own_entry(store, contest.code, token)
        st.subheader("Your entry")
        st.text(f"Playing as: {name}")
        st.warning("Keep this link: it is the only way back to your entry.", icon=":material/key:")
        st.code(f"contest?code={contest.code}&entry={token}", language=None)
        if contest.is_open:
            submission = _submission_form(contest)
            if submission is not None:
                request = st.session_state.setdefault(REQUEST_KEY, uuid.uuid4().hex)
                number = C.submit(store, contest.code, token, submission, request, actor())
                del st.session_state[REQUEST_KEY]
                st.success(f"Version {number} submitted: its games are scheduled.")
                name, versions, games = own_entry(store, contest.code, token)
        else:
            st.info("The contest is closed: entries no longer change.")
        st.markdown("**Your versions**")
        st.dataframe(versions, hide_index=True, key="ct_w_versions")
        st.markdown("**Your games**")
        st.dataframe(
            games,
            hide_index=True,
            key="ct_w_games",
            column_config={"replay": st.column_config.LinkColumn("Replay", display_text="replay")},
        )
    published = public_versions(store, contest)
    if not published.empty:
        st.markdown("**Everyone's entries (published by the instructor)**")
        st.dataframe(published, hide_index=True, key="ct_w_published")


def show_poll_answer(store: Store, contest: C.Contest) -> None:
    """The live poll, answered from this browser (one answer; answering again changes it).

    A fragment: a poll the instructor opens appears by itself within
    :data:`~lib.ui.contest_board.REFRESH_SECONDS`, and choosing and sending an answer rerun
    the poll alone, not the student's entry and leaderboard below it.
    """

    def draw() -> None:
        poll = polls.live_poll(store, contest.code)
        if poll is None or poll.state != "open":
            return
        st.subheader("Class poll")
        st.text(poll.question)
        choice = st.radio("Your answer", list(poll.choices), index=None, key=f"ct_w_poll_{poll.id}")
        if st.button("Send my answer", key=f"ct_w_poll_send_{poll.id}", disabled=choice is None):
            with user_errors():
                voter = st.session_state.setdefault(VOTER_KEY, new_token())
                polls.answer_poll(store, contest.code, poll.id, voter, choice, actor())
                st.session_state[f"{SENT_KEY}_{poll.id}"] = choice
        sent = st.session_state.get(f"{SENT_KEY}_{poll.id}")
        if sent is not None:  # kept: the fragment redraws itself every few seconds
            st.success(
                f"Answer sent: {escape_markdown(sent)}. You may change it while the poll is open."
            )

    st.fragment(draw, run_every=REFRESH_SECONDS)()
