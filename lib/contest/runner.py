"""Playing a contest: claim pending games, play them (here, in a process pool or the
server's job pool), record the results, store the ratings.

:class:`ContestWorker` is one server's player. Each :meth:`~ContestWorker.step` schedules
what is missing (:func:`lib.contest.schedule.schedule_games`), claims a batch under a
lease, plays each game with the Arena's :func:`lib.games.arena.match.play_game` (through
``submit``, e.g. a :class:`concurrent.futures.Executor`'s or :class:`JobPoolSubmitter`),
and records each result only if it still holds the claim. A server killed mid-batch
leaves claimed games whose lease runs out; any worker then plays them again, and
nothing it had recorded is lost or counted twice.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from lib.contest.schedule import (
    LEASE_SECONDS,
    Claim,
    all_played,
    claim_games,
    record_result,
    refine_games,
    release_failed,
    schedule_games,
)
from lib.contest.schema import contests
from lib.contest.standings import ranked_versions, snapshot_ratings
from lib.contest.store import Store
from lib.games.arena.match import GameRecord, MatchConfig, play_game

log = logging.getLogger(__name__)

Submit = Callable[..., Any]
"""``submit(function, *args)`` returning a future-like object with ``result()``."""


def play_claim(claim: Claim) -> GameRecord:
    """Play the game ``claim`` holds (module level: it pickles to a worker process)."""
    match = MatchConfig(
        game=claim.game,
        players=(claim.spec_a, claim.spec_b),
        games=2,
        seed=claim.seed,
        options=claim.options,
    )
    return play_game(match, claim.game_index)


class _Done:
    """A finished future-like value (for playing in this thread)."""

    def __init__(self, function: Callable[..., Any], *args: Any) -> None:
        try:
            self._value, self._error = function(*args), None
        except Exception as error:
            self._value, self._error = None, error

    def result(self) -> Any:
        if self._error is not None:
            raise self._error
        return self._value


class JobPoolSubmitter:
    """``submit`` through a :class:`lib.jobs.JobPool` (the server's shared workers and caps)."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool

    def __call__(self, function: Callable[..., Any], *args: Any) -> Any:
        return _JobFuture(self.pool.submit(function, args))


class _JobFuture:
    """A pool job seen as a future (waiting on it also keeps it from being abandoned)."""

    def __init__(self, job: Any) -> None:
        self.job = job

    def result(self) -> Any:
        while not self.job.finished:
            self.job.wait(0.25)
        return self.job.result()


class ContestWorker:
    """One server's contest player (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        *,
        worker_id: str | None = None,
        submit: Submit | None = None,
        batch: int = 4,
        lease: float = LEASE_SECONDS,
        contest_id: int | None = None,
        refine: bool = True,
    ) -> None:
        self.store = store
        self.refine = refine
        self.worker_id = worker_id or f"worker-{uuid.uuid4().hex[:12]}"
        self.submit = submit or _Done
        self.batch, self.lease, self.contest_id = batch, lease, contest_id

    def schedule(self) -> int:
        """Top up every contest's schedule (or this worker's contest's), then refine the
        ones with nothing left to play; returns the games added."""

        def work(connection: sa.Connection) -> int:
            query = sa.select(contests.c.id, contests.c.seed, contests.c.games_per_entry)
            if self.contest_id is not None:
                query = query.where(contests.c.id == self.contest_id)
            added = 0
            # locked in id order, so two servers scheduling at once never deadlock
            for row in connection.execute(query.order_by(contests.c.id).with_for_update()).all():
                now = time.time()
                added += schedule_games(connection, row.id, row.seed, row.games_per_entry, now)
                if self.refine and all_played(connection, row.id):  # rate only when idle
                    ranking = ranked_versions(connection, row.id)
                    added += refine_games(
                        connection, row.id, row.seed, row.games_per_entry, ranking, now
                    )
            return added

        return self.store.transact(work)

    def step(self) -> int:
        """Claim, play and record one batch; returns the number of results recorded."""
        claims = claim_games(
            self.store, self.worker_id, self.batch, contest_id=self.contest_id, lease=self.lease
        )
        futures: list[tuple[Claim, Any]] = [(c, self.submit(play_claim, c)) for c in claims]
        recorded, touched = 0, set()
        for claim, future in futures:
            try:
                record = future.result()
            except Exception:
                release_failed(self.store, claim, self.worker_id)
                continue
            if record_result(self.store, claim, self.worker_id, record):
                recorded += 1
                touched.add(claim.contest_id)
        for contest_id in touched:
            snapshot_ratings(self.store, contest_id)
        return recorded

    def run(self, stop: threading.Event, idle: float = 1.0) -> None:
        """Step until ``stop`` is set, resting ``idle`` seconds when there is nothing to play."""
        while not stop.is_set():
            try:
                self.schedule()
                if self.step() == 0:
                    stop.wait(idle)
            except Exception:  # the database away for a moment, a bad row: log, go on
                log.exception("The contest player's step failed; trying again.")
                stop.wait(idle)
