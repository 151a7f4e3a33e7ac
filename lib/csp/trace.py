"""What a CSP search did, event by event: counts always, the events the page replays when asked.

The searches of :mod:`lib.csp.search` report to a :class:`CSPTracer`: each
assignment, each value pruned from a domain (by forward checking or AC-3),
each undo of an assignment with the prunings it restores, and each backtrack
(a variable none of whose values worked). :func:`replay` turns the events into
the assignment and every variable's remaining domain after any step.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum


class Kind(str, Enum):
    """The kinds of event, each a marked line of the search's code (``# [assign]`` ...)."""

    ASSIGN = "assign"  # a variable takes a value
    PRUNE = "prune"  # a value leaves a variable's domain (inference)
    UNASSIGN = "unassign"  # an assignment is undone, its prunings restored
    BACKTRACK = "backtrack"  # no value of the variable worked: go back
    SOLUTION = "solution"  # every variable has a value, no constraint broken


@dataclass(frozen=True)
class Event:
    """One step of a search: ``kind`` on ``var`` (= ``value``); ``cause`` the variable behind it.

    An UNASSIGN event carries the ``(variable, value)`` prunings it restores.
    ``note`` is a line for the student (e.g. "3 conflicts left").
    """

    kind: Kind
    var: Hashable = None
    value: Hashable = None
    cause: Hashable = None
    restored: tuple[tuple[Hashable, Hashable], ...] = ()
    note: str = ""


@dataclass
class CSPTracer:
    """Counts a search's work; keeps its events (up to ``cap``) when ``record`` is on."""

    record: bool = False
    cap: int = 20_000
    assignments: int = 0
    backtracks: int = 0
    prunes: int = 0
    checks: int = 0
    events: list[Event] = field(default_factory=list)
    truncated: bool = False
    should_stop: object = None  # a callable returning True to give up (a cancelled run)

    def _add(self, event: Event) -> None:
        if not self.record:
            return
        if len(self.events) < self.cap:
            self.events.append(event)
        else:
            self.truncated = True

    def check(self) -> None:
        """One constraint was tested (a consistency check)."""
        self.checks += 1

    def assign(self, var: Hashable, value: Hashable, note: str = "") -> None:
        """``var = value`` was tried."""
        self.assignments += 1
        self._add(Event(Kind.ASSIGN, var, value, note=note))

    def prune(self, var: Hashable, value: Hashable, cause: Hashable = None) -> None:
        """``value`` left ``var``'s domain, because of ``cause``."""
        self.prunes += 1
        self._add(Event(Kind.PRUNE, var, value, cause))

    def unassign(self, var: Hashable, value: Hashable, restored: Sequence) -> None:
        """``var = value`` was undone; ``restored`` prunings are back."""
        self._add(Event(Kind.UNASSIGN, var, value, restored=tuple(restored)))

    def backtrack(self, var: Hashable) -> None:
        """None of ``var``'s values led to a solution."""
        self.backtracks += 1
        self._add(Event(Kind.BACKTRACK, var))

    def solution(self) -> None:
        """A complete, consistent assignment was found."""
        self._add(Event(Kind.SOLUTION))

    def stopping(self) -> bool:
        """Whether the run was asked to stop (checked once per assignment)."""
        return bool(self.should_stop and self.should_stop())  # type: ignore[operator]


@dataclass(frozen=True)
class SearchState:
    """The search after a step: the assignment, the remaining domains, the step's event."""

    step: int
    assignment: dict
    domains: dict
    event: Event | None


def replay(domains: Mapping[Hashable, Sequence], events: Sequence[Event], step: int) -> SearchState:
    """The assignment and remaining domains after event ``step`` (0-based, clamped).

    ``step = -1`` gives the start: nothing assigned, the full domains. An
    assignment narrows its variable's domain to the value in the picture only
    through PRUNE events (the searches prune the other values when inference is on).
    """
    step = max(-1, min(step, len(events) - 1))
    current = {var: list(values) for var, values in domains.items()}
    assignment: dict = {}
    for event in events[: step + 1]:
        if event.kind is Kind.ASSIGN:
            assignment[event.var] = event.value
        elif event.kind is Kind.PRUNE:
            if event.value in current[event.var]:
                current[event.var].remove(event.value)
        elif event.kind is Kind.UNASSIGN:
            assignment.pop(event.var, None)
            for var, value in event.restored:
                current[var].append(value)
    order = {var: {v: i for i, v in enumerate(values)} for var, values in domains.items()}
    ordered = {var: sorted(vals, key=order[var].__getitem__) for var, vals in current.items()}
    return SearchState(step, assignment, ordered, events[step] if step >= 0 else None)


class SearchStopped(Exception):
    """A search gave up: asked to stop, or past its cap of assignments (``reason`` says which)."""

    def __init__(self, reason: str, tracer: CSPTracer | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.tracer = tracer
