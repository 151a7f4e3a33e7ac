"""The agent's own process, driven in this one: loading the file, the protocol, the replies."""

from __future__ import annotations

import io
import pickle
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.games.agent_runner import describe, move_json, serve
from lib.games.core import get_game

MOVES = st.one_of(
    st.integers(-(2**40), 2**40),
    st.lists(st.integers(0, 99), max_size=4).map(tuple),
    st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=3),
)
"""Moves as games make them: numbers, tuples of numbers, lists of pairs."""


def frames(*messages) -> io.BytesIO:
    """What the Arena writes: each message pickled behind its length, then a stop."""
    data = b""
    for message in messages:
        body = pickle.dumps(message)
        data += len(body).to_bytes(8, "big") + body
    return io.BytesIO(data + (0).to_bytes(8, "big"))


def run(tmp_path, source: str, *messages) -> list[dict]:
    path = tmp_path / "agent.py"
    path.write_text(source, encoding="utf-8")
    replies: list[dict] = []
    serve(str(path), "tictactoe", frames(*messages), replies.append)
    return replies


@settings(max_examples=100, deadline=None)
@given(move=MOVES)
def test_moves_become_json_that_equal_moves_share(move):
    as_json = move_json(move)
    assert move_json(as_json) == as_json  # lists and tuples of the same numbers agree
    assert move_json(pickle.loads(pickle.dumps(move))) == as_json


@pytest.mark.parametrize("bad", [True, "a1", 1.5, None, {"x": 1}, (1, "b")])
def test_anything_else_is_named_not_a_move(bad):
    with pytest.raises(TypeError, match="which is not a move"):
        move_json(bad)


def test_the_agent_answers_each_position_then_stops(tmp_path):
    source = "def choose_move(state, seconds_left):\n    return max(state.legal_moves())\n"
    state = get_game("tictactoe").initial_state()
    replies = run(tmp_path, source, (state, 1.0, time.time()), (state.play(8), 1.0, time.time()))
    assert replies == [{"ready": True}, {"move": 8}, {"move": 7}]


def test_seconds_left_is_the_clock_less_the_time_already_gone(tmp_path):
    source = "def choose_move(state, seconds_left):\n    return round(seconds_left * 1000)\n"
    state = get_game("tictactoe").initial_state()
    replies = run(tmp_path, source, (state, 2.0, time.time() - 0.5), (state, 1.0, time.time() - 5))
    assert 1000 <= replies[1]["move"] <= 1500 and replies[2] == {"move": 0}


def test_an_error_is_the_last_reply_and_names_the_agent_s_line(tmp_path):
    source = "def choose_move(state, seconds_left):\n\n    return {}['x']\n"
    state = get_game("tictactoe").initial_state()
    replies = run(tmp_path, source, (state, 1.0, time.time()), (state, 1.0, time.time()))
    assert replies == [{"ready": True}, {"error": "KeyError: 'x' (line 3)"}]


def test_loading_failures_are_named(tmp_path):
    assert run(tmp_path, "import sys\nsys.exit(2)\n") == [
        {"error": "could not load the file: called sys.exit(2)"}
    ]
    (reply,) = run(tmp_path, "x = (\n")
    assert reply["error"].startswith("could not load the file: SyntaxError at line 1")


def test_long_messages_are_cut():
    assert len(describe(ValueError("x" * 10_000), "agent.py")) == 500
