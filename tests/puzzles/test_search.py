"""The readable searches: solutions reach the goal, optimal where promised, routes reused."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.puzzles.board import apply_moves, goal_board, parse_board, shuffle
from lib.puzzles.fast import distance_table, optimal_length
from lib.puzzles.search import ALGORITHMS, effective_branching_factor, solve
from lib.puzzles.space import PuzzleSpace
from lib.routes import search as routes

OPTIMAL = {"bfs", "ids", "ucs", "astar", "idastar", "rbfs"}


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 9))
def test_every_algorithm_reaches_the_goal_and_the_optimal_ones_are_optimal(seed, steps):
    board = shuffle(3, steps, seed)
    best = optimal_length(board)
    for algorithm in ALGORITHMS:
        for h in ("h1", "h2", "lc"):
            result = solve(board, algorithm, h)
            assert apply_moves(board, result.moves) == goal_board(3)
            if algorithm in OPTIMAL:
                assert result.length == best, (algorithm, h)
            assert result.generated >= result.expanded >= 0
            if not ALGORITHMS[algorithm].uses_heuristic:
                break


def test_a_26_move_board_is_solved_optimally_by_the_informed_searches():
    board = parse_board("7 2 4 5 0 6 8 3 1")
    for algorithm in ("astar", "idastar", "rbfs"):
        assert solve(board, algorithm, "lc").length == 26
    h1, h2 = solve(board, "astar", "h1"), solve(board, "astar", "h2")
    assert h2.generated < h1.generated  # h2 dominates h1: fewer nodes


def test_bfs_and_a_star_are_the_route_labs_own_searches_on_an_implicit_graph():
    board = shuffle(3, 12, 5)
    space = PuzzleSpace(3)
    route = routes.astar(space, board, goal_board(3), lambda u, v: 0.0)
    ours = solve(board, "ucs")
    assert (len(route.path) - 1, route.generated, route.expanded) == (
        ours.length,
        ours.generated,
        ours.expanded,
    )
    assert (
        space.expansions == route.expanded - 1
    )  # the goal is not expanded; boards generated only as they were reached
    traced = solve(board, "astar", "h2", record_trace=True)
    assert traced.trace and traced.trace[0].part is routes.Part.PUSH


def test_caps_and_bad_requests_raise_input_errors():
    boards, depths = distance_table()
    hard = tuple(int(t) for t in boards[depths == 31][0])  # one of the two hardest: 31 moves
    with pytest.raises(InputError, match="gave up"):
        solve(hard, "ids", max_generated=10_000)
    with pytest.raises(InputError, match="gave up"):
        solve(hard, "bfs", max_generated=1_000)
    with pytest.raises(InputError, match="Unknown algorithm"):
        solve(hard, "dijkstra")
    with pytest.raises(InputError, match="Unknown heuristic"):
        solve(hard, "astar", "h9")
    with pytest.raises(InputError, match="15-puzzle only"):
        solve(hard, "astar", "pdb")
    with pytest.raises(InputError, match="cannot be solved"):
        solve(parse_board("0 2 1 3 4 5 6 7 8", require_solvable=False), "astar")


def test_effective_branching_factor_solves_the_books_equation():
    assert round(effective_branching_factor(52, 5), 2) == 1.92  # AIMA's worked example
    for b, d in ((1.5, 6), (2.78, 12), (1.05, 40)):
        n = sum(b**i for i in range(d + 1)) - 1
        assert effective_branching_factor(n, d) == pytest.approx(b, abs=1e-6)
    assert math.isnan(effective_branching_factor(1, 0))
