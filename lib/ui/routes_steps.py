"""The route page's step-by-step section: the search plays in the browser, steps drive the code.

The map is a canvas player holding the whole search (:func:`lib.routes.animation.player_data`,
:mod:`lib.ui.components.route_player`) and the code that ran it
(:func:`lib.routes.explain.code_view`): its own ▶ Watch / ❚❚ Pause buttons and slider
of steps play it in the browser, the line of the step shown marked in the code, with no
server round trip per frame. The player's slider is the one step control: where it
rests (let go, paused, or at the end of a play) it tells the page, and the step's
sentence and frontier table below follow it. The step buttons under it move the player
and the table together. Moving the step or choosing another algorithm reruns only this
section (a fragment).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import networkx as nx
import streamlit as st

from lib.routes import animation, compare, explain, graphs, search
from lib.ui import routes_common, routes_tree
from lib.ui.common import csv_download
from lib.ui.common import escape_markdown as md
from lib.ui.components.route_player import route_player

if TYPE_CHECKING:
    from lib.ui.routes_page import Question

# Caps that keep one visitor from stalling a small shared server.
MAX_ANIMATION_NODES, MAX_TRACE_STEPS, MAX_FRAMES = 5_000, 3_000, animation.MAX_FRAMES
#: The player's key: its trigger ``step`` is in ``st.session_state[PLAYER_KEY]``.
PLAYER_KEY = "rt_animation"


def show_animation(
    G: nx.Graph, graph_key: str, q: Question, results: dict[str, search.RouteResult]
) -> None:
    """One algorithm's search step by step: one step control drives the map, code and table."""
    algos = q.algos
    if not results:
        st.info(
            "Choose at least one algorithm above to animate it."
            if not algos
            else "Nothing to animate: none of the chosen algorithms returned a route (see above)."
        )
        return
    if G.number_of_nodes() > MAX_ANIMATION_NODES:
        st.info(f"Animation is available for maps of up to {MAX_ANIMATION_NODES:,} places.")
        return
    _animation(G, graph_key, q, results)


@st.fragment
def _animation(
    G: nx.Graph, graph_key: str, q: Question, results: dict[str, search.RouteResult]
) -> None:
    """The algorithm to animate and its steps: changing either reruns only this section.

    The route map above stays as it is (redrawing its 11,000 roads took the browser most of
    a second on 2,000 places); the traced search is kept for the section's reruns.
    """
    start, goal, w = q.start, q.goal, q.w
    if routes_common.get("anim") not in results:
        routes_common.put("anim", next(iter(results)))
    anim = routes_common.widget(st.selectbox, "Algorithm to animate", list(results), name="anim")
    question = (graph_key, anim, graphs.node_label(start), graphs.node_label(goal))
    question += (q.heuristic_name, w)
    kept = st.session_state.get("rt_traced")
    if kept is not None and kept[0] == question:
        traced = kept[1]
    else:
        traced = search.run(
            anim,
            G,
            start,
            goal,
            q.heuristic,
            w=w,
            record_trace=True,
            max_trace_steps=MAX_TRACE_STEPS,
            max_expansions=routes_common.MAX_EXPANSIONS,
        )
        st.session_state["rt_traced"] = (question, traced)
    if traced.trace_truncated:
        st.warning(f"The trace is cut after {MAX_TRACE_STEPS:,} steps.")
    st.caption(
        "**Watch** the whole search with the map's own ▶ Watch and ❚❚ Pause buttons and the "
        "slider of steps under the map: it plays in your browser, and the code that ran marks "
        "the line of each step (▶). **Step** through it with that slider or the buttons "
        "below: the map and the code show that step, and the frontier table follows. "
        "Orange: frontier, blue: explored, red: the place being expanded."
    )
    if st.session_state.get("rt_step_question") != question:  # a new search starts at step 0
        st.session_state["rt_step_question"] = question
        if not st.session_state.pop(routes_common.LINK_STEP_KEY, False):  # (or the link's)
            routes_common.put("step", 0)
    _step_section(StepView(G, traced.trace, traced.path, anim, start, goal, w))


@dataclass(frozen=True)
class StepView:
    """What the step section draws: the traced search and the question it answers."""

    G: nx.Graph
    trace: tuple[search.TraceStep, ...]
    path: tuple
    anim: str
    start: object
    goal: object
    w: float

    @property
    def last(self) -> int:
        """The last step's index."""
        return len(self.trace) - 1


def _move(delta: int, last: int) -> None:
    """``on_click``: step by ``delta`` (within ``0..last``)."""
    routes_common.put("step", max(0, min(last, int(routes_common.get("step", 0)) + delta)))


def _follow_player(last: int) -> None:
    """The player's ``on_step`` callback: the step its slider rests on becomes the page's.

    The trigger ``step`` comes from the browser: anything but a step of this
    trace (``0..last``) is ignored.
    """
    step = (st.session_state.get(PLAYER_KEY) or {}).get("step")
    if isinstance(step, int) and not isinstance(step, bool) and 0 <= step <= last:
        routes_common.put("step", step)


def _step_section(view: StepView) -> None:
    """The player (map and code) opened at the page's step, and the frontier at that step."""
    trace, last = view.trace, view.last
    if int(routes_common.get("step", 0)) > last:
        routes_common.put("step", last)
    step = int(routes_common.get("step", 0))
    routes_common.write_query({"step": step, "anim": view.anim})  # the link opens here
    state = search.trace_state(trace, step)
    data = animation.player_data(
        view.G, trace, step=step, path=view.path, start=view.start, goal=view.goal,
        title=view.anim, max_frames=MAX_FRAMES, code=explain.code_view(view.anim, trace),
    )  # fmt: skip
    route_player(data, key=PLAYER_KEY, on_step=partial(_follow_player, last))
    back, forward = st.columns(2)
    back.button("◀ Step back", key="rt_w_back", on_click=_move, args=(-1, last), width="stretch")
    forward.button("Step ▶", key="rt_w_next", on_click=_move, args=(1, last), width="stretch")
    st.caption(
        "One step control: the player's slider (or ◀ / ▶ here) sets the step; the sentence "
        "and the frontier table below follow it once the slider rests."
    )
    st.markdown(explain.describe_step(state, trace[step], lambda node: md(graphs.node_label(node))))
    frontier = compare.frontier_table(state)
    if frontier.empty:  # a zero-row table drew its "empty" placeholder over the caption below
        st.markdown("Frontier: empty (no place is waiting to be expanded at this step).")
    else:
        shown = frontier if (frontier["side"] != "").any() else frontier.drop(columns="side")
        routes_common.show_table(shown, height=min(260, 35 * (len(shown) + 1) + 3))  # no blanks
    st.caption(f"{md(view.anim)}: {explain.f_rule(view.anim, view.w)}")
    c1, c2 = st.columns(2)
    with c1:
        csv_download(frontier, "frontier.csv", "Download this frontier (CSV)", key="rt_w_dl_front")
    with c2:
        csv_download(
            compare.trace_table(trace),
            "trace.csv",
            "Download the whole trace (CSV)",
            key="rt_w_dl_trace",
        )
    routes_tree.show_tree(trace, step, view.goal, view.anim)
