"""Monte Carlo tree search: legal moves on every game, wins in one, play against random and
against itself with fewer simulations, determinism, passes, the player kind and its spec."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games import connect_four, othello, tictactoe
from lib.games.arena import MatchConfig, play_game
from lib.games.arena.__main__ import main
from lib.games.arena.limits import HOSTED_CAPS, LOCAL_CAPS, check_matches, over_cap
from lib.games.core import available_games, get_game
from lib.games.search import mcts
from lib.games.search.fast import choose_move
from lib.games.search.players import (
    MAX_SIMULATIONS,
    MctsPlayer,
    PlayerConfig,
    make_player,
    parse_player_spec,
    parse_player_spec_to_fit,
)
from lib.games.search.values import is_win_value
from lib.games.session import decide

GAMES = list(available_games())


def random_position(name: str, plies: int, seed: int):
    """The position after up to ``plies`` random moves from the game's start (not finished)."""
    rng = np.random.default_rng(seed)
    state = get_game(name).initial_state()
    for _ in range(plies):
        moves = state.legal_moves()
        following = state.play(moves[int(rng.integers(len(moves)))])
        if following.is_terminal():
            break
        state = following
    return state


def play(name: str, *moves: str):
    """The position after ``moves`` (the game's notation) from the start."""
    game = get_game(name)
    state = game.initial_state()
    for text in moves:
        state = state.play(game.parse_move(text, state))
    return state


def search(state, **options):
    options.setdefault("rng", np.random.default_rng(0))
    game_module = type(state).__module__
    game = next(g for g in available_games().values() if g.initial_state.__module__ == game_module)
    options.setdefault("evaluate", game.heuristics[game.default_heuristic].bind())
    return mcts.mcts_search(state, **options)


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(GAMES),
    plies=st.integers(0, 70),
    seed=st.integers(0, 2**32 - 1),
    simulations=st.integers(1, 60),
    rollout=st.sampled_from(list(mcts.ROLLOUTS)),
)
def test_plays_a_legal_move_and_counts_every_simulation(name, plies, seed, simulations, rollout):
    state = random_position(name, plies, seed)
    result = search(
        state, simulations=simulations, rollout=rollout, rng=np.random.default_rng(seed)
    )
    stats = result.stats
    moves = state.legal_moves()
    assert result.move in moves
    assert stats.simulations == simulations
    # every simulation goes through exactly one child of the root
    assert set(stats.root_visits) <= set(moves)
    assert sum(stats.root_visits.values()) == simulations
    assert stats.root_visits[result.move] == max(stats.root_visits.values())
    assert result.value == stats.root_values[result.move]
    assert all(0.0 <= v <= 1.0 for v in stats.root_values.values())
    assert 2 <= stats.tree_nodes <= simulations + 1  # at most one node per simulation
    # the chosen line is a legal line starting with the move played
    assert stats.principal_variation[0] == result.move
    line_state = state
    for move in stats.principal_variation:
        assert move in line_state.legal_moves()
        line_state = line_state.play(move)
    assert len(stats.principal_variation) <= stats.max_tree_depth


def test_tree_grows_one_node_per_simulation_until_the_game_ends_inside_it():
    # tic-tac-toe has 549,946 nodes: 200 simulations never run out of positions to add
    state = tictactoe.initial_state()
    result = search(state, simulations=200)
    assert result.stats.tree_nodes == 201
    # one move left: after the first simulation the tree is complete (root + one finished game)
    last = play("tictactoe", "a1", "b1", "c1", "b2", "a2", "a3", "c2", "c3")
    result = search(last, simulations=50)
    assert result.stats.tree_nodes == 2
    assert result.move == tictactoe.parse_move("b3", last)
    assert result.stats.root_visits == {result.move: 50}


@pytest.mark.parametrize("rollout", list(mcts.ROLLOUTS))
@pytest.mark.parametrize("seed", range(3))
def test_finds_a_win_in_one_in_connect_four(rollout, seed):
    # red has a1 b1 c1 and yellow a2 b2 c2: red must play d (yellow also threatens d)
    state = play("connect_four", "a", "a", "b", "b", "c", "c")
    result = search(state, simulations=300, rollout=rollout, rng=np.random.default_rng(seed))
    assert connect_four.format_move(result.move) == "d"
    assert result.value > 0.9


def _immediate_wins(state) -> list:
    mover = state.to_move
    return [m for m in state.legal_moves() if state.play(m).winner() == mover]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(3, 7))
def test_finds_a_win_in_one_in_tictactoe(seed, plies):
    state = random_position("tictactoe", plies, seed)
    if not _immediate_wins(state):
        return
    result = search(state, simulations=400, rng=np.random.default_rng(seed))
    # the move wins: at once, or (when every rollout after another move wins too, UCT
    # has no reason to prefer the quick win) by force, as the full-depth search proves
    exact = choose_move(state, depth=9, exact_root_scores=True)
    assert is_win_value(exact.stats.root_scores[result.move]) and exact.value > 0
    assert result.value == 1.0


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_search(name):
    state = random_position(name, 6, seed=11)
    first = search(state, simulations=80, rng=np.random.default_rng(5))
    again = search(state, simulations=80, rng=np.random.default_rng(5))
    assert first.move == again.move
    assert first.stats.root_visits == again.stats.root_visits
    assert first.stats.principal_variation == again.stats.principal_variation
    other = [search(state, simulations=80, rng=np.random.default_rng(s)) for s in range(6, 10)]
    # a different seed explores differently (the visit counts tell)
    assert any(o.stats.root_visits != first.stats.root_visits for o in other)


def test_a_seeded_player_plays_the_same_move_whatever_the_rng():
    game = get_game("connect_four")
    player = make_player(parse_player_spec("mcts:sims=60,seed=4"), game)
    assert isinstance(player, MctsPlayer)
    state = random_position("connect_four", 5, seed=2)
    moves = {player.choose(state, np.random.default_rng(s)).move for s in range(4)}
    visits = [player.choose(state, np.random.default_rng(s)).stats.root_visits for s in range(2)]
    assert len(moves) == 1 and visits[0] == visits[1]


@dataclass(frozen=True)
class PassGame:
    """Player 0 picks ``a`` (player 1 must pass, then player 0 wins or loses by its own
    choice) or ``b`` (player 1 then chooses between two draws): ``a`` wins for player 0.

    Whose win a node counts must come from ``to_move``: counting by alternating turns
    would credit the node after the pass to the wrong side and see ``a`` as a loss.
    """

    path: str = ""

    @property
    def to_move(self) -> int:
        return 0 if self.path in ("", "ap") else 1

    @property
    def key(self) -> str:
        return self.path

    def legal_moves(self) -> list[str]:
        return {"": ["a", "b"], "a": ["p"], "ap": ["win", "lose"], "b": ["x", "y"]}.get(
            self.path, []
        )

    def play(self, move: str) -> PassGame:
        return PassGame(self.path + ("p" if move == "p" else move))

    def is_terminal(self) -> bool:
        return not self.legal_moves()

    def winner(self) -> int | None:
        return {"apwin": 0, "aplose": 1}.get(self.path)

    def score(self, player: int) -> float:
        return 0.0


@pytest.mark.parametrize("seed", range(5))
def test_a_pass_gives_the_same_player_two_moves(seed):
    result = mcts.mcts_search(PassGame(), simulations=300, rng=np.random.default_rng(seed))
    assert result.move == "a"
    assert result.stats.principal_variation == ["a", "p", "win"]
    assert result.stats.root_values["a"] > 0.8
    assert result.stats.root_values["b"] == 0.5  # two draws


def test_a_forced_othello_pass_is_played():
    # search random games for a position where the side to move must pass
    for seed in range(400):
        rng = np.random.default_rng(seed)
        state = othello.initial_state(6)
        while not state.is_terminal() and state.legal_moves() != [othello.PASS]:
            moves = state.legal_moves()
            state = state.play(moves[int(rng.integers(len(moves)))])
        if not state.is_terminal():
            break
    else:
        pytest.fail("no forced pass in 400 random 6x6 games")
    result = search(state, simulations=20)
    assert result.move == othello.PASS
    assert result.stats.root_visits == {othello.PASS: 20}


def test_a_time_budget_stops_the_search():
    state = othello.initial_state(8)
    result = search(state, time_limit=0.05)
    assert result.stats.simulations >= 1
    assert result.stats.seconds < 1.0  # one simulation at most past the budget
    capped = search(state, simulations=5, time_limit=30.0)
    assert capped.stats.simulations == 5 and not capped.stats.timed_out


def test_a_finished_game_and_bad_settings_are_refused():
    over = play("tictactoe", "a1", "a2", "b1", "b2", "c1")
    assert over.is_terminal()
    with pytest.raises(InputError, match="game is over"):
        search(over, simulations=10)
    start = tictactoe.initial_state()
    for options, fragment in [
        ({"simulations": 0}, "Simulations"),
        ({"simulations": 2.5}, "Simulations"),
        ({"time_limit": 0}, "time budget"),
        ({"exploration": -1.0}, "exploration"),
        ({"exploration": float("nan")}, "exploration"),
        ({"rollout": "smart"}, "Unknown rollout"),
        ({"rollout": "heuristic", "evaluate": None}, "need a heuristic"),
    ]:
        with pytest.raises(InputError, match=fragment):
            search(start, **options)


def _score_of_a(spec_a: str, spec_b: str, game: str, games: int, seed: int = 0) -> list[float]:
    match = MatchConfig(game, (spec_a, spec_b), games=games, seed=seed)
    return [play_game(match, index).result_a for index in range(games)]


def test_beats_random_at_tictactoe_without_losing():
    results = _score_of_a("mcts:sims=300", "random", "tictactoe", games=12)
    assert 0.0 not in results  # never loses, moving first or second
    assert results.count(1.0) > len(results) / 2


def test_beats_random_at_connect_four():
    results = _score_of_a("mcts:sims=100", "random", "connect_four", games=6)
    assert results.count(1.0) >= 5


@pytest.mark.slow
def test_more_simulations_win_more_often_at_connect_four():
    results = _score_of_a("mcts:sims=400", "mcts:sims=25", "connect_four", games=8, seed=3)
    assert sum(results) / len(results) >= 0.75


@pytest.mark.slow
@pytest.mark.parametrize("name", ["othello", "checkers", "sim"])
def test_beats_random_at_the_longer_games(name):
    for rollout in mcts.ROLLOUTS:
        results = _score_of_a(f"mcts:sims=40,rollout={rollout}", "random", name, games=4)
        assert sum(results) / len(results) >= 0.5, rollout


# -- the player kind and its spec ----------------------------------------------------


def test_spec_examples_and_labels():
    config = parse_player_spec("mcts:sims=2000")
    assert config.kind == "mcts" and config.simulations == 2000
    assert config.label() == "MCTS 2000 sims"
    config = parse_player_spec("mcts:time=0.2,c=1.4,rollout=heuristic")
    assert (config.time_limit, config.exploration, config.rollout) == (0.2, 1.4, "heuristic")
    assert config.to_spec() == "mcts:time=0.2,rollout=heuristic"  # c=1.4 is the default
    assert config.label() == "MCTS 0.2 s (heuristic rollouts)"
    config = parse_player_spec("MCTS: sims=50, c=0.5, rollout=Heuristic, h=mobility, seed=7")
    assert config.label() == "MCTS 50 sims c=0.5 (mobility heuristic rollouts)"
    assert config.to_spec() == "mcts:sims=50,c=0.5,rollout=heuristic,heuristic=mobility,seed=7"
    assert parse_player_spec("mcts").label() == f"MCTS {mcts.DEFAULT_SIMULATIONS} sims"
    assert parse_player_spec("mcts").solver  # players prove wins unless told not to
    config = parse_player_spec("mcts:sims=50,solver=false")
    assert not config.solver and config.to_spec() == "mcts:sims=50,solver=false"
    assert config.label() == "MCTS 50 sims without solver"


mcts_configs = st.builds(
    PlayerConfig,
    kind=st.just("mcts"),
    heuristic=st.sampled_from([None, *othello.HEURISTICS]),
    time_limit=st.one_of(st.none(), st.sampled_from([0.05, 0.2, 1.0, 2.5])),
    simulations=st.one_of(st.none(), st.integers(1, MAX_SIMULATIONS)),
    exploration=st.sampled_from([0.0, 0.5, 1.4, 2.0, 10.0]),
    rollout=st.sampled_from(list(mcts.ROLLOUTS)),
    seed=st.one_of(st.none(), st.integers(0, 2**63 - 1)),
    solver=st.booleans(),
)


@settings(max_examples=100, deadline=None)
@given(config=mcts_configs)
def test_spec_round_trip(config):
    assert parse_player_spec(config.to_spec()) == config


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("mcts:sims=0", "Simulations must be"),
        ("mcts:sims=2.5", "sims must be a whole number"),
        ("mcts:sims=2000000", "Simulations must be"),
        ("mcts:c=-1", "exploration constant"),
        ("mcts:c=high", "c must be a number"),
        ("mcts:c=11", "exploration constant"),
        ("mcts:rollout=smart", "Rollout must be one of random, heuristic"),
        ("mcts:seed=-3", "seed"),
        ("mcts:visits=3", "unknown setting 'visits'"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec, fragment):
    with pytest.raises(InputError, match=fragment):
        parse_player_spec(spec)


def test_caps_move_numbers_inside_with_a_note():
    config, notes = parse_player_spec_to_fit(
        "mcts:sims=50000,c=20,time=30", max_time=5.0, max_simulations=20_000, max_exploration=3.0
    )
    assert (config.simulations, config.exploration, config.time_limit) == (20_000, 3.0, 5.0)
    assert notes == ["time 30 → 5", "sims 50000 → 20000", "c 20 → 3"]
    config, notes = parse_player_spec_to_fit("mcts:sims=0")
    assert config.simulations == 1 and notes == ["sims 0 → 1"]


def test_unknown_heuristic_or_weights_are_refused_for_the_game():
    game = get_game("tictactoe")
    with pytest.raises(InputError, match="no heuristic"):
        make_player(parse_player_spec("mcts:rollout=heuristic,h=corners"), game)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_offers_mcts_and_the_page_decision_uses_it(name):
    game = get_game(name)
    state = random_position(name, 4, seed=1)
    decision = decide(
        state, PlayerConfig(kind="mcts"), game, np.random.default_rng(0), default_time=0.05
    )
    assert decision.move in state.legal_moves()
    assert decision.stats.algorithm == "mcts" and decision.stats.simulations >= 1
    assert decision.stats.root_scores == {
        m: float(v) for m, v in decision.stats.root_visits.items()
    }
    assert decision.stats.root_bounds == {}
    decision = decide(
        state,
        parse_player_spec("mcts:sims=30,rollout=heuristic"),
        game,
        np.random.default_rng(0),
        default_time=0.05,
    )
    # all 30 simulations run, unless the solver proved the root first (small games)
    stats = decision.stats
    assert stats.simulations == 30 or (stats.simulations < 30 and stats.proven_value is not None)


def test_arena_match_validates_and_replays_mcts():
    match = MatchConfig("tictactoe", ("mcts:sims=50", "random"), games=2, seed=9)
    match.validate()
    first, again = play_game(match, 1), play_game(match, 1)
    assert first.moves == again.moves and first.nodes_a > 0


def test_the_hosted_arena_caps_simulations_per_move():
    assert over_cap(f"mcts:sims={HOSTED_CAPS.max_simulations}", HOSTED_CAPS) is None
    too_many = f"mcts:sims={HOSTED_CAPS.max_simulations + 1}"
    assert over_cap(too_many, HOSTED_CAPS).endswith(
        f"above this server's limit of {HOSTED_CAPS.max_simulations:,}."
    )
    assert over_cap(too_many, LOCAL_CAPS) is None
    assert over_cap("mcts:time=0.2", HOSTED_CAPS) is None  # the time budget decides
    with pytest.raises(InputError, match="simulations per move is above"):
        check_matches([MatchConfig("othello", (too_many, "random"))], HOSTED_CAPS)
    check_matches(
        [MatchConfig("othello", ("mcts:sims=100,rollout=heuristic", "random"))], HOSTED_CAPS
    )


def test_the_arena_command_line_plays_mcts(tmp_path, capsys):
    out = tmp_path / "games.csv"
    argv = ["--game", "tictactoe", "--players", "mcts:sims=40", "random", "--games", "2"]
    assert main([*argv, "--quiet", "--csv", str(out)]) == 0
    assert "mcts:sims=40 vs random" in capsys.readouterr().out
    table = pd.read_csv(out)
    assert len(table) == 2 and (table["nodes_a"] > 0).all()


def test_progress_callback_sees_the_simulations_and_can_abandon_the_search(monkeypatch):
    monkeypatch.setattr(mcts, "PROGRESS_EVERY", 0.0)  # report after every simulation
    seen: list[int] = []

    class Left(Exception):
        pass

    def progress(stats):
        seen.append(stats.simulations)
        if len(seen) == 3:
            raise Left

    state = get_game("connect_four").initial_state()
    with pytest.raises(Left):
        mcts.mcts_search(state, simulations=500, rng=np.random.default_rng(0), on_progress=progress)
    assert seen == [1, 2, 3]
    plain = mcts.mcts_search(state, simulations=50, rng=np.random.default_rng(0))
    watched = mcts.mcts_search(
        state, simulations=50, rng=np.random.default_rng(0), on_progress=lambda stats: None
    )
    assert watched.stats.root_visits == plain.stats.root_visits


# -- MCTS-Solver ---------------------------------------------------------------------------

WIN_NOW = ("a1", "c1", "a2", "c3", "b3", "b1")
"""Tic-tac-toe: X (to move) has a1 and a2, so a3 wins at once; b2 also wins, two plies later."""


@pytest.mark.parametrize("seed", range(50))
def test_the_solver_plays_the_immediate_win_for_every_seed(seed):
    state = play("tictactoe", *WIN_NOW)
    result = mcts.mcts_search(state, simulations=200, rng=np.random.default_rng(seed), solver=True)
    assert tictactoe.format_move(result.move) == "a3"
    assert result.value == 1.0 and result.stats.proven_value == 1.0
    assert result.stats.proof_plies == 1  # the faster of the wins, not b2's or c2's (3 plies)
    assert {m for m, v in result.stats.root_proven.items() if v == 1.0} == {result.move}
    # the proof ends the search: the root's children are expanded one per simulation
    assert result.stats.simulations <= len(state.legal_moves())


def test_a_proven_loss_is_backed_up_when_every_move_loses():
    # O to move faces two threats (X's diagonals through b2 end at a3 and c3)
    state = play("tictactoe", "a1", "b1", "c1", "a2", "b2")
    result = mcts.mcts_search(state, simulations=5000, rng=np.random.default_rng(3), solver=True)
    assert result.stats.proven_value == 0.0
    assert set(result.stats.root_proven.values()) == {0.0}
    assert len(result.stats.root_proven) == len(state.legal_moves())
    # whatever O plays, X completes a diagonal next
    assert result.stats.proof_plies == 2


@pytest.mark.parametrize("seed", range(12))
def test_a_proven_root_has_the_exact_game_value(seed):
    state = random_position("tictactoe", 3 + seed % 4, seed)
    result = mcts.mcts_search(
        state, simulations=20_000, rng=np.random.default_rng(seed), solver=True
    )
    exact = choose_move(state, depth=9).value  # minimax to the end of the game
    assert result.stats.proven_value is not None  # tic-tac-toe is small enough to prove
    expected = 0.5 if exact == 0 else (1.0 if exact > 0 else 0.0)
    assert result.stats.proven_value == expected
    if expected == 1.0:  # the move played keeps the win
        after = state.play(result.move)
        if after.is_terminal():
            assert after.winner() == state.to_move
        else:
            value = choose_move(after, depth=9).value  # the opponent's view
            assert is_win_value(value) and value < 0


def test_without_the_solver_nothing_is_proven_and_the_search_runs_its_budget():
    state = play("tictactoe", *WIN_NOW)
    result = mcts.mcts_search(state, simulations=300, rng=np.random.default_rng(0))
    assert result.stats.simulations == 300
    assert result.stats.proven_nodes == 0 and result.stats.proven_value is None


def test_the_player_uses_the_solver_unless_told_not_to():
    state = play("tictactoe", *WIN_NOW)
    game = get_game("tictactoe")
    with_solver = make_player(parse_player_spec("mcts:sims=300"), game)
    decision = with_solver.choose(state, np.random.default_rng(0))
    assert decision.stats.solver and decision.stats.proven_value == 1.0
    plain = make_player(parse_player_spec("mcts:sims=300,solver=false"), game)
    assert plain.choose(state, np.random.default_rng(0)).stats.proven_nodes == 0
