"""Load and validate stock tables: summary tables and price histories.

The one entry point other code relies on is :func:`load_stock_table`, which
turns a CSV (a path or an uploaded file) into a table with one row per stock
and the columns ``ticker, risk, return``:

* ``risk`` is the stock's maximum drawdown over the period (its largest fall
  from a previous peak, 0..1);
* ``return`` is how much its price grew (``end / start - 1``, or
  ``peak / start - 1``, which is what the course's data appears to use).

Three layouts are accepted:

1. a **summary table** with columns ``ticker, risk, return`` (any case or
   order; extra columns such as ``Unnamed: 0`` are ignored);
2. a **wide price history**: a ``Date`` column and one column of prices per
   ticker;
3. a **long price history**: columns ``date, ticker`` and ``close`` (or
   ``adj close`` / ``price``).

Files are read by :func:`lib.csv_upload.read_csv_table` (the map upload's reader
too): comma, semicolon or tab separated (the last two with decimal commas),
UTF-8 with or without a byte order mark, or UTF-16 (Excel's "Unicode text").
Every problem a user can fix raises :class:`lib.errors.InputError` with a
message naming the file, line, column and value and what was expected; line
numbers are the file's own (blank lines and quoted line breaks count).
Stocks dropped on purpose (no prices in the chosen window) are listed in
:attr:`StockData.notes`, never silently lost.

>>> import io
>>> table = load_stock_table(io.StringIO("ticker,risk,return\\nAAA,0.2,1.5\\nBBB,0.5,3"))
>>> list(table.columns), len(table)
(['ticker', 'risk', 'return'], 2)
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Literal

import numpy as np
import pandas as pd

from lib.csv_upload import MAX_BYTES as UPLOAD_BYTES
from lib.csv_upload import parse_numbers, read_csv_table, uses_decimal_comma
from lib.errors import InputError

ReturnDefinition = Literal["end", "peak"]

MAX_STOCKS = 20_000
"""Most stocks a table may hold (keeps the GA's population array small)."""
MAX_ROWS = 250_000
"""Most data rows a file may hold (a long price history of 100 stocks × 10 years is ~250k)."""
MAX_BYTES = UPLOAD_BYTES
"""Largest file accepted (the app's upload limit is the same)."""
MAX_RETURN = 1e6
"""Largest return accepted (a million-fold growth): a larger one is a unit or a typing
mistake, and 1e308 overflowed the GA's sums and the exact optimum's solver."""

COLUMNS = ["ticker", "risk", "return"]
_PRICE_NAMES = ("adj close", "adj_close", "adjclose", "adjusted close", "close", "price")
_DATE_NAMES = ("date", "datetime", "timestamp", "time", "day")


@dataclass(frozen=True)
class StockData:
    """A validated stock table and how it was obtained.

    Attributes:
        table: one row per stock, columns ``ticker, risk, return``.
        kind: ``"summary"``, ``"prices-wide"`` or ``"prices-long"``.
        notes: plain-language remarks on rows dropped on purpose.
        first_date / last_date: the span of a price history (``None`` for a summary).
    """

    table: pd.DataFrame
    kind: str
    notes: tuple[str, ...] = field(default_factory=tuple)
    first_date: pd.Timestamp | None = None
    last_date: pd.Timestamp | None = None


def load_stock_table(
    source: str | os.PathLike[str] | IO[bytes] | IO[str],
    *,
    name: str | None = None,
    start: str | pd.Timestamp | None = None,
    end: str | pd.Timestamp | None = None,
    return_definition: ReturnDefinition = "end",
    min_stocks: int = 1,
) -> pd.DataFrame:
    """Read a stock CSV and return a table with columns ``ticker, risk, return``.

    Args:
        source: a path, or a file-like object (an upload) giving bytes or text.
        name: the file name used in messages (defaults to the path / upload name).
        start, end: inclusive date window for price histories (ignored for summaries).
        return_definition: ``"end"`` for ``last / first - 1`` or ``"peak"`` for
            ``max / first - 1`` (price histories only).
        min_stocks: fewest stocks the table must hold (the GA's minimum-stocks rule).

    Returns:
        The table, with ``table.attrs["notes"]`` listing rows dropped on purpose
        and ``table.attrs["kind"]`` the layout detected.

    Raises:
        InputError: empty, binary or non-UTF-8/16 file; rows with more fields than the
            header; a column named twice; missing columns; non-numeric,
            empty or NaN values; risk outside 0..1; duplicate tickers or dates;
            non-positive prices; unparsable dates; too few or too many stocks.
    """
    data = read_stock_data(
        source,
        name=name,
        start=start,
        end=end,
        return_definition=return_definition,
        min_stocks=min_stocks,
    )
    table = data.table.copy()
    table.attrs["notes"] = list(data.notes)
    table.attrs["kind"] = data.kind
    return table


def read_stock_data(
    source: str | os.PathLike[str] | IO[bytes] | IO[str],
    *,
    name: str | None = None,
    start: str | pd.Timestamp | None = None,
    end: str | pd.Timestamp | None = None,
    return_definition: ReturnDefinition = "end",
    min_stocks: int = 1,
) -> StockData:
    """Like :func:`load_stock_table` but also returns the layout, notes and date span."""
    if return_definition not in ("end", "peak"):
        raise InputError(
            f"Unknown return definition {return_definition!r}: expected 'end' or 'peak'."
        )
    label, frame = _read_frame(source, name)
    columns = {_norm(c): c for c in frame.columns}
    if {"ticker", "risk", "return"} <= columns.keys():
        table = _summary_table(label, frame, columns)
        data = StockData(table=table, kind="summary")
    elif _find(columns, _DATE_NAMES) and "ticker" in columns and _find(columns, _PRICE_NAMES):
        prices = _long_to_wide(label, frame, columns)
        data = _from_prices(label, prices, start, end, return_definition, "prices-long")
    elif _find(columns, _DATE_NAMES) and "ticker" in columns:
        # a long history's layout without its prices: read as wide it would blame the tickers
        found = ", ".join(repr(str(c)) for c in frame.columns[:12])
        raise InputError(
            f"{label}: columns {_find(columns, _DATE_NAMES)!r} and {columns['ticker']!r} make a "
            "long price history (one row per date and ticker), but there is no price column; "
            "expected one named 'close' (or 'adj close', 'price'). "
            f"Found: {found}."
        )
    elif _find(columns, _DATE_NAMES) and len(frame.columns) >= 2:
        prices = _wide_prices(label, frame, columns)
        data = _from_prices(label, prices, start, end, return_definition, "prices-wide")
    else:
        found = ", ".join(repr(str(c)) for c in frame.columns[:12])
        raise InputError(
            f"{label}: missing columns. Expected either a summary table with columns "
            "'ticker', 'risk' and 'return', or a price history with a 'Date' column and "
            "one price column per ticker, or columns 'date', 'ticker', 'close'. "
            f"Found: {found}."
        )
    if len(data.table) > MAX_STOCKS:
        raise InputError(
            f"{label}: {len(data.table):,} stocks is too many; at most {MAX_STOCKS:,} are accepted."
        )
    require_stocks(data.table, min_stocks, label)
    return data


def require_stocks(table: pd.DataFrame, min_stocks: int, label: str = "The data") -> None:
    """Raise :class:`InputError` if ``table`` has fewer than ``min_stocks`` rows."""
    if len(table) < min_stocks:
        raise InputError(
            f"{label}: only {len(table)} usable stock(s), but the portfolio must hold at "
            f"least {min_stocks} (the minimum-stocks constraint). Add stocks or lower the "
            f'minimum ("At least this many stocks") to {len(table)} or fewer.'
        )


def max_drawdown(prices: np.ndarray) -> float:
    """Largest fall from a previous peak, as a fraction of that peak (0..1).

    >>> max_drawdown(np.array([100.0, 120.0, 60.0, 130.0]))
    0.5
    """
    peaks = np.maximum.accumulate(prices)
    return float(np.max(1.0 - prices / peaks))


def summarise_prices(
    prices: pd.DataFrame, return_definition: ReturnDefinition = "end"
) -> pd.DataFrame:
    """Risk (max drawdown) and return per column of a date-indexed price table.

    Missing prices (NaN) are skipped; every column needs at least two prices. A return
    too large for a float is infinite (the reader refuses returns over :data:`MAX_RETURN`).
    """
    rows = []
    for ticker in prices.columns:
        series = prices[ticker].dropna().to_numpy(dtype=float)
        first = series[0]
        last = series[-1] if return_definition == "end" else series.max()
        with np.errstate(over="ignore"):
            growth = last / first
        rows.append((str(ticker), max_drawdown(series), float(growth - 1.0)))
    return pd.DataFrame(rows, columns=COLUMNS)


# ---------------------------------------------------------------------------
# Reading


def _read_frame(source: str | os.PathLike[str] | IO[bytes] | IO[str], name: str | None):
    """The file's label and its table of text cells (:func:`lib.csv_upload.read_csv_table`)."""
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        label = name or path.name
        source = path
    else:
        label = name or Path(str(getattr(source, "name", "") or "uploaded file")).name
    frame = read_csv_table(source, label=label, max_bytes=MAX_BYTES, max_rows=MAX_ROWS)
    if frame.empty:
        raise InputError(f"{label}: the file has a header but no data rows.")
    return label, frame


def _norm(column: str) -> str:
    return str(column).strip().lower().replace("\ufeff", "")


def _find(columns: dict[str, str], names: tuple[str, ...]) -> str | None:
    for candidate in names:
        if candidate in columns:
            return columns[candidate]
    return None


def _line(rows: pd.DataFrame | pd.Series, position: int) -> int:
    """File line of the data row at ``position`` of ``rows`` (indexed by line when read)."""
    return int(rows.index[position])


def _numbers(label: str, frame: pd.DataFrame, column: str, allow_empty: bool) -> np.ndarray:
    """Parse a text column as floats, naming the first bad cell."""
    original = frame[column].astype(str).str.strip()
    # semicolon- and tab-separated files often use decimal commas
    values = parse_numbers(original, decimal_comma=uses_decimal_comma(frame))
    empty = (original == "").to_numpy()
    bad = ~np.isfinite(values) & ~(empty & allow_empty)
    if bad.any():
        position = int(np.flatnonzero(bad)[0])
        raw = original.iloc[position]  # as written in the file
        what = "is empty" if raw == "" else f"value {raw!r} is not a finite number"
        hint = ""
        percent = re.fullmatch(r"([-+]?\d+(?:[.,]\d+)?)\s*%", raw)
        if percent:
            number = float(percent.group(1).replace(",", "."))
            what = f"value {raw!r} is a percentage"
            hint = f": write it as a fraction ({number:g} % = {number / 100:g})"
        raise InputError(
            f"{label}: line {_line(frame, position)}, column {column!r}: {what}; "
            f"expected a number{hint}."
        )
    values[empty] = np.nan
    return values


def _summary_table(label: str, frame: pd.DataFrame, columns: dict[str, str]) -> pd.DataFrame:
    ticker_col, risk_col, return_col = columns["ticker"], columns["risk"], columns["return"]
    tickers = frame[ticker_col].astype(str).str.strip()
    empty = tickers == ""
    if empty.any():
        position = int(np.flatnonzero(empty.to_numpy())[0])
        raise InputError(
            f"{label}: line {_line(frame, position)}, column {ticker_col!r}: the ticker is empty; "
            "expected a name for every stock."
        )
    duplicated = tickers.duplicated(keep=False).to_numpy()
    if duplicated.any():
        first = int(np.flatnonzero(duplicated)[0])
        again = int(np.flatnonzero(duplicated & (tickers == tickers.iloc[first]).to_numpy())[1])
        raise InputError(
            f"{label}: column {ticker_col!r}: ticker {tickers.iloc[first]!r} appears on line "
            f"{_line(frame, first)} and again on line {_line(frame, again)}; expected one row "
            "per stock."
        )
    risk = _numbers(label, frame, risk_col, allow_empty=False)
    ret = _numbers(label, frame, return_col, allow_empty=False)
    out_of_range = (risk < 0) | (risk > 1)
    if out_of_range.any():
        position = int(np.flatnonzero(out_of_range)[0])
        percent = (risk >= 0).all() and (risk <= 100).all()
        raise InputError(
            f"{label}: line {_line(frame, position)}, column {risk_col!r}: value "
            f"{frame[risk_col].iloc[position].strip()!r} is outside 0..1; risk is a maximum "
            "drawdown, a fraction between 0 and 1"
            + (
                " (the column looks like percentages: divide it by 100, 45 % = 0.45)."
                if percent
                else "."
            )
        )
    for outside, why in [
        (ret < -1, "is below -1; a return is a growth factor minus 1 (a stock cannot lose "
         "more than all of its value)."),
        (ret > MAX_RETURN, f"is above {MAX_RETURN:,.0f}; a return is a growth factor minus 1, "
         "and no stock grows a million-fold."),
    ]:  # fmt: skip
        if outside.any():
            position = int(np.flatnonzero(outside)[0])
            raise InputError(
                f"{label}: line {_line(frame, position)}, column {return_col!r}: value "
                f"{frame[return_col].iloc[position].strip()!r} {why}"
            )
    return pd.DataFrame({"ticker": tickers.to_numpy(), "risk": risk, "return": ret})


_NUMERIC_DATE = r"^(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{4})$"


def _numeric_dates(label: str, text: pd.Series, column: str) -> pd.Series | None:
    """Parse ``dd/mm/yyyy`` or ``mm/dd/yyyy`` dates with ONE order for the whole column.

    Row by row, ``01/02/2021`` and ``13/02/2021`` would be read in different
    orders (January 2 and February 13), scrambling the series. The order is
    day-first when some first number is above 12 (or the separator is a dot,
    as in 31.12.2021), month-first otherwise. Returns ``None`` when the column
    is not in this form.

    >>> s = pd.Series(["01/02/2021", "13/02/2021"])
    >>> [str(d.date()) for d in _numeric_dates("f.csv", s, "Date")]
    ['2021-02-01', '2021-02-13']
    """
    parts = text.str.extract(_NUMERIC_DATE)
    if parts.isna().any(axis=None):
        return None
    first, second = parts[0].astype(int), parts[1].astype(int)
    day_first = bool((first > 12).any()) or bool(text.str.contains(".", regex=False).all())
    if day_first and (second > 12).any():
        a = int(np.flatnonzero((first > 12).to_numpy())[0])
        b = int(np.flatnonzero((second > 12).to_numpy())[0])
        raise InputError(
            f"{label}: column {column!r} mixes day/month ({text.iloc[a]!r} on line "
            f"{_line(text, a)}) and month/day ({text.iloc[b]!r} on line {_line(text, b)}); "
            "expected one order "
            "throughout, best as 2021-03-31."
        )
    day, month = (first, second) if day_first else (second, first)
    return pd.to_datetime(
        pd.DataFrame({"year": parts[2].astype(int), "month": month, "day": day}),
        errors="coerce",
    )


def _dates(label: str, frame: pd.DataFrame, column: str) -> pd.Series:
    text = frame[column].astype(str).str.strip()
    numeric = _numeric_dates(label, text, column)
    if numeric is not None:
        dates = numeric.dt.tz_localize("UTC")
    else:
        dates = pd.to_datetime(text, errors="coerce", format="mixed", utc=True)
    bad = dates.isna().to_numpy()
    if bad.any():
        position = int(np.flatnonzero(bad)[0])
        raise InputError(
            f"{label}: line {_line(frame, position)}, column {column!r}: {text.iloc[position]!r} "
            "is not a date; expected dates such as 2021-03-31."
        )
    return dates.dt.tz_localize(None)


def _check_prices(label: str, frame: pd.DataFrame, column: str, values: np.ndarray) -> None:
    bad = values <= 0
    if bad.any():
        position = int(np.flatnonzero(bad)[0])
        raise InputError(
            f"{label}: line {_line(frame, position)}, column {column!r}: price "
            f"{frame[column].iloc[position].strip()!r} is not positive; expected prices above 0."
        )


def _is_index_column(label: str, frame: pd.DataFrame, column: str) -> bool:
    """Whether a wide history's column without a name is left out (raises if it holds prices).

    Columns pandas calls ``Unnamed: N`` have no header. Left out: an empty one
    (a trailing separator) and a row-number column saved by pandas (0, 1, 2, …
    or 1, 2, 3, …). Any other values are prices without a ticker: an error,
    never silently dropped data.
    """
    if not _norm(column).startswith("unnamed:"):
        return False
    values = frame[column].astype(str).str.strip()
    filled = values[values != ""]
    if filled.empty:
        return True
    if filled.str.fullmatch(r"\d+").all() and len(filled) == len(values):
        numbers = filled.astype(int).to_numpy()
        if (np.diff(numbers) == 1).all() and numbers[0] in (0, 1):
            return True
    position = list(frame.columns).index(column) + 1
    row = int(np.flatnonzero((values != "").to_numpy())[0])
    raise InputError(
        f"{label}: line 1, column {position} has no name, but it holds values "
        f"(line {_line(frame, row)}: {filled.iloc[0]!r}); expected a ticker as its header "
        "(or delete the column)."
    )


def _wide_prices(label: str, frame: pd.DataFrame, columns: dict[str, str]) -> pd.DataFrame:
    date_col = _find(columns, _DATE_NAMES)
    assert date_col is not None
    dates = _dates(label, frame, date_col)
    tickers = [c for c in frame.columns if c != date_col and not _is_index_column(label, frame, c)]
    if not tickers:
        raise InputError(
            f"{label}: a price history needs at least one ticker column besides {date_col!r}."
        )
    if len(tickers) > MAX_STOCKS:
        raise InputError(
            f"{label}: {len(tickers):,} ticker columns is too many; at most {MAX_STOCKS:,}."
        )
    prices = {}
    for ticker in tickers:
        values = _numbers(label, frame, ticker, allow_empty=True)
        _check_prices(label, frame, ticker, values)
        prices[ticker] = values
    table = pd.DataFrame(prices, index=pd.DatetimeIndex(dates, name="date"))
    repeated = table.index.duplicated(keep="first")
    if repeated.any():
        again = int(np.flatnonzero(repeated)[0])  # the first row that repeats an earlier date
        first = int(np.flatnonzero(table.index == table.index[again])[0])
        raise InputError(
            f"{label}: column {date_col!r}: date {table.index[first].date()} appears on line "
            f"{_line(frame, first)} and again on line {_line(frame, again)}; expected one row "
            "per date."
        )
    return table.sort_index()


def _long_to_wide(label: str, frame: pd.DataFrame, columns: dict[str, str]) -> pd.DataFrame:
    date_col = _find(columns, _DATE_NAMES)
    price_col = _find(columns, _PRICE_NAMES)
    ticker_col = columns["ticker"]
    assert date_col is not None and price_col is not None
    dates = _dates(label, frame, date_col)
    tickers = frame[ticker_col].astype(str).str.strip()
    empty = (tickers == "").to_numpy()
    if empty.any():
        position = int(np.flatnonzero(empty)[0])
        raise InputError(
            f"{label}: line {_line(frame, position)}, column {ticker_col!r}: the ticker is empty; "
            "expected a name on every row."
        )
    values = _numbers(label, frame, price_col, allow_empty=False)
    _check_prices(label, frame, price_col, values)
    long = pd.DataFrame({"date": dates.to_numpy(), "ticker": tickers.to_numpy(), "p": values})
    repeated = long.duplicated(["date", "ticker"], keep="first").to_numpy()
    if repeated.any():
        again = int(np.flatnonzero(repeated)[0])  # the first row that repeats an earlier one
        same = (long["date"] == long["date"].iloc[again]) & (
            long["ticker"] == long["ticker"].iloc[again]
        )
        first = int(np.flatnonzero(same.to_numpy())[0])
        raise InputError(
            f"{label}: line {_line(frame, again)}: ticker {tickers.iloc[again]!r} already has a "
            f"price on {long['date'].iloc[again].date()} (line {_line(frame, first)}); expected "
            "one row per date and ticker."
        )
    if long["ticker"].nunique() > MAX_STOCKS:
        raise InputError(f"{label}: more than {MAX_STOCKS:,} tickers; too many.")
    wide = long.pivot(index="date", columns="ticker", values="p").sort_index()
    wide.columns = [str(c) for c in wide.columns]
    # keep the tickers in the order they first appear in the file
    order = list(dict.fromkeys(long["ticker"]))
    return wide[order]


def _from_prices(
    label: str,
    prices: pd.DataFrame,
    start: str | pd.Timestamp | None,
    end: str | pd.Timestamp | None,
    return_definition: ReturnDefinition,
    kind: str,
) -> StockData:
    first_date, last_date = prices.index.min(), prices.index.max()
    window = prices
    try:
        if start is not None:
            window = window[window.index >= pd.Timestamp(start)]
        if end is not None:
            window = window[window.index <= pd.Timestamp(end)]
    except (ValueError, TypeError) as error:
        raise InputError(
            f"{label}: the date window {start}..{end} is not valid: {error}"
        ) from error
    if window.empty:
        raise InputError(
            f"{label}: no prices between {start} and {end}; the file covers "
            f"{first_date.date()} to {last_date.date()}."
        )
    counts = window.notna().sum()
    keep = counts[counts >= 2].index
    if not len(keep):  # no risk or return to measure: say why, not "0 usable stocks"
        where = " in the chosen window" if start is not None or end is not None else " in the file"
        dates = window.index.nunique()
        raise InputError(
            f"{label}: every ticker has fewer than two prices{where} ({dates} date(s) from "
            f"{window.index.min().date()} to {window.index.max().date()}); a risk and a return "
            "need at least two dated prices per ticker."
        )
    dropped = [str(t) for t in window.columns if t not in keep]
    notes = []
    if dropped:
        shown = ", ".join(dropped[:20]) + (" …" if len(dropped) > 20 else "")
        notes.append(
            f"{len(dropped)} ticker(s) dropped: fewer than two prices in the chosen window "
            f"({shown})."
        )
    table = summarise_prices(window[keep], return_definition)
    too_high = ~(table["return"] <= MAX_RETURN)  # an overflow to infinity included
    if too_high.any():
        ticker = table["ticker"][too_high].iloc[0]
        raise InputError(
            f"{label}: ticker {str(ticker)!r}: its prices give a return above "
            f"{MAX_RETURN:,.0f} (a million-fold growth); check its prices' unit and scale."
        )
    return StockData(
        table=table,
        kind=kind,
        notes=tuple(notes),
        first_date=first_date,
        last_date=last_date,
    )


def hard_case_table(n_stocks: int = 400, seed: int = 0) -> pd.DataFrame:
    """Generated data on which the course's fitness misleads the GA.

    A hundred "safe" stocks have almost no risk and a return just under 9.4;
    three "stars" return about 10.65 but have a risk near 1, which the course's
    penalty (``5 * max(risk - 0.6, 0)``) punishes so hard that the course's
    fitness prefers the safe stocks. The only feasible portfolios (return
    above 10, risk below 0.6) put between about 50 % and 60 % of the weight on
    the stars, so a GA following the course's fitness is steered away from
    every one of them, while a constraint-aware GA finds them. The rest of the
    stocks are low-return fillers.
    """
    if n_stocks < 103:
        raise InputError(f"hard_case_table needs at least 103 stocks, not {n_stocks}.")
    rng = np.random.default_rng(seed)
    n_safe, n_star = 100, 3
    n_fill = n_stocks - n_safe - n_star
    risk = np.concatenate(
        [
            rng.uniform(0.0, 0.05, n_safe),
            rng.uniform(0.98, 1.0, n_star),
            rng.uniform(0.1, 0.9, n_fill),
        ]
    )
    ret = np.concatenate(
        [
            rng.uniform(9.3, 9.4, n_safe),
            rng.uniform(10.6, 10.7, n_star),
            rng.uniform(0, 0.5, n_fill),
        ]
    )
    order = rng.permutation(n_stocks)
    tickers = [f"H{i:03d}" for i in range(n_stocks)]
    return pd.DataFrame({"ticker": tickers, "risk": risk[order], "return": ret[order]})
