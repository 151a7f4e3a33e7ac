"""Every game's compiled exact solver is found and made ready by one call."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from lib.games import compiled_code
from lib.games.connect_four import compiled as connect_four_compiled
from lib.games.othello import endgame_search

ROOT = Path(__file__).resolve().parents[2]


def test_the_solvers_with_compiled_code_are_othellos_and_connect_fours() -> None:
    assert sorted(compiled_code.solvers_with_compiled_code()) == [
        "lib.games.connect_four.solver",
        "lib.games.othello.endgame",
    ]


def test_loading_leaves_each_compiled_search_with_machine_code() -> None:
    took = compiled_code.load_all()
    assert set(took) == set(compiled_code.solvers_with_compiled_code())
    assert connect_four_compiled.negamax.signatures
    assert endgame_search.deep.signatures


def test_the_module_runs_as_a_command_and_names_each_solver() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "lib.games.compiled_code"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "lib.games.othello.endgame: compiled code ready" in done.stdout
    assert "lib.games.connect_four.solver: compiled code ready" in done.stdout
