"""The compiled endgame search against the textbook negamax: the last-empties solver and the
deep search are fail-soft alpha-beta for any window, passes included, on every board size; a
search stopped by its node budget and started again gives the same value; the table, the
parity order and the fastest-first children hold what they say."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.games.othello import GEOMETRY, SIZES, OthelloState, flip_mask
from lib.games.othello.endgame import negamax_margin
from lib.games.othello.endgame_kernels import REGION, endgame_tables
from lib.games.othello.endgame_search import (
    BUDGET,
    NODES,
    STOPPED,
    UNKNOWN,
    _bucket,
    best_square,
    deep,
    lower_bound,
    new_workspace,
    ordered_children,
    parity_order,
    probe,
    shallow,
    store,
    upper_bound,
)
from tests.games.othello.test_endgame import late_position


def boards_of(state: OthelloState) -> tuple[np.uint64, np.uint64]:
    mine, theirs = (state.black, state.white) if state.to_move == 0 else (state.white, state.black)
    return np.uint64(mine), np.uint64(theirs)


def assert_fail_soft(value: int, exact: int, alpha: int, beta: int) -> None:
    """Exact inside the window, a bound on the right side outside it."""
    if value <= alpha:
        assert exact <= value
    elif value >= beta:
        assert exact >= value
    else:
        assert exact == value


windows = {"alpha": st.integers(-66, 64), "width": st.integers(1, 40)}


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    empties=st.integers(1, 6),
    size=st.sampled_from(SIZES),
    **windows,
)
def test_last_empties_solver_is_fail_soft_alpha_beta_of_the_negamax_value(
    seed, empties, size, alpha, width
):
    state = late_position(seed, empties, size)
    if state.is_terminal():
        return
    tables, work = endgame_tables(size), new_workspace(4)
    player, opponent = boards_of(state)
    count = parity_order(player, opponent, tables, work.squares[state.plies_left_hint()])
    value = shallow(
        player, opponent, alpha, alpha + width, count, tables, work.squares, work.control
    )
    assert_fail_soft(value, negamax_margin(state), alpha, alpha + width)
    assert work.control[NODES] >= 1


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    empties=st.integers(0, 10),
    size=st.sampled_from(SIZES),
    table_bits=st.sampled_from([1, 3, 6]),
    searches=st.lists(st.tuples(st.integers(-66, 64), st.integers(1, 40)), min_size=1, max_size=5),
)
def test_deep_search_is_fail_soft_alpha_beta_of_the_negamax_value(
    seed, empties, size, table_bits, searches
):
    """Several windows one after the other, as the narrow-window tests search, each starting
    from the table the others left; small tables, so positions take each other's slots."""
    state = late_position(seed, empties, size)
    if state.is_terminal():
        return
    tables, work = endgame_tables(size), new_workspace(table_bits)
    player, opponent = boards_of(state)
    exact = negamax_margin(state)
    for alpha, width in searches:
        value = deep(
            player,
            opponent,
            alpha,
            alpha + width,
            state.plies_left_hint(),
            UNKNOWN,
            (tables, *work),
        )
        assert not work.control[STOPPED]
        assert_fail_soft(value, exact, alpha, alpha + width)


def test_a_search_stopped_by_its_budget_and_started_again_gives_the_same_value():
    state = late_position(5, 14, 8)
    player, opponent = boards_of(state)
    tables, empties = endgame_tables(8), state.plies_left_hint()
    whole = new_workspace(16)
    expected = deep(player, opponent, -1, 1, empties, UNKNOWN, (tables, *whole))
    assert not whole.control[STOPPED]
    work = new_workspace(16, budget=500)
    stops = 0
    while True:
        work.control[STOPPED] = 0
        value = deep(player, opponent, -1, 1, empties, UNKNOWN, (tables, *work))
        if not work.control[STOPPED]:
            break
        stops += 1
        assert value == 0  # a stopped search says nothing
        work.control[BUDGET] = work.control[NODES] + 500
    assert value == expected
    assert stops >= 10
    assert work.control[NODES] >= whole.control[NODES]


@settings(max_examples=200, deadline=None)
@given(
    boards=st.lists(
        st.tuples(st.integers(1, 2**64 - 1), st.integers(0, 2**64 - 1)), min_size=1, max_size=20
    ),
    lower=st.integers(-64, 64),
    width=st.integers(0, 64),
    square=st.integers(-1, 63),
    empties=st.integers(0, 60),
)
def test_the_table_gives_back_the_last_bounds_and_move_stored_for_a_position(
    boards, lower, width, square, empties
):
    table = new_workspace(3).table  # 8 entries: the positions compete for slots
    upper = min(64, lower + width)
    for player, opponent in boards:
        store(table, np.uint64(player), np.uint64(opponent), empties, lower, upper, square)
    player, opponent = np.uint64(boards[-1][0]), np.uint64(boards[-1][1])
    slot = probe(table, player, opponent)
    assert slot >= 0
    assert (lower_bound(table, slot), upper_bound(table, slot), best_square(table, slot)) == (
        lower,
        upper,
        square,
    )
    store(table, player, opponent, empties, -64, 64, -1)  # the same position: overwritten
    held = [s for s in range(8) if (table[s, 0], table[s, 1]) == (player, opponent)]
    assert held == [probe(table, player, opponent)]
    assert (lower_bound(table, held[0]), upper_bound(table, held[0])) == (-64, 64)


def test_the_table_keeps_the_position_nearer_the_root_when_a_bucket_is_full():
    table = new_workspace(1).table  # one bucket of two slots
    store(table, np.uint64(1), np.uint64(2), 20, 0, 0, 5)
    store(table, np.uint64(3), np.uint64(4), 8, 0, 0, 6)
    store(table, np.uint64(5), np.uint64(6), 9, 0, 0, 7)  # replaces the 8-empties position
    assert probe(table, np.uint64(1), np.uint64(2)) >= 0
    assert probe(table, np.uint64(3), np.uint64(4)) == -1
    assert probe(table, np.uint64(5), np.uint64(6)) >= 0


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), empties=st.integers(1, 12), size=st.sampled_from(SIZES))
def test_parity_order_lists_each_empty_square_once_odd_regions_first(seed, empties, size):
    state = late_position(seed, empties, size)
    player, opponent = boards_of(state)
    tables = endgame_tables(size)
    out = np.zeros(64, dtype=np.int64)
    count = parity_order(player, opponent, tables, out)
    empty = GEOMETRY[size].full & ~(state.black | state.white)
    order = [int(square) for square in out[:count]]
    assert sorted(order) == [s for s in range(64) if empty >> s & 1]
    regions = [int(tables[s, REGION]) for s in order]
    odd = [sum(r == region for r in regions) % 2 == 1 for region in regions]
    assert odd == sorted(odd, reverse=True)  # every odd-region square before the others


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), empties=st.integers(1, 40), size=st.sampled_from(SIZES))
def test_ordered_children_are_the_legal_moves_played_fastest_first(seed, empties, size):
    state = late_position(seed, empties, size)
    player, opponent = boards_of(state)
    tables = endgame_tables(size)
    moves = state.move_mask()
    out = np.zeros((64, 5), dtype=np.uint64)
    count = ordered_children(player, opponent, np.uint64(moves), tables, out)
    rows = [[int(v) for v in row] for row in out[:count]]
    assert sorted(row[1] for row in rows) == [s for s in range(64) if moves >> s & 1]
    assert [row[0] for row in rows] == sorted(row[0] for row in rows)
    inner = GEOMETRY[size].inner_cols
    for key, square, new_player, new_opponent, replies in rows:
        flipped = flip_mask(square, int(player), int(opponent), inner)
        assert new_player == int(player) | flipped | 1 << square
        assert new_opponent == int(opponent) & ~flipped
        child = OthelloState(new_opponent, new_player, 0, size)  # the opponent to move
        assert replies == child.move_mask()
        assert key >= 0


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    empties=st.integers(8, 11),
    size=st.sampled_from([6, 8]),
    table_bits=st.sampled_from([12, 14]),
    chunk=st.integers(30, 300),
    searches=st.lists(st.tuples(st.integers(-66, 64), st.integers(1, 40)), min_size=1, max_size=4),
)
def test_searches_stopped_by_small_budgets_and_started_again_stay_fail_soft(
    seed, empties, size, table_bits, chunk, searches
):
    """As a watched solve runs them: every window resumed after each stop, on one small
    table shared by the windows (what a stopped search left in it must never mislead).
    A resumed search only gets on while the table keeps what earlier runs finished: on a
    table far smaller than a solve's smallest it can go round forever (256 entries with
    runs of 30 nodes at 11 empties did), so the tables here are a solve's sizes (at least
    4,096 entries) and the positions stay small, while the runs are far shorter than a
    solve's (at least 1,000 nodes)."""
    state = late_position(seed, empties, size)
    if state.is_terminal():
        return
    tables, work = endgame_tables(size), new_workspace(table_bits, budget=chunk)
    player, opponent = boards_of(state)
    exact = negamax_margin(state)
    for alpha, width in searches:
        for _ in range(10_000):  # each run ends in a stop or the value
            work.control[STOPPED] = 0
            value = deep(
                player, opponent, alpha, alpha + width, state.plies_left_hint(), UNKNOWN,
                (tables, *work),
            )  # fmt: skip
            if not work.control[STOPPED]:
                break
            work.control[BUDGET] = work.control[NODES] + chunk
        assert not work.control[STOPPED]
        assert_fail_soft(value, exact, alpha, alpha + width)


@settings(max_examples=20, deadline=None)
@given(low=st.integers(0, 2**40 - 1), other=st.integers(0, 2**64 - 1))
def test_positions_differing_only_near_the_end_of_the_board_spread_over_the_buckets(low, other):
    """Late positions often differ only in the board's last rows (the highest bits): they
    must not crowd into a few buckets of two slots, evicting each other's bounds."""
    table = new_workspace(12).table
    rng = np.random.default_rng(low)
    buckets = {
        _bucket(table, np.uint64(low | int(high) << 48), np.uint64(other))
        for high in rng.integers(0, 2**16, size=200)
    }
    assert len(buckets) >= 150  # of 2,048 buckets; 200 random draws hit about 190
