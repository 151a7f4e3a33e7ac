"""The Arena page, section by section (``pages/arena.py`` calls these in order).

Each section reads its widgets, calls :mod:`lib.games.arena` / :mod:`lib.games.arena.evolve`
(through the helpers of :mod:`lib.ui.arena_controls`) and renders; what later sections need
is passed on explicitly (an :class:`ArenaContext`, the chosen matches or evolution
settings, the run kept in ``st.session_state``), never kept in globals.

Session state: ``arena_study`` holds the :class:`StudyRun`, ``arena_evo`` the
:class:`EvolutionRun`; widget keys start with ``arena_w_``.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from lib.errors import InputError
from lib.games.arena import (
    MAX_PLIES,
    REPLAY_LINK_PARAMS,
    GameRecord,
    MatchConfig,
    Preset,
    games_table,
    grid_matches,
    journal,
    pair_matches,
    play_game,
    player_pairs,
    presets,
    replay_blocker,
    replay_from_link,
    replay_label,
    summarize,
)
from lib.games.arena import plots as arena_plots
from lib.games.arena.agents import agent_spec, refuse_remote_agents
from lib.games.arena.evolve import (
    EvolutionConfig,
    Generation,
    best_benchmark_generation,
    best_weights_table,
    default_benchmark,
    default_evolved_heuristic,
    evolvable_games,
    evolvable_heuristics,
    history_table,
)
from lib.games.arena.limits import (
    ArenaCaps,
    caps,
    check_evolution,
    check_matches,
    check_weight_range,
    default_preset,
)
from lib.games.arena.limits import leave_out_over_caps as split_over_caps
from lib.games.core import GameSpec, available_games
from lib.games.search.players import parse_player_spec
from lib.ui.arena_controls import (
    SHARED,
    EvolutionRun,
    ExecutorChoice,
    StudyRun,
    agent_file_box,
    executor_controls,
    game_select,
    open_replay,
    option_selects,
    play_resumable,
    replay_url,
    run_evolution,
    run_study,
    summary_view,
    use_weights,
)
from lib.ui.common import csv_download, escape_markdown, query_int, user_errors

STUDY_KEY = "arena_study"
EVOLUTION_KEY = "arena_evo"
LEFT_OUT_KEY = "arena_left_out"  # the study builder's note for the next run
STUDY_PARAM = "study"  # the link's study id: its journal, read after a server restart
SHARED_KEY = "arena_shared"  # (link parameters, record, match) of a shared replay
SOURCES = ["A preset", "A grid", "Free choice"]
MAX_SEED = 2**31 - 1

INTRO = (
    "Let AIs play each other and measure it: win rates with 95 % confidence intervals, "
    "nodes and time per game, the effective branching factor. Start from one of the course's "
    "experiments or pick the players yourself. Colours alternate game by game, and the same "
    "seed replays exactly the same games on any executor."
)

HOW_TO_READ = (
    "- **win %** is player A's; its **95 % interval** is Wilson's score interval "
    "for a proportion: with *n* games and win rate *p̂*, the centre is "
    "(p̂ + z²/2n) / (1 + z²/n) and the half-width "
    "z·√(p̂(1−p̂)/n + z²/4n²) / (1 + z²/n), z = 1.96. Unlike p̂ ± 1.96·√(p̂(1−p̂)/n) "
    "it stays inside 0–100 % and is honest at 0 % and 100 %: 10 wins out of 10 "
    "still only says the true rate is above about 72 %.\n"
    "- **nodes/game** counts every position A's search visited over a game; "
    "**s/game** is A's thinking time (wall clock, so it varies "
    "from run to run and with the machine's load). Their charts use log axes: "
    "each step of the grid is ten times more work. The summary's download also has the "
    "time per move and the mean final margin.\n"
    "- **EBF**, the effective branching factor, is the *b* for which a uniform tree "
    "of the depth searched would have as many nodes; pruning and good move "
    "ordering make it smaller.\n"
    "- Games are numbered from 0 as in the per-game table; colours alternate (A moves "
    "first in even-numbered games), and every game is a "
    "function of the seed and its number: the same seed gives the same games."
)

EVOLUTION_INTRO = (
    "The course's project: evolve the weights of a game's evaluation function (one weight "
    "per feature it scores). Each generation is split into leagues; "
    "inside a league every pair plays both colours and a vector's **fitness** is its score "
    "share. The best vectors and a few of the worst breed the next generation (blend "
    "crossover `floor(α·p1 + (1−α)·p2)`, one weight mutated by ±50 with probability "
    "0.2 / generation). League fitness is relative, so the best vector of each generation "
    "also plays a fixed **benchmark** opponent."
)

CONVERGED_NOTE = (
    " The population has converged: equal vectors draw or split their games, so "
    "best, mean and worst fitness meet at 0.5. More leagues, more 'worst kept' or a "
    "higher mutation rate keep it diverse for longer."
)


@dataclass(frozen=True)
class ArenaContext:
    """What every section needs: this server's caps, the games and where to run."""

    limits: ArenaCaps
    games: dict[str, GameSpec]
    choice: ExecutorChoice


def setup() -> ArenaContext:
    """Read the caps and the games; draw the executor choice in the sidebar."""
    limits = caps()
    games = available_games()
    with st.sidebar:
        choice = executor_controls(limits)
    return ArenaContext(limits, games, choice)


# -- experiments: building the study --------------------------------------------------------


GAMES, SEED, DEPTH = "arena_w_preset_games", "arena_w_preset_seed", "arena_w_preset_depth"
PRESET_LINK_NUMBERS = {"games": GAMES, "seed": SEED, "depth": DEPTH}  # URL name -> widget key
"""The preset form's numbers, mirrored in the URL beside ``?preset=``."""


def preset_numbers(limits: ArenaCaps) -> dict[str, tuple[int, int, int]]:
    """``(default, lowest, highest)`` of each of the preset form's numbers on this server."""
    return {
        "games": (min(20, limits.max_games_per_match), 1, limits.max_games_per_match),
        "seed": (1, 0, MAX_SEED),
        "depth": (min(5, limits.max_depth), 1, limits.max_depth),
    }


def load_study_link(presets: dict[str, Preset], limits: ArenaCaps) -> None:
    """Seed the preset form from the link on the first run; warn about what was changed.

    ``?preset=`` selects the preset; ``?games=``, ``?seed=`` and ``?depth=`` fill
    the form's numbers. A value that is not a whole number, or is outside this
    server's range, is named in a warning with the value used instead.
    """
    for name, (default, low, high) in preset_numbers(limits).items():
        key = PRESET_LINK_NUMBERS[name]
        if key in st.session_state or name not in st.query_params:
            continue
        st.session_state[key], note = query_int(name, default, low, high)
        if note:
            st.warning(note, icon=":material/warning:")
    load_preset_link(presets, limits)


def write_study_link() -> None:
    """Mirror the preset form's numbers in the URL (the values of its last run)."""
    for name, key in PRESET_LINK_NUMBERS.items():
        if key in st.session_state:
            text = str(int(st.session_state[key]))
            if st.query_params.get(name) != text:
                st.query_params[name] = text


def load_preset_link(presets: dict[str, Preset], limits: ArenaCaps) -> None:
    """Select the link's ``?preset=`` on the first run; warn (escaped) if it is unknown."""
    if "arena_w_preset" in st.session_state or "preset" not in st.query_params:
        return
    if st.query_params["preset"] in presets:
        st.session_state["arena_w_preset"] = st.query_params["preset"]
    else:
        st.warning(
            f"The link's preset {escape_markdown(repr(st.query_params['preset']))} is not "
            f"one of this page's presets ({', '.join(presets)}): showing "
            f"{first_preset(presets, limits)} instead.",
            icon=":material/warning:",
        )


def is_first_look() -> bool:
    """A first visit without a preset or a replay in its link (before the study builder is
    drawn): the page then shows the default preset's study without a click."""
    return (
        STUDY_KEY not in st.session_state
        and "arena_w_source" not in st.session_state
        and not any(
            name in st.query_params
            for name in ("preset", "replay", "ladder", STUDY_PARAM, *PRESET_LINK_NUMBERS)
        )
    )


def game_studies(games: dict[str, GameSpec]) -> dict[str, Preset]:
    """The course's studies (presets) of the games this server offers, by key."""
    return {key: preset for key, preset in presets().items() if preset.game in games}


def first_preset(studies: dict[str, Preset], limits: ArenaCaps) -> str:
    """The study a first visit selects: the first that fits ``limits`` and the preset form's
    default depth (so a first visit plays every match of it), else the first."""
    depth = preset_numbers(limits)["depth"][0]
    return default_preset(studies, limits, depth) or next(iter(studies))


def choose_study(ctx: ArenaContext) -> list[MatchConfig] | None:
    """The study builder: a preset, a grid or free choice of players.

    Returns the matches when a form was submitted (possibly empty: no player
    given), None otherwise or when the form's input was refused (the error is shown).
    """
    studies = game_studies(ctx.games)
    # A first visit without a preset in its link runs the default (small) preset once, so
    # the page shows results before anything is clicked.
    first_look = is_first_look()
    load_study_link(studies, ctx.limits)
    source = st.radio("Build the study from", SOURCES, horizontal=True, key="arena_w_source")
    if source == "A preset":
        return preset_form(ctx, studies, run_now=first_look)
    if source == "A grid":
        return grid_form(ctx)
    return free_form(ctx)


def preset_form(
    ctx: ArenaContext, presets: dict[str, Preset], *, run_now: bool = False
) -> list[MatchConfig] | None:
    """One of the course's experiments; players deeper than the caps are left out (said so).

    The chosen preset is mirrored in ``?preset=``. ``run_now`` runs the form's
    defaults as if "Run study" had been pressed.
    """
    limits = ctx.limits
    if "arena_w_preset" not in st.session_state:
        st.session_state["arena_w_preset"] = first_preset(presets, limits)
    key = st.selectbox(
        "Preset",
        list(presets),
        list(presets).index(st.session_state["arena_w_preset"]),
        format_func=lambda k: presets[k].title,
        key="arena_w_preset",
    )
    preset = presets[key]
    st.query_params["preset"] = key
    st.caption(preset.description + f" The course played {preset.games} games per match.")
    with st.form("arena_preset_form"):
        c1, c2, c3 = st.columns(3)
        # the values live in the session (seeded from the link, else the defaults); each
        # widget's default is its value (see lib.ui.common.current)
        for name, (default, _, _) in preset_numbers(limits).items():
            st.session_state.setdefault(PRESET_LINK_NUMBERS[name], default)
        now = st.session_state
        n_games = c1.number_input(
            "Games per match", 1, limits.max_games_per_match, now[GAMES], key=GAMES
        )
        seed = c2.number_input("Seed", 0, MAX_SEED, now[SEED], key=SEED)
        max_depth = c3.slider(
            "Leave out players deeper than",
            1,
            limits.max_depth,
            now[DEPTH],
            key=DEPTH,
            help="Minimax at depth 7 can take tens of seconds per game.",
        )
        submitted = st.form_submit_button("Run study", type="primary")
    write_study_link()
    if not submitted and not run_now:
        return None
    with user_errors():
        return leave_out_over_caps(preset.matches(int(n_games), int(seed), int(max_depth)), limits)
    return None


def leave_out_over_caps(chosen: list[MatchConfig], limits: ArenaCaps) -> list[MatchConfig]:
    """The matches whose players are within this server's depth caps; the rest are named.

    Raises :class:`InputError` (why) if none is left, so the study is not silently empty.
    """
    matches, note = split_over_caps(chosen, limits)
    if note:  # said with the study's results (the page reruns when the study ends)
        st.session_state[LEFT_OUT_KEY] = note
    return matches


def grid_form(ctx: ArenaContext) -> list[MatchConfig] | None:
    """Depth × algorithm × move ordering × heuristic, each against one opponent."""
    limits = ctx.limits
    spec = game_select(ctx.games)
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
            "Move ordering (alpha-beta)", ["off", "on"], ["off"], key="arena_w_grid_ordering"
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
        if not st.form_submit_button("Run study", type="primary"):
            return None
        with user_errors():
            chosen = grid_matches(
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
            return leave_out_over_caps(chosen, limits)
        return None


def free_form(ctx: ArenaContext) -> list[MatchConfig] | None:
    """Players A (one spec per line) against opponent B, or a round robin of them all."""
    limits = ctx.limits
    spec = game_select(ctx.games)
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
                "expectimax, mcts" + "".join(f", {k}" for k in spec.players) + "; keys: depth, "
                "heuristic (" + ", ".join(spec.heuristics) + "), weights (a/b/c), "
                "ordering, tt, beam, time; mcts: sims, time, c, rollout (random or "
                "heuristic), seed — e.g. mcts:sims=2000; formula: your own evaluation "
                "over the game's features, e.g. alphabeta:formula=lines + 2*centre "
                "(write a comma inside it as %2C)."
            ),
        )
        opponent = right.text_input("Opponent B", "random", key="arena_w_opponent")
        agent = agent_file_box("arena_w_agent", right)
        round_robin = right.toggle(  # a short label: the long one was cut at 1024 px
            "Round robin",
            False,
            key="arena_w_round_robin",
            help="Every pair among the A players and B plays a match "
            "(otherwise each A player plays B).",
        )
        c1, c2, c3 = st.columns(3)
        n_games = c1.number_input(
            "Games per match", 1, limits.max_games_per_match, 10, key="arena_w_free_games"
        )
        seed = c2.number_input("Seed", 0, 2**31 - 1, 1, key="arena_w_free_seed")
        max_plies = c3.number_input(
            "Ply limit (then a draw)", 10, MAX_PLIES, MAX_PLIES, key="arena_w_plies"
        )
        if not st.form_submit_button("Run study", type="primary"):
            return None
        with user_errors():
            agents = [agent_spec(agent)] if agent else []
            return pair_matches(
                game_name,
                player_pairs(players_a.splitlines() + agents, opponent, round_robin),
                games=int(n_games),
                seed=int(seed),
                options=options,
                max_plies=int(max_plies),
            )
        return None


# -- experiments: running ---------------------------------------------------------------


def accept_study(
    matches: list[MatchConfig], limits: ArenaCaps, executor: str = SHARED
) -> StudyRun | None:
    """A new run of ``matches`` kept in the session, or None (a warning or error shown).

    ``executor`` is the kind chosen to run it (agent files do not go to a Dask cluster).
    """
    note = st.session_state.pop(LEFT_OUT_KEY, "")
    with user_errors():
        if not matches:
            st.warning("Give at least one player A.")
            return None
        check_matches(matches, limits)
        refuse_remote_agents(executor, matches)
        run = StudyRun(tuple(matches), note=note)
        st.session_state[STUDY_KEY] = run
        start_journal(run)
        return run
    return None


def start_journal(run: StudyRun) -> None:
    """Give ``run`` a journal of its finished games (:mod:`lib.games.arena.journal`) and put
    its id in the link, so a page that reconnects to a restarted server gets them back."""
    study = journal.new_study_id()
    try:
        journal.start(journal.journal_folder(), study, run.matches)
    except (OSError, InputError):  # no writable folder: the study runs without a journal
        st.query_params.pop(STUDY_PARAM, None)
        return
    run.study_id = study
    st.query_params[STUDY_PARAM] = study


def restore_study() -> StudyRun | None:
    """The study of the link's ``study=`` read from its journal, when this session has none:
    the server restarted while it ran. Says what was kept and what was lost."""
    study = st.query_params.get(STUDY_PARAM)
    if study is None or STUDY_KEY in st.session_state:
        return None
    try:
        kept = journal.read(journal.journal_folder(), study)
    except InputError:
        kept = None
    if kept is None or not kept.matches:
        st.query_params.pop(STUDY_PARAM, None)
        st.warning(
            "This link's study is no longer on this server (its games are kept for a day "
            "after the last one): run it again below."
        )
        return None
    status = "done" if kept.done else "cancelled"
    run = StudyRun(kept.matches, list(kept.records), status=status, study_id=study)
    st.session_state[STUDY_KEY] = run
    if not kept.done and not kept.restarted:  # its session is another tab's, on this server
        st.info(
            f"This study runs, or was stopped, in another tab: its {len(kept.records)} "
            f"finished games of {kept.total} so far are below."
        )
    elif not kept.done:
        lost = kept.total - len(kept.records)
        st.warning(
            f"The server restarted while this study ran. The {len(kept.records)} games it "
            f"had finished were kept (below, with their CSV); the other {lost} of its "
            f"{kept.total} games, the ones being played then included, were lost. "
            "**Resume** plays them."
        )
    return run


def run_study_section(ctx: ArenaContext, matches: list[MatchConfig] | None) -> StudyRun | None:
    """Start, resume or report the session's study; returns it (None before the first).

    A run still marked running when the script starts again was interrupted
    (Cancel, or any other click): it becomes cancelled, keeps its finished
    games and offers Resume. While it runs, a Cancel button and the live
    progress show; when it ends the page reruns to drop them.
    """
    run: StudyRun | None = st.session_state.get(STUDY_KEY) or restore_study()
    if run is not None and run.status == "running" and matches is None:
        run.status = "cancelled"
    if matches is not None:
        run = accept_study(matches, ctx.limits, ctx.choice.kind) or run
    if run is not None:
        play_resumable(run, "arena_w", lambda: run_study(run, ctx.choice), "results")
    return run


# -- experiments: results -----------------------------------------------------------------


GAMES_OPEN_KEY = "arena_w_games_open"  # the per-game results' expander (tests set it open)


def show_study_results(ctx: ArenaContext, run: StudyRun | None) -> None:
    """The summary table, its explanation, four charts, the downloads and the replays.

    Nothing is shown before a study has finished a game.
    """
    if run is None or not run.records:
        return
    summary = summarize(run.records, run.matches)
    if run.status == "done":
        st.success(f"Played {len(run.records)} games {escape_markdown(run.where)}.")
    if run.note:
        st.info(escape_markdown(run.note))
    forfeits = [r for r in run.records if r.forfeit]
    if forfeits:  # an agent file that crashed, ran late or played an illegal move
        st.warning(
            escape_markdown(
                f"{len(forfeits)} of {len(run.records)} games lost by forfeit, e.g. "
                f"{forfeits[0].label}, game {forfeits[0].game}: {forfeits[0].forfeit}. The "
                "per-game results (forfeit column) name each reason."
            )
        )
    st.dataframe(summary_view(summary), hide_index=True, key="arena_summary_table")
    with st.expander("How to read these numbers"):
        st.markdown(HOW_TO_READ)
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
    # drawn only while open: its table and the replay link's code box (the browser's code
    # highlighter, 1.5 MB) were a large part of a first visit's wait
    games_box = st.expander("Per-game results and replays", key=GAMES_OPEN_KEY, on_change="rerun")
    if games_box.open:
        with games_box:
            st.dataframe(per_game, hide_index=True, key="arena_games_table")
            replay_picker(ctx, run)


def replay_picker(ctx: ArenaContext, run: StudyRun) -> None:
    """Choose a finished game and open it on its game page (Undo steps back)."""
    labels = {i: replay_label(r) for i, r in enumerate(run.records)}
    chosen = st.selectbox(
        "Game to replay", list(labels), format_func=labels.get, key="arena_w_replay"
    )
    record = run.records[chosen]
    match = run.matches[record.match]
    replay_button(ctx, record, match, "arena_w_replay_go")
    share_link(record, match)


def replay_button(ctx: ArenaContext, record: GameRecord, match: MatchConfig, key: str) -> None:
    """A button opening ``record`` on its game page (Undo steps back)."""
    if st.button(
        f"Replay on the {ctx.games[match.game].title.removeprefix('The ')} page",
        key=key,
        icon=":material/replay:",
        help="Opens the game page with this game on the board; Undo and Forward step through it.",
    ):
        with user_errors():
            open_replay(record, match)


def share_link(record: GameRecord, match: MatchConfig) -> None:
    """The link to this replay, to copy (or why a game with a time budget has none)."""
    blocker = replay_blocker(match)
    if blocker:
        st.caption(escape_markdown(blocker))
        return
    st.markdown("**Link to share this replay**")
    st.code(replay_url(record, match), language=None, wrap_lines=True)
    st.caption(
        "It opens the Arena with this game played again from its players, seed and game "
        "number (the moves are not in the link)."
    )


def load_shared_replay(limits: ArenaCaps) -> tuple[GameRecord, MatchConfig] | None:
    """The game a replay link names, played again once per link (an error is shown)."""
    params = {
        name: st.query_params[name]
        for name in st.query_params
        if name in REPLAY_LINK_PARAMS or name.startswith("o_")
    }
    link = tuple(sorted(params.items()))
    kept = st.session_state.get(SHARED_KEY)
    if kept is not None and kept[0] == link:
        return kept[1], kept[2]
    with user_errors():
        match, number, first = replay_from_link(params)
        check_matches([match], limits)
        # one game of deep searches can take a while: say which move it is at
        slot = st.empty()
        with slot.status(
            f"Playing game {number} of {escape_markdown(match.label)} again…", expanded=True
        ):
            moves = st.empty()
            record = play_game(
                match,
                number,
                on_move=lambda plies, move: moves.caption(
                    f"{plies} moves played (last: {escape_markdown(move)})"
                ),
            )
        slot.empty()
        st.session_state[SHARED_KEY] = (link, record, match)
        if first is not None and first != record.first_player:
            st.warning(
                f"The link says player {first} moved first, but this game starts with player "
                f"{record.first_player}: the app's rules or players changed since the link "
                "was made, so this is not the same game."
            )
        return record, match
    return None


def close_shared_replay() -> None:
    """Drop the shared replay and its link parameters (the Close button's callback)."""
    st.session_state.pop(SHARED_KEY, None)
    for name in list(st.query_params):
        if name in REPLAY_LINK_PARAMS or name.startswith("o_"):
            del st.query_params[name]


def shared_replay_section(ctx: ArenaContext) -> None:
    """A replay link's game: who played, the result, the moves and a button to watch it."""
    if "replay" not in st.query_params:
        return
    shared = load_shared_replay(ctx.limits)
    if shared is None:
        st.button("Close", key="arena_w_shared_close_bad", on_click=close_shared_replay)
        return
    record, match = shared
    spec = ctx.games[match.game]
    labels = [parse_player_spec(player).label() for player in match.players]  # "Alpha-beta d3"
    names = labels if record.a_first else labels[::-1]
    sides = ", ".join(
        f"{colour} {escape_markdown(name)}"
        for colour, name in zip(spec.player_names, names, strict=True)
    )
    a_colour = 0 if record.a_first else 1
    winner = {"A": a_colour, "B": 1 - a_colour}.get(record.winner)  # the winning colour
    result = (  # the colour too: both players may have the same label
        f"{spec.player_names[winner]} ({escape_markdown(names[winner])}) won"
        if winner is not None
        else "a draw"
    )
    options = ", ".join(f"{name} {value}" for name, value in match.options)
    with st.container(border=True, key="arena_shared_replay"):
        st.markdown(
            f"**Shared replay: game {record.game} of {escape_markdown(match.label)}** "
            f"({spec.title}{', ' + escape_markdown(options) if options else ''}, seed "
            f"{match.seed}), played again from its players and seed: {sides}. "
            f"Result: {result} after {record.plies} moves"
            + (" (the ply limit was reached)." if record.truncated else ".")
        )
        with st.expander("Moves"):
            st.markdown(escape_markdown(record.moves) or "(none)")
        with st.container(horizontal=True):
            replay_button(ctx, record, match, "arena_w_shared_go")
            st.button(
                "Close",
                key="arena_w_shared_close",
                icon=":material/close:",
                on_click=close_shared_replay,
            )


# -- evolution ----------------------------------------------------------------------------


def choose_evolution(ctx: ArenaContext) -> EvolutionConfig | None:
    """The evolution settings: game, heuristic and the form.

    Returns the settings when the form was submitted and they are within the
    caps, None otherwise (an error is shown for refused settings).
    """
    limits = ctx.limits
    weighted = evolvable_games(ctx.games)
    game = st.selectbox(
        "Game", list(weighted), format_func=lambda g: weighted[g].title, key="arena_w_evo_game"
    )
    spec = weighted[game]
    heuristics = evolvable_heuristics(spec)
    heuristic = st.selectbox(
        "Heuristic to evolve",
        heuristics,
        index=heuristics.index(default_evolved_heuristic(spec)),
        key=f"arena_w_evo_heuristic_{game}",
    )
    st.caption(
        spec.heuristics[heuristic].description
        + " Weights: "
        + ", ".join(spec.heuristics[heuristic].weight_names)
        + "."
    )
    with st.form("arena_evo_form"):
        c1, c2, c3, c4 = st.columns(4)
        options = option_selects(
            spec, f"arena_w_evo_opt_{game}", c1, defaults=dict(spec.evolve_options)
        )
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
        seed = c4.number_input("Seed", 0, 2**31 - 1, 0, key="arena_w_evo_seed")
        elite = c1.number_input("Best kept", 0, limits.max_population, 4, key="arena_w_elite")
        worst = c2.number_input(
            "Worst kept as parents", 0, limits.max_population, 2, key="arena_w_worst"
        )
        mutation = c3.number_input("Mutation (÷ generation)", 0.0, 1.0, 0.2, key="arena_w_mut")
        per_pair = c4.number_input("Games per pair", 1, 10, 2, key="arena_w_per_pair")
        c1, c2 = st.columns([3, 1])
        benchmark = c1.text_input(
            "Benchmark opponent", default_benchmark(spec), key=f"arena_w_bench_{game}"
        )
        bench_games = c2.number_input("Benchmark games", 0, 100, 10, key="arena_w_bench_games")
        if not st.form_submit_button("Evolve", type="primary"):
            return None
        with user_errors():
            check_weight_range(low, high)
            config = EvolutionConfig(
                game=game,
                options=options,
                heuristic=heuristic,
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
                seed=int(seed),
            )
            check_evolution(config, limits)
            return config
        return None


def run_evolution_section(ctx: ArenaContext, config: EvolutionConfig | None) -> EvolutionRun | None:
    """Run a newly submitted evolution (with Cancel and live progress); returns the session's.

    A run still marked running when the script starts again was cancelled.
    """
    evo: EvolutionRun | None = st.session_state.get(EVOLUTION_KEY)
    if evo is not None and evo.status == "running" and config is None:
        evo.status = "cancelled"
    if config is not None:
        evo = EvolutionRun(config, config.weight_names())
        st.session_state[EVOLUTION_KEY] = evo
        st.button("Cancel", key="arena_w_evo_cancel", icon=":material/stop:")
        failed = True
        with user_errors():
            run_evolution(evo, ctx.choice)
            failed = False
        if evo.status == "running":
            evo.status = "cancelled"
        if not failed:
            st.rerun()
    return evo


def generation_label(generation: Generation, last: int, strongest: int | None) -> str:
    """How the generation select names a generation: its number, benchmark score and role."""
    parts = [f"Generation {generation.generation}"]
    if generation.benchmark_score is not None:
        parts.append(f"{100 * generation.benchmark_score:.0f} % vs benchmark")
    roles = [
        role
        for role, number in (("last", last), ("best vs benchmark", strongest))
        if number == generation.generation
    ]
    return " · ".join(parts) + (f" ({', '.join(roles)})" if roles else "")


def choose_generation(evo: EvolutionRun) -> Generation:
    """A select of the generation whose best weights are shown, downloaded and used.

    The last generation is the default; the one whose best vector scored most
    against the fixed benchmark is marked, since league fitness is relative and the
    last generation's best is not always the strongest.
    """
    by_number = {g.generation: g for g in evo.generations}
    last = evo.generations[-1].generation
    strongest = best_benchmark_generation(evo.generations)
    number = st.selectbox(
        "Best weights of generation",
        list(reversed(by_number)),
        format_func=lambda n: generation_label(by_number[n], last, strongest),
        # a new run (or one more generation) starts from its last generation again
        key=f"arena_w_evo_generation_{hash((evo.config, last))}",
        help="Each generation's best vector by league fitness. League fitness is relative "
        "to the population, so the benchmark score says which one beat a fixed opponent most.",
    )
    return by_number[number]


def show_evolution_results(ctx: ArenaContext, evo: EvolutionRun | None) -> None:
    """The fitness and weight charts, the best weights, the downloads and "use these weights".

    Nothing is shown before an evolution has played a generation.
    """
    if evo is None or not evo.generations:
        return
    if evo.status == "cancelled":
        st.warning(f"Stopped after {len(evo.generations)} of {evo.config.generations} generations.")
    history = history_table(evo.generations, evo.weight_names)
    st.plotly_chart(arena_plots.fitness_figure(history), key="arena_chart_fitness")
    st.plotly_chart(
        arena_plots.weights_figure(history, evo.weight_names), key="arena_chart_weights"
    )
    distinct = int(history["distinct_vectors"].iloc[-1])
    st.caption(
        f"The last generation holds {distinct} distinct weight vectors out of "
        f"{evo.config.population}." + (CONVERGED_NOTE if distinct == 1 else "")
    )
    chosen = choose_generation(evo)
    best = chosen.best_weights
    best_table = best_weights_table(evo.weight_names, best)
    st.dataframe(best_table, hide_index=True, key="arena_best_weights")
    spec = ctx.games[evo.config.game]
    with st.container(horizontal=True):
        csv_download(history, "evolution_history.csv", "Download history (CSV)", "arena_dl_evo")
        csv_download(
            best_table,
            f"best_weights_generation_{chosen.generation}.csv",
            "Download best weights (CSV)",
            "arena_dl_best",
        )
        if st.button(
            f"Use these weights on the {spec.title} page",
            key="arena_w_use_weights",
            icon=":material/input:",
            help=f"{spec.player_names[1]} becomes alpha-beta with them.",
        ):
            with user_errors():
                use_weights(
                    evo.config.game, evo.config.heuristic_name(), best, evo.config.option_dict
                )
