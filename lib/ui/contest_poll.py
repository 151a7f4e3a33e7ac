""" "Ask the class": open a page's own prediction question as a poll of a class contest.

The route page's quiz ("which place is expanded next?") and the step-through's guesses ("what
is the root worth?" on a tree, "which move will minimax choose?" on a game position) call
:func:`ask_the_class` beside their question; the instructor types
the contest's join code (and the key where one is set) and opens the poll; students answer
on the Class contest page, the projector shows the answers and then the reveal. An
instructor logged in through the host's identity provider types no key.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence

import streamlit as st

from lib.contest.access import login_instructor
from lib.contest.polls import MAX_CHOICES, open_poll
from lib.errors import InputError
from lib.ui.common import escape_markdown, user_errors
from lib.ui.contest_common import (
    CODE_KEY,
    INSTRUCTOR_KEY,
    check_instructor_here,
    configured_key,
    contest_store,
    current_login,
    instructors,
)

PollQuestion = tuple[str, Sequence[str], str, str]
"""``(question, choices, answer, explanation)``."""


def fit_choices(choices: Sequence[str], answer: str) -> list[str]:
    """At most :data:`MAX_CHOICES` choices, the answer always among them (order kept).

    >>> fit_choices([str(i) for i in range(20)], "15")[-1]
    '15'
    """
    kept = list(dict.fromkeys(choices))
    if len(kept) <= MAX_CHOICES:
        return kept
    others = [c for c in kept if c != answer][: MAX_CHOICES - 1]
    return [c for c in kept if c in others or c == answer]


def _logged_in_instructor() -> bool:
    """Whether this session logged in (``st.login``) as one of the instructors."""
    try:
        return login_instructor(current_login(), instructors())
    except InputError:  # a malformed list: the key (or the error on opening) decides
        return False


def ask_the_class(kind: str, key: str, make: Callable[[], PollQuestion]) -> None:
    """A collapsed "Ask the class" box opening ``make()``'s question as a poll (``kind``
    names the page's question, ``key`` prefixes the widget keys)."""
    with st.expander("Ask the class: open this question as a poll", icon=":material/groups:"):
        code = st.text_input(
            "Contest join code", value=st.session_state.get(CODE_KEY, ""), max_chars=12,
            key=f"{key}_poll_code",
        )  # fmt: skip
        if configured_key() and not _logged_in_instructor():
            st.text_input("Instructor's key", type="password", key=INSTRUCTOR_KEY)
        if not st.button("Open as a poll", key=f"{key}_poll_open", disabled=not code):
            st.caption("Students answer on the Class contest page with the code.")
            return
        with user_errors():
            check_instructor_here(st.session_state.get(INSTRUCTOR_KEY))
            question, choices, answer, explanation = make()
            if len(set(choices)) < 2:
                raise InputError(
                    "This question has only one possible answer: go on to the next one to "
                    "ask the class."
                )
            poll = open_poll(
                contest_store(), code, kind=kind, question=question,
                choices=fit_choices(choices, answer), answer=answer, explanation=explanation,
                request_key=uuid.uuid4().hex,
            )  # fmt: skip
            st.session_state[CODE_KEY] = code.strip().upper()
            shown = escape_markdown(code.strip().upper())
            st.success(
                f"Poll {poll.id} is open: students answer on the Class contest page with the "
                f"code {shown}; its projector view shows the answers."
            )
