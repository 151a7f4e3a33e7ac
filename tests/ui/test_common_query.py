"""query_int(): a link's whole number kept in range, and the note saying what was changed."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest


def _query_app() -> None:
    import streamlit as st

    from lib.ui.common import query_int

    value, note = query_int("games", 20, 1, 50)
    st.write(f"value={value}")
    if note:
        st.warning(note)


def _run(raw: str | None) -> AppTest:
    app = AppTest.from_function(_query_app, default_timeout=30)
    if raw is not None:
        app.query_params["games"] = raw
    app.run()
    assert not app.exception
    return app


@pytest.mark.parametrize(
    ("raw", "used", "note"),
    [
        (None, 20, None),
        ("7", 7, None),
        ("50", 50, None),
        (" 3 ", 3, None),
        ("99999", 50, "The link's games=99999 is outside this page's range 1–50; using 50."),
        ("0", 1, "The link's games=0 is outside this page's range 1–50; using 1."),
        ("-5", 1, "The link's games=\\-5 is outside this page's range 1–50; using 1."),
        ("abc", 20, "The link's games=abc is not a whole number; using 20."),
        ("2.5", 20, "The link's games=2\\.5 is not a whole number; using 20."),
    ],
)
def test_a_link_number_is_used_clamped_or_replaced_and_said_so(raw, used, note):
    app = _run(raw)
    assert app.markdown[0].value == f"value={used}"
    assert [w.value for w in app.warning] == ([note] if note else [])


def test_the_note_escapes_what_the_link_gave():
    app = _run("[x](http://example.com)")
    warning = app.warning[0].value
    assert "](" not in warning and "not a whole number; using 20." in warning
