"""The first schema: contests, entries, entry versions, games, ratings, polls, poll answers.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the seven tables."""
    _contests_entries_versions()
    _games_and_ratings()
    _polls()


def _contests_entries_versions() -> None:
    """The contests, their entries and the entries' versions."""
    op.create_table(
        "contests",
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
    )
    op.create_table(
        "entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("contest_id", sa.Integer, sa.ForeignKey("contests.id"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(160), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("house", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("contest_id", "name_key", name="uq_entries_contest_name"),
    )
    op.create_table(
        "entry_versions",
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


def _games_and_ratings() -> None:
    """The games and the rating snapshots."""
    op.create_table(
        "games",
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
    )
    op.create_index("ix_games_contest_state", "games", ["contest_id", "state"])
    op.create_table(
        "ratings",
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


def _polls() -> None:
    """The polls and their answers."""
    op.create_table(
        "polls",
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
    op.create_table(
        "poll_answers",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("poll_id", sa.Integer, sa.ForeignKey("polls.id"), nullable=False),
        sa.Column("voter_hash", sa.String(64), nullable=False),
        sa.Column("choice", sa.String(200), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("poll_id", "voter_hash", name="uq_poll_answers_voter"),
    )


def downgrade() -> None:
    """Drop the seven tables."""
    for table in (
        "poll_answers",
        "polls",
        "ratings",
        "games",
        "entry_versions",
        "entries",
        "contests",
    ):
        op.drop_table(table)
