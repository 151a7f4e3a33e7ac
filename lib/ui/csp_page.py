"""The constraint-satisfaction page's parts: settings (in the link), a run, its steps, the table.

The page chooses a problem (Australia, the US states, n-queens, a Sudoku typed
or bundled, the zebra puzzle) and the techniques, runs the textbook search
(:func:`lib.csp.runs.traced_run`; on the server's job pool, with progress and
Cancel, unless the problem is tiny), and steps through its events with a slider
and ◀ ▶ buttons: the picture shows the assignment and what is left of each
domain, the code panel marks the line the step is, and the counts say how much
work the run did. Below, the comparison table of :mod:`lib.csp.compare`.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from lib.csp import compare, plots, runs
from lib.csp.problems import MAX_QUEENS, PROBLEMS
from lib.csp.search import INFERENCE_NAMES, INFERENCES
from lib.csp.sudoku import bundled, check_givens, format_grid, parse_grid
from lib.csp.trace import replay
from lib.errors import InputError
from lib.jobs import EVERY, LATEST
from lib.links import LinkField, shown
from lib.ui.code_view import code_view
from lib.ui.common import (
    csv_download,
    current,
    keep_widget_values,
    read_query,
    user_errors,
    write_query,
)
from lib.ui.common import escape_markdown as md
from lib.ui.jobs import run_job
from lib.ui.presentation import presenting, settings_block

ALGORITHMS = ("backtracking", "min-conflicts")
TYPED = "Type or paste a grid"
DEFAULT_PUZZLE = "Norvig hardest 7"
SCHEMA: tuple[LinkField, ...] = (
    LinkField("problem", str, "australia", choices=tuple(PROBLEMS)),
    LinkField("n", int, 8, low=4, high=MAX_QUEENS),
    LinkField("puzzle", str, DEFAULT_PUZZLE, expected="a bundled puzzle's name"),
    LinkField("grid", str, "", expected="81 characters: digits, . or 0 for blanks"),
    LinkField("algorithm", str, "backtracking", choices=ALGORITHMS),
    LinkField("mrv", bool, False),
    LinkField("degree", bool, False),
    LinkField("lcv", bool, False),
    LinkField("inference", str, "none", choices=INFERENCES),
    LinkField("seed", int, 0, low=0, high=1_000_000),
)
KEY = "csp_w_"  # widget keys: csp_w_<link name>
STEP_KEY = "csp_w_step"
IN_PROCESS = {"australia", "zebra"}  # always instant; the others go to the job pool


def load_link_settings() -> list[str]:
    """On a session's first run, seed the widgets from the link; the notes on bad values."""
    keep_widget_values(KEY + field.name for field in SCHEMA)
    if "csp_seeded" in st.session_state:
        return []
    values, notes = read_query(SCHEMA)
    puzzle = values["puzzle"]
    if puzzle not in bundled() and puzzle != TYPED:
        instead = "the link's grid" if values["grid"] else DEFAULT_PUZZLE
        notes.append(
            f"The link's puzzle={md(shown(puzzle))} is not a bundled one; using {instead}."
        )
        values["puzzle"] = DEFAULT_PUZZLE
    if values["grid"]:  # a grid in the link is the puzzle
        values["puzzle"] = TYPED
    for name, value in values.items():
        st.session_state[KEY + name] = value
    st.session_state["csp_seeded"] = True
    return notes


def _value(name: str) -> Any:
    field = next(f for f in SCHEMA if f.name == name)
    return current(KEY + name, field.default)


def choose_settings() -> runs.Settings | None:
    """The settings widgets (hidden in the presentation view); None while the grid is wrong."""
    with settings_block("csp_settings"):
        left, right = st.columns(2)
        with left:
            keys = list(PROBLEMS)
            problem = st.selectbox(
                "Problem",
                keys,
                index=keys.index(_value("problem")),
                format_func=lambda k: PROBLEMS[k].title,
                key=KEY + "problem",
            )
            st.caption(PROBLEMS[problem].about)
            n, grid = int(_value("n")), ""
            if problem == "queens":
                n = st.slider("Queens (n)", 4, MAX_QUEENS, value=n, key=KEY + "n")
            if problem == "sudoku":
                grid = _sudoku_input()
                if grid is None:
                    return None
        with right:
            algorithm = st.radio(
                "Algorithm",
                ALGORITHMS,
                horizontal=True,
                key=KEY + "algorithm",
                index=ALGORITHMS.index(_value("algorithm")),
            )
            backtracking = algorithm == "backtracking"
            c1, c2, c3 = st.columns(3)
            mrv = c1.checkbox(
                "MRV",
                value=_value("mrv"),
                key=KEY + "mrv",
                disabled=not backtracking,
                help="Minimum remaining values: the variable with fewest values left",
            )
            degree = c2.checkbox(
                "Degree",
                value=_value("degree"),
                key=KEY + "degree",
                disabled=not backtracking,
                help="The variable with most unassigned neighbours (MRV's tie-break)",
            )
            lcv = c3.checkbox(
                "LCV",
                value=_value("lcv"),
                key=KEY + "lcv",
                disabled=not backtracking,
                help="Least-constraining value first",
            )
            inference = st.radio(
                "Inference",
                INFERENCES,
                horizontal=True,
                key=KEY + "inference",
                index=INFERENCES.index(_value("inference")),
                format_func=INFERENCE_NAMES.get,
                disabled=not backtracking,
            )
            seed = int(_value("seed"))
            if not backtracking:
                seed = st.number_input("Seed", 0, 1_000_000, value=seed, key=KEY + "seed")
    return runs.Settings(problem, n, grid, algorithm, mrv, degree, lcv, inference, int(seed))


def _sudoku_input() -> str | None:
    """The bundled puzzle or the typed grid, checked at once (None with the error shown)."""
    names = [*bundled(), TYPED]
    puzzle = st.selectbox("Puzzle", names, index=names.index(_value("puzzle")), key=KEY + "puzzle")
    if puzzle != TYPED:
        return bundled()[puzzle]
    text = st.text_area(
        "Grid: 81 characters, row by row (digits, . or 0 for a blank; spaces and lines ignored)",
        value=_value("grid"),
        key=KEY + "grid",
        height=110,
        max_chars=2_000,
    )
    try:
        grid = parse_grid(text)
        check_givens(grid)
    except InputError as error:
        st.error(md(error))
        return None
    st.caption(f"{81 - grid.count('0')} givens read.")
    return grid


def write_link(settings: runs.Settings) -> None:
    """Mirror the settings in the page's link."""
    puzzle = st.session_state.get(KEY + "puzzle", DEFAULT_PUZZLE)
    values = {
        "problem": settings.problem,
        "n": settings.n,
        "puzzle": puzzle,
        "grid": settings.grid if puzzle == TYPED else "",
        "algorithm": settings.algorithm,
        "mrv": settings.mrv,
        "degree": settings.degree,
        "lcv": settings.lcv,
        "inference": settings.inference,
        "seed": settings.seed,
    }
    write_query(SCHEMA, values)
    for name in ("grid",):  # an empty grid stays out of the link
        if not values[name] and name in st.query_params:
            del st.query_params[name]


def small(settings: runs.Settings) -> bool:
    """Whether the run is instant (done in the page) rather than sent to the job pool."""
    return settings.problem in IN_PROCESS or (settings.problem == "queens" and settings.n <= 10)


def get_run(settings: runs.Settings) -> runs.TracedRun | None:
    """The run for ``settings``: kept from an earlier rerun, or run now (None if cancelled)."""
    kept = st.session_state.get("csp_run")
    if kept is not None and kept.settings == settings:
        return kept
    if small(settings):
        run = runs.traced_run(settings)
    else:
        cancel = st.empty()  # removed once the run is over
        cancel.button("Cancel", key="csp_w_cancel", icon=":material/stop:")
        status = st.empty()

        def progress(assignments: int) -> None:
            status.caption(f"Searching: {assignments:,} assignments so far…")

        run = None
        with user_errors():
            run = run_job(
                runs.traced_run, (settings,), callbacks={"on_progress": (LATEST, progress)}
            )
        status.empty()
        cancel.empty()
        if run is None:
            return None
    st.session_state["csp_run"] = run
    st.session_state[STEP_KEY] = len(run.events)  # open on the end: the answer first
    return run


def _move(delta: int, last: int) -> None:
    st.session_state[STEP_KEY] = max(0, min(last, int(st.session_state.get(STEP_KEY, 0)) + delta))


def show_counts(run: runs.TracedRun) -> None:
    """The run's outcome in a line and its counts (one line of them in the presentation view)."""
    if run.solution is not None:
        st.success(f"Solved: {run.name}.")
    elif run.gave_up:
        st.warning(f"Gave up: {run.gave_up}.")
    else:
        st.error(f"{run.name} has no solution (the search tried everything).")
    count = run.extra.get("solutions", 1)
    if count == 2:
        st.warning("This Sudoku has more than one solution: the search shows the first it found.")
    elif count is None:
        st.caption("Whether this Sudoku has only one solution was not settled (counting gave up).")
    if presenting():  # one line, so the picture comes up on a projector's first screen
        st.markdown(
            f"**{run.assignments:,}** assignments · **{run.backtracks:,}** backtracks · "
            f"**{run.prunes:,}** values pruned · **{run.checks:,}** checks · "
            f"{run.seconds:.3f} s"
        )
        return
    cols = st.columns(5)
    cols[0].metric("Assignments", f"{run.assignments:,}")
    cols[1].metric("Backtracks", f"{run.backtracks:,}")
    cols[2].metric("Values pruned", f"{run.prunes:,}")
    cols[3].metric("Checks", f"{run.checks:,}")
    cols[4].metric("Seconds", f"{run.seconds:.3f}")


def show_steps(run: runs.TracedRun) -> None:
    """The step-through: slider and ◀ ▶, the picture, the code panel, the event in words."""
    last = len(run.events)
    if last == 0:
        st.info("This run made no step.")
        return
    if run.truncated:
        st.caption(f"Only the first {len(run.events):,} events were kept for stepping.")
    st.session_state[STEP_KEY] = min(int(st.session_state.get(STEP_KEY, last)), last)
    back, slider, forward = st.columns([1, 8, 1], vertical_alignment="bottom")
    back.button("◀", key="csp_w_back", on_click=_move, args=(-1, last), width="stretch")
    step = slider.slider("Step", 0, last, value=current(STEP_KEY, last), key=STEP_KEY)
    forward.button("▶", key="csp_w_next", on_click=_move, args=(1, last), width="stretch")
    state = replay(run.domains, run.events, step - 1)
    sentence = f"**Step {step} of {last}.** {md(runs.describe(state.event))}"
    (st.warning if plots.is_backtrack(state) else st.markdown)(sentence)
    picture, code = st.columns([5, 4])
    with picture:
        height = 560 if presenting() else 420
        figure = plots.figure(run, state, height)
        if figure is None:
            st.dataframe(plots.zebra_table(run, state), width="stretch")
        else:
            st.plotly_chart(figure, key="csp_w_picture", config={"displayModeBar": False})
    with code:
        lines, marks = runs.listing(run.settings.algorithm)
        start = runs.excerpt_start(lines)
        numbers = range(start + 1, len(lines) + 1)
        code_view(lines[start:], runs.line_of(state.event, marks), key="csp_code", numbers=numbers)
    with st.expander("Every variable's remaining domain at this step"):
        table = plots.domains_table(run, state)
        st.dataframe(table, hide_index=True, width="stretch", height=260)
        csv_download(table, "domains.csv", "Download the domains (CSV)", key="csp_w_dl_domains")
    if run.kind == "sudoku" and run.solution is not None:
        with st.expander("The solution as text"):
            digits = "".join(str(run.solution[f"r{i // 9 + 1}c{i % 9 + 1}"]) for i in range(81))
            st.code(format_grid(digits) + "\n\n" + digits, language=None)


COMPARE_KEY = "csp_compare"
COMPARE_ROWS: tuple[str, ...] = tuple(label for label, _ in compare.ROWS)
COMPARE_CAP = 20_000  # assignments per cell on a shared server


def show_comparison() -> None:
    """The comparison table (computed on the job pool on demand, with progress)."""
    st.caption(
        "Assignments made until the first solution, for each problem and combination of "
        "techniques (min-conflicts: the median of five seeds). A cell reading > cap gave up. "
        "AIMA's own table (2nd ed. Figure 5.5) counts consistency checks, not assignments; "
        "its figures are not quoted here because they could not be checked against a source."
    )
    if st.button("Run the comparison", key="csp_w_compare", icon=":material/table:"):
        bar = st.progress(0.0, text="Comparing…")

        def progress(done: int, total: int) -> None:
            bar.progress(done / total, text=f"Comparing: {done} of {total} cells")

        with user_errors():
            cells = run_job(
                compare.compare,
                (COMPARE_ROWS,),
                {"cap": COMPARE_CAP},
                callbacks={"on_progress": (EVERY, progress)},
            )
            st.session_state[COMPARE_KEY] = cells
        bar.empty()
    cells = st.session_state.get(COMPARE_KEY)
    if cells:
        st.dataframe(compare.table(cells), width="stretch")
        csv_download(
            compare.long_table(cells),
            "csp_comparison.csv",
            "Download the comparison (CSV)",
            key="csp_w_dl_compare",
        )
