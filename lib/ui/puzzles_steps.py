"""The puzzle page's step-through and "you be the algorithm", on the route lab's trace machinery.

BFS, uniform-cost, greedy best-first and A* on the puzzle are the route
lab's searches on an implicit graph, so their trace (:mod:`lib.routes.trace`)
is the route page's: the step-through replays it (the code panel marks the
line of :func:`~lib.routes.best_first.best_first_search` or
:func:`~lib.routes.search.bfs` each step is, the frontier's g / h / f, the
board being expanded) and draws the search tree with
:mod:`lib.routes.search_tree`; the quiz asks the questions of
:mod:`lib.routes.quiz`, read off the same trace. A board is named by its
tiles, ``7,2,4,5,0,6,8,3,1``.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lib.errors import InputError
from lib.puzzles.board import Board, goal_board, width_of
from lib.puzzles.plots import board_figure
from lib.puzzles.search import PuzzleResult, solve
from lib.routes import quiz, search_tree
from lib.routes.best_first import best_first_search, line_of, pseudocode
from lib.routes.search import bfs
from lib.routes.trace import trace_state
from lib.ui.code_view import code_view
from lib.ui.common import csv_download, escape_markdown
from lib.ui.puzzles_page import PAGE_CAP

#: The traced algorithms: our key -> the route lab's name.
TRACED = {"astar": "A*", "greedy": "Greedy best-first", "ucs": "Uniform-cost", "bfs": "BFS"}
#: At most this many questions in a round of the quiz.
MAX_QUESTIONS = 25


def _label(board: object) -> str:
    return ",".join(map(str, board)) if isinstance(board, tuple) else str(board)


def traced_run(board: Board, algorithm: str, heuristic: str) -> PuzzleResult:
    """The run with its trace (kept per board and choice for the session)."""
    key = ("pz_traced", board, algorithm, heuristic)
    kept = st.session_state.get("pz_traced")
    if kept is None or kept[0] != key:
        result = solve(board, algorithm, heuristic, record_trace=True, max_generated=PAGE_CAP)
        st.session_state["pz_traced"] = kept = (key, result)
    return kept[1]


def _choose(key: str) -> tuple[str, str]:
    chosen = st.session_state.get("pz_w_algo", "astar")
    st.session_state.setdefault(key, chosen if chosen in TRACED else "astar")
    algorithm = st.selectbox(
        "Algorithm", tuple(TRACED), key=key, format_func=lambda k: TRACED[k],
        help="The searches that record a trace: the route lab's own.",
    )  # fmt: skip
    heuristic = st.session_state.get("pz_w_h", "h2")
    return algorithm, "h2" if heuristic == "pdb" else heuristic


def show_steps(board: Board) -> None:
    """Step through one traced search: code line, board expanded, frontier, search tree."""
    algorithm, heuristic = _choose("pz_w_step_algo")
    try:
        result = traced_run(board, algorithm, heuristic)
    except InputError as error:
        st.error(escape_markdown(error))
        return
    trace = result.trace
    last = len(trace) - 1
    note = " (the first steps only: the trace is capped)" if result.trace_truncated else ""
    step = st.slider(f"Step of {last + 1:,}{note}", 0, last, 0, key="pz_w_step")
    state = trace_state(trace, step)
    function = bfs if algorithm == "bfs" else best_first_search
    source, parts = pseudocode(function)
    left, right = st.columns([6, 5])
    with left:
        st.caption(f"{function.__name__} (lib/routes), the line this step is marked")
        code_view(source.splitlines(), line_of(trace[step], parts), key="pz_step_code")
    with right:
        current = state.current if isinstance(state.current, tuple) else board
        st.plotly_chart(
            board_figure(current, size=220, title=f"{state.part.value}: this board"),
            key="pz_step_board", config={"displayModeBar": False}, width="content",
        )  # fmt: skip
        st.caption(
            f"frontier {len(state.frontier):,} · explored {len(state.explored):,}"
            + (f" · {state.note}" if state.note else "")
        )
        rows = [(_label(e.node), e.g, e.h, e.f) for e in state.frontier[:8]]
        st.dataframe(pd.DataFrame(rows, columns=["frontier board", "g", "h", "f"]), hide_index=True)
    tree = search_tree.window(search_tree.build(trace, step, goal=goal_board(width_of(board))))
    st.plotly_chart(
        search_tree.tree_figure(tree, title=f"The search tree at step {step}", label=_label),
        key="pz_step_tree", config={"displayModeBar": False},
    )  # fmt: skip


# --------------------------------------------------------------------------- the quiz


def show_quiz(board: Board) -> None:
    """You be the algorithm: pick the frontier board expanded next, scored and explained."""
    algorithm, heuristic = _choose("pz_w_quiz_algo")
    name = TRACED[algorithm]
    try:
        result = traced_run(board, algorithm, heuristic)
    except InputError as error:
        st.error(escape_markdown(error))
        return
    asked = quiz.questions(name, result.trace)[:MAX_QUESTIONS]
    round_key = ("pz_quiz", board, algorithm, heuristic)
    kept = st.session_state.get("pz_quiz")
    round_ = kept[1] if kept is not None and kept[0] == round_key else quiz.Round()
    st.markdown(escape_markdown(quiz.RULES[name]))
    right, total = quiz.score(round_)
    if round_.answers:
        last = round_.answers[-1]
        (st.success if last.right else st.warning)(escape_markdown(last.why))
    if round_.finished(asked):
        st.info(f"Round over: {right} of {total} right.", icon=":material/flag:")
        csv_download(quiz.answers_table(round_), "puzzle-quiz.csv", "Download the answers (CSV)",
                     "pz_w_quiz_csv")  # fmt: skip
        if st.button("Play again", key="pz_w_quiz_again"):
            st.session_state["pz_quiz"] = (round_key, quiz.Round())
            st.rerun()
        return
    question = asked[round_.position]
    st.caption(f"Question {round_.position + 1} of {len(asked)} · score {right} / {total}")
    st.dataframe(quiz.frontier_table(name, question), hide_index=True)
    labels = [c.label for c in question.frontier]
    choice = st.radio("Which board is expanded next?", labels, key=f"pz_w_quiz_pick_{total}")
    if st.button("Answer", key="pz_w_quiz_answer", type="primary"):
        node = question.frontier[labels.index(choice)].node
        st.session_state["pz_quiz"] = (
            round_key, quiz.answer(round_, asked, node, name, label=_label),
        )  # fmt: skip
        st.rerun()
