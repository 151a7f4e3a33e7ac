"""You be the algorithm: the questions of a traced search, the student's answers and score.

At each expansion of a search the student picks the frontier place they
think is expanded next. The right answer is always what the project's own
trace of the textbook search expanded (:func:`questions` reads it off the
trace, it never searches again); :func:`rule_pick` applies the rule the page
states (lowest f, g or h, ties to the newest entry; BFS the oldest, DFS the
newest entry) and the tests check that the two agree. A :class:`Round` is an
immutable record of the answers, kept by the page in ``st.session_state``.

>>> from lib.routes.graphs import romania, StraightLine
>>> from lib.routes.search import astar
>>> G = romania()
>>> traced = astar(G, "Arad", "Bucharest", StraightLine.of(G), record_trace=True)
>>> asked = questions("A*", traced.trace)
>>> [q.answer for q in asked]
['Arad', 'Sibiu', 'Fagaras', 'Rimnicu Vilcea', 'Pitesti', 'Bucharest']
>>> score(answer(Round(), asked, "Arad", "A*"))
(1, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import pandas as pd

from lib.errors import InputError
from lib.routes.graphs import node_label
from lib.routes.trace import TraceStep

#: The algorithms a student can play, and the biggest map they can play them on.
QUIZ_ALGORITHMS = ("BFS", "DFS", "Uniform-cost", "Greedy best-first", "A*")
MAX_QUIZ_PLACES = 200

#: What decides each algorithm's next expansion: a frontier entry's value of this name.
DECIDER = {
    "BFS": "order",
    "DFS": "order",
    "Uniform-cost": "g",
    "Greedy best-first": "h",
    "A*": "f",
}
_BEST_FIRST_TIE = (
    "On equal {value} the newest entry goes first: the textbook code "
    "(`best_first_search`) gives each push a number from `itertools.count(0, -1)`, "
    "which counts down, and the heap takes the smallest (f, number)."
)
#: The rule each algorithm follows, ties included, as read off the code that ran it.
RULES = {
    "BFS": "BFS takes the oldest place on the frontier (a FIFO queue: `queue.popleft()`); "
    "places are queued in the order their roads are listed.",
    "DFS": "DFS takes the newest place on the frontier (a LIFO stack: `stack.pop()`); a "
    "place's neighbours are pushed in reverse order of its roads, so its first road's "
    "place is on top.",
    "Uniform-cost": "Uniform-cost takes the lowest f = g, the length of the route so far. "
    + _BEST_FIRST_TIE.format(value="g"),
    "Greedy best-first": "Greedy best-first takes the lowest f = h, the estimate to the goal. "
    + _BEST_FIRST_TIE.format(value="h"),
    "A*": "A* takes the lowest f = g + h. " + _BEST_FIRST_TIE.format(value="f"),
}

#: The order the frontier table lists the places in: the algorithm's own, in words.
ORDER_TEXT = {
    "BFS": "The frontier is listed as BFS takes it: oldest push (lowest Pushed #) first.",
    "DFS": "The frontier is listed as DFS takes it: newest push (highest Pushed #) first.",
    **{
        name: f"The frontier is listed as {name} takes it: lowest {value} first; on a tie "
        f"in {value}, the newest entry (highest Pushed #) first."
        for name, value in (("Uniform-cost", "g"), ("Greedy best-first", "h"), ("A*", "f"))
    },
}


@dataclass(frozen=True)
class Choice:
    """A place on the frontier as the student sees it; ``order``: its push's number (0 first)."""

    node: Hashable
    g: float
    h: float
    f: float
    parent: Hashable | None
    order: int

    @property
    def label(self) -> str:
        """The place's name."""
        return node_label(self.node)


@dataclass(frozen=True)
class Question:
    """One expansion: the frontier just before it (by place name) and the place expanded."""

    step: int  # the trace step at which ``answer`` leaves the frontier
    frontier: tuple[Choice, ...]
    answer: Hashable

    def choice(self, node: Hashable) -> Choice | None:
        """The frontier entry of ``node`` (``None`` if it is not on the frontier)."""
        return next((c for c in self.frontier if c.node == node), None)


def check_algorithm(algorithm: str) -> None:
    """Raise :class:`InputError` unless ``algorithm`` can be played."""
    if algorithm not in QUIZ_ALGORITHMS:
        raise InputError(
            f"“{algorithm}” cannot be played here; choose one of {', '.join(QUIZ_ALGORITHMS)}."
        )


def questions(algorithm: str, trace: Sequence[TraceStep]) -> list[Question]:
    """A question per expansion of ``trace``: each step whose place leaves the frontier.

    Best-first searches expand at their ``pop`` steps, BFS and DFS at their
    ``expand`` (and goal-test) steps; in each the place expanded was on the
    frontier just before. A place pushed again keeps only its newest entry.
    """
    check_algorithm(algorithm)
    frontier: dict[Hashable, Choice] = {}
    asked: list[Question] = []
    pushes = 0
    for index, step in enumerate(trace):
        if step.reset or step.side:
            raise InputError("A quiz follows one search from one start, without restarts.")
        if step.current is not None and step.current in frontier:
            ordered = tuple(sorted(frontier.values(), key=lambda c: c.label))
            asked.append(Question(index, ordered, step.current))
            del frontier[step.current]
        for entry in step.pushed:
            frontier[entry.node] = Choice(
                entry.node, entry.g, entry.h, entry.f, entry.parent, pushes
            )
            pushes += 1
    return asked


def decider(algorithm: str, choice: Choice) -> float:
    """The value that ranks ``choice`` for ``algorithm`` (see :data:`DECIDER`)."""
    return float(getattr(choice, DECIDER[algorithm]))


def ranked(algorithm: str, frontier: Sequence[Choice]) -> list[Choice]:
    """``frontier`` in the order :data:`RULES` says ``algorithm`` takes it (:data:`ORDER_TEXT`)."""
    if algorithm == "BFS":
        return sorted(frontier, key=lambda c: c.order)
    if algorithm == "DFS":
        return sorted(frontier, key=lambda c: -c.order)
    return sorted(frontier, key=lambda c: (decider(algorithm, c), -c.order))


def rule_pick(algorithm: str, frontier: Sequence[Choice]) -> Choice:
    """The entry :data:`RULES` says ``algorithm`` expands next (the tests hold it to the trace)."""
    return ranked(algorithm, frontier)[0]


def value_text(algorithm: str, choice: Choice) -> str:
    """What decides ``choice`` for ``algorithm``, with numbers: ``f = g + h = 140 + 253 = 393``."""
    g, h, f = (f"{v:.4g}" for v in (choice.g, choice.h, choice.f))
    if algorithm == "A*":
        return f"f = g + h = {g} + {h} = {f}"
    if algorithm == "Uniform-cost":
        return f"g = {g}"
    if algorithm == "Greedy best-first":
        return f"h = {h}"
    return f"pushed #{choice.order}"


def explain(algorithm: str, question: Question, chosen: Hashable) -> str:
    """Why ``question.answer`` is expanded, and what ``chosen`` had (markdown-free text)."""
    right = question.choice(question.answer)
    assert right is not None  # questions() only asks about places on the frontier
    value = DECIDER[algorithm]
    rest = [c for c in question.frontier if c.node != right.node]
    if algorithm in ("BFS", "DFS"):
        which = "oldest" if algorithm == "BFS" else "newest"
        why = f"{algorithm} expands {right.label}: pushed #{right.order}, "
        why += f"the {which} on the frontier."
    else:
        why = f"{algorithm} expands {right.label}: {value_text(algorithm, right)}, lowest {value}"
        ties = [c for c in rest if decider(algorithm, c) == decider(algorithm, right)]
        if ties:
            tied = ", ".join(f"{c.label} (pushed #{c.order})" for c in ties)
            why += (
                f", tied with {tied}; on a tie the newest entry goes first, and "
                f"{right.label} was pushed #{right.order}."
            )
        else:
            why += " on the frontier."
    if chosen == right.node:
        return why
    mine = question.choice(chosen)
    had = f"{value_text(algorithm, mine)}" if mine is not None else "not on the frontier"
    return f"You chose {node_label(chosen)} ({had}). {why}"


@dataclass(frozen=True)
class Answer:
    """One answer of a round."""

    number: int  # 1 for the first question
    step: int  # the trace step of the expansion asked about
    chosen: str
    expected: str
    right: bool
    why: str


@dataclass(frozen=True)
class Round:
    """The answers given so far: the next question is ``questions[len(answers)]``."""

    answers: tuple[Answer, ...] = ()

    @property
    def position(self) -> int:
        """The index of the next question."""
        return len(self.answers)

    def finished(self, asked: Sequence[Question]) -> bool:
        """Has every question of ``asked`` been answered?"""
        return self.position >= len(asked)


def answer(
    round_: Round,
    asked: Sequence[Question],
    chosen: Hashable,
    algorithm: str,
    label: Callable[[Hashable], str] = node_label,
) -> Round:
    """The round after answering its next question with ``chosen``, right or wrong.

    A finished round is returned unchanged.
    """
    if round_.finished(asked):
        return round_
    question = asked[round_.position]
    record = Answer(
        round_.position + 1,
        question.step,
        label(chosen),
        label(question.answer),
        chosen == question.answer,
        explain(algorithm, question, chosen),
    )
    return Round((*round_.answers, record))


def score(round_: Round) -> tuple[int, int]:
    """``(right, asked)`` so far."""
    return sum(a.right for a in round_.answers), len(round_.answers)


def answers_table(round_: Round) -> pd.DataFrame:
    """The round's answers, one row each (the page's CSV download)."""
    return pd.DataFrame(
        [(a.number, a.step, a.chosen, a.expected, a.right, a.why) for a in round_.answers],
        columns=["question", "step", "chosen", "expanded", "right", "why"],
    )


def frontier_table(algorithm: str, question: Question) -> pd.DataFrame:
    """The frontier of ``question`` as the student sees it, in ``algorithm``'s own order.

    The rows come as the search takes them (:func:`ranked`, said in
    :data:`ORDER_TEXT`): the next place to expand is on top, its rivals just
    below. BFS and DFS show the order of the pushes (what decides them); their
    f is the number of roads from the start.
    """
    rows = [
        (c.label, c.g, c.h, c.f, c.order, "" if c.parent is None else node_label(c.parent))
        for c in ranked(algorithm, question.frontier)
    ]
    table = pd.DataFrame(rows, columns=["node", "g", "h", "f", "pushed", "parent"])
    if algorithm in ("BFS", "DFS"):
        table = table.drop(columns="h").rename(columns={"f": "depth"})
    return table
