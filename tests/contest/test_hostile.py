"""Hostile input, generated: names, codes and formulas never break the store or change it.

Whatever is typed, :func:`join` and :func:`submit` either succeed or raise the one
user-facing :class:`InputError`; a refused call leaves every table as it was; a name that
is kept is at most 40 characters, NFKC-normalised, and comes back as the exact text stored.
"""

from __future__ import annotations

import unicodedata

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lib.contest import identity
from lib.contest.contests import Submission, join, open_contest, submit
from lib.contest.schema import metadata
from lib.contest.store import Store
from lib.errors import InputError
from tests.contest.conftest import TICTACTOE

SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

HOSTILE = st.one_of(
    st.text(max_size=60),
    st.builds(lambda text, n: (text or "x") * n, st.text(max_size=3), st.integers(3_300, 10_000)),
    st.sampled_from(
        [
            "<script>alert(1)</script>",
            "'; DROP TABLE entries; --",
            "Robert'); DROP TABLE students;--",
            "**bold** [link](http://x)",
            "\u202eevil",
            "a\u200bb",
            "\x00",
            "   ",
        ]
    ),
)


@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> tuple[Store, str, str]:
    """One SQLite store, an open contest, a joined student's token."""
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('hostile') / 'c.sqlite3'}")
    code = open_contest(store, TICTACTOE).code
    token = identity.new_token()
    join(store, code, "Owner", token, "owner-session")
    return store, code, token


def _snapshot(store: Store) -> dict[str, list]:
    with store.read() as connection:
        return {
            name: connection.execute(sa.select(table).order_by(table.c.id)).all()
            for name, table in metadata.tables.items()
            if name != "actions"
        }


@SETTINGS
@given(name=HOSTILE, code=st.one_of(HOSTILE, st.just("")))
def test_a_hostile_name_or_code_is_refused_cleanly_or_kept_as_text(shared, name, code) -> None:
    store, real_code, _ = shared
    before = _snapshot(store)
    for typed_code in (code, real_code):
        token = identity.new_token()
        try:
            entry = join(store, typed_code, name, token, actor=f"h-{token[:8]}")
        except InputError as error:
            assert str(error)
            assert _snapshot(store) == before
            continue
        assert typed_code == real_code or identity.clean_code(typed_code) == real_code
        with store.read() as connection:
            kept = connection.execute(
                sa.text(f"SELECT name FROM entries WHERE id = {entry}")
            ).scalar()
        assert kept == " ".join(unicodedata.normalize("NFKC", name).split())
        assert 0 < len(kept) <= identity.MAX_NAME
        return


FORMULA_LIKE = st.from_regex(r"[a-z_]{1,8}( [-+*/] [0-9a-z_().]{1,6}){0,4}", fullmatch=True)


@SETTINGS
@given(formula=st.one_of(HOSTILE, FORMULA_LIKE))
def test_a_hostile_formula_or_stale_token_changes_nothing(shared, formula) -> None:
    store, code, token = shared
    before = _snapshot(store)
    with pytest.raises(InputError):
        submit(store, code, token + "x", Submission(formula=formula), "stale-key-01", "s")
    assert _snapshot(store) == before
    key = identity.new_token()[:20]  # a fresh request and browser: no rate limit in the way
    try:
        submit(store, code, token, Submission(formula=formula), key, actor=key)
    except InputError as error:
        assert str(error)
        assert _snapshot(store) == before
