"""Class polls: the instructor asks a page's own prediction question, the class answers.

A poll is a question with a few choices, the algorithm's answer and the explanation the
single-student version shows (the route page's "which node comes off the frontier next",
the step-through's "what is the root's value" and "which move does minimax choose"; the
kinds are :data:`POLL_KINDS`). The instructor opens it in a contest (one
poll is live at a time: opening one closes the last); students answer with the join code
from their own devices, one answer per browser (answering again changes it, while the
poll is open); the projector shows the counts filling, then :func:`reveal` shows the
answer. Polls and answers are kept with the contest. Opening is idempotent by a request
key, and answers are rate-limited per browser and per contest.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa

from lib.contest import identity
from lib.contest.contests import MAX_KEY, _contest_by_code, rate_limit
from lib.contest.schema import poll_answers, polls
from lib.contest.store import Store
from lib.errors import InputError

POLL_KINDS = {
    "route_next": "Route page: which place is expanded next",
    "root_value": "Step-through, a tree: what is the root worth",
    "root_move": "Step-through, a game position: which move does minimax choose",
}
"""The questions a poll can ask (its ``kind``) and what each is, by the page asking it."""

MAX_CHOICES = 12
"""The most choices a poll may offer."""

MAX_CHOICE = 200
"""The longest choice (characters)."""

MAX_QUESTION = 2000
"""The longest question or explanation (characters)."""


@dataclass(frozen=True)
class Poll:
    """One poll as stored."""

    id: int
    contest_id: int
    kind: str
    question: str
    choices: tuple[str, ...]
    answer: str
    explanation: str
    state: str  # "open", "revealed" or "closed"

    @classmethod
    def from_row(cls, row: sa.Row) -> Poll:
        """A :class:`Poll` from a ``polls`` row."""
        return cls(
            id=row.id,
            contest_id=row.contest_id,
            kind=row.kind,
            question=row.question,
            choices=tuple(json.loads(row.choices)),
            answer=row.answer,
            explanation=row.explanation,
            state=row.state,
        )


def open_poll(
    store: Store,
    code: str,
    *,
    kind: str,
    question: str,
    choices: Sequence[str],
    answer: str,
    explanation: str,
    request_key: str,
) -> Poll:
    """Open a poll in contest ``code`` (closing the live one); the same ``request_key``
    again returns the same poll. The caller has checked the instructor."""
    choices = tuple(dict.fromkeys(str(c)[:MAX_CHOICE] for c in choices))
    if not 2 <= len(choices) <= MAX_CHOICES:
        raise InputError(f"A poll needs 2 to {MAX_CHOICES} different choices.")
    if str(answer)[:MAX_CHOICE] not in choices:
        raise InputError("The poll's answer must be one of its choices.")
    if not isinstance(request_key, str) or not 8 <= len(request_key) <= MAX_KEY:
        raise InputError("A poll needs a request key of 8 to 64 characters.")
    if kind not in POLL_KINDS:
        raise InputError(f"A poll asks one of {', '.join(POLL_KINDS)}, not {str(kind)[:30]!r}.")

    def work(connection: sa.Connection) -> Poll:
        contest = _contest_by_code(connection, code, lock=True)
        again = connection.execute(
            sa.select(polls).where(polls.c.request_key == request_key)
        ).first()
        if again is not None:
            return Poll.from_row(again)
        connection.execute(
            polls.update()
            .where(polls.c.contest_id == contest.id, polls.c.state != "closed")
            .values(state="closed")
        )
        result = connection.execute(
            polls.insert().values(
                contest_id=contest.id,
                kind=kind,
                question=str(question)[:MAX_QUESTION],
                choices=json.dumps(list(choices)),
                answer=str(answer)[:MAX_CHOICE],
                explanation=str(explanation)[:MAX_QUESTION],
                state="open",
                request_key=request_key,
                created_at=time.time(),
            )
        )
        row = connection.execute(
            sa.select(polls).where(polls.c.id == result.inserted_primary_key[0])
        ).one()
        return Poll.from_row(row)

    return store.transact(work)


def live_poll(store: Store, code: str) -> Poll | None:
    """The contest's live poll (open or revealed), or None."""
    with store.read() as connection:
        contest = _contest_by_code(connection, code)
        row = connection.execute(
            sa.select(polls)
            .where(polls.c.contest_id == contest.id, polls.c.state != "closed")
            .order_by(polls.c.id.desc())
        ).first()
    return None if row is None else Poll.from_row(row)


def contest_polls(store: Store, contest_id: int) -> list[Poll]:
    """Every poll of the contest, oldest first."""
    with store.read() as connection:
        rows = connection.execute(
            sa.select(polls).where(polls.c.contest_id == contest_id).order_by(polls.c.id)
        ).all()
    return [Poll.from_row(row) for row in rows]


def answer_poll(
    store: Store, code: str, poll_id: int, voter: str, choice: object, actor: str
) -> None:
    """Record ``voter``'s (a browser's secret) ``choice`` in poll ``poll_id`` of ``code``.

    Raises :class:`InputError` for a bad code, a poll that is not open, a choice that is
    not one of the poll's, or too many answers.
    """
    if not isinstance(voter, str) or not voter:
        raise InputError("This browser has no voter key; reload the page.")
    voter_hash = identity.token_hash(voter)
    now = time.time()

    def work(connection: sa.Connection) -> None:
        contest = _contest_by_code(connection, code)
        row = connection.execute(
            sa.select(polls).where(polls.c.id == poll_id, polls.c.contest_id == contest.id)
        ).first()
        if row is None or row.state != "open":
            raise InputError("This poll is not open for answers any more.")
        poll = Poll.from_row(row)
        if not isinstance(choice, str) or choice not in poll.choices:
            raise InputError("Choose one of the poll's answers.")
        rate_limit(connection, "answer", actor, contest.id, now)
        changed = connection.execute(
            poll_answers.update()
            .where(poll_answers.c.poll_id == poll_id, poll_answers.c.voter_hash == voter_hash)
            .values(choice=choice, created_at=now)
        )
        if changed.rowcount == 0:
            connection.execute(
                poll_answers.insert().values(
                    poll_id=poll_id, voter_hash=voter_hash, choice=choice, created_at=now
                )
            )

    store.transact(work)


def set_poll_state(store: Store, code: str, poll_id: int, state: str) -> None:
    """Reveal (``"revealed"``), close (``"closed"``) or reopen (``"open"``) a poll."""
    if state not in ("open", "revealed", "closed"):
        raise InputError(f"A poll is open, revealed or closed, not {state!r}.")

    def work(connection: sa.Connection) -> None:
        contest = _contest_by_code(connection, code, lock=True)
        connection.execute(
            polls.update()
            .where(polls.c.id == poll_id, polls.c.contest_id == contest.id)
            .values(state=state, revealed_at=time.time() if state == "revealed" else None)
        )

    store.transact(work)


def reveal(store: Store, code: str, poll_id: int) -> None:
    """Show the poll's answer and explanation (answers are closed)."""
    set_poll_state(store, code, poll_id, "revealed")


def poll_counts(store: Store, poll: Poll) -> dict[str, int]:
    """How many answered each choice of ``poll`` (every choice present, in its order)."""
    with store.read() as connection:
        rows = connection.execute(
            sa.select(poll_answers.c.choice, sa.func.count())
            .where(poll_answers.c.poll_id == poll.id)
            .group_by(poll_answers.c.choice)
        ).all()
    counted = dict(rows)
    return {choice: int(counted.get(choice, 0)) for choice in poll.choices}
