"""The MCTS step-through tree figure: where nodes sit, the counts written on them, UCB1 on the
edges during selection, the path, and proven nodes with the ring of a fresh proof."""

from __future__ import annotations

import itertools

import pytest

from lib.games import tictactoe
from lib.games.drawing.mcts_tree import (
    CURRENT_COLOUR,
    MARKER_PIXELS,
    MIN_WIDTH_LEAVES,
    PROOF_COLOUR,
    PROVEN_COLOUR,
    counts_label,
    label_gap,
    labelled,
    marker_size,
    mcts_tree_figure,
    node_text,
    tree_layout,
    x_range,
)
from lib.games.search.mcts_steps import NodeCounts, traced_mcts, tree_at

PLAYERS = ("X", "O")


def trace_named(fig, name: str):
    return next(t for t in fig.data if t.name == name)


def has_trace(fig, name: str) -> bool:
    return any(t.name == name for t in fig.data)


@pytest.fixture(scope="module")
def forced_win():
    state = tictactoe.initial_state()
    for square in ("a1", "c1", "a2", "c3", "b3", "b1"):
        state = state.play(tictactoe.parse_move(square, state))
    return traced_mcts(state, simulations=50, seed=1)


@pytest.fixture(scope="module")
def opening():
    return traced_mcts(tictactoe.initial_state(), simulations=30, seed=4, solver=False)


def figure_at(trace, step: int):
    return mcts_tree_figure(
        tree_at(trace, step), trace.events[step], tictactoe.format_move, PLAYERS, title="UCT"
    )


def test_parents_sit_over_their_children_and_leaves_one_apart(opening):
    nodes = tree_at(opening, opening.steps - 1)
    position = tree_layout(nodes)
    assert set(position) == set(nodes)
    leaves = [p for p in nodes if not any(q[:-1] == p for q in nodes if q)]
    assert sorted(position[p][0] for p in leaves) == [float(i) for i in range(len(leaves))]
    for path in nodes:
        assert position[path][1] == len(path)
        kids = [q for q in nodes if q and q[:-1] == path]
        if kids:
            xs = [position[k][0] for k in kids]
            assert position[path][0] == pytest.approx((min(xs) + max(xs)) / 2)


def assert_apart(xs_by_row: dict, gap: float) -> None:
    for xs in xs_by_row.values():
        xs = sorted(xs)
        assert all(b - a >= gap - 1e-9 for a, b in itertools.pairwise(xs))


def test_a_small_tree_is_centred_in_a_minimum_width():
    position = {(): (0.0, 0), (1,): (0.0, 1)}
    low, high = x_range(position)
    assert high - low == MIN_WIDTH_LEAVES + 2 and low + high == 0.0
    wide = {(): (10.0, 0), **{(i,): (float(i * 2), 1) for i in range(11)}}
    assert x_range(wide) == (-1.0, 21.0)


def test_a_dense_trees_nodes_shrink_to_stay_apart():
    small = {(): (0.0, 0), (1,): (0.0, 1)}
    assert marker_size(small) == MARKER_PIXELS[1]
    sizes = [marker_size({(i,): (float(i), 1) for i in range(leaves)}) for leaves in (40, 80, 400)]
    assert MARKER_PIXELS[1] > sizes[0] > sizes[1] > sizes[2] == MARKER_PIXELS[0]


def test_nodes_are_labelled_with_their_move_and_wins_over_visits_without_overlap(opening):
    step = opening.steps - 2  # the roll-out of the last simulation
    nodes = tree_at(opening, step)
    position = tree_layout(nodes)
    path = opening.events[step].path
    fig = figure_at(opening, step)
    # the labels beside inner nodes start with spaces, clear of the ring round a node
    texts = {
        p: text.replace("\u2003\u2002", "")
        for p, text in zip(nodes, trace_named(fig, "nodes").text, strict=True)
    }
    written = {p for p, text in texts.items() if text}
    assert {path[:i] for i in range(len(path) + 1)} <= written  # the path always
    for p in written:
        assert texts[p] == node_text(p, nodes[p], tictactoe.format_move, PLAYERS)
    assert texts[()] == "29"  # the root: its visits before the last back-up
    child = path[:1]
    assert texts[child] == f"{tictactoe.format_move(child[0])}<br>{counts_label(nodes[child])}"
    rows: dict = {}
    for p in written:
        rows.setdefault(position[p][1], []).append(position[p][0])
    assert_apart(rows, label_gap(position))
    # the most visited node of each row is written unless a path node stands too near
    for depth in (1, 2):
        row = [p for p in nodes if len(p) == depth]
        top = max(row, key=lambda p: nodes[p].visits)
        near_path = abs(position[top][0] - position[path[:depth]][0]) < label_gap(position)
        assert top in written or near_path


def test_selection_writes_ucb1_on_the_edges_where_there_is_room(opening):
    step = next(i for i, e in enumerate(opening.events) if e.choices)
    event = opening.events[step]
    fig = figure_at(opening, step)
    labels = trace_named(fig, "UCB1")
    allowed = {f"{c.ucb1:.2f}" for choice in event.choices for c in choice.children}
    chosen = {
        f"<b>{next(c for c in ch.children if c.move == ch.chosen).ucb1:.2f}</b>"
        for ch in event.choices
    }
    written = list(labels.text)
    assert chosen <= set(written)  # the chosen value always, in bold
    assert sum(text.startswith("<b>") for text in written) == len(event.choices)
    assert {t for t in written if not t.startswith("<b>")} <= allowed
    assert len(written) > len(event.choices)  # and others beside it
    rows: dict = {}
    for x, y in zip(labels.x, labels.y, strict=True):
        rows.setdefault(y, []).append(x)
    assert_apart(rows, label_gap(tree_layout(tree_at(opening, step))))
    # the path to the selected node is drawn; the other phases write no UCB1
    path = trace_named(fig, "path")
    assert len([x for x in path.x if x is None]) == len(event.path)
    assert not has_trace(figure_at(opening, step + 1), "UCB1")


def test_the_current_node_is_ringed_and_the_backup_ring_climbs(opening):
    expansion = next(i for i, e in enumerate(opening.events) if e.phase == "expansion" and i > 4)
    fig = figure_at(opening, expansion)
    ring = trace_named(fig, "current node")
    position = tree_layout(tree_at(opening, expansion))
    new = opening.events[expansion].path
    assert len(new) == 1 and (ring.x[0], ring.y[0]) == position[new]
    assert ring.marker["color"] == CURRENT_COLOUR
    # the back-up rings the new node, then the root; the path stays orange
    rings = []
    for step in (expansion + 2, expansion + 3):
        assert opening.events[step].phase == "backup"
        fig = figure_at(opening, step)
        ring = trace_named(fig, "current node")
        rings.append((ring.x[0], ring.y[0]))
        assert len([x for x in trace_named(fig, "path").x if x is None]) == 1
    assert rings == [position[new], position[()]]


def test_the_ringed_nodes_label_sits_beside_the_ring_not_under_it(opening):
    # step 1: the root alone, ringed; later a ringed new leaf during its back-up
    backup = next(i for i, e in enumerate(opening.events) if e.phase == "backup")
    for step in (0, backup):
        fig = figure_at(opening, step)
        nodes = trace_named(fig, "nodes")
        ring = trace_named(fig, "current node")
        at = next(
            i
            for i, xy in enumerate(zip(nodes.x, nodes.y, strict=True))
            if xy == (ring.x[0], ring.y[0])
        )
        assert nodes.textposition[at] == "middle right"
        # every line (the counts under the move too) starts a gap as wide as the ring's radius
        lines = nodes.text[at].split("<br>")
        assert all(line.startswith("\u2003") for line in lines)
        assert len(lines) == (2 if step else 1)  # the root: its visits alone
        assert nodes.text[at].strip() != ""


def test_a_proof_is_drawn_as_diamonds_and_ringed_where_just_proven(forced_win):
    last = forced_win.steps - 1
    fig = figure_at(forced_win, last)
    nodes = trace_named(fig, "nodes")
    proven = [i for i, symbol in enumerate(nodes.marker["symbol"]) if symbol == "diamond"]
    tree = tree_at(forced_win, last)
    paths = list(tree)
    assert {paths[i] for i in proven} == {p for p, c in tree.items() if c.proven is not None}
    assert () in {paths[i] for i in proven}  # the root
    assert all(nodes.marker["color"][i] == PROVEN_COLOUR for i in proven)
    texts = [text.replace("\u2003\u2002", "") for text in nodes.text]
    assert texts[0] == f"{forced_win.simulations}<br>✓ X wins"  # the root: visits, proven
    assert any(text == "a3<br>1/1<br>✓ X wins" for text in texts)
    rings = trace_named(fig, "newly proven")
    assert list(zip(rings.x, rings.y, strict=True)) == [tree_layout(tree)[()]]
    assert rings.marker["color"] == PROOF_COLOUR
    # one step before, nothing was proven by a back-up yet
    assert not has_trace(figure_at(forced_win, last - 1), "newly proven")


def test_a_big_tree_labels_the_path_first_and_the_rest_where_it_fits():
    nodes = {(): NodeCounts(50)}
    for a in range(9):
        nodes[(a,)] = NodeCounts(5 + a, 2.0, 0)
        for b in range(8):
            if b != a:
                nodes[(a, b)] = NodeCounts(1 + b, 0.0, 1)
    position = tree_layout(nodes)
    shown = labelled(nodes, (3, 4), position)
    assert {(), (3,), (3, 4)} <= shown
    leaves = [p for p in shown if len(p) == 2]
    assert 3 <= len(leaves) < 72  # some leaves, not all 72: they would overlap
    assert labelled({(): NodeCounts(1)}, (), {(): (0.0, 0)}) == {()}
