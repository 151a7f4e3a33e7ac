"""Python code drawn for reading, the line being executed marked by a full-width bar.

The look of the route player's code panel (:mod:`lib.ui.components.route_player`):
colours from :func:`lib.highlight.python_spans`, a gutter of line numbers and a bar
across the whole panel on the marked line. Long lines wrap under their own indent
rather than scroll sideways, so a narrow column beside a chart hides nothing. Drawn
with ``st.html`` (no syntax-highlighting library to load, nothing run in the page);
every text is escaped.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import streamlit as st

from lib.errors import InputError
from lib.highlight import python_spans

CSS = """
.code-view {
  margin: 0; padding: 6px 0; background: #f8fafc; border-radius: 6px; color: #1f2937;
  font-family: "Source Code Pro", ui-monospace, monospace; font-size: 13px; line-height: 1.45;
  overflow-x: hidden;
}
.code-view .cv-row { display: flex; border-left: 4px solid transparent; padding-right: 6px; }
.code-view .cv-row.cv-current { background: #fde68a; border-left-color: #d97706; font-weight: 600; }
.code-view .cv-gutter {
  flex: none; width: 2.2em; padding-right: 0.6em; text-align: right; color: #9ca3af;
  user-select: none;
}
.code-view .cv-current .cv-gutter { color: #92400e; }
.code-view .cv-code {
  flex: 1 1 0; min-width: 0; white-space: pre-wrap; overflow-wrap: anywhere;
  padding-left: calc(var(--indent) + 2ch); text-indent: calc(-1 * (var(--indent) + 2ch));
}
.code-view .t-keyword { color: #7c3aed; }
.code-view .t-builtin { color: #0369a1; }
.code-view .t-definition { color: #1d4ed8; font-weight: 600; }
.code-view .t-string { color: #047857; }
.code-view .t-number { color: #b45309; }
.code-view .t-comment { color: #6b7280; font-style: italic; }
"""
"""The panel's look (the route player's code colours); a wrapped line hangs under its indent."""


def code_html(
    rows: Sequence[str], current: int | None, numbers: Sequence[int] | None = None
) -> str:
    """The HTML of ``rows`` of Python, the row numbered ``current`` marked (None: no mark).

    ``numbers`` are the rows' line numbers (1, 2, ... when None), e.g. an excerpt's
    numbers in its whole listing. Rows are coloured together, so a string over several
    rows keeps its colour. Every text is escaped.
    """
    numbers = tuple(range(1, len(rows) + 1)) if numbers is None else tuple(numbers)
    if len(numbers) != len(rows):
        raise InputError(f"{len(numbers)} line numbers for {len(rows)} lines of code.")
    spans = python_spans("\n".join(rows) + "\n")  # the newline keeps a last blank row
    joined = ["".join(text for _, text in row_spans) for row_spans in spans]
    if joined != list(rows):  # a row holding a line break of its own: shown uncoloured
        spans = [[("", row)] for row in rows]
    body = []
    for number, row, row_spans in zip(numbers, rows, spans, strict=True):
        indent = len(row) - len(row.lstrip(" "))
        code = "".join(
            f'<span class="t-{kind}">{html.escape(text)}</span>' if kind else html.escape(text)
            for kind, text in row_spans
        )
        row_class = (
            'class="cv-row cv-current" aria-current="step"'
            if number == current
            else 'class="cv-row"'
        )
        body.append(
            f'<div {row_class} data-line="{number}">'
            f'<span class="cv-gutter">{number}</span>'
            f'<span class="cv-code" style="--indent: {indent}ch">{code or " "}</span></div>'
        )
    return f'<div class="code-view" data-current="{current or 0}">{"".join(body)}</div>'


def code_view(
    rows: Sequence[str], current: int | None, key: str, *, numbers: Sequence[int] | None = None
) -> None:
    """Show ``rows`` of Python with the row numbered ``current`` marked, under ``.st-key-<key>``.

    ``numbers`` as in :func:`code_html`.
    """
    with st.container(key=key):
        st.html(f"<style>{CSS}</style>{code_html(rows, current, numbers)}")
