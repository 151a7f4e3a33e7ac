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
    """Serialise ``table`` as CSV bytes safe to open in a spreadsheet.

    Every text cell (and column name) goes through :func:`escape_spreadsheet_cell`;
    rows end with CR LF, so a cell holding a line break is quoted; and the
    bytes are UTF-8 with a byte order mark: without it, Excel on Windows reads
    a CSV in the system's code page and shows a non-ASCII ticker or a place
    such as ``Zürich`` garbled (``ZÃ¼rich``). pandas, Python's ``utf-8-sig``
    codec and the app's own uploads all skip the mark.

    >>> safe_csv_bytes(pd.DataFrame({"place": ["Zürich", "=1+1"]}))
    b"\\xef\\xbb\\xbfplace\\r\\nZ\\xc3\\xbcrich\\r\\n'=1+1\\r\\n"
    """
    safe = table.copy()
    for column in safe.columns:
        kind = safe[column].dtype
        if not (
            pd.api.types.is_numeric_dtype(kind)
            or pd.api.types.is_bool_dtype(kind)
            or pd.api.types.is_datetime64_any_dtype(kind)
        ):  # text, mixed objects, categories: any cell may be a formula
            safe[column] = safe[column].astype(object).map(escape_spreadsheet_cell)
    safe.columns = [str(escape_spreadsheet_cell(str(c))) for c in safe.columns]
    buffer = io.StringIO()
    # CR LF ends a row (RFC 4180); with it, a cell holding a bare CR is quoted too (with LF
    # ending rows it was not, and a spreadsheet split the row there, so "x\r=cmd" put a
    # formula at the start of a new row)
    safe.to_csv(buffer, index=False, lineterminator="\r\n")
    return buffer.getvalue().encode("utf-8-sig")


def escape_plot_text(text: object) -> str:
    """``text`` made to show literally in a plotly figure (labels, hover text, titles, legend).

    Plotly reads a few HTML tags in text (``<a href>``, ``<b>``, ``<br>``,
    ``<span style>``), so a user-supplied name such as ``<a href="...">`` would
    become a link; with ``< > &`` as entities it is shown as typed.

    >>> escape_plot_text('<a href="http://x">Iasi</a> & co')
    '&lt;a href="http://x"&gt;Iasi&lt;/a&gt; &amp; co'
    """
    return html.escape(str(text), quote=False)
