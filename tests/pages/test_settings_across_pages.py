"""A page's settings outlive a visit to another page of the app (the entry script keeps the
widgets each page asked to keep): the visitor comes back to the settings as left."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("page", "kind", "key", "value"),
    [
        ("pages/puzzles.py", "selectbox", "pz_w_algo", "greedy"),
        ("pages/local_search.py", "number_input", "ls_w_n", 12),
        ("pages/csp.py", "selectbox", "csp_w_problem", "queens"),
    ],
)
def test_a_setting_changed_on_a_page_is_kept_through_a_visit_to_another(page, kind, key, value):
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=120)
    app.run()
    app.switch_page(page)
    app.run()
    widget = getattr(app, kind)(key=key)
    assert widget.value != value  # a real change
    widget.set_value(value)
    app.run()
    assert not app.exception, app.exception
    app.switch_page("pages/home.py")
    app.run()
    app.switch_page(page)
    app.run()
    assert not app.exception, app.exception
    assert getattr(app, kind)(key=key).value == value
