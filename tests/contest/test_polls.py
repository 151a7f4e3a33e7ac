"""Class polls: one live poll, one answer per browser, counts, the reveal."""

from __future__ import annotations

import pytest

from lib.contest import polls as P
from lib.contest.contests import open_contest
from lib.contest.store import Store
from lib.errors import InputError
from lib.games import core
from lib.games.search.predict import explain_move_choice, move_question, root_move_values
from lib.games.search.reference import minimax_search
from lib.games.search.stepthrough import example_state
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


def test_a_poll_of_the_move_minimax_chooses_is_kept_with_the_contest(database_url) -> None:
    """The step-through's "which move does minimax choose" on a tic-tac-toe position: the
    root's moves, minimax's move (the textbook minimax's), and it outlives the store."""
    game = core.get_game("tictactoe")
    state = example_state(game, ("b2", "a1"))
    evaluate = game.heuristics[game.default_heuristic].bind()
    values = root_move_values(state, 3, evaluate)
    _, best_move = minimax_search(state, 3, evaluate)  # the oracle: the textbook search
    store = Store(database_url)
    code = open_contest(store, TICTACTOE).code
    poll = P.open_poll(
        store, code, kind="root_move", question=move_question(3),
        choices=[game.format_move(m) for m in values], answer=game.format_move(best_move),
        explanation=explain_move_choice(values, game.format_move, 3), request_key="move-poll-1",
    )  # fmt: skip
    P.answer_poll(store, code, poll.id, "voter-1", game.format_move(best_move), "s1")
    store.dispose()
    again = Store(database_url)  # a restarted server
    (kept,) = P.contest_polls(again, poll.contest_id)
    assert kept.kind == "root_move" and len(kept.choices) == len(state.legal_moves()) == 7
    assert kept.answer == game.format_move(best_move)
    assert kept.explanation.startswith(f"Minimax chooses {kept.answer}:")
    assert P.poll_counts(again, kept)[kept.answer] == 1
    again.dispose()


def test_a_poll_asks_only_a_known_question(store: Store) -> None:
    code = open_contest(store, TICTACTOE).code
    with pytest.raises(InputError, match="route_next, root_value, root_move"):
        P.open_poll(
            store, code, kind="<b>x</b>", question="?", choices=["a", "b"], answer="a",
            explanation="", request_key="poll-key-9",
        )  # fmt: skip
    assert P.live_poll(store, code) is None
