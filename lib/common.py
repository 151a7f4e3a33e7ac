"""Small helpers shared by the portfolio, games and routes packages."""

from __future__ import annotations

import html
import io

import pandas as pd

# A spreadsheet treats a cell starting with one of these as a formula
# (CSV injection, OWASP); tab and carriage return can hide such a cell.
_FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def escape_spreadsheet_cell(value: object) -> object:
    """Return ``value`` made safe to open in a spreadsheet.

    Text starting with ``= + - @`` (or a tab / carriage return) gets a leading
    apostrophe so Excel, LibreOffice and Google Sheets show it as text instead
    of running it. Numbers are returned unchanged (a negative number is data,
    not a formula).

    >>> escape_spreadsheet_cell("=HYPERLINK(1)")
    "'=HYPERLINK(1)"
    >>> escape_spreadsheet_cell(-1.5)
    -1.5
    """
    if isinstance(value, str) and value.startswith(_FORMULA_PREFIXES):
        return "'" + value
    return value


def safe_csv_bytes(table: pd.DataFrame) -> bytes:
    """Serialise ``table`` as UTF-8 CSV bytes with every text cell escaped."""
    safe = table.copy()
    for column in safe.columns:
        if safe[column].dtype == object or pd.api.types.is_string_dtype(safe[column]):
            safe[column] = safe[column].map(escape_spreadsheet_cell)
    safe.columns = [str(escape_spreadsheet_cell(str(c))) for c in safe.columns]
    buffer = io.StringIO()
    safe.to_csv(buffer, index=False)
    return buffer.getvalue().encode("utf-8")


def escape_plot_text(text: object) -> str:
    """``text`` made to show literally in a plotly figure (labels, hover text, titles, legend).

    Plotly reads a few HTML tags in text (``<a href>``, ``<b>``, ``<br>``,
    ``<span style>``), so a user-supplied name such as ``<a href="...">`` would
    become a link; with ``< > &`` as entities it is shown as typed.

    >>> escape_plot_text('<a href="http://x">Iasi</a> & co')
    '&lt;a href="http://x"&gt;Iasi&lt;/a&gt; &amp; co'
    """
    return html.escape(str(text), quote=False)
