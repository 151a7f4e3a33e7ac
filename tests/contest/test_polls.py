"""Class polls: one live poll, one answer per browser, counts, the reveal."""

from __future__ import annotations

import pytest

from lib.contest import polls as P
from lib.contest.contests import open_contest
from lib.contest.store import Store
from lib.errors import InputError
from tests.contest.conftest import TICTACTOE


def _poll(store: Store, code: str, key: str = "poll-key-1") -> P.Poll:
    return P.open_poll(
        store,
        code,
        kind="route_next",
        question="Which node comes off the frontier next?",
        choices=["A", "B", "C"],
        answer="B",
        explanation="B has the smallest f = g + h.",
        request_key=key,
    )


def test_a_poll_counts_one_answer_per_browser_then_reveals(store: Store) -> None:
    code = open_contest(store, TICTACTOE).code
    poll = _poll(store, code)
    assert _poll(store, code).id == poll.id  # a retried open
    P.answer_poll(store, code, poll.id, "voter-1", "A", "s1")
    P.answer_poll(store, code, poll.id, "voter-1", "B", "s1")  # changed, not doubled
    P.answer_poll(store, code, poll.id, "voter-2", "B", "s2")
    P.answer_poll(store, code, poll.id, "voter-3", "C", "s3")
    assert P.poll_counts(store, poll) == {"A": 0, "B": 2, "C": 1}
    with pytest.raises(InputError, match="Choose one"):
        P.answer_poll(store, code, poll.id, "voter-4", "<script>", "s4")
    P.reveal(store, code, poll.id)
    assert P.live_poll(store, code).state == "revealed"
    with pytest.raises(InputError, match="not open"):
        P.answer_poll(store, code, poll.id, "voter-5", "A", "s5")
    assert P.poll_counts(store, poll) == {"A": 0, "B": 2, "C": 1}


def test_opening_a_poll_closes_the_last_one(store: Store) -> None:
    code = open_contest(store, TICTACTOE).code
    first = _poll(store, code, "poll-key-1")
    second = _poll(store, code, "poll-key-2")
    assert P.live_poll(store, code).id == second.id != first.id
    assert [p.state for p in P.contest_polls(store, second.contest_id)] == ["closed", "open"]
    with pytest.raises(InputError, match="one of its choices"):
        P.open_poll(
            store, code, kind="x", question="?", choices=["a", "b"], answer="c",
            explanation="", request_key="poll-key-3",
        )  # fmt: skip
