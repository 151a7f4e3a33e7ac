"""AIMA's Figure 3.29: the first rows within a factor of 2 (the whole table is in bench/)."""

from __future__ import annotations

from lib.puzzles.aima import BOOK, aima_row, format_table, table_records


def test_the_shallow_rows_are_within_a_factor_of_two_of_the_book():
    rows = [aima_row(d, instances=100, seed=0) for d in (4, 6, 8)]
    for row in rows:
        book = BOOK[row.depth]
        for ours, theirs in ((row.ids, book[0]), (row.astar_h1, book[1]), (row.astar_h2, book[2])):
            assert ours is not None and theirs / 2 <= ours <= theirs * 2, (row.depth, ours, theirs)
        for ours, theirs in zip(row.ebf, book[3:], strict=True):
            assert ours is not None and abs(ours - theirs) < 0.3
        assert row.astar_h2 <= row.astar_h1 <= row.ids  # h2 dominates h1; both beat IDS
    records = table_records(rows)
    assert records[0]["d"] == 4 and records[0]["A*(h2) book"] == 12
    assert "Figure 3.29" in format_table(rows)
