"""The contest database's schema migrations (Alembic): ``versions/`` holds one file per
revision; :func:`lib.contest.store.migrate` upgrades a database to the newest."""
