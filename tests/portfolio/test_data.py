"""Loading and validating stock CSVs: summary tables, price histories, every bad input."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.portfolio import data as data_module
from lib.portfolio.data import (
    hard_case_table,
    load_stock_table,
    max_drawdown,
    read_stock_data,
)

ROOT = Path(__file__).resolve().parents[2]


def upload(text: str | bytes, name: str = "stocks.csv") -> io.BytesIO:
    """A file-like object like Streamlit's UploadedFile."""
    raw = text.encode("utf-8") if isinstance(text, str) else text
    buffer = io.BytesIO(raw)
    buffer.name = name
    return buffer


# -- summary tables ---------------------------------------------------------------------


def test_summary_columns_in_any_case_and_order_extra_columns_ignored():
    text = "Unnamed: 0,RETURN,Ticker,Risk,notes\n0,1.5,AAA,0.2,x\n1,3,BBB,0.5,y\n"
    table = load_stock_table(upload(text))
    assert list(table.columns) == ["ticker", "risk", "return"]
    assert table["ticker"].tolist() == ["AAA", "BBB"]
    assert table["risk"].tolist() == [0.2, 0.5]
    assert table["return"].tolist() == [1.5, 3.0]
    assert table.attrs["kind"] == "summary"


def test_semicolon_separated_with_decimal_commas_and_bom():
    raw = "\ufeffticker;risk;return\nAAA;0,25;1,5\nBBB;0,5;2\n".encode()
    table = load_stock_table(upload(raw))
    assert table["risk"].tolist() == [0.25, 0.5]
    assert table["return"].tolist() == [1.5, 2.0]


def test_text_file_like_and_path_sources(tmp_path):
    text = "ticker,risk,return\nAAA,0.1,1\nBBB,0.2,2\n"
    path = tmp_path / "mine.csv"
    path.write_text(text, encoding="utf-8")
    from_path = load_stock_table(path)
    from_text = load_stock_table(io.StringIO(text))
    pd.testing.assert_frame_equal(from_path, from_text)


def test_bundled_sample_matches_its_published_summary():
    table = load_stock_table(ROOT / "data" / "sample_stocks.csv")
    assert len(table) == 400
    assert table["risk"].mean() == pytest.approx(0.4609, abs=1e-3)
    assert table["return"].max() == pytest.approx(16.48, abs=1e-2)


def test_bundled_sp500_prices_give_20_stocks_over_the_window():
    data = read_stock_data(ROOT / "data" / "sp500_prices_2020_2022.csv")
    assert data.kind == "prices-wide"
    assert len(data.table) == 20
    assert str(data.first_date.date()) == "2020-01-02"
    assert data.last_date.year == 2022
    assert data.table["risk"].between(0, 1).all()


# -- price histories --------------------------------------------------------------------

WIDE = """Date,UP,DIP
2021-01-04,10,100
2021-01-05,12,120
2021-01-06,9,60
2021-01-07,15,90
"""


def test_wide_prices_give_drawdown_and_growth():
    table = load_stock_table(upload(WIDE))
    up = table.set_index("ticker").loc["UP"]
    dip = table.set_index("ticker").loc["DIP"]
    assert up["risk"] == pytest.approx(1 - 9 / 12)
    assert up["return"] == pytest.approx(15 / 10 - 1)
    assert dip["risk"] == pytest.approx(0.5)
    assert dip["return"] == pytest.approx(90 / 100 - 1)


def test_peak_return_definition_and_date_window():
    table = load_stock_table(upload(WIDE), return_definition="peak", start="2021-01-05")
    dip = table.set_index("ticker").loc["DIP"]
    assert dip["return"] == pytest.approx(0.0)  # peak 120 / start 120 - 1
    assert dip["risk"] == pytest.approx(0.5)
    up = table.set_index("ticker").loc["UP"]
    assert up["return"] == pytest.approx(15 / 12 - 1)


def test_long_prices_equal_wide_prices_and_dates_are_sorted():
    wide = pd.read_csv(io.StringIO(WIDE))
    long = wide.melt(id_vars="Date", var_name="ticker", value_name="Adj Close")
    long = long.rename(columns={"Date": "date"}).iloc[::-1]  # reversed: must be sorted back
    table = load_stock_table(upload(long.to_csv(index=False)))
    expected = load_stock_table(upload(WIDE))
    table = table.set_index("ticker").loc[expected["ticker"]].reset_index()
    pd.testing.assert_frame_equal(table, expected, check_like=True)


def test_ticker_without_prices_in_window_is_dropped_and_reported():
    text = "Date,A,B\n2021-01-04,10,\n2021-01-05,11,\n2022-06-01,12,5\n2022-06-02,13,6\n"
    data = read_stock_data(upload(text), end="2021-12-31")
    assert data.table["ticker"].tolist() == ["A"]
    assert len(data.notes) == 1 and "B" in data.notes[0] and "dropped" in data.notes[0]


def test_missing_prices_inside_the_window_are_skipped():
    text = "Date,A\n2021-01-04,10\n2021-01-05,\n2021-01-06,5\n2021-01-07,20\n"
    table = load_stock_table(upload(text))
    assert table["risk"].iloc[0] == pytest.approx(0.5)
    assert table["return"].iloc[0] == pytest.approx(1.0)


@given(st.lists(st.floats(0.01, 1e6), min_size=1, max_size=60))
@settings(max_examples=80, deadline=None)
def test_max_drawdown_matches_the_definition(prices):
    series = np.array(prices)
    brute = max(
        (series[i] - series[j]) / series[i]
        for i in range(len(series))
        for j in range(i, len(series))
    )
    assert max_drawdown(series) == pytest.approx(max(brute, 0.0), abs=1e-12)
    assert 0.0 <= max_drawdown(series) < 1.0


# -- bad inputs: each class gets a message naming file / line / column / value ---------------

BAD = [
    ("empty", b"", ["empty"]),
    ("blank", b"  \n \n", ["empty"]),
    ("header only", b"ticker,risk,return\n", ["no data rows"]),
    ("binary", b"PK\x03\x04\x00\x00binary", ["binary"]),
    ("not utf-8", b"ticker,risk,return\nA\xe9,0.1,1\n", ["line 2", "UTF-8"]),
    ("missing columns", b"ticker,risk\nAAA,0.1\n", ["missing columns", "'return'", "'risk'"]),
    ("non-numeric", b"ticker,risk,return\nAAA,0.1,1\nBBB,abc,2\n", ["line 3", "'risk'", "'abc'"]),
    ("NaN", b"ticker,risk,return\nAAA,0.1,NaN\n", ["line 2", "'return'", "'NaN'"]),
    ("empty value", b"ticker,risk,return\nAAA,,1\n", ["line 2", "'risk'", "empty"]),
    ("negative risk", b"ticker,risk,return\nAAA,-0.1,1\n", ["line 2", "'risk'", "'-0.1'", "0..1"]),
    ("risk above 1", b"ticker,risk,return\nAAA,0.1,1\nB,1.5,1\n", ["line 3", "'1.5'", "0..1"]),
    (
        "risk in percent",
        b"ticker,risk,return\nAAA,0.5,1\nB,45,1\n",
        ["line 3", "'45'", "looks like percentages", "divide it by 100"],
    ),
    ("return below -1", b"ticker,risk,return\nAAA,0.1,-2\n", ["line 2", "'return'", "'-2'"]),
    (
        "huge return",
        b"ticker,risk,return\nAAA,0.1,1\nHUGE,0.5,1e308\n",
        ["line 3", "'return'", "'1e308'", "above 1,000,000"],
    ),
    (
        "prices growing past the return cap",
        b"Date,A,B\n2021-01-04,1e-300,10\n2021-01-05,1e300,11\n",
        ["ticker 'A'", "above 1,000,000"],
    ),
    (
        "duplicate tickers",
        b"ticker,risk,return\nAAA,0.1,1\nBBB,0.2,1\nAAA,0.3,1\n",
        ["'AAA'", "line 2", "line 4"],
    ),
    ("empty ticker", b"ticker,risk,return\n,0.1,1\n", ["line 2", "'ticker'", "empty"]),
    (
        "ragged first row",
        b"ticker,risk,return\nAAA,0.1,1,7,8\n",
        ["line 2 has 5 fields", "'AAA,0.1,1,7,8'", "header on line 1 has 3"],
    ),
    (
        "ragged later row",
        b"ticker;risk;return\nA;0,1;1\n\nB;0,2;1\nC;0,3;1;9\n",
        ["line 5 has 4 fields", "'C;0,3;1;9'", "has 3"],
    ),
    ("bad date", b"Date,A\n2021-01-04,10\nnot-a-date,11\n", ["line 3", "'Date'", "'not-a-date'"]),
    ("zero price", b"Date,A\n2021-01-04,10\n2021-01-05,0\n", ["line 3", "'A'", "'0'", "positive"]),
    ("negative price", b"date,ticker,close\n2021-01-04,A,-3\n", ["line 2", "'close'", "'-3'"]),
    (
        "text price",
        b"Date,A\n2021-01-04,10\n2021-01-05,ten\n",
        ["line 3", "'A'", "'ten'", "number"],
    ),
    (
        "prices without a ticker name",
        b"Date,A,\n2021-01-04,10,20\n2021-01-05,11,21\n",
        ["line 1, column 3 has no name", "(line 2: '20')", "ticker"],
    ),
    (
        "decimal comma quoted as written",
        b"ticker;risk;return\nA;0,1;1.234,5\n",
        ["line 2", "'return'", "'1.234,5'"],
    ),
    ("duplicate column", b"Date,A,B,A\n2021-01-04,1,2,3\n", ["line 1", "'A'", "twice"]),
    ("duplicate date", b"Date,A\n2021-01-04,10\n2021-01-04,11\n", ["2021-01-04", "line 2"]),
    # each of these once said something else
    (
        "one price row",  # was "at least 1 ... lower the minimum to 0 or fewer"
        b"Date,A,B\n2021-01-04,10,20\n",
        ["every ticker has fewer than two prices", "1 date"],
    ),
    (
        "one price per ticker in a long file",
        b"date,ticker,close\n2021-01-04,A,10\n2021-01-05,B,20\n",
        ["every ticker has fewer than two prices"],
    ),
    (
        "long file without a price column",  # was read as wide, blaming the ticker values
        b"date,ticker\n2021-01-04,AAA\n2021-01-05,AAA\n",
        ["'date' and 'ticker'", "no price column", "'close'"],
    ),
    (
        "risk as a percentage with a sign",  # the 1.5 case had a hint, '45%' none
        b"ticker,risk,return\nAAA,0.5,1\nB,45%,1\n",
        ["line 3", "'risk'", "'45%'", "percentage", "45 % = 0.45"],
    ),
    (
        "duplicate long row",
        b"date,ticker,close\n2021-01-04,A,1\n2021-01-04,A,2\n",
        ["'A'", "2021-01-04", "line 3", "(line 2)"],
    ),
]


@pytest.mark.parametrize(("case", "raw", "fragments"), BAD, ids=[case for case, _, _ in BAD])
def test_bad_input_raises_input_error_naming_the_problem(case, raw, fragments):
    with pytest.raises(InputError) as error:
        load_stock_table(upload(raw, name="bad.csv"))
    message = str(error.value)
    assert "bad.csv" in message
    for fragment in fragments:
        assert fragment in message, (case, message)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-8-sig"])
def test_excel_unicode_text_is_read_as_text_not_called_binary(encoding):
    # Excel's "Unicode text" export: UTF-16 (with a BOM), tab-separated, decimal commas
    raw = "Ticker\tRisk\tReturn\nNESN.SW\t0,25\t1,5\nBÂLE\t0,5\t2\n".encode(encoding)
    table = load_stock_table(upload(raw))
    assert table["ticker"].tolist() == ["NESN.SW", "BÂLE"]
    assert table["risk"].tolist() == [0.25, 0.5] and table["return"].tolist() == [1.5, 2.0]


def test_line_numbers_count_blank_lines_and_quoted_line_breaks():
    # blank lines and a quoted value spanning two lines: the bad value is on line 6
    text = 'ticker,risk,return\n\n"A\nB",0.1,1\n\nC,abc,2\n'
    with pytest.raises(InputError, match=r"line 6, column 'risk': value 'abc'"):
        load_stock_table(upload(text, name="gaps.csv"))


def test_a_window_holding_one_date_says_so():
    text = "Date,A\n2021-01-04,10\n2021-01-05,11\n2021-02-01,12\n"
    with pytest.raises(InputError) as error:
        load_stock_table(upload(text), start="2021-02-01", end="2021-02-28")
    message = str(error.value)
    assert "every ticker has fewer than two prices in the chosen window" in message
    assert "lower the minimum" not in message


def test_too_few_stocks_for_the_minimum_stocks_constraint():
    with pytest.raises(InputError, match=r"only 2 usable stock.*at least 30"):
        load_stock_table(upload("ticker,risk,return\nA,0.1,1\nB,0.2,2\n"), min_stocks=30)


def test_too_many_stocks_is_refused():
    rows = "\n".join(f"T{i},0.1,1" for i in range(data_module.MAX_STOCKS + 1))
    with pytest.raises(InputError, match="too many"):
        load_stock_table(upload("ticker,risk,return\n" + rows))


def test_too_many_rows_is_refused(monkeypatch):
    monkeypatch.setattr(data_module, "MAX_ROWS", 5)
    rows = "\n".join(f"T{i},0.1,1" for i in range(7))
    with pytest.raises(InputError, match="too many"):
        load_stock_table(upload("ticker,risk,return\n" + rows))


def test_too_large_file_is_refused(monkeypatch):
    monkeypatch.setattr(data_module, "MAX_BYTES", 10)
    with pytest.raises(InputError, match="larger than the limit of 10 bytes"):
        load_stock_table(upload("ticker,risk,return\nA,0.1,1\n"))


def test_window_without_prices_names_the_span():
    with pytest.raises(InputError, match="2021-01-04 to 2021-01-07"):
        load_stock_table(upload(WIDE), start="2030-01-01")


def test_unknown_return_definition():
    with pytest.raises(InputError, match="return definition"):
        load_stock_table(upload(WIDE), return_definition="mean")


def test_hard_case_table_is_valid_and_reproducible():
    first, again = hard_case_table(400, seed=3), hard_case_table(400, seed=3)
    pd.testing.assert_frame_equal(first, again)
    assert first["ticker"].is_unique
    assert first["risk"].between(0, 1).all()
    with pytest.raises(InputError):
        hard_case_table(50)


def test_windows_line_endings_and_blank_index_column():
    raw = b",ticker,risk,return\r\n0,AAA,0.1,1\r\n1,BBB,0.2,2\r\n"
    table = load_stock_table(upload(raw))
    assert table["ticker"].tolist() == ["AAA", "BBB"]
    assert table["return"].tolist() == [1.0, 2.0]


def test_tab_separated_summary_is_accepted():
    table = load_stock_table(upload("Ticker\tRisk\tReturn\nAAA\t0.2\t1.5\nBBB\t0.5\t3\n"))
    assert table["ticker"].tolist() == ["AAA", "BBB"]
    assert table["risk"].tolist() == [0.2, 0.5] and table["return"].tolist() == [1.5, 3.0]


def test_tab_separated_prices_are_accepted():
    wide = "Date\tA\tB\n2021-01-04\t10\t20\n2021-01-05\t12\t10\n2021-01-06\t11\t30\n"
    table = load_stock_table(upload(wide)).set_index("ticker")
    assert table.loc["A", "return"] == pytest.approx(0.1)
    assert table.loc["B", "risk"] == pytest.approx(0.5)


def test_a_late_duplicate_in_a_long_price_file_names_the_repeating_line():
    rows = ["date,ticker,close"]
    for day in range(1, 29):
        rows += [f"2021-02-{day:02d},A,{day}", f"2021-02-{day:02d},B,{day + 1}"]
    rows.append("2021-02-05,B,3")  # line 58 repeats line 11
    with pytest.raises(InputError) as error:
        load_stock_table(upload("\n".join(rows) + "\n", name="long.csv"))
    message = str(error.value)
    assert "line 58" in message and "line 11" in message and "'B'" in message
    assert "line 2 " not in message and "line 2)" not in message


def test_a_repeated_date_in_a_wide_price_file_names_both_of_its_lines():
    rows = ["Date,A"] + [f"2021-02-{day:02d},{day}" for day in range(1, 29)]
    rows += ["2021-02-07,3", "2021-02-02,3"]  # 02-07 repeats first (line 30 repeats line 8)
    with pytest.raises(InputError) as error:
        load_stock_table(upload("\n".join(rows) + "\n", name="wide.csv"))
    message = str(error.value)
    assert "2021-02-07" in message and "line 8" in message and "line 30" in message


def test_a_row_number_column_or_an_empty_column_of_a_price_history_is_left_out():
    for text in (
        ",Date,A\n0,2021-01-04,10\n1,2021-01-05,20\n",  # pandas' saved index
        "Date,A,\n2021-01-04,10,\n2021-01-05,20,\n",  # trailing separators
    ):
        table = load_stock_table(upload(text))
        assert table["ticker"].tolist() == ["A"]
        assert table["return"].iloc[0] == pytest.approx(1.0)


@pytest.mark.parametrize(("fmt", "sep"), [("%d/%m/%Y", ","), ("%m/%d/%Y", ","), ("%d.%m.%Y", ";")])
def test_day_month_dates_are_read_in_one_order_for_the_whole_column(fmt, sep):
    # 01/02/2021 alone is ambiguous; read row by row it was January 2 beside 13/02 = February 13
    rng = np.random.default_rng(3)
    dates = pd.bdate_range("2021-01-01", periods=80)
    prices = pd.DataFrame(np.exp(np.cumsum(rng.normal(0, 0.03, (80, 3)), axis=0)) * 20)
    prices.columns = ["A", "B", "C"]
    iso = prices.assign(Date=dates.strftime("%Y-%m-%d"))[["Date", "A", "B", "C"]]
    local = iso.assign(Date=dates.strftime(fmt))
    expected = read_stock_data(upload(iso.to_csv(index=False)))
    got = read_stock_data(
        upload(local.to_csv(index=False, sep=sep, decimal="," if sep == ";" else "."))
    )
    assert got.first_date == expected.first_date and got.last_date == expected.last_date
    pd.testing.assert_frame_equal(got.table, expected.table)


def test_dates_mixing_day_month_and_month_day_are_an_error():
    text = "Date,A\n13/01/2021,10\n01/13/2021,11\n"
    with pytest.raises(InputError, match=r"'13/01/2021' on line 2.*'01/13/2021' on line 3"):
        load_stock_table(upload(text))


def test_tab_separated_files_may_use_decimal_commas():
    summary = load_stock_table(upload("ticker\trisk\treturn\nA\t0,2\t1,5\nB\t0,3\t2\n"))
    assert summary["risk"].tolist() == [0.2, 0.3] and summary["return"].tolist() == [1.5, 2.0]
    prices = load_stock_table(upload("Date\tA\n2021-01-04\t10,5\n2021-01-05\t21\n"))
    assert prices["return"].iloc[0] == pytest.approx(21 / 10.5 - 1)
