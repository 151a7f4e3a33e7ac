"""The step-through tree figure (lib/games/step_plots.py): what is drawn at a step, where,
and which labels are written on it."""

from __future__ import annotations

import itertools

import pytest

from lib.charts import MIN_FONT
from lib.games import core, textbook_tree
from lib.games.drawing.step_tree import (
    CURRENT_COLOUR,
    DENSE_LEAVES,
    FULL_LABEL_LEAVES,
    LABEL_FLIP_SHARE,
    PRUNED_COLOUR,
    TREE_PLOT_PIXELS,
    counter_text,
    label_rows,
    label_widths,
    labelled_paths,
    node_label,
    step_tree_figure,
    tree_positions,
    unit_pixels,
)
from lib.games.search.stepthrough import StepPosition, run_step_search, tree_at, window_label
from lib.games.textbook_tree import THREE_PLY, leaf_value


@pytest.fixture(scope="module")
def textbook():
    position = StepPosition(
        "tree",
        textbook_tree.initial_state(THREE_PLY),
        leaf_value,
        textbook_tree.format_move,
        depth=3,
        abstract=True,
    )
    return run_step_search(position, algorithm="alphabeta")


@pytest.fixture(scope="module")
def othello():
    game = core.get_game("othello")
    position = StepPosition(
        "board",
        game.initial_state(),
        game.heuristics[game.default_heuristic].bind(),
        game.format_move,
    )
    return run_step_search(position, algorithm="alphabeta", depth=4)


def trace_named(fig, name: str):
    return next(t for t in fig.data if t.name == name)


def test_positions_centre_parents_over_their_children(textbook):
    position = tree_positions(textbook.final)
    nodes = textbook.final.nodes
    leaves = [p for p, n in nodes.items() if not n.children]
    # leaves one unit apart in depth-first order (pruned stubs included), plies as y
    xs = sorted(position[p][0] for p in leaves)
    assert xs == [float(i) for i in range(len(leaves))]
    for path, node in nodes.items():
        assert position[path][1] == node.ply == len(path)
        if node.children:
            children = [position[c][0] for c in node.children]
            assert position[path][0] == (min(children) + max(children)) / 2
            assert children == sorted(children)


def test_the_figure_draws_the_nodes_entered_so_far(textbook):
    events = textbook.trace.events
    layout = tree_positions(textbook.final)
    for step in (0, 10, 40, len(events) - 1):
        now = tree_at(events, step)
        fig = step_tree_figure(
            now, textbook.final, textbook_tree.format_move, title="Alpha-beta", positions=layout
        )
        nodes = trace_named(fig, "nodes")
        assert len(nodes.x) == len(now.nodes)
        # in the finished tree's places: the tree fills in like the book's figure
        assert sorted(zip(nodes.x, nodes.y, strict=True)) == sorted(layout[p] for p in now.nodes)
        ring = trace_named(fig, "current node")
        assert (ring.x[0], ring.y[0]) == layout[now.current]
        assert ring.marker.color == CURRENT_COLOUR
        searched = trace_named(fig, "searched")
        assert sum(x is None for x in searched.x) == sum(
            1 for p, n in now.nodes.items() if p and n.status != "pruned"
        )


def test_pruned_moves_are_grey_stubs_and_values_are_labelled(textbook):
    final = tree_at(textbook.trace.events, textbook.steps - 1)
    fig = step_tree_figure(final, textbook.final, textbook_tree.format_move, title="AB")
    nodes = trace_named(fig, "nodes")
    paths = list(final.nodes)
    for path, colour, symbol, text in zip(
        paths, nodes.marker.color, nodes.marker.symbol, nodes.text, strict=True
    ):
        node = final.nodes[path]
        if node.status == "pruned":
            assert colour == PRUNED_COLOUR and symbol == "x" and text == ""
        else:  # a small tree labels every value
            assert text.strip() == node_label(node) and text
    stubs = trace_named(fig, "skipped by a cut-off")
    assert sum(x is None for x in stubs.x) == final.pruned == 6
    assert stubs.line.dash == "dot"
    # the cut nodes show bounds: MIN node M returns at most 5, MAX node L R at least 14
    labels = dict(zip(paths, nodes.text, strict=True))
    assert labels[(1,)].strip() == "≤5" and labels[(0, 2)].strip() == "≥14"
    assert labels[()].strip() == "8"
    # every move is named on its edge, skipped ones in grey
    moves = trace_named(fig, "moves")
    assert len(moves.text) == len(final.nodes) - 1
    assert moves.textfont.color.count(PRUNED_COLOUR) == 6
    assert "visited 28 nodes · 3 cut-offs" in fig.layout.title.text


def test_the_counter_and_the_current_window(textbook):
    events = textbook.trace.events
    step = next(i for i, e in enumerate(events) if e.kind == "beta")
    now = tree_at(events, step)
    fig = step_tree_figure(
        now, textbook.final, textbook_tree.format_move, title="Alpha-beta", minimax_nodes=40
    )
    counter = counter_text(now, 40)
    assert counter == f"visited {now.visited} of minimax's 40 nodes · {now.cutoffs} cut-offs"
    assert counter in fig.layout.title.text and fig.layout.title.text.startswith("Alpha-beta")
    windows = trace_named(fig, "windows")
    bold = [t for t in windows.text if t.startswith("<b>")]
    assert bold == [f"<b>{window_label(events[step].alpha, events[step].beta)}</b>"]
    assert len(windows.text) == len(now.open_path())
    last = tree_at(events, len(events) - 1)
    assert counter_text(last, 40) == "visited 28 of minimax's 40 nodes · 3 cut-offs"
    assert counter_text(last, 50_000, True).startswith("visited 28 of minimax's more than 50,000")
    assert counter_text(tree_at(events, 0), None) == "visited 1 node · 0 cut-offs"


def test_big_trees_label_the_current_path_and_its_children(othello):
    leaves = sum(1 for n in othello.final.nodes.values() if not n.children)
    assert leaves > FULL_LABEL_LEAVES
    step = othello.steps // 2
    now = tree_at(othello.trace.events, step)
    labelled = labelled_paths(now, full=False)
    fig = step_tree_figure(now, othello.final, core.get_game("othello").format_move, title="AB")
    nodes = trace_named(fig, "nodes")
    texts = dict(zip(now.nodes, nodes.text, strict=True))
    for path, text in texts.items():
        if path not in labelled:
            assert text == ""
    for path in now.open_path():
        assert path in labelled
        for child in now.nodes[path].children:
            assert child in labelled
    assert len(labelled) < len(now.nodes)
    moves = trace_named(fig, "moves")
    assert len(moves.text) == sum(1 for p in labelled if p)
    # laid out as it stands, from its labels' sizes: each leaf in a slot of its own, a
    # labelled leaf's slot wide enough for its move and value, the others one unit
    widths = label_widths(now, labelled, core.get_game("othello").format_move)
    at = dict(zip(now.nodes, nodes.x, strict=True))
    leaves = sorted((at[p], widths.get(p, 1.0)) for p, n in now.nodes.items() if not n.children)
    assert leaves[0][0] == (leaves[0][1] - 1) / 2
    for (x0, w0), (x1, w1) in itertools.pairwise(leaves):
        assert x1 - x0 >= (w0 + w1) / 2 - 1e-9
    assert all(widths[p] > 1 for p in labelled if p)  # a move label needs more than a unit
    # the figure is as wide as its labels need at that scale, no text made smaller
    low, high = fig.layout.xaxis.range
    plot = (fig.layout.width or 0) - fig.layout.margin.l - fig.layout.margin.r
    rows = label_rows([t.to_plotly_json() for t in fig.data], 16)
    assert unit_pixels(rows) * (high - low) <= max(plot, TREE_PLOT_PIXELS) + 1


def test_text_is_readable_on_a_projector(textbook, othello):
    for search_, fmt in (
        (textbook, textbook_tree.format_move),
        (othello, core.get_game("othello").format_move),
    ):
        now = tree_at(search_.trace.events, search_.steps // 3)
        fig = step_tree_figure(now, search_.final, fmt, title="T")
        for trace in fig.data:
            if trace.mode and "text" in trace.mode:
                assert trace.textfont.size >= MIN_FONT
        assert fig.layout.font.size >= MIN_FONT and fig.layout.title.font.size >= MIN_FONT
        assert not fig.layout.xaxis.visible and not fig.layout.yaxis.visible


def test_labels_near_the_right_edge_are_written_to_the_left_inside_the_range(textbook, othello):
    for search_, fmt in (
        (textbook, textbook_tree.format_move),
        (othello, core.get_game("othello").format_move),
    ):
        for step in (search_.steps // 2, search_.steps - 1):
            now = tree_at(search_.trace.events, step)
            fig = step_tree_figure(now, search_.final, fmt, title="T")
            low, high = fig.layout.xaxis.range
            nodes = trace_named(fig, "nodes")
            assert low < min(nodes.x) and max(nodes.x) < high  # margins on both sides
            flip = high - LABEL_FLIP_SHARE * (high - low)
            for trace in (nodes, *[t for t in fig.data if t.name == "windows"]):
                sides = trace.textposition
                sides = [sides] * len(trace.x) if isinstance(sides, str) else sides
                for x, text, side in zip(trace.x, trace.text, sides, strict=True):
                    if text and side != "bottom center":
                        assert side == ("middle left" if x > flip else "middle right"), (x, side)
    # the path being searched is the right-most part of a big tree: its windows face left
    now = tree_at(othello.trace.events, othello.steps // 2)
    fig = step_tree_figure(now, othello.final, core.get_game("othello").format_move, title="T")
    assert trace_named(fig, "windows").textposition[-1] == "middle left"


def test_a_dense_tree_draws_smaller_markers(textbook, othello):
    leaves = sum(1 for n in othello.final.nodes.values() if not n.children)
    assert leaves > DENSE_LEAVES
    sizes = {}
    for name, search_, fmt in (
        ("small", textbook, textbook_tree.format_move),
        ("dense", othello, core.get_game("othello").format_move),
    ):
        fig = step_tree_figure(search_.final, search_.final, fmt, title="T")
        sizes[name] = max(trace_named(fig, "nodes").marker.size)
    assert sizes["dense"] < sizes["small"]
    # a big tree's first steps are drawn as they stand: a few leaves wide, full-size markers
    early = tree_at(othello.trace.events, 4)
    fig = step_tree_figure(early, othello.final, core.get_game("othello").format_move, title="T")
    assert max(trace_named(fig, "nodes").marker.size) == sizes["small"]


def test_a_whole_search_has_no_ring_nor_windows_and_labels_the_root_moves(othello):
    now = tree_at(othello.trace.events, othello.steps // 2)  # as if cut at the step cap here
    fig = step_tree_figure(
        now, othello.final, core.get_game("othello").format_move, title="T", whole=True
    )
    names = {trace.name for trace in fig.data}
    assert "current node" not in names and "windows" not in names
    labelled = {(), *now.nodes[()].children}
    texts = dict(zip(now.nodes, trace_named(fig, "nodes").text, strict=True))
    assert all(text == "" for path, text in texts.items() if path not in labelled)
    assert len(trace_named(fig, "moves").text) == len(now.nodes[()].children)


def test_the_current_leafs_value_is_beside_its_ring_not_under_it(textbook):
    events = textbook.trace.events
    step = next(
        i
        for i in range(len(events))
        if not tree_at(events, i).nodes[tree_at(events, i).current].children
        and node_label(tree_at(events, i).nodes[tree_at(events, i).current])
    )
    now = tree_at(events, step)
    fig = step_tree_figure(now, textbook.final, textbook_tree.format_move, title="T")
    nodes = trace_named(fig, "nodes")
    at = list(now.nodes).index(now.current)
    assert nodes.textposition[at] in ("middle right", "middle left")
    assert "\u2003" in nodes.text[at] and node_label(now.nodes[now.current]) in nodes.text[at]
