"""Server caps of the route page's cached graph builders (they hold for URL settings too)."""

from __future__ import annotations

import networkx as nx
import pytest

from lib.errors import InputError
from lib.routes import graphs
from lib.ui import routes as ui


def test_grid_and_random_graph_sizes_are_capped_in_lib():
    with pytest.raises(InputError, match="over this server's limit"):
        ui.grid(ui.MAX_GRID_ROWS + 1, 10, 0.2, False, 1)
    with pytest.raises(InputError, match="over this server's limit"):
        ui.grid(10, ui.MAX_GRID_COLS + 1, 0.2, False, 1)
    with pytest.raises(InputError, match="over this server's limit"):
        ui.random_graph(ui.MAX_RANDOM_N + 1, 1)
    G = ui.grid(ui.MAX_GRID_ROWS, ui.MAX_GRID_COLS, 0.0, False, 1)
    assert G.number_of_nodes() == ui.MAX_GRID_ROWS * ui.MAX_GRID_COLS
    assert ui.random_graph(ui.MAX_RANDOM_N, 1).number_of_nodes() == ui.MAX_RANDOM_N


def _snapshot(G):
    """Everything a session could change on a shared graph (not networkx's own cache)."""
    return (
        repr(sorted(G.graph.items(), key=str)),
        [(n, sorted(d.items())) for n, d in G.nodes(data=True)],
        [(u, v, sorted(d.items())) for u, v, d in G.edges(data=True)],
    )


@pytest.mark.parametrize("make", [ui.romania, lambda: ui.grid(12, 15, 0.25, True, 3)])
def test_what_the_page_runs_leaves_the_shared_cached_graph_unchanged(make):
    from lib.routes import compare, graphs, plots, search

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
                result = search.run(algo, G, start, target, h, max_expansions=ui.MAX_EXPANSIONS)
            traced = search.run(algo, G, start, target, h, record_trace=True)
        plots.map_figure(G, routes=[("r", result.path)], start=start, goal=target, title="t")
        plots.animation_figure(G, traced.trace, path=traced.path, start=start, goal=target)
        if h is not None and not table:
            compare.all_pairs(G, ["A*", "IDA*"], h, pairs=compare.choose_pairs(G, max_pairs=5))
            compare.check_heuristic(G, h, goals=[goal])
    assert _snapshot(G) == before
    assert make() is G  # the very object every session shares


def test_url_parsers_clamp_numbers_and_refuse_unknown_values():
    assert ui.parse_int(5, 60)("100") == 60 and ui.parse_int(5, 60)("-3") == 5
    with pytest.raises(ValueError):
        ui.parse_int(5, 60)("many")
    w = ui.parse_float(1.0, 5.0, digits=1)
    assert w("2.46") == 2.5 and w("99") == 5.0 and w("0") == 1.0
    for bad in ("nan", "inf", "-inf", "x"):
        with pytest.raises(ValueError):
            w(bad)
    source = ui.parse_choice(ui.SOURCES)
    assert source(ui.GRID) == ui.GRID
    with pytest.raises(ValueError):
        source("![x](http://attacker/img)")
    names = ui.parse_names(["A*", "BFS", "IDA*"])
    assert names("BFS|Foo|A*") == ["BFS", "A*"]
    with pytest.raises(ValueError):
        names("Foo|Bar")


def test_url_parsers_know_their_range():
    assert ui.parse_int(5, 60).range == (5, 60)
    assert ui.parse_float(1.0, 5.0, digits=1).range == (1.0, 5.0)
    assert not hasattr(ui.parse_choice(ui.SOURCES), "range")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_graph_opens_corner_to_corner_on_a_pair_with_a_route(seed):
    G = graphs.random_geometric(300, seed=seed)
    start, goal = (graphs.find_node(G, label) for label in ui.default_endpoints(G))
    part = nx.node_connected_component(G, start)
    assert goal in part and start != goal
    assert len(part) == max(len(c) for c in nx.connected_components(G))
    assert sum(G.nodes[start]["pos"]) == min(sum(G.nodes[n]["pos"]) for n in part)
    far = nx.single_source_dijkstra_path_length(G, start)
    assert far[goal] == max(far.values())


def test_upload_opens_on_the_first_place_of_its_file_and_the_farthest_it_reaches():
    # two parts: A-B-C (3 places) and D-E-F-G (4 places, the larger)
    data = b"source,target,weight\nA,B,1\nB,C,2\nD,E,1\nD,F,1\nF,G,5\nE,G,1\n"
    G = graphs.load_graph_csv(data)
    assert ui.default_endpoints(G) == ("D", "G")  # G: 2 from D, the farthest by road
    one_part = b"source,target,weight\nA,B,1\nB,C,2\n"
    assert ui.default_endpoints(graphs.load_graph_csv(one_part)) == ("A", "C")


@pytest.mark.parametrize(
    ("G", "expected"),
    [(graphs.romania(), ("Arad", "Bucharest")), (graphs.grid(6, 9, seed=1), ("0,0", "5,8"))],
)
def test_book_map_and_grid_open_as_before(G, expected):
    assert ui.default_endpoints(G) == expected


@pytest.mark.parametrize(
    ("text", "value"),
    [("True", True), ("False", False), ("yes", True), ("OFF", False), ("1", True), ("0", False)],
)
def test_url_on_off_values(text, value):
    assert ui.parse_bool(text) is value


@pytest.mark.parametrize("text", ["maybe", "", "2", "Truee"])
def test_url_on_off_values_not_understood_are_refused(text):
    with pytest.raises(ValueError):
        ui.parse_bool(text)
