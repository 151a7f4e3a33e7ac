"""The Arena page's "Strength ladder" tab: choose a game and its players, run the round robin
with a progress bar (Cancel / Resume), and show the ranked ratings, the table and downloads.

The ladder itself (roster, schedule, ratings) is :mod:`lib.games.arena.ladder`; its caps
are :func:`lib.games.arena.limits.check_ladder`. Nothing here names a game.

Session state: ``arena_ladder`` holds the :class:`LadderRun`; widget keys start with
``arena_w_ladder_``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd
import streamlit as st

from lib.errors import InputError
from lib.games.arena import GameRecord, MatchConfig, games_table, open_executor, run_tournament
from lib.games.arena import plots as arena_plots
from lib.games.arena.agents import agent_spec, refuse_remote_agents
from lib.games.arena.ladder import (
    DEFAULT_GAMES_PER_PAIR,
    DEFAULT_TIME,
    LadderConfig,
    ladder_players,
    ladder_table,
    player_labels,
)
from lib.games.arena.limits import check_ladder
from lib.games.core import GameSpec
from lib.games.search.players import MAX_TIME_LIMIT
from lib.jobs import EVERY, LATEST
from lib.links import LinkField
from lib.ui.arena_controls import (
    SHARED,
    ExecutorChoice,
    agent_file_box,
    game_select,
    move_progress,
    option_selects,
    play_resumable,
)
from lib.ui.arena_page import MAX_SEED, ArenaContext
from lib.ui.common import csv_download, escape_markdown, read_query, user_errors
from lib.ui.formula_panel import MAX_TEXT as MAX_FORMULA_TEXT
from lib.ui.formula_panel import ladder_formula_box, ladder_formula_player
from lib.ui.jobs import run_job

LADDER_KEY = "arena_ladder"
LADDER_TAB = "Strength ladder"
LINK_READ = "arena_ladder_link_read"
"""Session key, set on the first run: whether the link named a ladder (its settings, read
then, are written back from then on)."""

LADDER_INTRO = (
    "Which player is strongest **at the same time per move**? Every searcher gets the same "
    "clock: alpha-beta with each of the game's evaluation functions deepens move by move "
    "until its time is up (and Monte Carlo tree search simulates, where the game has it). "
    "Random and greedy (one ply) play at once: they are the baselines. Every pair plays a "
    "match with colours alternating, and a rating fitted to all the results ranks them."
)

LADDER_HOW_TO_READ = (
    "- **rating** is a Bradley–Terry fit on the Elo scale: a player rated 400 points above "
    "another is expected to score 10 to 1 against it (a draw counts half a win for each). "
    "Only differences mean something; the ratings are shifted to a mean of 0.\n"
    "- The **95 % interval** comes from the curvature of the fit (its Fisher information): "
    "with few games per pair it is wide, and overlapping intervals do not settle the order.\n"
    "- A player that wins (or loses) every game would get an infinite rating by maximum "
    "likelihood; a weak prior (each rating ~ normal around 0 with a standard deviation of "
    "1000 Elo) keeps it finite. Its interval is then only rough.\n"
    "- **s/move** is the thinking time a player actually used: the searchers' should sit "
    "at the budget. On a busy machine the clock is shared, so the depth a searcher "
    "reaches (and the ranking) can vary from run to run."
)


@dataclass
class LadderRun:
    """A ladder in one visitor's session: its settings, matches and the games finished."""

    config: LadderConfig
    matches: tuple[MatchConfig, ...]
    records: list[GameRecord] = field(default_factory=list)
    status: str = "running"  # running, done, cancelled
    where: str = "in this process"

    @property
    def total(self) -> int:
        """Games the ladder was set to play."""
        return sum(m.games for m in self.matches)


def choose_ladder(ctx: ArenaContext) -> LadderConfig | None:
    """The ladder form: game, options, players, time per move, games per pair and seed.

    Returns the ladder when the form was submitted and it is within this
    server's caps, None otherwise (a refused ladder's reason is shown).
    """
    limits = ctx.limits
    load_ladder_link(ctx)
    spec = game_select(ctx.games, key="arena_w_ladder_game")
    game = spec.name
    roster = ladder_players(game, DEFAULT_TIME, limits.max_depth)
    labels = player_labels(game, roster)
    most_seconds = min(limits.max_move_seconds, MAX_TIME_LIMIT)
    with st.form("arena_ladder_form"):
        options = option_selects(spec, f"arena_w_ladder_opt_{game}")
        chosen = st.multiselect("Players", labels, labels, key=f"arena_w_ladder_players_{game}")
        formula = ladder_formula_box(spec, f"arena_w_ladder_formula_{game}")
        agent = agent_file_box(f"arena_w_ladder_agent_{game}")
        c1, c2, c3 = st.columns(3)
        seconds = c1.number_input(
            "Seconds per move",
            0.05,
            most_seconds,
            min(DEFAULT_TIME, most_seconds),
            step=0.05,
            key="arena_w_ladder_time",
        )
        per_pair = c2.number_input(
            "Games per pair",
            1,
            limits.max_games_per_match,
            DEFAULT_GAMES_PER_PAIR,
            key="arena_w_ladder_games",
            help="Colours alternate: an even number gives every player each colour equally.",
        )
        seed = c3.number_input("Seed", 0, MAX_SEED, 1, key="arena_w_ladder_seed")
        submitted = st.form_submit_button("Run ladder", type="primary")
    if submitted or LADDER_KEY in st.session_state or st.session_state.get(LINK_READ):
        write_ladder_link(spec, labels)
    if not submitted:
        return None
    with user_errors():
        timed = ladder_players(game, float(seconds), limits.max_depth)
        players = tuple(
            player for player, label in zip(timed, labels, strict=True) if label in chosen
        )
        players += ladder_formula_player(spec, formula, float(seconds), limits.max_depth)
        players += (agent_spec(agent, float(seconds)),) if agent else ()
        if len(players) < 2:
            raise InputError("Choose at least two players for the ladder.")
        config = LadderConfig(
            game,
            options=options,
            players=players,
            time_per_move=float(seconds),
            games_per_pair=int(per_pair),
            seed=int(seed),
            depth=limits.max_depth,
        )
        refuse_remote_agents(ctx.choice.kind, check_ladder(config, limits))
        return config
    return None


def run_ladder_section(ctx: ArenaContext, config: LadderConfig | None) -> LadderRun | None:
    """Start, resume or report the session's ladder; returns it (None before the first).

    As with studies, a run still marked running when the script starts again
    was interrupted (Cancel, or any other click): it keeps its finished games
    and offers Resume.
    """
    run: LadderRun | None = st.session_state.get(LADDER_KEY)
    if run is not None and run.status == "running" and config is None:
        run.status = "cancelled"
    if config is not None:
        run = LadderRun(config, tuple(config.matches()))
        st.session_state[LADDER_KEY] = run
    if run is not None:
        play_resumable(run, "arena_w_ladder", lambda: play_ladder(run, ctx.choice), "ratings")
    return run


def play_ladder(run: LadderRun, choice: ExecutorChoice, live_every: float = 2.0) -> None:
    """Play the ladder's remaining games with a progress bar and a live ranking chart.

    Records are appended to ``run`` (kept in ``st.session_state``) as games
    finish, so a cancel keeps them.
    """
    progress = st.progress(len(run.records) / run.total, text="Starting…")
    chart_slot = st.empty()
    last_draw = [time.monotonic()]

    def on_game(record: GameRecord, done: int, total: int) -> None:
        run.records.append(record)
        progress.progress(done / total, text=f"{done} of {total} games")
        now = time.monotonic()
        if now - last_draw[0] >= live_every:
            last_draw[0] = now
            table = ladder_table(run.records, run.matches)
            chart_slot.plotly_chart(
                arena_plots.ladder_figure(table), key=f"arena_live_ladder_{done}"
            )

    run.status = "running"
    run.where = choice.describe()
    on_move = move_progress(progress, run.records, run.total)
    if choice.kind == SHARED:  # one job of the server's pool (queued while workers are busy)
        result = run_job(
            run_tournament,
            (run.matches,),
            {"previous": list(run.records)},
            callbacks={"on_game": (EVERY, on_game), "on_move": (LATEST, on_move)},
        )
    else:
        with open_executor(choice.kind, workers=choice.workers, scheduler=choice.scheduler) as ex:
            result = run_tournament(
                run.matches, ex, on_game=on_game, previous=list(run.records), on_move=on_move
            )
    run.records = list(result.records)
    run.status = "cancelled" if result.cancelled else "done"
    progress.empty()
    chart_slot.empty()


LADDER_VIEW_COLUMNS = {
    "rank": "rank",
    "player": "player",
    "rating": "rating",
    "interval": "95% interval",  # "-120 to 340", from ci_low and ci_high
    "games": "games",
    "wins": "wins",
    "draws": "draws",
    "losses": "losses",
    "score_pct": "score %",
    "seconds_per_move": "s/move",
}
"""On-screen ladder columns, in order (the download keeps them all, the specs included)."""


def ladder_view(table: pd.DataFrame) -> pd.DataFrame:
    """The ranked table as shown: rounded, the interval in one column."""
    view = table.assign(
        interval=[
            f"{low:.0f} to {high:.0f}"
            for low, high in zip(table["ci_low"], table["ci_high"], strict=True)
        ],
        seconds_per_move=[
            None if math.isnan(s) else round(s, 3) for s in table["seconds_per_move"]
        ],
    )
    view = view[list(LADDER_VIEW_COLUMNS)].rename(columns=LADDER_VIEW_COLUMNS)
    return view.round({"rating": 0, "score %": 1})


def show_ladder_results(ctx: ArenaContext, run: LadderRun | None) -> None:
    """The ranked chart, the table, how to read them and the downloads.

    Nothing is shown before a ladder has finished a game.
    """
    if run is None or not run.records:
        return
    config = run.config
    table = ladder_table(run.records, run.matches)
    if run.status == "done":
        options = ", ".join(f"{name} {value}" for name, value in config.options)
        st.success(
            f"Played {len(run.records)} games of {ctx.games[config.game].title}"
            f"{f' ({options})' if options else ''} {run.where}: {config.games_per_pair} per "
            f"pair, {config.time_per_move:g} s per move."
        )
    st.plotly_chart(arena_plots.ladder_figure(table), key="arena_chart_ladder")
    st.dataframe(ladder_view(table), hide_index=True, key="arena_ladder_table")
    with st.expander("How to read the ladder"):
        st.markdown(LADDER_HOW_TO_READ)
        st.caption("Players: " + escape_markdown("; ".join(table["spec"])))
    with st.container(horizontal=True):
        csv_download(table, "strength_ladder.csv", "Download ladder (CSV)", "arena_dl_ladder")
        csv_download(
            games_table(run.records),
            "ladder_games.csv",
            "Download per-game results (CSV)",
            "arena_dl_ladder_games",
        )


# -- the ladder's link --------------------------------------------------------------

LADDER_LINK_PARAMS = ("ladder", "l_players", "l_time", "l_games", "l_seed", "l_formula")
"""The ladder's URL parameters; the game's options add ``lo_<option>`` (e.g. ``lo_size``)."""


def link_tab() -> str | None:
    """The Arena tab a link opens: the ladder's when it names a ladder (else the first)."""
    return LADDER_TAB if "ladder" in st.query_params else None


def _ladder_link_schema(ctx: ArenaContext, game: str, labels: list[str]) -> tuple[LinkField, ...]:
    limits = ctx.limits
    spec = ctx.games[game]
    return (
        LinkField(
            "l_players",
            list,
            labels,
            parse=player_names_parser(labels),
            expected="player names joined by | (" + ", ".join(labels) + ")",
        ),
        LinkField("l_time", float, DEFAULT_TIME, low=0.05, high=_most_seconds(ctx), digits=2),
        LinkField("l_games", int, DEFAULT_GAMES_PER_PAIR, low=1, high=limits.max_games_per_match),
        LinkField("l_seed", int, 1, low=0, high=MAX_SEED),
        *(
            LinkField(f"lo_{name}", str, allowed[0], choices=tuple(allowed))
            for name, allowed in spec.options.items()
        ),
    )


def _most_seconds(ctx: ArenaContext) -> float:
    return min(ctx.limits.max_move_seconds, MAX_TIME_LIMIT)


def player_names_parser(labels: list[str]) -> Callable[[str], list[str]]:
    """A LinkField parser: player names joined by ``|``, each one of ``labels``."""

    def parse(text: str) -> list[str]:
        names = text.split("|")
        if not names or any(name not in labels for name in names):
            raise ValueError(text)
        return [label for label in labels if label in names]  # the roster's order

    return parse


def load_ladder_link(ctx: ArenaContext) -> None:
    """Seed the ladder form from the link once (``?ladder=<game>`` and the ``l_`` values).

    Each value the form cannot use is named in a warning with the value used instead.
    """
    if LINK_READ in st.session_state:  # once per session: later the form's own values win
        return
    st.session_state[LINK_READ] = "ladder" in st.query_params
    if "ladder" not in st.query_params:
        return
    notes: list[str] = []
    game = st.query_params["ladder"]
    if game not in ctx.games:
        notes.append(
            f"The link's ladder={escape_markdown(game)} is not one of "
            f"{', '.join(ctx.games)}; using {next(iter(ctx.games))}."
        )
        game = next(iter(ctx.games))
    labels = player_labels(game, ladder_players(game, DEFAULT_TIME, ctx.limits.max_depth))
    values, problems = read_query(_ladder_link_schema(ctx, game, labels))
    notes.extend(problems)
    state = st.session_state
    state["arena_w_ladder_game"] = game
    state[f"arena_w_ladder_players_{game}"] = values["l_players"]
    state["arena_w_ladder_time"] = float(values["l_time"])
    state["arena_w_ladder_games"] = values["l_games"]
    state["arena_w_ladder_seed"] = values["l_seed"]
    for name in ctx.games[game].options:
        state[f"arena_w_ladder_opt_{game}_{name}"] = values[f"lo_{name}"]
    formula = st.query_params.get("l_formula")
    if formula is not None:
        if len(formula) > MAX_FORMULA_TEXT:
            notes.append(
                f"The link's l_formula= has {len(formula):,} characters, over the limit of "
                f"{MAX_FORMULA_TEXT:,}; left out."
            )
        else:  # only put in the box: it is read (never run as code) when the ladder runs
            state[f"arena_w_ladder_formula_{game}"] = formula
    for note in notes:
        st.warning(note, icon=":material/warning:")


def write_ladder_link(spec: GameSpec, labels: list[str]) -> None:
    """Mirror the ladder form's values (as last submitted) in the URL."""
    state = st.session_state
    game = spec.name
    chosen = state.get(f"arena_w_ladder_players_{game}", labels)
    wanted = {
        "ladder": game,
        "l_players": "|".join(chosen),
        "l_time": f"{float(state.get('arena_w_ladder_time', DEFAULT_TIME)):g}",
        "l_games": str(int(state.get("arena_w_ladder_games", DEFAULT_GAMES_PER_PAIR))),
        "l_seed": str(int(state.get("arena_w_ladder_seed", 1))),
        **{
            f"lo_{name}": str(state.get(f"arena_w_ladder_opt_{game}_{name}", allowed[0]))
            for name, allowed in spec.options.items()
        },
    }
    formula = state.get(f"arena_w_ladder_formula_{game}")
    if formula:
        wanted["l_formula"] = formula
    for name in [*LADDER_LINK_PARAMS, *(n for n in st.query_params if n.startswith("lo_"))]:
        if name in wanted and st.query_params.get(name) != wanted[name]:
            st.query_params[name] = wanted[name]
        elif name not in wanted and name in st.query_params:
            del st.query_params[name]
