"""Places: the start and goal a map opens with, and the place nearest a click."""

from __future__ import annotations

import networkx as nx
import pytest

from lib.routes import graphs
from lib.routes.places import default_endpoints


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_graph_opens_corner_to_corner_on_a_pair_with_a_route(seed):
    G = graphs.random_geometric(300, seed=seed)
    start, goal = (graphs.find_node(G, label) for label in default_endpoints(G))
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
    assert default_endpoints(G) == ("D", "G")  # G: 2 from D, the farthest by road
    one_part = b"source,target,weight\nA,B,1\nB,C,2\n"
    assert default_endpoints(graphs.load_graph_csv(one_part)) == ("A", "C")


@pytest.mark.parametrize(
    ("G", "expected"),
    [(graphs.romania(), ("Arad", "Bucharest")), (graphs.grid(6, 9, seed=1), ("0,0", "5,8"))],
)
def test_book_map_and_grid_open_as_before(G, expected):
    assert default_endpoints(G) == expected
