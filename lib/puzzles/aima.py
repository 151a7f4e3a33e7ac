"""AIMA's Figure 3.29 reproduced: search cost and branching factor of IDS, A*(h1) and A*(h2).

The book (Russell and Norvig, *Artificial Intelligence: A Modern Approach*,
3rd edition, Figure 3.29) averages over 100 random 8-puzzle instances for
each even solution depth d from 2 to 24 the number of nodes *generated* by
iterative deepening and by A* with h1 (misplaced tiles) and h2 (Manhattan),
and gives the effective branching factor b* of that mean. :func:`aima_table`
does the same with instances drawn uniformly among the boards whose optimal
solution is exactly d moves (from the breadth-first distance table of all
181,440 boards), seeded, running the compiled searches
(:mod:`lib.puzzles.fast`, which count exactly as the readable ones).

The 3rd edition's IDS figure at d = 12 (3,644,035) does not fit its own
b* = 2.78 (1 + 2.78 + ... + 2.78^12 is about 333,000); the 2nd edition
gives 364,404 there. :data:`BOOK_IDS_2ND_D12` keeps that figure for the
comparison.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from lib.puzzles.fast import fast_astar, fast_ids, instances_at_depth
from lib.puzzles.results import effective_branching_factor

#: AIMA 3rd ed., Figure 3.29: depth -> (IDS, A*(h1), A*(h2), b* IDS, b* A*(h1), b* A*(h2)).
BOOK: dict[int, tuple[float | None, ...]] = {
    2: (10, 6, 6, 2.45, 1.79, 1.79),
    4: (112, 13, 12, 2.87, 1.48, 1.45),
    6: (680, 20, 18, 2.73, 1.34, 1.30),
    8: (6384, 39, 25, 2.80, 1.33, 1.24),
    10: (47127, 93, 39, 2.79, 1.38, 1.22),
    12: (3644035, 227, 73, 2.78, 1.42, 1.24),
    14: (None, 539, 113, None, 1.44, 1.23),
    16: (None, 1301, 211, None, 1.45, 1.25),
    18: (None, 3056, 363, None, 1.46, 1.26),
    20: (None, 7276, 676, None, 1.47, 1.27),
    22: (None, 18094, 1219, None, 1.48, 1.28),
    24: (None, 39135, 1641, None, 1.48, 1.26),
}
#: The 2nd edition's IDS figure at d = 12 (the 3rd edition's is ten times larger).
BOOK_IDS_2ND_D12 = 364_404
EDITION = "AIMA 3rd edition, Figure 3.29 (nodes generated, mean of 100 instances per depth)"

#: IDS is run up to this depth by default (the book stops at 12).
IDS_MAX_DEPTH = 12
#: An IDS run generating more than this gives up, and IDS is not run at deeper depths.
IDS_CAP = 20_000_000

Progress = Callable[[float, str], None]


@dataclass(frozen=True)
class Row:
    """One depth of the table: mean nodes generated and b* per algorithm (``None``: not run)."""

    depth: int
    instances: int
    ids: float | None
    astar_h1: float
    astar_h2: float
    seconds: float

    @property
    def ebf(self) -> tuple[float | None, float, float]:
        """b* of the mean nodes generated, for IDS, A*(h1) and A*(h2)."""
        ids = None if self.ids is None else effective_branching_factor(self.ids, self.depth)
        return (
            ids,
            effective_branching_factor(self.astar_h1, self.depth),
            effective_branching_factor(self.astar_h2, self.depth),
        )


def _mean(values: list[int]) -> float:
    return sum(values) / len(values)


def aima_row(depth: int, instances: int = 100, seed: int = 0, *, run_ids: bool = True) -> Row:
    """One row: ``instances`` boards of optimal length ``depth`` (seeded by ``seed + depth``)."""
    started = time.perf_counter()
    boards = instances_at_depth(depth, instances, seed + depth)
    ids = None
    if run_ids:
        runs = [fast_ids(b, cap=IDS_CAP) for b in boards]
        if all(r.moves is not None for r in runs):
            if any(len(r.moves or "") != depth for r in runs):
                raise AssertionError("IDS found a solution of another length than the optimum")
            ids = _mean([r.generated for r in runs])
    h1 = [fast_astar(b, "h1") for b in boards]
    h2 = [fast_astar(b, "h2") for b in boards]
    for r in h1 + h2:
        if r.moves is None or len(r.moves) != depth:
            raise AssertionError("A* found a solution of another length than the optimum")
    return Row(
        depth, instances, ids, _mean([r.generated for r in h1]), _mean([r.generated for r in h2]),
        time.perf_counter() - started,
    )  # fmt: skip


def aima_table(
    depths: tuple[int, ...] = tuple(range(2, 25, 2)),
    instances: int = 100,
    seed: int = 0,
    *,
    ids_max_depth: int = IDS_MAX_DEPTH,
    progress: Progress | None = None,
) -> list[Row]:
    """The whole table; IDS stops at ``ids_max_depth`` or where it first hits its cap."""
    rows = []
    run_ids = True
    for i, depth in enumerate(depths):
        if progress is not None:
            progress(i / len(depths), f"depth {depth}: {instances} instances")
        row = aima_row(depth, instances, seed, run_ids=run_ids and depth <= ids_max_depth)
        run_ids = run_ids and (row.ids is not None or depth > ids_max_depth)
        rows.append(row)
    if progress is not None:
        progress(1.0, "done")
    return rows


def _cell(value: float | None, digits: int = 0) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:,.{digits}f}"


def table_records(rows: list[Row]) -> list[dict[str, object]]:
    """The rows beside the book's, with ratios ours / book's, for a table or a CSV."""
    records = []
    for row in rows:
        book = BOOK.get(row.depth, (None,) * 6)
        ebf = row.ebf
        record: dict[str, object] = {"d": row.depth, "instances": row.instances}
        for k, name in enumerate(("IDS", "A*(h1)", "A*(h2)")):
            ours = (row.ids, row.astar_h1, row.astar_h2)[k]
            theirs = book[k]
            record[f"{name} ours"] = None if ours is None else round(ours, 1)
            record[f"{name} book"] = theirs
            record[f"{name} ratio"] = (
                None if ours is None or not theirs else round(ours / theirs, 2)
            )
        for k, name in enumerate(("IDS", "A*(h1)", "A*(h2)")):
            record[f"b* {name} ours"] = None if ebf[k] is None else round(ebf[k], 2)
            record[f"b* {name} book"] = book[3 + k]
        record["seconds"] = round(row.seconds, 2)
        records.append(record)
    return records


def format_table(rows: list[Row]) -> str:
    """The table as text, ours beside the book's (for the command line and the bench)."""
    lines = [
        EDITION,
        f"{'d':>3} | {'IDS':>19} | {'A*(h1)':>15} | {'A*(h2)':>13} | "
        f"{'b* IDS':>11} | {'b* A*(h1)':>11} | {'b* A*(h2)':>11}",
        "    |  ours      book    |  ours    book  |  ours   book  |  ours  book |  ours  book"
        " |  ours  book",
    ]
    for row in rows:
        book = BOOK.get(row.depth, (None,) * 6)
        e = row.ebf
        lines.append(
            f"{row.depth:>3} | {_cell(row.ids):>8} {_cell(book[0]):>10} | "
            f"{_cell(row.astar_h1):>6} {_cell(book[1]):>7} | {_cell(row.astar_h2):>5} "
            f"{_cell(book[2]):>6} | {_cell(e[0], 2):>5} {_cell(book[3], 2):>5} | "
            f"{_cell(e[1], 2):>5} {_cell(book[4], 2):>5} | "
            f"{_cell(e[2], 2):>5} {_cell(book[5], 2):>5}"
        )
    return "\n".join(lines)
