"""The compiled kernels equal the readable searches: same moves, same counts (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lib.puzzles.board import apply_moves, goal_board, shuffle
from lib.puzzles.fast import distance_table, fast_astar, fast_ida_star, fast_ids, instances_at_depth
from lib.puzzles.search import solve

boards8 = st.builds(shuffle, st.just(3), st.integers(0, 14), st.integers(0, 10**6))
boards15 = st.builds(shuffle, st.just(4), st.integers(0, 24), st.integers(0, 10**6))


def _counts(run):
    return (run.moves, run.generated, run.expanded, run.max_frontier)


@settings(max_examples=25, deadline=None)
@given(boards8, st.sampled_from(["zero", "h1", "h2", "lc"]))
def test_compiled_ida_star_equals_the_readable_one(board, h):
    assert _counts(fast_ida_star(board, h)) == _counts(solve(board, "idastar", h))


@settings(max_examples=15, deadline=None)
@given(boards15, st.sampled_from(["h2", "lc", "pdb"]))
def test_compiled_ida_star_equals_the_readable_one_on_the_15_puzzle(board, h):
    assert _counts(fast_ida_star(board, h)) == _counts(solve(board, "idastar", h))


@settings(max_examples=25, deadline=None)
@given(st.builds(shuffle, st.just(3), st.integers(0, 10), st.integers(0, 10**6)))
def test_compiled_ids_equals_the_readable_one(board):
    assert _counts(fast_ids(board)) == _counts(solve(board, "ids"))


@settings(max_examples=25, deadline=None)
@given(boards8, st.sampled_from(["zero", "h1", "h2", "lc"]))
def test_compiled_a_star_equals_the_route_labs_best_first_search(board, h):
    fast = fast_astar(board, h)
    slow = solve(board, "ucs" if h == "zero" else "astar", h)
    assert (len(fast.moves), fast.generated, fast.expanded, fast.max_frontier) == (
        slow.length,
        slow.generated,
        slow.expanded,
        slow.max_frontier,
    )


def test_the_distance_table_covers_the_8_puzzle_with_its_known_depths():
    boards, depths = distance_table()
    assert len(boards) == 181_440 and int(depths.max()) == 31
    assert int((depths == 31).sum()) == 2  # the two hardest boards
    for board in instances_at_depth(20, 5, seed=1):
        moves = fast_ida_star(board, "h2").moves
        assert len(moves) == 20 and apply_moves(board, moves) == goal_board(3)
    assert instances_at_depth(8, 3, seed=4) == instances_at_depth(8, 3, seed=4)


def test_a_kernel_stops_at_its_cap():
    board = shuffle(3, 30, 2)
    assert fast_ids(board, cap=1000).moves is None
    assert fast_ida_star(board, "zero", cap=1000).moves is None
    assert fast_astar(board, "zero", cap=100).moves is None


@settings(max_examples=10, deadline=None)
@given(boards15, st.sampled_from(["h2", "pdb"]))
def test_ida_star_one_iteration_at_a_time_adds_up_to_one_run(board, h):
    from lib.puzzles.solver import run_solve

    bounds: list[int] = []
    stepped = run_solve(board, "idastar", h, on_iteration=lambda i, b, n: bounds.append(b))
    whole = fast_ida_star(board, h)
    assert (stepped.moves, stepped.generated, stepped.expanded, stepped.max_frontier) == (
        whole.moves,
        whole.generated,
        whole.expanded,
        whole.max_frontier,
    )
    assert bounds == sorted(bounds) and all(b <= len(whole.moves) for b in bounds)
