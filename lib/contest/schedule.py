"""The contest's games: scheduled as rows, claimed under a lease, recorded once.

A new or changed entry needs :attr:`~lib.contest.contests.Contest.games_per_entry` games:
:func:`schedule_games` pairs each current version that has fewer with opponents it has
not met, spread over the field (sorted by their latest rating, evenly spaced; ties broken
by the contest's seed), two games a pair so each side plays each colour once. Each game is
a row in state ``pending``, unique by ``(contest, version_a, version_b, game_index)``:
scheduling twice (a retry, two servers) inserts nothing new.

Once every scheduled game is played, :func:`refine_games` pairs each entry with its nearest
neighbour below on the leaderboard that it has not met (up to :data:`REFINE_GAMES` games
each), round after round, so a server with time to spare settles the order where it is
closest first, and comes ever nearer to a full round robin.

A server plays a game by claiming it: :func:`claim_games` moves rows from ``pending``
(or ``claimed`` with an expired lease: a server that died) to ``claimed`` with an
``UPDATE ... WHERE state = 'pending'`` per row that counts its rows, so two servers
never hold one game; :func:`record_result` writes the result only if this server still
holds the claim (``WHERE state = 'claimed' AND claimed_by = me``), so a result is
recorded once. A game that fails :data:`MAX_ATTEMPTS` times is set ``failed``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from lib.contest.schema import contests, entries, games, ratings, versions
from lib.contest.store import Store

LEASE_SECONDS = 180.0
"""How long a claim holds a game before another server may take it over."""

MAX_ATTEMPTS = 3
"""A game whose claims failed this many times is set ``failed`` and no longer played."""

REFINE_GAMES = 120
"""Refinement stops for a version once it has played this many games: a class of up to 61
entries plays its full round robin; the largest (200) at most 12,000 games."""

LIVE_STATES = ("pending", "claimed", "done")
"""Game states that count towards an entry's scheduled games (not cancelled or failed)."""


def insert_ignoring_duplicates(
    connection: sa.Connection, table: sa.Table, rows: Sequence[dict[str, Any]]
) -> None:
    """Insert ``rows`` into ``table``, skipping any that hit a unique constraint."""
    if not rows:
        return
    dialect = {"sqlite": sqlite, "postgresql": postgresql}.get(connection.dialect.name)
    if dialect is not None:
        connection.execute(dialect.insert(table).on_conflict_do_nothing(), list(rows))
        return
    for row in rows:  # another database: one savepoint a row
        try:
            with connection.begin_nested():
                connection.execute(table.insert().values(**row))
        except sa.exc.IntegrityError:
            pass


def current_versions(connection: sa.Connection, contest_id: int) -> list[tuple[int, int]]:
    """``(version id, entry id)`` of each entry's newest version (removed entries left out)."""
    newest = (
        sa.select(sa.func.max(versions.c.id).label("id"))
        .join(entries, entries.c.id == versions.c.entry_id)
        .where(versions.c.contest_id == contest_id, entries.c.removed.is_(False))
        .group_by(versions.c.entry_id)
        .subquery()
    )
    rows = connection.execute(
        sa.select(versions.c.id, versions.c.entry_id)
        .where(versions.c.id.in_(sa.select(newest.c.id)))
        .order_by(versions.c.id)
    ).all()
    return [(row.id, row.entry_id) for row in rows]


def _latest_ratings(connection: sa.Connection, contest_id: int) -> dict[int, float]:
    """The newest stored rating of each version of the contest."""
    newest = (
        sa.select(ratings.c.version_id, sa.func.max(ratings.c.games_total).label("total"))
        .where(ratings.c.contest_id == contest_id)
        .group_by(ratings.c.version_id)
        .subquery()
    )
    rows = connection.execute(
        sa.select(ratings.c.version_id, ratings.c.rating).join(
            newest,
            sa.and_(
                ratings.c.version_id == newest.c.version_id,
                ratings.c.games_total == newest.c.total,
            ),
        )
    ).all()
    return {row.version_id: row.rating for row in rows}


def spread(candidates: Sequence[int], count: int) -> list[int]:
    """``count`` of ``candidates`` (in their order) at evenly spaced positions.

    >>> spread([10, 20, 30, 40, 50], 3)
    [10, 30, 50]
    """
    if count >= len(candidates):
        return list(candidates)
    if count == 1:
        return [candidates[len(candidates) // 2]]
    step = (len(candidates) - 1) / (count - 1)
    return [candidates[round(i * step)] for i in range(count)]


def game_seed(contest_seed: int, a: int, b: int) -> int:
    """The seed of the games between versions ``a`` and ``b`` of a contest."""
    sequence = np.random.SeedSequence(int(contest_seed), spawn_key=(int(a), int(b)))
    return int(sequence.generate_state(1)[0] % 2**31)


def live_games(
    connection: sa.Connection, contest_id: int, current: Sequence[int]
) -> tuple[dict[int, int], set[frozenset[int]]]:
    """``(counts, met)``: each version's live games, and the pairs that have met."""
    live = connection.execute(
        sa.select(games.c.version_a, games.c.version_b).where(
            games.c.contest_id == contest_id, games.c.state.in_(LIVE_STATES)
        )
    ).all()
    counts = dict.fromkeys(current, 0)
    met: set[frozenset[int]] = set()
    for a, b in live:
        counts[a] = counts.get(a, 0) + 1
        counts[b] = counts.get(b, 0) + 1
        met.add(frozenset((a, b)))
    return counts, met


def pair_rows(contest_id: int, seed: int, one: int, other: int, now: float) -> list[dict]:
    """The two pending games of a pair (each side plays each colour once), as rows."""
    a, b = min(one, other), max(one, other)
    return [
        {
            "contest_id": contest_id,
            "version_a": a,
            "version_b": b,
            "game_index": index,
            "seed": game_seed(seed, a, b),
            "state": "pending",
            "attempts": 0,
            "created_at": now,
        }
        for index in (0, 1)
    ]


def schedule_games(
    connection: sa.Connection, contest_id: int, seed: int, per_entry: int, now: float
) -> int:
    """Schedule games until each current version has ``per_entry`` (or has met everyone).

    Returns the number of games added. Runs inside the caller's transaction.
    """
    current = [version for version, _ in current_versions(connection, contest_id)]
    counts, met = live_games(connection, contest_id, current)
    rating = _latest_ratings(connection, contest_id)
    rows: list[dict[str, Any]] = []
    for version in sorted(current, key=lambda v: (counts[v], v)):
        need = (per_entry - counts[version] + 1) // 2
        if need <= 0:
            continue
        unmet = [w for w in current if w != version and frozenset((version, w)) not in met]
        rng = np.random.default_rng(np.random.SeedSequence(int(seed), spawn_key=(version,)))
        unmet = [unmet[i] for i in rng.permutation(len(unmet))]
        short = [w for w in unmet if counts[w] < per_entry]
        pool = short if len(short) >= need else unmet
        pool.sort(key=lambda w: -rating.get(w, 0.0))
        for opponent in spread(pool, need):
            rows.extend(pair_rows(contest_id, seed, version, opponent, now))
            met.add(frozenset((version, opponent)))
            counts[version] += 2
            counts[opponent] += 2
    insert_ignoring_duplicates(connection, games, rows)
    return len(rows)


def all_played(connection: sa.Connection, contest_id: int) -> bool:
    """Whether the contest has no game waiting (pending) or being played (claimed)."""
    waiting = connection.scalar(
        sa.select(sa.func.count())
        .select_from(games)
        .where(games.c.contest_id == contest_id, games.c.state.in_(("pending", "claimed")))
    )
    return not waiting


def refine_games(
    connection: sa.Connection,
    contest_id: int,
    seed: int,
    per_entry: int,
    ranking: Sequence[int],
    now: float,
) -> int:
    """When every scheduled game is played: pair each version of ``ranking`` (best first)
    with the nearest below it that it has not met and that is not paired yet, so the order
    is settled where it is closest; each version plays at most :data:`REFINE_GAMES` games
    (``per_entry`` more where a contest asks for more). Returns the number of games added
    (none once all have met)."""
    if not all_played(connection, contest_id):
        return 0
    counts, met = live_games(connection, contest_id, ranking)
    free = [v for v in ranking if counts[v] < max(REFINE_GAMES, per_entry)]
    rows: list[dict[str, Any]] = []
    paired: set[int] = set()
    for position, version in enumerate(free):
        if version in paired:
            continue
        for other in free[position + 1 :]:  # the nearest below, not yet met
            if other not in paired and frozenset((version, other)) not in met:
                rows.extend(pair_rows(contest_id, seed, version, other, now))
                paired.update((version, other))
                break
    insert_ignoring_duplicates(connection, games, rows)
    return len(rows)


def cancel_pending(connection: sa.Connection, contest_id: int, version_ids: Sequence[int]) -> None:
    """Drop the unplayed (pending) games of ``version_ids`` (played ones are kept)."""
    if not version_ids:
        return
    connection.execute(
        games.update()
        .where(
            games.c.contest_id == contest_id,
            games.c.state == "pending",
            sa.or_(games.c.version_a.in_(version_ids), games.c.version_b.in_(version_ids)),
        )
        .values(state="cancelled")
    )


@dataclass(frozen=True)
class Claim:
    """A game this server holds: what to play (picklable, for a worker process)."""

    game_id: int
    contest_id: int
    game: str
    options: tuple
    spec_a: str
    spec_b: str
    game_index: int
    seed: int


def _claimable(now: float) -> sa.ColumnElement[bool]:
    """A game no one holds: pending, or claimed under an expired lease."""
    return sa.or_(
        games.c.state == "pending",
        sa.and_(games.c.state == "claimed", games.c.lease_until < now),
    )


def claim_games(
    store: Store,
    worker: str,
    limit: int,
    *,
    contest_id: int | None = None,
    lease: float = LEASE_SECONDS,
    now: float | None = None,
) -> list[Claim]:
    """Claim up to ``limit`` games for ``worker`` (a server's id), oldest first."""
    now = time.time() if now is None else now

    def work(connection: sa.Connection) -> list[Claim]:
        query = sa.select(games.c.id).where(_claimable(now)).order_by(games.c.id).limit(limit)
        if contest_id is not None:
            query = query.where(games.c.contest_id == contest_id)
        if connection.dialect.name == "postgresql":
            query = query.with_for_update(skip_locked=True)
        taken = []
        for game_id in connection.scalars(query).all():
            result = connection.execute(
                games.update()
                .where(games.c.id == game_id, _claimable(now))
                .values(
                    state="claimed",
                    claimed_by=worker,
                    lease_until=now + lease,
                    attempts=games.c.attempts + 1,
                )
            )
            if result.rowcount == 1:
                taken.append(game_id)
        return claims_of(connection, taken)

    return store.transact(work)


def claims_of(connection: sa.Connection, game_ids: Sequence[int]) -> list[Claim]:
    """The :class:`Claim` of each of ``game_ids`` (what a player needs to play them)."""
    if not game_ids:
        return []
    a, b = versions.alias("a"), versions.alias("b")
    rows = connection.execute(
        sa.select(games, a.c.spec.label("spec_a"), b.c.spec.label("spec_b"), contests.c.game,
                  contests.c.options.label("contest_options"))
        .join(a, a.c.id == games.c.version_a)
        .join(b, b.c.id == games.c.version_b)
        .join(contests, contests.c.id == games.c.contest_id)
        .where(games.c.id.in_(game_ids))
        .order_by(games.c.id)
    ).all()  # fmt: skip
    return [
        Claim(
            game_id=row.id,
            contest_id=row.contest_id,
            game=row.game,
            options=tuple(sorted(json.loads(row.contest_options).items())),
            spec_a=row.spec_a,
            spec_b=row.spec_b,
            game_index=row.game_index,
            seed=int(row.seed),
        )
        for row in rows
    ]


def record_result(store: Store, claim: Claim, worker: str, record: Any) -> bool:
    """Record ``record`` (a :class:`~lib.games.arena.match.GameRecord`) for ``claim``.

    Returns False (and changes nothing) when ``worker`` no longer holds the game.
    """

    def work(connection: sa.Connection) -> bool:
        result = connection.execute(
            games.update()
            .where(
                games.c.id == claim.game_id,
                games.c.state == "claimed",
                games.c.claimed_by == worker,
            )
            .values(
                state="done",
                winner=record.winner,
                result_a=float(record.result_a),
                plies=int(record.plies),
                margin=float(record.margin),
                moves=record.moves,
                forfeit=(record.forfeit or None) and record.forfeit[:200],
                finished_at=time.time(),
                lease_until=None,
            )
        )
        return result.rowcount == 1

    return store.transact(work)


def release_failed(store: Store, claim: Claim, worker: str) -> None:
    """Give a game whose play failed back (``pending``), or set it ``failed`` after
    :data:`MAX_ATTEMPTS` claims."""

    def work(connection: sa.Connection) -> None:
        held = sa.and_(
            games.c.id == claim.game_id, games.c.state == "claimed", games.c.claimed_by == worker
        )
        connection.execute(
            games.update()
            .where(held)
            .values(
                state=sa.case((games.c.attempts >= MAX_ATTEMPTS, "failed"), else_="pending"),
                claimed_by=None,
                lease_until=None,
            )
        )

    store.transact(work)


def game_counts(store: Store, contest_id: int) -> dict[str, int]:
    """How many of the contest's games are in each state."""
    with store.read() as connection:
        rows = connection.execute(
            sa.select(games.c.state, sa.func.count())
            .where(games.c.contest_id == contest_id)
            .group_by(games.c.state)
        ).all()
    return {state: int(count) for state, count in rows}
