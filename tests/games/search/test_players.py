"""Players: spec parsing and printing, building players, picklability, game-specific kinds."""

from __future__ import annotations

import pickle
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games import othello
from lib.games.search.fast import SearchStats, choose_move
from lib.games.search.players import (
    BUILTIN_KINDS,
    Decision,
    PlayerConfig,
    available_kinds,
    make_player,
    parse_player_spec,
)
from lib.settings import LOCAL
from tests.games.othello.test_rules import random_state

configs = st.builds(
    PlayerConfig,
    kind=st.sampled_from(["alphabeta", "minimax", "expectimax", "greedy", "random", "human"]),
    depth=st.integers(1, 12),
    heuristic=st.sampled_from([None, *othello.HEURISTICS]),
    weights=st.one_of(
        st.none(),
        st.lists(st.integers(-100, 100).map(float), min_size=1, max_size=9).map(tuple),
    ),
    ordering=st.booleans(),
    time_limit=st.one_of(st.none(), st.sampled_from([0.25, 0.5, 1.0, 2.5])),
    beam=st.one_of(st.none(), st.integers(1, 8)),
    endgame_exact=st.one_of(st.none(), st.integers(0, 14)),
    transposition=st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(config=configs)
def test_spec_round_trip(config):
    parsed = parse_player_spec(config.to_spec())
    if config.kind in ("random", "human"):
        assert parsed.kind == config.kind  # search settings do not apply to them
    else:
        assert parsed == config


def test_spec_examples():
    config = parse_player_spec("alphabeta:depth=5,ordering=false")
    assert config == PlayerConfig(kind="alphabeta", depth=5, ordering=False)
    assert config.to_spec() == "alphabeta:depth=5,ordering=false"
    assert parse_player_spec("  Alpha-Beta : d=3, h=table, w=1/2/3/4/5/6/7 ").weights == (
        1.0,
        2.0,
        3.0,
        4.0,
        5.0,
        6.0,
        7.0,
    )
    assert parse_player_spec("random").to_spec() == "random"
    assert parse_player_spec("minimax:time=0.5,tt=off").time_limit == 0.5


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("", "empty"),
        ("alphabeta:depth=x", "depth must be a whole number"),
        ("alphabeta:depth=0", "from 1 to 12"),
        ("alphabeta:depth=13", "from 1 to 12"),
        ("alphabeta:speed=3", "unknown setting 'speed'"),
        ("alphabeta:depth", "key=value"),
        ("alphabeta:ordering=maybe", "true or false"),
        ("alphabeta:time=-1", "Time budget"),
        ("alphabeta:time=1000", "Time budget"),
        ("alphabeta:beam=0", "Beam"),
        ("alpha beta", "not a player kind"),
        ("alphabeta:weights=1/nan", "finite"),
        ("alphabeta:weights=inf", "finite"),
    ],
)
def test_bad_specs_name_the_problem(spec, fragment):
    with pytest.raises(InputError, match=fragment):
        parse_player_spec(spec)


@pytest.mark.parametrize(
    ("config", "fragment"),
    [
        (PlayerConfig(kind="wizard"), "Unknown player kind 'wizard'"),
        (PlayerConfig(heuristic="nope"), "no heuristic 'nope'"),
        (PlayerConfig(heuristic="table", weights=(1.0, 2.0)), "takes 7 weights"),
    ],
)
def test_make_player_rejects_bad_configs(config, fragment):
    with pytest.raises(InputError, match=fragment):
        make_player(config, othello.GAME)


@pytest.mark.parametrize("kind", ["random", "greedy", "minimax", "alphabeta", "expectimax"])
def test_every_builtin_kind_plays_legal_moves_and_pickles(kind):
    player = make_player(PlayerConfig(kind=kind, depth=2), othello.GAME)
    clone = pickle.loads(pickle.dumps(player))
    for seed in range(5):
        state = random_state(seed, 10 + seed, 6)
        first = player.choose(state, np.random.default_rng(seed))
        again = clone.choose(state, np.random.default_rng(seed))
        assert isinstance(first, Decision)
        assert first.move in state.legal_moves()
        assert first.move == again.move  # same config and seed: same move
        if kind == "random":
            assert first.stats is None
        else:
            assert isinstance(first.stats, SearchStats) and first.stats.nodes >= 1


def test_search_player_uses_the_configured_heuristic_and_weights():
    state = random_state(12, 24)
    config = PlayerConfig(kind="alphabeta", depth=3, heuristic="weighted", weights=(0, 1, 0))
    decision = make_player(config, othello.GAME).choose(state, np.random.default_rng(0))
    direct = choose_move(state, depth=3, heuristic=othello.HEURISTICS["discs"].bind())
    # weights (corners 0, discs 1, mobility 0) make "weighted" the disc difference
    assert decision.value == pytest.approx(direct.value)


def test_human_player_refuses_to_choose():
    human = make_player(PlayerConfig(kind="human"), othello.GAME)
    assert human.config.is_human
    with pytest.raises(InputError, match="human"):
        human.choose(othello.initial_state(6), np.random.default_rng(0))


class FirstMovePlayer:
    def __init__(self, config):
        self.config = config

    def choose(self, state, rng):
        return Decision(state.legal_moves()[0])


def test_game_specific_kinds_come_from_the_game_spec():
    game = replace(othello.GAME, players={"first": f"{__name__}:FirstMovePlayer"})
    assert "first" in available_kinds(game)
    assert set(BUILTIN_KINDS) <= set(available_kinds(game))
    player = make_player(parse_player_spec("first"), game)
    state = othello.initial_state(8)
    assert player.choose(state, np.random.default_rng(0)).move == state.legal_moves()[0]
    with pytest.raises(InputError):
        make_player(parse_player_spec("first"), othello.GAME)


def test_labels_are_readable():
    assert PlayerConfig(kind="alphabeta", depth=5).label() == "Alpha-beta d5"
    assert PlayerConfig(kind="minimax", depth=2, heuristic="table").label() == "Minimax d2 (table)"
    assert PlayerConfig(kind="random").label() == "Random"


@settings(max_examples=60, deadline=None)
@given(path=st.text(min_size=1, max_size=80).filter(lambda p: p.strip() and "\0" not in p))
def test_agent_specs_round_trip_any_path_on_a_local_install(path):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(LOCAL, "1")
        config = PlayerConfig("agent", path=path.strip(), time_limit=0.5)
        assert parse_player_spec(config.to_spec()) == config
        assert config.label().startswith("Agent ")


def test_agent_specs_are_refused_off_a_local_install_and_checked_on_one(monkeypatch):
    monkeypatch.delenv(LOCAL, raising=False)
    for spec in ("agent:path=my_agent.py", "AGENT:file=my_agent.py"):
        with pytest.raises(InputError, match=f"{LOCAL}=1"):
            parse_player_spec(spec)
    monkeypatch.setenv(LOCAL, "yes")  # only 1 is local
    with pytest.raises(InputError, match=f"{LOCAL}=1"):
        PlayerConfig("agent", path="my_agent.py")
    monkeypatch.setenv(LOCAL, "1")
    assert parse_player_spec("agent:file=a%2Cb.py,time=2").path == "a,b.py"
    for spec, fragment in [
        ("agent", "needs its file"),
        ("agent:path=", "needs its file"),
        ("agent:path=a.py,depth=3", "only path and time, not depth"),
        ("agent:path=a.py,formula=lines", "only path and time, not formula"),
        ("alphabeta:path=a.py", "Only agent players take a file"),
    ]:
        with pytest.raises(InputError, match=fragment):
            parse_player_spec(spec)
    with pytest.raises(InputError, match="plays in the Arena"):
        make_player(parse_player_spec("agent:path=a.py"), othello.GAME)
