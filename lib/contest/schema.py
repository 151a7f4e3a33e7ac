"""The contest database's tables (SQLAlchemy Core), as the newest migration leaves them.

Times are seconds since the epoch (floats: the same on SQLite and PostgreSQL). Every write
that a retry or a second server could repeat has a unique key, so the repeat fails on the
constraint instead of doubling a row: an entry's token hash, a version's request key, a
game's pair and index, a rating's snapshot, a poll's request key, one answer per voter.
The migrations (:mod:`lib.contest.migrations`) build exactly these tables; a test compares
them.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

contests = sa.Table(
    "contests",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(12), nullable=False, unique=True),
    sa.Column("title", sa.String(80), nullable=False),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("options", sa.String(200), nullable=False),
    sa.Column("seconds_per_move", sa.Float, nullable=False),
    sa.Column("max_depth", sa.Integer, nullable=False),
    sa.Column("algorithms", sa.String(100), nullable=False),
    sa.Column("games_per_entry", sa.Integer, nullable=False),
    sa.Column("max_entries", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("status", sa.String(10), nullable=False),
    sa.Column("closes_at", sa.Float, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("formulas_published", sa.Boolean, nullable=False, server_default=sa.false()),
)

entries = sa.Table(
    "entries",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("contest_id", sa.Integer, sa.ForeignKey("contests.id"), nullable=False),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("name_key", sa.String(160), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("house", sa.Boolean, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("removed", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.UniqueConstraint("contest_id", "name_key", name="uq_entries_contest_name"),
)

versions = sa.Table(
    "entry_versions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("entry_id", sa.Integer, sa.ForeignKey("entries.id"), nullable=False),
    sa.Column("contest_id", sa.Integer, sa.ForeignKey("contests.id"), nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(10), nullable=False),
    sa.Column("text", sa.String(600), nullable=False),
    sa.Column("algorithm", sa.String(20), nullable=False),
    sa.Column("spec", sa.String(1500), nullable=False),
    sa.Column("request_key", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.UniqueConstraint("entry_id", "number", name="uq_versions_entry_number"),
)

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("contest_id", sa.Integer, sa.ForeignKey("contests.id"), nullable=False),
    sa.Column("version_a", sa.Integer, sa.ForeignKey("entry_versions.id"), nullable=False),
    sa.Column("version_b", sa.Integer, sa.ForeignKey("entry_versions.id"), nullable=False),
    sa.Column("game_index", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("state", sa.String(10), nullable=False),
    sa.Column("claimed_by", sa.String(64), nullable=True),
    sa.Column("lease_until", sa.Float, nullable=True),
    sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    sa.Column("winner", sa.String(5), nullable=True),
    sa.Column("result_a", sa.Float, nullable=True),
    sa.Column("plies", sa.Integer, nullable=True),
    sa.Column("margin", sa.Float, nullable=True),
    sa.Column("moves", sa.Text, nullable=True),
    sa.Column("forfeit", sa.String(200), nullable=True),
    sa.Column("finished_at", sa.Float, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.UniqueConstraint(
        "contest_id", "version_a", "version_b", "game_index", name="uq_games_pair_index"
    ),
    sa.Index("ix_games_contest_state", "contest_id", "state"),
)

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("contest_id", sa.Integer, sa.ForeignKey("contests.id"), nullable=False),
    sa.Column("version_id", sa.Integer, sa.ForeignKey("entry_versions.id"), nullable=False),
    sa.Column("games_total", sa.Integer, nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("low", sa.Float, nullable=False),
    sa.Column("high", sa.Float, nullable=False),
    sa.Column("computed_at", sa.Float, nullable=False),
    sa.UniqueConstraint("contest_id", "version_id", "games_total", name="uq_ratings_snapshot"),
)

polls = sa.Table(
    "polls",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("contest_id", sa.Integer, sa.ForeignKey("contests.id"), nullable=False),
    sa.Column("kind", sa.String(30), nullable=False),
    sa.Column("question", sa.Text, nullable=False),
    sa.Column("choices", sa.Text, nullable=False),
    sa.Column("answer", sa.String(200), nullable=False),
    sa.Column("explanation", sa.Text, nullable=False),
    sa.Column("state", sa.String(10), nullable=False),
    sa.Column("request_key", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("revealed_at", sa.Float, nullable=True),
)

poll_answers = sa.Table(
    "poll_answers",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("poll_id", sa.Integer, sa.ForeignKey("polls.id"), nullable=False),
    sa.Column("voter_hash", sa.String(64), nullable=False),
    sa.Column("choice", sa.String(200), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.UniqueConstraint("poll_id", "voter_hash", name="uq_poll_answers_voter"),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("contest_id", sa.Integer, nullable=True),
    sa.Column("actor", sa.String(64), nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_actions_actor", "actor", "kind", "at"),
    sa.Index("ix_actions_contest", "contest_id", "kind", "at"),
)
