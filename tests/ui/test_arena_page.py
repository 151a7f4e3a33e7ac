"""The Arena page's sections on their own (the whole page runs in tests/pages/test_arena.py)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from lib.games.arena import MatchConfig, replay_label, run_tournament
from lib.games.arena.evolve import EvolutionConfig, Generation, iter_evolution
from lib.ui import arena_page
from lib.ui.arena_controls import EvolutionRun, StudyRun

MATCH = MatchConfig("othello", ("alphabeta:depth=1", "random"), games=3, options={"size": 6})


def _study_script() -> None:
    """Choose a study (the matches go to session state) and run the study sections."""
    import streamlit as st

    from lib.ui import arena_page

    ctx = arena_page.setup()
    matches = arena_page.choose_study(ctx)
    if matches is not None:
        st.session_state["chosen"] = [m.label for m in matches]
    if st.session_state.get("run_it"):
        run = arena_page.run_study_section(ctx, matches)
    else:
        run = st.session_state.get(arena_page.STUDY_KEY)
    arena_page.show_study_results(ctx, run)


def _evolution_script() -> None:
    """The evolution results of the run in session state."""
    import streamlit as st

    from lib.ui import arena_page

    ctx = arena_page.setup()
    arena_page.show_evolution_results(ctx, st.session_state.get(arena_page.EVOLUTION_KEY))


def _app(script, **state) -> AppTest:
    app = AppTest.from_function(script, default_timeout=120)
    for key, value in state.items():
        app.session_state[key] = value
    app.run()
    assert not app.exception, app.exception
    return app


def test_a_first_visit_chooses_the_default_preset_once():
    app = _app(_study_script)
    assert app.session_state["chosen"] == ["alpha-beta d3 vs random"]  # as if Run was pressed
    del app.session_state["chosen"]
    app.run()
    assert "chosen" not in app.session_state  # only on the first visit


def test_nothing_to_show_before_a_study_when_the_link_names_a_preset():
    app = AppTest.from_function(_study_script, default_timeout=120)
    app.query_params["preset"] = "othello_pruning"  # a big study waits for the click
    app.run()
    assert not app.exception
    assert not app.dataframe and not app.get("download_button") and not app.get("plotly_chart")
    assert "chosen" not in app.session_state  # no form submitted


def test_study_results_show_the_summary_charts_downloads_and_replays():
    records = run_tournament([MATCH]).records
    run = StudyRun((MATCH,), list(records), status="done")
    app = _app(_study_script, arena_study=run)
    assert app.success[0].value == "Played 3 games in this process."
    summary = app.dataframe[0].value
    assert list(summary["games"]) == [3]
    assert summary["win %"].iloc[0] == round(100 * sum(r.winner == "A" for r in records) / 3, 1)
    assert len(app.get("plotly_chart")) == 4
    assert {b.key for b in app.get("download_button")} == {"arena_dl_summary", "arena_dl_games"}
    # the per-game results are drawn only once their section is opened
    assert len(app.dataframe) == 1 and not app.code
    assert "arena_w_replay" not in [box.key for box in app.selectbox]
    app.session_state[arena_page.GAMES_OPEN_KEY] = True  # the visitor opens it
    app.run()
    assert list(app.dataframe[1].value["game"]) == [0, 1, 2]  # the per-game table
    replay = app.selectbox(key="arena_w_replay")
    assert replay.options == [replay_label(r) for r in records]
    assert app.button(key="arena_w_replay_go").label == "Replay on the Othello page"


def test_an_interrupted_study_is_cancelled_and_offers_resume():
    partial = run_tournament([MATCH], should_stop=lambda: True).records
    run = StudyRun((MATCH,), list(partial))  # left "running" by an earlier script run
    app = _app(_study_script, arena_study=run, run_it=True)
    assert run.status == "cancelled"
    assert app.warning[0].value.startswith(f"Stopped after {len(partial)} of 3 games")
    assert app.button(key="arena_w_resume")
    assert not app.success  # not "Played ..." for an unfinished study
    assert list(app.dataframe[0].value["games"]) == [len(partial)]


def test_a_preset_leaves_out_players_over_the_caps_and_says_so():
    app = _app(_study_script)
    app.selectbox(key="arena_w_preset").set_value("othello_pruning")
    app.slider(key="arena_w_preset_depth").set_value(7)
    app.number_input(key="arena_w_preset_games").set_value(1)
    next(b for b in app.button if b.label == "Run study").click()
    app.run()
    assert not app.exception
    chosen = app.session_state["chosen"]
    assert "alpha-beta d7 vs random" in chosen and "minimax d5 vs random" in chosen
    assert "minimax d7 vs random" not in chosen
    # named as left out, with the study's results (kept for the run the page starts next)
    assert "minimax d7 vs random" in app.session_state[arena_page.LEFT_OUT_KEY]
    assert app.query_params["preset"] in (["othello_pruning"], "othello_pruning")


def test_an_empty_study_asks_for_a_player_and_keeps_the_last_run():
    records = run_tournament([MATCH]).records
    run = StudyRun((MATCH,), list(records), status="done")
    app = _app(_study_script, arena_study=run, run_it=True)
    app.radio(key="arena_w_source").set_value("Free choice").run()
    app.text_area(key="arena_w_players").set_value("  \n")
    next(b for b in app.button if b.label == "Run study").click()
    app.run()
    assert not app.exception
    assert app.session_state["chosen"] == []
    assert app.warning[0].value == "Give at least one player A."
    assert app.session_state[arena_page.STUDY_KEY] is run and run.status == "done"


def test_evolution_results_show_charts_best_weights_and_the_hand_off():
    config = EvolutionConfig(
        game="othello",
        population=4,
        leagues=1,
        elite=2,
        worst=1,
        generations=2,
        benchmark_games=0,
        games_per_pair=1,
    )
    generations = list(iter_evolution(config))
    evo = EvolutionRun(config, config.weight_names(), generations[:1], status="cancelled")
    app = _app(_evolution_script, arena_evo=evo)
    assert app.warning[0].value == "Stopped after 1 of 2 generations."
    assert len(app.get("plotly_chart")) == 2
    best = app.dataframe[0].value
    assert tuple(best["weight"]) == generations[0].best_weights
    assert list(best["feature"]) == list(config.weight_names())
    assert {b.key for b in app.get("download_button")} == {"arena_dl_evo", "arena_dl_best"}
    button = app.button(key="arena_w_use_weights")
    assert button.label == "Use these weights on the Othello page"
    distinct = len(set(generations[0].population))
    assert f"holds {distinct} distinct weight vectors out of 4." in app.caption[0].value


def _generation(number: int, weights: tuple[int, ...], benchmark: float | None) -> Generation:
    return Generation(
        generation=number,
        population=(weights,) * 4,
        fitness=(0.5,) * 4,
        leagues=((0, 1, 2, 3),),
        best_weights=weights,
        best_fitness=0.5,
        mean_fitness=0.5,
        benchmark_score=benchmark,
        games=12,
        mutation_probability=0.2,
    )


def test_a_converged_population_is_explained():
    config = EvolutionConfig(
        game="othello", population=4, leagues=1, elite=2, worst=1, generations=1, benchmark_games=0
    )
    vector = tuple(range(len(config.weight_names())))
    converged = _generation(1, vector, None)
    evo = EvolutionRun(config, config.weight_names(), [converged], status="done")
    app = _app(_evolution_script, arena_evo=evo)
    assert not app.warning
    caption = app.caption[0].value
    assert "holds 1 distinct weight vectors out of 4" in caption
    assert "The population has converged" in caption


def test_no_evolution_results_before_a_generation():
    config = EvolutionConfig(
        game="othello", population=4, leagues=1, elite=2, worst=1, generations=1
    )
    evo = EvolutionRun(config, config.weight_names())
    app = _app(_evolution_script, arena_evo=evo)
    assert not app.get("plotly_chart") and not app.dataframe and not app.get("download_button")


def test_the_summary_shows_the_course_table_first_with_the_interval_in_one_column():
    from lib.games.arena import summarize, wilson_interval
    from lib.ui.arena_controls import summary_view

    matches = (MATCH, MatchConfig("othello", ("random", "random"), games=5, options={"size": 6}))
    records = run_tournament(matches).records
    view = summary_view(summarize(records, matches))
    # in view on a 1024 px projector: win rate and its interval, nodes, time, EBF
    assert list(view.columns[:7]) == [
        "match",
        "games",
        "win %",
        "95% CI",
        "nodes/game",
        "s/game",
        "EBF",
    ]
    for row, match in zip(view.itertuples(index=False), matches, strict=True):
        wins = sum(r.winner == "A" for r in records if r.label == match.label)
        low, high = wilson_interval(wins, match.games)
        assert row[3] == f"{100 * low:.1f}–{100 * high:.1f}"
        assert row[2] == round(100 * wins / match.games, 1)


def test_the_weights_of_any_generation_can_be_chosen_and_the_strongest_is_marked():
    config = EvolutionConfig(
        game="othello", population=4, leagues=1, elite=2, worst=1, generations=4
    )
    size = len(config.weight_names())
    scores = [0.6, 0.0, 0.3, 0.2]  # the last generation's best is not the strongest
    generations = [_generation(n, tuple([10 * n] * size), s) for n, s in enumerate(scores, start=1)]
    evo = EvolutionRun(config, config.weight_names(), generations, status="done")
    app = _app(_evolution_script, arena_evo=evo)
    select = app.selectbox[0]
    assert select.label == "Best weights of generation"
    assert select.value == 4  # the last by default
    assert select.options == [
        "Generation 4 · 20 % vs benchmark (last)",
        "Generation 3 · 30 % vs benchmark",
        "Generation 2 · 0 % vs benchmark",
        "Generation 1 · 60 % vs benchmark (best vs benchmark)",
    ]
    assert tuple(app.dataframe[0].value["weight"]) == generations[3].best_weights
    select.set_value(1).run()
    assert not app.exception
    assert tuple(app.dataframe[0].value["weight"]) == generations[0].best_weights
