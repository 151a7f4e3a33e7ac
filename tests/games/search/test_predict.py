"""Predict, then reveal (lib/games/search/predict.py): the branches alpha-beta cuts against
the nodes minimax visits and alpha-beta does not, the scoring of a guess, and each root
move's value against the textbook minimax."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games import core, textbook_tree
from lib.games.search.predict import (
    CUT_HELP,
    CUT_QUESTION,
    edge_name,
    explain_move_choice,
    minimax_choice,
    pruned_edges,
    reveal_tree,
    root_move_values,
    score_move_prediction,
    score_tree_prediction,
    tree_edges,
)
from lib.games.search.reference import NullTracer, alphabeta_search, minimax_search
from lib.games.search.stepthrough import OrderedState, UnwrapOrdered, example_state
from lib.games.search.tracers import StatsTracer
from lib.games.textbook_tree import AIMA_FIGURE_5_2, THREE_PLY, height, leaf_value


class _Visits(NullTracer):
    """The paths of every node a search enters."""

    def __init__(self) -> None:
        self.path: list = []
        self.visited: set[tuple] = set()

    def enter(self, state, ply, alpha, beta, move) -> None:
        self.path.append(move)
        self.visited.add(tuple(self.path[1:]))

    def exit(self, value) -> None:
        self.path.pop()


def skipped_by_alphabeta(tree: tuple, ordering: bool) -> tuple[set[tuple], float]:
    """The independent answer: minimax's nodes alpha-beta never entered whose parent it
    entered (the roots of the skipped subtrees), and minimax's value."""
    root, evaluate = textbook_tree.initial_state(tree), leaf_value
    if ordering:
        root, evaluate = OrderedState(root, leaf_value), UnwrapOrdered(leaf_value)
    depth = height(tree)
    everything, seen = _Visits(), _Visits()
    value, _ = minimax_search(root, depth, evaluate, everything)
    alphabeta_search(root, depth, evaluate, seen)
    unseen = everything.visited - seen.visited
    return {path for path in unseen if path[:-1] in seen.visited}, value


leaves = st.integers(-20, 20)
trees = st.recursive(
    leaves, lambda children: st.lists(children, min_size=1, max_size=3).map(tuple), max_leaves=30
).filter(lambda tree: isinstance(tree, tuple))


def test_the_textbook_figures_cuts():
    root = textbook_tree.initial_state(AIMA_FIGURE_5_2)
    assert pruned_edges(root, 2, leaf_value) == {(1, 1), (1, 2)}
    three = textbook_tree.initial_state(THREE_PLY)
    cut = pruned_edges(three, 3, leaf_value)
    # the module docstring of textbook_tree: ten of the 27 leaves are never evaluated
    assert cut == {(0, 2, 1), (0, 2, 2), (1, 1), (1, 2), (2, 1, 1), (2, 1, 2)}
    skipped_leaves = sum(1 if len(path) == 3 else len(THREE_PLY[path[0]][path[1]]) for path in cut)
    assert skipped_leaves == 10


@settings(max_examples=60, deadline=None)
@given(tree=trees, ordering=st.booleans())
def test_the_cut_branches_are_the_subtrees_alphabeta_never_enters(tree, ordering):
    expected, _ = skipped_by_alphabeta(tree, ordering)
    state = textbook_tree.initial_state(tree)
    assert pruned_edges(state, height(tree), leaf_value, ordering=ordering) == expected
    assert expected <= set(tree_edges(tree))


@settings(max_examples=60, deadline=None)
@given(tree=trees)
def test_guessing_every_cut_and_the_value_scores_full_marks(tree):
    cut, value = skipped_by_alphabeta(tree, ordering=False)
    state = textbook_tree.initial_state(tree)
    ab_value, _ = alphabeta_search(state, height(tree), leaf_value)
    assert ab_value == value  # the root value alpha-beta reveals is minimax's
    score = score_tree_prediction(cut, value, pruned_edges(state, height(tree), leaf_value), value)
    assert score.full_marks and score.marks == score.out_of == len(cut) + 1
    assert not score.missed and not score.extra


@settings(max_examples=40, deadline=None)
@given(tree=trees, guessed=st.sets(st.integers(0, 200), max_size=6), guess=leaves)
def test_a_guess_splits_into_right_missed_and_extra(tree, guessed, guess):
    edges = tree_edges(tree)
    chosen = {edges[i % len(edges)] for i in guessed}
    cut, value = skipped_by_alphabeta(tree, ordering=False)
    score = score_tree_prediction(chosen, guess, cut, value)
    assert set(score.right) | set(score.missed) == cut
    assert not set(score.right) & set(score.missed)
    assert set(score.extra).isdisjoint(cut) and set(score.extra) <= chosen
    assert score.value_right == (guess == value)
    assert score.full_marks == (score.marks == score.out_of and not score.extra)


def test_scoring_names_what_was_missed_and_what_was_extra():
    cut = {(1, 1), (1, 2)}
    score = score_tree_prediction({(1, 1), (2, 1)}, 2.0, cut, 3.0)
    assert score.right == ((1, 1),) and score.missed == ((1, 2),) and score.extra == ((2, 1),)
    assert not score.value_right and score.marks == 0 and score.out_of == 3
    # a branch below a guessed cut is skipped anyway: not counted as extra
    score = score_tree_prediction({(1, 1), (1, 2), (1, 2, 0)}, 3.0000001, cut, 3.0)
    assert score.full_marks and score.extra == ()
    assert not score_tree_prediction(cut, None, cut, 3.0).value_right


def test_edges_are_named_by_their_nodes():
    assert tree_edges(((1, 2), 3)) == [(0,), (0, 0), (0, 1), (1,)]
    assert len(tree_edges(THREE_PLY)) == 3 + 9 + 27
    names = [edge_name(path, textbook_tree.format_move) for path in tree_edges(AIMA_FIGURE_5_2)]
    assert names[:3] == ["root→L", "L→L L", "L→L M"]
    assert len(set(names)) == len(names) == 12


def reference_root_values(state, depth, evaluate) -> dict:
    stats = StatsTracer()
    minimax_search(state, depth, evaluate, stats)
    return stats.root_scores


@pytest.mark.parametrize(
    ("name", "moves", "depth"),
    [
        ("tictactoe", (), 2),
        ("tictactoe", ("a1", "b2", "c3"), 4),
        ("tictactoe", ("b2", "a1", "c1", "a3"), 5),
        ("connect_four", ("d", "d", "c"), 3),
        ("othello", (), 3),
        ("checkers", (), 3),
        ("sim", (), 2),
    ],
)
def test_root_move_values_are_the_textbook_minimax_values(name, moves, depth):
    game = core.get_game(name)
    state = example_state(game, moves)
    evaluate = game.heuristics[game.default_heuristic].bind()
    values = root_move_values(state, depth, evaluate)
    assert values == reference_root_values(state, depth, evaluate)
    assert list(values) == state.legal_moves()
    best_value, best_move = minimax_search(state, depth, evaluate)
    assert minimax_choice(values) == best_move and values[best_move] == best_value


def test_a_move_guess_is_right_wrong_or_a_tie():
    values = {"a": 1.0, "b": 5.0, "c": 5.0, "d": -2.0}
    assert minimax_choice(values) == "b"
    right = score_move_prediction("b", values)
    assert right.right and not right.tie and right.chosen == "b"
    tie = score_move_prediction("c", values)
    assert tie.right and tie.tie
    wrong = score_move_prediction("d", values)
    assert not wrong.right and wrong.chosen == "b" and wrong.values == values
    with pytest.raises(InputError, match="not a move"):
        score_move_prediction("z", values)
    with pytest.raises(InputError, match="no move"):
        minimax_choice({})


@pytest.mark.parametrize(("name", "moves", "depth"), [("tictactoe", (), 2), ("othello", (), 3)])
def test_the_explanation_of_minimax_s_move_names_it_every_value_and_the_ties(name, moves, depth):
    """The reveal of the class poll "which move does minimax choose": the textbook minimax's
    move, each root move's textbook value in move order, and the other best moves."""
    game = core.get_game(name)
    state = example_state(game, moves)
    evaluate = game.heuristics[game.default_heuristic].bind()
    values = reference_root_values(state, depth, evaluate)
    best_value, best_move = minimax_search(state, depth, evaluate)
    text = explain_move_choice(root_move_values(state, depth, evaluate), game.format_move, depth)
    assert text.startswith(f"Minimax chooses {game.format_move(best_move)}: ")
    every = re.search(r"Every move's value: (.*?)\.(?: |$)", text).group(1)
    named = [part.rsplit(" ", 1) for part in every.split(", ")]
    assert [m for m, _ in named] == [game.format_move(m) for m in state.legal_moves()]
    assert [float(v) for _, v in named] == pytest.approx(
        [values[m] for m in state.legal_moves()], abs=5e-3 * max(1, abs(best_value))
    )
    ties = [game.format_move(m) for m in values if values[m] == best_value and m != best_move]
    assert ("as good" in text) == bool(ties)
    assert all(f" {tie}" in text.split("highest.")[1] for tie in ties)


def test_the_question_and_help_ask_for_every_branch_the_scoring_counts():
    """AIMA figure 5.5: after M's first leaf (2 <= 3) "there is no point in looking at the
    other successor states": both are pruned, and the scoring counts each of them."""
    assert "every branch" in CUT_HELP and "first" not in CUT_HELP.lower()
    assert "skip" in CUT_QUESTION
    root = textbook_tree.initial_state(AIMA_FIGURE_5_2)
    book = {(1, 1), (1, 2)}  # the figure's two crossed-out leaves below M
    score = reveal_tree(root, 2, leaf_value, book, 3.0)
    assert score.full_marks and score.out_of == 3
    first_only = reveal_tree(root, 2, leaf_value, {(1, 1)}, 3.0)
    assert first_only.missed == ((1, 2),) and first_only.marks == 2
