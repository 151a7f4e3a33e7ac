"""The board's counts against the pair-by-pair definition of h, and the input checks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.local_search.queens import (
    Board,
    attacking_pairs,
    check_n,
    check_state,
    landscape,
    pairs_of_counts,
)
from lib.local_search.randomness import Uniforms


def brute_force(rows):
    """h by the book's words: every pair of queens on one row or one diagonal."""
    pairs = 0
    for a, ra in enumerate(rows):
        for b, rb in enumerate(rows):
            if a < b and (ra == rb or ra - a == rb - b or ra + a == rb + b):
                pairs += 1
    return pairs


states = st.integers(8, 14).flatmap(
    lambda n: st.lists(st.integers(0, n - 1), min_size=n, max_size=n)
)


@given(states)
def test_attacking_pairs_board_and_counts_equal_brute_force(rows):
    expected = brute_force(rows)
    assert attacking_pairs(rows) == expected
    assert Board(rows).h == expected
    assert pairs_of_counts(np.array(rows)) == expected


@given(states, st.lists(st.tuples(st.integers(0, 13), st.integers(0, 13)), max_size=20))
def test_incremental_moves_equal_recomputation(rows, moves):
    board = Board(rows)
    n = len(rows)
    for column, row in moves:
        column, row = column % n, row % n
        predicted = board.h_after(column, row)
        board.move(column, row)
        assert board.h == predicted == brute_force(board.rows)


@given(states)
@settings(max_examples=30)
def test_landscape_is_h_of_each_neighbour(rows):
    grid = landscape(rows)
    n = len(rows)
    for column in range(n):
        for row in range(n):
            neighbour = list(rows)
            neighbour[column] = row
            assert grid[row, column] == brute_force(neighbour)


def test_aima_figure_4_3a():
    # the book's state has h = 17 and its best neighbours h = 12
    rows = (4, 5, 6, 3, 4, 5, 6, 5)
    assert attacking_pairs(rows) == 17
    assert landscape(rows).min() == 12


def test_a_known_solution_has_no_attacking_pair():
    assert attacking_pairs((0, 4, 7, 5, 2, 6, 1, 3)) == 0


@pytest.mark.parametrize("n", [0, 7, 10**9, -1])
def test_n_out_of_range_is_refused_naming_the_value_and_range(n):
    with pytest.raises(InputError) as caught:
        check_n(n)
    message = str(caught.value)
    assert f"{n:,}" in message and "8" in message and "1,000,000" in message


@pytest.mark.parametrize("n", [8.5, "8", None, True])
def test_n_not_a_whole_number_is_refused(n):
    with pytest.raises(InputError, match="whole number"):
        check_n(n)


def test_a_state_with_a_row_off_the_board_names_the_column():
    with pytest.raises(InputError, match="Column 3"):
        check_state((0, 1, 9, 2, 3, 4, 5, 6))


@given(st.integers(8, 40), st.integers(0, 2**32))
def test_random_moves_are_neighbours_drawn_from_every_column(n, seed):
    rand = Uniforms(seed)
    board = Board.random(n, rand)
    for _ in range(20):
        column, row = board.random_move(rand)
        assert 0 <= column < n and 0 <= row < n and row != board.rows[column]
