"""The compiled Connect Four search: its bit tricks equal the readable solver's, and its
solutions (scores, best moves, lines, every move's score) equal the readable search's."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.games.connect_four import (
    BOARD,
    COLUMNS,
    ConnectFourState,
    compiled,
    initial_state,
    solver,
    state_from_moves,
)

KNOWN = {
    "dddddbbebbdgbgggbgeeeaae": (2, 0),  # only a and c win (centre first)
    "dcdddfdcffdacccffa": (0,),  # only a wins
    "caecgfccbdccgbggegfdafaabddefa": (3,),  # only d draws
}


def play_out(moves: list[int]) -> ConnectFourState:
    """The position after ``moves`` (a full column's move taken as the first legal one),
    stopping before the game would end."""
    state = initial_state()
    for move in moves:
        legal = state.legal_moves()
        child = state.play(move if move in legal else legal[0])
        if child.is_terminal():
            break
        state = child
    return state


bitboards = st.integers(0, BOARD)


@pytest.fixture(autouse=True, scope="module")
def _machine_code_loaded() -> None:
    """Each compiled function loads its machine code at its first call (a cost of the
    process, not of any example hypothesis times)."""
    compiled.load_compiled()
    zero = np.uint64(0)
    compiled.winning_squares(zero, zero), compiled.mirror_key(zero), compiled.popcount(zero)


@given(bitboards, bitboards)
def test_winning_squares_equal_the_readable_solvers(position, other):
    position &= ~other  # two players never share a square
    mask = position | other
    expected = solver.winning_squares(position, mask)
    assert int(compiled.winning_squares(np.uint64(position), np.uint64(mask))) == expected


@given(st.integers(0, (1 << 49) - 1))
def test_mirror_keys_and_bit_counts_equal_the_readable_ones(key):
    assert int(compiled.mirror_key(np.uint64(key))) == solver.mirror_key(key)
    assert compiled.popcount(np.uint64(key)) == key.bit_count()


@pytest.mark.parametrize(("moves", "best"), KNOWN.items())
def test_the_known_positions_compiled_and_readable_agree(moves, best):
    state = state_from_moves(moves)
    fast, readable = solver.solve(state), solver.solve(state, compiled=False)
    assert fast.best_moves == readable.best_moves == best
    assert (fast.score, fast.line) == (readable.score, readable.line)
    assert solver.move_scores(state) == solver.move_scores(state, compiled=False)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, COLUMNS - 1), min_size=26, max_size=41))
def test_compiled_solutions_equal_the_readable_searchs_with_few_empty_squares(moves):
    state = play_out(moves)
    if state.occupied().bit_count() < 26:  # the game ended early: too many empties
        return
    fast, readable = solver.solve(state), solver.solve(state, compiled=False)
    assert (fast.score, fast.best_moves, fast.line) == (
        readable.score,
        readable.best_moves,
        readable.line,
    )
    assert solver.move_scores(state) == solver.move_scores(state, compiled=False)


@pytest.mark.parametrize("seed", range(6))
def test_compiled_scores_equal_the_readable_searchs_with_18_to_22_empty_squares(seed):
    rng = np.random.default_rng(seed)
    state = initial_state()
    while state.occupied().bit_count() < 20 + seed % 5 or state.is_terminal():
        state = initial_state()
        for _ in range(20 + seed % 5):
            columns = solver.non_losing_columns(state)
            if not columns:
                break
            state = state.play(columns[int(rng.integers(len(columns)))])
    assert solver.score(state) == solver.score(state, compiled=False)


def test_a_small_table_overwritten_again_and_again_keeps_the_scores_right():
    # the smallest table for which a slot and a key's low 32 bits still identify the key:
    # 131,101 slots (a prime over 2**17); positions far larger than it keep their scores
    states = [state_from_moves(moves) for moves in ("dcdddfdc", "dddddbbebbdgbgggbge")]
    expected = [solver.score(state) for state in states]
    small = solver._CompiledSearch(None, None, None, table_size=131_101)
    for state, score in zip(states, expected, strict=True):
        assert small.score(*solver.bitboards(state)) == score
    assert small.nodes > 10 * 131_101  # the table was overwritten many times over


def test_a_search_out_of_time_unwinds_and_resumes_where_the_table_left_it():
    # chunks of a few thousand nodes: many restarts of the same probe give the same score
    state = state_from_moves("dcdddfdcffda")
    search = solver._CompiledSearch(time.perf_counter() + 60.0, None, None, table_size=131_101)
    assert search.score(*solver.bitboards(state)) == solver.score(state)
    assert search.nodes > solver.FIRST_CHUNK * 4  # it was cut into several chunks


def test_the_book_is_read_by_the_compiled_search_as_by_the_readable_one():
    book = solver.bundled_book()
    keys, scores, plies = book.arrays
    assert list(keys) == sorted(book.scores)
    assert [int(score) for score in scores] == [book.scores[int(key)] for key in keys]
    assert int(plies) == sum(1 << discs for discs in book.plies)
    # a book of every child (20 discs) of a position with 19 discs
    parent = state_from_moves("dcdddfdcffdacccffab")
    children = [parent.play(move) for move in parent.legal_moves()]
    small = solver.book_from_scores(
        {
            solver.book_key(*solver.bitboards(c)[:2]): solver.score(c)
            for c in children
            if not c.is_terminal()
        }
    )
    fast = solver.solve(parent, book=small)
    readable = solver.solve(parent, book=small, compiled=False)
    assert (fast.score, fast.best_moves, fast.line) == (
        readable.score,
        readable.best_moves,
        readable.line,
    )
    assert fast.nodes < solver.solve(parent).nodes


def test_solves_in_two_threads_at_once_keep_their_own_tables():
    # the compiled search releases the GIL: two visitors' solves may truly overlap
    states = [state_from_moves(moves) for moves in ("dcdddfdcff", "ceaedbbbafec")]
    expected = [solver.move_scores(state) for state in states]
    with ThreadPoolExecutor(max_workers=2) as pool:
        found = list(pool.map(solver.move_scores, states))
    assert found == expected


def sensible_position(seed: int, discs: int) -> ConnectFourState:
    """A game in progress with ``discs`` discs, each move one that does not lose at once."""
    rng = np.random.default_rng(seed)
    while True:
        state = initial_state()
        for _ in range(discs):
            columns = solver.non_losing_columns(state)
            if not columns:
                break
            state = state.play(columns[int(rng.integers(len(columns)))])
        if state.occupied().bit_count() == discs and not state.is_terminal():
            return state


def test_a_chunk_outlasts_the_re_descent_to_where_the_last_one_stopped():
    # a shorter chunk may spend itself going back down and never finish (seen with 8 nodes)
    assert solver.REDESCENT < solver.FIRST_CHUNK <= solver.LAST_CHUNK


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    discs=st.integers(26, 34),
    first_chunk=st.integers(solver.REDESCENT, 4 * solver.REDESCENT),
    grow_after=st.sampled_from([0.0005, 0.01, 4]),
)
def test_chunked_searches_that_grow_their_table_midway_equal_the_readable_search(
    seed, discs, first_chunk, grow_after
):
    """A clocked solve as it runs when time is short: many short chunks, each resumed from
    the table, and the table replaced by a larger (empty) one partway through."""
    state = sensible_position(seed, discs)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver, "FIRST_CHUNK", first_chunk)
        patch.setattr(solver, "LAST_CHUNK", 4 * first_chunk)
        patch.setattr(solver, "GROW_AFTER", grow_after)
        search = solver._CompiledSearch(
            time.perf_counter() + 600.0, None, None, table_size=solver.SMALL_TABLE_SIZE
        )
        found = search.score(*solver.bitboards(state))
    assert found == solver.score(state, compiled=False)
    if search.nodes > grow_after * solver.FIRST_TABLE_SIZE:
        assert search.keys.size == solver.SMALL_TABLE_SIZE  # outgrown: replaced midway
