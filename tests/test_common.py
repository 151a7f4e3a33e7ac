"""Spreadsheet-safe CSV output."""

from __future__ import annotations

import io

import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from lib.common import escape_plot_text, escape_spreadsheet_cell, safe_csv_bytes


def test_formula_cells_are_escaped_and_numbers_kept():
    table = pd.DataFrame(
        {
            "ticker": ["=1+1", "+A1", "-2+3", "@SUM(A1)", "\tX", "AAPL"],
            "value": [-1.5, 2, 3, 4, 5, 6],
        }
    )
    text = safe_csv_bytes(table).decode("utf-8")
    back = pd.read_csv(io.StringIO(text), keep_default_na=False)
    assert list(back["ticker"]) == ["'=1+1", "'+A1", "'-2+3", "'@SUM(A1)", "'\tX", "AAPL"]
    assert back["value"].tolist() == [-1.5, 2, 3, 4, 5, 6]


def test_header_cells_are_escaped_too():
    text = safe_csv_bytes(pd.DataFrame({"=cmd": [1]})).decode()
    assert text.splitlines()[0] == "'=cmd"


@given(st.text())
def test_escaped_text_never_starts_with_a_formula_character(text):
    escaped = escape_spreadsheet_cell(text)
    assert not escaped.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert escaped in (text, "'" + text)


def test_plot_text_escapes_plotly_html_and_keeps_plain_text():
    assert escape_plot_text("<b>x</b> & <br>") == "&lt;b&gt;x&lt;/b&gt; &amp; &lt;br&gt;"
    assert escape_plot_text("Rimnicu Vilcea (0,0)") == "Rimnicu Vilcea (0,0)"
    assert escape_plot_text(7) == "7"


@given(st.text())
def test_plot_text_never_contains_a_tag_and_unescapes_back(text):
    import html

    escaped = escape_plot_text(text)
    assert "<" not in escaped and ">" not in escaped
    assert html.unescape(escaped) == text
