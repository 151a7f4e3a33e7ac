"""Spreadsheet-safe CSV output."""

from __future__ import annotations

import io

import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from lib.common import escape_spreadsheet_cell, safe_csv_bytes


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
