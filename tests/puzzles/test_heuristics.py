"""Heuristics: admissible against exact distances, ordered h1 <= h2 <= linear conflict <= truth."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lib.puzzles.board import parse_board, shuffle
from lib.puzzles.fast import distance_table, fast_ida_star, optimal_length
from lib.puzzles.heuristics import linear_conflict, manhattan, misplaced
from lib.puzzles.pdb import pdb_heuristic


def test_aimas_example_board():
    board = parse_board("7 2 4 5 0 6 8 3 1")
    assert (misplaced(board), manhattan(board)) == (8, 18)  # AIMA 3rd ed., section 3.6
    assert optimal_length(board) == 26  # "a typical solution is 26 steps"


def test_every_8_puzzle_heuristic_is_admissible_and_ordered_on_a_sample():
    boards, depths = distance_table()
    for row, depth in zip(boards[::53], depths[::53], strict=True):
        b = tuple(int(t) for t in row)
        assert misplaced(b) <= manhattan(b) <= linear_conflict(b) <= depth
        assert (manhattan(b) - depth) % 2 == 0  # each move changes Manhattan by one


def test_linear_conflict_counts_a_swapped_pair():
    assert linear_conflict(parse_board("0 2 1 3 4 5 6 7 8", require_solvable=False)) == 4


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 30))
def test_the_pattern_database_is_admissible_and_dominates_manhattan(seed, steps):
    board = shuffle(4, steps, seed)
    exact = len(fast_ida_star(board, "h2").moves or "")
    assert manhattan(board) <= pdb_heuristic(board) <= exact
