"""The route page's step-by-step section: one step control drives the map, the code and table.

The Step slider, the step buttons and Play (a fragment rerun every
:data:`PLAY_SECONDS`) set one step; the map at that step
(:func:`lib.routes.plots.step_figure`), the code that ran with that step's
line marked (:func:`lib.routes.explain.code_panel`) and the frontier table
all follow it. Moving the step reruns only this section (a fragment).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import networkx as nx
import streamlit as st

from lib.routes import compare, explain, graphs, plots, search
from lib.ui import routes as ui
from lib.ui.common import csv_download
from lib.ui.common import escape_markdown as md

if TYPE_CHECKING:
    from lib.ui.routes_page import Question

# Caps that keep one visitor from stalling a small shared server.
MAX_ANIMATION_NODES, MAX_TRACE_STEPS, MAX_FRAMES = 5_000, 3_000, 120


def show_animation(
    G: nx.Graph, graph_key: str, q: Question, results: dict[str, search.RouteResult]
) -> None:
    """One algorithm's search step by step: one step control drives the map, code and table."""
    start, goal, heuristic, w, algos = q.start, q.goal, q.heuristic, q.w, q.algos

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
    if ui.get("anim") not in results:
        ui.put("anim", next(iter(results)))
    anim = ui.widget(st.selectbox, "Algorithm to animate", list(results), name="anim")
    traced = search.run(
        anim,
        G,
        start,
        goal,
        heuristic,
        w=w,
        record_trace=True,
        max_trace_steps=MAX_TRACE_STEPS,
        max_expansions=ui.MAX_EXPANSIONS,
    )
    if traced.trace_truncated:
        st.warning(f"The trace is cut after {MAX_TRACE_STEPS:,} steps.")
    st.caption(
        "Press ▶ Play, the step buttons or drag the Step slider: the map, the code that ran "
        "(its current line marked ▶) and the frontier table all follow it. Orange: frontier, "
        "blue: explored, red: the place being expanded."
    )
    steps = StepView(G, traced.trace, traced.path, anim, start, goal, w)
    question = (graph_key, anim, graphs.node_label(start), graphs.node_label(goal))
    question += (q.heuristic_name, w)
    if st.session_state.get("rt_step_question") != question:  # a new search starts at step 0
        st.session_state["rt_step_question"] = question
        ui.put("step", 0)
        st.session_state["rt_playing"] = False
    if st.session_state.get("rt_playing"):
        _playing_steps(steps)
    else:
        _still_steps(steps)


#: Seconds between two steps while playing; a play shows at most MAX_FRAMES steps.
PLAY_SECONDS = 0.7


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

    @property
    def stride(self) -> int:
        """Steps per frame while playing, so that a play shows at most MAX_FRAMES frames."""
        return max(1, -(-self.last // MAX_FRAMES))


def _move(delta: int, last: int) -> None:
    """``on_click``: step by ``delta`` (within ``0..last``) and stop playing."""
    st.session_state["rt_playing"] = False
    ui.put("step", max(0, min(last, int(ui.get("step", 0)) + delta)))


def _toggle_play(last: int) -> None:
    """``on_click`` of Play / Pause: a play at the last step starts again from step 0."""
    playing = not st.session_state.get("rt_playing", False)
    if playing and int(ui.get("step", 0)) >= last:
        ui.put("step", 0)
    st.session_state["rt_playing"] = playing


@st.fragment(run_every=PLAY_SECONDS)
def _playing_steps(view: StepView) -> None:
    """The step section while playing: rerun every PLAY_SECONDS, one stride further each time."""
    step = int(ui.get("step", 0))
    if step >= view.last:
        st.session_state["rt_playing"] = False
        st.rerun()  # the whole page: the still section takes over (no timer)
    ui.put("step", min(view.last, step + view.stride))
    _step_section(view)


@st.fragment
def _still_steps(view: StepView) -> None:
    """The step section at rest: moving the step reruns only this part of the page."""
    _step_section(view)
    if st.session_state.get("rt_playing"):
        st.rerun()  # Play was pressed: the whole page, so the playing section's timer starts


def _step_section(view: StepView) -> None:
    """The one step control, and the map, the code that ran and the frontier at that step."""
    trace, last = view.trace, view.last
    if int(ui.get("step", 0)) > last:
        ui.put("step", last)
    playing = st.session_state.get("rt_playing", False)
    back, play, forward = st.columns(3)
    back.button("◀ Step back", key="rt_w_back", on_click=_move, args=(-1, last), width="stretch")
    play.button(
        "❚❚ Pause" if playing else "▶ Play",
        key="rt_w_play",
        on_click=_toggle_play,
        args=(last,),
        type="primary",
        width="stretch",
    )
    forward.button("Step ▶", key="rt_w_next", on_click=_move, args=(1, last), width="stretch")
    step = ui.widget(st.slider, "Step", 0, last, name="step")
    state = search.trace_state(trace, step)
    # The code beside the map on road maps; under it on grids, whose cells need the width
    # (a 40-column grid in three fifths of a 1024 px window has 6 px cells).
    grid = view.G.graph.get("kind") == "grid"
    left, right = (st.container(), st.container()) if grid else st.columns([3, 2])
    with left:
        fig = plots.step_figure(
            view.G, trace, step, path=view.path, start=view.start, goal=view.goal, title=view.anim
        )
        st.plotly_chart(fig, key="rt_animation")
    with right:
        st.markdown("**The code that ran**")
        code, line = explain.code_panel(view.anim, trace[step])
        st.code(code, language="python")
        if line is not None:
            st.caption(f"▶ line {line}: {explain.PART_TEXT[state.part]}.")
    st.markdown(explain.describe_step(state, trace[step], lambda node: md(graphs.node_label(node))))
    frontier = compare.frontier_table(state)
    shown = frontier if (frontier["side"] != "").any() else frontier.drop(columns="side")
    ui.show_table(shown, height=min(260, 35 * (len(shown) + 1) + 3))  # no rows of blanks
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
