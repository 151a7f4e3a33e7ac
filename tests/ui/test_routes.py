"""Server caps of the route page's cached graph builders (they hold for URL settings too)."""

from __future__ import annotations

import pytest

from lib.errors import InputError
from lib.routes import graphs
from lib.ui import routes_common


def test_grid_and_random_graph_sizes_are_capped_in_lib():
    with pytest.raises(InputError, match="over this server's limit"):
        routes_common.grid(routes_common.MAX_GRID_ROWS + 1, 10, 0.2, False, 1)
    with pytest.raises(InputError, match="over this server's limit"):
        routes_common.grid(10, routes_common.MAX_GRID_COLS + 1, 0.2, False, 1)
    with pytest.raises(InputError, match="over this server's limit"):
        routes_common.random_graph(routes_common.MAX_RANDOM_N + 1, 1)
    G = routes_common.grid(routes_common.MAX_GRID_ROWS, routes_common.MAX_GRID_COLS, 0.0, False, 1)
    assert G.number_of_nodes() == routes_common.MAX_GRID_ROWS * routes_common.MAX_GRID_COLS
    assert (
        routes_common.random_graph(routes_common.MAX_RANDOM_N, 1).number_of_nodes()
        == routes_common.MAX_RANDOM_N
    )


def _snapshot(G):
    """Everything a session could change on a shared graph (not networkx's own cache)."""
    return (
        repr(sorted(G.graph.items(), key=str)),
        [(n, sorted(d.items())) for n, d in G.nodes(data=True)],
        [(u, v, sorted(d.items())) for u, v, d in G.edges(data=True)],
    )


@pytest.mark.parametrize(
    "make", [routes_common.romania, lambda: routes_common.grid(12, 15, 0.25, True, 3)]
)
def test_what_the_page_runs_leaves_the_shared_cached_graph_unchanged(make):
    from lib.routes import animation, compare, search

    G = make()
    before = _snapshot(G)
    nodes = list(G.nodes)
    start, goal = nodes[0], nodes[-1]
    for name in graphs.heuristic_choices(G):
        h = graphs.make_heuristic(G, name)
        table = isinstance(h, graphs.TableHeuristic)
        target = h.goal if table else goal
        for algo in search.ALGORITHMS:
            if table and algo == 'Course "B*"':
                continue  # needs h(start, n), which the book's table does not have
            for _ in range(2):  # Romania gets its index on its second query (grids have one)
                result = search.run(
                    algo, G, start, target, h, max_expansions=routes_common.MAX_EXPANSIONS
                )
            traced = search.run(algo, G, start, target, h, record_trace=True)
        animation.route_map_data(  # the route map
            G, routes=[("r", result.path)], start=start, goal=target, title="t"
        )
        for step in (0, len(traced.trace) // 2, len(traced.trace) - 1):
            animation.player_data(  # the step map's player
                G, traced.trace, step=step, path=traced.path, start=start, goal=target
            )
        if h is not None and not table:
            compare.all_pairs(G, ["A*", "IDA*"], h, pairs=compare.choose_pairs(G, max_pairs=5))
            compare.check_heuristic(G, h, goals=[goal])
    assert _snapshot(G) == before
    assert make() is G  # the very object every session shares


def test_the_route_link_schema_fits_numbers_and_refuses_unknown_values():
    from lib.links import read_link
    from lib.ui.routes_page import LINK

    values, notes = read_link(
        LINK,
        {
            "rows": "100",
            "cols": "-3",
            "w": "2.46",
            "source": "![x](http://attacker/img)",
            "algos": "BFS|Foo|A*",
            "diagonal": "OFF",
        },
    )
    assert values["rows"] == routes_common.MAX_GRID_ROWS and values["cols"] == 5
    assert values["w"] == 2.5
    assert values["source"] == routes_common.ROMANIA  # the default
    assert values["algos"] == ["BFS", "A*"]
    assert values["diagonal"] is False
    assert len(notes) == 3  # rows, cols, source
    for bad in ("nan", "inf", "-inf", "x"):
        values, notes = read_link(LINK, {"w": bad})
        assert values["w"] == 1.5 and "is not a number" in notes[0]
    values, notes = read_link(LINK, {"algos": "Foo|Bar", "diagonal": "maybe"})
    assert "is not yes or no" in notes[0] and "algorithm names joined by |" in notes[1]
