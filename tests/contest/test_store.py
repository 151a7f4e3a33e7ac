"""The contest database: its URL, its migrations, and an upgrade that keeps the data."""

from __future__ import annotations

import sqlalchemy as sa

from lib.contest.schema import metadata
from lib.contest.store import (
    DATA_DIR_ENV,
    URL_ENV,
    Store,
    current_revision,
    database_url,
    head_revision,
    make_engine,
    migrate,
)


def test_url_comes_from_the_environment_then_the_secret_then_the_data_folder(tmp_path) -> None:
    environ = {DATA_DIR_ENV: str(tmp_path)}
    assert database_url(None, environ) == f"sqlite:///{tmp_path / 'contest.sqlite3'}"
    assert database_url("postgresql://s/x", environ) == "postgresql://s/x"
    environ[URL_ENV] = "postgresql://e/y"
    assert database_url("postgresql://s/x", environ) == "postgresql://e/y"


def test_the_migrations_build_the_tables_the_code_uses(store: Store) -> None:
    assert current_revision(store.engine) == head_revision()
    inspector = sa.inspect(store.engine)
    assert set(inspector.get_table_names()) - {"alembic_version"} == set(metadata.tables)
    for table in metadata.tables.values():
        columns = {column["name"] for column in inspector.get_columns(table.name)}
        assert columns == set(table.columns.keys()), table.name


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    with store.read() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 1000
    store.dispose()


def test_an_upgrade_from_the_first_revision_keeps_the_data(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine, "0001")
    assert current_revision(engine) == "0001"
    with engine.begin() as connection:
        connection.exec_driver_sql(
            "INSERT INTO contests (code, title, game, options, seconds_per_move, max_depth, "
            "algorithms, games_per_entry, max_entries, seed, status, created_at) VALUES "
            "('ABCDEF', 'Old', 'othello', '{\"size\": 6}', 0.1, 3, 'alphabeta', 4, 10, 7, "
            "'open', 1.0)"
        )
        connection.exec_driver_sql(
            "INSERT INTO entries (contest_id, name, name_key, token_hash, house, created_at) "
            "VALUES (1, 'Ada', 'ada', 'h1', false, 2.0)"
        )
    engine.dispose()
    store = Store(database_url)  # opening upgrades to the newest revision
    assert current_revision(store.engine) == head_revision() != "0001"
    with store.read() as connection:
        contest = connection.execute(sa.text("SELECT * FROM contests")).one()
        entry = connection.execute(sa.text("SELECT * FROM entries")).one()
        assert connection.execute(sa.text("SELECT count(*) FROM actions")).scalar() == 0
    assert (contest.code, contest.title, contest.seed) == ("ABCDEF", "Old", 7)
    assert not contest.formulas_published
    assert (entry.name, entry.token_hash) == ("Ada", "h1")
    assert not entry.hidden and not entry.removed
    store.dispose()


def test_opening_twice_migrates_once(database_url: str) -> None:
    first, second = Store(database_url), Store(database_url)
    assert current_revision(second.engine) == head_revision()
    with second.read() as connection:
        assert connection.execute(sa.text("SELECT count(*) FROM alembic_version")).scalar() == 1
    first.dispose()
    second.dispose()
