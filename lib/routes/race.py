"""A race of search algorithms on one map: what the browser plays, one expansion per tick each.

Each racer is one algorithm's traced search (:func:`lib.routes.search.run` with
``record_trace=True``). A *tick* is one expansion: at tick ``t`` every racer shows its
search after its ``t``-th expansion (its whole search once it has finished), so the
racers move in step and the one that needs fewer expansions finishes first.
:func:`race_data` builds what the canvas race (``lib/ui/components/route_player.js``)
gets: the map once, and per racer the paints of :func:`lib.routes.animation.paints`,
the trace step each tick ends on, and the counters shown under it (expanded places,
frontier size, the route's cost once found).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import networkx as nx
import numpy as np

from lib.routes import animation, map_data, plots
from lib.routes.trace import Part, TraceStep

#: How many algorithms race at once.
MIN_RACERS, MAX_RACERS = 2, 4
#: A tick at normal speed (1x), in milliseconds; the speed control divides it.
TICK_MS = 60


@dataclass(frozen=True)
class Racer:
    """One algorithm in the race: its name, traced search, route found and its cost."""

    name: str
    trace: Sequence[TraceStep]
    path: Sequence[Hashable]
    cost: float | None


def tick_steps(trace: Sequence[TraceStep]) -> np.ndarray:
    """The trace step each tick ends on: tick ``t`` is the search after ``t`` expansions.

    An expansion starts at a pop (best-first searches) or an expand step (BFS, DFS,
    IDA*, bidirectional) and runs until the next one; tick 0 is the start pushed. A
    goal test of a place other than the one being expanded is an expansion too (the
    last one of BFS, DFS and IDA*, which test a place when they take it), so the
    last tick is the search's own count of expansions (``RouteResult.expanded``).

    >>> from lib.routes.trace import FrontierEntry
    >>> push = TraceStep(None, (FrontierEntry("A", 0, 0, 0, None),), part=Part.PUSH)
    >>> pop, test = TraceStep("A", (), part=Part.POP), TraceStep("A", (), part=Part.GOAL_TEST)
    >>> tick_steps([push, pop, test])
    array([0, 2])
    >>> tick_steps([push, test])  # BFS from the goal: its goal test is its one expansion
    array([0, 1])
    """
    return np.asarray(_tick_ends(expansion_starts(trace), len(trace)), dtype=np.int64)


def expansion_starts(trace: Sequence[TraceStep]) -> list[int]:
    """The steps at which an expansion starts (see :func:`tick_steps`)."""
    starts: list[int] = []
    expanding: Hashable | None = None
    for i, step in enumerate(trace):
        if step.current is None:
            continue
        if step.part in (Part.POP, Part.EXPAND) or (
            step.part is Part.GOAL_TEST and step.current != expanding
        ):
            starts.append(i)
            expanding = step.current
    return starts


def _tick_ends(starts: list[int], length: int) -> list[int]:
    """Each tick's last step: just before the next expansion starts, the last step at the end."""
    ends = [start - 1 for start in starts] + [length - 1]
    ends[0] = max(ends[0], 0)  # a trace opening on an expansion: tick 0 shows step 0
    return ends


def race_data(
    G: nx.Graph,
    racers: Sequence[Racer],
    *,
    start: Hashable,
    goal: Hashable,
    title: str = "",
) -> dict:
    """What the canvas race gets (JSON-ready): the map once and each racer's search.

    Raises ``ValueError`` for fewer than :data:`MIN_RACERS` or more than
    :data:`MAX_RACERS` racers, or a racer without a trace.
    """
    if not MIN_RACERS <= len(racers) <= MAX_RACERS:
        raise ValueError(f"a race has {MIN_RACERS} to {MAX_RACERS} racers, not {len(racers)}")
    W = map_data.whole_numbers(G)
    index = {node: i for i, node in enumerate(W.nodes)}
    data = animation._drawing(W, start=start, goal=goal, title=title)
    data["racers"] = [_racer(racer, index, start, goal, k) for k, racer in enumerate(racers)]
    data["ticks"] = max(r["ticks"] for r in data["racers"])
    data["tickMs"] = TICK_MS
    data["mode"] = "race"
    data["digest"] = hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]
    return data


def _racer(racer: Racer, index: dict, start: Hashable, goal: Hashable, k: int) -> dict:
    """One racer's arrays (packed as :func:`lib.routes.animation.pack`)."""
    if not racer.trace:
        raise ValueError(f"{racer.name} has no trace: run it with record_trace=True")
    found = animation.paints(racer.trace, start, goal)
    sizes, _ = animation.step_counts(racer.trace)
    ticks = tick_steps(racer.trace)
    pack = animation._packed_ints
    return {
        "name": racer.name,
        "colour": plots.colour(k),
        "paintPlace": pack([index[n] for n in found.nodes]),
        "paintStep": pack(found.steps),
        "paintKind": animation.pack(found.kinds, "uint8"),
        "current": pack([-1 if s.current is None else index[s.current] for s in racer.trace]),
        "tickStep": pack(ticks),
        "frontierSize": pack([sizes[t] for t in ticks]),
        "route": pack([index[n] for n in racer.path]),
        "cost": racer.cost,
        "ticks": len(ticks) - 1,
    }
