"""Arena: AI-vs-AI studies (the course's tables) and GA-evolved heuristic weights."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lib.games import arena_plots
from lib.games.arena import (
    MAX_PLIES,
    PRESETS,
    MatchConfig,
    games_table,
    grid_matches,
    player_pairs,
    summarize,
)
from lib.games.core import available_games
from lib.games.evolve import EVOLVED_HEURISTICS, EvolutionConfig, history_table
from lib.ui.arena import (
    EvolutionRun,
    StudyRun,
    caps,
    check_evolution,
    check_matches,
    check_weight_range,
    executor_controls,
    game_select,
    open_replay,
    option_selects,
    run_evolution,
    run_study,
    summary_view,
    use_weights,
    within_caps,
)
from lib.ui.common import csv_download, escape_markdown, user_errors

st.title("Arena")
st.markdown(
    "Let AIs play each other and measure it: win rates with 95 % confidence intervals, "
    "nodes and time per game, the effective branching factor. Start from one of the course's "
    "experiments or pick the players yourself. Colours alternate game by game, and the same "
    "seed replays exactly the same games on any executor."
)

limits = caps()
games = available_games()
with st.sidebar:
    choice = executor_controls(limits)

study_tab, evolve_tab = st.tabs(["Experiments", "Evolve weights"])

# -- experiments --------------------------------------------------------------------------
with study_tab:
    presets = {k: p for k, p in PRESETS.items() if p.game in games}
    if "arena_w_preset" not in st.session_state and "preset" in st.query_params:
        if st.query_params["preset"] in presets:
            st.session_state["arena_w_preset"] = st.query_params["preset"]
        else:
            st.warning(
                f"The link's preset {escape_markdown(repr(st.query_params['preset']))} is not "
                f"one of this page's presets ({', '.join(presets)}): showing "
                f"{next(iter(presets))} instead.",
                icon=":material/warning:",
            )
    source = st.radio(
        "Build the study from",
        ["A preset", "A grid", "Free choice"],
        horizontal=True,
        key="arena_w_source",
    )
    matches: list[MatchConfig] | None = None
    if source == "A preset":
        key = st.selectbox(
            "Preset",
            list(presets),
            format_func=lambda k: presets[k].title,
            key="arena_w_preset",
        )
        preset = presets[key]
        st.query_params["preset"] = key
        st.caption(preset.description + f" The course played {preset.games} games per match.")
        with st.form("arena_preset_form"):
            c1, c2, c3 = st.columns(3)
            n_games = c1.number_input(
                "Games per match",
                1,
                limits.max_games_per_match,
                min(20, preset.games),
                key="arena_w_preset_games",
            )
            seed = c2.number_input("Seed", 0, 2**31 - 1, 1, key="arena_w_preset_seed")
            max_depth = c3.slider(
                "Leave out players deeper than",
                1,
                limits.max_depth,
                min(5, limits.max_depth),
                key="arena_w_preset_depth",
                help="Minimax at depth 7 takes tens of seconds per Othello game.",
            )
            if st.form_submit_button("Run study", type="primary"):
                chosen = preset.matches(int(n_games), int(seed), int(max_depth))
                matches = [m for m in chosen if within_caps(m, limits)]
                left_out = [m.label for m in chosen if not within_caps(m, limits)]
                if left_out:
                    st.info(
                        f"Left out (deeper than this server allows for minimax / expectimax, "
                        f"{limits.max_depth_no_pruning}): {', '.join(left_out)}."
                    )
    elif source == "A grid":
        spec = game_select(games)
        game_name = spec.name
        with st.form("arena_grid_form"):
            options = option_selects(spec, f"arena_w_grid_opt_{game_name}")
            c1, c2 = st.columns(2)
            depths = c1.multiselect(
                "Depths", list(range(1, limits.max_depth + 1)), [1, 3], key="arena_w_grid_depths"
            )
            algorithms = c2.multiselect(
                "Algorithms",
                ["minimax", "alphabeta", "expectimax"],
                ["minimax", "alphabeta"],
                key="arena_w_grid_algorithms",
            )
            orderings = c1.multiselect(
                "Move ordering (alpha-beta)",
                ["off", "on"],
                ["off"],
                key="arena_w_grid_ordering",
            )
            heuristics = c2.multiselect(
                "Heuristics",
                list(spec.heuristics),
                [spec.default_heuristic],
                key=f"arena_w_grid_heuristics_{game_name}",
            )
            c1, c2, c3 = st.columns(3)
            opponent = c1.text_input("Opponent", "random", key="arena_w_grid_opponent")
            n_games = c2.number_input(
                "Games per match", 1, limits.max_games_per_match, 10, key="arena_w_grid_games"
            )
            seed = c3.number_input("Seed", 0, 2**31 - 1, 1, key="arena_w_grid_seed")
            if st.form_submit_button("Run study", type="primary"):
                with user_errors():
                    matches = grid_matches(
                        game_name,
                        depths=depths,
                        algorithms=algorithms,
                        orderings=[o == "on" for o in orderings] or [False],
                        heuristics=[None if h == spec.default_heuristic else h for h in heuristics],
                        opponent=opponent.strip(),
                        games=int(n_games),
                        seed=int(seed),
                        options=options,
                    )
    else:
        spec = game_select(games)
        game_name = spec.name
        with st.form("arena_free_form"):
            options = option_selects(spec, f"arena_w_opt_{game_name}")
            left, right = st.columns(2)
            players_a = left.text_area(
                "Players A (one spec per line)",
                "alphabeta:depth=3\nminimax:depth=3\ngreedy",
                key="arena_w_players",
                help=(
                    "kind[:key=value,...] — kinds: random, greedy, minimax, alphabeta, "
                    "expectimax" + "".join(f", {k}" for k in spec.players) + "; keys: depth, "
                    "heuristic (" + ", ".join(spec.heuristics) + "), weights (a/b/c), "
                    "ordering, tt, beam, time."
                ),
            )
            opponent = right.text_input("Opponent B", "random", key="arena_w_opponent")
            round_robin = right.toggle(
                "Round robin (every pair of A players and B)", False, key="arena_w_round_robin"
            )
            c1, c2, c3 = st.columns(3)
            n_games = c1.number_input(
                "Games per match", 1, limits.max_games_per_match, 10, key="arena_w_free_games"
            )
            seed = c2.number_input("Seed", 0, 2**31 - 1, 1, key="arena_w_free_seed")
            max_plies = c3.number_input(
                "Ply limit (then a draw)", 10, MAX_PLIES, MAX_PLIES, key="arena_w_plies"
            )
            if st.form_submit_button("Run study", type="primary"):
                with user_errors():
                    pairs = player_pairs(players_a.splitlines(), opponent, round_robin)
                    matches = [
                        MatchConfig(
                            game_name,
                            pair,
                            games=int(n_games),
                            seed=int(seed),
                            options=options,
                            max_plies=int(max_plies),
                        )
                        for pair in pairs
                    ]

    run: StudyRun | None = st.session_state.get("arena_study")
    if run is not None and run.status == "running" and matches is None:
        run.status = "cancelled"  # the last run was interrupted (Cancel or another click)
    if matches is not None:
        ok = False
        with user_errors():
            if not matches:
                st.warning("Give at least one player A.")
            else:
                check_matches(matches, limits)
                ok = True
        if ok:
            run = StudyRun(tuple(matches))
            st.session_state["arena_study"] = run
    if run is not None and run.status == "cancelled":
        st.warning(
            f"Stopped after {len(run.records)} of {run.total} games; the results below are "
            "from the finished games."
        )
        resume = st.button("Resume", key="arena_w_resume", icon=":material/play_arrow:")
        if resume:
            run.status = "running"
    if run is not None and run.status == "running":
        st.button("Cancel", key="arena_w_cancel", icon=":material/stop:")
        failed = True
        with user_errors():
            run_study(run, choice)
            failed = False
        if run.status == "running":  # an InputError (e.g. no Dask scheduler) stopped it
            run.status = "cancelled"
        if not failed:
            st.rerun()  # redraw without the live view and the Cancel button

    if run is not None and run.records:
        summary = summarize(run.records, run.matches)
        if run.status == "done":
            st.success(f"Played {len(run.records)} games {escape_markdown(run.where)}.")
        st.dataframe(summary_view(summary), hide_index=True, key="arena_summary_table")
        with st.expander("How to read these numbers"):
            st.markdown(
                "- **win %** is player A's; its **95 % interval** is Wilson's score interval "
                "for a proportion: with *n* games and win rate *p̂*, the centre is "
                "(p̂ + z²/2n) / (1 + z²/n) and the half-width "
                "z·√(p̂(1−p̂)/n + z²/4n²) / (1 + z²/n), z = 1.96. Unlike p̂ ± 1.96·√(p̂(1−p̂)/n) "
                "it stays inside 0–100 % and is honest at 0 % and 100 %: 10 wins out of 10 "
                "still only says the true rate is above about 72 %.\n"
                "- **nodes/game** counts every position A's search visited over a game; "
                "**s/game** and **s/move** are A's thinking time (wall clock, so they vary "
                "from run to run and with the machine's load). Their charts use log axes: "
                "each step of the grid is ten times more work.\n"
                "- **EBF**, the effective branching factor, is the *b* for which a uniform tree "
                "of the depth searched would have as many nodes; pruning and good move "
                "ordering make it smaller.\n"
                "- Games are numbered from 0 as in the per-game table; colours alternate (A moves "
                "first in even-numbered games), and every game is a "
                "function of the seed and its number: the same seed gives the same games."
            )
        c1, c2 = st.columns(2)
        c1.plotly_chart(arena_plots.win_rate_figure(summary), key="arena_chart_win")
        c2.plotly_chart(arena_plots.nodes_figure(summary), key="arena_chart_nodes")
        c1.plotly_chart(arena_plots.time_figure(summary), key="arena_chart_time")
        c2.plotly_chart(arena_plots.ebf_figure(summary), key="arena_chart_ebf")
        per_game = games_table(run.records)
        with st.container(horizontal=True):
            csv_download(summary, "arena_summary.csv", "Download summary (CSV)", "arena_dl_summary")
            csv_download(
                per_game, "arena_games.csv", "Download per-game results (CSV)", "arena_dl_games"
            )
        with st.expander("Per-game results and replays"):
            st.dataframe(per_game, hide_index=True, key="arena_games_table")
            labels = {
                i: f"{r.label} · game {r.game} · winner {r.winner}"
                for i, r in enumerate(run.records)
            }
            chosen = st.selectbox(
                "Game to replay", list(labels), format_func=labels.get, key="arena_w_replay"
            )
            record = run.records[chosen]
            match = run.matches[record.match]
            if st.button(
                f"Replay on the {games[match.game].title.removeprefix('The ')} page",
                key="arena_w_replay_go",
                icon=":material/replay:",
                help="Opens the game page with this game on the board; Undo steps back.",
            ):
                with user_errors():
                    open_replay(record, match)

# -- evolution ----------------------------------------------------------------------------
with evolve_tab:
    st.markdown(
        "The course's Othello project: evolve the 9 weights of a positional evaluation. "
        "Each generation is split into leagues; inside a league every pair plays both colours "
        "and a vector's **fitness** is its score share. The best vectors and a few of the worst "
        "breed the next generation (blend crossover `floor(α·p1 + (1−α)·p2)`, one weight "
        "mutated by ±50 with probability 0.2 / generation). League fitness is relative, so the "
        "best vector of each generation also plays a fixed **benchmark** opponent."
    )
    weighted = {
        name: spec
        for name, spec in games.items()
        if any(h.weight_names for h in spec.heuristics.values())
    }
    evo_game = st.selectbox(
        "Game", list(weighted), format_func=lambda g: weighted[g].title, key="arena_w_evo_game"
    )
    evo_spec = weighted[evo_game]
    heuristics = [n for n, h in evo_spec.heuristics.items() if h.weight_names]
    default_h = EVOLVED_HEURISTICS.get(evo_game, evo_spec.default_heuristic)
    evo_heuristic = st.selectbox(
        "Heuristic to evolve",
        heuristics,
        index=heuristics.index(default_h) if default_h in heuristics else 0,
        key=f"arena_w_evo_heuristic_{evo_game}",
    )
    st.caption(
        evo_spec.heuristics[evo_heuristic].description
        + " Weights: "
        + ", ".join(evo_spec.heuristics[evo_heuristic].weight_names)
        + "."
    )
    config = None
    with st.form("arena_evo_form"):
        c1, c2, c3, c4 = st.columns(4)
        evo_options = option_selects(evo_spec, f"arena_w_evo_opt_{evo_game}", c1)
        population = c2.number_input("Population", 4, limits.max_population, 20, key="arena_w_pop")
        leagues = c3.number_input("Leagues", 1, 20, 5, key="arena_w_leagues")
        generations = c4.number_input(
            "Generations", 1, limits.max_generations, 10, key="arena_w_gens"
        )
        depth = c1.number_input(
            "Search depth", 1, limits.max_evolution_depth, 1, key="arena_w_evo_depth"
        )
        # any value may be typed in: a range the wrong way round gets a message on submit
        # (a min/max on the widget would silently refuse the entry)
        low = c2.number_input("Lowest weight", -1000, 1000, -100, key="arena_w_low")
        high = c3.number_input("Highest weight", -1000, 1000, 100, key="arena_w_high")
        evo_seed = c4.number_input("Seed", 0, 2**31 - 1, 0, key="arena_w_evo_seed")
        elite = c1.number_input("Best kept", 0, limits.max_population, 4, key="arena_w_elite")
        worst = c2.number_input(
            "Worst kept as parents", 0, limits.max_population, 2, key="arena_w_worst"
        )
        mutation = c3.number_input("Mutation (÷ generation)", 0.0, 1.0, 0.2, key="arena_w_mut")
        per_pair = c4.number_input("Games per pair", 1, 10, 2, key="arena_w_per_pair")
        c1, c2 = st.columns([3, 1])
        benchmark = c1.text_input(
            "Benchmark opponent",
            "alphabeta:depth=1,heuristic=table" if evo_game == "othello" else "random",
            key=f"arena_w_bench_{evo_game}",
        )
        bench_games = c2.number_input("Benchmark games", 0, 100, 10, key="arena_w_bench_games")
        if st.form_submit_button("Evolve", type="primary"):
            with user_errors():
                check_weight_range(low, high)
                candidate = EvolutionConfig(
                    game=evo_game,
                    options=evo_options,
                    heuristic=evo_heuristic,
                    population=int(population),
                    leagues=int(leagues),
                    generations=int(generations),
                    depth=int(depth),
                    low=int(low),
                    high=int(high),
                    elite=int(elite),
                    worst=int(worst),
                    mutation=float(mutation),
                    games_per_pair=int(per_pair),
                    benchmark=benchmark.strip(),
                    benchmark_games=int(bench_games),
                    seed=int(evo_seed),
                )
                check_evolution(candidate, limits)
                config = candidate

    evo: EvolutionRun | None = st.session_state.get("arena_evo")
    if evo is not None and evo.status == "running" and config is None:
        evo.status = "cancelled"
    if config is not None:
        evo = EvolutionRun(config, config.weight_names())
        st.session_state["arena_evo"] = evo
        st.button("Cancel", key="arena_w_evo_cancel", icon=":material/stop:")
        failed = True
        with user_errors():
            run_evolution(evo, choice)
            failed = False
        if evo.status == "running":
            evo.status = "cancelled"
        if not failed:
            st.rerun()
    if evo is not None and evo.generations:
        if evo.status == "cancelled":
            st.warning(
                f"Stopped after {len(evo.generations)} of {evo.config.generations} generations."
            )
        history = history_table(evo.generations, evo.weight_names)
        st.plotly_chart(arena_plots.fitness_figure(history), key="arena_chart_fitness")
        st.plotly_chart(
            arena_plots.weights_figure(history, evo.weight_names), key="arena_chart_weights"
        )
        distinct = int(history["distinct_vectors"].iloc[-1])
        st.caption(
            f"The last generation holds {distinct} distinct weight vectors out of "
            f"{evo.config.population}."
            + (
                " The population has converged: equal vectors draw or split their games, so "
                "best, mean and worst fitness meet at 0.5. More leagues, more 'worst kept' or a "
                "higher mutation rate keep it diverse for longer."
                if distinct == 1
                else ""
            )
        )
        best = evo.generations[-1].best_weights
        best_table = pd.DataFrame({"feature": list(evo.weight_names), "weight": list(best)})
        st.markdown("**Best weights of the last generation**")
        st.dataframe(best_table, hide_index=True, key="arena_best_weights")
        with st.container(horizontal=True):
            csv_download(history, "evolution_history.csv", "Download history (CSV)", "arena_dl_evo")
            csv_download(
                best_table, "best_weights.csv", "Download best weights (CSV)", "arena_dl_best"
            )
            target = weighted[evo.config.game].title
            if st.button(
                f"Use these weights on the {target} page",
                key="arena_w_use_weights",
                icon=":material/input:",
                help=f"{weighted[evo.config.game].player_names[1]} becomes alpha-beta with them.",
            ):
                with user_errors():
                    use_weights(
                        evo.config.game,
                        evo.config.heuristic_name(),
                        best,
                        evo.config.option_dict,
                    )
