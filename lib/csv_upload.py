"""Reading an uploaded CSV file: the one reader behind the stock upload and the map upload.

A student's file comes from Excel, LibreOffice, Google Sheets or a script, so
the reader accepts what those write and names, in plain words, what it cannot
read:

* **size**: files over a cap are refused before they are parsed;
* **encoding**: UTF-8 with or without a byte order mark, and UTF-16 (Excel's
  "Unicode text"), with a BOM or recognised by its zero bytes; anything else
  with zero bytes is called a binary file (an Excel workbook, most often);
  text that is not valid UTF-8 is named by its line and byte;
* **line ends**: LF, CR LF (Windows) or CR (old Mac);
* **separator**: comma, semicolon or tab, whichever the header (the first
  line that is not blank) uses most;
* **decimal commas** (``1,5``) in semicolon- or tab-separated files
  (:func:`parse_number`, :func:`parse_numbers`);
* **shape**: blank lines are skipped; a row with more fields than the header
  is an error naming its line, its field count and the row as written (never
  silently dropped data); a shorter row is padded with empty cells, which the
  caller reports as empty values; a quote that is never closed is named by
  the line it opens on; a column name given twice is an error.

Every problem raises :class:`lib.errors.InputError` whose message starts with
the file's name and says what was expected. The table comes back as text cells
(no type guessing) indexed by each row's line in the file (the header is
line 1 unless blank lines come before it), so callers can name the line of any
cell they reject.

>>> table = read_csv_table(b"name;km\\nA;1,5\\n\\nB;2\\n", label="roads.csv")
>>> table.attrs["sep"], list(table.columns), list(table.index)
(';', ['name', 'km'], [2, 4])
>>> [parse_number(cell, decimal_comma=True) for cell in table["km"]]
[1.5, 2.0]
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from pathlib import Path
from typing import IO

import numpy as np
import pandas as pd

from lib.errors import InputError

#: A file given as bytes, text, a path, or an open file (Streamlit's ``UploadedFile``).
Source = bytes | str | Path | IO[bytes] | IO[str]

UPLOAD_MB = 10
"""The server's upload limit, ``server.maxUploadSize`` in ``.streamlit/config.toml`` (a test
checks they agree)."""
MAX_BYTES = UPLOAD_MB * 1_000_000
"""Largest file read by default: the upload limit as Streamlit's uploader counts it in a
browser on Linux or macOS (MB of 1,000,000 bytes; of 2**20 on Windows and on the server),
the smallest of its counts, so a file the app says fits is never refused before."""
SEPARATORS = (",", ";", "\t")
"""Column separators accepted, sniffed from the header line (ties go to the first)."""
SEPARATOR_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "vertical bar"}

_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_WORKBOOK_SIGNATURES = (b"PK\x03\x04", b"\xd0\xcf\x11\xe0")  # .xlsx (a zip), .xls
_SHOWN_ROW = 60  # characters of a row quoted in a message
# One decimal comma, as in 1,5 or -0,25 or 1,5e3; "1.234,5" (a thousands point) is left alone.
_DECIMAL_COMMA = re.compile(r"^\s*([+-]?\d*),(\d+(?:[eE][+-]?\d+)?)\s*$")


def size_limit_text(max_bytes: int) -> str:
    """A byte cap in words: whole megabytes (of 1,000,000 bytes) with their bytes, else bytes.

    >>> size_limit_text(10_000_000), size_limit_text(30)
    ('10 MB (10,000,000 bytes)', '30 bytes')
    """
    if max_bytes >= 10**6 and max_bytes % 10**6 == 0:
        return f"{max_bytes // 10**6} MB ({max_bytes:,} bytes)"
    return f"{max_bytes:,} bytes"


def _too_large(label: str, max_bytes: int, size: int | None) -> InputError:
    has = "" if size is None else f" (it has {size:,} bytes)"
    return InputError(
        f"{label}: the file is larger than the limit of {size_limit_text(max_bytes)}{has}; "
        "expected a smaller file (fewer rows or columns)."
    )


def read_raw(source: Source, *, label: str, max_bytes: int = MAX_BYTES) -> bytes | str:
    """The content of ``source`` (bytes, or text if it was given as text), within ``max_bytes``.

    A ``str`` is the file's text itself, not a path (pass a :class:`~pathlib.Path`
    for a path). An open file is read from its current position and rewound to
    the start afterwards when it can be.
    """
    if isinstance(source, Path):
        try:
            size = source.stat().st_size
        except OSError as error:
            raise InputError(f"{label}: cannot open the file ({error.strerror}).") from None
        if size > max_bytes:
            raise _too_large(label, max_bytes, size)
        return source.read_bytes()
    if isinstance(source, bytes | str):
        size = len(source) if isinstance(source, bytes) else len(source.encode("utf-8"))
        if size > max_bytes:
            raise _too_large(label, max_bytes, size)
        return source
    raw = source.read(max_bytes + 1)
    if hasattr(source, "seek"):
        source.seek(0)
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8"))
    if size > max_bytes:
        raise _too_large(label, max_bytes, None)
    return raw


def _utf16_without_bom(raw: bytes) -> str | None:
    """``"utf-16-le"`` / ``"utf-16-be"`` if ``raw`` looks like BOM-less UTF-16 text, else None.

    A header starting with four plain characters (``Date``, ``node``,
    ``ticker``...) has, in UTF-16, a zero byte beside each of them: at odd
    offsets in little-endian, even ones in big-endian.
    """
    start = raw[:8]
    if len(start) < 8 or len(raw) % 2:
        return None
    even, odd = start[0::2], start[1::2]
    if not any(odd) and all(even):
        return "utf-16-le"
    if not any(even) and all(odd):
        return "utf-16-be"
    return None


def decode(raw: bytes | str, *, label: str) -> str:
    """The text of a CSV file given as bytes, without a byte order mark.

    UTF-8 (with or without BOM) and UTF-16 (with a BOM, or recognised by its
    zero bytes) are read; other bytes with zeros are a binary file, and
    invalid UTF-8 is named by line and byte offset. An empty file (or one of
    blanks only) is refused.
    """
    if isinstance(raw, str):
        text = raw
    elif raw.startswith(_UTF16_BOMS) or _utf16_without_bom(raw):
        encoding = "utf-16" if raw.startswith(_UTF16_BOMS) else _utf16_without_bom(raw)
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as error:
            raise InputError(
                f"{label}: the file starts as UTF-16 text but byte {error.start} is not valid "
                "UTF-16 (the file may be cut short); expected a whole file, best saved as "
                "CSV UTF-8."
            ) from None
    elif raw.startswith(_WORKBOOK_SIGNATURES):
        raise InputError(
            f"{label}: this looks like a binary file, a spreadsheet workbook (Excel .xlsx or "
            ".xls) or another zip file, not a CSV text file. In the spreadsheet, use Save As "
            "(or Download as) 'CSV UTF-8' and upload that."
        )
    elif b"\x00" in raw[:8192]:
        raise InputError(
            f"{label}: this looks like a binary file (it contains zero bytes), not a CSV text "
            "file. Save it as CSV UTF-8 and upload that."
        )
    else:
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            line = raw[: error.start].count(b"\n") + 1
            bad = raw[error.start : error.start + 1]
            raise InputError(
                f"{label}: line {line} is not valid UTF-8 (byte {bad!r} at offset "
                f"{error.start}; the file is probably in a Windows or Latin-1 encoding). "
                "Save the file as CSV UTF-8."
            ) from None
    text = text.removeprefix("\ufeff")
    if "\x00" in text:
        raise InputError(
            f"{label}: this looks like a binary file (it contains zero characters), not a CSV "
            "text file. Save it as CSV UTF-8 and upload that."
        )
    if not text.strip():
        raise InputError(f"{label}: the file is empty; expected a CSV with a header row.")
    return text


def read_text(source: Source, *, label: str, max_bytes: int = MAX_BYTES) -> str:
    """:func:`read_raw` then :func:`decode`: the text of an uploaded CSV file."""
    return decode(read_raw(source, label=label, max_bytes=max_bytes), label=label)


def sniff_separator(text: str) -> str:
    r"""The separator of a CSV text: the one of :data:`SEPARATORS` its header line uses most.

    The header is the first line that is not blank. Ties, and headers
    without any separator, give a comma.

    >>> sniff_separator("source;target;weight\nA;B;1,5\n")
    ';'
    >>> sniff_separator("\n \nsource\ttarget\tweight\n")
    '\t'
    """
    lines = io.StringIO(text.removeprefix("\ufeff"))
    header = next((line for line in lines if line.strip()), "")
    return max(SEPARATORS, key=header.count)  # max keeps the first of equal counts: comma


def _row_as_written(text: str, line: int) -> str:
    """Line ``line`` of ``text`` (1-based), cut to :data:`_SHOWN_ROW` characters."""
    lines = text.split("\n")
    shown = lines[line - 1] if 0 < line <= len(lines) else ""
    return shown if len(shown) <= _SHOWN_ROW else shown[: _SHOWN_ROW - 1] + "…"


def _quote_hint(sep: str) -> str:
    """How to write a value holding the separator, e.g. `` (… in double quotes, as "a,b")``."""
    if sep == "\t":
        return ""
    name = SEPARATOR_NAMES[sep]
    return f' (a value containing a {name} must be in double quotes, as "a{sep}b")'


def _column_names(label: str, header: list[str], line: int) -> list[str]:
    """The header's cells stripped; an empty one named ``Unnamed: i`` (as pandas does).

    A name given twice (ignoring case and spaces) is an error.
    """
    names = [cell.strip() or f"Unnamed: {i}" for i, cell in enumerate(header)]
    seen: dict[str, int] = {}
    for position, name in enumerate(names, start=1):
        normal = name.lower()
        if normal in seen:
            raise InputError(
                f"{label}: line {line}: column {name!r} appears twice (columns "
                f"{seen[normal]} and {position}); expected each column name once."
            )
        seen[normal] = position
    return names


def _split_rows(
    text: str, sep: str, label: str
) -> tuple[list[str], int, list[list[str]], list[int]]:
    """The header, its line, the data rows (padded to the header's width) and their lines.

    Blank lines are skipped; a row with more fields than the header, and a
    quote that is never closed, raise :class:`InputError` naming the line.
    """
    records, starts = _records(text, sep, label)
    filled = list(map(str.strip, map("".join, records)))  # "" for a blank line
    first = next((i for i, cells in enumerate(filled) if cells), None)
    if first is None:  # only blank lines: decode() refuses those, but be safe
        raise InputError(f"{label}: the file is empty; expected a CSV with a header row.")
    header, header_line, width = records[first], starts[first], len(records[first])
    kept = [i for i in range(first + 1, len(records)) if filled[i]]
    rows = [records[i] for i in kept]
    lines = [starts[i] for i in kept]
    widths = list(map(len, rows))
    if widths and max(widths) > width:
        at = next(k for k, fields in enumerate(widths) if fields > width)
        raise InputError(
            f"{label}: line {lines[at]} has {widths[at]} fields "
            f"({_row_as_written(text, lines[at])!r}) but the header on line {header_line} "
            f"has {width}. Every row needs the same number of fields as the header, "
            f"separated by {SEPARATOR_NAMES[sep]}s{_quote_hint(sep)}."
        )
    if widths and min(widths) < width:  # a short row: its missing cells are empty
        rows = [row + [""] * (width - len(row)) if len(row) < width else row for row in rows]
    return header, header_line, rows, lines


def _records(text: str, sep: str, label: str) -> tuple[list[list[str]], list[int]]:
    """Every row of ``text`` as the csv module splits it, and the line each starts on.

    Without double quotes every row is one line; with them a quoted value may
    span lines, so the reader's line count is followed row by row.
    """
    reader = csv.reader(io.StringIO(text), delimiter=sep, skipinitialspace=True, strict=True)
    records: list[list[str]] = []
    ends: list[int] = []
    try:
        if '"' not in text:
            records = list(reader)
            return records, list(range(1, len(records) + 1))
        for row in reader:
            records.append(row)
            ends.append(reader.line_num)
    except csv.Error as error:
        start = (ends[-1] if ends else len(records)) + 1
        if "unexpected end of data" in str(error):
            problem = (
                'a double quote (") opens a value that is never closed; expected a closing '
                "quote before the end of the file"
            )
        else:
            problem = f"{error}; expected a value in double quotes to end at its closing quote"
        raise InputError(
            f"{label}: line {start} ({_row_as_written(text, start)!r}): {problem}."
        ) from None
    return records, [1, *(end + 1 for end in ends[:-1])]


def read_csv_table(
    source: Source,
    *,
    label: str,
    max_bytes: int = MAX_BYTES,
    max_rows: int | None = None,
) -> pd.DataFrame:
    """Read an uploaded CSV as a table of text cells, or raise an :class:`InputError`.

    Args:
        source: the file (see :func:`read_raw`; a ``str`` is the text itself).
        label: the file's name as the user knows it; every message starts with it.
        max_bytes: the size cap.
        max_rows: most data rows accepted (``None``: no cap besides the size).

    Returns:
        One row per data line (blank lines skipped), columns named by the
        header (stripped; an empty name becomes ``Unnamed: i``), cells as
        strings exactly as written (short rows padded with ``""``). The index,
        named ``line``, holds each row's line in the file; ``attrs["sep"]`` is
        the separator and ``attrs["header_line"]`` the header's line. A file
        with a header and no rows gives an empty table: the caller says what
        rows it expected.
    """
    text = read_text(source, label=label, max_bytes=max_bytes)
    if "\r" in text:  # Windows (CR LF) and old Mac (CR) line ends
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    sep = sniff_separator(text)
    header, header_line, rows, lines = _split_rows(text, sep, label)
    if max_rows is not None and len(rows) > max_rows:
        raise InputError(
            f"{label}: too many rows: line {lines[max_rows]} is data row {max_rows + 1:,}; at "
            f"most {max_rows:,} data rows are accepted."
        )
    names = _column_names(label, header, header_line)
    table = pd.DataFrame(
        rows or None,
        columns=names,
        index=pd.Index(lines, dtype=np.int64, name="line"),
        dtype=object,
    )
    table.attrs.update(sep=sep, header_line=header_line)
    return table


def parse_number(text: str, *, decimal_comma: bool = False) -> float:
    """``text`` as a float; with ``decimal_comma``, ``1,5`` is read as 1.5.

    Raises ``ValueError`` when ``text`` is not a number (callers name the
    line and column). ``nan`` and ``inf`` come back as floats: callers decide
    whether they are allowed.

    >>> parse_number("-0,25", decimal_comma=True), parse_number(" 3e2 ")
    (-0.25, 300.0)
    """
    cleaned = text.strip()
    if decimal_comma:
        cleaned = _DECIMAL_COMMA.sub(r"\1.\2", cleaned)
    return float(cleaned)


def parse_numbers(cells: pd.Series, *, decimal_comma: bool = False) -> np.ndarray:
    """:func:`parse_number` over a column of text cells; NaN where a cell is not a number.

    >>> parse_numbers(pd.Series(["1,5", "x", "2"]), decimal_comma=True).tolist()
    [1.5, nan, 2.0]
    """
    cleaned = cells.astype(str).str.strip()
    if decimal_comma:
        cleaned = cleaned.str.replace(_DECIMAL_COMMA, r"\1.\2", regex=True)
    values = np.array(pd.to_numeric(cleaned, errors="coerce"), dtype=float)
    # pandas' fast parser may miss the nearest float by one unit in the last place (pandas
    # 2.1 does): the cells it reads as numbers are read again exactly, as parse_number does
    numbers = ~np.isnan(values)
    values[numbers] = [float(text) for text in cleaned[numbers]]
    return values


def uses_decimal_comma(table: pd.DataFrame) -> bool:
    """Whether numbers in ``table`` may have decimal commas: its separator is not a comma."""
    return table.attrs.get("sep", ",") != ","
