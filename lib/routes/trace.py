"""What a route search did, step by step: the trace the page animates and replays.

A trace is a list of :class:`TraceStep` deltas (what left the frontier, what
was pushed onto it). Each step says which part of the search's pseudocode it
is (:class:`Part`: pop, goal test, expand, push, update), so the page can
highlight that line of the code beside the map. :func:`replay` turns the
deltas into the frontier, explored set and current node after every step.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum

from lib.errors import InputError


class Part(str, Enum):
    """The parts of a search's pseudocode that a trace step can be."""

    POP = "pop"  # take the best entry off the frontier
    GOAL_TEST = "goal test"  # the entry taken off is the goal: done
    EXPAND = "expand"  # look at the roads out of a place (one step for all, BFS/DFS/IDA*)
    PUSH = "push"  # put a newly reached place on the frontier
    UPDATE = "update"  # a cheaper route to a place already reached: push it again


@dataclass(frozen=True)
class FrontierEntry:
    """A node on the frontier: its cost so far ``g``, estimate ``h`` and priority ``f``.

    ``side`` is ``"forward"`` or ``"backward"`` for bidirectional search, else
    ``""``. For the course's "B*", ``h`` is ``h(n, goal) + h(start, n)``.
    """

    node: Hashable
    g: float
    h: float
    f: float
    parent: Hashable | None
    side: str = ""


@dataclass(frozen=True)
class TraceStep:
    """One step of a search, as a change to the frontier.

    ``current`` is the node being expanded (``None`` for the first step,
    which only pushes the start, and for an IDA* restart): it leaves the
    frontier and joins the explored set. ``pushed`` are the entries added to
    the frontier or improved by this step. ``reset`` (IDA*) clears the
    frontier and explored set first. ``part`` is the line of the pseudocode
    this step is: best-first searches record one step per pop, goal test,
    push and update; BFS, DFS, IDA* and bidirectional search one ``expand``
    step per node (its pushes included).
    """

    current: Hashable | None
    pushed: tuple[FrontierEntry, ...]
    side: str = ""
    reset: bool = False
    note: str = ""
    part: Part = Part.EXPAND


@dataclass(frozen=True)
class TraceState:
    """The search as it stands after a step: what :func:`replay` yields."""

    step: int
    current: Hashable | None
    side: str
    frontier: tuple[FrontierEntry, ...]  # sorted by f, then g
    explored: frozenset
    note: str = ""
    part: Part = Part.EXPAND


@dataclass
class Recorder:
    """Collects trace steps up to a cap (a no-op when recording is off)."""

    on: bool
    cap: int
    steps: list[TraceStep] = field(default_factory=list)
    truncated: bool = False

    def add(self, step: TraceStep) -> None:
        """Keep ``step`` if there is room, else mark the trace as cut."""
        if len(self.steps) < self.cap:
            self.steps.append(step)
        else:
            self.truncated = True


def apply_step(step: TraceStep, frontier: dict, explored: set) -> None:
    """Update ``frontier`` (keyed by ``(side, node)``) and ``explored`` in place with ``step``."""
    if step.reset:
        frontier.clear()
        explored.clear()
    if step.current is not None:
        # A push or update step names the place being expanded, which already left the
        # frontier at its pop step; taking it off again changes nothing.
        frontier.pop((step.side, step.current), None)
        explored.add(step.current)
    for entry in step.pushed:
        frontier[(entry.side, entry.node)] = entry


def replay(
    trace: tuple[TraceStep, ...] | list[TraceStep], steps: Iterable[int] | None = None
) -> Iterator[TraceState]:
    """The frontier, explored set and current node after each step of ``trace``.

    Frontier entries are keyed by ``(side, node)``: an improved entry
    replaces the old one, an expanded node leaves the frontier and joins the
    explored set. With ``steps``, only the states after those step indices
    are built (building every state of a long trace costs time quadratic in
    its length).
    """
    wanted = None if steps is None else set(steps)
    frontier: dict[tuple[str, Hashable], FrontierEntry] = {}
    explored: set = set()
    for index, step in enumerate(trace):
        apply_step(step, frontier, explored)
        if wanted is None or index in wanted:
            ordered = tuple(sorted(frontier.values(), key=lambda e: (e.f, -e.g)))
            yield TraceState(
                index,
                step.current,
                step.side,
                ordered,
                frozenset(explored),
                step.note,
                step.part,
            )


def trace_state(trace: tuple[TraceStep, ...] | list[TraceStep], step: int) -> TraceState:
    """The state after step ``step`` (0-based, clamped to the trace) of ``trace``."""
    if not trace:
        raise InputError("This search has no recorded trace (record_trace was off).")
    step = max(0, min(step, len(trace) - 1))
    return next(replay(trace[: step + 1], steps=[step]))
