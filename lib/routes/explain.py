"""What the route page says about the algorithms: verdicts, f rules and the code that ran.

Plain data and text, no drawing: the page (:mod:`lib.ui.routes_page`) only
renders what these functions return, so the wording is tested here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from lib.highlight import python_spans
from lib.routes import search
from lib.routes.best_first import best_first_search, line_of, pseudocode
from lib.routes.graphs import TableHeuristic
from lib.routes.trace import Part, TraceState, TraceStep

#: The algorithms that are one best-first search with their own priority f.
BEST_FIRST = ("Uniform-cost", "Greedy best-first", "A*", "Weighted A*", 'Course "B*"')

#: What the step table's f (and h) columns hold, per algorithm ({w}: the weight).
F_RULES = {
    "BFS": "f is the number of roads from the start; the oldest place on the frontier goes first.",
    "DFS": "f is the number of roads from the start; the newest place on the frontier goes first.",
    "Uniform-cost": "f = g, the length of the route so far.",
    "Greedy best-first": "f = h, the estimate to the goal only.",
    "A*": "f = g + h.",
    "Weighted A*": "f = g + w·h; the h column already includes w = {w}.",
    "IDA*": "f = g + h; a place whose f is over the current bound waits for the next iteration.",
    "Bidirectional UCS": "f = g, measured from the start (forward) or from the goal (backward).",
    'Course "B*"': "f = g + h, where h here is h(n, goal) + h(start, n), the course's rule.",
}

#: The function whose source the code panel shows, per algorithm.
CODE: dict[str, Callable] = {
    **{name: best_first_search for name in BEST_FIRST},
    "BFS": search.bfs,
    "DFS": search.dfs,
    "IDA*": search.ida_star,
    "Bidirectional UCS": search.bidirectional_uniform_cost,
}

#: What each part of the pseudocode does, for the line under the code panel.
PART_TEXT = {
    Part.PUSH: "push: a place goes on the frontier",
    Part.POP: "pop: the best place comes off the frontier",
    Part.GOAL_TEST: "goal test: the goal is reached, the route is returned",
    Part.EXPAND: "expand: the roads out of the place are followed",
    Part.UPDATE: "update: a cheaper route to a place already reached; it is pushed again",
}


def f_rule(name: str, w: float) -> str:
    """What f (and h) hold in the step table of algorithm ``name``."""
    return F_RULES.get(name, "f = g + h").format(w=w)


def algorithm_rows() -> list[tuple[str, str, str, str]]:
    """``(algorithm, idea, uses h, shortest route guaranteed)`` for the page's table."""
    return [
        (name, info.description, "yes" if info.uses_heuristic else "no", info.optimal)
        for name, info in search.INFO.items()
    ]


@dataclass(frozen=True)
class CodeView:
    """What a code panel shows of a traced search: the code, and the line of every step."""

    lines: list[list[tuple[str, str]]]  # the source, as :func:`lib.highlight.python_spans`
    step_lines: list[int]  # per step of the trace, the 1-based line it is (0: none)
    line_text: dict[int, str]  # what each marked line does (:data:`PART_TEXT`)


def code_view(name: str, trace: Sequence[TraceStep]) -> CodeView:
    """The source of the function that ran ``name``, and the line each step of ``trace`` is."""
    source, parts = pseudocode(CODE[name])
    step_lines = [line_of(step, parts) or 0 for step in trace]
    line_text = {line: PART_TEXT[part] for part, lines in parts.items() for line in lines}
    return CodeView(python_spans(source), step_lines, line_text)


def blocked_by_table(
    algos: Sequence[str], heuristic: object, start: Hashable, goal: Hashable
) -> tuple[list[str], str]:
    """The algorithms the book's table cannot run here, and why (``([], "")`` if none).

    The table only knows ``h(n, Bucharest)``: every algorithm using h is
    blocked for another goal; the course's "B*" also needs ``h(start, n)``.
    Returns the reason as ``"goal"`` or ``"start"``.
    """
    if not isinstance(heuristic, TableHeuristic):
        return [], ""
    if goal != heuristic.goal:
        return [a for a in algos if search.INFO[a].uses_heuristic], "goal"
    return [a for a in algos if a == 'Course "B*"' and start != goal], "start"


def describe_step(
    state: TraceState, step: TraceStep, label: Callable[[Hashable], str] = str
) -> str:
    """One sentence (markdown) on what step ``state.step`` did, naming places with ``label``.

    ``label`` turns a node into text; the page passes one that also escapes
    markdown, since uploaded place names are user data.
    """
    index = state.step
    pushed = step.pushed[0].node if step.pushed else None
    by = "" if state.current is None else label(state.current)
    side = f" ({state.side})" if state.current is not None and state.side else ""
    if state.part is Part.PUSH and state.current is None:
        what = "the start goes on the frontier" + (
            f": **{label(pushed)}**" if len(step.pushed) == 1 else ""
        )
    elif state.part is Part.POP:
        what = f"pop **{by}**{side}, the best place on the frontier, to expand it"
    elif state.part is Part.PUSH:
        what = f"push **{label(pushed)}**, reached from **{by}**"
    elif state.part is Part.UPDATE:
        what = f"update **{label(pushed)}**: a cheaper route via **{by}**, pushed again"
    elif state.part is Part.GOAL_TEST and by:
        what = f"goal test passed at **{by}**{side}"
    else:
        what = f"expanded **{by}**{side}"
    return (
        f"Step {index}: {what}; frontier {len(state.frontier)}, "
        f"explored {len(state.explored)}. {state.note}"
    ).rstrip()
