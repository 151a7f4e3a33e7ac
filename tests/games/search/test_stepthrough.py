"""The step-through logic (lib/games/stepthrough.py): the tree at each step against the
textbook's trees and the nested-tuple definition of minimax, the counts against the
tracers' statistics and the fast engine, move ordering against unordered search."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games import core, textbook_tree
from lib.games.search import fast as search
from lib.games.search import values
from lib.games.search.reference import SEARCHES, minimax_search
from lib.games.search.stepthrough import (
    MAX_EVENTS,
    OrderedState,
    StepPosition,
    code_excerpt,
    describe_step,
    example_positions,
    example_state,
    minimax_node_count,
    ordered_moves,
    run_step_search,
    textbook_positions,
    tree_at,
    value_text,
    whole_listing,
    window_label,
)
from lib.games.search.tracers import STEP_KINDS, StatsTracer, source_listing, step_through
from lib.games.textbook_tree import AIMA_FIGURE_5_2, THREE_PLY, leaf_value

GAMES = sorted(core.available_games())


def tree_position(tree: tuple) -> StepPosition:
    return StepPosition(
        "tree",
        textbook_tree.initial_state(tree),
        leaf_value,
        textbook_tree.format_move,
        depth=textbook_tree.height(tree),
        abstract=True,
    )


def game_position(name: str, state=None) -> StepPosition:
    game = core.get_game(name)
    state = game.initial_state() if state is None else state
    evaluate = game.heuristics[game.default_heuristic].bind()
    return StepPosition(name, state, evaluate, game.format_move)


def subtree(tree: tuple, path: tuple) -> object:
    node = tree
    for move in path:
        if move == textbook_tree.PASS:
            break
        node = node[move]
    return node


def nested_minimax(node: object, ply: int) -> float:
    """The textbook definition on the nested tuple: MAX at even plies, MIN at odd ones."""
    if not isinstance(node, tuple):
        return float(node)
    values = [nested_minimax(child, ply + 1) for child in node]
    return max(values) if ply % 2 == 0 else min(values)


# -- the textbook's three-ply tree --------------------------------------------------


def test_three_ply_alphabeta_prunes_what_the_textbook_says():
    search_ = run_step_search(tree_position(THREE_PLY), algorithm="alphabeta")
    final = search_.final
    pruned = {path for path, node in final.nodes.items() if node.status == "pruned"}
    # textbook_tree's docstring: leaves 5, 2 below MIN 0 / MAX 2; MAX nodes 1, 2 below
    # MIN 1; leaves 3, 1 below MIN 2 / MAX 1
    assert pruned == {(0, 2, 1), (0, 2, 2), (1, 1), (1, 2), (2, 1, 1), (2, 1, 2)}
    assert final.cutoffs == 3 == search_.trace.stats.cutoffs
    assert final.visited == search_.trace.stats.nodes == 28
    assert search_.minimax_nodes == 40 and not search_.minimax_capped
    assert final.nodes[()].value == nested_minimax(THREE_PLY, 0) == 8
    assert search_.depth == 3 and not search_.depth_cut
    # the bounds the cut nodes return (fail-soft)
    assert final.nodes[(0, 2)].cut and final.nodes[(0, 2)].value == 14
    assert final.nodes[(1,)].cut and final.nodes[(1,)].value == 5


def test_the_tree_grows_one_step_at_a_time():
    search_ = run_step_search(tree_position(THREE_PLY), algorithm="alphabeta")
    events = search_.trace.events
    before = tree_at(events, 0)
    assert list(before.nodes) == [()] and before.visited == 1 and before.current == ()
    for step in range(1, len(events)):
        now = tree_at(events, step)
        event = events[step]
        assert now.current == event.path and now.event is event
        assert set(before.nodes) <= set(now.nodes)
        # a node once returned stays returned with its value
        for path, node in before.nodes.items():
            if node.status == "done":
                assert now.nodes[path].status == "done"
                assert now.nodes[path].value == node.value
        # the current node's window is the step's, and windows only narrow
        assert (now.node.alpha, now.node.beta) == (event.alpha, event.beta)
        if event.path in before.nodes and event.kind != "enter":
            old = before.nodes[event.path]
            assert now.node.alpha >= old.alpha and now.node.beta <= old.beta
        assert now.visited == sum(e.kind == "enter" for e in events[: step + 1])
        assert now.cutoffs == sum(bool(e.pruned) for e in events[: step + 1])
        # the open nodes are exactly the path from the root to the current node
        open_paths = {p for p, n in now.nodes.items() if n.status == "open"}
        exited = event.kind == "exit"
        assert open_paths == set(now.open_path()) - ({event.path} if exited else set())
        before = now


def test_steps_back_up_values_as_the_textbook_defines_them():
    search_ = run_step_search(tree_position(THREE_PLY), algorithm="minimax")
    for step, event in enumerate(search_.trace.events):
        if event.kind == "exit":
            node = tree_at(search_.trace.events, step).node
            assert node.value == nested_minimax(subtree(THREE_PLY, node.path), node.ply)


leaf_numbers = st.integers(-20, 20)
trees = st.recursive(
    leaf_numbers,
    lambda children: st.tuples(children, children) | st.tuples(children, children, children),
    max_leaves=30,
)


@settings(max_examples=80, deadline=None)
@given(tree=st.tuples(trees, trees) | st.tuples(trees, trees, trees), ordering=st.booleans())
def test_alphabeta_values_are_exact_inside_their_window_and_bounds_outside(tree, ordering):
    """Fail-soft alpha-beta: a value inside the window a node was entered with is its
    minimax value; at or beyond a bound of it, a bound on that value."""
    search_ = run_step_search(tree_position(tree), algorithm="alphabeta", ordering=ordering)
    events = search_.trace.events
    entered = {e.path: (e.alpha, e.beta) for e in events if e.kind == "enter"}
    final = search_.final
    assert final.cutoffs == search_.trace.stats.cutoffs
    assert final.visited == search_.trace.stats.nodes <= search_.minimax_nodes
    for path, node in final.nodes.items():
        if node.status == "pruned":
            assert path not in entered
            continue
        true = nested_minimax(subtree(tree, path), node.ply)
        alpha, beta = entered[path]
        if alpha < node.value < beta:
            assert node.value == true
        elif node.value >= beta:
            assert true >= node.value
        else:
            assert true <= node.value
    assert final.nodes[()].value == nested_minimax(tree, 0)


# -- real games ---------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "expectimax"])
def test_last_step_counts_equal_the_search_statistics(name, algorithm):
    search_ = run_step_search(game_position(name), algorithm=algorithm, depth=2)
    final = tree_at(search_.trace.events, search_.steps - 1)
    stats = search_.trace.stats
    assert final.cutoffs == stats.cutoffs and final.visited == stats.nodes
    assert final.pruned == sum(len(e.pruned) for e in search_.trace.events)
    assert final.nodes[()].status == "done" and final.nodes[()].value == search_.trace.value
    if algorithm != "alphabeta":
        assert stats.cutoffs == 0 and stats.nodes == search_.minimax_nodes


@pytest.mark.parametrize("name", GAMES)
def test_minimax_count_is_the_fast_engines(name):
    state = core.get_game(name).initial_state()
    position = game_position(name, state)
    for depth in (1, 2, 3):
        fast = search.choose_move(
            state,
            algorithm="minimax",
            depth=depth,
            heuristic=position.evaluate,
            ordering=False,
            transposition=False,
        )
        assert minimax_node_count(state, depth, position.evaluate) == (fast.stats.nodes, False)


def test_othello_minimax_count_is_perft():
    # published perft 4, 12, 56 (shared/REFERENCE.md): no game ends within three plies
    state = core.get_game("othello").initial_state()
    position = game_position("othello", state)
    nodes, _ = minimax_node_count(state, 3, position.evaluate)
    assert nodes == 1 + sum(core.perft(state, d) for d in (1, 2, 3)) == 73


def test_minimax_count_stops_at_its_limit():
    position = game_position("tictactoe")
    assert minimax_node_count(position.state, 4, position.evaluate, limit=100) == (100, True)


def test_depth_is_cut_to_the_deepest_trace_that_fits():
    position = game_position("tictactoe")
    search_ = run_step_search(position, algorithm="minimax", depth=8)
    assert search_.depth_cut and search_.requested == 8 and search_.depth < 8
    assert not search_.trace.truncated and search_.steps <= MAX_EVENTS
    deeper = step_through(
        position.state,
        algorithm="minimax",
        depth=search_.depth + 1,
        heuristic=position.evaluate,
        max_events=MAX_EVENTS,
    )
    assert deeper.truncated
    # one ply that does not fit: its first steps are kept and say so
    tiny = run_step_search(position, algorithm="minimax", depth=3, max_events=5)
    assert tiny.depth == 1 and tiny.trace.truncated and tiny.steps == 5 and tiny.depth_cut
    # without fitting, exactly the depth asked for (cut at the cap)
    exact = run_step_search(position, algorithm="minimax", depth=5, fit=False)
    assert exact.depth == 5 and exact.trace.truncated and exact.steps == MAX_EVENTS


def test_a_textbook_tree_is_searched_to_its_leaves():
    for position in textbook_positions():
        search_ = run_step_search(position, depth=1)
        assert search_.depth == textbook_tree.height(position.state.tree)
        assert search_.trace.value == nested_minimax(position.state.tree, 0)
    assert run_step_search(tree_position(AIMA_FIGURE_5_2)).trace.value == 3


def test_bad_requests_are_input_errors():
    position = game_position("othello")
    with pytest.raises(InputError):
        run_step_search(position, algorithm="negamax")
    for depth in (0, 9, 2.5, True):
        with pytest.raises(InputError):
            run_step_search(position, depth=depth)
    events = run_step_search(position, depth=1).trace.events
    for step in (-1, len(events), 1.0):
        with pytest.raises(InputError):
            tree_at(events, step)
    with pytest.raises(InputError):
        tree_at((), 0)


# -- move ordering ------------------------------------------------------------------


def _examples(name: str) -> list[StepPosition]:
    game = core.get_game(name)
    return list(example_positions(game, game.heuristics[game.default_heuristic].bind()))


# positions where trying the best-looking move first should pay: the endgames and
# late positions of the examples, and the openings of the narrow games
ORDERING_CASES = [
    *((p, 8) for p in _examples("tictactoe")),
    *((p, 8) for p in _examples("sim")),
    (game_position("tictactoe"), 4),
    (game_position("connect_four"), 4),
    (game_position("checkers"), 3),
    (game_position("checkers"), 4),
]


@pytest.mark.parametrize("case", range(len(ORDERING_CASES)))
def test_ordering_keeps_the_value_and_cuts_at_least_as_much(case):
    position, depth = ORDERING_CASES[case]
    plain = run_step_search(position, algorithm="alphabeta", depth=depth)
    ordered = run_step_search(position, algorithm="alphabeta", depth=depth, ordering=True)
    assert ordered.depth == plain.depth and not plain.trace.truncated
    assert ordered.trace.value == plain.trace.value
    assert ordered.trace.stats.nodes <= plain.trace.stats.nodes
    counts = StatsTracer()
    value, _ = minimax_search(position.state, plain.depth, position.evaluate, counts)
    assert ordered.trace.value == value
    assert ordered.minimax_nodes == plain.minimax_nodes == counts.nodes


def test_ordering_pays_on_the_tic_tac_toe_examples_as_a_whole():
    plain = ordered = 0
    for position in _examples("tictactoe"):
        plain += run_step_search(position, algorithm="alphabeta", depth=8).trace.stats.nodes
        ordered += run_step_search(
            position, algorithm="alphabeta", depth=8, ordering=True
        ).trace.stats.nodes
    assert ordered < plain / 2


@pytest.mark.parametrize("algorithm", ["minimax", "expectimax"])
def test_ordering_never_changes_a_full_width_search(algorithm):
    for name in GAMES:
        position = game_position(name)
        plain = run_step_search(position, algorithm=algorithm, depth=2)
        ordered = run_step_search(position, algorithm=algorithm, depth=2, ordering=True)
        assert ordered.trace.value == pytest.approx(plain.trace.value)
        assert ordered.trace.stats.nodes == plain.trace.stats.nodes


@pytest.mark.parametrize("name", GAMES)
def test_ordered_moves_are_the_moves_best_first(name):
    game = core.get_game(name)
    evaluate = game.heuristics[game.default_heuristic].bind()
    state = game.initial_state()
    for _ in range(6):
        if state.is_terminal():
            break
        moves = ordered_moves(state, evaluate)
        assert sorted(map(repr, moves)) == sorted(map(repr, state.legal_moves()))
        children = [state.play(m) for m in moves]
        scores = [
            values.terminal_value(c, state.to_move, 1)
            if c.is_terminal()
            else evaluate(c, state.to_move)
            for c in children
        ]
        assert scores == sorted(scores, reverse=True)
        wrapped = OrderedState(state, evaluate)
        assert wrapped.legal_moves() == moves and wrapped.key == state.key
        assert wrapped.play(moves[0]).state == state.play(moves[0])
        state = state.play(state.legal_moves()[len(moves) // 2])


def test_ordering_puts_a_winning_move_first():
    game = core.get_game("tictactoe")
    # X (a1, b1) to move wins at c1; O (a2, b2) threatens c2
    state = example_state(game, ("a1", "a2", "b1", "b2"))
    moves = ordered_moves(state, game.heuristics[game.default_heuristic].bind())
    assert game.format_move(moves[0]) == "c1" and state.play(moves[0]).is_terminal()


# -- examples, words and code -------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_every_example_replays_to_an_unfinished_position(name):
    game = core.get_game(name)
    for position in _examples(name):
        assert not position.state.is_terminal() and position.state.legal_moves()
        assert position.format_move is game.format_move and not position.abstract


def test_tic_tac_toe_and_sim_offer_examples_near_the_end():
    for name, most_free in (("tictactoe", 6), ("sim", 7)):
        examples = _examples(name)
        assert len(examples) >= 3
        assert all(len(p.state.legal_moves()) <= most_free for p in examples)
        labels = [p.label for p in examples]
        assert len(set(labels)) == len(labels)


def test_example_labels_say_who_wins():
    """Each example's label names the result that a search to the end finds."""
    for name in ("tictactoe", "sim"):
        game = core.get_game(name)
        for position in _examples(name):
            value = run_step_search(position, algorithm="alphabeta", depth=8).trace.value
            mover = position.state.to_move
            assert (
                f"{game.player_names[mover]} to move" in position.label or "must" in position.label
            )
            if value == 0:
                assert position.label.endswith("(a draw)")
            else:
                assert values.is_win_value(value)
                winner = game.player_names[mover if value > 0 else 1 - mover]
                assert position.label.endswith(f"({winner} wins)")


def test_bad_example_moves_are_input_errors():
    game = core.get_game("tictactoe")
    for moves in (("a1", "a1"), ("z9",), ("a1", "a2", "b1", "b2", "c1", "c2")):
        with pytest.raises(InputError):
            example_state(game, moves)
    broken = dataclasses.replace(game, step_examples=(("broken", ("b2", "b2")),))
    with pytest.raises(InputError):
        example_positions(broken, leaf_value)
    assert core.GameSpec.__dataclass_fields__["step_examples"].default == ()


def test_describe_every_kind_of_step():
    search_ = run_step_search(tree_position(THREE_PLY), algorithm="alphabeta")
    seen = {}
    for event in search_.trace.events:
        seen.setdefault(event.kind, describe_step(event, textbook_tree.format_move))
    assert set(seen) == set(STEP_KINDS)
    assert seen["enter"].startswith("Enter MAX node root")
    assert "skipped (M, R)" in seen["cutoff"]
    expectimax = run_step_search(tree_position(THREE_PLY), algorithm="expectimax")
    backups = [
        describe_step(e, textbook_tree.format_move)
        for e in expectimax.trace.events
        if e.kind == "backup" and e.node == "chance"
    ]
    assert backups and all("mean" in text for text in backups)


def test_value_and_window_text():
    assert value_text(math.inf) == "+∞" and value_text(-math.inf) == "−∞"
    assert value_text(3.0) == "3" and value_text(-0.6151) == "-0.615"
    assert value_text(core.WIN_VALUE + 2) == "win" and value_text(-core.WIN_VALUE) == "loss"
    assert value_text(None) == "?"
    assert window_label(-math.inf, 5.0) == "α=−∞ β=5"


@pytest.mark.parametrize("algorithm", sorted(SEARCHES))
def test_the_excerpt_marks_the_steps_textbook_line(algorithm):
    listing = source_listing(algorithm)
    source, textbook = listing.text.splitlines(), listing.textbook
    for marker, line in listing.lines.items():
        excerpt = code_excerpt(textbook, line)
        # the numbers are the whole listing's, consecutive, and the rows are those rows
        first = excerpt.numbers[0]
        assert excerpt.numbers == tuple(range(first, first + len(excerpt.rows)))
        assert [row.strip() for row in excerpt.rows] == [
            textbook.rows[n - 1].strip() for n in excerpt.numbers
        ]
        assert excerpt.current in excerpt.numbers
        shown = excerpt.rows[excerpt.numbers.index(excerpt.current)].strip()
        if marker == "enter":  # the tracer's line is hidden: entering is shown on the def
            assert "tracer" in source[line - 1] and shown.startswith("def value(")
        else:  # the same statement, without its step comment
            assert shown == source[line - 1].split("#")[0].strip()
        assert excerpt.rows[0].startswith("def ")  # one nested function, dedented
        assert not any("tracer" in row or "# step" in row for row in excerpt.rows)
        assert len(excerpt.rows) < len(textbook.rows) / 2, marker
        whole = whole_listing(textbook, line)
        assert whole.rows == textbook.rows and whole.current == excerpt.current
        assert whole.numbers == tuple(range(1, len(textbook.rows) + 1))
    with pytest.raises(InputError):
        code_excerpt(textbook, len(source) + 1)


@pytest.mark.parametrize("algorithm", sorted(SEARCHES))
def test_every_steps_line_is_shown_in_its_excerpt(algorithm):
    """Each step of a real trace is marked on a row the student sees, in the function running."""
    listing = source_listing(algorithm).textbook
    trace = step_through(
        textbook_tree.initial_state(THREE_PLY), algorithm=algorithm, depth=3, heuristic=leaf_value
    )
    functions = set()
    for event in trace.events:
        excerpt = code_excerpt(listing, event.line)
        assert excerpt.current in excerpt.numbers
        functions.add(excerpt.rows[0].split("(")[0])
        # an enter or exit is in value(); backups and cut-offs in the node's own function
        name = "value" if event.kind in ("enter", "leaf", "exit") else f"{event.node}_value"
        assert excerpt.rows[0].startswith(f"def {name}("), (event, excerpt.rows[0])
    assert "def value" in functions and len(functions) >= 2


def test_stats_tracer_counts_match_the_step_counts_for_every_algorithm():
    position = tree_position(THREE_PLY)
    for algorithm in SEARCHES:
        counts = StatsTracer()
        SEARCHES[algorithm](position.state, 3, leaf_value, counts)
        final = run_step_search(position, algorithm=algorithm).final
        assert (final.visited, final.cutoffs) == (counts.nodes, counts.cutoffs)


def test_the_root_and_a_textbook_trees_leaves_are_named_as_they_are():
    """Issue: "MAX node root returns 8 to its parent" (the root has none), and a textbook
    tree's leaves were "MIN node … depth limit: the heuristic" (they have fixed values)."""
    search_ = run_step_search(tree_position(THREE_PLY), algorithm="alphabeta")
    events = search_.trace.events
    root_exit = next(e for e in reversed(events) if e.kind == "exit" and not e.path)
    said = describe_step(root_exit, textbook_tree.format_move, abstract=True)
    assert "parent" not in said and said.startswith("The root (MAX node) returns")
    leaf = next(e for e in events if e.kind == "leaf")
    said = describe_step(leaf, textbook_tree.format_move, abstract=True)
    assert "MIN node" not in said and "MAX node" not in said and "depth limit" not in said
    assert (
        said == f"Leaf {' '.join(textbook_tree.format_move(m) for m in leaf.path)}: its "
        f"fixed value is {value_text(leaf.value)}."
    )
    # a game position's leaf is still scored by the heuristic at the depth limit
    assert "depth limit" in describe_step(leaf, textbook_tree.format_move)


# -- cut-offs and exact values --------------------------------------------------------


def test_a_node_that_meets_the_window_on_its_last_move_cuts_nothing_and_is_exact():
    """AIMA figure 5.5: MIN node R sees 14, 5 and 2; at 2 (≤ α = 3) nothing is left to skip,
    so step 41 is no cut-off, and R is worth exactly 2 (the figure writes 2, not ≤2)."""
    from lib.games.drawing.step_tree import node_label

    search_ = run_step_search(tree_position(AIMA_FIGURE_5_2), algorithm="alphabeta")
    step_41 = search_.trace.events[40]
    assert step_41.kind == "cutoff" and step_41.path == (2,) and step_41.pruned == ()
    text = describe_step(step_41, textbook_tree.format_move, abstract=True)
    assert "cut-off" not in text.lower() and "skipped" not in text
    assert "nothing is cut off" in text and "every move" in text
    # the real cut-off (step 23, MIN node M) is still called one
    step_23 = search_.trace.events[22]
    assert step_23.pruned == (1, 2)
    assert describe_step(step_23, textbook_tree.format_move).startswith("Cut-off at MIN node M")
    final = search_.final
    labels = {path: node_label(node) for path, node in final.nodes.items() if node.ply <= 1}
    assert labels == {(): "3", (0,): "3", (1,): "≤2", (2,): "2"}
    assert not final.nodes[(2,)].cut and final.nodes[(1,)].cut


@settings(max_examples=80, deadline=None)
@given(tree=st.tuples(trees, trees) | st.tuples(trees, trees, trees), ordering=st.booleans())
def test_a_value_drawn_without_a_bound_is_the_minimax_value(tree, ordering):
    """A node's label is exact (no ≥/≤) whenever no move below it was skipped, and an
    exact label is always the node's minimax value; a bound is a true bound."""
    from lib.games.drawing.step_tree import node_label

    search_ = run_step_search(tree_position(tree), algorithm="alphabeta", ordering=ordering)
    final = search_.final
    pruned = [path for path, node in final.nodes.items() if node.status == "pruned"]
    for path, node in final.nodes.items():
        if node.status == "pruned":
            continue
        true = nested_minimax(subtree(tree, path), node.ply)
        label = node_label(node)
        assert node.cut == any(p[:-1] == path for p in pruned)
        if not any(p[: len(path)] == path for p in pruned):
            assert label == value_text(node.value)  # the whole subtree searched: exact
        if label.startswith("≥"):
            assert true >= node.value
        elif label.startswith("≤"):
            assert true <= node.value
        else:
            assert node.value == true
