"""Running the algorithms by name, and the command line."""

from __future__ import annotations

import pytest

from lib.errors import InputError
from lib.local_search.__main__ import main
from lib.local_search.queens import attacking_pairs
from lib.local_search.solve import ALGORITHMS, Settings, solve
from lib.local_search.textbook import Schedule


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_every_algorithm_reports_a_true_h_and_history(name):
    outcome = solve(8, name, seed=4)
    assert outcome.h == attacking_pairs(outcome.state) == outcome.history[-1]
    for record in outcome.records:
        assert record.h == attacking_pairs(record.state)
        assert outcome.history[record.index] == record.h
    again = solve(8, name, seed=4)
    assert again.state == outcome.state and again.history == outcome.history


@pytest.mark.parametrize("name", ["sideways", "random-restart", "annealing", "min-conflicts"])
def test_the_strong_algorithms_solve_8_queens(name):
    settings = Settings(schedule=Schedule(t0=1.0, rate=0.001, limit=20_000))
    assert solve(8, name, seed=2, settings=settings).solved


def test_the_compiled_and_textbook_min_conflicts_agree_through_solve():
    slow = solve(150, "min-conflicts", seed=9, compiled=False)
    quick = solve(150, "min-conflicts", seed=9, compiled=True)
    assert slow.state == quick.state and slow.history == quick.history


def test_large_boards_take_only_min_conflicts():
    with pytest.raises(InputError, match="min-conflicts"):
        solve(1_000, "steepest")
    assert solve(20_000, "min-conflicts", seed=1).solved


@pytest.mark.parametrize(
    "bad", [dict(max_sideways=-1), dict(p_mutation=2.0), dict(max_steps=0), dict(beam_width=0)]
)
def test_bad_settings_are_named(bad):
    name = next(iter(bad))
    with pytest.raises(InputError, match=name):
        Settings(**bad)


def test_unknown_algorithm():
    with pytest.raises(InputError, match="Unknown algorithm"):
        solve(8, "tabu")


def test_command_line_ends_with_the_summary_line(capsys):
    assert main(["queens", "--n", "5000", "--algorithm", "min-conflicts", "--seed", "1"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    fields = dict(part.split("=") for part in last.split())
    assert set(fields) == {"conflicts", "steps", "seconds"}
    assert fields["conflicts"] == "0" and int(fields["steps"]) > 0 and float(fields["seconds"]) >= 0


@pytest.mark.parametrize("n", ["0", "1000000000"])
def test_command_line_refuses_bad_n_with_status_2(n, capsys):
    assert main(["queens", "--n", n]) == 2
    error = capsys.readouterr().err
    assert f"{int(n):,}" in error and "1,000,000" in error


def test_a_run_past_its_time_limit_stops_with_a_true_state():
    settings = Settings(schedule=Schedule(t0=50.0, rate=0.0, limit=10_000_000))
    outcome = solve(60, "annealing", seed=1, settings=settings, time_limit=0.2)
    assert outcome.stopped == "time limit" and 0 < outcome.steps < 10_000_000
    assert outcome.h == attacking_pairs(outcome.state) == outcome.history[-1]
    assert len(outcome.history) == outcome.steps + 1


def test_the_compiled_path_stops_at_its_time_limit_between_chunks():
    outcome = solve(300_000, "min-conflicts", seed=2, time_limit=0.0)
    assert outcome.stopped == "time limit"
    assert len(outcome.history) == outcome.steps + 1 and outcome.steps <= 256
