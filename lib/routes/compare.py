"""Comparisons: every algorithm on every pair of places, and checks of a heuristic.

Shortest-route costs come from networkx's Dijkstra (the oracle), never from
the algorithms being compared.

>>> from lib.routes.graphs import romania, StraightLine
>>> G = romania()
>>> table = all_pairs(G, ["A*", 'Course "B*"'], StraightLine.of(G))
>>> float(summary(table).loc["A*", "optimal_share"])
1.0
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx
import pandas as pd

from lib.errors import InputError
from lib.routes.graphs import node_label
from lib.routes.search import (
    ALGORITHMS,
    MAX_IDA_EXPANSIONS,
    Heuristic,
    RouteResult,
    TraceState,
    TraceStep,
    apply_step,
    run,
)

#: Cap on searches in one comparison (pairs x algorithms), to keep a hosted app responsive.
MAX_SEARCHES = 20_000
#: Cap on (goals x places) for the heuristic checks (one Dijkstra per goal).
MAX_CHECK_WORK = 250_000
#: Relative tolerance when comparing costs (sums of floats).
TOLERANCE = 1e-9

COLUMNS = [
    "source",
    "target",
    "algorithm",
    "cost",
    "optimal_cost",
    "optimal",
    "excess_pct",
    "edges",
    "expanded",
    "generated",
    "max_frontier",
    "seconds",
]


#: On-screen labels for the columns of this module's tables: ``column -> (label, help,
#: number format or None)``. The CSV downloads keep the column names themselves, which
#: are stable (see README, "Route search CSV columns"); only the screen uses these.
COLUMN_LABELS: dict[str, tuple[str, str, str | None]] = {
    "source": ("From", "Start of the pair", None),
    "target": ("To", "Goal of the pair", None),
    "algorithm": ("Algorithm", "", None),
    "cost": ("Route length", "Length of the route the algorithm returned", "%.4g"),
    "optimal_cost": ("Shortest length", "Length of the shortest route (Dijkstra)", "%.4g"),
    "optimal": ("Shortest?", "Did the algorithm return a shortest route?", None),
    "excess_pct": ("Longer by %", "How much longer than the shortest route, in %", "%.2f"),
    "edges": ("Roads", "Number of roads (edges) on the route", None),
    "expanded": ("Expanded", "Places taken off the frontier and expanded", None),
    "generated": ("Generated", "Places put on the frontier", None),
    "max_frontier": ("Largest frontier", "Most places waiting on the frontier at once", None),
    "seconds": ("Time (s)", "Wall-clock time of the search", "%.5f"),
    "pairs": ("Pairs", "Pairs of places compared", None),
    "optimal_share": ("Shortest found", "Share of pairs where the route was shortest", "percent"),
    "suboptimal_pairs": ("Longer routes", "Pairs where the route was not shortest", None),
    "mean_excess_pct": ("Mean longer by %", "Mean excess over the shortest route, in %", "%.2f"),
    "max_excess_pct": ("Worst longer by %", "Largest excess over the shortest route, in %", "%.2f"),
    "mean_expanded": ("Mean expanded", "Mean places expanded per pair", "%.1f"),
    "mean_generated": ("Mean generated", "Mean places generated per pair", "%.1f"),
    "mean_ms": ("Mean time (ms)", "Mean wall-clock time per search", "%.3f"),
    "node": ("Place", "", None),
    "goal": ("Goal", "", None),
    "h": ("h (estimate)", "The heuristic's estimate to the goal", "%.4g"),
    "true_cost": ("Shortest length", "True shortest route length to the goal", "%.4g"),
    "excess": ("Overestimate", "How much the estimate is too large", "%.4g"),
    "u": ("From place", "", None),
    "v": ("To place", "", None),
    "h_u": ("h(from)", "Estimate from the first place to the goal", "%.4g"),
    "h_v": ("h(to)", "Estimate from the second place to the goal", "%.4g"),
    "weight": ("Road length", "", "%.4g"),
    "from": ("From", "", None),
    "to": ("To", "", None),
    "road": ("Road length", "", "%.4g"),
    "straight_line": ("Straight line", "Straight-line distance between the two ends", "%.1f"),
    "side": ("Side", "Bidirectional search: the forward or the backward frontier", None),
    "g": ("g (so far)", "Cost of the best route found so far to the place", "%.4g"),
    "f": ("f (priority)", "The value the frontier is ordered by", "%.4g"),
    "parent": ("Reached from", "", None),
    "step": ("Step", "", None),
    "pushed": ("Put on the frontier", "", None),
    "frontier": ("Frontier size", "", None),
    "explored": ("Explored", "", None),
    "note": ("Note", "", None),
}


def choose_pairs(
    G: nx.Graph,
    *,
    ordered: bool = True,
    max_pairs: int | None = None,
    seed: int = 0,
) -> list[tuple[Hashable, Hashable]]:
    """All pairs of distinct nodes (ordered or not), or a seeded sample of ``max_pairs``."""
    nodes = list(G.nodes)
    combos = itertools.permutations if ordered else itertools.combinations
    count = len(nodes) * (len(nodes) - 1) // (1 if ordered else 2)
    if max_pairs is None or count <= max_pairs:
        return list(combos(nodes, 2))
    rng = random.Random(seed)
    chosen: set[tuple[int, int]] = set()
    while len(chosen) < max_pairs:
        i, j = rng.randrange(len(nodes)), rng.randrange(len(nodes))
        if i != j:
            chosen.add((i, j) if ordered or i < j else (j, i))
    return [(nodes[i], nodes[j]) for i, j in sorted(chosen)]


def route_table(results: Mapping[str, RouteResult], optimum: float | None) -> pd.DataFrame:
    """One row per algorithm's route for one query, against the shortest length ``optimum``.

    Columns: ``algorithm, cost, shortest`` (within :data:`TOLERANCE` of
    ``optimum``), ``roads, expanded, generated, max frontier, ms``.

    >>> from lib.routes.graphs import romania, StraightLine
    >>> from lib.routes.search import astar
    >>> G = romania()
    >>> r = astar(G, "Arad", "Bucharest", StraightLine.of(G))
    >>> route_table({"A*": r}, 418.0)[["algorithm", "cost", "shortest", "roads"]]
      algorithm   cost  shortest  roads
    0        A*  418.0      True      4
    """
    rows = [
        (
            name,
            r.cost,
            optimum is not None and r.cost <= optimum * (1 + TOLERANCE) + TOLERANCE,
            r.edges,
            r.expanded,
            r.generated,
            r.max_frontier,
            r.seconds * 1000,
        )
        for name, r in results.items()
    ]
    columns = ["algorithm", "cost", "shortest", "roads", "expanded", "generated"]
    return pd.DataFrame(rows, columns=[*columns, "max frontier", "ms"])


def all_pairs(
    G: nx.Graph,
    algorithms: Sequence[str],
    heuristic: Heuristic | None = None,
    *,
    pairs: Sequence[tuple[Hashable, Hashable]] | None = None,
    ordered: bool = True,
    weight: str = "weight",
    w: float = 1.5,
    max_expansions: int = MAX_IDA_EXPANSIONS,
    on_progress: Callable[[int, int], None] | None = None,
    drop_failing: bool = False,
) -> pd.DataFrame:
    """Run each algorithm on each pair; one row per (pair, algorithm).

    Columns: ``source, target, algorithm, cost, optimal_cost`` (Dijkstra),
    ``optimal`` (cost within 1e-9 relative of the optimum), ``excess_pct``
    (how much longer than optimal, in %), ``edges, expanded, generated,
    max_frontier, seconds``. Pairs with no route are left out (also one whose
    shortest length overflows to infinity, or that a search reports as having
    none). ``pairs``
    defaults to :func:`choose_pairs`; ``on_progress(done, total)`` is called
    after each pair. ``max_expansions`` caps each IDA* search (as in
    :func:`lib.routes.search.run`; it raises InputError when reached). With
    ``drop_failing``, an algorithm that raises InputError on some pair is left
    out of the whole table instead (so that every algorithm kept is compared on
    the same pairs), and ``table.attrs["dropped"]`` maps its name to the message.
    """
    pairs = list(choose_pairs(G, ordered=ordered) if pairs is None else pairs)
    _check_comparison(algorithms, len(pairs))
    optimum: dict[Hashable, dict] = {}
    table = _Table(algorithms, drop_failing)

    def search(name: str, s: Hashable, t: Hashable) -> RouteResult:
        return run(name, G, s, t, heuristic, weight=weight, w=w, max_expansions=max_expansions)

    for done, (s, t) in enumerate(pairs, start=1):
        if s not in optimum:
            optimum[s] = nx.single_source_dijkstra_path_length(G, s, weight=weight)
        best = optimum[s].get(t)
        # A route whose length overflows to infinity (road lengths near 1e308) is no route:
        # the searches report "no path" for it, as they do for places in different parts.
        if best is not None and math.isfinite(best):
            table.add_pair(s, t, float(best), search)
        if on_progress is not None:
            on_progress(done, len(pairs))
    return table.frame()


def _check_comparison(algorithms: Sequence[str], pairs: int) -> None:
    """Refuse an unknown algorithm, none at all, or more searches than allowed."""
    unknown = [a for a in algorithms if a not in ALGORITHMS]
    if unknown:
        raise InputError(f"Unknown algorithm(s): {', '.join(unknown)}.")
    if not algorithms:
        raise InputError("Choose at least one algorithm to compare.")
    if pairs * len(algorithms) > MAX_SEARCHES:
        raise InputError(
            f"{pairs:,} pairs x {len(algorithms)} algorithms is over the limit of "
            f"{MAX_SEARCHES:,} searches; sample fewer pairs or choose fewer algorithms."
        )


Searcher = Callable[[str, Hashable, Hashable], RouteResult]
"""One algorithm (by name) from a place to another: what :func:`all_pairs` compares."""


class _Table:
    """The rows of :func:`all_pairs` so far, and the algorithms still compared."""

    def __init__(self, algorithms: Sequence[str], drop_failing: bool) -> None:
        self.active = list(algorithms)
        self.drop_failing = drop_failing
        self.rows: list[tuple] = []
        self.dropped: dict[str, str] = {}

    def add_pair(self, s: Hashable, t: Hashable, best: float, search: Searcher) -> None:
        """Each algorithm still compared on ``s`` → ``t`` (optimum ``best``): a row each,
        or none at all when a search finds no route (every algorithm has the same pairs)."""
        pair_rows = []
        for name in list(self.active):
            try:
                result = search(name, s, t)
            except nx.NetworkXNoPath:
                return
            except InputError as error:
                if not self.drop_failing:
                    raise
                self._drop(name, f"{node_label(s)} → {node_label(t)}: {error}")
                pair_rows = [row for row in pair_rows if row[2] != name]
                continue
            pair_rows.append(_row(s, t, name, result, best))
        self.rows.extend(pair_rows)

    def _drop(self, name: str, why: str) -> None:
        """Leave ``name`` out of the whole table (its rows so far too), saying why."""
        self.dropped[name] = why
        self.active.remove(name)
        self.rows = [row for row in self.rows if row[2] != name]

    def frame(self) -> pd.DataFrame:
        table = pd.DataFrame(self.rows, columns=COLUMNS)
        table.attrs["dropped"] = self.dropped
        return table


def _row(s: Hashable, t: Hashable, name: str, result: RouteResult, best: float) -> tuple:
    """One row of :data:`COLUMNS`: ``name``'s route from ``s`` to ``t`` against ``best``."""
    excess = 0.0 if best == 0 else 100.0 * (result.cost - best) / best
    return (
        node_label(s),
        node_label(t),
        name,
        result.cost,
        best,
        bool(result.cost <= best * (1 + TOLERANCE) + TOLERANCE),
        max(0.0, excess),
        result.edges,
        result.expanded,
        result.generated,
        result.max_frontier,
        result.seconds,
    )


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per algorithm: pairs, how often optimal, mean and worst excess %, mean effort and time."""
    if table.empty:
        return pd.DataFrame(
            columns=[
                "pairs",
                "optimal_share",
                "suboptimal_pairs",
                "mean_excess_pct",
                "max_excess_pct",
                "mean_expanded",
                "mean_generated",
                "mean_ms",
            ]
        )
    grouped = table.groupby("algorithm", sort=False)
    out = pd.DataFrame(
        {
            "pairs": grouped.size(),
            "optimal_share": grouped["optimal"].mean(),
            "suboptimal_pairs": grouped["optimal"].apply(lambda s: int((~s).sum())),
            "mean_excess_pct": grouped["excess_pct"].mean(),
            "max_excess_pct": grouped["excess_pct"].max(),
            "mean_expanded": grouped["expanded"].mean(),
            "mean_generated": grouped["generated"].mean(),
            "mean_ms": grouped["seconds"].mean() * 1000.0,
        }
    )
    out.index.name = "algorithm"
    return out


def suboptimal(table: pd.DataFrame, algorithm: str) -> pd.DataFrame:
    """The rows where ``algorithm`` returned a longer route than the optimum, worst first."""
    rows = table[(table["algorithm"] == algorithm) & ~table["optimal"]]
    return rows.sort_values("excess_pct", ascending=False).reset_index(drop=True)


# --------------------------------------------------------------------------- heuristic checks


@dataclass(frozen=True)
class HeuristicReport:
    """Whether a heuristic is admissible and consistent on a graph, with the violations.

    ``admissibility`` lists ``(node, goal, h, true_cost, excess)`` where
    ``h(node, goal)`` exceeds the shortest route; ``consistency`` lists
    ``(u, v, goal, h_u, h_v, weight, excess)`` where ``h(u, goal) > w(u, v) +
    h(v, goal)``. Both are sorted worst first.
    """

    goals: int
    admissibility: pd.DataFrame
    consistency: pd.DataFrame
    scale: float  # largest factor keeping the heuristic admissible (inf if h is 0 everywhere)

    @property
    def admissible(self) -> bool:
        """True when no checked pair has h above the true remaining cost."""
        return self.admissibility.empty

    @property
    def consistent(self) -> bool:
        """True when no road breaks h(u) <= length(u, v) + h(v)."""
        return self.consistency.empty


def check_heuristic(
    G: nx.Graph,
    heuristic: Heuristic,
    *,
    goals: Sequence[Hashable] | None = None,
    weight: str = "weight",
    tolerance: float = 1e-9,
) -> HeuristicReport:
    """Check ``heuristic`` for admissibility and consistency towards each goal in ``goals``.

    ``goals`` defaults to every node. A heuristic that cannot estimate a goal
    (such as the book's table, which only knows Bucharest) is skipped for
    that goal. ``scale`` is the largest factor ``s`` for which ``s * h`` is
    admissible towards the goals checked.
    """
    goals = list(G.nodes) if goals is None else list(goals)
    if len(goals) * G.number_of_nodes() > MAX_CHECK_WORK:
        raise InputError(
            f"Checking a heuristic towards {len(goals):,} goals on {G.number_of_nodes():,} "
            f"places is over the limit of {MAX_CHECK_WORK:,} place-goal pairs; "
            "check fewer goals."
        )
    reverse = G.reverse(copy=False) if G.is_directed() else G
    adm_rows, con_rows = [], []
    scale = math.inf
    checked = 0
    for goal in goals:
        try:
            h = {n: float(heuristic(n, goal)) for n in G.nodes}
        except (InputError, KeyError):
            continue
        checked += 1
        true = nx.single_source_dijkstra_path_length(reverse, goal, weight=weight)
        for node, d in true.items():
            if h[node] > d + tolerance * max(1.0, d):
                adm_rows.append(
                    (node_label(node), node_label(goal), h[node], float(d), h[node] - d)
                )
            if h[node] > 0:
                scale = min(scale, d / h[node])
        for u, v, data in G.edges(data=True):
            w = data.get(weight, 1)
            for a, b in ((u, v), (v, u)) if not G.is_directed() else ((u, v),):
                if h[a] > w + h[b] + tolerance * max(1.0, w):
                    con_rows.append(
                        (
                            node_label(a),
                            node_label(b),
                            node_label(goal),
                            h[a],
                            h[b],
                            float(w),
                            h[a] - w - h[b],
                        )
                    )
    admissibility = pd.DataFrame(adm_rows, columns=["node", "goal", "h", "true_cost", "excess"])
    consistency = pd.DataFrame(
        con_rows, columns=["u", "v", "goal", "h_u", "h_v", "weight", "excess"]
    )
    return HeuristicReport(
        checked,
        admissibility.sort_values("excess", ascending=False, ignore_index=True),
        consistency.sort_values("excess", ascending=False, ignore_index=True),
        scale,
    )


def road_checks(G: nx.Graph, heuristic: Heuristic, *, weight: str = "weight") -> pd.DataFrame:
    """For each road: its length next to ``h`` between its ends, longest excess first.

    On Romania with map coordinates this shows which roads are shorter than
    the straight line drawn between their cities.
    """
    rows = []
    for u, v, data in G.edges(data=True):
        w = float(data.get(weight, 1))
        straight = float(heuristic(u, v))
        rows.append((node_label(u), node_label(v), w, straight, straight - w))
    table = pd.DataFrame(rows, columns=["from", "to", "road", "straight_line", "excess"])
    return table.sort_values("excess", ascending=False, ignore_index=True)


def length_decimals(lengths: Iterable[float], figures: int = 4) -> int:
    """Decimals that show a typical road of ``lengths`` with ``figures`` significant figures.

    The road report writes a road and the straight line beside it with these
    decimals, so both are equally precise: Romania's roads (70 to 211 km) get
    1 decimal (``279.5 vs 142.0``), a random graph's (about 0.05) get 5
    (``0.04102 vs 0.04102``), where a fixed ``.1f`` wrote the straight line
    as ``0.0``. The typical road is the median of the positive lengths.

    >>> length_decimals([140, 75, 211]), length_decimals([0.041016, 0.09]), length_decimals([])
    (1, 5, 1)
    """
    positive = sorted(abs(x) for x in lengths if math.isfinite(x) and x > 0)
    if not positive:
        return 1
    typical = positive[len(positive) // 2]
    return max(0, figures - 1 - math.floor(math.log10(typical)))


# --------------------------------------------------------------------------- trace tables


def frontier_table(state: TraceState) -> pd.DataFrame:
    """The frontier after a step as a table, best ``f`` first (the animation's side table)."""
    return pd.DataFrame(
        [
            (
                node_label(e.node),
                e.side,
                e.g,
                e.h,
                e.f,
                "" if e.parent is None else node_label(e.parent),
            )
            for e in state.frontier
        ],
        columns=["node", "side", "g", "h", "f", "parent"],
    )


def trace_table(trace: Sequence[TraceStep]) -> pd.DataFrame:
    """One row per step: what was expanded, what was pushed, frontier and explored sizes."""
    rows = []
    frontier: dict = {}
    explored: set = set()
    for index, step in enumerate(trace):
        apply_step(step, frontier, explored)
        rows.append(
            (
                index,
                "" if step.current is None else node_label(step.current),
                step.side,
                " ".join(node_label(e.node) for e in step.pushed),
                len(frontier),
                len(explored),
                step.note,
            )
        )
    return pd.DataFrame(
        rows, columns=["step", "expanded", "side", "pushed", "frontier", "explored", "note"]
    )
