"""Streamlit helpers of the Arena page: option selects, executor choice, runs kept in session
state, live progress, and the hand-offs to the game pages (replay a game, use evolved weights).

The logic they draw (caps and study checks, option defaults) lives in
:mod:`lib.games.arena.limits` and :mod:`lib.games.arena.options`; nothing here names a game.

Hand-off to the game pages (:mod:`lib.ui.game_page`), through the keys of their
:class:`lib.ui.game_state.GamePageState`:

* its ``session`` holds the page's :class:`GameSession`; a replay puts the finished
  game there (all its positions, so Undo steps back);
* its ``option_key(option)`` are the page's option widgets, set to the replayed game's
  options;
* its ``player(side)`` are a side's player widgets; "use these weights" sets the kind,
  heuristic and weights of a side.
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from lib.errors import InputError
from lib.games.arena import (
    GameRecord,
    MatchConfig,
    journal,
    replay_blocker,
    replay_link_params,
    start_state,
)
from lib.games.arena.agents import MAX_AGENT_BYTES, is_agent
from lib.games.arena.executors import DASK_INSTALL, available_executors
from lib.games.arena.limits import LOCAL_ENV, ArenaCaps
from lib.games.arena.options import (
    format_option_value,
    initial_option_defaults,
    option_label,
    page_options,
)
from lib.games.core import GameSpec, get_game
from lib.games.session import GameSession
from lib.jobs import EVERY, LATEST
from lib.settings import local_mode
from lib.ui.common import user_errors
from lib.ui.game_state import GamePageState
from lib.ui.jobs import run_job
from lib.ui.navigation import page_file


def game_select(games: dict[str, GameSpec], key: str = "arena_w_game") -> GameSpec:
    """A select of the games on the engine (shown by title); returns the chosen spec."""
    name = st.selectbox("Game", list(games), format_func=lambda g: games[g].title, key=key)
    return games[name]


def option_selects(
    spec: GameSpec, key: str, where: Any = st, defaults: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """One select per game option of ``spec``, keyed ``{key}_{option}``.

    Titled and with values named as the spec says (``option_labels``,
    ``option_formats``), as on the game's own page; each starts on its value in
    ``defaults`` (else the first allowed). ``where`` is ``st`` or a column /
    container to draw in. Returns the chosen options as a dict for ``initial_state``.
    """
    defaults = defaults or {}
    return {
        option: where.selectbox(
            option_label(spec, option),
            list(allowed),
            index=list(allowed).index(defaults[option]) if defaults.get(option) in allowed else 0,
            key=f"{key}_{option}",
            format_func=functools.partial(format_option_value, spec, option),
        )
        for option, allowed in spec.options.items()
    }


SHARED = "shared"
"""The executor choice that runs a study, a ladder or an evolution as one job of the server's
shared pool (:mod:`lib.ui.jobs`): its games are played one after another in a worker process."""

EXECUTOR_LABELS = {
    SHARED: "A worker of the server's shared pool",
    "inline": "In this process",
    "process": "Local process pool",
    "dask": "Dask cluster (scheduler address)",
}


@dataclass(frozen=True)
class ExecutorChoice:
    """Where to run: the kind, the pool size and the Dask scheduler address."""

    kind: str = SHARED
    workers: int = 2
    scheduler: str = ""

    def describe(self) -> str:
        """A short description for captions."""
        if self.kind == SHARED:
            return "in a worker process of the server's shared pool"
        if self.kind == "process":
            return f"on a pool of {self.workers} processes"
        if self.kind == "dask":
            return f"on the Dask scheduler at {self.scheduler}"
        return "in this process"


def agent_file_box(key: str, where: Any = st) -> str:
    """A field for the path of a student's agent file: on a local install only ("" when
    hosted, where no visitor's code may run); the path typed, stripped."""
    if not local_mode():
        return ""
    return where.text_input(
        "Agent file (local only)",
        key=key,
        placeholder="examples/greedy_agent.py",
        help=(
            "Your own Python file defining choose_move(state, seconds_left), played in a "
            f"process of its own (at most {MAX_AGENT_BYTES // 1000} KB; a path on this "
            "machine, relative to where the app was started). A crash, a late or an illegal "
            "move loses that game; the per-game table says why. See README: Your own agent."
        ),
    ).strip()


def executor_controls(limits: ArenaCaps) -> ExecutorChoice:
    """Sidebar widgets choosing the executor (only in-process when hosted)."""
    st.subheader("Where to run")
    if limits.executors == ("inline",):
        st.caption(
            "Studies, ladders and evolutions run in a worker process of the server's pool, "
            "shared by every visitor "
            "(it waits for a free worker when all are busy). Run the app with "
            f"{LOCAL_ENV}=1 to use a process pool or a Dask cluster and lift the caps."
        )
        return ExecutorChoice()
    kinds = available_executors(limits.executors)
    if "dask" in limits.executors and "dask" not in kinds:
        st.caption(
            f"A Dask cluster needs Dask, which is not installed here: `{DASK_INSTALL}`, "
            "then restart the app."
        )
    kind = st.radio(
        "Executor",
        [SHARED, *kinds],
        format_func=EXECUTOR_LABELS.get,
        key="arena_w_executor",
        help="The same seed gives the same games on every executor.",
    )
    workers, scheduler = 2, ""
    if kind == "process":
        workers = st.number_input(
            "Worker processes", 1, os.cpu_count() or 2, 2, key="arena_w_workers"
        )
    if kind == "dask":
        scheduler = st.text_input(
            "Scheduler address",
            placeholder="tcp://127.0.0.1:8786",
            key="arena_w_scheduler",
            help=(
                "Start `dask scheduler` and `dask worker ADDRESS` with this repository on "
                "PYTHONPATH (see docs/cluster.md)."
            ),
        ).strip()
    return ExecutorChoice(kind, int(workers), scheduler)


@dataclass
class StudyRun:
    """A study in one visitor's session: its matches and the games finished so far."""

    matches: tuple[MatchConfig, ...]
    records: list[GameRecord] = field(default_factory=list)
    status: str = "running"  # running, done, cancelled
    where: str = "in this process"
    note: str = ""  # what the study builder left out (players over the caps), shown with it
    study_id: str = ""  # its journal (lib.games.arena.journal), "" if it has none

    def keep(self, record: GameRecord) -> None:
        """Add a finished game to the study's journal (nothing is lost if it cannot be)."""
        if self.study_id:
            with contextlib.suppress(OSError):
                journal.append(journal.journal_folder(), self.study_id, record)

    def close_journal(self) -> None:
        """Mark the study's journal as played to its end."""
        if self.study_id:
            with contextlib.suppress(OSError):
                journal.finish(journal.journal_folder(), self.study_id)

    @property
    def total(self) -> int:
        """Games the study was set to play."""
        return sum(m.games for m in self.matches)


def play_resumable(run: Any, key: str, play: Callable[[], None], what: str) -> None:
    """Play ``run`` (a study or a ladder) with Cancel beside it, or offer Resume after a stop.

    ``run`` has ``status`` (running, done, cancelled), ``records`` and ``total``;
    ``play()`` plays its remaining games. A cancelled run says how far it got (the
    ``what`` below are from its finished games) and offers Resume (``<key>_resume``);
    a running one shows Cancel (``<key>_cancel``: any click stops the script). An
    :class:`~lib.errors.InputError` stops it as cancelled; once it ends, the page
    reruns to drop the live view and the Cancel button.
    """
    if run.status == "cancelled":
        st.warning(
            f"Stopped after {len(run.records)} of {run.total} games; the {what} below are "
            "from the finished games."
        )
        if st.button("Resume", key=f"{key}_resume", icon=":material/play_arrow:"):
            run.status = "running"
    if run.status == "running":
        st.button("Cancel", key=f"{key}_cancel", icon=":material/stop:")
        failed = True
        with user_errors():
            play()
            failed = False
        if run.status == "running":  # an InputError (e.g. no Dask scheduler) stopped it
            run.status = "cancelled"
        if not failed:
            st.rerun()


@dataclass
class EvolutionRun:
    """An evolution in one visitor's session: its config and the generations played."""

    config: Any  # lib.games.arena.evolve.EvolutionConfig
    weight_names: tuple[str, ...]
    generations: list[Any] = field(default_factory=list)
    status: str = "running"


def replay_session(record: GameRecord, match: MatchConfig) -> GameSession:
    """A game-page session holding the recorded game, every position included.

    Its options are the page's own choices (:func:`page_options`) and its
    ``replay`` names the match, the game and who played each side (the page
    shows it in a banner and lets no AI move on by itself).
    """
    spec = get_game(match.game)
    options = {**initial_option_defaults(match.game), **match.option_dict}
    # the recorded game's own start (a coin toss is a function of the seed and the game)
    first = start_state(match, record.game)
    if first.to_move != record.first_player:
        raise InputError(
            f"Game {record.game} of {match.label} started with player "
            f"{record.first_player}, but its settings start with player {first.to_move}."
        )
    session = GameSession.new(spec, page_options(match.game, options), seed=record.seed)
    session.states[0] = first
    names = (match.players[0], match.players[1]) if record.a_first else match.players[::-1]
    for text in record.moves.split():
        state = session.state
        session.play(spec.parse_move(text, state), None, who=names[state.to_move])
    sides = ", ".join(f"{side} {name}" for side, name in zip(spec.player_names, names, strict=True))
    session.replay = f"Replay of {match.label}, game {record.game}: {sides}"
    return session


def replay_url(record: GameRecord, match: MatchConfig) -> str:
    """The Arena's address with the parameters that reproduce ``record`` (no moves in it).

    Raises :class:`InputError` for a game that a link cannot reproduce (a time budget).
    """
    base = st.context.url or "arena"  # None outside a browser (AppTest)
    return f"{base}?{urlencode(replay_link_params(record, match))}"


def replay_state(record: GameRecord, match: MatchConfig) -> dict[str, Any]:
    """The session entries that put the recorded game on its game page: the game, its
    options, and the replay's players as the sidebar's (so the page's address names them).
    """
    game = match.game
    session = replay_session(record, match)
    if replay_blocker(match) is None:
        session.replay_link = replay_url(record, match)  # called from the Arena: its address
    players = (match.players[0], match.players[1]) if record.a_first else match.players[::-1]
    players = tuple("human" if is_agent(p) else p for p in players)  # agents play only here
    page = GamePageState(game)
    return {
        **{page.option_key(option): value for option, value in session.options.items()},
        page.SESSION: session,
        page.SPECS: players,
    }


def open_replay(record: GameRecord, match: MatchConfig) -> None:
    """Put the recorded game on its game page and switch to that page.

    The sidebar's players become the replay's (their widgets are drawn again from them);
    the banner beside the board says what is replayed, and the game page offers the link
    that plays it again (when a link can).
    """
    page = GamePageState(match.game)
    sides = tuple(page.player(side).prefix for side in (0, 1))
    for key in [key for key in st.session_state if str(key).startswith(sides)]:
        del st.session_state[key]
    st.session_state.update(replay_state(record, match))
    st.switch_page(page_file(f"{match.game}.py"))


def use_weights(
    game: str,
    heuristic: str,
    weights: Sequence[float],
    options: dict[str, Any],
    side: int = 1,
    depth: int | None = None,
) -> None:
    """Make ``side`` of the game page an alpha-beta player with these heuristic weights."""
    spec = get_game(game)
    names = spec.heuristics[heuristic].weight_names
    page = GamePageState(game)
    player = page.player(side)
    st.session_state[player.KIND] = "alphabeta"
    st.session_state[player.HEURISTIC] = heuristic
    if depth is not None:
        st.session_state[player.DEPTH] = depth
    for name, value in zip(names, weights, strict=True):
        st.session_state[player.weight(heuristic, name)] = float(value)
    for option, value in options.items():
        st.session_state[page.option_key(option)] = value
    page.drop_session()  # a fresh game with the new player
    colour = spec.player_names[side]
    page.leave_notice(
        f"{colour} is now alpha-beta with the evolved weights of '{heuristic}' "
        f"({', '.join(f'{n} {v:g}' for n, v in zip(names, weights, strict=True))}); "
        f"see {colour}'s settings in the sidebar."
    )
    st.switch_page(page_file(f"{game}.py"))


# -- running with live progress ------------------------------------------------------


def _live_study_view(run: StudyRun, table_slot: Any, chart_slot: Any) -> None:
    from lib.games.arena import plots as arena_plots
    from lib.games.arena import summarize

    summary = summarize(run.records, run.matches)
    table_slot.dataframe(summary_view(summary), hide_index=True)
    with chart_slot.container():
        left, right = st.columns(2)
        done = len(run.records)
        left.plotly_chart(arena_plots.win_rate_figure(summary), key=f"arena_live_win_{done}")
        right.plotly_chart(arena_plots.nodes_figure(summary), key=f"arena_live_nodes_{done}")


MOVE_PROGRESS_EVERY = 0.25
"""Seconds between two redraws of a study's progress line while a game is played."""


def move_progress(progress: Any, records: list, total: int) -> Callable[[int, str], None]:
    """An ``on_move`` callback for ``run_tournament`` redrawing ``progress`` now and then.

    The line names the game being played and its move. Redrawing it is also where
    Streamlit stops this run when the visitor left or pressed Stop: the game being
    played (in this process) ends there, not at its last move.
    """
    last = [0.0]

    def on_move(plies: int, move: str) -> None:
        now = time.monotonic()
        if now - last[0] >= MOVE_PROGRESS_EVERY:
            last[0] = now
            done = len(records)
            text = f"{done} of {total} games · game {done + 1} at move {plies}"
            progress.progress(done / total, text=text)

    return on_move


def run_study(run: StudyRun, choice: ExecutorChoice, live_every: float = 1.0) -> None:
    """Play the remaining games of ``run`` with a progress bar and a live table and chart.

    Records are appended to ``run`` (kept in ``st.session_state``) as games
    finish, so a cancel (any rerun interrupts the script) keeps them. On the
    shared pool (``choice.kind == SHARED``) the study is one job: it may wait for a free
    worker (the page says at which position), and a cancel or a closed tab stops it in
    its worker (:func:`lib.ui.jobs.run_job`).
    """
    from lib.games.arena import open_executor, run_tournament

    progress = st.progress(len(run.records) / run.total, text="Starting…")
    table_slot, chart_slot = st.empty(), st.empty()
    last_draw = [0.0]

    def on_game(record: GameRecord, done: int, total: int) -> None:
        run.records.append(record)
        run.keep(record)  # a server restart keeps it (lib.games.arena.journal)
        progress.progress(done / total, text=f"{done} of {total} games ({record.label})")
        now = time.monotonic()
        if now - last_draw[0] >= live_every:
            last_draw[0] = now
            _live_study_view(run, table_slot, chart_slot)

    on_move = move_progress(progress, run.records, run.total)

    run.status = "running"
    run.where = choice.describe()
    if choice.kind == SHARED:
        result = run_job(
            run_tournament,
            (run.matches,),
            {"previous": list(run.records)},
            callbacks={"on_game": (EVERY, on_game), "on_move": (LATEST, on_move)},
        )
        run.records = list(result.records)
        run.status = "done"
        run.close_journal()
        progress.empty()
        table_slot.empty()
        chart_slot.empty()
        return
    with open_executor(choice.kind, workers=choice.workers, scheduler=choice.scheduler) as ex:
        result = run_tournament(
            run.matches, ex, on_game=on_game, previous=list(run.records), on_move=on_move
        )
    run.records = list(result.records)
    run.status = "cancelled" if result.cancelled else "done"
    if run.status == "done":
        run.close_journal()
    progress.empty()
    table_slot.empty()
    chart_slot.empty()


SUMMARY_VIEW_COLUMNS = {
    "label": "match",
    "games": "games",
    "win_pct": "win %",
    "win_ci": "95% CI",  # "59.6–98.2", from win_ci_low and win_ci_high
    "nodes_per_game": "nodes/game",
    "seconds_per_game": "s/game",
    "ebf": "EBF",
    "draw_pct": "draw %",
    "loss_pct": "loss %",
}
"""On-screen summary columns, in order: the course's table (win %, nodes and time per game,
EBF) first. They fit a 1024 px projector with the sidebar open; the time per move and the
mean margin (columns that were cut off there) are in the summary's download."""


def summary_view(summary: Any) -> Any:
    """The summary columns shown on screen, renamed and rounded (downloads keep them all).

    The win rate's interval is one column, ``low–high`` in %, beside the win rate.
    """
    view = summary.assign(
        win_ci=[
            f"{low:.1f}–{high:.1f}"
            for low, high in zip(summary["win_ci_low"], summary["win_ci_high"], strict=True)
        ]
    )
    view = view[list(SUMMARY_VIEW_COLUMNS)].rename(columns=SUMMARY_VIEW_COLUMNS)
    return view.round(
        {
            "win %": 1,
            "draw %": 1,
            "loss %": 1,
            "nodes/game": 0,
            "s/game": 4,
            "EBF": 2,
        }
    )


def run_evolution(run: EvolutionRun, choice: ExecutorChoice) -> None:
    """Play the generations of ``run`` with a progress bar and a live fitness chart.

    Each generation is appended to ``run`` (kept in ``st.session_state``) as it is
    played. On the shared pool (``choice.kind == SHARED``) the evolution is one job,
    :func:`lib.games.arena.evolve.evolve`: it may wait for a free worker (the page says at
    which position), and a rerun or a closed tab stops it in its worker
    (:func:`lib.ui.jobs.run_job`). Otherwise its games run on the chosen executor.
    """
    from lib.games.arena import open_executor
    from lib.games.arena import plots as arena_plots
    from lib.games.arena.evolve import evolve, history_table

    total = run.config.generations
    progress = st.progress(0.0, text="Generation 1…")
    chart_slot = st.empty()
    last_game_line = [0.0]

    def on_generation(generation: Any) -> None:
        run.generations.append(generation)
        done = generation.generation
        progress.progress(done / total, text=f"Generation {done} of {total}")
        history = history_table(run.generations, run.weight_names)
        chart_slot.plotly_chart(
            arena_plots.fitness_figure(history), key=f"arena_live_fitness_{done}"
        )

    def on_game(done: int, games: int) -> None:
        now = time.monotonic()
        if now - last_game_line[0] >= MOVE_PROGRESS_EVERY:
            last_game_line[0] = now
            played = len(run.generations)
            text = f"Generation {played + 1} of {total} · game {done} of {games}"
            progress.progress(played / total, text=text)

    run.status = "running"
    if choice.kind == SHARED:
        result = run_job(
            evolve,
            (run.config,),
            callbacks={"on_generation": (EVERY, on_generation), "on_game": (LATEST, on_game)},
        )
    else:
        with open_executor(choice.kind, workers=choice.workers, scheduler=choice.scheduler) as ex:
            result = evolve(run.config, ex, on_generation=on_generation, on_game=on_game)
    run.generations = list(result.generations)
    run.status = "cancelled" if result.cancelled else "done"
    progress.empty()
    chart_slot.empty()
