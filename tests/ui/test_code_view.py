"""The code panel's HTML (lib/ui/code_view.py): one marked row, the given line numbers,
coloured spans, and any text shown as text (escaped), never as markup."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lib.errors import InputError
from lib.ui.code_view import code_html


class Rows(HTMLParser):
    """The rows of a code panel: (line number, marked, gutter text, code text, span classes)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict] = []
        self._part: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if "cv-row" in classes:
            self.rows.append(
                {
                    "line": int(attrs["data-line"]),
                    "marked": "cv-current" in classes,
                    "gutter": "",
                    "code": "",
                    "kinds": [],
                }
            )
        elif "cv-gutter" in classes:
            self._part = "gutter"
        elif "cv-code" in classes:
            self._part = "code"
        elif self._part == "code" and classes:
            self.rows[-1]["kinds"].extend(classes)

    def handle_endtag(self, tag):
        if tag == "span" and self._part == "gutter":
            self._part = None

    def handle_data(self, data):
        if self._part:
            self.rows[-1][self._part] += data


def parse(markup: str) -> list[dict]:
    parser = Rows()
    parser.feed(markup)
    return parser.rows


def test_one_row_is_marked_and_numbered_as_given():
    rows = ["def f(x):", "    return x + 1  # one more", "", 'print("<b>")']
    markup = code_html(rows, 12, numbers=[10, 11, 12, 13])
    parsed = parse(markup)
    assert [r["line"] for r in parsed] == [10, 11, 12, 13]
    assert [r["gutter"] for r in parsed] == ["10", "11", "12", "13"]
    assert [r["marked"] for r in parsed] == [False, False, True, False]
    assert 'data-current="12"' in markup and markup.count('aria-current="step"') == 1
    # the code reads back exactly (a blank row keeps its place as one space)
    assert [r["code"] for r in parsed] == [rows[0], rows[1], " ", rows[3]]
    assert "t-keyword" in parsed[0]["kinds"] and "t-definition" in parsed[0]["kinds"]
    assert "t-comment" in parsed[1]["kinds"] and "t-string" in parsed[3]["kinds"]
    assert "<b>" not in markup and "&lt;b&gt;" in markup
    # a wrapped line hangs under its own indent
    assert "--indent: 4ch" in markup and "--indent: 0ch" in markup


def test_numbers_default_to_one_up_and_nothing_is_marked_without_a_current_line():
    parsed = parse(code_html(["a = 1", "b = 2"], None))
    assert [r["line"] for r in parsed] == [1, 2] and not any(r["marked"] for r in parsed)
    assert [r["marked"] for r in parse(code_html(["a = 1", "b = 2"], 2))] == [False, True]
    with pytest.raises(InputError, match="2 line numbers for 3 lines"):
        code_html(["a", "b", "c"], 1, numbers=[1, 2])


@given(rows=st.lists(st.text(max_size=40), max_size=8), current=st.integers(0, 9))
def test_any_text_is_shown_as_text(rows, current):
    parsed = parse(code_html(rows, current))
    assert len(parsed) == len(rows)
    assert [r["code"] for r in parsed] == [row or " " for row in rows]
    assert sum(r["marked"] for r in parsed) == (1 if 1 <= current <= len(rows) else 0)
