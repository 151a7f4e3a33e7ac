"""The FFO endgame benchmark runs end to end on one position, with and without the reference."""

from __future__ import annotations

from bench import othello_endgame as bench


def test_bench_solves_one_position_against_the_reference_search(capsys):
    bench.main(["5"])  # FFO #5: the cheapest for today's search
    printed = capsys.readouterr().out
    row = next(line for line in printed.splitlines() if line.split()[:1] == ["5"])
    assert row.split()[2:5] == ["g8", "+32", "yes"]
    assert "median speed-up over today's search" in printed
    assert "targets (cpu)" in printed and "targets (wall clock)" in printed
    assert "load average (1 min)" in printed


def test_bench_loads_ffo_1_to_29_and_parses_ranges():
    assert [number for number, _, _ in bench.load_positions()] == list(range(1, 30))
    assert bench._selection(["1-3", "7"]) == {1, 2, 3, 7}
