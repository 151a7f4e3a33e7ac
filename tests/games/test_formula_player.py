"""The formula player: its spec round trip, its moves, its pickling, its place in matches."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games import formula as formula_module
from lib.games.arena import InlineExecutor, MatchConfig, open_executor, run_tournament
from lib.games.arena.ladder import player_label
from lib.games.core import get_game
from lib.games.formula import MAX_TEXT, FormulaEvaluator
from lib.games.search.players import (
    PlayerConfig,
    SearchPlayer,
    decode_formula,
    encode_formula,
    make_player,
    parse_player_spec,
)
from lib.games.session import decide
from tests.games.test_formula import positions

TICTACTOE_LINES = "10*twos + ones + 3*centre + corners"  # the built-in "lines" heuristic


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_formula_text_survives_encoding(text):
    encoded = encode_formula(text)
    assert not set(encoded) & set(",=: ()")
    assert decode_formula(encoded) == text


@settings(max_examples=300, deadline=None)
@given(
    st.text(max_size=MAX_TEXT).filter(str.strip),
    st.sampled_from(["alphabeta", "minimax", "greedy", "mcts"]),
)
def test_any_formula_survives_the_spec_round_trip(text, kind):
    config = PlayerConfig(kind=kind, formula=text, time_limit=0.5)
    spec = config.to_spec()
    assert spec.count(":") == 1
    again = parse_player_spec(spec)
    assert again.formula == text
    assert again == config


def test_plain_typed_formulas_are_read_and_labelled_short():
    config = parse_player_spec("alphabeta:depth=2,formula=lines + 2*centre,time=1")
    assert (config.formula, config.depth, config.time_limit) == ("lines + 2*centre", 2, 1.0)
    assert config.label() == "Alpha-beta d2 (lines + 2*centre)"
    long = PlayerConfig(formula="10*twos + ones + 3*centre + corners - empties")
    assert long.label() == "Alpha-beta d4 (10*twos + ones + 3*cent…)"
    assert parse_player_spec("alphabeta:f=").formula is None
    with pytest.raises(InputError, match="at most 500"):
        PlayerConfig(formula="1+" * 300)
    with pytest.raises(InputError, match="percent-encoded"):
        parse_player_spec("alphabeta:formula=%ff")


def test_a_formula_player_plays_the_moves_of_the_heuristic_it_equals():
    game = get_game("tictactoe")
    mine = make_player(PlayerConfig(depth=3, formula=TICTACTOE_LINES), game)
    theirs = make_player(PlayerConfig(depth=3, heuristic="lines"), game)
    assert isinstance(mine, SearchPlayer)
    assert isinstance(mine.evaluate, FormulaEvaluator)
    for state in positions(game, 40, seed=2):
        a = mine.choose(state, np.random.default_rng(1))
        b = theirs.choose(state, np.random.default_rng(1))
        assert (a.move, a.value) == (b.move, pytest.approx(b.value))


def test_the_formula_is_compiled_once_not_per_move(monkeypatch):
    calls = []
    real = formula_module.compile_formula
    monkeypatch.setattr(formula_module, "compile_formula", lambda *a: calls.append(a) or real(*a))
    game = get_game("tictactoe")
    config = parse_player_spec("alphabeta:depth=2,formula=lines - 0.125*corners")
    state, moves = game.initial_state(), 0
    while not state.is_terminal():  # the game page builds its player again at every move
        decision = decide(state, config, game, np.random.default_rng(0), default_time=1.0)
        state, moves = state.play(decision.move), moves + 1
    assert moves >= 5
    assert len(calls) == 1


def test_a_bad_formula_is_refused_when_the_player_is_made_naming_the_character():
    game = get_game("tictactoe")
    with pytest.raises(InputError, match="character 9: unknown name 'cetre'"):
        make_player(parse_player_spec("alphabeta:formula=lines + cetre"), game)
    with pytest.raises(InputError, match="character 9"):
        MatchConfig("tictactoe", ("alphabeta:formula=lines + cetre", "random"), games=2).validate()


def test_a_formula_player_pickles_and_plays_in_a_process_pool():
    game = get_game("othello")
    spec = PlayerConfig(depth=2, formula="if(empties < 20, discs, 10*corners + mobility)")
    player = make_player(spec, game)
    again = pickle.loads(pickle.dumps(player))
    state = game.initial_state().play(19)
    assert again.evaluate == player.evaluate
    assert (
        again.choose(state, np.random.default_rng(0)).move
        == player.choose(state, np.random.default_rng(0)).move
    )
    formula_spec = "alphabeta:depth=3,formula=" + encode_formula(TICTACTOE_LINES)
    match = MatchConfig("tictactoe", (formula_spec, "random"), games=4, seed=4)
    inline = run_tournament([match], InlineExecutor())
    with open_executor("process", workers=2) as pool:
        pooled = run_tournament([match], pool)
    assert [r.moves for r in inline.records] == [r.moves for r in pooled.records]
    assert player_label("tictactoe", match.players[0]) == (
        "Alpha-beta d3 (10*twos + ones + 3*cent…)"
    )


def test_mcts_rollouts_can_be_judged_by_a_formula():
    game = get_game("connect_four")
    config = parse_player_spec("mcts:sims=60,rollout=heuristic,seed=1,formula=threats")
    assert config.label() == "MCTS 60 sims (threats rollouts)"
    decision = make_player(config, game).choose(game.initial_state(), np.random.default_rng(0))
    assert decision.move in game.initial_state().legal_moves()


def test_a_replay_link_carries_a_formula_player():
    from lib.games.arena.links import replay_from_link, replay_link_params
    from lib.games.arena.match import play_game

    formula_spec = PlayerConfig(depth=2, formula="max(twos, 2*corners) - ones").to_spec()
    match = MatchConfig("tictactoe", (formula_spec, "random"), games=2, seed=9)
    record = run_tournament([match], InlineExecutor()).records[1]
    params = replay_link_params(record, match)
    again, number, _ = replay_from_link(params)
    assert again.players == match.players and number == record.game
    assert play_game(again, number).moves == record.moves
