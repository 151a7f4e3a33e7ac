"""Map edits: painting cells, the link text, the upload-format files, the edited grid graph."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.routes import edits, graphs, search
from lib.routes.edits import CellEdit, EditError, EditLinkError


def test_a_wall_cuts_the_route_and_a_cost_makes_it_go_round():
    G = graphs.grid_from_terrain(np.ones((3, 5), np.uint8))
    assert search.run("A*", G, (1, 0), (1, 4)).cost == 4
    terrain = edits.apply_edit(edits.base_terrain(G), CellEdit("cost 10", ((1, 2),)))
    costly = graphs.grid_from_terrain(terrain)
    result = search.run("A*", costly, (1, 0), (1, 4))
    assert result.cost == 6 and (1, 2) not in result.path  # round the cost-10 cell
    assert result.cost == nx.dijkstra_path_length(costly, (1, 0), (1, 4))
    walled = edits.apply_edit(terrain, CellEdit("wall", ((0, 2), (1, 2), (2, 2))))
    cut = graphs.grid_from_terrain(walled)
    assert not nx.has_path(cut, (1, 0), (1, 4))
    assert edits.base_terrain(cut).tolist() == walled.tolist()


def test_erase_frees_a_wall_and_walls_never_cover_the_kept_cells():
    base = np.zeros((2, 2), np.uint8)
    freed = edits.apply_edit(base, CellEdit("erase", ((0, 0), (1, 1))))
    assert freed.tolist() == [[1, 0], [0, 1]]
    kept = edits.apply_edit(freed, CellEdit("wall", ((0, 0), (1, 1))), keep=[(1, 1)])
    assert kept.tolist() == [[0, 0], [0, 1]]
    assert base.tolist() == [[0, 0], [0, 0]]  # pure: the input is not changed


def test_a_generated_grid_reads_back_as_its_terrain_and_rebuilds_the_same_graph():
    G = graphs.grid(12, 15, obstacles=0.3, diagonal=True, seed=3, corridor=True)
    H = graphs.grid_from_terrain(edits.base_terrain(G), diagonal=True)
    assert nx.utils.edges_equal(G.edges, H.edges)
    assert all(G[u][v]["weight"] == H[u][v]["weight"] for u, v in G.edges)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("wall", "not a tool and cells"),
        ({"tool": "paint", "cells": [0, 0]}, "Unknown map tool"),
        ({"tool": "wall", "cells": [0]}, "pairs of row and column"),
        ({"tool": "wall", "cells": []}, "pairs of row and column"),
        ({"tool": "wall", "cells": [0, 1.5]}, "whole numbers"),
        ({"tool": "wall", "cells": [True, 0]}, "whole numbers"),
        ({"tool": "wall", "cells": [3, 0]}, "3,0 is outside the 3x4 grid"),
        ({"tool": "wall", "cells": [0, 0] * (edits.MAX_EDIT_CELLS + 1)}, "at most"),
    ],
)
def test_an_edit_from_the_browser_is_refused_with_a_named_message(value, message):
    with pytest.raises(EditError, match=message):
        edits.parse_edit(value, 3, 4)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 50) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)
EDIT_LIKE = st.fixed_dictionaries(
    {
        "tool": st.sampled_from([*edits.TOOLS, "paint", 3]),
        "cells": JSON | st.lists(st.integers(-2, 9)),
    }
)


@settings(max_examples=300, deadline=None)
@given(JSON | EDIT_LIKE)
def test_anything_the_browser_sends_is_an_edit_inside_the_grid_or_refused_by_name(value):
    try:
        edit = edits.parse_edit(value, 4, 5)
    except EditError as error:
        assert str(error).startswith(("The map edit", "The cell", "Unknown map tool", "One map"))
    else:
        assert edit.tool in edits.TOOLS and edit.cells
        assert all(0 <= r < 4 and 0 <= c < 5 for r, c in edit.cells)


TERRAIN = st.integers(1, 8).flatmap(
    lambda rows: st.integers(1, 9).flatmap(
        lambda cols: st.tuples(
            st.lists(
                st.lists(st.sampled_from((0, 1, 3, 10)), min_size=cols, max_size=cols),
                min_size=rows,
                max_size=rows,
            ),
            st.lists(
                st.tuples(
                    st.sampled_from(list(edits.TOOLS)),
                    st.lists(
                        st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)),
                        min_size=1,
                        max_size=12,
                    ),
                ),
                max_size=6,
            ),
        )
    )
)


@settings(max_examples=200, deadline=None)
@given(TERRAIN)
def test_any_set_of_edits_round_trips_through_the_link_text(case):
    base_rows, strokes = case
    base = np.array(base_rows, dtype=np.uint8)
    rows, cols = base.shape
    parsed = [
        edits.parse_edit({"tool": tool, "cells": [v for cell in cells for v in cell]}, rows, cols)
        for tool, cells in strokes
    ]
    terrain = edits.apply_edits(base, parsed)
    text = edits.encode_terrain(base, terrain)
    assert (text == "") == bool((terrain == base).all())
    assert len(text) <= edits.MAX_LINK_CHARS
    assert edits.decode_terrain(base, text).tolist() == terrain.tolist()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60) | st.text("1AQDwgf_-=", max_size=40).map(lambda s: "1" + s))
def test_any_link_text_is_read_or_refused_with_a_named_message(text):
    base = np.ones((4, 5), np.uint8)
    try:
        terrain = edits.decode_terrain(base, text)
    except EditLinkError as error:
        assert str(error).startswith("The link's map edits")
    else:
        assert terrain.shape == base.shape
        assert set(np.unique(terrain)) <= {0, 1, 3, 10}


def test_link_text_names_what_is_wrong():
    base = np.ones((4, 5), np.uint8)
    other = edits.encode_terrain(np.ones((5, 5), np.uint8), np.zeros((5, 5), np.uint8))
    with pytest.raises(EditLinkError, match="grid of 25 cells; this grid has 20"):
        edits.decode_terrain(base, other)
    with pytest.raises(EditLinkError, match="unknown format"):
        edits.decode_terrain(base, "2AAA")
    with pytest.raises(EditLinkError, match="at most 2,000"):
        edits.decode_terrain(base, "1" + "A" * 2_000)
    with pytest.raises(EditLinkError, match="not base64url"):
        edits.decode_terrain(base, "1AB+C")


def test_a_big_grid_s_stroke_fits_the_link_size():
    G = graphs.grid(60, 80, obstacles=0.25, seed=1, corridor=True)
    base = edits.base_terrain(G)
    wall = CellEdit("wall", tuple((r, 40) for r in range(60)))
    terrain = edits.apply_edits(base, [wall, CellEdit("cost 10", ((5, 5), (5, 6)))])
    text = edits.encode_terrain(base, terrain)
    assert len(text) < 400
    assert edits.decode_terrain(base, text).tolist() == terrain.tolist()


def test_the_edited_map_round_trips_through_the_upload_format():
    base = edits.base_terrain(graphs.grid(6, 7, obstacles=0.2, seed=2, corridor=True))
    terrain = edits.apply_edit(base, CellEdit("cost 3", ((0, 1), (0, 2), (1, 1))))
    G = graphs.grid_from_terrain(terrain, diagonal=True)
    H = graphs.load_graph_csv(edits.edges_csv(G), edits.nodes_csv(G))
    label = graphs.node_label
    assert sorted(H.nodes) == sorted(label(n) for n in G.nodes)
    for u, v, w in G.edges(data="weight"):
        assert H[label(u)][label(v)]["weight"] == w
    for n, pos in G.nodes(data="pos"):
        assert H.nodes[label(n)]["pos"] == pos


def test_romania_round_trips_through_the_upload_format():
    G = graphs.romania()
    H = graphs.load_graph_csv(edits.edges_csv(G), edits.nodes_csv(G))
    assert nx.utils.graphs_equal(nx.Graph(G.edges(data=True)), nx.Graph(H.edges(data=True)))
    assert dict(G.nodes(data="pos")) == dict(H.nodes(data="pos"))


def test_the_walled_ends_are_named_in_order_and_freeing_them_gives_an_isolated_pair():
    terrain = np.zeros((3, 4), np.uint8)  # a link's edits may wall every cell
    ends = [(2, 0), (2, 3), (9, 9)]  # the last is off the grid: not a wall of it
    assert edits.walled_ends(terrain, ends) == [(2, 0), (2, 3)]
    freed = edits.apply_edit(terrain, CellEdit("erase", tuple(edits.walled_ends(terrain, ends))))
    G = graphs.grid_from_terrain(freed)
    assert sorted(G.nodes) == [(2, 0), (2, 3)] and not nx.has_path(G, (2, 0), (2, 3))
    assert edits.walled_ends(np.ones((3, 4), np.uint8), ends) == []
