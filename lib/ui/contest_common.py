"""The contest page's shared pieces: the store, the secrets, the session's ids, the player.

:func:`contest_store` opens the contest database once per server (``st.cache_resource``):
``$AI_SEARCH_LAB_DATABASE_URL``, else the secret ``[connections.contest] url`` (the shape
``st.connection`` reads), else the SQLite file (:mod:`lib.contest.store`). The instructor's
key is ``$AI_SEARCH_LAB_INSTRUCTOR_KEY`` or the secret ``[contest] instructor_key``; where
the host configured ``st.login`` (an ``[auth]`` secret), a login whose e-mail is on the
secret ``[contest] instructors`` is the instructor too (:mod:`lib.contest.access`).
:func:`start_player` starts this server's contest player once: a thread that plays the
pending games on the shared job pool (so under its caps), unless
``$AI_SEARCH_LAB_CONTEST_PLAYER`` is ``0``.
"""

from __future__ import annotations

import os
import threading
import uuid
from typing import Any

import streamlit as st

from lib.contest.access import INSTRUCTOR_KEY_ENV, Login, instructor_access, parse_instructors
from lib.contest.runner import ContestWorker, JobPoolSubmitter
from lib.contest.store import Store, database_url
from lib.links import LinkField
from lib.settings import local_mode
from lib.ui.common import read_query
from lib.ui.jobs import shared_pool

PLAYER_ENV = "AI_SEARCH_LAB_CONTEST_PLAYER"
"""Set to ``0`` to keep this server from playing contest games (another server plays)."""

ACTOR_KEY = "ct_actor"
"""Session key of this browser session's id (rate limits, poll answers)."""

TOKEN_KEY = "ct_token"
"""Session key of the author token of this session's entry."""

CODE_KEY = "ct_code"
"""Session key of the contest code this session looks at."""

INSTRUCTOR_KEY = "ct_instructor_key"
"""Session key (a password input) of the instructor's key as typed."""


def secret_value(section: str, name: str) -> Any:
    """``st.secrets[section][name]`` as it is (``section`` may be dotted), or None."""
    try:
        value: Any = st.secrets
        for part in (*filter(None, section.split(".")), name):
            value = value[part]
    except Exception:  # a missing key, or no secrets file (Streamlit's own error types)
        return None
    return value


def secret(section: str, name: str) -> str | None:
    """``st.secrets[section][name]`` (``section`` may be dotted) as text, or None without one."""
    value = secret_value(section, name)
    return str(value) if value else None


@st.cache_resource(show_spinner=False)
def _store(url: str) -> Store:
    """The store at ``url`` (one per server and URL)."""
    return Store(url)


def contest_store() -> Store:
    """This server's contest store (see the module docstring)."""
    return _store(database_url(secret("connections.contest", "url")))


def configured_key() -> str | None:
    """The instructor's key, from the environment or the secrets (None: not set)."""
    return os.environ.get(INSTRUCTOR_KEY_ENV, "").strip() or secret("contest", "instructor_key")


def hosted() -> bool:
    """Whether this is a hosted server (not a local install)."""
    return not local_mode()


def login_providers() -> list[str | None]:
    """The identity providers the host configured for ``st.login`` (None: the unnamed one
    of ``[auth]`` itself; a name: an ``[auth.NAME]`` section); empty without ``[auth]``."""
    auth = secret_value("", "auth")
    if not hasattr(auth, "items"):
        return []
    named = [
        str(name)
        for name, value in auth.items()
        if hasattr(value, "items") and name != "client_kwargs"  # the unnamed one's settings
    ]
    return ([None] if "client_id" in auth else []) + named


def instructors() -> frozenset[str]:
    """The instructors' e-mail addresses (secret ``[contest] instructors``); raises
    :class:`lib.errors.InputError` when the secret is not a list of addresses."""
    return parse_instructors(secret_value("contest", "instructors"))


def current_login() -> Login:
    """What ``st.user`` says of this session (configured: the host has an ``[auth]``)."""
    return Login.from_user(bool(login_providers()), st.user.to_dict())


def check_instructor_here(given: object) -> str:
    """How this session is the instructor (``"login"``, ``"key"``, ``"local"``), with the
    key ``given``; raises :class:`lib.errors.InputError` saying why not."""
    return instructor_access(given, configured_key(), hosted(), current_login(), instructors())


def instructor_allowed() -> bool:
    """Whether this session may act as the instructor (logged in as one, the key typed, or
    a local install without one); never raises."""
    try:
        check_instructor_here(st.session_state.get(INSTRUCTOR_KEY))
    except ValueError:
        return False
    return True


def actor() -> str:
    """This browser session's random id."""
    if ACTOR_KEY not in st.session_state:
        st.session_state[ACTOR_KEY] = uuid.uuid4().hex
    return st.session_state[ACTOR_KEY]


@st.cache_resource(show_spinner=False)
def _player(url: str) -> threading.Event:
    """Start this server's contest player on the store at ``url``; its stop event."""
    stop = threading.Event()
    pool = shared_pool()
    worker = ContestWorker(
        _store(url), submit=JobPoolSubmitter(pool), batch=max(1, pool.max_workers)
    )
    threading.Thread(target=worker.run, args=(stop,), name="contest-player", daemon=True).start()
    return stop


def start_player() -> None:
    """Start this server's contest player once (not when ``$AI_SEARCH_LAB_CONTEST_PLAYER=0``)."""
    if os.environ.get(PLAYER_ENV, "1").strip() != "0":
        _player(database_url(secret("connections.contest", "url")))


VIEWS = ("Student", "Projector", "Instructor")
"""The page's views, as its control names them (the link spells them in lower case)."""


def _view_name(text: str) -> str:
    name = text.strip().capitalize()
    if name not in VIEWS:
        raise ValueError(text)
    return name


VIEW_LINK = LinkField(
    "view", str, "Student", parse=_view_name,
    expected="a view (" + ", ".join(v.lower() for v in VIEWS) + ")",
    used_instead="the student's view",
)  # fmt: skip


def linked_view() -> str:
    """The view the link asks for (Student without one); a warning names a view not known."""
    values, notes = read_query((VIEW_LINK,))
    for note in notes:
        st.warning(note, icon=":material/warning:")
    return values["view"]
