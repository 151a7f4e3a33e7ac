"""The shared CSV reader: round trips of well-formed tables, and every refusal named."""

from __future__ import annotations

import codecs
import csv
import io
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib import csv_upload
from lib.csv_upload import (
    decode,
    parse_number,
    parse_numbers,
    read_csv_table,
    sniff_separator,
    uses_decimal_comma,
)
from lib.errors import InputError

ROOT = Path(__file__).resolve().parents[1]

# names: text without control characters or surrounding blanks (a separator or a quote
# inside a name is written in double quotes by the csv module)
NAMES = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufeff"),
    min_size=1,
    max_size=12,
).map(str.strip)
NAMES = NAMES.filter(bool)
NUMBERS = st.floats(-1e9, 1e9, allow_nan=False, allow_infinity=False)
ENCODINGS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-le")


def write_table(
    names: list[str], values: list[float], sep: str, decimal_comma: bool, line_end: str
) -> str:
    """The table as a spreadsheet would write it: quoted where needed, decimal commas or points."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=sep, lineterminator=line_end)
    writer.writerow(["name", "value"])
    for name, value in zip(names, values, strict=True):
        number = repr(value).replace(".", ",") if decimal_comma else repr(value)
        writer.writerow([name, number])
    return buffer.getvalue()


@settings(max_examples=100, deadline=None)
@given(
    rows=st.lists(st.tuples(NAMES, NUMBERS), min_size=1, max_size=15),
    sep=st.sampled_from(csv_upload.SEPARATORS),
    decimal_comma=st.booleans(),
    encoding=st.sampled_from(ENCODINGS),
    line_end=st.sampled_from(["\n", "\r\n"]),
    blank_after=st.integers(0, 15),
)
def test_a_well_formed_table_round_trips(rows, sep, decimal_comma, encoding, line_end, blank_after):
    decimal_comma = decimal_comma and sep != ","  # a comma file cannot use decimal commas
    names, values = [n for n, _ in rows], [v for _, v in rows]
    text = write_table(names, values, sep, decimal_comma, line_end)
    # a blank line somewhere among the rows is skipped, and the line numbers still count it
    lines = text.split(line_end)
    at = min(blank_after, len(rows)) + 1
    lines.insert(at, "")
    raw = line_end.join(lines).encode(encoding)
    table = read_csv_table(raw, label="t.csv")
    assert table.attrs["sep"] == sep and uses_decimal_comma(table) == (sep != ",")
    assert list(table.columns) == ["name", "value"]
    assert [cell.strip() for cell in table["name"]] == names
    got = parse_numbers(table["value"], decimal_comma=uses_decimal_comma(table))
    assert got.tolist() == values
    assert [parse_number(c, decimal_comma=uses_decimal_comma(table)) for c in table["value"]] == (
        values
    )
    # each row's line: the header is line 1 and the blank line takes one
    assert table.index.tolist() == [i + 2 + (i + 2 > at) for i in range(len(rows))]


@pytest.mark.parametrize("source_kind", ["bytes", "text", "path", "binary file", "text file"])
def test_every_kind_of_source_gives_the_same_table(source_kind, tmp_path):
    text = "a;b\nx;1,5\n"
    source = {
        "bytes": text.encode(),
        "text": text,
        "binary file": io.BytesIO(text.encode()),
        "text file": io.StringIO(text),
    }.get(source_kind)
    if source_kind == "path":
        source = tmp_path / "f.csv"
        source.write_text(text, encoding="utf-8")
    table = read_csv_table(source, label="f.csv")
    assert table.to_dict("list") == {"a": ["x"], "b": ["1,5"]}


def test_an_open_file_is_rewound_after_reading():
    upload = io.BytesIO(b"a,b\n1,2\n")
    read_csv_table(upload, label="f.csv")
    assert upload.read() == b"a,b\n1,2\n"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig"])
def test_utf16_and_bom_files_are_read_as_text(encoding):
    # Excel's "Unicode text" is tab-separated UTF-16 with a BOM; names with accents survive
    text = "ticker\tprice\nNestlé\t1,5\nZürich\t2\n"
    table = read_csv_table(text.encode(encoding), label="u.csv")
    assert table["ticker"].tolist() == ["Nestlé", "Zürich"]
    assert parse_numbers(table["price"], decimal_comma=True).tolist() == [1.5, 2.0]


def test_a_utf16_file_cut_in_the_middle_of_a_character_is_named():
    raw = "a,b\n1,2\n".encode("utf-16")[:-1]
    with pytest.raises(InputError, match=r"^u\.csv: the file starts as UTF-16 text but byte"):
        read_csv_table(raw, label="u.csv")


def test_separator_sniffing_uses_the_header_line():
    assert sniff_separator("a;b;c\n1,5;2,5;3\n") == ";"
    assert sniff_separator("a\tb\n1,5\t2\n") == "\t"
    assert sniff_separator("a,b\n1;2;3;4\n") == ","
    assert sniff_separator("\ufeff\n \na;b\n") == ";"  # blank lines before the header
    assert sniff_separator("single\n1\n") == ","


def test_decimal_commas_only_where_they_are_decimal_commas():
    assert parse_number("1,5", decimal_comma=True) == 1.5
    assert parse_number("-,5", decimal_comma=True) == -0.5
    assert parse_number("2,5e3", decimal_comma=True) == 2500.0
    assert parse_number(" 7 ", decimal_comma=True) == 7.0
    for text in ("1.234,5", "1,2,3", "1,5"):  # a thousands point, two commas, a comma file
        with pytest.raises(ValueError):
            parse_number(text, decimal_comma=text != "1,5")
    values = parse_numbers(pd.Series(["1,5", "1.234,5", "", "nan", "3"]), decimal_comma=True)
    assert values[0] == 1.5 and values[4] == 3.0
    assert np.isnan(values[1]) and np.isnan(values[2]) and math.isnan(values[3])


def test_short_rows_are_padded_and_a_blank_header_cell_is_named_like_pandas():
    table = read_csv_table("Date,A,\n2021-01-04,10\n2021-01-05,11,\n", label="f.csv")
    assert list(table.columns) == ["Date", "A", "Unnamed: 2"]
    assert table["Unnamed: 2"].tolist() == ["", ""]
    assert table.index.tolist() == [2, 3]


def test_quoted_values_may_hold_separators_and_line_breaks():
    text = 'name,note\n"Rimnicu, Vilcea","two\nlines"\nB,x\n'
    table = read_csv_table(text, label="f.csv")
    assert table["name"].tolist() == ["Rimnicu, Vilcea", "B"]
    assert table["note"].tolist() == ["two\nlines", "x"]
    assert table.index.tolist() == [2, 4]  # B starts on line 4: the quoted value took two


def test_a_header_without_rows_gives_an_empty_table():
    table = read_csv_table("a;b\n\n", label="f.csv")
    assert table.empty and list(table.columns) == ["a", "b"] and table.attrs["sep"] == ";"


BAD = [
    ("empty", b"", ["f.csv: the file is empty", "header row"]),
    ("blanks only", b"\n \r\n\t\n", ["the file is empty"]),
    ("workbook", b"PK\x03\x04\x14\x00\x06\x00", ["binary file", "Excel", "CSV UTF-8"]),
    ("old workbook", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00", ["binary", "Excel"]),
    ("zero bytes", b"GIF89a\x01\x00\x00\x00", ["binary file", "zero bytes", "CSV UTF-8"]),
    ("utf-32", "a,b\n".encode("utf-32"), ["binary file"]),
    (
        "latin-1",
        "a,b\nx,1\nZürich,2\n".encode("latin-1"),
        ["line 3 is not valid UTF-8", "b'\\xfc'", "offset 9", "Latin-1", "CSV UTF-8"],
    ),
    (
        "extra field",
        b"a,b\n1,2\n3,4,5\n",
        ["line 3 has 3 fields", "('3,4,5')", "header on line 1 has 2", "commas", '"a,b"'],
    ),
    (
        "extra field after blank lines",
        b"\na;b\n\n1;2\n3;4;5;6\n",
        ["line 5 has 4 fields", "('3;4;5;6')", "header on line 2 has 2", "semicolons"],
    ),
    (
        "extra field, tabs",
        b"a\tb\n1\t2\t3\n",
        ["line 2 has 3 fields", "header on line 1 has 2", "separated by tabs."],
    ),
    (
        "long row cut",
        b"a,b\n" + b"x" * 80 + b",1,2\n",
        ["line 2 has 3 fields", "x" * 59 + "…'"],
    ),
    (
        "unclosed quote",
        b'a,b\n1,2\n"open,3\n4,5\n',
        ["line 3 ('\"open,3')", 'a double quote (") opens a value that is never closed'],
    ),
    ("text after a closing quote", b'a,b\n"x"y,1\n', ["line 2", "'\"x\"y,1'", "closing quote"]),
    (
        "column twice",
        b"Date,A,B, a \n2021-01-04,1,2,3\n",
        ["line 1: column 'a' appears twice", "columns 2 and 4", "once"],
    ),
]


@pytest.mark.parametrize(("case", "raw", "fragments"), BAD, ids=[case for case, _, _ in BAD])
def test_bad_files_are_refused_with_a_message_naming_the_problem(case, raw, fragments):
    with pytest.raises(InputError) as caught:
        read_csv_table(raw, label="f.csv")
    message = str(caught.value)
    assert message.startswith("f.csv: ")
    for fragment in fragments:
        assert fragment in message, (case, message)


def test_size_cap_for_every_kind_of_source(tmp_path):
    text = "a,b\n1,2\n3,4\n"  # 12 bytes
    path = tmp_path / "big.csv"
    path.write_text(text, encoding="utf-8")
    for source in (text, text.encode(), io.BytesIO(text.encode()), io.StringIO(text), path):
        with pytest.raises(InputError, match=r"^big\.csv: the file is larger than the limit of 11"):
            read_csv_table(source, label="big.csv", max_bytes=11)
    assert len(read_csv_table(text, label="big.csv", max_bytes=12)) == 2
    with pytest.raises(InputError, match=r"it has 12 bytes"):
        read_csv_table(path, label="big.csv", max_bytes=11)
    assert csv_upload.size_limit_text(csv_upload.MAX_BYTES) == "10 MB (10,000,000 bytes)"


def test_every_upload_cap_is_the_server_s_as_the_browser_counts_it():
    """Streamlit's uploader counts ``server.maxUploadSize`` in MB of 1,000,000 bytes in a
    browser on Linux or macOS (of 2**20 on Windows and on the server): the app's caps and
    its texts take the smallest, so a file the app says fits is never refused before."""
    import tomllib

    from lib.portfolio import data
    from lib.routes import graphs

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    megabytes = config["server"]["maxUploadSize"]
    assert megabytes == csv_upload.UPLOAD_MB
    assert csv_upload.MAX_BYTES == data.MAX_BYTES == graphs.MAX_UPLOAD_BYTES == megabytes * 10**6
    nearly = "a,b\n" + "1,2\n" * ((99 * 2**20 // 10) // 4)  # 9.9 MiB: over 10,000,000 bytes
    with pytest.raises(InputError, match=r"limit of 10 MB \(10,000,000 bytes\)"):
        read_csv_table(nearly, label="big.csv")


def test_a_missing_path_is_named():
    with pytest.raises(InputError, match=r"^nowhere\.csv: cannot open the file"):
        read_csv_table(Path("/nonexistent/nowhere.csv"), label="nowhere.csv")


def test_row_cap_names_the_first_row_over_it():
    text = "a\n" + "".join(f"{i}\n" for i in range(6))
    assert len(read_csv_table(text, label="f.csv", max_rows=6)) == 6
    with pytest.raises(InputError, match=r"too many rows: line 7 is data row 6; at most 5"):
        read_csv_table(text, label="f.csv", max_rows=5)


def test_decode_strips_one_bom_and_keeps_text():
    assert decode(codecs.BOM_UTF8 + b"a,b\n", label="f") == "a,b\n"
    assert decode("\ufeffa,b\n", label="f") == "a,b\n"


def test_docstring_examples():
    import doctest

    result = doctest.testmod(csv_upload)
    assert result.attempted > 0 and result.failed == 0
