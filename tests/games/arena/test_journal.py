"""A study's journal: its finished games kept in a file, read back after a server restart."""

from __future__ import annotations

import json
import os
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lib.games.arena import MatchConfig, journal, run_tournament

MATCHES = (
    MatchConfig("tictactoe", ("alphabeta:depth=1", "random"), games=3, seed=4),
    MatchConfig("othello", ("greedy", "random"), games=2, options={"size": 6}),
)


def test_the_finished_games_read_back_as_they_were_played(tmp_path):
    study = journal.new_study_id()
    assert journal.valid_study_id(study)
    journal.start(tmp_path, study, MATCHES)
    played = run_tournament(MATCHES).records
    for record in played[:3]:  # the server stops after three games
        journal.append(tmp_path, study, record)
    kept = journal.read(tmp_path, study)
    assert kept.matches == MATCHES and kept.records == played[:3] and not kept.done
    assert not kept.restarted  # written by this process: the server has not restarted
    lines = journal.path(tmp_path, study).read_text().splitlines()
    first = json.loads(lines[0]) | {"server": "0" * 16}  # as another server process wrote it
    journal.path(tmp_path, study).write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    assert journal.read(tmp_path, study).restarted
    for record in played[3:]:
        journal.append(tmp_path, study, record)
    journal.finish(tmp_path, study)
    kept = journal.read(tmp_path, study)
    assert kept.records == played and kept.done


def test_a_line_cut_by_the_restart_is_left_out_and_the_rest_kept(tmp_path):
    study = journal.new_study_id()
    journal.start(tmp_path, study, MATCHES)
    first = run_tournament(MATCHES[:1]).records[0]
    journal.append(tmp_path, study, first)
    with open(journal.path(tmp_path, study), "a", encoding="utf-8") as file:
        file.write('{"record": {"match": 0, "lab')  # killed while writing
    assert journal.read(tmp_path, study).records == [first]


@pytest.mark.parametrize("study", ["", "../../etc/passwd", "ABCDEF0123456789", "0" * 15, "x" * 99])
def test_a_study_id_from_a_link_is_read_only_if_it_is_one_of_ours(tmp_path, study):
    assert not journal.valid_study_id(study)
    assert journal.read(tmp_path, study) is None


def test_an_unknown_study_is_none_and_old_journals_are_pruned(tmp_path):
    assert journal.read(tmp_path, journal.new_study_id()) is None
    old, new = journal.new_study_id(), journal.new_study_id()
    journal.start(tmp_path, old, MATCHES)
    two_days_ago = time.time() - 2 * 86_400
    os.utime(journal.path(tmp_path, old), (two_days_ago, two_days_ago))
    journal.start(tmp_path, new, MATCHES)  # starting a study prunes the old ones
    assert journal.read(tmp_path, old) is None and journal.read(tmp_path, new) is not None


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.one_of(st.text(max_size=80), st.binary(max_size=80).map(repr)), max_size=6))
def test_any_file_content_is_read_as_kept_games_or_none_never_an_error(tmp_path, lines):
    study = journal.new_study_id()
    journal.path(tmp_path, study).write_text(
        "\n".join([json.dumps({"matches": []}), *lines]), encoding="utf-8"
    )
    kept = journal.read(tmp_path, study)
    assert kept is None or all(r.match < len(kept.matches) for r in kept.records)
