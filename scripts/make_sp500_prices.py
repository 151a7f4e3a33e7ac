"""Build data/sp500_prices_2020_2022.csv from the S&P 500 sample that skfolio ships.

A one-off tool, not an app dependency: ``pip install skfolio`` first, then run
``python scripts/make_sp500_prices.py`` from the repository root. The dataset
(daily adjusted closes of 20 S&P 500 stocks) comes with skfolio under the
BSD-3-Clause licence; see the README's "Data credits".
"""

from __future__ import annotations

from pathlib import Path

from skfolio.datasets import load_sp500_dataset

START, END = "2020-01-01", "2022-12-31"
OUT = Path(__file__).resolve().parents[1] / "data" / "sp500_prices_2020_2022.csv"


def main() -> None:
    prices = load_sp500_dataset()
    window = prices.loc[START:END]
    window.index = window.index.strftime("%Y-%m-%d")
    window.index.name = "Date"
    window.round(4).to_csv(OUT)
    print(f"wrote {OUT} ({len(window)} days x {window.shape[1]} tickers)")


if __name__ == "__main__":
    main()
