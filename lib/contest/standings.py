"""The leaderboard: Bradley–Terry ratings (the ladder's model) of the contest's versions.

Every recorded game between two entries that are not removed is a result between two
*versions*; :func:`lib.games.arena.rating.fit_ratings` (the Arena ladder's model: Elo
scale, Gaussian prior, mean 0, 95 % intervals) rates all versions together, so an old
version's games still inform its opponents' ratings. An entry's row shows its newest
version: rating with its interval, wins, draws and losses, games played.
:func:`snapshot_ratings` keeps each fit in the ``ratings`` table (unique per version and
number of games, so two servers storing the same fit store it once): an entry's rating
history.
"""

from __future__ import annotations

import time

import pandas as pd
import sqlalchemy as sa

from lib.contest.schedule import current_versions, insert_ignoring_duplicates
from lib.contest.schema import entries, games, ratings, versions
from lib.contest.store import Store
from lib.games.arena.rating import PRIOR_SD, fit_ratings

LEADERBOARD_COLUMNS = [
    "rank",
    "entry",
    "name",
    "version",
    "rating",
    "low",
    "high",
    "plus_minus",
    "wins",
    "draws",
    "losses",
    "games",
    "house",
    "hidden",
]
"""The leaderboard's columns (``entry`` is the entry's id; ``plus_minus`` half the interval)."""


def _results(connection: sa.Connection, contest_id: int) -> pd.DataFrame:
    """The contest's recorded games between entries that are not removed."""
    a_entry, b_entry = entries.alias("ea"), entries.alias("eb")
    a_version, b_version = versions.alias("va"), versions.alias("vb")
    rows = connection.execute(
        sa.select(games.c.id, games.c.version_a, games.c.version_b, games.c.result_a)
        .join(a_version, a_version.c.id == games.c.version_a)
        .join(b_version, b_version.c.id == games.c.version_b)
        .join(a_entry, a_entry.c.id == a_version.c.entry_id)
        .join(b_entry, b_entry.c.id == b_version.c.entry_id)
        .where(
            games.c.contest_id == contest_id,
            games.c.state == "done",
            a_entry.c.removed.is_(False),
            b_entry.c.removed.is_(False),
        )
        .order_by(games.c.id)
    ).all()
    return pd.DataFrame(rows, columns=["id", "version_a", "version_b", "result_a"])


def fit(connection: sa.Connection, contest_id: int) -> tuple[pd.DataFrame, dict[int, tuple]]:
    """``(results, ratings)``: the recorded games, and each version's (rating, low, high)."""
    results = _results(connection, contest_id)
    current = [version for version, _ in current_versions(connection, contest_id)]
    players = sorted(set(current) | set(results.version_a) | set(results.version_b))
    if not players:
        return results, {}
    fitted = fit_ratings(
        [str(p) for p in players],
        [(str(a), str(b), float(s)) for a, b, s in results[["version_a", "version_b", "result_a"]]
         .itertuples(index=False)],
        prior_sd=PRIOR_SD,
    )  # fmt: skip
    return results, {
        int(name): (fitted.elo[i], fitted.low[i], fitted.high[i])
        for i, name in enumerate(fitted.players)
    }


def ranked_versions(connection: sa.Connection, contest_id: int) -> list[int]:
    """The current versions, best rated first (unrated ones last)."""
    _, rated = fit(connection, contest_id)
    current = [version for version, _ in current_versions(connection, contest_id)]
    return sorted(current, key=lambda v: -rated.get(v, (float("-inf"),))[0])


def leaderboard(store: Store, contest_id: int, include_hidden: bool = False) -> pd.DataFrame:
    """The contest's leaderboard, best first (entries without games last, unrated)."""
    with store.read() as connection:
        results, rated = fit(connection, contest_id)
        current = dict(current_versions(connection, contest_id))
        info = {
            row.id: row
            for row in connection.execute(
                sa.select(entries).where(entries.c.contest_id == contest_id)
            ).all()
        }
        numbers = dict(
            connection.execute(
                sa.select(versions.c.id, versions.c.number).where(
                    versions.c.contest_id == contest_id
                )
            ).all()
        )
    rows = []
    for version, entry_id in current.items():
        entry = info[entry_id]
        if entry.hidden and not include_hidden:
            continue
        as_a = results[results.version_a == version].result_a
        as_b = 1 - results[results.version_b == version].result_a
        scores = pd.concat([as_a, as_b])
        played = len(scores)
        rating, low, high = rated.get(version, (float("nan"),) * 3)
        if not played:
            rating = low = high = float("nan")
        rows.append(
            {
                "entry": entry_id,
                "name": entry.name,
                "version": numbers[version],
                "rating": rating,
                "low": low,
                "high": high,
                "plus_minus": (high - low) / 2,
                "wins": int((scores == 1).sum()),
                "draws": int((scores == 0.5).sum()),
                "losses": int((scores == 0).sum()),
                "games": played,
                "house": bool(entry.house),
                "hidden": bool(entry.hidden),
            }
        )
    table = pd.DataFrame(rows, columns=LEADERBOARD_COLUMNS[1:])
    table = table.sort_values(["rating", "entry"], ascending=[False, True], na_position="last")
    table.insert(0, "rank", range(1, len(table) + 1))
    return table.reset_index(drop=True)


def snapshot_ratings(store: Store, contest_id: int) -> int:
    """Store the current fit in ``ratings`` (once per number of games); returns that number."""

    def work(connection: sa.Connection) -> int:
        results, rated = fit(connection, contest_id)
        total = len(results)
        now = time.time()
        insert_ignoring_duplicates(
            connection,
            ratings,
            [
                {
                    "contest_id": contest_id,
                    "version_id": version,
                    "games_total": total,
                    "rating": rating,
                    "low": low,
                    "high": high,
                    "computed_at": now,
                }
                for version, (rating, low, high) in rated.items()
            ],
        )
        return total

    return store.transact(work)
