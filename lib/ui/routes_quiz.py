"""The route page's "You be the algorithm" section: pick each expansion, be told why, be scored.

The questions come from :mod:`lib.routes.quiz` (the textbook search's own
trace); the round's answers live in ``st.session_state`` under ``rt_quiz_*``
keys and start again when the map, the algorithm, the start, the goal or
the heuristic changes. Answering reruns only this section (a fragment).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

import networkx as nx
import streamlit as st

from lib.errors import InputError
from lib.routes import explain, graphs, quiz, search, search_tree
from lib.ui import routes_common
from lib.ui.common import csv_download
from lib.ui.common import escape_markdown as md
from lib.ui.contest_poll import ask_the_class

if TYPE_CHECKING:
    from lib.routes.quiz import Question as Asked
    from lib.ui.routes_page import Question

#: The section's expander: the quiz runs only while it is open.
OPEN_KEY = "rt_w_quiz_open"
ROUND_KEY, TRACE_KEY, NOTE_KEY = "rt_quiz_round", "rt_quiz_traced", "rt_quiz_note"
MISSES_KEY = "rt_quiz_misses"  # clicks on the tree that were not on the frontier
LABELS = {  # the quiz tables' own columns (the others: the page's usual labels)
    "pushed": ("Pushed #", "The order it was put on the frontier in (0: the start)", None),
    "depth": ("Depth", "Roads from the start", None),
    "question": ("Question", "", None),
    "step": ("Step", "The step of the search's trace at which the place was expanded", None),
    "chosen": ("You chose", "", None),
    "expanded": ("Expanded", "The place the search expanded", None),
    "right": ("Right?", "", None),
}
FRONTIER_ROWS_SHOWN = 10  # the frontier table's rows in view; more scroll inside it
MAX_TRACE_STEPS = 20_000  # a search of at most quiz.MAX_QUIZ_PLACES places stays far under it


def show_quiz(G: nx.Graph, graph_key: str, q: Question) -> None:
    """The quiz on this map and question, if the map is small enough to play on."""
    if G.number_of_nodes() > quiz.MAX_QUIZ_PLACES:
        st.info(
            f"This map has {G.number_of_nodes():,} places: the quiz plays on maps of up to "
            f"{quiz.MAX_QUIZ_PLACES} places (Romania, or a small grid)."
        )
        return
    _quiz(G, graph_key, q)


def _traced(G: nx.Graph, graph_key: str, q: Question, algorithm: str) -> search.RouteResult:
    """The search to play, traced (kept for the section's reruns)."""
    question = (graph_key, algorithm, graphs.node_label(q.start), graphs.node_label(q.goal))
    question += (q.heuristic_name,)
    kept = st.session_state.get(TRACE_KEY)
    if kept is not None and kept[0] == question:
        return kept[1]
    traced = search.run(
        algorithm, G, q.start, q.goal, q.heuristic, record_trace=True,
        max_trace_steps=MAX_TRACE_STEPS,
    )  # fmt: skip
    st.session_state[TRACE_KEY] = (question, traced)
    return traced


@st.fragment
def _quiz(G: nx.Graph, graph_key: str, q: Question) -> None:
    """The algorithm to play, the score, the last answer's verdict and the next question."""
    if routes_common.get("quiz_algo") not in quiz.QUIZ_ALGORITHMS:
        played = [a for a in q.algos if a in quiz.QUIZ_ALGORITHMS]
        routes_common.put("quiz_algo", played[0] if played else "A*")
    algorithm = routes_common.widget(
        st.selectbox, "Algorithm to play", list(quiz.QUIZ_ALGORITHMS), name="quiz_algo"
    )
    blocked, _ = explain.blocked_by_table([algorithm], q.heuristic, q.start, q.goal)
    if blocked:
        st.info(
            f"The book's table only gives distances to {md(graphs.node_label(q.heuristic.goal))}: "
            "set the goal there, or choose another heuristic or algorithm."
        )
        return
    try:
        traced = _traced(G, graph_key, q, algorithm)
    except (nx.NetworkXNoPath, InputError) as error:
        st.info(f"Nothing to play: {md(str(error))}")
        return
    if traced.trace_truncated:
        st.info(f"This search takes over {MAX_TRACE_STEPS:,} steps: too long to play here.")
        return
    asked = quiz.questions(algorithm, traced.trace)
    key = (graph_key, algorithm, graphs.node_label(q.start), graphs.node_label(q.goal))
    key += (q.heuristic_name,)
    kept = st.session_state.get(ROUND_KEY)
    if kept is None or kept[0] != key:
        st.session_state[ROUND_KEY] = (key, quiz.Round())
    round_ = st.session_state[ROUND_KEY][1]
    st.caption(
        f"You are **{md(algorithm)}**, searching from **{md(graphs.node_label(q.start))}** to "
        f"**{md(graphs.node_label(q.goal))}** (start, goal and heuristic: the sidebar's). At "
        "each step, pick the place on the frontier you think is expanded next: press its "
        "button, or click it on the tree. Right or wrong, the search then goes on as the "
        "textbook code did."
    )
    right, answered = quiz.score(round_)
    st.markdown(f"**Score: {right} / {answered}** right ({len(asked)} expansions in this search)")
    if round_.answers:
        last = round_.answers[-1]
        verdict = st.success if last.right else st.error
        verdict(("Right. " if last.right else "Wrong. ") + md(last.why))
        st.caption(quiz.RULES[algorithm])  # the project's own text, markdown on purpose
    note = st.session_state.pop(NOTE_KEY, "")
    if note:
        st.warning(note)
    if round_.finished(asked):
        _summary(round_, len(asked))
    else:
        _ask(G, traced, asked, algorithm, key)
    if round_.answers:
        c1, c2 = st.columns(2)
        with c1:
            csv_download(
                quiz.answers_table(round_), "quiz_answers.csv", "Download your answers (CSV)",
                key="rt_w_quiz_dl",
            )  # fmt: skip
        c2.button("Try again", key="rt_w_quiz_again", on_click=_restart, args=(key,))


def _ask(
    G: nx.Graph, traced: search.RouteResult, asked: list[Asked], algorithm: str, key: tuple
) -> None:
    """The next question: the frontier as a table, a button per place, and the tree to click."""
    round_ = st.session_state[ROUND_KEY][1]
    position = round_.position
    question = asked[position]
    st.markdown(
        f"**Question {position + 1} of {len(asked)}**: which place does **{md(algorithm)}** "
        "expand next?"
    )
    table = quiz.frontier_table(algorithm, question)
    st.caption(quiz.ORDER_TEXT[algorithm])
    # in the algorithm's order, the candidates are the top rows: always in view
    shown = min(len(table), FRONTIER_ROWS_SHOWN)
    routes_common.show_table(table, LABELS, height=35 * (shown + 1) + 3)
    columns = st.columns(4)
    for index, choice in enumerate(question.frontier):
        columns[index % 4].button(
            choice.label,
            key=f"rt_w_quiz_pick_{position}_{index}",
            on_click=_answer,
            args=(key, asked, algorithm, choice.node),
            width="stretch",
        )
    tree = search_tree.build(traced.trace, question.step - 1, goal=traced.target)
    tree = replace(search_tree.window(tree), current=None)  # nothing ringed: that is the question
    # a new key per question and per click refused: a click is never stale, and a place
    # clicked twice answers twice
    chart_key = f"rt_w_quiz_tree_{position}_{st.session_state.get(MISSES_KEY, 0)}"
    st.plotly_chart(
        search_tree.tree_figure(tree, title="The tree so far: click the next place to expand"),
        key=chart_key,
        on_select=partial(_clicked, G, chart_key, key, asked, algorithm),
        selection_mode="points",
        config={"displayModeBar": False},
    )
    ask_the_class("route_next", "rt_w_quiz", partial(_poll_question, algorithm, question))


def _poll_question(algorithm: str, question: Asked) -> tuple[str, list[str], str, str]:
    """This question as a class poll: the frontier's places, the one expanded, and why."""
    answer = question.choice(question.answer)
    return (
        f"{algorithm}: which place on the frontier is expanded next?",
        [choice.label for choice in question.frontier],
        answer.label if answer is not None else str(question.answer),
        quiz.explain(algorithm, question, question.answer),
    )


def _answer(key: tuple, asked: list[Asked], algorithm: str, node: Hashable) -> None:
    """``on_click``: answer the round's next question with ``node`` (if it is still that round)."""
    kept = st.session_state.get(ROUND_KEY)
    if kept is None or kept[0] != key:
        return
    st.session_state[ROUND_KEY] = (key, quiz.answer(kept[1], asked, node, algorithm))


def _clicked(G: nx.Graph, chart_key: str, key: tuple, asked: list[Asked], algorithm: str) -> None:
    """The tree's ``on_select``: a click on a frontier place answers with it."""
    event = st.session_state.get(chart_key) or {}
    points = (event.get("selection") or {}).get("points") or []
    data = points[0].get("customdata") if points else None
    node = graphs.find_node(G, str(data[0])) if data else None
    kept = st.session_state.get(ROUND_KEY)
    if node is None or kept is None or kept[1].finished(asked):
        return
    if asked[kept[1].position].choice(node) is None:
        st.session_state[MISSES_KEY] = st.session_state.get(MISSES_KEY, 0) + 1
        st.session_state[NOTE_KEY] = (
            f"{md(graphs.node_label(node))} is not on the frontier: click an orange place."
        )
        return
    _answer(key, asked, algorithm, node)


def _restart(key: tuple) -> None:
    """``on_click`` of Try again: a new round of the same search."""
    st.session_state[ROUND_KEY] = (key, quiz.Round())


def _summary(round_: quiz.Round, total: int) -> None:
    """The end of a round: the score and every answer."""
    right, answered = quiz.score(round_)
    st.subheader("Round over")
    share = right / answered if answered else 0.0
    st.markdown(f"You picked **{right} of {total}** expansions right ({share:.0%}).")
    wrong = [a for a in round_.answers if not a.right]
    if wrong:
        st.markdown(
            "Missed: "
            + "; ".join(f"question {a.number}: {md(a.expected)}, not {md(a.chosen)}" for a in wrong)
        )
    routes_common.show_table(quiz.answers_table(round_).drop(columns="why"), LABELS)
