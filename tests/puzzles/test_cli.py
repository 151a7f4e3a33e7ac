"""The command line: the last line's format, and exit status 2 with the reason on bad input."""

from __future__ import annotations

import re

from lib.puzzles.__main__ import main
from lib.puzzles.board import apply_moves, goal_board, parse_board

LAST = re.compile(r"^length=(\d+) generated=(\d+) seconds=[\d.]+ moves=([UDLR]*)$")


def _last_line(capsys) -> re.Match:
    lines = capsys.readouterr().out.strip().splitlines()
    match = LAST.match(lines[-1])
    assert match, lines[-1]
    return match


def test_solve_prints_the_counts_and_a_solution(capsys):
    text = "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15"  # Korf's instance 12: 45 moves
    assert main(["solve", text, "--algorithm", "idastar", "--heuristic", "pdb"]) == 0
    match = _last_line(capsys)
    assert int(match[1]) == 45 and int(match[2]) > 0
    assert apply_moves(parse_board(text), match[3]) == goal_board(4)
    assert main(["solve", "7 2 4 5 0 6 8 3 1", "--algorithm", "rbfs", "--heuristic", "lc"]) == 0
    assert int(_last_line(capsys)[1]) == 26


def test_bad_boards_and_options_exit_2_with_the_reason(capsys):
    assert main(["solve", "0 2 1 3 4 5 6 7 8"]) == 2
    assert "cannot be solved" in capsys.readouterr().err
    assert main(["solve", "1 2 3"]) == 2
    assert "has 3 tiles" in capsys.readouterr().err
    assert main(["solve", "7 2 4 5 0 6 8 3 1", "--heuristic", "pdb"]) == 2
    assert "15-puzzle only" in capsys.readouterr().err
    assert main(["solve", "7 2 4 5 0 6 8 3 1", "--algorithm", "nope"]) == 2
    assert main(["frobnicate"]) == 2
