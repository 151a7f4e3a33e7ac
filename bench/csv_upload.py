"""How long the shared upload reader takes on big uploads, against pandas' C reader.

Run with ``python -m bench.csv_upload``. Three generated files near the
10 MB upload cap (a long price history, a wide one, a map's edge list) are
read by :func:`lib.csv_upload.read_csv_table` and, as the reference in the
same run, by ``pandas.read_csv(dtype=str)``, which does less (no line
numbers, no checks of each row's fields). Each is timed as the best of a
few rounds; the ratio is the stable figure on a shared machine.
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from lib.csv_upload import read_csv_table

ROUNDS = 3


def files() -> dict[str, bytes]:
    """Generated uploads: seeded, each a few MB."""
    rng = np.random.default_rng(0)
    dates = pd.bdate_range("2000-01-01", periods=2500).strftime("%Y-%m-%d")
    prices = rng.uniform(1, 100, (2500, 200)).round(4)
    wide = pd.DataFrame(prices, columns=[f"T{i}" for i in range(200)])
    wide.insert(0, "Date", dates)
    long = wide.melt(id_vars="Date", var_name="ticker", value_name="close").iloc[:240_000]
    n = 20_000
    edges = pd.DataFrame(
        {
            "source": [f"P{i}" for i in range(n)],
            "target": [f"P{(i * 7 + 1) % n}" for i in range(n)],
            "weight": rng.uniform(1, 500, n).round(2),
        }
    )
    return {
        "long prices (240k rows x 3)": long.to_csv(index=False).encode(),
        "wide prices (2.5k rows x 201)": wide.to_csv(index=False).encode(),
        "map edges (20k rows x 3)": edges.to_csv(index=False, sep=";", decimal=",").encode(),
    }


def best_of(run: Callable[[], object]) -> float:
    """The fastest of :data:`ROUNDS` runs, in seconds."""
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    """Print, per file, the reader's time, the reference's and their ratio."""
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average {load} on {os.cpu_count()} CPUs (timings grow with the load)")
    print(f"{'file':32} {'MB':>5} {'reader s':>9} {'pandas s':>9} {'ratio':>6}")
    for name, raw in files().items():
        sep = ";" if name.startswith("map") else ","
        ours = best_of(lambda raw=raw: read_csv_table(raw, label="upload.csv"))
        reference = best_of(
            lambda raw=raw, sep=sep: pd.read_csv(
                io.BytesIO(raw), sep=sep, dtype=str, keep_default_na=False
            )
        )
        print(
            f"{name:32} {len(raw) / 2**20:5.1f} {ours:9.3f} {reference:9.3f} "
            f"{ours / reference:6.2f}"
        )


if __name__ == "__main__":
    main()
