"""Every game keeps the contract of :mod:`lib.games.core`, the plugin's test game included."""

from __future__ import annotations

import dataclasses
import doctest
import importlib
import pkgutil

import numpy as np
import pytest

from lib.errors import InputError
from lib.games import core
from lib.games.search.fast import choose_move
from tests.games.playouts import seeded_playouts

PLAYOUTS = 12


def random_games(spec: core.GameSpec, count: int, seed: int) -> list[list]:
    """``count`` seeded random games (lists of states) on each option value in turn."""
    playouts = seeded_playouts(spec, np.random.default_rng(seed), max_plies=299)
    return [next(playouts) for _ in range(count)]


def test_states_keep_the_state_contract(game):
    for states in random_games(game, PLAYOUTS, seed=1):
        for state in states:
            assert isinstance(state, core.GameState) and isinstance(state, game.state_type)
            assert core.game_of(state) is game
            assert state.to_move in core.PLAYERS
            hash(state.key)
            moves = state.legal_moves()
            assert (not moves) == state.is_terminal()
            if not state.is_terminal():
                assert state.winner() is None
            for move in moves:
                text = game.format_move(move)
                assert game.parse_move(text, state) == move
                before = state.key
                state.play(move)
                assert state.key == before  # play returns a new state
        last = states[-1]
        if last.is_terminal() and last.winner() is not None:
            assert np.sign(last.score(last.winner())) >= 0


def test_a_bad_move_text_is_an_input_error_naming_it(game):
    state = game.initial_state()
    with pytest.raises(InputError, match="zz9"):
        game.parse_move("zz9", state)


def test_heuristics_score_mine_minus_theirs_and_stay_below_a_win(game):
    states = [s for states in random_games(game, PLAYOUTS, seed=2) for s in states]
    for heuristic in game.heuristics.values():
        evaluate = heuristic.bind()
        for state in states:
            mine, theirs = evaluate(state, 0), evaluate(state, 1)
            assert mine == pytest.approx(-theirs, abs=1e-9), heuristic.name
            assert abs(mine) < core.WIN_VALUE / 10


def test_default_weights_lie_in_evolutions_range(game):
    from lib.games.arena.evolve import EvolutionConfig

    low, high = EvolutionConfig.low, EvolutionConfig.high
    for heuristic in game.heuristics.values():
        assert all(low <= w <= high for w in heuristic.default_weights), heuristic.name


def test_the_search_finds_the_default_heuristic_through_the_spec(game):
    state = game.initial_state()
    default = choose_move(state, depth=1)
    named = choose_move(state, depth=1, heuristic=game.default_heuristic)
    assert default.value == named.value and default.move in state.legal_moves()


def test_perft_reads_who_moves_from_the_state(game):
    def leaves(state, depth: int) -> int:
        moves = state.legal_moves()
        if depth == 0 or not moves:
            return 1
        return sum(leaves(state.play(m), depth - 1) for m in moves)

    state = game.initial_state()
    assert core.perft(state, 3) == leaves(state, 3)


def test_every_module_of_the_game_runs_its_docstring_examples(game):
    package = importlib.import_module(game.initial_state.__module__)
    modules = [package] + [
        importlib.import_module(f"{package.__name__}.{info.name}")
        for info in pkgutil.iter_modules(package.__path__)
    ]
    attempted = 0
    for module in modules:
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, module.__name__
        attempted += result.attempted
    assert attempted > 0, "the rules' docstring shows the game in a few examples"


def test_every_hook_the_spec_names_is_found_when_the_spec_is_made(game):
    rebuilt = dataclasses.replace(game)  # the game's own hooks are all there
    assert rebuilt == game


@pytest.mark.parametrize(
    "field, typo, named",
    [
        ("view", "lib.games.tictactoe.veiw", "no module lib.games.tictactoe.veiw"),
        ("view", "lib.games.tictactoe", "defines no ADAPTER"),
        ("features", "lib.games.tictactoe.feature", "no module lib.games.tictactoe.feature"),
        ("exact_solver", "lib.games.tictactoe.plots", "defines no exact_solution"),
        ("players", {"perfect": "lib.games.sim.player:make_perfekt"}, "defines no make_perfekt"),
        ("players", {"perfect": "lib.games.sim.player"}, "'module:factory'"),
    ],
)
def test_a_typo_in_a_hook_fails_when_the_spec_is_made_naming_the_game(field, typo, named):
    spec = core.get_game("tictactoe")
    with pytest.raises(core.GameSpecError) as refused:
        dataclasses.replace(spec, **{field: typo})
    message = str(refused.value)
    assert message.startswith(f"Game 'tictactoe': its {field}") and named in message
