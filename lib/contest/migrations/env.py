"""Alembic's environment: runs the migrations on the connection the store hands it.

:func:`lib.contest.store.migrate` puts an open connection in ``config.attributes``; the
``alembic`` command line (with ``-x url=...``) gets an engine of its own.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from lib.contest.schema import metadata


def run() -> None:
    """Run the migrations online, on the store's connection or a new engine's."""
    connection = context.config.attributes.get("connection")
    if connection is None:
        url = context.get_x_argument(as_dictionary=True).get("url")
        engine = sa.create_engine(url or context.config.get_main_option("sqlalchemy.url"))
        with engine.connect() as connection:
            _migrate(connection)
        return
    _migrate(connection)


def _migrate(connection: sa.Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # run by Alembic (not when merely imported)
    run()
