"""Who is the instructor (lib/contest/access.py): a login on the instructors' list, the key,
or a local install; and the instructors' list as the host writes it in the secrets."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lib.contest.access import (
    Login,
    instructor_access,
    login_instructor,
    parse_instructors,
)
from lib.errors import InputError

KEY = "sesame-123"
LIST = frozenset({"teach@school.org", "ta@school.org"})

LOGINS = {
    "no provider": Login(),
    "logged out": Login(configured=True),
    "instructor": Login(True, True, "Teach@School.ORG "),
    "verified instructor": Login(True, True, "ta@school.org", True),
    "unverified instructor": Login(True, True, "ta@school.org", False),
    "student": Login(True, True, "student@school.org", True),
    "no e-mail": Login(True, True, None),
    "instructor, no provider": Login(False, True, "teach@school.org"),
}


def expected(given_key: str | None, key: str | None, hosted: bool, login: str, lst: bool) -> str:
    """The rules of docs/contest.md, written as a table: the answer, or "refused"."""
    on_list = login in ("instructor", "verified instructor") and lst
    if on_list:
        return "login"
    if key is not None:
        return "key" if given_key == key else "refused"
    login_offered = lst and login != "no provider" and login != "instructor, no provider"
    if login_offered or hosted:
        return "refused"
    return "local"


@pytest.mark.parametrize("login", list(LOGINS))
def test_every_combination_follows_the_rules(login: str) -> None:
    for given_key, key, hosted, lst in itertools.product(
        (None, "", "wrong", KEY), (None, KEY), (False, True), (False, True)
    ):
        want = expected(given_key or None, key, hosted, login, lst)
        case = (given_key, key, hosted, login, lst)
        if want == "refused":
            with pytest.raises(InputError):
                instructor_access(
                    given_key, key, hosted, LOGINS[login], LIST if lst else frozenset()
                )
        else:
            got = instructor_access(
                given_key, key, hosted, LOGINS[login], LIST if lst else frozenset()
            )
            assert got == want, case


def test_the_refusals_say_what_to_do() -> None:
    with pytest.raises(InputError, match="Log in with an instructor's e-mail address or type"):
        instructor_access(None, KEY, True, LOGINS["logged out"], LIST)
    with pytest.raises(InputError, match="not the instructor's key"):
        instructor_access("wrong", KEY, True, LOGINS["logged out"], LIST)
    with pytest.raises(InputError, match="not on this server's list"):
        instructor_access(None, None, True, LOGINS["student"], LIST)
    with pytest.raises(InputError, match="not verified"):
        instructor_access(None, None, False, LOGINS["unverified instructor"], LIST)
    with pytest.raises(InputError, match="instructors = "):  # how to set either up
        instructor_access(None, None, True)


def test_a_login_is_read_from_st_user_s_claims() -> None:
    claims = {"is_logged_in": True, "email": "teach@school.org", "email_verified": True}
    assert login_instructor(Login.from_user(True, claims), LIST)
    assert not login_instructor(Login.from_user(False, claims), LIST)  # no provider set up
    assert not login_instructor(Login.from_user(True, {**claims, "is_logged_in": "yes"}), LIST)
    assert not login_instructor(Login.from_user(True, {**claims, "email_verified": False}), LIST)
    assert not login_instructor(
        Login.from_user(True, {**claims, "email": ["teach@school.org"]}), LIST
    )
    # AppTest's default user (and a local run's) is not logged in
    assert not login_instructor(Login.from_user(True, {"email": "teach@school.org"}), LIST)


def test_the_instructors_list_as_the_host_writes_it() -> None:
    assert parse_instructors(None) == parse_instructors([]) == parse_instructors("") == frozenset()
    assert parse_instructors("Teach@School.org") == {"teach@school.org"}
    assert parse_instructors(("a@b.org", "A@B.org ")) == {"a@b.org"}
    for bad, named in (
        (["a@b.org", "nobody"], "Entry 2"),
        ([3], "Entry 1"),
        (["a b@c.org"], "Entry 1"),
        (["@school.org"], "Entry 1"),
        (["x@localhost"], "Entry 1"),
        ({"a@b.org": 1}, "a list"),
        (["a@b.org"] * 201, "more than 200"),
    ):
        with pytest.raises(InputError, match=named):
            parse_instructors(bad)


@given(st.one_of(st.text(max_size=80), st.lists(st.text(max_size=40), max_size=5), st.integers()))
def test_any_secret_gives_addresses_or_a_clear_message(value: object) -> None:
    try:
        found = parse_instructors(value)
    except InputError as error:
        assert "contest.instructors" in str(error)
        return
    items = [value] if isinstance(value, str) and value else value
    assert found == {item.strip().casefold() for item in items}
    assert all("@" in address and not any(c.isspace() for c in address) for address in found)
    assert parse_instructors(sorted(found)) == found  # normal already
