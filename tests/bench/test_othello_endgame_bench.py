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


def test_the_previous_solver_is_loaded_from_git_beside_todays(capsys):
    # HEAD is in every checkout, shallow or not; the bench's default is the last pure-Python one
    solve_at_head = bench.previous_solve("HEAD")
    _, state, published = bench.load_positions()[4]  # FFO #5
    result = solve_at_head(state, every_move=True)
    assert {bench.format_move(m): v for m, v in result.move_margins.items()} == published
    assert solve_at_head.__module__ == "_previous_endgame"
    bench.main(["20", "--no-reference", "--previous"])
    printed = capsys.readouterr().out
    assert "first solve of this process" in printed
    row = next(line for line in printed.splitlines() if line.split()[:1] == ["20"])
    assert "previous" in row and "DIFFERENT" not in row
    assert f"previous solver ({bench.PREVIOUS}, pure Python) in the same run" in printed
