"""The Arena's links: the preset form's numbers read from and written to the URL (a warning
names any value the page could not use as given), and shared replays."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from streamlit.testing.v1 import AppTest

from lib.games.arena import (
    MatchConfig,
    play_game,
    replay_from_link,
    replay_link_params,
    run_tournament,
    spec_depth,
)
from lib.games.arena.limits import HOSTED_CAPS
from lib.games.core import get_game
from lib.games.search.players import parse_player_spec
from lib.ui import arena_controls as arena_ui
from lib.ui import arena_page
from lib.ui.common import escape_markdown
from tests.pages.widget_defaults import default_mismatches, seeded_widget_count

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "arena.py")
CAPS = HOSTED_CAPS


def _open(**params: str) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=120)
    for name, value in params.items():
        app.query_params[name] = value
    app.run()
    assert not app.exception, app.exception
    return app


def _param(app: AppTest, name: str) -> str:
    value = app.query_params[name]
    return value[0] if isinstance(value, list) else value


def test_games_above_the_cap_are_clamped_and_said_so():
    app = _open(games="99999")
    warnings = [w.value for w in app.warning]
    assert warnings == [
        f"The link's games=99999 is outside this page's range 1–{CAPS.max_games_per_match}; "
        f"using {CAPS.max_games_per_match}."
    ]
    assert app.number_input(key="arena_w_preset_games").value == CAPS.max_games_per_match
    assert _param(app, "games") == str(CAPS.max_games_per_match)
    # a link naming a study waits for Run study
    assert "arena_study" not in app.session_state


def test_each_bad_number_is_named_with_the_value_used():
    app = _open(games="abc", seed="-3", depth="99")
    warnings = " ".join(w.value for w in app.warning)
    assert "games=abc is not a whole number; using 20." in warnings
    assert f"seed=\\-3 is outside this page's range 0–{2**31 - 1}; using 0." in warnings
    assert f"depth=99 is outside this page's range 1–{CAPS.max_depth}; using {CAPS.max_depth}." in (
        warnings
    )
    assert app.number_input(key="arena_w_preset_games").value == 20
    assert app.number_input(key="arena_w_preset_seed").value == 0
    assert app.slider(key="arena_w_preset_depth").value == CAPS.max_depth
    # the warnings are said once: the next run (any click) does not repeat them
    app.run()
    assert not app.warning


def test_a_good_link_fills_the_form_and_its_study_uses_it():
    app = _open(preset="sim_pruning", games="3", seed="9", depth="3")
    assert not app.warning
    assert app.selectbox(key="arena_w_preset").value == "sim_pruning"
    next(b for b in app.button if b.label == "Run study").click()
    app.run()
    assert not app.exception, app.exception
    run = app.session_state["arena_study"]
    assert run.status == "done"
    assert {m.games for m in run.matches} == {3} and {m.seed for m in run.matches} == {9}
    assert all(m.game == "sim" for m in run.matches)
    depths = [spec_depth(spec) or 0 for m in run.matches for spec in m.players]
    assert max(depths) == 3  # the preset's deeper players are left out


def test_a_first_visit_writes_the_form_numbers_into_the_url():
    app = _open()
    assert (_param(app, "games"), _param(app, "seed"), _param(app, "depth")) == ("20", "1", "5")
    app.number_input(key="arena_w_preset_games").set_value(7)
    next(b for b in app.button if b.label == "Run study").click()
    app.run()
    assert _param(app, "games") == "7"
    assert len(app.session_state["arena_study"].records) == 7


def _shared_text(app: AppTest) -> str:
    return " ".join(m.value for m in app.markdown)


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("othello", ("alphabeta:depth=2", "random"), {"size": 6}),
        ("sim", ("greedy", "random"), {"first": "random"}),
    ],
)
def test_a_shared_replay_link_plays_the_game_again_and_opens_it(game, players, options):
    match = MatchConfig(game, players, games=4, seed=21, options=options)
    record = run_tournament([match]).records[3]  # A plays the second side
    params = replay_link_params(record, match)
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=120)
    for name, value in params.items():
        app.query_params[name] = value
    app.run()
    app.switch_page("pages/arena.py")
    for name, value in params.items():
        app.query_params[name] = value
    app.run()
    assert not app.exception, app.exception
    assert not app.error and not app.warning
    _, replayed, _ = app.session_state["arena_shared"]
    assert replayed.reproducible() == dataclasses.replace(record, match=0).reproducible()
    text = _shared_text(app)
    assert f"Shared replay: game 3 of {escape_markdown(match.label)}" in text
    b_label = parse_player_spec(players[1]).label()
    assert f"{get_game(game).player_names[0]} {escape_markdown(b_label)}" in text
    if record.winner != "draw":  # named by colour and player (both may have the same label)
        a_colour = 0 if record.a_first else 1
        colour = a_colour if record.winner == "A" else 1 - a_colour
        label = parse_player_spec(players[0 if record.winner == "A" else 1]).label()
        names = get_game(game).player_names
        assert f"Result: {names[colour]} ({escape_markdown(label)}) won" in text
    assert "arena_study" not in app.session_state  # the link is about the replay: no study run
    app.button(key="arena_w_shared_go").click().run()
    assert not app.exception, app.exception
    session = app.session_state[f"{game}_session"]
    assert " ".join(get_game(game).format_move(m) for m in session.moves) == record.moves
    assert session.states[0].to_move == record.first_player
    # the game page offers the same link again, to pass the replay on from there
    link = next(m.value for m in app.markdown if "Link to share this replay" in m.value)
    query = dict(parse_qsl(link.split("?", 1)[1].rstrip(")")))
    assert query == params


def test_the_replay_picker_offers_a_link_that_reproduces_the_chosen_game():
    app = _open()
    run = app.session_state["arena_study"]
    app.session_state[arena_page.GAMES_OPEN_KEY] = True  # the per-game results opened
    app.run()
    app.selectbox(key="arena_w_replay").set_value(5).run()
    link = next(c.value for c in app.code if "replay=" in c.value)
    query = dict(parse_qsl(link.split("?", 1)[1]))
    match, number, first = replay_from_link(query)
    record = run.records[5]
    assert (number, first) == (record.game, record.first_player)
    assert play_game(match, number).reproducible() == record.reproducible()


def test_a_bad_replay_link_says_what_is_wrong_and_close_drops_it():
    app = _open(replay="othello", r_a="human", r_b="random", r_seed="1", r_game="0")
    assert "'human' cannot play here" in app.error[0].value
    app.button(key="arena_w_shared_close_bad").click().run()
    assert not app.exception
    assert "replay" not in app.query_params and "r_a" not in app.query_params
    assert not app.error


def test_a_replay_link_over_this_servers_depth_cap_is_refused():
    app = _open(replay="othello", r_a="minimax:depth=9", r_b="random", r_seed="1", r_game="0")
    assert "depth 9 is above this server's limit" in app.error[0].value
    assert "arena_shared" not in app.session_state


def test_a_game_with_a_time_budget_gets_no_share_link():
    match = MatchConfig("othello", ("alphabeta:depth=2,time=1", "random"), games=1)
    match = dataclasses.replace(match, options=(("size", 6),))
    record = run_tournament([match]).records[0]
    app = AppTest.from_file(PAGE, default_timeout=120)
    app.session_state["arena_study"] = arena_ui.StudyRun((match,), [record], status="done")
    app.session_state[arena_page.GAMES_OPEN_KEY] = True  # the per-game results opened
    app.run()
    assert not app.exception, app.exception
    assert not [c for c in app.code if "replay=" in c.value]
    assert any("time budget" in c.value for c in app.caption)


def test_a_grid_leaves_out_players_over_the_caps_and_runs_the_rest():
    app = _open()
    app.radio(key="arena_w_source").set_value("A grid").run()
    too_deep = CAPS.max_depth_no_pruning + 1  # allowed for alpha-beta, not for minimax
    app.multiselect(key="arena_w_grid_depths").set_value([1, too_deep])
    app.selectbox(key="arena_w_game").set_value("sim")
    app.number_input(key="arena_w_grid_games").set_value(1)
    next(b for b in app.button if b.label == "Run study").click().run()
    assert not app.exception and not app.error
    labels = [m.label for m in app.session_state["arena_study"].matches]
    assert labels == [
        "minimax d1 vs random",
        "alphabeta d1 vs random",
        f"alphabeta d{too_deep} vs random",
    ]
    assert f"minimax d{too_deep} vs random" in " ".join(i.value for i in app.info)


def test_a_grid_with_only_players_over_the_caps_says_why():
    app = _open()
    app.radio(key="arena_w_source").set_value("A grid").run()
    app.multiselect(key="arena_w_grid_depths").set_value([CAPS.max_depth_no_pruning + 1])
    app.multiselect(key="arena_w_grid_algorithms").set_value(["minimax"])
    next(b for b in app.button if b.label == "Run study").click().run()
    assert not app.exception
    assert "above this server's limit" in app.error[0].value
    assert len(app.session_state["arena_study"].matches) == 1  # the first visit's study kept


def test_a_links_form_numbers_are_their_widgets_defaults():
    # tests.pages.widget_defaults: the browser may start a widget at its default
    app = _open(preset="sim_pruning", games="3", seed="9", depth="3")
    assert app.number_input(key="arena_w_preset_games").value == 3
    assert seeded_widget_count(app.main) >= 4
    assert default_mismatches(app.main) == []
    app.run()
    assert default_mismatches(app.main) == []


def test_an_unknown_preset_in_a_link_is_named_and_the_first_fitting_one_shown():
    app = _open(preset="nosuchstudy")
    expected = arena_page.first_preset(
        arena_page.game_studies(arena_page.available_games()), arena_page.caps()
    )
    warnings = [w.value for w in app.warning if "nosuchstudy" in w.value]
    assert len(warnings) == 1 and f"showing {expected} instead" in warnings[0]
    assert app.selectbox(key="arena_w_preset").value == expected


LADDER_LINK = {
    "ladder": "othello",
    "l_players": "Random|Greedy (one ply)",
    "l_time": "0.2",
    "l_games": "3",
    "l_seed": "7",
    "lo_size": "6",
}


def test_a_ladder_link_fills_the_ladder_form_and_stays_in_the_link():
    app = _open(**LADDER_LINK)
    assert not app.warning
    assert app.selectbox(key="arena_w_ladder_game").value == "othello"
    assert app.multiselect(key="arena_w_ladder_players_othello").value == [
        "Random",
        "Greedy (one ply)",
    ]
    assert app.number_input(key="arena_w_ladder_time").value == 0.2
    assert app.number_input(key="arena_w_ladder_games").value == 3
    assert app.number_input(key="arena_w_ladder_seed").value == 7
    assert app.selectbox(key="arena_w_ladder_opt_othello_size").value == 6
    assert {name: _param(app, name) for name in LADDER_LINK} == LADDER_LINK
    # a link naming a ladder plays nothing by itself (neither the ladder nor a first study)
    assert "arena_study" not in app.session_state and "arena_ladder" not in app.session_state


def test_each_bad_ladder_value_is_named_with_the_value_used():
    app = _open(ladder="othello", l_players="Random|Nobody", l_games="0", lo_size="7")
    warnings = [w.value for w in app.warning]
    assert len(warnings) == 3
    assert warnings[0].startswith("The link's l_players=Random\\|Nobody is not player names")
    assert warnings[1] == "The link's l_games=0 is outside this page's range 1–" + (
        f"{CAPS.max_games_per_match}; using 1."
    )
    sizes = list(get_game("othello").options["size"])
    assert warnings[2] == (
        f"The link's lo_size=7 is not one of {', '.join(map(str, sizes))}; using {sizes[0]}."
    )
    assert len(app.multiselect(key="arena_w_ladder_players_othello").value) > 2  # all of them
    app = _open(ladder="chess")
    assert app.warning[0].value.startswith("The link's ladder=chess is not one of ")
    assert _param(app, "ladder") == app.selectbox(key="arena_w_ladder_game").value


def test_the_ladder_link_is_read_once_and_then_follows_the_form():
    app = _open(**LADDER_LINK)
    app.number_input(key="arena_w_ladder_games").set_value(5)
    app.multiselect(key="arena_w_ladder_players_othello").set_value(["Random"])
    next(b for b in app.button if b.label == "Run ladder").click()
    app.run()
    assert any("at least two players" in e.value for e in app.error)  # refused: nothing plays
    assert _param(app, "l_games") == "5" and _param(app, "l_players") == "Random"
    app.run()  # the link (now the form's) is not read again over the form
    assert app.number_input(key="arena_w_ladder_games").value == 5
    assert app.multiselect(key="arena_w_ladder_players_othello").value == ["Random"]
