"""The start proof: a move's proved outcome, check lines that keep it, the proof file (its
round trip, its refusals, the bundled file's integrity) and positions of the bundled proof
solved again."""

from __future__ import annotations

import contextlib
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games.connect_four import COLUMNS, solver, start, state_from_moves

OPENING = "ceaedbbbafec"
"""12 discs, Red to move: a wins, c and f draw, the other moves lose."""
SMALL_TABLE = 1_048_573
"""A prime under ``2**20``: room enough for positions this far on."""


def red_outcome(moves: str) -> int:
    """Red's outcome (1, 0, -1) in the position after ``moves``, by the compiled solver."""
    state = state_from_moves(moves)
    score = solver.score(state)
    return int(np.sign(score if state.to_move == 0 else -score))


def test_a_proved_move_has_the_sign_of_its_exact_score():
    scores = solver.move_scores(state_from_moves(OPENING))
    assert {int(np.sign(score)) for score in scores.values()} == {-1, 0, 1}
    for column, score in scores.items():
        proved, search = start.prove_first_move(column, SMALL_TABLE, OPENING)
        assert (proved.column, proved.outcome) == (column, int(np.sign(score)))
        assert proved.nodes == search.nodes > 0


@pytest.mark.parametrize("column", range(COLUMNS))
def test_a_check_line_keeps_the_proved_outcome_to_its_last_position(column):
    proved, search = start.prove_first_move(column, SMALL_TABLE, OPENING)
    first = OPENING + "abcdefg"[column]
    for seed in range(2):
        line = start.check_line(search, first, proved.outcome, np.random.default_rng(seed), 16)
        assert line.startswith(first) and len(line) == 16
        assert not state_from_moves(line).is_terminal()
        assert red_outcome(line) == proved.outcome  # Red made the proved move


def made_up_proof() -> start.StartProof:
    first_moves = {
        column: start.FirstMove(column, outcome, 1000 * (column + 1), 2.5, 1.5)
        for column, outcome in zip(range(4), (-1, -1, 0, 1), strict=True)
    }
    checks = (("dcdddfdcffda", 1), ("ageebdbfdabb", -1))
    return start.StartProof(first_moves, checks, "python -m scripts.prove_connect_four_start", 7)


def test_a_proof_round_trips_through_its_file(tmp_path):
    path = tmp_path / "start.json"
    path.write_bytes(start.start_bytes(made_up_proof()))
    loaded = start.load_start_proof(path)
    assert loaded == made_up_proof()
    assert [loaded.outcome(column) for column in range(COLUMNS)] == [-1, -1, 0, 1, 0, -1, -1]
    assert loaded.winning_columns() == [3]
    assert (loaded.total_nodes(), loaded.total_cpu_seconds()) == (10_000, 6.0)


def document() -> dict:
    return json.loads(start.start_bytes(made_up_proof()))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), "not a Connect Four start proof"),
        (lambda d: d["first_moves"].pop("b"), "first_moves: expected one record"),
        (lambda d: d["first_moves"]["c"].update(red="maybe"), "first_moves.c: 'maybe' is not"),
        (lambda d: d["first_moves"]["d"].update(nodes=-1), "first_moves.d: nodes"),
        (lambda d: d["checks"][1].update(moves="ageebdbfdab"), r"checks\[1\]: 11 moves"),
        (lambda d: d["checks"][0].update(moves="dcdddfdcffdz"), "'z' is not a column"),
        (lambda d: d["checks"][0].update(red="loss"), r"checks\[0\]: the outcome differs"),
        (lambda d: d.update(checks={}), "checks: expected a list"),
        (lambda d: d.update(table_size="big"), "table_size"),
    ],
)
def test_a_broken_proof_file_is_refused_naming_what_is_wrong(tmp_path, change, message):
    broken = document()
    change(broken)
    path = tmp_path / "start.json"
    path.write_text(json.dumps(broken))
    with pytest.raises(InputError, match=message):
        start.load_start_proof(path)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["format", "first_moves", "checks", "table_size", "command"]), json_values)
def test_any_value_in_any_field_is_read_or_refused_with_an_input_error(
    tmp_path_factory, key, value
):
    broken = document()
    broken[key] = value
    path = tmp_path_factory.mktemp("proof") / "start.json"
    path.write_text(json.dumps(broken))
    with contextlib.suppress(InputError):  # anything else is a failure
        start.load_start_proof(path)


@given(st.binary(max_size=200))
def test_bytes_that_are_not_a_proof_are_refused_with_an_input_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("proof") / "start.json"
    path.write_bytes(data)
    with pytest.raises(InputError):
        start.load_start_proof(path)


# -- the bundled proof ------------------------------------------------------------------


def test_the_bundled_proof_is_whole_and_says_only_the_centre_wins():
    proof = start.bundled_start_proof()
    assert proof is not None
    assert sorted(proof.first_moves) == list(start.PROVED_COLUMNS)
    assert proof.winning_columns() == [3]
    assert [proof.outcome(column) for column in range(COLUMNS)] == [-1, -1, 0, 1, 0, -1, -1]
    assert all(move.nodes > 0 and move.cpu_seconds > 0 for move in proof.first_moves.values())
    assert proof.command.startswith("python -m scripts.prove_connect_four_start")
    # every proved first move has its check lines
    assert {moves[0] for moves, _ in proof.checks} == set("abcd")


@pytest.mark.parametrize("index", [0, 3, 6])
def test_positions_of_the_bundled_proof_solve_again_to_its_outcomes(index):
    proof = start.bundled_start_proof()
    moves, outcome = proof.checks[index % len(proof.checks)]
    assert len(moves) == start.CHECK_DISCS
    assert red_outcome(moves) == outcome
