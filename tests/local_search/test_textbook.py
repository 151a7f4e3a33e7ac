"""The textbook algorithms do what the book says at every step, and end where they should."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.local_search import textbook
from lib.local_search.queens import Board, attacking_pairs
from lib.local_search.randomness import Uniforms
from lib.local_search.textbook import Schedule
from lib.local_search.trace import Tracer

seeds = st.integers(0, 2**32 - 1)


def climb(seed, n=8, sideways=0):
    rand = Uniforms(seed)
    board = Board.random(n, rand)
    tracer = Tracer()
    tracer.start(board.rows, board.h)
    textbook.hill_climbing(board, rand, tracer, sideways)
    return board, tracer


@given(seeds, st.sampled_from([0, 5, 100]))
def test_every_hill_climbing_step_lowers_h_or_is_sideways_within_the_cap(seed, cap):
    board, tracer = climb(seed, sideways=cap)
    h = tracer.history
    run = 0
    for before, after, record in zip(h, h[1:], tracer.records[1:], strict=False):
        assert after <= before
        run = run + 1 if after == before else 0
        assert run <= cap
        assert record.note == ("sideways" if after == before else "uphill")
        assert attacking_pairs(record.state) == record.h
    # it stops on a solution or where no neighbour is better (no sideways move left)
    best, _ = textbook.best_neighbours(board)
    assert board.h == 0 or best > board.h or (best == board.h and run == cap)


@given(seeds)
def test_each_step_moves_one_queen_to_a_best_neighbour(seed):
    _, tracer = climb(seed, sideways=10)
    for before, after in zip(tracer.records, tracer.records[1:], strict=False):
        changed = [c for c in range(8) if before.state[c] != after.state[c]]
        assert changed == [after.move[0]]
        best, moves = textbook.best_neighbours(Board(before.state))
        assert after.h == best and after.move in moves


@given(seeds, st.sampled_from(["first-choice", "stochastic"]))
@settings(max_examples=40)
def test_first_choice_and_stochastic_only_climb(seed, name):
    rand = Uniforms(seed)
    board = Board.random(10, rand)
    tracer = Tracer()
    tracer.start(board.rows, board.h)
    if name == "first-choice":
        textbook.first_choice(board, rand, tracer, 50)
    else:
        textbook.stochastic_hill_climbing(board, rand, tracer)
        assert board.h == 0 or textbook.best_neighbours(board)[0] >= board.h
    assert all(b < a for a, b in zip(tracer.history, tracer.history[1:], strict=False))


@given(seeds)
@settings(max_examples=20)
def test_random_restart_ends_on_a_solution(seed):
    rand = Uniforms(seed)
    tracer = Tracer(keep_states=False)
    board = textbook.random_restart(8, rand, tracer)
    assert board.h == 0 == attacking_pairs(board.rows)
    assert tracer.history.count(tracer.history[0]) >= 1
    assert len(tracer.history) == tracer.steps + tracer.restarts + 1


@given(seeds)
@settings(max_examples=20)
def test_annealing_keeps_h_right_and_stops_at_the_schedule_end(seed):
    rand = Uniforms(seed)
    board = Board.random(8, rand)
    tracer = Tracer()
    schedule = Schedule("linear", t0=1.0, limit=300)
    textbook.simulated_annealing(board, rand, tracer, schedule)
    assert board.h == attacking_pairs(board.rows)
    assert board.h == 0 or tracer.steps == 299
    for record in tracer.records:
        assert record.h == attacking_pairs(record.state)


def test_schedules():
    exponential = Schedule("exponential", t0=2.0, rate=0.01, limit=100)
    assert exponential(0) == 2.0 and exponential(50) == pytest.approx(2.0 * 0.60653, 1e-4)
    assert exponential(100) == 0
    linear = Schedule("linear", t0=4.0, limit=100)
    assert linear(25) == 3.0 and linear(100) == 0
    with pytest.raises(InputError, match="cooling"):
        Schedule(rate=-1)
    with pytest.raises(InputError, match="one of"):
        Schedule("logarithmic")


@given(seeds)
@settings(max_examples=10, deadline=None)
def test_beam_and_genetic_report_the_best_state_truthfully(seed):
    for run in (
        lambda rand, tracer: textbook.local_beam_search(8, rand, tracer, k=5, max_steps=30),
        lambda rand, tracer: textbook.genetic_algorithm(8, rand, tracer, 20, 0.2, 30),
    ):
        tracer = Tracer()
        board = run(Uniforms(seed), tracer)
        assert board.h == attacking_pairs(board.rows) == tracer.history[-1]
        for record in tracer.records:
            assert record.h == attacking_pairs(record.state)


def test_genetic_algorithm_improves_on_its_first_population():
    first, last = [], []
    for seed in range(5):
        tracer = Tracer(keep_states=False)
        textbook.genetic_algorithm(8, Uniforms(seed), tracer, 50, 0.2, 200)
        first.append(tracer.history[0])
        last.append(tracer.history[-1])
    assert sum(last) <= sum(first) - 5 and min(last) == 0


@given(seeds, st.integers(8, 60))
@settings(max_examples=30, deadline=None)
def test_min_conflicts_moves_a_conflicted_queen_to_a_least_attacked_row(seed, n):
    rand = Uniforms(seed)
    board = textbook.greedy_start(n, rand)
    assert sorted(board.rows) == list(range(n))  # the greedy start never shares a row
    tracer = Tracer()
    tracer.start(board.rows, board.h)
    textbook.min_conflicts(board, rand, tracer, 500)
    for before, after in zip(tracer.records, tracer.records[1:], strict=False):
        column, row = after.move
        old = Board(before.state)
        assert old.attacks(column, old.rows[column]) > 0
        assert old.attacks(column, row) == min(old.attacks(column, r) for r in range(n))
        assert after.h == attacking_pairs(after.state)
    assert board.h == 0 or tracer.steps == 500


def test_min_conflicts_solves_a_hundred_queens():
    rand = Uniforms(5)
    board = textbook.greedy_start(100, rand)
    textbook.min_conflicts(board, rand, Tracer(keep_states=False), 5_000)
    assert attacking_pairs(board.rows) == 0
