"""The leaf table of a typed tree (lib/games/tree_table.py): rows in leaf order, edits written
back into the tree, and any typed cell either read or refused naming its row."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games.textbook_tree import (
    AIMA_FIGURE_5_2,
    MAX_LEAF_VALUE,
    THREE_PLY,
    tree_from_text,
    tree_to_text,
)
from lib.games.tree_table import leaf_rows, with_leaf_values

trees = st.recursive(
    st.integers(-50, 50),
    lambda children: st.lists(children, min_size=1, max_size=3).map(tuple),
    max_leaves=25,
).filter(lambda tree: isinstance(tree, tuple))

cells = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)


def flat(tree) -> list:
    return [x for child in tree for x in flat(child)] if isinstance(tree, tuple) else [tree]


def test_rows_follow_the_leaves_left_to_right():
    rows = leaf_rows(THREE_PLY)
    assert len(rows) == 27
    assert rows[0] == ("L L L", 3) and rows[5] == ("L M R", 6) and rows[-1] == ("R R R", 2)
    assert [value for _, value in rows] == flat(THREE_PLY)
    assert leaf_rows(((1, (2, 3)), 4)) == [("L L", 1), ("L M L", 2), ("L M M", 3), ("M", 4)]


def test_an_edit_changes_only_its_leaf_and_round_trips_through_the_text():
    edited = with_leaf_values(AIMA_FIGURE_5_2, {0: 10, 8: "-1.5"})
    assert edited == ((10, 12, 8), (2, 4, 6), (14, 5, -1.5))
    assert tree_from_text(tree_to_text(edited)).tree == edited
    assert with_leaf_values(AIMA_FIGURE_5_2, {}) == AIMA_FIGURE_5_2


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "row 2 (leaf L M): the value is empty"),
        ("  ", "row 2 (leaf L M): the value is empty"),
        ("twelve", "row 2 (leaf L M): 'twelve' is not a number"),
        (True, "row 2 (leaf L M): True is not a number"),
        (MAX_LEAF_VALUE + 1, "row 2 (leaf L M): 10001 is outside ±10,000"),
        (math.nan, "row 2 (leaf L M): nan is outside"),
    ],
)
def test_a_bad_cell_is_refused_naming_its_row_and_leaf(value, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        with_leaf_values(AIMA_FIGURE_5_2, {1: value})


def test_a_row_the_tree_lacks_is_refused():
    with pytest.raises(InputError, match="no row 9; the tree has 9 leaves"):
        with_leaf_values(AIMA_FIGURE_5_2, {9: 1})


@settings(max_examples=150, deadline=None)
@given(tree=trees, edits=st.dictionaries(st.integers(-2, 30), cells, max_size=4))
def test_any_edit_gives_a_tree_or_a_message_naming_the_row(tree, edits):
    try:
        edited = with_leaf_values(tree, edits)
    except InputError as error:
        assert str(error).startswith("Table")
        assert "row" in str(error)
        return
    before, after = flat(tree), flat(edited)
    assert len(after) == len(before)
    for index, value in enumerate(after):
        if index in edits:
            assert value == float(edits[index]) and abs(value) <= MAX_LEAF_VALUE
        else:
            assert value == before[index]
    assert tree_from_text(tree_to_text(edited)).tree == edited
