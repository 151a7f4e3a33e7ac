"""A new game is one folder dropped into lib.games: everything else finds it, extra turns included.

The fixture puts ``tests/games/plugin/`` (Nim with an extra turn: ``nim/__init__.py``
and ``nim/view.py``) on the package's search path, as if the folder had been added to
``lib/games/``; no shared file is edited. Then discovery, navigation, the session,
the game page, the searches (right when one side moves twice), MCTS, the
step-through, the Arena's command line, the ladder and weight evolution all work
with it. The generic tests (``test_contract.py``, ``test_reference.py``) run on it too.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from lib.games import core
from lib.games.arena.__main__ import main as arena_main
from lib.games.arena.evolve import EvolutionConfig, evolve
from lib.games.arena.ladder import LadderConfig, run_ladder
from lib.games.search.fast import choose_move
from lib.games.search.mcts import mcts_search
from lib.games.search.players import PlayerConfig
from lib.games.search.stepthrough import StepPosition, run_step_search
from lib.games.search.values import is_win_value
from lib.games.session import GameSession, decide
from tests.games.plugin import plugin_on_path


@pytest.fixture
def nim():
    with plugin_on_path():
        yield core.get_game("nim")


@functools.cache
def mover_wins(counters: int) -> bool:
    """Brute force: whether the player to move wins Nim-with-an-extra-turn from ``counters``."""
    for take in (1, 2, 3):
        if take > counters:
            continue
        left = counters - take
        if left == 0:
            return True
        if take == 2 and mover_wins(left):  # an extra turn: the same player moves on
            return True
        if take != 2 and not mover_wins(left):
            return True
    return False


def test_the_new_game_is_discovered_with_its_card(nim):
    from lib.ui.navigation import all_pages

    assert "nim" in core.available_games()
    assert list(core.available_games())[-1] == "nim"  # order=99: the last game
    page = next(p for p in all_pages() if p.file == "nim.py")
    assert (page.title, page.group, page.teaches) == ("Nim", "Games", nim.teaches)


def test_the_new_game_plays_through_the_session(nim):
    session = GameSession.new(nim, {"counters": 11}, seed=0)
    decision = decide(
        session.state, PlayerConfig(depth=12), nim, np.random.default_rng(0), default_time=5.0
    )
    assert not mover_wins(11 - decision.move) or decision.move == 2
    assert session.play(decision.move, decision, "AI", at_ply=0)


@pytest.mark.parametrize("counters", range(1, 12))
def test_the_searches_are_right_when_one_side_moves_twice(nim, counters):
    state = nim.initial_state(counters)
    for algorithm in ("minimax", "alphabeta"):
        result = choose_move(state, algorithm=algorithm, depth=counters + 1, time_limit=None)
        assert is_win_value(result.value)
        assert (result.value > 0) == mover_wins(counters), algorithm
        after = state.play(result.move)
        if mover_wins(counters) and not after.is_terminal():
            # a winning move: the mover moves again on a won pile, or hands over a lost one
            assert mover_wins(after.counters) == (after.to_move == state.to_move)


def test_mcts_finds_the_only_win_the_extra_turn_gives(nim):
    state = nim.initial_state(6).play(2)  # an extra turn: the first player again, 4 left
    assert state.to_move == 0
    # from 4, taking 1 or 3 hands over a won pile; taking 2 keeps the move with 2 left
    wins = [mover_wins(4 - t) if t == 2 else not mover_wins(4 - t) for t in (1, 2, 3)]
    assert wins == [False, True, False]
    for seed in range(5):
        result = mcts_search(state, simulations=400, rng=np.random.default_rng(seed))
        assert result.move == 2


def test_the_step_through_traces_the_new_game(nim):
    state = nim.initial_state(7)
    evaluate = nim.heuristics[nim.default_heuristic].bind()
    position = StepPosition("Nim, 7 counters", state, evaluate, nim.format_move)
    search = run_step_search(position, algorithm="alphabeta", depth=3)
    assert search.steps > 0 and search.depth >= 1


def test_the_arena_command_line_plays_the_new_game(nim, capsys):
    status = arena_main(
        ["--game", "nim", "--players", "alphabeta:depth=8", "random", "--games", "4", "--quiet"]
    )
    printed = capsys.readouterr().out
    assert status == 0
    assert "alphabeta" in printed and "random" in printed


def test_the_arena_ladder_ranks_the_new_games_players(nim, capsys):
    config = LadderConfig(
        game="nim", players=("random", "alphabeta:depth=8"), games_per_pair=4, time_per_move=0.05
    )
    result = run_ladder(config)
    assert len(result.records) == 4
    status = arena_main(
        [
            "--ladder",
            "--game",
            "nim",
            "--players",
            "random",
            "alphabeta:depth=8",
            "--games",
            "2",
            "--time",
            "0.05",
            "--quiet",
        ]
    )
    ranked = [line.split() for line in capsys.readouterr().out.splitlines()[1:] if line.strip()]
    assert status == 0
    assert [row[0] for row in ranked if "Random" in row] == ["2"]  # alpha-beta ranks first


def test_weight_evolution_runs_on_the_new_game(nim):
    config = EvolutionConfig(
        game="nim", population=4, leagues=2, generations=2, elite=1, worst=1, benchmark_games=2
    )
    result = evolve(config)
    assert len(result.generations) == 2
    assert result.weight_names == ("w",)


def test_the_shared_game_page_runs_the_new_game(nim, tmp_path):
    script = tmp_path / "nim.py"
    script.write_text(
        "from lib.games.core import get_game\n"
        "from lib.ui.game_page import run_game_page\n"
        'run_game_page(get_game("nim"), description="Take counters.")\n'
    )
    app = AppTest.from_file(str(script), default_timeout=60)
    app.session_state["nim_w_fallback"] = True  # the button board, drawn only when open
    app.run()
    assert not app.exception
    assert app.title[0].value == "Nim"
    assert app.selectbox(key="nim_w_opt_counters").value == 11
    app.button(key="nim_w_cell_0_8").click().run()  # take 3: leave 8
    session = app.session_state["nim_session"]
    assert session.moves[0] == 3
    assert not app.exception
