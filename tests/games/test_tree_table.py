"""The leaf table of a typed tree (lib/games/tree_table.py): rows in leaf order, a table read
back into the same tree, edits, new and deleted rows, and any typed table either read or
refused naming its row."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games.textbook_tree import (
    AIMA_FIGURE_5_2,
    MAX_LEAF_VALUE,
    MAX_LEVELS,
    THREE_PLY,
    tree_from_text,
    tree_to_text,
)
from lib.games.tree_table import edited_rows, leaf_rows, parse_path, tree_from_rows

trees = st.recursive(
    st.integers(-50, 50),
    lambda children: st.lists(children, min_size=1, max_size=4).map(tuple),
    max_leaves=25,
).filter(lambda tree: isinstance(tree, tuple))

cells = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)
paths = st.one_of(
    st.lists(st.sampled_from(["L", "M", "R", "c3", "c12", "l", "x", "c100", "→"]), max_size=10).map(
        " ".join
    ),
    st.text(max_size=12),
    st.none(),
    st.integers(),
)


def flat(tree) -> list:
    return [x for child in tree for x in flat(child)] if isinstance(tree, tuple) else [tree]


def test_rows_follow_the_leaves_left_to_right():
    rows = leaf_rows(THREE_PLY)
    assert len(rows) == 27
    assert rows[0] == ("L L L", 3) and rows[5] == ("L M R", 6) and rows[-1] == ("R R R", 2)
    assert [value for _, value in rows] == flat(THREE_PLY)
    assert leaf_rows(((1, (2, 3)), 4)) == [("L L", 1), ("L M L", 2), ("L M M", 3), ("M", 4)]


@settings(max_examples=100, deadline=None)
@given(tree=trees)
def test_a_trees_rows_read_back_into_the_same_tree(tree):
    assert tree_from_rows(leaf_rows(tree)) == tree


def test_paths_are_moves_separated_by_spaces():
    assert parse_path("M R", 1) == (1, 2)
    assert parse_path(" l  c4 c0 ", 1) == (0, 4, 0)
    assert parse_path("M→R", 1) == (1, 2)
    for text, message in (
        ("", "row 3: the leaf's path is empty"),
        (None, "row 3: the leaf's path is empty"),
        ("M X", "row 3: 'X' is not a move; use L, M, R or c3 to c99"),
        ("c100", "row 3: 'c100' is not a move"),
        ("c²", "row 3: 'c²' is not a move"),
        (" ".join(["L"] * (MAX_LEVELS + 1)), f"row 3: the path has 9 moves; at most {MAX_LEVELS}"),
    ):
        with pytest.raises(InputError, match=message):
            parse_path(text, 3)


def test_edits_new_rows_and_deleted_rows_change_the_tree():
    rows = leaf_rows(AIMA_FIGURE_5_2)
    # a value edited, the middle node's middle leaf deleted (its last one closes up)
    changed = edited_rows(rows, {0: {"Value": 10}, 8: {"Value": -1.5}}, [], [4])
    assert tree_from_rows(changed) == ((10, 12, 8), (2, 6), (14, 5, -1.5))
    # a new leaf under the right node, a path edited to hang a new node under the left one
    changed = edited_rows(rows, {2: {"Leaf": "L R L"}}, [{"Leaf": "R c3", "Value": 9}], [])
    assert tree_from_rows(changed) == ((3, 12, (8,)), (2, 4, 6), (14, 5, 2, 9))
    # a row added but not filled in yet changes nothing
    assert edited_rows(rows, {}, [{"Value": 0}, {"Leaf": " ", "Value": 0}], []) == rows
    # gaps close up: a fourth child named c7 is the fourth child
    assert tree_from_rows([("L", 1), ("c7", 2)]) == (1, 2)
    text = tree_to_text(tree_from_rows(changed))
    assert tree_from_text(text).tree == ((3, 12, (8,)), (2, 4, 6), (14, 5, 2, 9))


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([("L", 1), ("M", None)], "row 2 (leaf M): the value is empty"),
        ([("L", 1), ("M", "twelve")], "row 2 (leaf M): 'twelve' is not a number"),
        ([("L", 1), ("M", True)], "row 2 (leaf M): True is not a number"),
        ([("L", MAX_LEAF_VALUE + 1)], "row 1 (leaf L): 10001 is outside ±10,000"),
        ([("L", math.nan)], "row 1 (leaf L): nan is outside"),
        ([("L", 1), ("M", 2), ("l", 3)], "row 3: the path 'l' is also row 1"),
        ([("L", 1), ("L M", 2)], "row 2: the path 'L M' goes through row 1's leaf"),
        ([], "no leaf left"),
        ([("", 1)], "row 1: the leaf's path is empty"),
    ],
)
def test_a_bad_table_is_refused_naming_its_row(rows, message):
    escaped = message.replace("(", r"\(").replace(")", r"\)")
    with pytest.raises(InputError, match=escaped):
        tree_from_rows(rows)


def test_a_row_the_table_lacks_is_refused():
    with pytest.raises(InputError, match="no row 10"):
        edited_rows(leaf_rows(AIMA_FIGURE_5_2), {9: {"Value": 1}}, [], [])


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.tuples(paths, cells), max_size=8))
def test_any_table_gives_a_tree_or_a_message_naming_the_row(rows):
    try:
        tree = tree_from_rows(rows)
    except InputError as error:
        assert str(error).startswith("Table")
        return
    assert len(flat(tree)) == len(rows)
    assert all(abs(value) <= MAX_LEAF_VALUE for value in flat(tree))
    assert tree_from_text(tree_to_text(tree)).tree == tree


@settings(max_examples=100, deadline=None)
@given(tree=trees, data=st.data())
def test_deleting_a_row_removes_just_that_leaf(tree, data):
    rows = leaf_rows(tree)
    assume(len(rows) >= 2)
    gone = data.draw(st.integers(0, len(rows) - 1))
    shorter = tree_from_rows(edited_rows(rows, {}, [], [gone]))
    expected = flat(tree)
    del expected[gone]
    assert flat(shorter) == expected


def test_a_path_of_arrows_alone_names_the_root_and_is_refused():
    # the root is never a leaf: a table of one row "→" once built a tree that is a number
    with pytest.raises(InputError, match=r"Table, row 1: the path '→' has no move"):
        tree_from_rows([("→", 0)])
