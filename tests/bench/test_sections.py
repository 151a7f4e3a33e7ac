"""A benchmark's command line: ``--help`` describes its sections instead of running one."""

from __future__ import annotations

import pytest

from bench import games
from bench.sections import run_sections


def test_help_lists_the_sections_and_runs_none(capsys):
    ran = []
    sections = {"fast": lambda: ran.append("fast"), "slow": lambda: ran.append("slow")}
    with pytest.raises(SystemExit) as stop:
        run_sections(sections, ["--help"], prog="python -m bench.example")
    assert stop.value.code == 0 and not ran
    shown = capsys.readouterr().out
    assert "usage: python -m bench.example" in shown and "fast" in shown and "slow" in shown


def test_the_games_benchmark_help_names_its_sections(capsys):
    with pytest.raises(SystemExit) as stop:
        games.main(["--help"])
    assert stop.value.code == 0
    shown = capsys.readouterr().out
    assert all(name in shown for name in games.SECTIONS)
    assert "Seconds per 6x6 game" in shown  # a section's own line


def test_an_unknown_section_is_named_with_the_choices(capsys):
    with pytest.raises(SystemExit) as stop:
        run_sections({"fast": lambda: None}, ["quick"])
    assert stop.value.code == 2
    assert "unknown section 'quick'; choose from fast" in capsys.readouterr().err


def test_named_sections_run_in_order():
    ran = []
    sections = {name: (lambda n=name: ran.append(n)) for name in ("a", "b", "c")}
    run_sections(sections, ["c", "a"])
    assert ran == ["c", "a"]
