"""Search: textbook trees, alpha-beta == minimax on random positions, expectimax as a mean,
terminal scoring, iterative deepening, beam, exact endgame, recorded trees."""

from __future__ import annotations

import itertools
import types

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games import othello
from lib.games.core import WIN_VALUE
from lib.games.search import fast as search
from lib.games.search import variants
from lib.games.search.fast import (
    choose_move,
    effective_branching_factor,
)
from lib.games.search.values import is_win_value, terminal_value
from tests.games.othello.test_rules import random_state
from tests.games.toy import AIMA_TREE, ToyState, leaf_heuristic


def reference_minimax(state, depth, player, evaluate, ply=0):
    """An independent textbook minimax (values for ``player``)."""
    moves = state.legal_moves()
    if not moves:
        return terminal_value(state, player, ply)
    if depth == 0:
        return evaluate(state, player)
    values = [reference_minimax(state.play(m), depth - 1, player, evaluate, ply + 1) for m in moves]
    return max(values) if state.to_move == player else min(values)


def reference_expectimax(state, depth, player, evaluate, ply=0):
    """Max for ``player``, the plain mean over the opponent's moves."""
    moves = state.legal_moves()
    if not moves:
        return terminal_value(state, player, ply)
    if depth == 0:
        return evaluate(state, player)
    values = [
        reference_expectimax(state.play(m), depth - 1, player, evaluate, ply + 1) for m in moves
    ]
    return max(values) if state.to_move == player else sum(values) / len(values)


def test_aima_figure_tree_minimax_and_alphabeta():
    root = ToyState(AIMA_TREE)
    mm = choose_move(root, algorithm="minimax", depth=2, heuristic=leaf_heuristic)
    ab = choose_move(root, algorithm="alphabeta", depth=2, heuristic=leaf_heuristic, ordering=False)
    assert mm.value == ab.value == 3
    assert mm.move == ab.move == 0
    assert mm.stats.root_scores == {0: 3, 1: 2, 2: 2}
    # the textbook prunes the 2nd and 3rd leaves below the second MIN node
    assert mm.stats.nodes == 13 and mm.stats.leaf_evaluations == 9
    assert ab.stats.nodes == 11 and ab.stats.leaf_evaluations == 7
    assert ab.stats.cutoffs == 1
    assert ab.stats.principal_variation == [0, 0]
    # fail-soft: the pruned MIN node reports its upper bound 2
    assert ab.stats.root_scores[1] == 2 and ab.stats.root_bounds[1] == "upper"
    assert ab.stats.root_bounds[0] == "exact"


def test_recorded_tree_marks_pruned_nodes():
    root = ToyState(AIMA_TREE)
    result = choose_move(root, depth=2, heuristic=leaf_heuristic, ordering=False, record_tree=True)
    tree = result.stats.tree
    assert tree is not None and tree[0].parent is None and tree[0].value == 3
    pruned = [node for node in tree if node.status == "pruned"]
    assert [(tree[node.parent].move, node.move) for node in pruned] == [(1, 1), (1, 2)]
    assert len(tree) - len(pruned) == result.stats.nodes
    # every expanded node's exact value is the max/min of its searched children
    for node in tree:
        children = [c for c in tree if c.parent == node.id and c.status != "pruned"]
        if node.status == "inner" and node.bound == "exact":
            values = [c.value for c in children]
            assert node.value == (max(values) if node.maximizing else min(values))


def test_minimax_tree_records_every_node():
    result = choose_move(
        ToyState(AIMA_TREE),
        algorithm="minimax",
        depth=2,
        heuristic=leaf_heuristic,
        record_tree=True,
    )
    assert len(result.stats.tree) == 13
    assert all(node.status != "pruned" for node in result.stats.tree)


def test_terminal_values_prefer_fast_wins_and_slow_losses():
    won = ToyState((5,), (0,), finished=True)
    lost = ToyState((-5,), (0,), finished=True)
    assert terminal_value(won, 0, 1) > terminal_value(won, 0, 3) > WIN_VALUE / 2
    assert terminal_value(won, 0, 1) == WIN_VALUE + 5 - 1 == -terminal_value(won, 1, 1)
    assert terminal_value(lost, 0, 3) > terminal_value(lost, 0, 1)
    assert is_win_value(terminal_value(lost, 0, 9)) and terminal_value(lost, 0, 9) < 0
    # the player to move at the root picks the quicker of two equal wins
    tree = ((7,), 7)  # move 0: win after 2 plies, move 1: win at once
    result = choose_move(ToyState(tree, finished=True), depth=4, heuristic=leaf_heuristic)
    assert result.move == 1
    # and delays an unavoidable loss
    tree = ((-7,), -7)
    result = choose_move(ToyState(tree, finished=True), depth=4, heuristic=leaf_heuristic)
    assert result.move == 0


def _positions(seed: int, count: int):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        size = int(rng.choice([6, 8]))
        plies = int(rng.integers(0, size * size - 4))
        state = random_state(int(rng.integers(2**31)), plies, size)
        if state.legal_moves():
            yield state


@pytest.mark.parametrize("chunk", range(4))
def test_alphabeta_equals_minimax_on_random_positions(chunk):
    """Four chunks of 60 positions (many near the end, where finished games score)."""
    for state in _positions(chunk, 60):
        depth = 3 if state.size == 8 else 4
        player = state.to_move
        evaluate = othello.HEURISTICS["table"].bind()
        expected = choose_move(state, algorithm="minimax", depth=depth, heuristic=evaluate)
        assert expected.value == reference_minimax(state, depth, player, evaluate)
        for ordering in (True, False):
            for transposition in (True, False):
                result = choose_move(
                    state,
                    depth=depth,
                    heuristic=evaluate,
                    ordering=ordering,
                    transposition=transposition,
                )
                assert result.value == expected.value, (state, ordering, transposition)
                assert expected.stats.root_scores[result.move] == expected.value
                assert result.stats.nodes <= expected.stats.nodes


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), plies=st.integers(20, 60), depth=st.integers(1, 5))
def test_alphabeta_with_iterative_deepening_equals_minimax(seed, plies, depth):
    state = random_state(seed, plies, 6)
    if not state.legal_moves():
        return
    evaluate = othello.HEURISTICS["positional9"].bind()
    expected = reference_minimax(state, depth, state.to_move, evaluate)
    result = choose_move(state, depth=depth, heuristic=evaluate, iterative=True)
    assert result.value == expected
    assert result.stats.depth_reached == depth or result.stats.solved
    exact = choose_move(state, depth=depth, heuristic=evaluate, exact_root_scores=True)
    for move, value in exact.stats.root_scores.items():
        child = state.play(move)
        assert value == reference_minimax(child, depth - 1, state.to_move, evaluate, 1)


def test_expectimax_is_the_mean_over_a_random_opponent():
    evaluate = othello.HEURISTICS["discs"].bind()
    for state in _positions(7, 30):
        player = state.to_move
        result = choose_move(state, algorithm="expectimax", depth=2, heuristic=evaluate)
        assert result.value == pytest.approx(reference_expectimax(state, 2, player, evaluate))
        for move, value in result.stats.root_scores.items():
            child = state.play(move)
            replies = child.legal_moves()
            if not replies:
                continue
            mean = np.mean(
                [reference_expectimax(child.play(r), 0, player, evaluate, 2) for r in replies]
            )
            assert value == pytest.approx(mean)


def test_greedy_takes_the_best_one_ply_evaluation():
    evaluate = othello.HEURISTICS["table"].bind()
    for state in _positions(3, 20):
        result = choose_move(state, algorithm="greedy", heuristic=evaluate)
        best = max(
            reference_minimax(state.play(m), 0, state.to_move, evaluate, 1)
            for m in state.legal_moves()
        )
        assert result.value == best
        assert result.stats.root_scores[result.move] == best


def test_random_is_reproducible_and_legal():
    state = random_state(1, 10)
    a = [
        choose_move(state, algorithm="random", rng=np.random.default_rng(s)).move for s in range(20)
    ]
    b = [
        choose_move(state, algorithm="random", rng=np.random.default_rng(s)).move for s in range(20)
    ]
    assert a == b
    assert set(a) <= set(state.legal_moves())
    assert len(set(a)) > 1


def test_rng_breaks_ties_without_changing_the_value():
    state = othello.initial_state(8)  # four symmetric, equally good first moves
    results = [choose_move(state, depth=3, rng=np.random.default_rng(s)) for s in range(12)]
    assert len({r.value for r in results}) == 1
    assert len({r.move for r in results}) > 1


def test_move_ordering_reduces_nodes_overall():
    totals = {True: 0, False: 0}
    for state in _positions(11, 20):
        for ordering in totals:
            totals[ordering] += choose_move(state, depth=4, ordering=ordering).stats.nodes
    assert totals[True] < totals[False]


def test_time_limit_keeps_the_completed_depth():
    state = random_state(5, 20)
    result = choose_move(state, depth=12, time_limit=1e-9)
    assert result.stats.depth_reached == 1
    assert result.move in state.legal_moves()
    assert result.stats.iterations[0]["depth"] == 1


def test_beam_limits_the_root_and_switches_off_near_the_end():
    state = random_state(2, 20)
    assert len(state.legal_moves()) > 3
    result = choose_move(state, depth=3, beam=3)
    assert len(result.stats.root_scores) == 3
    late = next(s for s in _positions(4, 200) if 2 < s.plies_left_hint() <= 8)
    exact = choose_move(late, depth=2, beam=1, endgame_exact=8, iterative=False)
    assert exact.stats.exact_endgame and exact.stats.solved
    assert len(exact.stats.root_scores) == len(late.legal_moves())


def test_exact_endgame_finds_the_game_theoretic_value():
    evaluate = othello.HEURISTICS["discs"].bind()
    checked = 0
    for state in _positions(9, 300):
        if state.plies_left_hint() > 7:
            continue
        result = choose_move(state, depth=1, heuristic=evaluate, endgame_exact=7)
        assert result.stats.solved
        assert result.value == reference_minimax(state, 64, state.to_move, evaluate)
        assert is_win_value(result.value) or result.value == 0
        checked += 1
    assert checked >= 5


def test_effective_branching_factor():
    assert effective_branching_factor(1000, 3) == pytest.approx(10.0)
    assert effective_branching_factor(0, 3) == 0.0
    result = choose_move(random_state(4, 20), depth=4)
    assert result.stats.ebf == pytest.approx(result.stats.nodes**0.25)


def test_bad_requests_raise_input_errors():
    state = othello.initial_state(6)
    with pytest.raises(InputError, match="algorithm"):
        choose_move(state, algorithm="magic")
    with pytest.raises(InputError, match="depth"):
        choose_move(state, depth=0)
    with pytest.raises(InputError, match="heuristic"):
        choose_move(state, heuristic="nope")
    with pytest.raises(InputError, match="time"):
        choose_move(state, time_limit=-1)
    finished = othello.state_from_text("XXXX\nXXXX\nXXXX\nXXXX")
    with pytest.raises(InputError, match="over"):
        choose_move(finished)


def test_default_heuristic_comes_from_the_game():
    state = random_state(8, 24)
    default = choose_move(state, depth=2)
    named = choose_move(state, depth=2, heuristic=othello.GAME.default_heuristic)
    assert default.value == named.value and default.move == named.move


def test_search_is_generic_over_a_toy_game_with_transpositions():
    # two paths reach equal keys? ToyState keys are paths, so none; check the table is harmless
    root = ToyState(((1, (2, 9)), ((4, 5), 0)))
    for depth in range(1, 5):
        values = {
            choose_move(
                root, algorithm=a, depth=depth, heuristic=leaf_heuristic, transposition=t
            ).value
            for a in ("minimax", "alphabeta")
            for t in (True, False)
        }
        assert len(values) == 1


def test_named_entry_points_match_choose_move():
    state = random_state(6, 22, 6)
    for name in ("minimax", "alphabeta", "expectimax"):
        direct = getattr(search, name)(state, 3)
        via = choose_move(state, algorithm=name, depth=3)
        assert (direct.move, direct.value) == (via.move, via.value)
        assert direct.stats.algorithm == name


def test_compare_variants_same_value_less_work():
    state = random_state(13, 24)
    calls = []
    rows = variants.compare_variants(state, 3, on_progress=lambda done, total: calls.append(done))
    assert [r["variant"] for r in rows] == list(variants.VARIANTS)
    assert calls == [1, 2, 3, 4]
    assert len({r["value"] for r in rows}) == 1
    nodes = {r["variant"]: r["nodes"] for r in rows}
    assert all(n <= nodes["minimax"] for n in nodes.values())  # pruning only removes nodes
    assert nodes["alpha-beta"] < nodes["minimax"]
    with pytest.raises(InputError, match="variant"):
        variants.compare_variants(state, 2, variants=["magic"])


def test_statistics_of_a_search_the_time_budget_stopped(monkeypatch):
    """Counters cover every node visited; depth, EBF, iterations and tree the completed ones.

    A fake clock (one millisecond per reading) makes the budget run out at the same node
    every run: in the middle of the depth-5 iteration, after it filled the tree.
    """
    ticks = itertools.count()
    monkeypatch.setattr(
        search, "time", types.SimpleNamespace(perf_counter=lambda: next(ticks) / 1000)
    )
    state = random_state(5, 20)
    result = choose_move(state, depth=8, time_limit=0.02, record_tree=True, max_tree_nodes=2500)
    stats = result.stats
    assert stats.timed_out and stats.completed_depth == stats.depth_reached == 4
    assert [row["depth"] for row in stats.iterations] == [1, 2, 3, 4]
    assert stats.completed_nodes == sum(row["nodes"] for row in stats.iterations)
    assert stats.unfinished_nodes == stats.nodes - stats.completed_nodes > 2000
    assert stats.ebf == pytest.approx(effective_branching_factor(stats.completed_nodes, 4))
    # the tree is the depth-4 iteration's, whole: the stopped iteration's overflow is not its
    assert not stats.tree_truncated and len(stats.tree) < 2500
    assert stats.tree_visited == stats.iterations[-1]["nodes"]
    assert stats.tree_visited < len(stats.tree)  # pruned children are recorded, not counted
    # the move and value are those of the completed depth-4 search
    monkeypatch.undo()
    fixed = choose_move(state, depth=4, time_limit=None, iterative=True)
    assert (result.move, result.value) == (fixed.move, fixed.value)
    assert fixed.stats.nodes == fixed.stats.completed_nodes == stats.completed_nodes


class _Abandoned(Exception):
    """Raised by a progress callback to abandon a search (as a page does)."""


@pytest.mark.parametrize(
    ("algorithm", "depth"), [("minimax", 5), ("alphabeta", 8), ("expectimax", 5)]
)
def test_progress_callback_sees_the_search_and_can_abandon_it(monkeypatch, algorithm, depth):
    monkeypatch.setattr(search, "PROGRESS_EVERY", 0.0)  # report at every check
    state = othello.initial_state(8)
    full = choose_move(state, algorithm=algorithm, depth=depth, transposition=False)
    seen: list[int] = []

    def progress(stats):
        seen.append(stats.nodes)
        if len(seen) == 3:
            raise _Abandoned

    with pytest.raises(_Abandoned):
        choose_move(
            state, algorithm=algorithm, depth=depth, transposition=False, on_progress=progress
        )
    # checked every 256 nodes, so abandoned after 768 of the full search's nodes
    assert seen == [256, 512, 768]
    assert full.stats.nodes > 768


def test_a_progress_callback_does_not_change_the_search():
    state = random_state(7, 12)
    calls: list[int] = []
    plain = choose_move(state, depth=5, rng=np.random.default_rng(1))
    watched = choose_move(
        state, depth=5, rng=np.random.default_rng(1), on_progress=lambda s: calls.append(s.nodes)
    )
    assert (watched.move, watched.value, watched.stats.nodes) == (
        plain.move,
        plain.value,
        plain.stats.nodes,
    )


# -- a player spends its clock ----------------------------------------------------------------


def test_without_a_depth_the_search_deepens_to_the_end_of_the_game_when_time_allows():
    from lib.games import tictactoe

    result = choose_move(tictactoe.initial_state(), depth=None, time_limit=30.0)
    stats = result.stats
    # far past the page's old cap of 8: every line reaches the end, so it stops early
    assert stats.solved and stats.completed_depth == 9 and not stats.timed_out
    assert stats.seconds < 30.0 and result.value == 0.0  # a draw with perfect play
    assert [row["depth"] for row in stats.iterations] == list(range(1, 10))
    assert stats.time_limit == 30.0 and stats.depth_cap is None


def test_without_a_depth_the_search_spends_its_budget_and_with_one_stops_at_it():
    from lib.games import connect_four

    state = connect_four.state_from_moves("cd")  # Red opened in c: in neither book
    spent = choose_move(state, depth=None, time_limit=0.3).stats
    assert spent.timed_out and spent.seconds >= 0.3  # deepened until the clock ran out
    assert spent.completed_depth >= 2 and spent.budget_text().endswith("of 0.3 s")
    capped = choose_move(state, depth=2, time_limit=30.0).stats
    assert capped.completed_depth == 2 and not capped.timed_out and capped.seconds < 30.0
    with pytest.raises(InputError, match="time budget"):
        choose_move(state, depth=None)


def test_the_exact_endgame_is_tried_with_the_budget_and_the_search_falls_back_in_time():
    from tests.games.othello.test_endgame import late_position

    near = late_position(7, empties=12)
    exact = choose_move(near, depth=None, time_limit=5.0).stats
    assert exact.exact_endgame and exact.solved and exact.exact_attempt_seconds == 0.0
    # the solver's own count gives the branching factor; it counts no cut-offs, and says so
    assert exact.by_solver and exact.completed_depth == 12
    assert exact.ebf == pytest.approx(exact.nodes ** (1 / 12)) and exact.ebf > 1
    assert exact.seconds < 5.0
    far = late_position(7, empties=34)
    fallback = choose_move(far, depth=None, time_limit=1.0).stats
    assert not fallback.exact_endgame and not fallback.by_solver
    # the solver gave up after about a quarter of the budget; the deepening had the rest
    assert 0.2 <= fallback.exact_attempt_seconds <= 0.5
    assert fallback.timed_out and fallback.completed_depth >= 2
    assert fallback.seconds >= 1.0


def test_each_game_declares_its_default_ai_which_spends_its_clock(game):
    from lib.games.drawing.view import load_adapter
    from lib.games.search.players import parse_player_spec

    config = parse_player_spec(game.default_player)
    assert config.kind == "alphabeta" and config.time_limit is not None
    assert config.depth is None and config.search_depth is None  # no cap
    assert load_adapter(game).default_players == ("human", game.default_player)
