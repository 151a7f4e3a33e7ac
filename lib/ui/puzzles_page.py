"""The puzzle page's board and solver: the start board (click, type, shuffle), one run animated.

The start board lives in ``st.session_state`` (:data:`BOARD_KEY`, a tuple);
the sidebar's widgets change it through callbacks, so an unsolvable typed
board is refused at once with the reason and the last good board stays. The
settings (board, algorithm, heuristic) are kept in the link. A run of the
8-puzzle is computed in the page (capped, well under a second for most
algorithms); a 15-puzzle run goes to the server's job pool with a progress
bar and Cancel (:func:`lib.ui.jobs.run_job`).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from lib.errors import InputError
from lib.jobs import LATEST
from lib.links import LinkField
from lib.puzzles.board import (
    Board,
    apply_moves,
    format_board,
    goal_board,
    move_table,
    parse_board,
    shuffle,
    slide,
    solvability,
    width_of,
)
from lib.puzzles.fast import warm_compiled
from lib.puzzles.heuristics import HEURISTICS
from lib.puzzles.korf import korf_instances
from lib.puzzles.plots import board_figure, solution_figure
from lib.puzzles.search import ALGORITHMS, PuzzleResult
from lib.puzzles.solver import run_solve
from lib.ui.common import escape_markdown, keep_widget_values, read_query, write_query
from lib.ui.jobs import run_job
from lib.ui.presentation import presenting

BOARD_KEY = "pz_board"
RESULT_KEY = "pz_result"
ERROR_KEY = "pz_board_error"
CLICKS_KEY = "pz_clicks"
#: AIMA's Figure 3.4 start (blank top-left goal): 26 moves.
DEFAULT_BOARD: Board = (7, 2, 4, 5, 0, 6, 8, 3, 1)
ALGO_KEYS = tuple(ALGORITHMS)
HEURISTIC_KEYS = ("h1", "h2", "lc", "pdb")
#: A readable run in the page stops after this many nodes generated (a few seconds).
PAGE_CAP = 400_000
WIDGETS = ("pz_w_algo", "pz_w_h", "pz_w_seed", "pz_w_moves", "pz_w_korf")


LINK = (
    LinkField("board", str, format_board(DEFAULT_BOARD),
              parse=lambda text: parse_board(text.replace(",", " ")),  # InputError: why not
              expected="a solvable board (9 or 16 tiles, 0 the blank, separated by commas)"),
    LinkField("algo", str, "astar", choices=ALGO_KEYS),
    LinkField("h", str, "h2", choices=HEURISTIC_KEYS),
)  # fmt: skip


def load_link_settings() -> None:
    """Seed the board and widgets from the link on a session's first run (notes for bad values)."""
    keep_widget_values(WIDGETS)
    if st.session_state.get("pz_loaded"):
        return
    st.session_state["pz_loaded"] = True
    values, notes = read_query(LINK)
    board = values["board"] if isinstance(values["board"], tuple) else DEFAULT_BOARD
    st.session_state[BOARD_KEY] = board
    st.session_state["pz_w_algo"] = values["algo"]
    if values["h"] == "pdb" and width_of(board) == 3:
        notes.append(
            "The link's h=pdb (pattern databases) is for the 15-puzzle; using h2 on this "
            "8-puzzle board."
        )
        values["h"] = "h2"
    st.session_state["pz_w_h"] = values["h"]
    for note in notes:
        st.warning(note, icon=":material/warning:")


def share_link() -> None:
    """Mirror the board, algorithm and heuristic in the link."""
    write_query(
        LINK,
        {
            "board": ",".join(map(str, current_board())),
            "algo": st.session_state.get("pz_w_algo", "astar"),
            "h": st.session_state.get("pz_w_h", "h2"),
        },
    )


def current_board() -> Board:
    """The start board of this session."""
    return st.session_state.get(BOARD_KEY, DEFAULT_BOARD)


def _set_board(board: Board) -> None:
    st.session_state[BOARD_KEY] = board
    st.session_state.pop(ERROR_KEY, None)
    st.session_state["pz_w_typed"] = format_board(board)


# --------------------------------------------------------------------------- the sidebar


def _on_size() -> None:
    width = 3 if st.session_state["pz_w_size"] == "8-puzzle" else 4
    if width_of(current_board()) != width:
        _set_board(DEFAULT_BOARD if width == 3 else korf_instances()[11].board)
        if width == 3 and st.session_state.get("pz_w_h") == "pdb":
            st.session_state["pz_w_h"] = "h2"


def _on_typed() -> None:
    try:
        board = parse_board(st.session_state.get("pz_w_typed", ""))
    except InputError as error:
        st.session_state[ERROR_KEY] = str(error)
    else:
        _set_board(board)


def _on_shuffle() -> None:
    width = width_of(current_board())
    _set_board(
        shuffle(width, int(st.session_state["pz_w_moves"]), int(st.session_state["pz_w_seed"]))
    )


def _on_korf() -> None:
    number = int(st.session_state.get("pz_w_korf", 12))
    _set_board(korf_instances()[number - 1].board)


def choose_board() -> Board:
    """The sidebar's board settings; returns the start board."""
    board = current_board()
    st.session_state.setdefault("pz_w_typed", format_board(board))
    st.session_state["pz_w_size"] = "8-puzzle" if len(board) == 9 else "15-puzzle"
    with st.sidebar:
        st.header("Puzzle settings")
        st.radio("Puzzle", ("8-puzzle", "15-puzzle"), key="pz_w_size", on_change=_on_size,
                 horizontal=True)  # fmt: skip
        st.text_input(
            "Start board (row by row, 0 the blank)", key="pz_w_typed", on_change=_on_typed,
            help="Type the tiles row by row, 0 for the blank; press Enter. The goal is "
            "0 1 2 … with the blank top left.",
        )  # fmt: skip
        if ERROR_KEY in st.session_state:
            st.error(escape_markdown(st.session_state[ERROR_KEY]), icon=":material/block:")
        left, right = st.columns(2)
        st.session_state.setdefault("pz_w_seed", 1)
        st.session_state.setdefault("pz_w_moves", 20)
        left.number_input("Seed", 0, 99_999, key="pz_w_seed")
        right.number_input("Moves", 1, 200, key="pz_w_moves")
        st.button("Shuffle from the goal", key="pz_w_shuffle", on_click=_on_shuffle,
                  icon=":material/shuffle:")  # fmt: skip
        if len(board) == 16:
            st.session_state.setdefault("pz_w_korf", 12)
            st.selectbox(
                "Korf's instance", range(1, 101), key="pz_w_korf", on_change=_on_korf,
                help="Korf's 100 random 15-puzzle instances (1985)",
            )  # fmt: skip
    return current_board()


# --------------------------------------------------------------------------- the board


def _on_click(chart_key: str) -> None:
    """A click on the start board: slide the tile clicked into the blank if it is next to it."""
    selection = st.session_state.get(chart_key, {}).get("selection", {})
    points = selection.get("points", []) if selection else []
    if not points:
        return
    square = points[0].get("customdata")
    square = square[0] if isinstance(square, list) else square
    slide_tile(int(square))


def slide_tile(square: int) -> bool:
    """Slide the tile on ``square`` into the blank (if they are neighbours); True if it moved."""
    board = current_board()
    blank = board.index(0)
    if square not in {to for _, to in move_table(width_of(board))[blank]}:
        return False
    _set_board(slide(board, blank, square))
    st.session_state[CLICKS_KEY] = st.session_state.get(CLICKS_KEY, 0) + 1
    return True


def show_start_board(board: Board) -> None:
    """The start board (click a tile beside the blank to slide it) and its solvability."""
    chart_key = f"pz_board_chart_{st.session_state.get(CLICKS_KEY, 0)}"
    size = 340 if presenting() else 300
    st.plotly_chart(
        board_figure(board, size=size, title="Start board"),
        key=chart_key,
        on_select=partial(_on_click, chart_key),
        selection_mode="points",
        config={"displayModeBar": False},
        width="content",
    )
    verdict = solvability(board)
    if board == goal_board(width_of(board)):
        st.caption("This is the goal: shuffle it, type a board or click tiles.")
    else:
        st.caption(f"Solvable: {verdict.reason}" if verdict.solvable else verdict.reason)


# --------------------------------------------------------------------------- one run


def choose_run(board: Board) -> tuple[str, str, bool]:
    """Algorithm and heuristic widgets and the Solve button: ``(algorithm, heuristic, clicked)``."""
    with st.sidebar:
        st.header("Search")
        algorithm = st.selectbox(
            "Algorithm", ALGO_KEYS, key="pz_w_algo", format_func=lambda k: ALGORITHMS[k].label
        )
        options = HEURISTIC_KEYS if len(board) == 16 else HEURISTIC_KEYS[:3]
        if st.session_state.get("pz_w_h") not in options:
            st.session_state["pz_w_h"] = "h2"
        heuristic = st.selectbox(
            "Heuristic", options, key="pz_w_h", format_func=lambda k: HEURISTICS[k].label,
            disabled=not ALGORITHMS[algorithm].uses_heuristic,
        )  # fmt: skip
        clicked = st.button("Solve", key="pz_w_solve", type="primary", icon=":material/play_arrow:")
    return algorithm, heuristic, clicked


@st.cache_resource(show_spinner="Loading the compiled searches and the pattern database…")
def compiled_ready() -> bool:
    """Compile or load the kernels and the pattern database once per server process.

    A pool worker's memory cap is below what numba's compiler needs: the workers must
    find the code in numba's disk cache (put there here, or when the image was built).
    """
    warm_compiled()
    return True


def _solve_in_pool(board: Board, algorithm: str, heuristic: str) -> PuzzleResult:
    compiled_ready()
    bar = st.progress(0.0, text="Solving…")
    cancel = st.empty()
    cancel.button("Cancel", key="pz_w_cancel", icon=":material/stop:")

    def on_iteration(iteration: int, bound: int, generated: int) -> None:
        bar.progress(
            min(0.95, iteration / 10),
            text=f"iteration {iteration}: f bound {bound}, {generated:,} nodes so far",
        )

    try:
        return run_job(
            run_solve,
            (board, algorithm, heuristic),
            callbacks={"on_iteration": (LATEST, on_iteration)},
        )
    finally:
        bar.empty()
        cancel.empty()


def solve_now(board: Board, algorithm: str, heuristic: str) -> PuzzleResult:
    """One run: compiled 15-puzzle runs in the job pool (progress, Cancel), the rest here, capped.

    The readable searches stay in the page: they import the route lab and pandas, which
    with numba's code would pass a pool worker's memory cap; their cap of nodes
    generated keeps them to seconds.
    """
    if len(board) == 16 and algorithm in ("ids", "idastar"):
        return _solve_in_pool(board, algorithm, heuristic)
    with st.spinner("Solving…"):
        return run_solve(board, algorithm, heuristic, readable_cap=PAGE_CAP)


def show_run(board: Board) -> None:
    """The chosen algorithm's run: solved at once on the 8-puzzle, on Solve on the 15."""
    algorithm, heuristic, clicked = choose_run(board)
    wanted = (board, algorithm, heuristic if ALGORITHMS[algorithm].uses_heuristic else "zero")
    kept: dict[str, Any] | None = st.session_state.get(RESULT_KEY)
    if kept is None or kept["key"] != wanted:
        kept = None
        if clicked or len(board) == 9:
            try:
                result = solve_now(board, algorithm, heuristic)
            except InputError as error:
                st.error(escape_markdown(error), icon=":material/error:")
                return
            kept = {"key": wanted, "result": result}
            st.session_state[RESULT_KEY] = kept
    if kept is None:
        st.info("Press Solve to run this search on the 15-puzzle board.", icon=":material/info:")
        return
    show_result(kept["result"])


COMPACT_FROM = 1_000_000
"""Counts from here on are shown compact (12.3M), their whole figure in the help: a third
of the result's column on a 1024 px screen holds seven characters of a metric."""


def _count_metric(column: DeltaGenerator, label: str, count: int) -> None:
    """A count as a metric: whole (171,234) below :data:`COMPACT_FROM`, else compact."""
    if count < COMPACT_FROM:
        column.metric(label, f"{count:,}")
    else:
        column.metric(label, count, format="compact", help=f"{count:,} in all")


def show_result(result: PuzzleResult) -> None:
    """The solution animated on the board, its counts and effective branching factor."""
    st.plotly_chart(
        solution_figure(result.start, result.moves, size=340 if presenting() else 300),
        key="pz_solution_chart",
        config={"displayModeBar": False},
        width="content",
    )
    cols = st.columns(3)
    cols[0].metric("Moves", f"{result.length}")
    _count_metric(cols[1], "Generated", result.generated)
    _count_metric(cols[2], "Expanded", result.expanded)
    cols = st.columns(3)
    _count_metric(cols[0], "Max frontier", result.max_frontier)
    cols[1].metric("Time", f"{result.seconds:.3f} s")
    ebf = result.ebf
    cols[2].metric("b* (EBF)", "–" if ebf != ebf else f"{ebf:.3f}")
    info = ALGORITHMS[next(k for k, v in ALGORITHMS.items() if v.label == result.algorithm)]
    st.caption(
        f"{result.algorithm}"
        + (f" with {HEURISTICS[result.heuristic].label}" if info.uses_heuristic else "")
        + f" · optimal: {info.optimal} · memory: {info.memory}"
        + (f" · {result.notes}" if result.notes else "")
    )
    assert apply_moves(result.start, result.moves) == goal_board(width_of(result.start))
    st.code(result.moves or "(already solved)", language=None, wrap_lines=True)
