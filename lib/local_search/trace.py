"""What a local search did, step by step: the tracer the textbook algorithms report to.

The algorithms in :mod:`lib.local_search.textbook` say what they do by calling
a :class:`Tracer` (``start``, ``step``, ``restart``) instead of keeping
counts themselves, so they read like the book's pseudocode. The tracer counts
the steps and restarts, keeps the objective ``h`` after every step (the chart of
the objective over steps) and, up to :data:`MAX_RECORDS`, a :class:`Step` record
with the whole state (the board the page animates).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

MAX_RECORDS = 2_000
"""Most step records (with their states) a tracer keeps; the ``h`` history is kept whole."""


@dataclass(frozen=True)
class Step:
    """One step: the state after it, its ``h``, the move made (column, row) and what it was."""

    index: int
    h: int
    state: tuple[int, ...]
    move: tuple[int, int] | None = None
    note: str = ""


@dataclass
class Tracer:
    """Counts steps and restarts; keeps ``h`` per step and the first :data:`MAX_RECORDS` records.

    ``keep_states=False`` keeps no records (large boards, long benchmarks).
    ``on_step`` is called with the step count after each step (progress, cancel).
    """

    keep_states: bool = True
    limit: int = MAX_RECORDS
    on_step: Callable[[int], None] | None = None
    steps: int = 0
    restarts: int = 0
    history: list[int] = field(default_factory=list)
    records: list[Step] = field(default_factory=list)
    last: tuple[int, ...] | list[int] = ()  # the latest state reported (not copied)

    def start(self, state: tuple[int, ...] | list[int], h: int, note: str = "start") -> None:
        """The state a search starts from (also after each restart)."""
        self.last = state
        self.history.append(h)
        self._record(state, h, None, note)

    def step(
        self,
        state: tuple[int, ...] | list[int],
        h: int,
        move: tuple[int, int] | None = None,
        note: str = "",
    ) -> None:
        """One step of the search: the state after it and its ``h``."""
        self.last = state
        self.steps += 1
        self.history.append(h)
        self._record(state, h, move, note)
        if self.on_step is not None:
            self.on_step(self.steps)

    def restart(self) -> None:
        """A random restart (the next :meth:`start` is its new state)."""
        self.restarts += 1

    def _record(
        self, state: tuple[int, ...] | list[int], h: int, move: tuple[int, int] | None, note: str
    ) -> None:
        if self.keep_states and len(self.records) < self.limit:
            self.records.append(Step(len(self.history) - 1, h, tuple(state), move, note))
