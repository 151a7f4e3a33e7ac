"""The presentation view's toggle (drawn by the entry script for every page) and its link."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from lib.ui.presentation import TOGGLE_KEY

ROOT = Path(__file__).resolve().parents[2]


def _app(**params: str) -> AppTest:
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    for name, value in params.items():
        app.query_params[name] = value
    return app.run()


def test_the_link_opens_the_view_and_the_toggle_writes_it_back():
    app = _app(present="yes")
    assert not app.exception
    assert app.toggle(key=TOGGLE_KEY).value is True
    assert app.query_params.get("present") == "1"  # written in the one form links use
    app.toggle(key=TOGGLE_KEY).set_value(False).run()
    assert "present" not in app.query_params
    app.toggle(key=TOGGLE_KEY).set_value(True).run()
    assert app.query_params.get("present") == "1"


def test_without_the_link_the_view_is_off_and_the_link_stays_clean():
    app = _app()
    assert app.toggle(key=TOGGLE_KEY).value is False
    assert "present" not in app.query_params


def test_a_link_value_that_is_not_yes_or_no_is_named_and_ignored():
    app = _app(present="maybe")
    assert app.toggle(key=TOGGLE_KEY).value is False
    notes = " ".join(caption.value for caption in app.sidebar.caption)
    assert "present=maybe" in notes and "not yes or no" in notes
