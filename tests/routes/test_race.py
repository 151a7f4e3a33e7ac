"""The race's data: one expansion per tick for every racer, and the counters under each."""

from __future__ import annotations

import pytest

from lib.routes import animation, graphs, race, search
from lib.routes.trace import Part


@pytest.mark.parametrize("name", list(search.ALGORITHMS))
def test_tick_t_is_the_search_after_t_expansions(name):
    G = graphs.grid(8, 9, obstacles=0.2, seed=4, corridor=True)
    start, goal = (0, 0), (7, 8)
    h = graphs.make_heuristic(G, graphs.MANHATTAN)
    traced = search.run(name, G, start, goal, h, record_trace=True, max_trace_steps=100_000)
    ticks = race.tick_steps(traced.trace)
    assert ticks[-1] == len(traced.trace) - 1 and list(ticks) == sorted(ticks)
    expansions = [
        i
        for i, s in enumerate(traced.trace)
        if s.current is not None
        and (
            s.part in (Part.POP, Part.EXPAND)
            or (s.part is Part.GOAL_TEST and traced.trace[i - 1].current != s.current)
        )
    ]
    assert len(ticks) == len(expansions) + 1
    for t, step in enumerate(ticks[:-1]):  # tick t ends just before expansion t + 1 starts
        assert step == max(0, expansions[t] - 1)


def test_race_data_holds_each_racer_and_refuses_a_lone_racer():
    G = graphs.romania()
    h = graphs.make_heuristic(G, graphs.STRAIGHT)
    racers = []
    for name in ("A*", "Uniform-cost", "BFS"):
        r = search.run(name, G, "Arad", "Bucharest", h, record_trace=True)
        racers.append(race.Racer(name, r.trace, r.path, r.cost))
    data = race.race_data(G, racers, start="Arad", goal="Bucharest", title="race")
    assert [r["name"] for r in data["racers"]] == ["A*", "Uniform-cost", "BFS"]
    astar, ucs, _ = data["racers"]
    assert astar["ticks"] < ucs["ticks"] and data["ticks"] == max(
        r["ticks"] for r in data["racers"]
    )
    assert astar["cost"] == 418 and ucs["cost"] == 418
    sizes = animation.unpack(astar["frontierSize"])
    assert sizes[0] == 1 and len(sizes) == astar["ticks"] + 1
    with pytest.raises(ValueError, match="2 to 4 racers"):
        race.race_data(G, racers[:1], start="Arad", goal="Bucharest")


@pytest.mark.parametrize("name", list(search.ALGORITHMS))
def test_the_race_s_last_tick_counts_the_expansions_the_table_reports(name):
    """The counter under a racer ends at the search's own count of expansions (the legend's
    and the table's): BFS's and DFS's last expansion is the one whose goal test ends it."""
    grid = graphs.grid(8, 9, obstacles=0.2, seed=4, corridor=True)
    cases = [
        (grid, (0, 0), (7, 8), graphs.make_heuristic(grid, graphs.MANHATTAN)),
        (graphs.romania(), "Arad", "Bucharest", None),
        (graphs.romania(), "Arad", "Arad", None),  # the start is the goal: one expansion
        (graphs.romania(), "Neamt", "Timisoara", None),
    ]
    for G, start, goal, h in cases:
        h = graphs.StraightLine.of(G) if h is None else h
        traced = search.run(name, G, start, goal, h, record_trace=True, max_trace_steps=100_000)
        other = search.run("A*", G, start, goal, h, record_trace=True)
        racers = [
            race.Racer(name, traced.trace, traced.path, traced.cost),
            race.Racer("A*", other.trace, other.path, other.cost),
        ]
        data = race.race_data(G, racers, start=start, goal=goal)
        assert data["racers"][0]["ticks"] == traced.expanded, (start, goal)
