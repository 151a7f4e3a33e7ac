"""Every game's compiled exact solver is found and made ready by one call."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from lib.games import compiled_code, connect_four
from lib.games.connect_four import compiled as connect_four_compiled
from lib.games.connect_four import view as connect_four_view
from lib.games.othello import endgame_search
from lib.games.othello import view as othello_view
from lib.games.search.fast import choose_move
from tests.games.othello.test_endgame import late_position

ROOT = Path(__file__).resolve().parents[2]


def test_the_solvers_with_compiled_code_are_othellos_and_connect_fours() -> None:
    assert sorted(compiled_code.solvers_with_compiled_code()) == [
        "lib.games.connect_four.hook",
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
    assert "lib.games.connect_four.hook: compiled code ready" in done.stdout


# -- while the server's warm-up compiles them elsewhere --------------------------------------


def test_a_search_does_not_wait_for_solvers_being_compiled_elsewhere_and_says_so():
    state = late_position(seed=2, empties=8)  # the solver settles it at once
    assert not compiled_code.compiling_elsewhere()
    with compiled_code.warming_up():
        assert compiled_code.compiling_elsewhere()
        during = choose_move(state, algorithm="alphabeta", time_limit=0.5)
    assert not compiled_code.compiling_elsewhere()
    after = choose_move(state, algorithm="alphabeta", time_limit=0.5)
    assert during.stats.solver_compiling and not during.stats.by_solver
    assert after.stats.by_solver and not after.stats.solver_compiling
    assert during.move in state.legal_moves()


def connect_four_position(seed: int, discs: int) -> connect_four.ConnectFourState:
    """A random unfinished Connect Four position of ``discs`` discs (playouts from ``seed``)."""
    rng = random.Random(seed)
    while True:
        state = connect_four.initial_state()
        for _ in range(discs):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            return state


def test_the_verdict_waits_for_no_compiler_and_is_not_kept_while_it_runs():
    state = connect_four_position(seed=5, discs=28)  # solved in milliseconds
    with compiled_code.warming_up():
        assert connect_four_view.verdict(state) == connect_four_view.COMPILING
        assert connect_four_view.move_insight(state) == {}
        assert othello_view.move_insight(late_position(seed=2, empties=8)) == {}
    solved = connect_four_view.verdict(state)
    assert solved != connect_four_view.COMPILING and "With perfect play from here" in solved
    assert othello_view.move_insight(late_position(seed=2, empties=8))  # every move settled
