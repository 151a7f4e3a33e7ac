"""The traced MCTS of the step-through: the same tree as mcts_search, the four phases in turn,
counts that add up, UCB1 values that follow the formula, and a proof carried up the path."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games import connect_four, tictactoe
from lib.games.core import available_games, get_game
from lib.games.search.mcts import mcts_search
from lib.games.search.mcts_steps import (
    MAX_TRACED_SIMULATIONS,
    PHASES,
    chosen_text,
    describe,
    result_text,
    too_few_note,
    traced_mcts,
    tree_at,
    ucb1,
)


def position(game, moves: list[str]):
    state = game.initial_state()
    for text in moves:
        state = state.play(game.parse_move(text, state))
    return state


FORCED_WIN = ["a1", "c1", "a2", "c3", "b3", "b1"]
"""X to move wins at once with a3 (and the game is not over yet)."""


def random_state(name: str, plies: int, seed: int):
    """The position after up to ``plies`` random moves (stopping before the game ends)."""
    rng = np.random.default_rng(seed)
    state = get_game(name).initial_state()
    for _ in range(plies):
        moves = state.legal_moves()
        after = state.play(moves[int(rng.integers(len(moves)))])
        if after.is_terminal():
            break
        state = after
    return state


@pytest.mark.parametrize("name", list(available_games()))
@pytest.mark.parametrize("solver", [True, False])
def test_the_same_tree_as_mcts_search_on_every_game(name, solver):
    state = get_game(name).initial_state()
    for seed in (0, 7):
        trace = traced_mcts(state, simulations=40, seed=seed, solver=solver)
        result = mcts_search(state, simulations=40, rng=np.random.default_rng(seed), solver=solver)
        assert trace.root_visits == result.stats.root_visits
        assert trace.move == result.move
        assert trace.simulations == result.stats.simulations


@settings(max_examples=25, deadline=None)
@given(
    name=st.sampled_from(["tictactoe", "connect_four"]),
    plies=st.integers(0, 8),
    seed=st.integers(0, 2**32),
    simulations=st.integers(1, 80),
    exploration=st.floats(0, 3),
    solver=st.booleans(),
)
def test_the_same_root_visits_as_mcts_search_for_any_seed_and_budget(
    name, plies, seed, simulations, exploration, solver
):
    state = random_state(name, plies, seed)
    trace = traced_mcts(
        state, simulations=simulations, exploration=exploration, seed=seed, solver=solver
    )
    result = mcts_search(
        state,
        simulations=simulations,
        exploration=exploration,
        rng=np.random.default_rng(seed),
        solver=solver,
    )
    assert trace.root_visits == result.stats.root_visits
    assert trace.move == result.move
    assert trace.simulations == result.stats.simulations
    if solver and result.stats.proven_value is not None:
        assert trace.root_proven[state.to_move] == result.stats.proven_value


@pytest.fixture(scope="module")
def connect_four_trace():
    return traced_mcts(connect_four.initial_state(), simulations=120, seed=3, solver=True)


@pytest.fixture(scope="module")
def tictactoe_trace():
    # O's b1 loses against best play: the solver proves it, node after node
    state = position(tictactoe.GAME, ["b2", "b1"])
    return traced_mcts(state, simulations=300, seed=0, exploration=1.0, solver=True)


@pytest.fixture(params=["connect_four", "tictactoe"])
def trace(request, connect_four_trace, tictactoe_trace):
    return connect_four_trace if request.param == "connect_four" else tictactoe_trace


def final_backups(trace):
    """The last back-up step of each simulation (the one that reaches the root), by index."""
    return [
        (i, e)
        for i, e in enumerate(trace.events)
        if e.phase == "backup" and e.updates[-1].path == ()
    ]


def test_the_four_phases_come_in_turn_and_the_backup_climbs_one_node_a_step(trace):
    index = 0
    for simulation in range(1, trace.simulations + 1):
        first = trace.events[index : index + 3]
        assert [e.phase for e in first] == ["selection", "expansion", "rollout"]
        leaf = first[2].path
        climb = trace.events[index + 3 : index + 3 + len(leaf) + 1]
        assert [e.phase for e in climb] == ["backup"] * (len(leaf) + 1)
        # each step updates the next node up: the leaf first, the root last
        assert [e.focus for e in climb] == [leaf[:i] for i in range(len(leaf), -1, -1)]
        assert all(e.updates == climb[-1].updates[: k + 1] for k, e in enumerate(climb))
        assert {e.simulation for e in (*first, *climb)} == {simulation}
        index += 3 + len(climb)
    assert index == trace.steps
    assert PHASES == ("selection", "expansion", "rollout", "backup")


def test_visits_count_the_simulations_through_each_node(trace):
    through: Counter = Counter()
    for _, event in final_backups(trace):
        if event.phase == "backup":
            path = event.path
            assert [u.path for u in event.updates] == [path[:i] for i in range(len(path), -1, -1)]
            through.update(path[:i] for i in range(len(path) + 1))
    nodes = tree_at(trace, trace.steps - 1)
    assert {path: counts.visits for path, counts in nodes.items()} == dict(through)
    assert nodes[()].visits == trace.simulations
    for path, counts in nodes.items():
        assert 0 <= counts.wins <= counts.visits
        if path:
            assert trace.root_visits[path[0]] == nodes[path[:1]].visits


def test_a_node_is_added_at_each_expansion_and_never_before(trace):
    for step, event in enumerate(trace.events):
        before = tree_at(trace, step - 1) if step else {(): None}
        after = tree_at(trace, step)
        if event.phase == "expansion" and event.added is not None:
            assert set(after) - set(before) == {event.path}
            assert event.path[:-1] in before
        else:
            assert set(after) == set(before)


def test_selection_shows_ucb1_by_the_formula_and_follows_the_highest(trace):
    c = trace.exploration
    for step, event in enumerate(trace.events):
        if event.phase != "selection":
            continue
        tree = tree_at(trace, step - 1) if step else {}
        if not event.choices:
            assert event.path == ()
        for depth, choice in enumerate(event.choices):
            assert choice.path == event.path[:depth]
            assert choice.visits == tree[choice.path].visits
            open_scores = []
            for child in choice.children:
                counts = tree[(*choice.path, child.move)]
                assert (child.visits, child.wins) == (counts.visits, counts.wins)
                if child.ucb1 is None:  # skipped: a proven loss for the player choosing
                    assert counts.proven is not None
                    continue
                assert child.ucb1 == pytest.approx(
                    ucb1(counts.wins, counts.visits, choice.visits, c)
                )
                open_scores.append((child.ucb1, child.move))
            best = max(score for score, _ in open_scores)
            # ties go to the first child expanded
            assert choice.chosen == next(move for score, move in open_scores if score == best)
        assert event.path[: len(event.choices)] == tuple(ch.chosen for ch in event.choices)


def test_the_rollout_plays_legal_moves_to_the_end_and_its_result_is_backed_up(trace):
    for step, event in enumerate(trace.events):
        if event.phase != "rollout":
            continue
        state = trace.state
        for move in (*event.path, *event.rollout):
            assert move in state.legal_moves()
            state = state.play(move)
        if not event.from_proof:
            assert state.is_terminal()
            winner = state.winner()
            expected = (0.5, 0.5) if winner is None else tuple(float(p == winner) for p in (0, 1))
            assert event.rewards == expected
        end, backup = next((i, e) for i, e in final_backups(trace) if i > step)
        assert backup.rewards == event.rewards and backup.simulation == event.simulation
        before, after = tree_at(trace, step), tree_at(trace, end)
        for update in backup.updates:
            old = before.get(update.path)
            old_wins = old.wins if old is not None else 0.0
            assert update.counts.visits == (old.visits if old else 0) + 1
            if update.counts.mover is not None:
                assert update.counts.wins == old_wins + event.rewards[update.counts.mover]
            assert after[update.path] == update.counts


def test_a_forced_win_is_proven_at_the_move_and_backed_up_to_the_root():
    state = position(tictactoe.GAME, FORCED_WIN)
    trace = traced_mcts(state, simulations=100, seed=2, solver=True)
    a3 = tictactoe.parse_move("a3", state)
    assert trace.move == a3
    assert trace.root_proven == (1.0, 0.0)  # X (player 0) wins
    assert trace.simulations < 100  # the search stops once the root is proven
    last = trace.events[-1]
    assert last.phase == "backup" and last.path == (a3,)
    leaf, root = last.updates
    assert leaf.counts.proven == (1.0, 0.0) and not leaf.newly_proven  # a finished game
    assert root.path == () and root.newly_proven and root.counts.proven == (1.0, 0.0)
    # the step before backs up the finished game a3 itself: proven, no roll-out needed
    below = trace.events[-2]
    assert below.phase == "backup" and below.updates == (leaf,)
    rollout = trace.events[-3]
    assert rollout.from_proof and rollout.rollout == ()
    said = describe(below, tictactoe.format_move, ("X", "O"), trace.exploration)
    assert said.endswith("It is proven: X wins.")
    said = describe(last, tictactoe.format_move, ("X", "O"), trace.exploration)
    assert "the root counts one more visit" in said
    assert "The proof moves up: the node after a3 proven (X wins), then the root proven" in said
    # before the proving step, the root is not proven
    assert tree_at(trace, trace.steps - 2)[()].proven is None


def test_without_the_solver_nothing_is_proven_and_every_simulation_runs():
    state = position(tictactoe.GAME, FORCED_WIN)
    trace = traced_mcts(state, simulations=60, seed=2, solver=False)
    assert trace.simulations == 60 and trace.root_proven is None
    assert all(c.proven is None for c in tree_at(trace, trace.steps - 1).values())
    assert trace.move == tictactoe.parse_move("a3", state)


def test_the_chosen_move_says_whether_it_was_proven_or_most_visited():
    state = position(tictactoe.GAME, FORCED_WIN)
    names = tictactoe.GAME.player_names
    proven = traced_mcts(state, simulations=100, seed=2, solver=True)
    assert chosen_text(proven, tictactoe.format_move, names) == "a3 (proven win)"
    plain = traced_mcts(state, simulations=60, seed=2, solver=False)
    assert chosen_text(plain, tictactoe.format_move, names) == "a3 (most visited)"
    assert plain.root_visits[plain.move] == max(plain.root_visits.values())


def test_a_solver_move_chosen_by_visits_says_most_visited():
    state = tictactoe.GAME.initial_state()
    trace = traced_mcts(state, simulations=30, seed=0, solver=True)
    assert trace.move_proven is None  # 30 simulations prove nothing from the empty board
    said = chosen_text(trace, tictactoe.format_move, tictactoe.GAME.player_names)
    assert said == f"{tictactoe.format_move(trace.move)} (most visited)"


def test_proofs_climb_the_path_from_the_bottom_by_the_solver_rule(tictactoe_trace):
    trace = tictactoe_trace
    climbed = 0
    for step, event in enumerate(trace.events):
        if event.phase != "backup":
            continue
        flags = [u.newly_proven for u in event.updates]
        # a proof starts at the bottom (or just above a finished game) and climbs unbroken
        if any(flags):
            first = flags.index(True)
            assert all(flags[first : first + sum(flags)])
            assert event.updates[first - 1].counts.proven is not None if first else True
            climbed = max(climbed, sum(flags))
        tree = tree_at(trace, step)
        for update in event.updates:
            if not update.newly_proven:
                continue
            node = trace.state
            for move in update.path:
                node = node.play(move)
            player = node.to_move
            children = [
                tree[(*update.path, m)] for m in node.legal_moves() if (*update.path, m) in tree
            ]
            if update.counts.proven[player] < 1.0:  # not a win: every move tried and proven
                assert len(children) == len(node.legal_moves())
                assert all(child.proven is not None for child in children)
                assert update.counts.proven[player] == max(ch.proven[player] for ch in children)
            else:
                assert any(ch.proven is not None and ch.proven[player] == 1.0 for ch in children)
    assert climbed >= 2  # this search proves a node and its parent in one back-up
    assert trace.root_proven == (1.0, 0.0) and trace.simulations < 300  # X wins: it stops


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"simulations": 0}, "from 1 to 300, not 0"),
        ({"simulations": MAX_TRACED_SIMULATIONS + 1}, "not 301"),
        ({"simulations": True}, "not True"),
        ({"simulations": 2.5}, "not 2.5"),
        ({"exploration": -1.0}, "0 or more, not -1.0"),
        ({"exploration": math.nan}, "not nan"),
        ({"seed": -3}, "not -3"),
    ],
)
def test_bad_settings_are_named(kwargs, fragment):
    with pytest.raises(InputError, match=fragment):
        traced_mcts(tictactoe.initial_state(), **kwargs)


def test_a_finished_game_is_refused():
    state = position(tictactoe.GAME, ["a1", "a2", "b1", "b2", "c1"])
    with pytest.raises(InputError, match="game is over"):
        traced_mcts(state)


@settings(max_examples=40, deadline=None)
@given(
    simulations=st.one_of(st.integers(-5, 400), st.floats(allow_nan=True), st.booleans()),
    exploration=st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-3, 9)),
)
def test_any_settings_trace_or_are_refused_with_the_value_named(simulations, exploration):
    try:
        trace = traced_mcts(
            tictactoe.initial_state(), simulations=simulations, exploration=exploration
        )
    except InputError as error:
        assert str(simulations) in str(error) or str(exploration) in str(error)
    else:
        assert trace.simulations == simulations
        assert simulations in range(1, MAX_TRACED_SIMULATIONS + 1)


def test_the_steps_are_described(connect_four_trace):
    trace = connect_four_trace
    names = connect_four.GAME.player_names
    said = [describe(e, connect_four.format_move, names, trace.exploration) for e in trace.events]
    assert said[0] == "The root still has untried moves, so selection stops at the root."
    assert said[1].startswith("Add a node for the untried move ")
    assert said[2].startswith("Random moves from the node after ")
    assert said[2].endswith(f"Result: {result_text(trace.events[2].rewards, names)}.")
    verdict = result_text(trace.events[2].rewards, names)
    mover = names[trace.events[3].updates[0].counts.mover]
    assert said[3].startswith(
        f"Back-up of the result ({verdict}): node 1 of 2 on the way up: the node after "
    )
    assert f"for {mover}, who moved into it" in said[3]
    assert said[4] == (
        f"Back-up of the result ({verdict}): node 2 of 2 on the way up: the root counts one "
        "more visit: "
        "1 visit now."
    )
    deep = next(i for i, e in enumerate(trace.events) if len(e.choices) >= 2)
    assert said[deep].count("has the highest UCB1") == len(trace.events[deep].choices)


BLOCK_AT_A3 = ("a1", "b2", "c3", "c1")  # O threatens a3-b2-c1: X must take a3


def test_too_few_simulations_are_said_when_the_visits_do_not_separate_the_moves():
    """10 simulations of the blocking position pick b3 on a 3-3 tie with a3 (the forced move):
    the caption says the count is too few to mean much. 300 simulations pick a3 by far: no
    such caption; nor when the solver proved the move."""
    state = position(tictactoe.GAME, BLOCK_AT_A3)
    a3 = tictactoe.parse_move("a3", state)
    weak = traced_mcts(state, simulations=10, seed=2, solver=False)
    assert tictactoe.format_move(weak.move) == "b3" and weak.root_visits[a3] == 3
    note = too_few_note(weak, tictactoe.format_move)
    assert note.startswith("Too few simulations for this choice to mean much")
    assert "b3 has 3 visits, a3 3" in note and "10 simulations for 5 moves" in note
    strong = traced_mcts(state, simulations=300, seed=0, solver=False)
    assert strong.move == a3 and too_few_note(strong, tictactoe.format_move) == ""
    proven = traced_mcts(state, simulations=100, seed=0, solver=True)
    assert proven.move_proven is not None and too_few_note(proven, tictactoe.format_move) == ""


@settings(max_examples=30, deadline=None)
@given(simulations=st.integers(1, 120), seed=st.integers(0, 50))
def test_a_choice_passed_as_meaningful_leads_beyond_chance(simulations, seed):
    """No note: the move was proven, or it leads the runner-up by more than two standard
    deviations of a fair split of their visits, with at least ten simulations a move."""
    state = position(tictactoe.GAME, BLOCK_AT_A3)
    trace = traced_mcts(state, simulations=simulations, seed=seed, solver=False)
    visits = [*sorted(trace.root_visits.values(), reverse=True), 0]
    first, second = trace.root_visits[trace.move], visits[1]
    if too_few_note(trace, tictactoe.format_move) == "":
        assert first - second > 2 * math.sqrt(first + second)
        assert trace.simulations >= 10 * len(state.legal_moves())
