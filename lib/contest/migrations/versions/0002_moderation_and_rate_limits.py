"""Moderation and rate limits: hidden and removed entries, published formulas, an action log.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the moderation flags (false for every existing row) and the ``actions`` table."""
    # plain ADD COLUMN (SQLite too): no table is rebuilt, so no row moves
    false = sa.false()
    op.add_column("entries", sa.Column("hidden", sa.Boolean, nullable=False, server_default=false))
    op.add_column("entries", sa.Column("removed", sa.Boolean, nullable=False, server_default=false))
    op.add_column(
        "contests",
        sa.Column("formulas_published", sa.Boolean, nullable=False, server_default=false),
    )
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("contest_id", sa.Integer, nullable=True),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_actions_actor", "actions", ["actor", "kind", "at"])
    op.create_index("ix_actions_contest", "actions", ["contest_id", "kind", "at"])


def downgrade() -> None:
    """Drop the action log and the moderation flags."""
    op.drop_index("ix_actions_contest", "actions")
    op.drop_index("ix_actions_actor", "actions")
    op.drop_table("actions")
    with op.batch_alter_table("contests") as batch:
        batch.drop_column("formulas_published")
    with op.batch_alter_table("entries") as batch:
        batch.drop_column("removed")
        batch.drop_column("hidden")
