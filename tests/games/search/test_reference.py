"""The textbook searches of lib/games/reference.py against each other, the fast engine and
the textbook trees; the tracers (counts, steps, tree) against the fast engine's statistics."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games import core, textbook_tree
from lib.games.search import fast as search
from lib.games.search.reference import SEARCHES, alphabeta_search, expectimax_search, minimax_search
from lib.games.search.tracers import (
    STEP_KINDS,
    MultiTracer,
    StatsTracer,
    StepLimitReached,
    StepTracer,
    TreeTracer,
    source_listing,
    step_through,
)
from lib.games.textbook_tree import AIMA_FIGURE_5_2, THREE_PLY, leaf_value
from tests.games.playouts import seeded_playouts
from tests.games.toy import AIMA_TREE, ToyState
from tests.games.toy import leaf_heuristic as toy_heuristic

POSITIONS_PER_GAME = 200


def random_positions(spec: core.GameSpec, count: int, seed: int) -> list:
    """``count`` unfinished positions: a random state of a seeded random game, per option value."""
    rng = np.random.default_rng(seed)
    positions = []
    for game in seeded_playouts(spec, rng, max_plies=199):
        if len(positions) == count:
            return positions
        unfinished = [s for s in game if not s.is_terminal()]
        positions.append(unfinished[int(rng.integers(len(unfinished)))])
    return positions


def depth_for(state) -> int:
    """Small depths so hundreds of searches per game run in seconds (deeper when narrow)."""
    branching = len(state.legal_moves())
    return 3 if branching <= 5 else 2 if branching <= 12 else 1


def check_reference_against_fast(state, depth: int, evaluate) -> None:
    """Every claim of the module docstring for one position."""
    mm_counts, ab_counts, ex_counts = StatsTracer(), StatsTracer(), StatsTracer()
    mm_value, mm_move = minimax_search(state, depth, evaluate, mm_counts)
    ab_value, ab_move = alphabeta_search(state, depth, evaluate, ab_counts)
    assert ab_value == mm_value
    assert ab_counts.nodes <= mm_counts.nodes
    assert ab_counts.root_scores[ab_move] == mm_value == mm_counts.root_scores[mm_move]

    fast_mm = search.choose_move(state, algorithm="minimax", depth=depth, heuristic=evaluate)
    assert (fast_mm.value, fast_mm.move) == (mm_value, mm_move)
    assert fast_mm.stats.nodes == mm_counts.nodes
    assert fast_mm.stats.leaf_evaluations == mm_counts.leaf_evaluations
    assert fast_mm.stats.terminal_nodes == mm_counts.terminal_nodes
    assert fast_mm.stats.root_scores == mm_counts.root_scores
    for ordering in (True, False):
        for transposition in (True, False):
            fast = search.choose_move(
                state,
                depth=depth,
                heuristic=evaluate,
                ordering=ordering,
                transposition=transposition,
                time_limit=None,
            )
            assert fast.value == mm_value, (ordering, transposition)
            if not ordering and not transposition:
                # the same tree in the same move order: the same work, cut for cut
                assert fast.move == ab_move
                assert fast.stats.nodes == ab_counts.nodes
                assert fast.stats.cutoffs == ab_counts.cutoffs
                assert fast.stats.leaf_evaluations == ab_counts.leaf_evaluations
                assert fast.stats.root_scores == ab_counts.root_scores

    ex_value, ex_move = expectimax_search(state, depth, evaluate, ex_counts)
    fast_ex = search.choose_move(state, algorithm="expectimax", depth=depth, heuristic=evaluate)
    assert (fast_ex.value, fast_ex.move) == (ex_value, ex_move)
    assert fast_ex.stats.nodes == ex_counts.nodes == mm_counts.nodes
    assert fast_ex.stats.root_scores == ex_counts.root_scores


def test_reference_searches_agree_with_the_fast_engine_on_every_game(game):
    spec, name = game, game.name
    evaluate = spec.heuristics[spec.default_heuristic].bind()
    searched = 0
    for state in random_positions(spec, POSITIONS_PER_GAME, seed=sum(map(ord, name))):
        check_reference_against_fast(state, depth_for(state), evaluate)
        searched += 1
    assert searched == POSITIONS_PER_GAME


def test_every_heuristic_gives_equal_values(game):
    """Other heuristics (and so other value ranges) on fewer positions."""
    spec = game
    for index, heuristic in enumerate(spec.heuristics.values()):
        evaluate = heuristic.bind()
        for state in random_positions(spec, 8, seed=index):
            depth = min(depth_for(state), 2)
            mm = minimax_search(state, depth, evaluate)
            assert alphabeta_search(state, depth, evaluate) == mm
            fast = search.choose_move(state, depth=depth, heuristic=evaluate)
            assert fast.value == mm[0]


def test_the_toy_game_of_the_search_tests():
    for tree in (AIMA_TREE, ((1, (2, 9)), ((4, 5), 0)), ((7,), 7), ((-7,), -7)):
        for finished in (True, False):
            root = ToyState(tree, finished=finished)
            for depth in range(1, 5):
                check_reference_against_fast(root, depth, toy_heuristic)


def step_counts(events) -> dict[str, int]:
    return {kind: sum(e.kind == kind for e in events) for kind in STEP_KINDS}


def test_step_tracer_agrees_with_the_counts(game):
    spec = game
    evaluate = spec.heuristics[spec.default_heuristic].bind()
    for state in random_positions(spec, 20, seed=5):
        depth = depth_for(state)
        for algorithm, search_function in SEARCHES.items():
            counts, steps = StatsTracer(), StepTracer(algorithm, max_events=100_000)
            search_function(state, depth, evaluate, MultiTracer(counts, steps))
            assert not steps.truncated
            kinds = step_counts(steps.events)
            assert kinds["enter"] == kinds["exit"] == counts.nodes
            assert kinds["leaf"] == counts.leaf_evaluations + counts.terminal_nodes
            assert sum(1 for e in steps.events if e.kind == "cutoff" and e.pruned) == counts.cutoffs
            assert max(e.ply for e in steps.events) == counts.max_ply <= depth
            assert all(len(e.path) == e.ply for e in steps.events)
            if algorithm != "alphabeta":
                assert kinds["cutoff"] == kinds["alpha"] == kinds["beta"] == 0


def test_step_events_on_the_figure_tree():
    trace = step_through(
        textbook_tree.initial_state(AIMA_FIGURE_5_2), depth=2, heuristic=leaf_value
    )
    assert (trace.value, trace.move, trace.truncated) == (3.0, 0, False)
    events = trace.events
    assert [e.index for e in events] == list(range(len(events)))
    # the root, then MIN node 0 with the full window, then its first leaf
    assert [(e.kind, e.path) for e in events[:3]] == [
        ("enter", ()),
        ("enter", (0,)),
        ("enter", (0, 0)),
    ]
    assert events[3].kind == "leaf" and events[3].value == 3 and not events[3].terminal
    # MIN node 1 sees 2 <= alpha = 3 and skips its last two leaves; MIN node 2 returns
    # early too, but at its last leaf: that cut-off skips nothing (and is not counted)
    cutoffs = [e for e in events if e.kind == "cutoff"]
    assert [(e.path, e.pruned) for e in cutoffs] == [((1,), (1, 2)), ((2,), ())]
    assert trace.stats.cutoffs == 1
    cutoff = cutoffs[0]
    assert cutoff.path == (1,) and cutoff.node == "min" and cutoff.pruned == (1, 2)
    assert (cutoff.alpha, cutoff.beta) == (3.0, 2.0)
    # the root raises alpha to 3 once (MIN nodes 1 and 2 come back lower)
    alphas = [e for e in events if e.kind == "alpha" and e.path == ()]
    assert [e.value for e in alphas] == [3.0]
    leaves = [e.path for e in events if e.kind == "leaf"]
    assert leaves == [(0, 0), (0, 1), (0, 2), (1, 0), (2, 0), (2, 1), (2, 2)]


def test_each_step_points_at_its_line_of_source():
    for algorithm in SEARCHES:
        listing = source_listing(algorithm)
        lines = listing.text.splitlines()
        for marker, number in listing.lines.items():
            assert f"# step: {marker}" in lines[number - 1]
        trace = step_through(
            textbook_tree.initial_state(THREE_PLY),
            algorithm=algorithm,
            depth=3,
            heuristic=leaf_value,
        )
        expected_text = {
            "enter": "tracer.enter(",
            "exit": "return v, best",
            "alpha": "alpha = v",
            "beta": "beta = v",
            "cutoff": "return v, best",
        }
        for event in trace.events:
            line = lines[event.line - 1]
            if event.kind in expected_text:
                assert expected_text[event.kind] in line, (event, line)
            elif event.kind == "leaf":
                assert ("terminal_value" if event.terminal else "evaluate(") in line
            else:  # backup: max, min or the chance node's running mean
                assert ("total +=" if event.node == "chance" else "v, best = child_value") in line
                assert f"{event.node} backup" in line
    with pytest.raises(InputError, match="reference search"):
        source_listing("magic")


def test_step_cap_stops_with_a_flag():
    root = textbook_tree.initial_state(THREE_PLY)
    tracer = StepTracer("minimax", max_events=10)
    assert minimax_search(root, 3, leaf_value, tracer) == (8.0, 2)  # the search goes on
    assert tracer.truncated and len(tracer.events) == 10
    with pytest.raises(StepLimitReached):
        minimax_search(root, 3, leaf_value, StepTracer("minimax", max_events=10, stop_search=True))
    trace = step_through(root, depth=3, heuristic=leaf_value, max_events=25)
    assert trace.truncated and len(trace.events) == 25 and trace.value is None
    full = step_through(root, depth=3, heuristic=leaf_value)
    assert not full.truncated and full.events[:25] == trace.events


def test_step_through_rejects_bad_requests():
    root = textbook_tree.initial_state(THREE_PLY)
    with pytest.raises(InputError, match="reference search"):
        step_through(root, algorithm="greedy")
    with pytest.raises(InputError, match="plies"):
        step_through(root, depth=0, heuristic=leaf_value)
    with pytest.raises(InputError, match="at least one step"):
        StepTracer(max_events=0)
    finished = ToyState((5,), (0,), finished=True)
    with pytest.raises(InputError, match="over"):
        step_through(finished, heuristic=toy_heuristic)


def nested_minimax(tree, maximizing=True) -> float:
    """The textbook definition on a nested tuple, independent of every search here."""
    if not isinstance(tree, tuple):
        return float(tree)
    values = [nested_minimax(child, not maximizing) for child in tree]
    return max(values) if maximizing else min(values)


def leaf_paths(tree, path=()) -> list[tuple[int, ...]]:
    if not isinstance(tree, tuple):
        return [path]
    return [p for i, child in enumerate(tree) for p in leaf_paths(child, (*path, i))]


def evaluated_leaves(tree, depth: int) -> set[tuple[int, ...]]:
    steps = StepTracer("alphabeta")
    alphabeta_search(textbook_tree.initial_state(tree), depth, leaf_value, steps)
    return {e.path for e in steps.events if e.kind == "leaf"}


def test_aima_figure_value_and_pruned_leaves():
    root = textbook_tree.initial_state(AIMA_FIGURE_5_2)
    assert minimax_search(root, 2, leaf_value) == (nested_minimax(AIMA_FIGURE_5_2), 0) == (3.0, 0)
    # Figure 5.5: below the second MIN node, the leaves after the 2 are never looked at
    pruned = set(leaf_paths(AIMA_FIGURE_5_2)) - evaluated_leaves(AIMA_FIGURE_5_2, 2)
    assert pruned == {(1, 1), (1, 2)}


def test_three_ply_tree_value_and_pruned_leaves():
    root = textbook_tree.initial_state(THREE_PLY)
    assert len(leaf_paths(THREE_PLY)) == 27 and textbook_tree.height(THREE_PLY) == 3
    assert nested_minimax(THREE_PLY) == 8
    for search_function in (minimax_search, alphabeta_search):
        assert search_function(root, 3, leaf_value) == (8.0, 2)
    # the trace of the module docstring: 5 and 2 below (0, 2); all of (1, 1) and (1, 2);
    # 3 and 1 below (2, 1)
    pruned = set(leaf_paths(THREE_PLY)) - evaluated_leaves(THREE_PLY, 3)
    deep = {(1, m, leaf) for m in (1, 2) for leaf in range(3)}
    assert pruned == {(0, 2, 1), (0, 2, 2), (2, 1, 1), (2, 1, 2)} | deep
    # the fast engine without ordering and table does the same work
    fast = search.choose_move(
        root, depth=3, heuristic=leaf_value, ordering=False, transposition=False
    )
    counts = StatsTracer()
    alphabeta_search(root, 3, leaf_value, counts)
    assert (fast.value, fast.stats.nodes, fast.stats.leaf_evaluations) == (8.0, counts.nodes, 17)
    assert counts.nodes == 40 - 10 - 2  # 10 leaves and 2 MAX nodes never visited


def test_textbook_tree_state():
    root = textbook_tree.initial_state(AIMA_FIGURE_5_2)
    assert root.legal_moves() == [0, 1, 2] and root.to_move == 0
    leaf = root.play(1).play(2)
    assert leaf.legal_moves() == [textbook_tree.PASS] and not leaf.is_terminal()
    assert leaf_value(leaf, 0) == 6 == -leaf_value(leaf, 1)
    assert str(leaf) == "M R" and textbook_tree.format_move(textbook_tree.PASS) == "pass"
    # beyond the tree, passing keeps the value: deeper searches agree
    assert minimax_search(root, 4, leaf_value) == alphabeta_search(root, 3, leaf_value) == (3.0, 0)
    with pytest.raises(InputError):
        root.play(5)
    with pytest.raises(InputError):
        textbook_tree.initial_state(())
    assert not hasattr(textbook_tree, "GAME")
    assert "textbook_tree" not in core.available_games()


leaf_numbers = st.integers(-20, 20)
trees = st.recursive(
    leaf_numbers,
    lambda children: st.tuples(children, children) | st.tuples(children, children, children),
    max_leaves=30,
)


@settings(max_examples=150, deadline=None)
@given(tree=st.tuples(trees, trees) | st.tuples(trees, trees, trees))
def test_random_trees_match_the_textbook_definition(tree):
    root = textbook_tree.initial_state(tree)
    depth = textbook_tree.height(tree)
    expected = nested_minimax(tree)
    mm_counts, ab_counts = StatsTracer(), StatsTracer()
    assert minimax_search(root, depth, leaf_value, mm_counts)[0] == expected
    assert alphabeta_search(root, depth, leaf_value, ab_counts)[0] == expected
    assert ab_counts.nodes <= mm_counts.nodes
    assert ab_counts.pruned_moves >= ab_counts.cutoffs
    fast = search.choose_move(root, depth=depth, heuristic=leaf_value)
    assert fast.value == expected
    plain = search.choose_move(
        root, depth=depth, heuristic=leaf_value, ordering=False, transposition=False
    )
    assert (plain.stats.nodes, plain.stats.cutoffs) == (ab_counts.nodes, ab_counts.cutoffs)


def same_trees(fast_tree, traced_tree) -> None:
    assert len(fast_tree) == len(traced_tree)
    for a, b in zip(fast_tree, traced_tree, strict=True):
        assert (a.id, a.parent, a.move, a.ply, a.maximizing, a.status, a.bound) == (
            b.id,
            b.parent,
            b.move,
            b.ply,
            b.maximizing,
            b.status,
            b.bound,
        )
        assert a.value == b.value and (a.alpha, a.beta) == (b.alpha, b.beta)


def test_tree_tracer_draws_the_fast_engines_tree(game):
    spec = game
    evaluate = spec.heuristics[spec.default_heuristic].bind()
    for state in random_positions(spec, 10, seed=11):
        depth = depth_for(state)
        for algorithm, search_function in SEARCHES.items():
            tracer = TreeTracer()
            search_function(state, depth, evaluate, tracer)
            fast = search.choose_move(
                state,
                algorithm=algorithm,
                depth=depth,
                heuristic=evaluate,
                ordering=False,
                transposition=False,
                record_tree=True,
            )
            same_trees(fast.stats.tree, tracer.tree)
            assert tracer.visited == fast.stats.nodes == fast.stats.tree_visited


def test_tree_tracer_cap():
    tracer = TreeTracer(max_nodes=7)
    assert minimax_search(textbook_tree.initial_state(THREE_PLY), 3, leaf_value, tracer)[0] == 8
    assert tracer.truncated and len(tracer.tree) == 7 and tracer.visited == 40
    parents = {node.parent for node in tracer.tree[1:]}
    assert parents <= {node.id for node in tracer.tree}


def test_stats_tracer_as_search_stats():
    counts = StatsTracer()
    alphabeta_search(textbook_tree.initial_state(THREE_PLY), 3, leaf_value, counts)
    stats = counts.search_stats("alphabeta", 3)
    assert (stats.nodes, stats.cutoffs, stats.completed_depth, stats.depth_reached) == (28, 3, 3, 3)
    assert stats.ebf == pytest.approx(28 ** (1 / 3))
    assert stats.root_scores == {0: 6.0, 1: 5.0, 2: 8.0}
