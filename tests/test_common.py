"""Spreadsheet-safe CSV output."""

from __future__ import annotations

import codecs
import csv
import io

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.common import escape_plot_text, escape_spreadsheet_cell, safe_csv_bytes


def test_formula_cells_are_escaped_and_numbers_kept():
    table = pd.DataFrame(
        {
            "ticker": ["=1+1", "+A1", "-2+3", "@SUM(A1)", "\tX", "AAPL"],
            "value": [-1.5, 2, 3, 4, 5, 6],
        }
    )
    text = safe_csv_bytes(table).decode("utf-8-sig")
    back = pd.read_csv(io.StringIO(text), keep_default_na=False)
    assert list(back["ticker"]) == ["'=1+1", "'+A1", "'-2+3", "'@SUM(A1)", "'\tX", "AAPL"]
    assert back["value"].tolist() == [-1.5, 2, 3, 4, 5, 6]


def test_header_cells_are_escaped_too():
    text = safe_csv_bytes(pd.DataFrame({"=cmd": [1]})).decode("utf-8-sig")
    assert text.splitlines()[0] == "'=cmd"


def test_downloads_are_utf8_with_a_bom_so_excel_shows_non_ascii_text():
    raw = safe_csv_bytes(pd.DataFrame({"ticker": ["Zürich", "日本"], "risk": [0.1, 0.2]}))
    assert raw.startswith(codecs.BOM_UTF8) and raw.count(codecs.BOM_UTF8) == 1
    assert raw[3:].decode("utf-8") == "ticker,risk\r\nZürich,0.1\r\n日本,0.2\r\n"
    back = pd.read_csv(io.BytesIO(raw))  # pandas skips the mark: the first column is named
    assert list(back.columns) == ["ticker", "risk"] and back["ticker"].tolist() == [
        "Zürich",
        "日本",
    ]


def test_every_kind_of_text_column_is_escaped():
    table = pd.DataFrame(
        {
            "category": pd.Categorical(["=1", "ok"]),
            "string": pd.array(["+A1", None], dtype="string"),
            "mixed": ["@x", 3],
            "number": [-1.0, 2.0],
        }
    )
    rows = list(csv.reader(io.StringIO(safe_csv_bytes(table).decode("utf-8-sig"))))
    assert rows == [
        ["category", "string", "mixed", "number"],
        ["'=1", "'+A1", "'@x", "-1.0"],
        ["ok", "", "3", "2.0"],
    ]


def test_text_differing_only_after_a_nul_character_is_written_as_given():
    # hypothesis found "\x00" written as "" in a category column on pandas 2.1: the column
    # was built with astype("category"), whose hash table (before pandas 3.1) reads text only
    # up to its first NUL; built from codes, every kind of text column keeps each cell
    cells = ["", "\x00", "a\x00b", "a", "=\x00"]
    for dtype in (object, "string", "category"):
        table = pd.DataFrame({"\x00": _column(cells, dtype), "": _column(cells[::-1], dtype)})
        assert table["\x00"].tolist() == cells  # the input itself is intact
        text = safe_csv_bytes(table).decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(text, newline="")))
        assert rows == [
            ["\x00", ""],
            ["", "'=\x00"],
            ["\x00", "a"],
            ["a\x00b", "a\x00b"],
            ["a", "\x00"],
            ["'=\x00", ""],
        ], dtype


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
CELLS = st.one_of(
    st.text(max_size=8),
    st.sampled_from(FORMULA_START).flatmap(lambda c: st.text(max_size=6).map(lambda t: c + t)),
)


@settings(max_examples=100, deadline=None)
@given(
    header=st.lists(CELLS, min_size=1, max_size=4, unique=True),
    data=st.data(),
    dtype=st.sampled_from([object, "string", "category"]),
)
def test_no_downloaded_text_cell_starts_like_a_formula(header, data, dtype):
    columns = {
        name: data.draw(st.lists(CELLS, min_size=2, max_size=2), label=repr(name))
        for name in header
    }
    table = pd.DataFrame({name: _column(cells, dtype) for name, cells in columns.items()})
    text = safe_csv_bytes(table).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert len(rows) == 3  # a line break inside a cell is quoted: it never starts a new row
    for written, original in zip(rows[0] + rows[1] + rows[2], _cells(header, columns), strict=True):
        assert not written.startswith(FORMULA_START)
        assert written in (original, "'" + original)  # nothing lost: at most a leading quote


def _column(cells: list[str], dtype: object) -> pd.Series:
    """``cells`` as a column of ``dtype``, every cell kept as given on every supported pandas.

    A category column is built from codes: ``astype("category")`` finds the
    categories with pandas' string hash table, which before pandas 3.1 compares
    text only up to its first NUL character, so ``""`` and ``"\\x00"`` (or
    ``"a\\x00b"`` and ``"a"``) became one category and a cell was changed before
    the download was even written (pandas issues 34551 and 53720).
    """
    if dtype != "category":
        return pd.Series(cells, dtype=dtype)
    categories = list(dict.fromkeys(cells))
    codes = [categories.index(cell) for cell in cells]
    return pd.Series(
        pd.Categorical.from_codes(codes, categories=pd.Index(categories, dtype=object))
    )


def _cells(header: list[str], columns: dict[str, list[str]]) -> list[str]:
    """The header, then the rows, cell by cell, as given."""
    return [*header, *(columns[name][row] for row in range(2) for name in header)]


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


def test_echo_cuts_long_user_text_and_says_its_length():
    from lib.errors import echo

    assert echo("b2") == "b2" and echo("x" * 20) == "x" * 20
    assert echo("x" * 5_000) == "x" * 20 + "… (5,000 characters)"
    assert echo(12345, limit=3) == "123… (5 characters)"
