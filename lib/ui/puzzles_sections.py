"""The puzzle page's sections: every algorithm compared, AIMA's table, Korf's 100, the code.

Each section is computed only while its expander is open. Long work (AIMA's
table, a Korf instance) runs on the server's job pool with a progress bar
and Cancel (:func:`lib.ui.jobs.run_job`); every table has a CSV download.
"""

from __future__ import annotations

import inspect

import pandas as pd
import streamlit as st

from lib.errors import InputError
from lib.jobs import LATEST
from lib.puzzles import search as puzzle_search
from lib.puzzles.aima import EDITION, aima_table, table_records
from lib.puzzles.board import Board
from lib.puzzles.compare import COMPARE_CAP, compare_all
from lib.puzzles.korf import korf_instances
from lib.puzzles.plots import solution_figure
from lib.puzzles.search import ALGORITHMS, PuzzleResult
from lib.puzzles.solver import run_solve
from lib.routes.best_first import best_first_search
from lib.routes.search import bfs
from lib.ui.code_view import code_view
from lib.ui.common import csv_download, escape_markdown
from lib.ui.jobs import run_job
from lib.ui.presentation import presenting
from lib.ui.puzzles_page import compiled_ready


def show_comparison(board: Board) -> None:
    """Run every algorithm on the board on request; table and CSV."""
    if st.button("Compare every algorithm on this board", key="pz_w_compare"):
        bar = st.progress(0.0, text="Comparing…")
        # in the page: the readable searches import pandas, too much beside numba in a worker
        rows = compare_all(board, lambda f, t: bar.progress(f, text=t))
        bar.empty()
        st.session_state["pz_comparison"] = (board, pd.DataFrame(rows))
    kept = st.session_state.get("pz_comparison")
    if kept is None or kept[0] != board:
        st.caption(
            f"Runs each algorithm with each heuristic; a readable run stops after "
            f"{COMPARE_CAP:,} nodes generated."
        )
        return
    table = kept[1]
    st.dataframe(table, hide_index=True, width="stretch")
    csv_download(table, "puzzle-comparison.csv", "Download the table (CSV)", "pz_w_compare_csv")


# --------------------------------------------------------------------------- AIMA's table


def show_aima_table() -> None:
    """AIMA's Figure 3.29 reproduced on request, beside the book's figures; CSV."""
    st.markdown(
        f"**{EDITION}.** For each even depth d, random 8-puzzle boards whose *optimal* "
        "solution is exactly d moves (drawn uniformly from all 181,440 boards, seeded); IDS to "
        "d = 12, A* with h1 and h2; the mean nodes generated and the effective branching "
        "factor b* of that mean. Ratio = ours / the book's."
    )
    instances = st.select_slider(
        "Instances per depth", options=(10, 25, 50, 100), value=100, key="pz_w_aima_n"
    )
    if st.button("Compute the table", key="pz_w_aima", icon=":material/table:"):
        compiled_ready()
        bar = st.progress(0.0, text="Computing…")
        cancel = st.empty()
        cancel.button("Cancel", key="pz_w_aima_cancel", icon=":material/stop:")
        rows = run_job(
            aima_table,
            kwargs={"instances": instances},
            callbacks={"progress": (LATEST, lambda f, t: bar.progress(f, text=t))},
        )
        bar.empty()
        cancel.empty()
        st.session_state["pz_aima"] = pd.DataFrame(table_records(rows))
    table = st.session_state.get("pz_aima")
    if table is None:
        return
    st.dataframe(table, hide_index=True, width="stretch")
    st.caption(
        "The 3rd edition's IDS figure at d = 12 (3,644,035) does not fit its own b* = 2.78 "
        "(1 + 2.78 + … + 2.78¹² ≈ 333,000); the 2nd edition gives 364,404 there."
    )
    csv_download(table, "aima-figure-3-29.csv", "Download the table (CSV)", "pz_w_aima_csv")


# --------------------------------------------------------------------------- Korf's 100


def show_korf() -> None:
    """Solve any of Korf's 100 with IDA* and the pattern database, with progress and Cancel."""
    instances = korf_instances()
    number = st.selectbox(
        "Instance", range(1, 101), index=11, key="pz_w_korf_pick",
        format_func=lambda n: f"#{n}: {instances[n - 1].length} moves (published)",
    )  # fmt: skip
    instance = instances[number - 1]
    st.caption(" ".join(map(str, instance.board)))
    if st.button("Solve with IDA* + pattern database", key="pz_w_korf_solve"):
        compiled_ready()
        bar = st.progress(0.0, text="Solving…")
        cancel = st.empty()
        cancel.button("Cancel", key="pz_w_korf_cancel", icon=":material/stop:")

        def on_iteration(iteration: int, bound: int, generated: int) -> None:
            bar.progress(min(0.95, iteration / 8), text=f"bound {bound}: {generated:,} nodes")

        try:
            result = run_job(
                run_solve, (instance.board, "idastar", "pdb"),
                callbacks={"on_iteration": (LATEST, on_iteration)},
            )  # fmt: skip
        except InputError as error:
            st.error(escape_markdown(error))
            return
        finally:
            bar.empty()
            cancel.empty()
        st.session_state["pz_korf"] = (number, result)
    kept = st.session_state.get("pz_korf")
    if kept is None or kept[0] != number:
        return
    _show_korf_result(instance.length, instance.ida_nodes, kept[1])


def _show_korf_result(published: int, korf_nodes: int, result: PuzzleResult) -> None:
    ok = "✓ the published optimum" if result.length == published else f"✗ published {published}"
    st.success(
        f"{result.length} moves ({ok}); {result.generated:,} nodes generated in "
        f"{result.seconds:.2f} s. Korf's IDA* with Manhattan distance generated "
        f"{korf_nodes:,} (x{korf_nodes / max(result.generated, 1):,.0f} more).",
        icon=":material/check:",
    )
    st.plotly_chart(
        solution_figure(result.start, result.moves, size=340 if presenting() else 300),
        key="pz_korf_chart",
        config={"displayModeBar": False},
        width="content",
    )


# --------------------------------------------------------------------------- the code


def algorithm_source(algorithm: str) -> str:
    """The readable code the algorithm runs (the route lab's own for its searches)."""
    if algorithm in ("ucs", "greedy", "astar"):
        function = best_first_search
    elif algorithm == "bfs":
        function = bfs
    else:
        function = {
            "ids": puzzle_search.depth_limited_search,
            "idastar": puzzle_search._bounded,
            "rbfs": puzzle_search._rbfs,
        }[algorithm]
    source = inspect.getsource(function)
    if algorithm == "ids":
        source = inspect.getsource(puzzle_search.iterative_deepening) + "\n\n" + source
    if algorithm == "idastar":
        source = inspect.getsource(puzzle_search.ida_star) + "\n\n" + source
    if algorithm == "rbfs":
        source = inspect.getsource(puzzle_search.recursive_best_first) + "\n\n" + source
    return source


def show_code(algorithm: str) -> None:
    """The chosen algorithm's readable code (the code every run here is tested equal to)."""
    routes = algorithm in ("bfs", "ucs", "greedy", "astar")
    where = "lib/routes (the route lab's own)" if routes else "lib/puzzles/search.py"
    st.caption(f"{ALGORITHMS[algorithm].label}: the textbook code, from {where}.")
    code_view(algorithm_source(algorithm).splitlines(), None, key="pz_code")
