"""Contests, entries and their versions: joining, submitting, who may do what."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from lib.contest import contests as C
from lib.contest.identity import new_token
from lib.contest.schema import entries, games, versions
from lib.contest.store import Store
from lib.contest.tables import export_tables, own_entry, public_versions
from lib.errors import InputError
from tests.contest.conftest import TICTACTOE, fill_class


def _count(store: Store, table: sa.Table) -> int:
    with store.read() as connection:
        return connection.scalar(sa.select(sa.func.count()).select_from(table))


def test_a_class_joins_submits_and_is_scheduled(store: Store) -> None:
    fill_class(store, size=5)
    assert _count(store, entries) == 5 and _count(store, versions) == 5
    with store.read() as connection:
        rows = connection.execute(sa.select(games)).all()
    per_version: dict[int, int] = {}
    pairs: dict[tuple[int, int], list[int]] = {}
    for row in rows:
        assert row.version_a < row.version_b and row.state == "pending"
        pairs.setdefault((row.version_a, row.version_b), []).append(row.game_index)
        for version in (row.version_a, row.version_b):
            per_version[version] = per_version.get(version, 0) + 1
    # every pair plays both colours once; every version has its games
    assert all(sorted(indexes) == [0, 1] for indexes in pairs.values())
    assert len(per_version) == 5
    assert min(per_version.values()) >= TICTACTOE.games_per_entry


def test_a_retried_join_or_submission_changes_nothing(store: Store) -> None:
    contest, tokens = fill_class(store, size=2)
    again = C.join(store, contest.code, "Student 0", tokens[0], actor="session-0")
    number = C.submit(
        store, contest.code, tokens[0], C.Submission(formula="lines"), "first-submit-0", "s0"
    )
    assert number == 1 and _count(store, entries) == 2 and _count(store, versions) == 2
    with store.read() as connection:
        assert again == connection.scalar(sa.select(sa.func.min(entries.c.id)))


def test_a_resubmission_is_a_new_version_keeping_the_old_games(store: Store) -> None:
    contest, tokens = fill_class(store, size=3)
    with store.write() as connection:  # one game of version 1 was played
        connection.execute(
            games.update()
            .where(games.c.id == 1)
            .values(state="done", winner="A", result_a=1.0, plies=5, moves="e5")
        )
    number = C.submit(
        store, contest.code, tokens[0], C.Submission(formula="corners + 3*lines"), "second-0", "s0"
    )
    assert number == 2
    name, own_versions, own_games = own_entry(store, contest.code, tokens[0])
    assert name == "Student 0"
    assert list(own_versions.version) == [1, 2]
    assert list(own_versions.text) == ["lines", "corners + 3*lines"]
    with store.read() as connection:
        kept = connection.execute(sa.select(games).where(games.c.id == 1)).one()
    assert kept.state == "done"  # the played game of version 1 stays
    assert set(own_games.version) == {1, 2}
    assert "win" in set(own_games.result) or "loss" in set(own_games.result)


def test_names_that_look_alike_are_one_name(store: Store) -> None:
    contest = C.open_contest(store, TICTACTOE)
    C.join(store, contest.code, "Ada Lovelace", new_token(), "s1")
    for twin in ("ada lovelace", "ＡＤＡ  Lovelace", "Аda Lovelace", "ada-lovelace"):
        with pytest.raises(InputError, match="taken"):
            C.join(store, contest.code, twin, new_token(), "s2")
    assert _count(store, entries) == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"token": "stale-token-from-yesterday"}, "not .*valid"),
        ({"code": "QQQQQQ"}, "No contest has that join code"),
        ({"code": "0000"}, "join code"),
        ({"submission": C.Submission(formula="__import__('os')")}, "not allowed|unknown|name"),
        ({"submission": C.Submission(formula="lines ** 2")}, r"\*\*"),
        ({"submission": C.Submission(formula="x" * 600)}, "at most"),
        ({"submission": C.Submission(formula="lines", depth=9)}, "Depth"),
        ({"submission": C.Submission(formula="lines", algorithm="minimax")}, "allows"),
        ({"submission": C.Submission(heuristic="nope", weights=(1,))}, "heuristic"),
    ],
)
def test_hostile_submissions_get_a_message_and_change_nothing(
    store: Store, change: dict, message: str
) -> None:
    contest, tokens = fill_class(store, size=2)
    before = (_count(store, versions), _count(store, games))
    lines = C.Submission(formula="lines")
    arguments = {"code": contest.code, "token": tokens[0], "submission": lines}
    arguments.update(change)
    with pytest.raises(InputError, match=message):
        C.submit(store, request_key="hostile-key-1", actor="s9", **arguments)
    assert (_count(store, versions), _count(store, games)) == before


def test_a_closed_contest_refuses_joins_and_submissions(store: Store) -> None:
    contest, tokens = fill_class(store, size=2)
    C.set_status(store, contest.code, "closed")
    with pytest.raises(InputError, match="closed"):
        C.join(store, contest.code, "Late", new_token(), "s5")
    with pytest.raises(InputError, match="closed"):
        C.submit(store, contest.code, tokens[0], C.Submission(formula="centre"), "late-key", "s")
    assert _count(store, entries) == 2
    assert C.set_status(store, contest.code, "open").is_open
    C.join(store, contest.code, "Late", new_token(), "s5")


def test_the_entry_cap_and_the_rate_limits_hold(store: Store) -> None:
    small = C.ContestSettings(game="tictactoe", options={}, max_entries=2, max_depth=2)
    contest = C.open_contest(store, small)
    C.join(store, contest.code, "One", new_token(), "a")
    C.join(store, contest.code, "Two", new_token(), "b")
    with pytest.raises(InputError, match="full"):
        C.join(store, contest.code, "Three", new_token(), "c")
    contest, tokens = fill_class(store, size=1)
    per_session = C.RATE_LIMITS["submit"][0]
    for i in range(per_session - 1):  # the first submission counted already
        C.submit(
            store, contest.code, tokens[0], C.Submission(formula="centre"), f"k-{i:06}", "session-0"
        )
    with pytest.raises(InputError, match="Too many"):
        C.submit(
            store, contest.code, tokens[0], C.Submission(formula="centre"), "k-last-1", "session-0"
        )


def test_instructor_actions_need_the_key_on_a_hosted_server() -> None:
    C.check_instructor(None, None, hosted=False)  # a local install needs none
    with pytest.raises(InputError, match="instructor's key is set"):
        C.check_instructor("anything", None, hosted=True)
    with pytest.raises(InputError, match="not the instructor's key"):
        C.check_instructor("wrong", "sesame-123", hosted=True)
    with pytest.raises(InputError):
        C.check_instructor(None, "sesame-123", hosted=False)
    C.check_instructor("sesame-123", "sesame-123", hosted=True)


def test_moderation_and_publishing(store: Store) -> None:
    contest, tokens = fill_class(store, size=3)
    with store.read() as connection:
        first, second, third = connection.scalars(sa.select(entries.c.id).order_by(entries.c.id))
    C.moderate(store, contest.code, first, "rename", "Kind name")
    with pytest.raises(InputError, match="Another entry"):
        C.moderate(store, contest.code, second, "rename", "KIND NAME")
    C.moderate(store, contest.code, second, "hide")
    C.moderate(store, contest.code, third, "remove")
    with pytest.raises(InputError, match=r"not .*valid"):
        own_entry(store, contest.code, tokens[2])
    with store.read() as connection:
        removed = connection.scalar(sa.select(versions.c.id).where(versions.c.entry_id == third))
        pending = connection.execute(
            sa.select(games.c.version_a, games.c.version_b).where(games.c.state == "pending")
        ).all()
    assert pending and all(removed not in row for row in pending)  # the removed entry plays no more
    with pytest.raises(InputError, match="Close the contest"):
        C.publish_formulas(store, contest.code)
    assert public_versions(store, C.get_contest(store, contest.code)).empty
    C.set_status(store, contest.code, "closed")
    C.publish_formulas(store, contest.code)
    shown = public_versions(store, C.get_contest(store, contest.code))
    assert dict(zip(shown.name, shown.text, strict=True)) == {
        "Kind name": "lines",
        "Student 1": "lines + centre",
    }
    tables = export_tables(store, contest.code, with_text=False)
    assert set(tables) == {"entries", "versions", "games", "ratings"}
    assert "text" not in tables["versions"] and len(tables["entries"]) == 3


def test_house_entries_join_once(store: Store) -> None:
    contest, _ = fill_class(store, size=2)
    assert C.add_house_entries(store, contest.code) == list(C.HOUSE_PLAYERS)
    assert C.add_house_entries(store, contest.code) == []
    with store.read() as connection:
        specs = connection.scalars(sa.select(versions.c.spec).where(versions.c.kind == "house"))
        assert sorted(specs) == sorted(
            ["random", "greedy", "alphabeta:depth=2,heuristic=lines,time=0.05"]
        )
