"""The contest's data as tables: an entry's own versions and games, and the CSV exports.

Formulas (an entry's text) are shown to its author (:func:`own_entry`), to the instructor
(:func:`export_tables` with ``with_text``), and to the class only once the instructor
publishes them after the contest closes (:func:`public_versions`).
"""

from __future__ import annotations

from urllib.parse import urlencode

import pandas as pd
import sqlalchemy as sa

from lib.contest.contests import Contest, _contest_by_code, _entry_by_token
from lib.contest.schema import entries, games, ratings, versions
from lib.contest.store import Store


def _frame(connection: sa.Connection, query: sa.Select) -> pd.DataFrame:
    """The rows of ``query`` as a DataFrame with its column names."""
    result = connection.execute(query)
    return pd.DataFrame(result.all(), columns=list(result.keys()))


def _games_query(contest_id: int) -> sa.Select:
    """The contest's games with both sides' entry names and version numbers."""
    va, vb = versions.alias("va"), versions.alias("vb")
    ea, eb = entries.alias("ea"), entries.alias("eb")
    return (
        sa.select(
            games.c.id.label("game"),
            ea.c.name.label("a"),
            va.c.number.label("a_version"),
            eb.c.name.label("b"),
            vb.c.number.label("b_version"),
            games.c.game_index,
            games.c.state,
            games.c.winner,
            games.c.result_a,
            games.c.plies,
            games.c.margin,
            games.c.forfeit,
            games.c.moves,
            games.c.seed,
            va.c.entry_id.label("a_entry"),
            vb.c.entry_id.label("b_entry"),
        )
        .join(va, va.c.id == games.c.version_a)
        .join(vb, vb.c.id == games.c.version_b)
        .join(ea, ea.c.id == va.c.entry_id)
        .join(eb, eb.c.id == vb.c.entry_id)
        .where(games.c.contest_id == contest_id)
        .order_by(games.c.id)
    )


def replay_link(game: str, options: dict, moves: str | None) -> str:
    """The game page's link replaying a recorded game (its options, its moves, no AI moves).

    >>> replay_link("othello", {"size": 6}, "d3 c5")
    'othello?size=6&moves=d3%2Cc5&replay=yes'
    """
    if not isinstance(moves, str) or not moves:  # a game not played yet (None or NaN)
        return ""
    params = {name: str(value) for name, value in sorted(options.items())}
    params.update(moves=",".join(moves.split()), replay="yes")
    return f"{game}?{urlencode(params)}"


def own_entry(store: Store, code: str, token: str) -> tuple[str, pd.DataFrame, pd.DataFrame]:
    """``(name, versions, games)`` of the entry ``token`` owns in contest ``code``.

    The games are seen from the entry's side (``colour``: first or second to move, the
    opponent's name, ``result``: win/draw/loss). Raises :class:`InputError` for a bad
    code or a stale token.
    """
    with store.read() as connection:
        contest = _contest_by_code(connection, code)
        entry = _entry_by_token(connection, contest, token)
        own_versions = _frame(
            connection,
            sa.select(
                versions.c.number.label("version"),
                versions.c.kind,
                versions.c.algorithm,
                versions.c.text,
                versions.c.created_at,
            )
            .where(versions.c.entry_id == entry.id)
            .order_by(versions.c.number),
        )
        played = _frame(connection, _games_query(contest.id))
    mine = played[(played.a_entry == entry.id) | (played.b_entry == entry.id)]
    rows = []
    for game in mine.itertuples(index=False):
        as_a = game.a_entry == entry.id
        score = None if game.result_a is None or pd.isna(game.result_a) else game.result_a
        if score is not None and not as_a:
            score = 1 - score
        rows.append(
            {
                "game": game.game,
                "version": game.a_version if as_a else game.b_version,
                "opponent": game.b if as_a else game.a,
                "moves_first": (game.game_index % 2 == 0) == as_a,
                "state": game.state,
                "result": {1.0: "win", 0.5: "draw", 0.0: "loss"}.get(score, ""),
                "plies": game.plies,
                "moves": game.moves,
                "replay": replay_link(contest.game, contest.options, game.moves),
            }
        )
    return entry.name, own_versions, pd.DataFrame(rows)


def public_versions(store: Store, contest: Contest) -> pd.DataFrame:
    """Every entry's newest text, once the instructor has published them (else empty)."""
    if not contest.formulas_published:
        return pd.DataFrame(columns=["name", "version", "algorithm", "text"])
    with store.read() as connection:
        table = _frame(
            connection,
            sa.select(
                entries.c.name, versions.c.number.label("version"), versions.c.algorithm,
                versions.c.text,
            )
            .join(entries, entries.c.id == versions.c.entry_id)
            .where(versions.c.contest_id == contest.id, entries.c.removed.is_(False))
            .order_by(entries.c.name, versions.c.number),
        )  # fmt: skip
    return table.groupby("name", as_index=False).last()


def export_tables(store: Store, code: str, with_text: bool = True) -> dict[str, pd.DataFrame]:
    """The contest's ``entries``, ``versions``, ``games`` and ``ratings`` tables for CSV.

    ``with_text`` False leaves the entries' formulas out of ``versions``.
    """
    with store.read() as connection:
        contest = _contest_by_code(connection, code)
        tables = {
            "entries": _frame(
                connection,
                sa.select(
                    entries.c.id.label("entry"), entries.c.name, entries.c.house,
                    entries.c.hidden, entries.c.removed, entries.c.created_at,
                )
                .where(entries.c.contest_id == contest.id)
                .order_by(entries.c.id),
            ),
            "versions": _frame(
                connection,
                sa.select(
                    versions.c.entry_id.label("entry"), versions.c.number.label("version"),
                    versions.c.kind, versions.c.algorithm, versions.c.text, versions.c.spec,
                    versions.c.created_at,
                )
                .where(versions.c.contest_id == contest.id)
                .order_by(versions.c.entry_id, versions.c.number),
            ),
            "games": _frame(connection, _games_query(contest.id)),
            "ratings": _frame(
                connection,
                sa.select(
                    versions.c.entry_id.label("entry"), versions.c.number.label("version"),
                    ratings.c.games_total, ratings.c.rating, ratings.c.low, ratings.c.high,
                    ratings.c.computed_at,
                )
                .join(versions, versions.c.id == ratings.c.version_id)
                .where(ratings.c.contest_id == contest.id)
                .order_by(ratings.c.games_total, versions.c.entry_id),
            ),
        }  # fmt: skip
    if not with_text:
        tables["versions"] = tables["versions"].drop(columns=["text", "spec"])
    return tables
