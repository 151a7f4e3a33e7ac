"""``python -m lib.csp``: the solved grid's digits last, or status 2 and the reason."""

from __future__ import annotations

import subprocess
import sys

import pytest

from lib.csp.__main__ import main
from tests.csp.test_sudoku import NO_SOLUTION, SOLVED, TWO_SOLUTIONS

HARDEST = "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4."


def test_a_sudoku_prints_its_solution_last(capsys):
    assert main(["sudoku", HARDEST]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == SOLVED
    assert "unique=yes" in out[-2]


@pytest.mark.parametrize(
    ("grid", "reason"),
    [
        (NO_SOLUTION, "no solution"),
        (TWO_SOLUTIONS, "more than one solution"),
        ("55" + HARDEST[2:], "digit 5 appears twice in row 1"),
        (HARDEST[:-2] + "x.", "Character 'x' at cell 80 (row 9, column 8)"),
        (HARDEST[:40], "has 40 cells"),
    ],
)
def test_a_bad_sudoku_exits_2_with_the_reason(capsys, grid, reason):
    assert main(["sudoku", grid]) == 2
    captured = capsys.readouterr()
    assert reason in captured.err and captured.out == ""


def test_the_command_line_runs_as_a_module():
    done = subprocess.run(
        [sys.executable, "-m", "lib.csp", "sudoku", "--bundled", "Inkala 2012"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()[-1]) == 81


def test_solve_prints_the_counts(capsys):
    assert main(["solve", "zebra", "--mrv", "--inference", "fc"]) == 0
    out = capsys.readouterr().out
    assert "Zebra = " in out and "assignments=30 " in out
    assert (
        main(["solve", "queens", "--n", "12", "--algorithm", "min-conflicts", "--seed", "2"]) == 0
    )
    assert main(["sudoku", "--bundled", "nope"]) == 2
