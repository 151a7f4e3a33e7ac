"""The Arena's caps and study checks, game options and presets (lib.games.arena.limits,
options, presets): the logic the Arena page draws, tested without Streamlit."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games.arena import MatchConfig, presets
from lib.games.arena import preset as preset_module
from lib.games.arena.evolve import EvolutionConfig, games_per_generation
from lib.games.arena.limits import (
    HOSTED_CAPS,
    LOCAL_CAPS,
    LOCAL_ENV,
    caps,
    check_evolution,
    check_matches,
    check_weight_range,
    leave_out_over_caps,
    over_cap,
    within_caps,
)
from lib.games.arena.options import (
    check_options,
    format_option_value,
    initial_option_defaults,
    option_from_text,
    option_label,
    page_options,
)
from lib.games.arena.preset import Preset, collect_presets
from lib.games.core import ArenaPreset, available_games, get_game

GAMES = list(available_games())
PRUNING = presets()["othello_pruning"].matches(max_depth=7)


def test_the_arena_package_is_not_taken_for_a_game():
    assert "arena" not in available_games()
    assert all(spec.name != "arena" for spec in available_games().values())


# -- caps --------------------------------------------------------------------------------


def test_caps_are_hosted_unless_the_local_variable_is_set(monkeypatch):
    monkeypatch.delenv(LOCAL_ENV, raising=False)
    assert caps() == HOSTED_CAPS and HOSTED_CAPS.executors == ("inline",)
    monkeypatch.setenv(LOCAL_ENV, "1")
    assert caps() == LOCAL_CAPS and "dask" in LOCAL_CAPS.executors
    monkeypatch.setenv(LOCAL_ENV, "yes")  # only "1" lifts them
    assert caps() == HOSTED_CAPS


@pytest.mark.parametrize("kind", ["alphabeta", "minimax", "mcts", "greedy"])
def test_a_time_budget_per_move_over_the_hosted_cap_is_refused_for_every_player(kind):
    cap = HOSTED_CAPS.max_move_seconds
    assert over_cap(f"{kind}:time={cap * 2:g}", HOSTED_CAPS).endswith(f"limit of {cap:g} s.")
    assert over_cap(f"{kind}:time={cap:g}", HOSTED_CAPS) is None
    assert over_cap(f"{kind}:time=60", LOCAL_CAPS) is None


def test_hosted_depth_caps_are_tighter_without_pruning():
    kept = [m.label for m in PRUNING if within_caps(m, HOSTED_CAPS)]
    assert "alpha-beta d7 vs random" in kept and "minimax d5 vs random" in kept
    assert "minimax d7 vs random" not in kept
    assert over_cap("minimax:depth=6", HOSTED_CAPS).endswith("limit of 5 for minimax.")
    assert over_cap("expectimax:depth=6", HOSTED_CAPS).endswith("limit of 5 for expectimax.")
    assert over_cap("alphabeta:depth=8", HOSTED_CAPS).endswith("limit of 7 for alphabeta.")
    assert over_cap("alphabeta:depth=7", HOSTED_CAPS) is None
    assert over_cap("random", HOSTED_CAPS) is None
    assert all(within_caps(m, LOCAL_CAPS) for m in PRUNING)


@given(st.lists(st.sampled_from(["minimax", "alphabeta"]), min_size=1, max_size=6), st.data())
def test_leaving_out_over_caps_keeps_exactly_the_matches_within_them(kinds, data):
    depths = data.draw(st.lists(st.integers(1, 9), min_size=len(kinds), max_size=len(kinds)))
    chosen = [
        MatchConfig("othello", (f"{k}:depth={d}", "random"))
        for k, d in zip(kinds, depths, strict=True)
    ]
    within = [m for m in chosen if within_caps(m, HOSTED_CAPS)]
    if not within:
        with pytest.raises(InputError, match="above this server's limit"):
            leave_out_over_caps(chosen, HOSTED_CAPS)
        return
    kept, note = leave_out_over_caps(chosen, HOSTED_CAPS)
    assert kept == within
    left_out = [m for m in chosen if m not in within]
    assert (note == "") == (not left_out)
    assert all(m.label in note for m in left_out)


def test_check_matches_refuses_studies_over_the_caps_or_invalid():
    fine = MatchConfig("othello", ("alphabeta:depth=3", "random"), games=10)
    check_matches([fine], HOSTED_CAPS)
    too_many = MatchConfig("othello", ("random", "random"), games=HOSTED_CAPS.max_games_per_match)
    cases = {
        "the limit here is 400": [too_many] * 9,  # 450 games in all
        "per match": [dataclasses.replace(fine, games=HOSTED_CAPS.max_games_per_match + 1)],
        "limit of 7 for alphabeta": [MatchConfig("othello", ("alphabeta:depth=8", "random"))],
        "exact endgame": [MatchConfig("othello", ("alphabeta:depth=2,endgame=30", "random"))],
        "Unknown player kind": [MatchConfig("othello", ("nonsense", "random"))],
    }
    for message, matches in cases.items():
        with pytest.raises(InputError, match=message):
            check_matches(matches, HOSTED_CAPS)
    check_matches([dataclasses.replace(fine, games=1000)], LOCAL_CAPS)


def test_check_weight_range():
    check_weight_range(-1, 1)
    for low, high in ((1, 1), (5, -5)):
        with pytest.raises(InputError, match="must be below"):
            check_weight_range(low, high)


def test_check_evolution_refuses_runs_over_the_caps():
    base = EvolutionConfig(game="othello", population=10, leagues=2, generations=2)
    check_evolution(base, HOSTED_CAPS)
    over = {
        "Population is limited": {"population": HOSTED_CAPS.max_population + 2},
        "Generations are limited": {"generations": HOSTED_CAPS.max_generations + 1},
        "Search depth is limited": {"depth": HOSTED_CAPS.max_evolution_depth + 1},
        "limit of 5 for minimax": {"benchmark": "minimax:depth=6"},
        "Unknown player kind": {"benchmark": "nonsense"},
    }
    for message, change in over.items():
        with pytest.raises(InputError, match=message):
            check_evolution(dataclasses.replace(base, **change), HOSTED_CAPS)
    # the game count: generations x (round robins + benchmark games)
    many = dataclasses.replace(base, population=30, leagues=1, generations=30)
    assert games_per_generation(many) * 30 > HOSTED_CAPS.max_evolution_games
    with pytest.raises(InputError, match="games; the limit here"):
        check_evolution(many, HOSTED_CAPS)
    check_evolution(many, LOCAL_CAPS)


# -- options -----------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_option_values_are_read_back_from_their_text(game):
    spec = get_game(game)
    for name, allowed in spec.options.items():
        for value in allowed:
            assert option_from_text(spec, name, str(value)) == value
            check_options(spec, [(name, value)])
        with pytest.raises(InputError, match="is not one of"):
            option_from_text(spec, name, "nonsense", "The link's o_x")
        with pytest.raises(InputError, match="is not allowed"):
            check_options(spec, [(name, "nonsense")])
    with pytest.raises(InputError, match="has no option"):
        option_from_text(spec, "no_such_option", "1")
    with pytest.raises(InputError, match="has no option"):
        check_options(spec, [("no_such_option", 1)])


def test_option_titles_and_value_names_come_from_the_spec():
    made_up = dataclasses.replace(
        get_game(GAMES[0]),
        options={"board_size": (4, 6), "first": ("a", "b")},
        option_labels={"first": "Who starts"},
        option_formats={"first": {"a": "Player A"}},
    )
    assert option_label(made_up, "first") == "Who starts"
    assert option_label(made_up, "board_size") == "Board size"  # the name made readable
    assert format_option_value(made_up, "first", "a") == "Player A"
    assert format_option_value(made_up, "first", "b") == "b"
    assert format_option_value(made_up, "board_size", 4) == "4"


@pytest.mark.parametrize("game", GAMES)
def test_page_options_are_the_page_s_choices_with_the_same_start(game):
    spec = get_game(game)
    defaults = initial_option_defaults(game)
    assert set(defaults) <= set(spec.options)
    chosen = page_options(game, defaults)
    assert chosen.keys() == defaults.keys()
    assert all(chosen[o] in spec.options[o] for o in chosen)
    assert spec.initial_state(**chosen) == spec.initial_state(**defaults)


# -- presets -----------------------------------------------------------------------------


def test_presets_are_every_game_s_studies_in_the_game_s_order():
    studies = presets()
    expected = [(name, p.key) for name, spec in available_games().items() for p in spec.presets]
    assert [(p.game, key) for key, p in studies.items()] == expected
    for name, spec in available_games().items():
        for study in spec.presets:
            preset = studies[study.key]
            assert isinstance(preset, Preset) and preset.game == name
            assert (preset.title, preset.pairs, preset.games) == (
                study.title,
                study.pairs,
                study.games,
            )
            for match in preset.matches(games=2, seed=3):
                assert match.game == name and match.option_dict == dict(study.options)
                match.validate()


def test_presets_are_collected_when_called_and_keys_must_be_unique(monkeypatch):
    spec = get_game(GAMES[0])
    study = ArenaPreset("new_study", "New", "A study.", (("r vs g", "random", "greedy"),))
    added = dataclasses.replace(spec, presets=(*spec.presets, study))
    monkeypatch.setattr(preset_module, "available_games", lambda: {spec.name: added})
    assert "new_study" in presets() and presets()["new_study"].game == spec.name
    twice = dataclasses.replace(spec, name="other", presets=(study,))
    with pytest.raises(ValueError, match="new_study"):
        collect_presets({spec.name: added, "other": twice})


def test_a_first_visit_runs_the_first_preset_whose_players_all_fit_the_caps():
    from lib.games.arena import presets
    from lib.games.arena.limits import HOSTED_CAPS, LOCAL_CAPS, default_preset, within_caps

    studies = presets()
    for limits in (HOSTED_CAPS, LOCAL_CAPS):
        key = default_preset(studies, limits)
        assert all(within_caps(m, limits) for m in studies[key].matches(games=1))
        earlier = list(studies)[: list(studies).index(key)]
        for other in earlier:  # every preset before it has a player over the caps
            assert not all(within_caps(m, limits) for m in studies[other].matches(games=1))
