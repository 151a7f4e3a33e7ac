"""The compiled fast paths make the textbook's choices from the same stream: the same boards."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lib.local_search import fast, textbook
from lib.local_search.queens import Board, pairs_of_counts
from lib.local_search.randomness import Uniforms
from lib.local_search.trace import Tracer

seeds = st.integers(0, 2**32 - 1)


@given(seeds, st.integers(8, 16), st.sampled_from([0, 3, 100]))
@settings(max_examples=60, deadline=None)
def test_fast_hill_climbing_equals_the_textbook(seed, n, sideways):
    slow_rand, fast_rand = Uniforms(seed), Uniforms(seed)
    board = Board.random(n, slow_rand)
    tracer = Tracer(keep_states=False)
    textbook.hill_climbing(board, slow_rand, tracer, sideways)
    arrays = fast.Arrays.random(n, fast_rand)
    steps, cut = fast.hill_climbing(arrays, fast_rand, sideways)
    assert arrays.rows.tolist() == board.rows and arrays.h == board.h and not cut
    assert steps == tracer.steps
    assert fast_rand.uniform() == slow_rand.uniform()  # the same numbers used


@given(seeds, st.sampled_from([0, 100]))
@settings(max_examples=20, deadline=None)
def test_fast_random_restart_equals_the_textbook(seed, sideways):
    tracer = Tracer(keep_states=False)
    board = textbook.random_restart(8, Uniforms(seed), tracer, sideways)
    arrays, steps, restarts = fast.random_restart(8, Uniforms(seed), sideways)
    assert arrays.rows.tolist() == board.rows and arrays.h == board.h == 0
    assert (steps, restarts) == (tracer.steps, tracer.restarts)


@given(seeds, st.integers(8, 80), st.booleans())
@settings(max_examples=40, deadline=None)
def test_fast_min_conflicts_equals_the_textbook(seed, n, greedy):
    slow_rand, fast_rand = Uniforms(seed), Uniforms(seed)
    if greedy:
        board, arrays = textbook.greedy_start(n, slow_rand), fast.greedy_start(n, fast_rand)
    else:
        board, arrays = Board.random(n, slow_rand), fast.Arrays.random(n, fast_rand)
    assert arrays.rows.tolist() == board.rows and arrays.h == board.h
    tracer = Tracer(keep_states=False)
    tracer.start(board.rows, board.h)
    textbook.min_conflicts(board, slow_rand, tracer, 300)
    history = [arrays.h]
    steps = fast.min_conflicts(arrays, fast_rand, 300, history=history)
    assert arrays.rows.tolist() == board.rows and arrays.h == board.h
    assert steps == tracer.steps and history == tracer.history


@given(seeds)
@settings(max_examples=10, deadline=None)
def test_fast_min_conflicts_h_is_the_recount_on_larger_boards(seed):
    rand = Uniforms(seed)
    arrays = fast.greedy_start(3_000, rand, tries=3)
    assert arrays.h == pairs_of_counts(arrays.rows)
    fast.min_conflicts(arrays, rand, 2_000)
    assert arrays.h == pairs_of_counts(arrays.rows) == 0


def test_a_step_limit_cuts_the_climb():
    rand = Uniforms(11)
    arrays = fast.Arrays.random(40, rand)
    steps, cut = fast.hill_climbing(arrays, rand, 100, max_steps=2)
    assert steps == 2 and cut and arrays.h == pairs_of_counts(arrays.rows)
