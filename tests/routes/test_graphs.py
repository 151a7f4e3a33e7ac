"""Romania map, CSV loaders, generators and heuristics (networkx as the oracle)."""

from __future__ import annotations

import math

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.routes import compare, graphs
from lib.routes.graphs import (
    BUCHAREST_SLD,
    Manhattan,
    Octile,
    StraightLine,
    admissible_scale,
    grid,
    load_graph_csv,
    random_geometric,
    romania,
)

EDGES = "source,target,weight\nA,B,1\nB,C,2\nA,C,4\n"
NODES = "node,x,y\nA,0,0\nB,1,0\nC,2,0\n"


# --------------------------------------------------------------------------- Romania


def test_romania_has_20_cities_23_roads_and_is_connected():
    G = romania()
    assert (G.number_of_nodes(), G.number_of_edges()) == (20, 23)
    assert nx.is_connected(G)
    assert all(isinstance(G.nodes[n]["pos"], tuple) for n in G)
    assert set(G.nodes) == set(BUCHAREST_SLD)


def test_romania_shortest_arad_bucharest_is_the_book_route():
    G = romania()
    path = nx.dijkstra_path(G, "Arad", "Bucharest")
    assert path == ["Arad", "Sibiu", "Rimnicu Vilcea", "Pitesti", "Bucharest"]
    assert nx.path_weight(G, path, "weight") == 418


def test_romania_is_a_fresh_graph_each_call():
    G = romania()
    G.remove_node("Arad")
    assert "Arad" in romania()


def test_book_table_never_overestimates_the_road_distance_to_bucharest():
    G = romania()
    true = nx.single_source_dijkstra_path_length(G, "Bucharest")
    for city, sld in BUCHAREST_SLD.items():
        assert sld <= true[city], city
    report = compare.check_heuristic(G, graphs.bucharest_table(), goals=["Bucharest"])
    assert report.goals == 1 and report.admissible


def test_bundled_coordinates_are_the_courses_map_positions():
    """The course's map coordinates: positions on a drawing, not kilometres.

    The straight line is longer than the road on exactly the three roads the
    course names (``../shared/REFERENCE.md``: Drobeta–Mehadia 76.6 vs 75,
    Iasi–Vaslui 107.2 vs 92, Urziceni–Vaslui 279.5 vs 142) and shorter on every
    other road. Euclidean distances are computed independently of
    :class:`StraightLine`.
    """
    G = romania()
    longer = {}
    for u, v, w in G.edges(data="weight"):
        (x1, y1), (x2, y2) = G.nodes[u]["pos"], G.nodes[v]["pos"]
        straight = math.dist((x1, y1), (x2, y2))
        assert straight == pytest.approx(StraightLine.of(G)(u, v))
        if straight > w:
            longer[frozenset((u, v))] = (round(straight, 1), w)
    assert longer == {
        frozenset(("Drobeta", "Mehadia")): (76.6, 75),
        frozenset(("Iasi", "Vaslui")): (107.2, 92),
        frozenset(("Urziceni", "Vaslui")): (279.5, 142),
    }


# --------------------------------------------------------------------------- loaders


def test_loader_reads_edges_and_nodes():
    G = load_graph_csv(EDGES, NODES)
    assert sorted(G.edges(data="weight")) == [("A", "B", 1.0), ("A", "C", 4.0), ("B", "C", 2.0)]
    assert G.nodes["C"]["pos"] == (2.0, 0.0)
    assert G.graph["has_coordinates"] is True


def test_loader_is_tolerant_of_case_spaces_and_bom():
    G = load_graph_csv("\ufeffSource, Target , WEIGHT\n A , B , 2.5\n".encode())
    assert G["A"]["B"]["weight"] == 2.5


def test_loader_without_nodes_lays_out_and_flags_no_coordinates():
    G = load_graph_csv(EDGES)
    assert G.graph["has_coordinates"] is False
    assert graphs.heuristic_choices(G) == [graphs.ZERO]
    assert all(len(G.nodes[n]["pos"]) == 2 for n in G)


@pytest.mark.parametrize(("places", "spring"), [(600, True), (2_100, False)])
def test_big_uploads_without_coordinates_are_spread_out_up_to_2000_places(places, spring):
    ring = nx.cycle_graph(places)  # a ring: its spring layout is not a circle of equal radii
    ring.add_edges_from((i, (i * 7) % places) for i in range(0, places, 3))
    rows = "".join(f"P{u},P{v},1\n" for u, v in ring.edges if u != v)
    G = load_graph_csv("source,target,weight\n" + rows)
    radii = [math.hypot(*G.nodes[n]["pos"]) for n in G]
    assert len(radii) == places and all(math.isfinite(r) for r in radii)
    on_a_circle = max(radii) - min(radii) < 1e-6
    assert on_a_circle is not spring


@pytest.mark.parametrize("sep", [",", ";", "\t"])
def test_loader_accepts_comma_semicolon_and_tab_separated_files(sep):
    edges = EDGES.replace(",", sep)
    nodes = NODES.replace(",", sep)
    G = load_graph_csv(edges.encode(), nodes.encode())
    R = load_graph_csv(EDGES, NODES)
    assert sorted(G.edges(data="weight")) == sorted(R.edges(data="weight"))
    assert dict(G.nodes(data="pos")) == dict(R.nodes(data="pos"))


def test_romania_as_a_semicolon_file_with_decimal_commas_loads():
    text = graphs.ROMANIA_EDGES_CSV.read_text(encoding="utf-8")
    semicolons = text.replace(",", ";").replace("140", "140,0")  # as a spreadsheet exports it
    G = load_graph_csv(semicolons)
    assert sorted(G.edges(data="weight")) == sorted(romania().edges(data="weight"))


@pytest.mark.parametrize(
    ("edges", "expected"),
    [
        ("source|target|weight\nA|B|1\n", "separated by vertical bars"),
        ("source;target,weight\nA;B,1\n", "one separator (comma, semicolon or tab)"),
        ("source target weight\nA B 1\n", "Only one column was found"),
        ("A,B,1\nB,C,2\n", "Is the header row missing or misspelt?"),
    ],
)
def test_a_header_that_still_does_not_match_suggests_the_likely_cause(edges, expected):
    with pytest.raises(InputError, match="missing column") as caught:
        load_graph_csv(edges)
    assert expected in str(caught.value)


def test_romania_csv_files_round_trip_through_the_loader():
    G = load_graph_csv(graphs.ROMANIA_EDGES_CSV, graphs.ROMANIA_NODES_CSV)
    R = romania()
    assert sorted(G.edges(data="weight")) == sorted(R.edges(data="weight"))
    assert dict(G.nodes(data="pos")) == dict(R.nodes(data="pos"))


@pytest.mark.parametrize(
    ("edges", "nodes", "expected"),
    [
        ("", None, "empty"),
        ("from,to,weight\nA,B,1\n", None, "missing column(s) source, target"),
        ("source,target,weight\n", None, "no roads"),
        ("source,target,weight\nA,B,1\nB,C,far\n", None, "line 3, column 'weight': 'far'"),
        ("source,target,weight\nA,B,-2\n", None, "line 2, column 'weight': '-2' is negative"),
        ("source,target,weight\nA,B,inf\n", None, "not a finite number"),
        ("source,target,weight\nA,B,nan\n", None, "not a finite number"),
        (
            "source,target,weight\nA,B,1\nB,C,1e308\n",
            None,
            "line 3, column 'weight': '1e308' is too",
        ),
        (EDGES, "node,x,y\nA,0,0\nB,-2e13,0\nC,2,0\n", "line 3, column 'x': '-2e13' is too large"),
        ("source,target,weight\nA,B,\n", None, "'' is not a number"),
        ("source,target,weight\nA,,1\n", None, "line 2, column 'target': the name is empty"),
        ("source,target,weight\nA,A,1\n", None, "line 2: 'A' is joined to itself"),
        ("source,target,weight\nA,B,1\nB,A,2\n", None, "line 3: the road B–A is already given"),
        (EDGES, "node,x\nA,0\n", "missing column(s) y"),
        (EDGES, "node,x,y\nA,0,0\nA,1,1\nB,1,0\nC,2,0\n", "line 3: node 'A' is already given"),
        (EDGES, "node,x,y\nA,0,0\nB,one,0\nC,2,0\n", "line 3, column 'x': 'one'"),
        (EDGES, "node,x,y\nA,0,0\n", "no coordinates for 'B', 'C'"),
        (EDGES, "node,x,y\n,0,0\n", "line 2, column 'node': the name is empty"),
    ],
)
def test_loader_rejects_bad_input_with_a_precise_message(edges, nodes, expected):
    with pytest.raises(InputError, match=r"edges CSV|nodes CSV") as caught:
        load_graph_csv(edges, nodes)
    assert expected in str(caught.value)


def test_largest_accepted_numbers_keep_route_lengths_finite():
    rows = "".join(f"P{i},P{i + 1},{graphs.MAX_UPLOAD_NUMBER:.0e}\n" for i in range(2_000))
    G = load_graph_csv("source,target,weight\n" + rows)
    length = nx.dijkstra_path_length(G, "P0", "P2000")
    assert math.isfinite(length) and length == pytest.approx(2_000 * graphs.MAX_UPLOAD_NUMBER)


def test_loader_rejects_non_utf8_and_unparsable_files():
    with pytest.raises(InputError, match=r"line 2 is not valid UTF-8 \(byte b'\\xff' at offset 21"):
        load_graph_csv(b"source,target,weight\n\xff\xfe,B,1\n")
    with pytest.raises(InputError, match=r"line 2 \('\"A,B,1'\): a double quote .* never closed"):
        load_graph_csv('source,target,weight\n"A,B,1\n')


@pytest.mark.parametrize(
    ("edges", "nodes", "expected"),
    [
        (  # pandas said "Error tokenizing data. C error: Expected 3 fields in line 3, saw 4"
            "source,target,weight\nA,B,1\nB,C,2,9\n",
            None,
            "edges CSV: line 3 has 4 fields ('B,C,2,9') but the header on line 1 has 3",
        ),
        (  # an extra field on the first row made pandas read the first column as an index
            "source,target,weight\nA,B,1,9\nB,C,2\n",
            None,
            "edges CSV: line 2 has 4 fields ('A,B,1,9') but the header on line 1 has 3",
        ),
        (
            "source;target;weight\nA;B;1,5\nB;C;2;x\n",
            None,
            "line 3 has 4 fields ('B;C;2;x') but the header on line 1 has 3. Every row needs "
            "the same number of fields as the header, separated by semicolons",
        ),
        (
            EDGES,
            "node,x,y\nA,0,0\nB,1,0,5\nC,2,0\n",
            "nodes CSV: line 3 has 4 fields ('B,1,0,5') but the header on line 1 has 3",
        ),
        (  # the blank line counts: the bad weight is on line 4 of the file
            "source,target,weight\nA,B,1\n\nB,C,x\n",
            None,
            "edges CSV, line 4, column 'weight': 'x' is not a number",
        ),
        (
            "source,target,weight,Weight\nA,B,1,2\n",
            None,
            "edges CSV: line 1: column 'Weight' appears twice (columns 3 and 4)",
        ),
        (b"PK\x03\x04\x14\x00\x06\x00", None, "edges CSV: this looks like a binary file"),
        (
            'source,target,weight\n"A,B,1\n',
            None,
            "line 2 ('\"A,B,1'): a double quote (\") opens a value that is never closed",
        ),
    ],
)
def test_a_badly_shaped_map_file_is_named_by_line_and_row(edges, nodes, expected):
    with pytest.raises(InputError) as caught:
        load_graph_csv(edges, nodes)
    assert expected in str(caught.value)


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-le"])
@pytest.mark.parametrize("sep", [";", "\t"])
def test_spreadsheet_exports_load_with_bom_utf16_and_decimal_commas(encoding, sep):
    # Excel's "Unicode text" is UTF-16 with tabs; a European "CSV" uses semicolons and 1,5
    edges = f"Source{sep}Target{sep}Weight\nZürich{sep}Genève{sep}1,5\nGenève{sep}Bâle{sep}2\n"
    nodes = f"node{sep}x{sep}y\nZürich{sep}0,5{sep}-1,25\nGenève{sep}0{sep}0\nBâle{sep}3{sep}4\n"
    G = load_graph_csv(edges.encode(encoding), nodes.encode(encoding))
    roads = {frozenset((u, v)): w for u, v, w in G.edges(data="weight")}
    assert roads == {frozenset(("Zürich", "Genève")): 1.5, frozenset(("Genève", "Bâle")): 2.0}
    assert G.nodes["Zürich"]["pos"] == (0.5, -1.25)


def test_a_map_file_in_windows_encoding_is_named_by_line_and_byte():
    raw = "source,target,weight\nA,B,1\nZürich,B,2\n".encode("cp1252")
    with pytest.raises(InputError, match=r"^edges CSV: line 3 is not valid UTF-8 \(byte b'\\xfc'"):
        load_graph_csv(raw)


def test_loader_enforces_size_caps():
    with pytest.raises(InputError, match="over the limit of 2"):
        load_graph_csv(EDGES, max_edges=2)
    with pytest.raises(InputError, match="3 places is over the limit of 2"):
        load_graph_csv(EDGES, max_nodes=2)


def test_loader_refuses_files_over_the_byte_cap(monkeypatch):
    import io

    monkeypatch.setattr(graphs, "MAX_UPLOAD_BYTES", 30)
    text = "source,target,weight\nA,B,1\nB,C,2\n"  # 33 characters
    for source in (text, text.encode(), io.BytesIO(text.encode()), io.StringIO(text)):
        with pytest.raises(InputError, match=r"^roads\.csv: the file is larger.* 30 bytes"):
            load_graph_csv(source, edges_name="roads.csv")
    assert load_graph_csv(text[:-6], edges_name="roads.csv").number_of_edges() == 1


def test_loader_names_the_file_in_errors():
    with pytest.raises(InputError, match=r"^roads\.csv, line 2"):
        load_graph_csv("source,target,weight\nA,B,x\n", edges_name="roads.csv")


# --------------------------------------------------------------------------- generators


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 5), (3, 4), (7, 7)])
def test_empty_grid_edge_counts(rows, cols):
    four = grid(rows, cols, obstacles=0.0)
    eight = grid(rows, cols, obstacles=0.0, diagonal=True)
    assert four.number_of_nodes() == rows * cols
    assert four.number_of_edges() == rows * (cols - 1) + cols * (rows - 1)
    assert eight.number_of_edges() == four.number_of_edges() + 2 * (rows - 1) * (cols - 1)
    assert nx.is_isomorphic(four, nx.grid_2d_graph(rows, cols))


def test_grid_is_seeded_and_keeps_corners_free():
    a = grid(30, 30, obstacles=0.3, seed=4)
    b = grid(30, 30, obstacles=0.3, seed=4)
    c = grid(30, 30, obstacles=0.3, seed=5)
    assert a.graph["obstacles"] == b.graph["obstacles"] != c.graph["obstacles"]
    assert (0, 0) in a and (29, 29) in a
    assert a.number_of_nodes() + len(a.graph["obstacles"]) == 900


def test_grid_obstacle_share_is_close_to_the_requested_one():
    G = grid(200, 200, obstacles=0.25, seed=0)
    assert len(G.graph["obstacles"]) / 40_000 == pytest.approx(0.25, abs=0.01)


def test_grid_diagonals_weigh_root2_and_never_cut_a_blocked_corner():
    G = grid(25, 25, obstacles=0.3, diagonal=True, seed=2)
    blocked = set(G.graph["obstacles"])
    for (r1, c1), (r2, c2), w in G.edges(data="weight"):
        if r1 != r2 and c1 != c2:
            assert w == pytest.approx(math.sqrt(2))
            assert (r1, c2) not in blocked and (r2, c1) not in blocked
        else:
            assert w == 1.0


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 30), st.integers(2, 30), st.integers(0, 10_000))
def test_grid_corridor_always_joins_the_corners(rows, cols, seed):
    G = grid(rows, cols, obstacles=0.45, seed=seed, corridor=True)
    assert nx.has_path(G, (0, 0), (rows - 1, cols - 1))


def test_grid_rejects_bad_parameters():
    with pytest.raises(InputError):
        grid(0, 5)
    with pytest.raises(InputError):
        grid(5, 5, obstacles=1.0)


def test_random_geometric_matches_a_brute_force_neighbour_search():
    G = random_geometric(80, radius=0.2, seed=3)
    pos = nx.get_node_attributes(G, "pos")
    expected = {
        frozenset((i, j))
        for i in range(80)
        for j in range(i + 1, 80)
        if math.dist(pos[i], pos[j]) <= 0.2
    }
    assert {frozenset(e) for e in G.edges} == expected
    for u, v, w in G.edges(data="weight"):
        assert w == pytest.approx(math.dist(pos[u], pos[v]))
    assert random_geometric(80, radius=0.2, seed=3).edges == G.edges


def test_random_geometric_rejects_bad_parameters():
    with pytest.raises(InputError):
        random_geometric(1)
    with pytest.raises(InputError):
        random_geometric(10, radius=0)


# --------------------------------------------------------------------------- heuristics


def test_admissible_scale_is_tight():
    G = romania()
    scale = admissible_scale(G)
    assert compare.check_heuristic(G, StraightLine.of(G, scale)).admissible
    assert not compare.check_heuristic(G, StraightLine.of(G, scale * 1.001)).admissible


def test_admissible_scale_fixes_an_overestimating_map():
    G = load_graph_csv(EDGES, "node,x,y\nA,0,0\nB,3,0\nC,6,0\n")  # A-B road 1, straight 3
    scale = admissible_scale(G)
    assert scale == pytest.approx(1 / 3)
    report = compare.check_heuristic(G, StraightLine.of(G))
    assert not report.admissible
    assert report.scale == pytest.approx(scale)
    assert compare.check_heuristic(G, StraightLine.of(G, scale)).admissible


def test_grid_heuristics_are_exact_on_an_empty_grid():
    four = grid(6, 9, obstacles=0.0)
    eight = grid(6, 9, obstacles=0.0, diagonal=True)
    for G, h in ((four, Manhattan.of(four)), (eight, Octile.of(eight))):
        true = nx.single_source_dijkstra_path_length(G, (5, 8))
        for node, d in true.items():
            assert h(node, (5, 8)) == pytest.approx(d)


def test_heuristic_menu_matches_the_graph():
    R = romania()
    assert graphs.heuristic_choices(R)[0] == graphs.STRAIGHT
    assert graphs.BOOK in graphs.heuristic_choices(R)
    assert graphs.heuristic_choices(grid(3, 3))[0] == graphs.MANHATTAN
    assert graphs.heuristic_choices(grid(3, 3, diagonal=True))[0] == graphs.OCTILE
    assert graphs.make_heuristic(R, graphs.ZERO) is None
    assert isinstance(graphs.make_heuristic(R, graphs.SCALED), StraightLine)
    with pytest.raises(InputError):
        graphs.make_heuristic(grid(3, 3), graphs.BOOK)
    with pytest.raises(InputError, match="only estimates distances to Bucharest"):
        graphs.bucharest_table()("Arad", "Sibiu")


def test_the_scaled_straight_line_is_offered_only_where_it_can_be_computed(monkeypatch):
    monkeypatch.setattr(graphs, "SCALE_MAX_NODES", 10)
    edges = "".join(f"{i},{i + 1},2\n" for i in range(10))  # 11 places on a line
    nodes = "".join(f"{i},{i},0\n" for i in range(11))
    big = load_graph_csv("source,target,weight\n" + edges, "node,x,y\n" + nodes)
    assert graphs.SCALED not in graphs.heuristic_choices(big)
    with pytest.raises(InputError, match="over the limit"):
        graphs.admissible_scale(big, max_nodes=10)
    small = big.subgraph(list(big.nodes)[:10]).copy()
    assert graphs.SCALED in graphs.heuristic_choices(small)
    assert graphs.admissible_scale(small) == pytest.approx(2.0)  # each road 2, line 1


def test_node_labels_round_trip():
    G = grid(4, 4)
    for node in G:
        assert graphs.find_node(G, graphs.node_label(node)) == node
    assert graphs.find_node(G, "nowhere") is None
