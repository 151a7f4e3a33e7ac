"""The Arena page under AppTest: a small preset to completion, free choices, bad input,
an interrupted run resumed, evolution, and the hand-offs to the game pages."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from lib.games import othello
from lib.games.arena import MatchConfig, run_tournament
from lib.games.arena import limits as arena_limits
from lib.games.arena.evolve import evolvable_games
from lib.games.arena.options import format_option_value, initial_option_defaults, option_label
from lib.games.core import available_games, get_game
from lib.games.othello import POSITIONAL_FEATURES
from lib.games.search.players import parse_player_spec
from lib.ui import arena_controls as arena_ui
from lib.ui import arena_first_look, arena_page
from lib.ui.common import escape_markdown

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "arena.py")


def _app() -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=120)
    app.run()
    assert not app.exception
    return app


def _submit(app: AppTest, label: str) -> None:
    next(b for b in app.button if b.label == label).click()
    app.run()
    assert not app.exception, app.exception


def test_first_load_shows_presets_and_caps():
    app = _app()
    assert app.title[0].value == "Arena"
    presets = app.selectbox(key="arena_w_preset").options
    assert any("depths 1/3/5/7" in p for p in presets)
    assert app.query_params["preset"] in (["othello_depth3"], "othello_depth3")
    # hosted by default: only in-process, games capped
    assert (
        app.number_input(key="arena_w_preset_games").max
        == arena_limits.HOSTED_CAPS.max_games_per_match
    )
    assert all(r.key != "arena_w_executor" for r in app.radio)
    # the default preset has already been played: results before any click
    run = app.session_state["arena_study"]
    assert run.status == "done" and len(run.records) == 20
    assert [r.reproducible() for r in run.records] == [
        r.reproducible() for r in run_tournament(run.matches).records
    ]
    assert list(app.dataframe[0].value["games"]) == [20]
    assert len(app.get("plotly_chart")) == 4


def test_small_preset_runs_to_completion_with_summary_and_replay():
    app = _app()
    app.selectbox(key="arena_w_preset").set_value("othello_depth3")
    app.number_input(key="arena_w_preset_games").set_value(4)
    _submit(app, "Run study")
    run = app.session_state["arena_study"]
    assert run.status == "done" and len(run.records) == 4
    summary = app.dataframe[0].value
    assert list(summary["games"]) == [4]
    assert summary["win %"].iloc[0] == 100 * sum(r.winner == "A" for r in run.records) / 4
    # the page reproduces the library's games for the same seed
    expected = run_tournament(run.matches).records
    assert [r.reproducible() for r in run.records] == [r.reproducible() for r in expected]
    assert len(app.get("plotly_chart")) >= 4
    assert {b.key for b in app.get("download_button")} >= {"arena_dl_summary", "arena_dl_games"}


def test_the_first_look_is_played_once_and_each_visitor_gets_a_copy(monkeypatch):
    arena_first_look.first_look_records.clear()
    first = _app().session_state["arena_study"]
    assert first.status == "done" and len(first.records) == 20

    def play_again(*args: object, **kwargs: object) -> None:
        raise AssertionError("the first look's games were played again")

    monkeypatch.setattr(arena_first_look, "run_tournament", play_again)
    second = _app()  # another visitor: the same games, from the cache
    theirs = second.session_state["arena_study"]
    assert [r.reproducible() for r in theirs.records] == [r.reproducible() for r in first.records]
    assert theirs.records is not first.records and theirs.records[0] is not first.records[0]
    assert list(second.dataframe[0].value["games"]) == [20]
    arena_first_look.first_look_records.clear()


def test_after_the_warm_up_a_first_visit_plays_no_game(monkeypatch):
    """The server's warm-up plays the very games a first visit shows (same matches, same
    caps), so that visit only reads them."""
    arena_first_look.first_look_records.clear()
    arena_first_look.warm_first_look()

    def play_again(*args: object, **kwargs: object) -> None:
        raise AssertionError("the first visit played the warm-up's games again")

    monkeypatch.setattr(arena_first_look, "run_tournament", play_again)
    app = _app()
    study = app.session_state["arena_study"]
    assert study.status == "done" and len(study.records) == 20
    assert study.matches == arena_first_look.first_look_matches(arena_limits.caps())
    assert list(app.dataframe[0].value["games"]) == [20]
    arena_first_look.first_look_records.clear()


def test_free_choice_round_robin_and_bad_specs():
    app = _app()
    app.radio(key="arena_w_source").set_value("Free choice")
    app.run()
    app.text_area(key="arena_w_players").set_value("alphabeta:depth=1\ngreedy")
    app.toggle(key="arena_w_round_robin").set_value(True)
    app.number_input(key="arena_w_free_games").set_value(2)
    _submit(app, "Run study")
    run = app.session_state["arena_study"]
    assert [m.players for m in run.matches] == [
        ("alphabeta:depth=1", "greedy"),
        ("alphabeta:depth=1", "random"),
        ("greedy", "random"),
    ]
    assert run.status == "done" and len(run.records) == 6

    app.text_area(key="arena_w_players").set_value("alphabeta:depth=99")
    _submit(app, "Run study")
    assert "depth" in app.error[0].value
    app.text_area(key="arena_w_players").set_value("alphabeta:depth=8")
    _submit(app, "Run study")
    assert "limit" in app.error[0].value  # above the hosted depth cap
    app.text_area(key="arena_w_players").set_value("alphabeta:depth=3,endgame=30")
    _submit(app, "Run study")
    assert "exact endgame" in app.error[0].value
    app.toggle(key="arena_w_round_robin").set_value(False)
    app.text_area(key="arena_w_players").set_value("\n".join(["greedy"] * 9))
    app.number_input(key="arena_w_free_games").set_value(50)
    _submit(app, "Run study")
    assert "450 games" in app.error[0].value and "limit here is 400" in app.error[0].value
    app.text_area(key="arena_w_players").set_value("chess-engine")
    _submit(app, "Run study")
    assert "Unknown player kind" in app.error[0].value
    # the kinds it offers are the ones the arena can play: not "human"
    offered = app.error[0].value.split("choose one of", 1)[1]
    assert "random" in offered and "alphabeta" in offered and "human" not in offered


def test_an_interrupted_run_keeps_its_games_and_resumes():
    app = _app()
    matches = (
        MatchConfig("othello", ("alphabeta:depth=1", "random"), games=3, options={"size": 6}),
    )
    partial = run_tournament(matches, should_stop=lambda: True).records  # one game
    app.session_state["arena_study"] = arena_ui.StudyRun(matches, list(partial))
    app.run()  # the page sees a run left "running": it was interrupted
    assert not app.exception
    assert "Stopped after 1 of 3 games" in app.warning[0].value
    assert list(app.dataframe[0].value["games"]) == [1]
    _submit(app, "Resume")
    run = app.session_state["arena_study"]
    assert run.status == "done" and [r.game for r in run.records] == [0, 1, 2]


def test_evolution_runs_with_a_fitness_chart_and_best_weights():
    app = _app()
    app.selectbox(key="arena_w_evo_game").set_value("othello").run()
    app.number_input(key="arena_w_pop").set_value(6)
    app.number_input(key="arena_w_leagues").set_value(2)
    app.number_input(key="arena_w_gens").set_value(2)
    app.number_input(key="arena_w_elite").set_value(2)
    app.number_input(key="arena_w_worst").set_value(1)
    app.number_input(key="arena_w_bench_games").set_value(2)
    _submit(app, "Evolve")
    evo = app.session_state["arena_evo"]
    assert evo.status == "done" and len(evo.generations) == 2
    best = app.dataframe[-1].value
    assert list(best["feature"]) == list(POSITIONAL_FEATURES)
    assert tuple(best["weight"]) == evo.generations[-1].best_weights
    assert len(app.get("plotly_chart")) >= 2  # fitness and weights
    assert {"arena_dl_evo", "arena_dl_best"} <= {b.key for b in app.get("download_button")}


def test_bad_evolution_settings_show_an_error():
    app = _app()
    app.selectbox(key="arena_w_evo_game").set_value("othello").run()
    app.number_input(key="arena_w_pop").set_value(6)
    app.number_input(key="arena_w_leagues").set_value(5)  # fewer than 2 per league
    _submit(app, "Evolve")
    assert "leagues" in app.error[0].value
    assert "arena_evo" not in app.session_state
    app.number_input(key="arena_w_leagues").set_value(2)
    app.text_input(key="arena_w_bench_othello").set_value("alphabeta:depth=zero")
    _submit(app, "Evolve")
    assert "depth" in app.error[0].value and "arena_evo" not in app.session_state
    # within every single limit, but too many games in all for a hosted server
    app.text_input(key="arena_w_bench_othello").set_value("random")
    for key, value in {"pop": 30, "leagues": 1, "gens": 30, "per_pair": 10}.items():
        app.number_input(key=f"arena_w_{key}").set_value(value)
    _submit(app, "Evolve")
    # (435 pairs x 10 games + 10 benchmark games) x 30 generations
    assert "130,800 games" in app.error[0].value and "arena_evo" not in app.session_state


def test_weight_range_the_wrong_way_round_says_so():
    app = _app()
    app.number_input(key="arena_w_low").set_value(50)
    app.number_input(key="arena_w_high").set_value(-50)
    _submit(app, "Evolve")
    message = app.error[0].value
    assert escape_markdown("Lowest weight (50)") in message
    assert escape_markdown("Highest weight (-50)") in message
    assert "arena_evo" not in app.session_state


def test_replay_session_holds_every_position_of_the_game():
    match = MatchConfig("othello", ("alphabeta:depth=1", "random"), games=2, options={"size": 6})
    record = run_tournament([match]).records[1]  # A plays white in odd games
    session = arena_ui.replay_session(record, match)
    assert session.options == {"size": 6}
    assert len(session.states) == record.plies + 1 and session.state.is_terminal()
    assert session.players[0] == "random" and session.players[1] == "alphabeta:depth=1"


@pytest.mark.parametrize("game", ["checkers", "sim"])
def test_replay_fills_default_options_of_other_games(game):
    match = MatchConfig(game, ("random", "random"), games=1)
    record = run_tournament([match]).records[0]
    session = arena_ui.replay_session(record, match)
    defaults = initial_option_defaults(game)
    assert session.options.keys() == defaults.keys()
    spec = get_game(game)
    assert all(session.options[o] in spec.options[o] for o in defaults)  # the page's choices
    assert session.states[0] == spec.initial_state(**defaults)
    assert session.state.is_terminal() or record.truncated


def record_players(app: AppTest, record) -> tuple[str, ...]:
    """The players of the study's match that ``record`` belongs to."""
    run = app.session_state["arena_study"]
    return next(m for m in run.matches if m.label == record.label).players


def test_replay_and_use_weights_open_the_othello_page_with_them():
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=120).run()
    app.switch_page("pages/arena.py").run()
    app.number_input(key="arena_w_preset_games").set_value(2)
    _submit(app, "Run study")
    record = app.session_state["arena_study"].records[0]  # the default choice
    app.session_state[arena_page.GAMES_OPEN_KEY] = True  # the per-game results opened
    app.run()
    next(b for b in app.button if b.key == "arena_w_replay_go").click()
    app.run()
    assert not app.exception and app.title[0].value == "Othello"
    session = app.session_state["othello_session"]
    assert session.ply == record.plies and session.state.is_terminal()
    assert " ".join(othello.format_move(m) for m in session.moves) == record.moves
    assert app.selectbox(key="othello_w_opt_size").value == 6
    # said in the banner beside the board, not in a toast over the buttons
    assert not app.toast
    assert any(i.value.startswith(escape_markdown(session.replay)) for i in app.info)
    # the sidebar's players, and so the address, are the replay's
    specs = app.session_state["othello_specs"]
    assert {parse_player_spec(s).label() for s in specs} == {
        parse_player_spec(s).label() for s in record_players(app, record)
    }

    app.switch_page("pages/arena.py").run()
    app.selectbox(key="arena_w_evo_game").set_value("othello").run()
    for key, value in {"pop": 6, "leagues": 2, "gens": 2, "elite": 2, "worst": 1}.items():
        app.number_input(key=f"arena_w_{key}").set_value(value)
    _submit(app, "Evolve")
    best = app.session_state["arena_evo"].generations[-1].best_weights
    next(b for b in app.button if b.key == "arena_w_use_weights").click()
    app.run()
    assert not app.exception and app.title[0].value == "Othello"
    assert app.selectbox(key="othello_p1_w_kind").value == "alphabeta"
    assert app.selectbox(key="othello_p1_w_heuristic").value == "positional9"
    shown = {n.key: n.value for n in app.number_input}
    for name, weight in zip(POSITIONAL_FEATURES, best, strict=True):
        assert shown[f"othello_p1_w_weight_positional9_{name}"] == weight
    # an arrival notice names the player and the weights, once
    notice = [i.value.replace("\\", "") for i in app.info if "evolved weights" in i.value]
    assert len(notice) == 1 and notice[0].startswith("White is now alpha-beta")
    assert f"{POSITIONAL_FEATURES[0]} {best[0]:g}" in notice[0]
    assert [t.value for t in app.toast] == [i.value for i in app.info if "evolved" in i.value]
    app.run()
    assert not [i for i in app.info if "evolved weights" in i.value]
    assert not app.toast


def test_grid_study_runs_every_combination():
    app = _app()
    app.radio(key="arena_w_source").set_value("A grid")
    app.run()
    app.multiselect(key="arena_w_grid_depths").set_value([1, 2])
    app.multiselect(key="arena_w_grid_ordering").set_value(["off", "on"])
    app.number_input(key="arena_w_grid_games").set_value(2)
    _submit(app, "Run study")
    run = app.session_state["arena_study"]
    assert run.status == "done" and len(run.matches) == 6 and len(run.records) == 12
    assert len(app.dataframe[0].value) == 6
    app.multiselect(key="arena_w_grid_depths").set_value([])
    _submit(app, "Run study")
    assert "grid is empty" in app.error[0].value


def test_every_form_offers_the_game_options():
    app = _app()
    app.selectbox(key="arena_w_evo_game").set_value("othello").run()
    evo_size = app.selectbox(key="arena_w_evo_opt_othello_size")
    assert evo_size.label == "Board size" and evo_size.options == ["6", "8"]
    for source, key in (("A grid", "arena_w_grid_opt_othello_size"),
                        ("Free choice", "arena_w_opt_othello_size")):  # fmt: skip
        app.radio(key="arena_w_source").set_value(source).run()
        app.selectbox(key="arena_w_game").set_value("othello").run()
        assert not app.exception
        assert app.selectbox(key=key).label == "Board size"
        assert app.selectbox(key=key).options == ["6", "8"]


@pytest.mark.parametrize("name", list(available_games()))
def test_option_selects_are_titled_and_named_by_each_game_s_spec(name):
    spec = available_games()[name]
    app = _app()
    app.radio(key="arena_w_source").set_value("Free choice").run()
    app.selectbox(key="arena_w_game").set_value(name).run()
    assert not app.exception
    for option, allowed in spec.options.items():
        select = app.selectbox(key=f"arena_w_opt_{name}_{option}")
        assert select.label == option_label(spec, option)
        assert select.options == [format_option_value(spec, option, v) for v in allowed]
    # the evolution form starts on the options the game evolves on
    if name in evolvable_games(available_games()):
        app.selectbox(key="arena_w_evo_game").set_value(name).run()
        for option, value in spec.evolve_options:
            assert app.selectbox(key=f"arena_w_evo_opt_{name}_{option}").value == value


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("sim", ("random", "random"), {}),
        ("othello", ("alphabeta:depth=1", "random"), {}),
        ("checkers", ("alphabeta:depth=1", "random"), {}),
        # seed 3: game 2's coin toss lets Blue start (the page's own toss would be 50:50)
        ("sim", ("alphabeta:depth=2", "random"), {"first": "random"}),
    ],
)
def test_replay_opens_the_whole_record_on_the_game_page_with_a_banner_and_no_ai_move(
    game, players, options
):
    match = MatchConfig(game, players, games=2, max_plies=40, seed=3, options=options)
    records = run_tournament([match]).records
    record = records[1]  # A plays the second side
    if options:
        assert record.first_player == 1
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=120).run()
    app.session_state["arena_study"] = arena_ui.StudyRun((match,), list(records), status="done")
    app.session_state[arena_page.GAMES_OPEN_KEY] = True  # the per-game results opened
    app.switch_page("pages/arena.py").run()
    app.selectbox(key="arena_w_replay").set_value(1).run()
    button = next(b for b in app.button if b.key == "arena_w_replay_go")
    assert "the The" not in button.label
    button.click().run()
    assert not app.exception
    session = app.session_state[f"{game}_session"]
    spec = get_game(game)
    assert " ".join(spec.format_move(m) for m in session.moves) == record.moves
    assert session.ply == record.plies  # the page kept the replay: no new game, no AI move
    # the recorded start, and each move credited to the player of the side that made it
    assert session.states[0].to_move == record.first_player
    a_colour = 0 if record.a_first else 1
    movers = [players[0] if s.to_move == a_colour else players[1] for s in session.states[:-1]]
    assert session.players == movers
    for option, value in options.items():  # the page shows the match's own option
        assert app.selectbox(key=f"{game}_w_opt_{option}").value == value
    banner = " ".join(i.value for i in app.info)
    # numbered as in the per-game table and CSV (from 0), so the game can be found there
    assert escape_markdown(f"{match.label}, game {record.game}") in banner
    assert record.game == 1
    assert escape_markdown(f"{spec.player_names[0]} {players[1]}") in banner
    winner = session.state.winner() if session.state.is_terminal() else None
    if winner is not None:  # the result names the player of the winning side, not "you"
        winner_spec = players[1] if winner == 0 else players[0]
        label = parse_player_spec(winner_spec).label()  # "Alpha-beta d2", not the raw spec
        assert f"wins ({escape_markdown(label)})" in app.success[0].value
    app.switch_page(f"pages/{game}.py").run()  # a rerun of the page keeps the replay
    assert app.session_state[f"{game}_session"].ply == record.plies
    app.button(key=f"{game}_w_new").click().run()
    assert not any("Replay of" in i.value for i in app.info)


def test_an_unknown_preset_in_the_link_is_named_in_a_warning():
    app = AppTest.from_file(PAGE, default_timeout=120)
    app.query_params["preset"] = "![x](http://example.com/a.png)"
    app.run()
    assert not app.exception
    warning = app.warning[0].value
    assert escape_markdown("'![x](http://example.com/a.png)'") in warning
    assert "othello_depth3" in warning
    assert app.query_params["preset"] in (["othello_depth3"], "othello_depth3")


def test_sim_options_are_named_as_on_the_sim_page():
    app = _app()
    app.radio(key="arena_w_source").set_value("Free choice").run()
    app.selectbox(key="arena_w_game").set_value("sim").run()
    first = app.selectbox(key="arena_w_opt_sim_first")
    assert first.label == "Who starts" and first.options == ["Red", "Blue", "Coin toss"]
    assert first.value == "red"  # the value the study gets is the game's own


def test_local_mode_first_visit_shows_results(monkeypatch):
    """Issue: with AI_SEARCH_LAB_LOCAL=1 the default preset (tic-tac-toe, depth 9) was left
    out by the form's default depth of 5: "Give at least one player A." instead of results,
    and the server's warm-up failed."""
    monkeypatch.setenv(arena_limits.LOCAL_ENV, "1")
    assert arena_first_look.first_look_matches(arena_limits.caps())  # the warm-up has games
    arena_first_look.first_look_records.clear()
    app = _app()
    assert not [w.value for w in app.warning if "at least one player" in w.value]
    run = app.session_state["arena_study"]
    assert run.status == "done" and run.records
    assert len(app.dataframe) >= 1
    arena_first_look.first_look_records.clear()


def test_a_study_keeps_its_games_in_a_journal_named_in_the_link(monkeypatch, tmp_path):
    from lib.games.arena import journal

    monkeypatch.setenv(journal.DATA_DIR, str(tmp_path))
    app = _app()
    app.radio(key="arena_w_source").set_value("Free choice")
    app.run()
    app.text_area(key="arena_w_players").set_value("greedy")
    app.number_input(key="arena_w_free_games").set_value(2)
    _submit(app, "Run study")
    run = app.session_state["arena_study"]
    study = app.query_params["study"]
    study = study[0] if isinstance(study, list) else study
    kept = journal.read(journal.journal_folder(), study)
    assert kept.done and kept.records == run.records and kept.matches == run.matches


def test_after_a_server_restart_the_link_s_study_comes_back_with_what_was_lost(
    monkeypatch, tmp_path
):
    from lib.games.arena import journal

    monkeypatch.setenv(journal.DATA_DIR, str(tmp_path))
    matches = (
        MatchConfig("othello", ("alphabeta:depth=1", "random"), games=3, options={"size": 6}),
    )
    study = journal.new_study_id()
    journal.start(journal.journal_folder(), study, matches)
    first = run_tournament(matches, should_stop=lambda: True).records  # one game, then a restart
    journal.append(journal.journal_folder(), study, first[0])
    monkeypatch.setattr(journal, "SERVER_ID", "f" * 16)  # the restarted server is another
    app = AppTest.from_file(PAGE, default_timeout=120)
    app.query_params["study"] = study  # a new session: the reconnected page's
    app.run()
    assert not app.exception
    (said,) = [w.value for w in app.warning if "restarted" in w.value]
    assert "The 1 games it had finished were kept" in said
    assert "the other 2 of its 3 games" in said and "lost" in said
    assert list(app.dataframe[0].value["games"]) == [1]
    assert {b.key for b in app.get("download_button")} >= {"arena_dl_summary", "arena_dl_games"}
    _submit(app, "Resume")
    run = app.session_state["arena_study"]
    assert run.status == "done" and [r.game for r in run.records] == [0, 1, 2]
    assert journal.read(journal.journal_folder(), study).records == run.records


def test_a_link_s_study_this_server_no_longer_has_is_said_so(monkeypatch, tmp_path):
    from lib.games.arena import journal

    monkeypatch.setenv(journal.DATA_DIR, str(tmp_path))
    for study in (journal.new_study_id(), "../../etc/passwd"):
        app = AppTest.from_file(PAGE, default_timeout=120)
        app.query_params["study"] = study
        app.run()
        assert not app.exception
        assert any("no longer on this server" in w.value for w in app.warning)
        assert "study" not in app.query_params


def test_a_study_running_in_another_tab_is_said_so_not_called_lost(monkeypatch, tmp_path):
    from lib.games.arena import journal

    monkeypatch.setenv(journal.DATA_DIR, str(tmp_path))
    matches = (MatchConfig("tictactoe", ("greedy", "random"), games=4),)
    study = journal.new_study_id()
    journal.start(journal.journal_folder(), study, matches)  # by this server: no restart
    journal.append(journal.journal_folder(), study, run_tournament(matches).records[0])
    app = AppTest.from_file(PAGE, default_timeout=120)
    app.query_params["study"] = study
    app.run()
    assert not app.exception and not any("restarted" in w.value for w in app.warning)
    assert any("in another tab" in i.value and "1 finished games of 4" in i.value for i in app.info)
