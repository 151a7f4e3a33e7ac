"""Environment variables: one prefix, the new name wins, old names read with a warning."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from lib.errors import InputError
from lib.settings import LOCAL, PREFIX, RENAMED, local_mode, lookup, setting, whole_number

NEW, OLD = "AI_SEARCH_LAB_JOB_WORKERS", "AISEARCH_JOB_WORKERS"
WORKERS = whole_number(1)


def test_every_renamed_variable_takes_the_prefix_and_the_workers_one_is_there():
    assert RENAMED[NEW] == OLD
    for new, old in RENAMED.items():
        assert new.startswith(PREFIX) and not old.startswith(PREFIX)


def test_the_new_name_wins_without_a_warning(recwarn, caplog):
    assert setting(NEW, WORKERS, 2, environ={NEW: " 4 ", OLD: "7"}) == 4
    assert not recwarn.list and not caplog.records


def test_the_old_name_still_works_and_warns(caplog):
    deprecated = f"{OLD} is deprecated: set {NEW} instead"
    with caplog.at_level(logging.WARNING), pytest.warns(DeprecationWarning, match=deprecated):
        assert setting(NEW, WORKERS, 2, environ={OLD: "7"}) == 7
    assert [r.getMessage() for r in caplog.records] == [
        f"The environment variable {OLD} is deprecated: set {NEW} instead."
    ]
    with pytest.warns(DeprecationWarning):  # a blank new name does not hide the old one
        assert lookup(NEW, {NEW: "  ", OLD: "5"}) == (OLD, "5")


def test_neither_name_gives_the_default(recwarn):
    assert setting(NEW, WORKERS, 2, environ={}) == 2
    assert setting(NEW, WORKERS, 2, environ={NEW: "", OLD: " "}) == 2
    assert lookup("AI_SEARCH_LAB_LOCAL", {}) is None
    assert not recwarn.list


def test_a_bad_value_names_the_variable_read():
    expected = "a whole number of at least 1"
    with pytest.raises(InputError, match=rf"^{NEW} must be {expected}, got 'two'\.$"):
        setting(NEW, WORKERS, 2, expected=expected, environ={NEW: "two"})
    with pytest.warns(DeprecationWarning), pytest.raises(InputError, match=rf"^{OLD} must be"):
        setting(NEW, WORKERS, 2, environ={OLD: "0"})


def test_the_job_pool_reads_its_old_names_too():
    from lib.jobs import default_workers, memory_cap_mb

    with pytest.warns(DeprecationWarning, match=OLD):
        assert default_workers({OLD: "3"}) == 3
    with pytest.warns(DeprecationWarning, match="AISEARCH_JOB_MEMORY_MB"):
        assert memory_cap_mb({"AISEARCH_JOB_MEMORY_MB": "off"}) is None


def test_local_mode_is_on_only_for_1():
    assert local_mode({LOCAL: "1"}) and local_mode({LOCAL: " 1 "})
    for text in ("", "0", "yes", "true", "11"):
        assert not local_mode({LOCAL: text})
    assert not local_mode({})


def test_the_data_folder_is_the_variable_s_else_the_user_s_data_folder(tmp_path):
    from lib.settings import DATA_DIR, data_folder

    assert data_folder({DATA_DIR: f" {tmp_path} "}) == tmp_path
    assert data_folder({"XDG_DATA_HOME": str(tmp_path)}) == tmp_path / "ai-search-lab"
    assert data_folder({}) == Path.home() / ".local" / "share" / "ai-search-lab"
