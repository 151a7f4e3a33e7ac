"""Who is the contest's instructor: a login on the instructors' list, the key, or a local install.

Where the host configured an identity provider for Streamlit's ``st.login`` (an ``[auth]``
section in the secrets) and listed the instructors' e-mail addresses (the secret
``[contest] instructors``), a session logged in with one of those addresses is the
instructor without typing a key. Otherwise the instructor's key decides, as before
(compared in constant time); without a key a local install lets everyone act and a hosted
server no one. A list of instructors is a restriction: with one configured, a local
install no longer lets everyone act.

The decision is plain data in, an answer out (no Streamlit): the page reads ``st.user``
into a :class:`Login` and the secrets into :func:`parse_instructors`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lib.contest import identity
from lib.errors import InputError

INSTRUCTOR_KEY_ENV = "AI_SEARCH_LAB_INSTRUCTOR_KEY"
"""The environment variable holding the instructor's key."""

MAX_INSTRUCTORS = 200
"""The most e-mail addresses the instructors' list may hold."""

MAX_EMAIL = 254
"""The longest e-mail address (RFC 5321's path limit)."""


@dataclass(frozen=True)
class Login:
    """What ``st.user`` says of this session.

    ``configured``: the host set up an identity provider (an ``[auth]`` secret);
    ``logged_in``: this session logged in through it; ``email``: the identity's e-mail
    claim; ``email_verified``: the provider's ``email_verified`` claim (None when it sends
    none, as some providers do).
    """

    configured: bool = False
    logged_in: bool = False
    email: str | None = None
    email_verified: bool | None = None

    @classmethod
    def from_user(cls, configured: bool, user: Mapping[str, object]) -> Login:
        """A :class:`Login` from ``st.user``'s claims (a mapping; odd types count as absent).

        >>> Login.from_user(True, {"is_logged_in": True, "email": "A@b.org"}).email
        'A@b.org'
        """
        email = user.get("email")
        verified = user.get("email_verified")
        return cls(
            configured=configured,
            logged_in=user.get("is_logged_in") is True,
            email=email if isinstance(email, str) else None,
            email_verified=verified if isinstance(verified, bool) else None,
        )


def normal_email(text: str) -> str:
    """An e-mail address as compared: without surrounding spaces, case-folded.

    >>> normal_email("  Ada.Lovelace@Example.ORG ")
    'ada.lovelace@example.org'
    """
    return text.strip().casefold()


def parse_instructors(value: object) -> frozenset[str]:
    """The instructors' e-mail addresses from the secret ``[contest] instructors``: a list
    of addresses (one address alone is a list of one; None or empty: no list).

    Raises :class:`InputError` naming the entry that is not an address.

    >>> sorted(parse_instructors(["a@b.org", " C@D.org"]))
    ['a@b.org', 'c@d.org']
    """
    if value is None or value == "":
        return frozenset()
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)):
        raise InputError(
            "The secret contest.instructors must be a list of e-mail addresses, "
            f'e.g. ["teacher@school.org"], not a {type(value).__name__}.'
        )
    if len(items) > MAX_INSTRUCTORS:
        raise InputError(f"The secret contest.instructors lists more than {MAX_INSTRUCTORS}.")
    found = set()
    for number, item in enumerate(items, start=1):
        text = normal_email(item) if isinstance(item, str) else ""
        local, at, domain = text.rpartition("@")
        spaced = any(character.isspace() for character in text)
        if not (at and local and "." in domain and len(text) <= MAX_EMAIL) or spaced:
            shown = repr(item)[:60]
            raise InputError(
                f"Entry {number} of the secret contest.instructors ({shown}) is not an e-mail "
                "address such as teacher@school.org."
            )
        found.add(text)
    return frozenset(found)


def login_instructor(login: Login, instructors: frozenset[str]) -> bool:
    """Whether ``login`` is an instructor: a provider configured, logged in, with an e-mail
    on ``instructors`` that the provider has not said is unverified."""
    return (
        login.configured
        and login.logged_in
        and login.email is not None
        and login.email_verified is not False
        and normal_email(login.email) in instructors
    )


def instructor_access(
    given: object,
    configured: str | None,
    hosted: bool,
    login: Login | None = None,
    instructors: frozenset[str] = frozenset(),
) -> str:
    """How this session is the instructor: ``"login"``, ``"key"`` or ``"local"``.

    ``given`` is the key typed, ``configured`` the instructor's key (None: not set),
    ``hosted`` whether this is a hosted server. Raises :class:`InputError` saying why not.
    """
    login = login or Login()
    if login_instructor(login, instructors):
        return "login"
    by_login = login.configured and bool(instructors)
    if configured:
        if identity.same_secret(given, configured):
            return "key"
        if by_login and not given:
            raise InputError(_login_hint(login) + " or type the instructor's key.")
        raise InputError("That is not the instructor's key.")
    if by_login:
        raise InputError(_login_hint(login) + ".")
    if hosted:
        raise InputError(
            "Contests cannot be run on this hosted server until an instructor's key is set: "
            f"set the environment variable {INSTRUCTOR_KEY_ENV}, or add "
            'instructor_key = "..." under [contest] in .streamlit/secrets.toml '
            '(or let instructors log in: instructors = ["..."] there, with an [auth] '
            "identity provider)."
        )
    return "local"


def _login_hint(login: Login) -> str:
    """What a session that is not a logged-in instructor can do about it."""
    if not login.logged_in:
        return "Log in with an instructor's e-mail address"
    if login.email_verified is False:
        return "Your identity provider has not verified that e-mail address: log in with another"
    return "That login is not on this server's list of instructors: log in with another"
