"""A tree typed by the class: read as nested lists of leaf values, searched, every error named."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games import textbook_tree
from lib.games.search.reference import alphabeta_search, minimax_search
from lib.games.search.tracers import StatsTracer
from lib.games.textbook_tree import (
    AIMA_FIGURE_5_2,
    MAX_LEAVES,
    MAX_LEVELS,
    THREE_PLY,
    height,
    leaf_value,
    tree_from_text,
    tree_to_text,
)

NAMED_POSITION = re.compile(r"^Tree(, at (line \d+, )?character \d+)?: ")

leaves = st.integers(-99, 99)
trees = st.recursive(
    leaves, lambda children: st.lists(children, min_size=1, max_size=4).map(tuple), max_leaves=40
).filter(lambda tree: isinstance(tree, tuple) and height(tree) <= MAX_LEVELS)


def test_aimas_figure_typed_is_the_figure_and_its_minimax_value_is_3():
    state = tree_from_text("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
    assert state.tree == AIMA_FIGURE_5_2
    value, move = minimax_search(state, 2, leaf_value, StatsTracer())
    assert (value, move) == (3, 0)


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ("[[3, 12, 8], [2, x]]", "character 18", "'x'"),
        ("[[3, 12", "character 2", "never closed"),
        ("[[1, 2], []]", "character 10", "empty subtree"),
        ("[1, 2]]", "character 7", "after the tree"),
        ("[1 2]", "character 4", "',' or ']'"),
        ("[1, 2)", "character 6", "',' or ']'"),
        ("7", "character 1", "starts with '['"),
        ("[1,\n [2,,3]]", "line 2, character 5", "','"),
        ("[1e9]", "character 2", "outside"),
        ("[" * 9 + "1" + "]" * 9, "character 9", f"deeper than {MAX_LEVELS}"),
    ],
)
def test_a_bad_tree_names_where_it_goes_wrong(text, where, what):
    with pytest.raises(InputError) as error:
        tree_from_text(text)
    assert f"at {where}:" in str(error.value) and what in str(error.value)


def test_size_caps_are_named():
    with pytest.raises(InputError, match=f"more than {MAX_LEAVES:,} leaves"):
        tree_from_text("[" + ", ".join(["1"] * (MAX_LEAVES + 1)) + "]")
    with pytest.raises(InputError, match="characters; at most"):
        tree_from_text("[" + " " * textbook_tree.MAX_TEXT + "1]")
    with pytest.raises(InputError, match="empty"):
        tree_from_text("   ")


@given(trees)
def test_a_tree_written_out_reads_back_the_same(tree):
    assert tree_from_text(tree_to_text(tree)).tree == tree


@settings(max_examples=300)
@given(st.text(alphabet="[](),0123456789.-+e x\n", max_size=60) | st.text(max_size=40))
def test_any_text_gives_a_tree_or_a_named_error(text):
    try:
        state = tree_from_text(text)
    except InputError as error:
        assert NAMED_POSITION.match(str(error))
    else:
        assert height(state.tree) in range(1, MAX_LEVELS + 1)


@given(trees)
@settings(max_examples=60, deadline=None)
def test_alpha_beta_equals_minimax_on_any_typed_tree(tree):
    state = tree_from_text(tree_to_text(tree))
    depth = height(tree)
    assert (
        alphabeta_search(state, depth, leaf_value, StatsTracer())[0]
        == minimax_search(state, depth, leaf_value, StatsTracer())[0]
    )


def test_the_textbook_trees_read_back():
    for tree in (AIMA_FIGURE_5_2, THREE_PLY):
        assert tree_from_text(tree_to_text(tree)).tree == tree


@pytest.mark.parametrize("leaf", ["9" * 5_000, "1e" + "9" * 5_000, "-" + "7" * 300 + ".5"])
def test_a_huge_leaf_is_echoed_cut_with_its_length(leaf):
    with pytest.raises(InputError) as refused:
        tree_from_text(f"[[{leaf}, 1], [2, 3]]")
    message = str(refused.value)
    assert message.startswith(f"Tree, at character 3: the leaf {leaf[:20]}… ({len(leaf):,} ")
    assert len(message) < 120 and leaf[:21] not in message
