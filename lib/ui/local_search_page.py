"""The local search page's settings (kept in the link), its run and the run's pictures.

:func:`choose_settings` draws the sidebar (n, algorithm, its settings, seed), seeded
from the link on a session's first run and mirrored in it after. :func:`run` runs the
search: here, with a progress bar and Cancel, or on a hosted server's worker pool when
it is heavy. :func:`show_run` draws the animated board, the landscape of the shown
state's neighbours (small boards), the objective over the steps and the downloads.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from lib.jobs import LATEST
from lib.links import LinkField
from lib.local_search import plots
from lib.local_search.queens import MAX_QUEENS, MIN_QUEENS, check_n
from lib.local_search.solve import (
    ALGORITHMS,
    READABLE_LIMIT,
    Outcome,
    Settings,
    check_algorithm,
    solve,
    source,
)
from lib.local_search.textbook import SCHEDULES, Schedule
from lib.settings import local_mode
from lib.ui.common import (
    csv_download,
    current,
    keep_widget_values,
    read_query,
    user_errors,
    write_query,
)
from lib.ui.jobs import run_job
from lib.ui.presentation import presenting

PREFIX = "ls_w_"
BOARD_LIMIT = 40
"""Most queens drawn on the animated board."""
LANDSCAPE_LIMIT = 16
"""Most queens whose neighbours' landscape is drawn (n x n numbers)."""
POOL_WORK = 2_000_000
"""Estimated neighbour evaluations from which a hosted server runs the search in its pool."""
HOSTED_SECONDS, LOCAL_SECONDS = 60.0, 600.0
"""A run's time limit on a hosted server and on a local install (it stops there)."""

LINK: tuple[LinkField, ...] = (
    LinkField("n", int, 8, low=MIN_QUEENS, high=MAX_QUEENS),
    LinkField("algorithm", str, "sideways", choices=tuple(ALGORITHMS)),
    LinkField("seed", int, 1, low=0, high=2**31 - 1),
    LinkField("sideways", int, 100, low=0, high=10_000),
    LinkField("restarts", int, 1_000, low=0, high=10_000),
    LinkField("tries", int, 100, low=1, high=100_000),
    LinkField("schedule", str, "exponential", choices=SCHEDULES),
    LinkField("t0", float, 2.0, low=0.01, high=1_000.0, digits=3),
    LinkField("rate", float, 0.005, low=0.0, high=1.0, digits=5),
    LinkField("limit", int, 2_000, low=1, high=1_000_000),
    LinkField("beam", int, 10, low=1, high=100),
    LinkField("population", int, 50, low=2, high=1_000),
    LinkField("mutation", float, 0.1, low=0.0, high=1.0, digits=3),
    LinkField("steps", int, 10_000, low=1, high=1_000_000),
    LinkField("greedy", bool, True),
)
"""The page's settings in its link (URL name = widget key without its prefix)."""
FIELDS = {field.name: field for field in LINK}


def _number(label: str, name: str, help_text: str = "", **options: Any) -> Any:
    """A number input for the link field ``name`` (its range; its value kept across runs)."""
    field = FIELDS[name]
    kind = field.kind
    return st.number_input(
        label,
        min_value=kind(field.low),
        max_value=kind(field.high),
        value=current(PREFIX + name, field.default),
        key=PREFIX + name,
        help=help_text or None,
        **options,
    )


def choose_settings() -> dict[str, Any]:
    """The sidebar's settings (link notes shown as warnings); mirrored in the link."""
    keep_widget_values(PREFIX + field.name for field in LINK)
    if not st.session_state.get("ls_link_read"):
        st.session_state["ls_link_read"] = True
        values, notes = read_query(LINK)
        for name, value in values.items():
            st.session_state[PREFIX + name] = value
        st.session_state["ls_link_notes"] = notes
    for note in st.session_state.get("ls_link_notes", []):
        st.warning(note, icon=":material/warning:")
    with st.sidebar:
        st.header("Local search settings")
        values = {"n": _number("Queens (n)", "n", "8 to 1,000,000 (beyond 200: min-conflicts)")}
        names = list(ALGORITHMS)
        values["algorithm"] = st.selectbox(
            "Algorithm",
            names,
            index=names.index(current(PREFIX + "algorithm", "sideways")),
            format_func=lambda name: ALGORITHMS[name].title,
            key=PREFIX + "algorithm",
        )
        values["seed"] = _number("Seed", "seed", "The same seed replays the same run")
        values.update(_algorithm_settings(values["algorithm"]))
    full = {field.name: st.session_state.get(PREFIX + field.name, field.default) for field in LINK}
    full.update(values)
    write_query(LINK, full)
    return full


def _algorithm_settings(algorithm: str) -> dict[str, Any]:
    """The chosen algorithm's own settings."""
    values: dict[str, Any] = {}
    if algorithm in ("sideways", "random-restart"):
        values["sideways"] = _number(
            "Sideways moves in a row (cap)", "sideways", "AIMA allows 100; 0: plain steepest ascent"
        )
    if algorithm == "random-restart":
        values["restarts"] = _number("Restarts at most", "restarts")
    if algorithm == "first-choice":
        values["tries"] = _number("Random neighbours tried per step", "tries")
    if algorithm == "annealing":
        values["schedule"] = st.radio(
            "Schedule",
            SCHEDULES,
            index=SCHEDULES.index(current(PREFIX + "schedule", "exponential")),
            key=PREFIX + "schedule",
            horizontal=True,
            help="exponential: T = T0·e^(−rate·t); linear: T = T0·(1 − t/limit)",
        )
        values["t0"] = _number("Starting temperature T0", "t0", step=0.1, format="%.3f")
        if values["schedule"] == "exponential":
            values["rate"] = _number("Cooling rate", "rate", step=0.001, format="%.5f")
        values["limit"] = _number("Last step (T = 0 from there)", "limit")
    if algorithm == "beam":
        values["beam"] = _number("Beam width k", "beam")
    if algorithm == "genetic":
        values["population"] = _number("Population", "population")
        values["mutation"] = _number("Mutation probability", "mutation", step=0.05, format="%.3f")
    if algorithm in ("beam", "genetic", "min-conflicts"):
        values["steps"] = _number("Steps (generations) at most", "steps")
    if algorithm == "min-conflicts":
        values["greedy"] = st.toggle(
            "Greedy first assignment",
            value=current(PREFIX + "greedy", True),
            key=PREFIX + "greedy",
            help="Each queen on a free row with the fewest conflicts so far (else random rows)",
        )
    return values


def settings_of(values: dict[str, Any]) -> Settings:
    """The algorithm settings the values describe (InputError names a bad one)."""
    return Settings(
        max_sideways=int(values["sideways"]),
        max_restarts=int(values["restarts"]),
        max_tries=int(values["tries"]),
        schedule=Schedule(
            values["schedule"], float(values["t0"]), float(values["rate"]), int(values["limit"])
        ),
        beam_width=int(values["beam"]),
        population=int(values["population"]),
        p_mutation=float(values["mutation"]),
        max_steps=int(values["steps"]),
        greedy=bool(values["greedy"]),
    )


def work(n: int, algorithm: str, settings: Settings) -> float:
    """A rough count of the neighbour evaluations a run may make (to choose where it runs)."""
    if algorithm == "min-conflicts":
        return 3.0 * n * min(settings.max_steps, 1_000) if n > READABLE_LIMIT else n * 50.0
    if algorithm == "annealing":  # one neighbour a step, but a step costs as much as 20
        return 20.0 * settings.schedule.limit
    if algorithm == "first-choice":
        return float(settings.max_tries) * n * n
    if algorithm == "beam":
        return float(settings.beam_width) * n * n * min(settings.max_steps, 200)
    if algorithm == "genetic":
        return float(settings.population) * n * min(settings.max_steps, 2_000)
    climbs = 1 + (settings.max_restarts if algorithm == "random-restart" else 0) / 10
    return climbs * n**3


def _step_cap(algorithm: str, settings: Settings) -> int | None:
    """The most steps a run takes, when its settings say (the progress bar's end)."""
    if algorithm == "annealing":
        return settings.schedule.limit
    if algorithm in ("beam", "genetic", "min-conflicts"):
        return settings.max_steps
    return None


def run(values: dict[str, Any]) -> Outcome | None:
    """The run the settings ask for: kept from an earlier run, or run now (None if refused)."""
    with user_errors():
        n = check_n(int(values["n"]))
        algorithm = check_algorithm(values["algorithm"], n)
        settings = settings_of(values)
        key = (n, algorithm, int(values["seed"]), settings)
        kept = st.session_state.get("ls_run")
        if kept is not None and kept[0] == key:
            return kept[1]
        if st.session_state.get("ls_cancelled") == key:
            st.info("The run was cancelled.")
            if not st.button("Run it again", key=PREFIX + "again", icon=":material/play_arrow:"):
                return None
        st.session_state["ls_cancelled"] = key  # until it finishes
        outcome = _run_now(n, algorithm, int(values["seed"]), settings)
        st.session_state.pop("ls_cancelled", None)
        st.session_state["ls_run"] = (key, outcome)
        return outcome
    return None


def _run_now(n: int, algorithm: str, seed: int, settings: Settings) -> Outcome:
    """Run the search with a progress bar and Cancel (in the worker pool when heavy and hosted)."""
    cap = _step_cap(algorithm, settings)
    area = st.empty()
    with area.container():
        st.button("Cancel", key=PREFIX + "cancel", icon=":material/stop:")
        bar = st.progress(0.0, text=f"{ALGORITHMS[algorithm].title} on {n:,} queens…")

    def progress(steps: int, h: int) -> None:
        fraction = min(1.0, steps / cap) if cap else 0.0
        bar.progress(fraction, text=f"step {steps:,}: {h:,} attacking pairs")

    limit = LOCAL_SECONDS if local_mode() else HOSTED_SECONDS
    try:
        if not local_mode() and work(n, algorithm, settings) >= POOL_WORK:
            return run_job(
                solve,
                (n, algorithm, seed, settings),
                {"time_limit": limit},
                callbacks={"on_step": (LATEST, progress)},
            )
        return solve(n, algorithm, seed, settings, on_step=progress, time_limit=limit)
    finally:
        area.empty()


def _move_step(delta: int, last: int) -> None:
    """``on_click`` of the step buttons."""
    key = PREFIX + "step"
    st.session_state[key] = max(0, min(last, int(st.session_state.get(key, 0)) + delta))


def show_run(outcome: Outcome) -> None:
    """The run's summary, board (animated), landscape, objective chart and downloads."""
    verdict = "solved" if outcome.solved else "not solved"
    restarts = (
        f" · **{outcome.restarts:,}** restarts" if outcome.algorithm == "random-restart" else ""
    )
    st.markdown(
        f"**{outcome.h:,}** attacking pairs (**{outcome.history[0]:,}** at the start) · "
        f"**{outcome.steps:,}** steps{restarts} · **{verdict}** · {outcome.seconds:.2f} s",
        help=ALGORITHMS[outcome.algorithm].idea,
    )
    if outcome.stopped:
        st.warning(
            f"The run stopped at its time limit after {outcome.steps:,} steps "
            f"({outcome.seconds:.0f} s); what it reached is shown. Lower the step limits "
            "or the number of queens."
        )
    records = outcome.records
    step = 0
    if records and outcome.n <= BOARD_LIMIT:
        last = len(records) - 1
        key = PREFIX + "step"
        if st.session_state.get("ls_step_run") != id(outcome):
            st.session_state["ls_step_run"] = id(outcome)
            st.session_state[key] = 0
        step = min(int(st.session_state.get(key, 0)), last)
        _show_board(outcome, step, last)
    elif outcome.n > BOARD_LIMIT:
        st.info(
            f"{outcome.n:,} queens are not drawn (the board is drawn up to {BOARD_LIMIT}); "
            "the counts and the objective are below."
        )
    index = records[step].index if records else None
    st.plotly_chart(plots.objective_figure(outcome.history, index), key="ls_objective")
    _downloads(outcome)
    with st.expander("The code that ran (as the book writes it)"):
        st.code(source(outcome.algorithm), language="python")
        if outcome.n > READABLE_LIMIT:
            st.caption(
                "Beyond 200 queens the compiled version in lib/local_search/fast.py ran: the "
                "same choices from the same random numbers, tested equal to this code."
            )


def _show_board(outcome: Outcome, step: int, last: int) -> None:
    """The animated board at ``step``, its step control and (small boards) the landscape."""
    records = outcome.records
    big = presenting()
    height = 520 if big else 360
    if outcome.n <= LANDSCAPE_LIMIT:
        left, right = st.columns(2)
    else:
        left, right = st.container(), None
    with left:
        st.plotly_chart(plots.board_figure(records, step, height), key="ls_board")
    if right is not None:
        with right:
            st.plotly_chart(plots.landscape_figure(records[step].state, height), key="ls_land")
    if len(records) > 1:
        back, slider, forward = st.columns([1, 4, 1], vertical_alignment="bottom")
        back.button("◀", key=PREFIX + "back", on_click=_move_step, args=(-1, last))
        slider.slider("Step shown", 0, last, key=PREFIX + "step")
        forward.button("▶", key=PREFIX + "next", on_click=_move_step, args=(1, last))
    record = records[step]
    move = f"; moved column {record.move[0]}'s queen to row {record.move[1]}" if record.move else ""
    st.caption(
        f"Step {record.index}: {record.h} attacking pairs{move}"
        + (f" ({record.note})" if record.note else "")
        + ". Red queens are attacked. ▶ Play on the board animates the run in your browser; "
        "the step control here chooses the state the landscape and the chart show."
        + (
            f" The first {len(records):,} steps are kept."
            if len(records) < len(outcome.history)
            else ""
        )
    )


def steps_table(outcome: Outcome) -> pd.DataFrame:
    """The run's steps: step, attacking pairs and, where kept, the move, note and state."""
    table = pd.DataFrame({"step": range(len(outcome.history)), "attacking pairs": outcome.history})
    if outcome.records:
        kept = pd.DataFrame(
            {
                "step": [r.index for r in outcome.records],
                "move (column, row)": [
                    r.move and f"{r.move[0]},{r.move[1]}" for r in outcome.records
                ],
                "note": [r.note for r in outcome.records],
                "state (row of each column)": [
                    " ".join(map(str, r.state)) for r in outcome.records
                ],
            }
        )
        table = table.merge(kept, on="step", how="left")
    return table


def _downloads(outcome: Outcome) -> None:
    """The steps (CSV) and, for a kept state, the final board."""
    csv_download(steps_table(outcome), "local_search_steps.csv", "Download the steps (CSV)",
                 key=PREFIX + "dl_steps")  # fmt: skip
