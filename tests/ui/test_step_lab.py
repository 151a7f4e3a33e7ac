"""The step lab's tree editor under AppTest: a table edit rewrites the text, a bad cell is
named and changes nothing, and a text that does not read keeps the last tree."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _script() -> None:
    """The tree editor of page "p", with a leaf-table edit applied first if one is queued."""
    import streamlit as st

    from lib.ui import step_lab

    edit = st.session_state.pop("fake_edit", None)
    if edit is not None:  # what the table's on_change gets after a visitor's edit
        state, _ = step_lab._read("p")
        st.session_state["fake_table"] = edit
        step_lab._apply_table("p", "fake_table", state.tree)
    position = step_lab.own_tree_position("p", "Your own tree")
    st.text(f"tree {position.state.tree} depth {position.depth}")
    step_lab.tree_editor("p")


def _tree(app: AppTest) -> str:
    return app.text[0].value


def _edit(app: AppTest, edited: dict, added: tuple = (), deleted: tuple = ()) -> AppTest:
    changes = {"edited_rows": edited, "added_rows": list(added), "deleted_rows": list(deleted)}
    app.session_state["fake_edit"] = changes
    return app.run()


def test_a_table_edit_rewrites_the_text_and_the_tree():
    app = AppTest.from_function(_script, default_timeout=30).run()
    assert _tree(app) == "tree ((3, 12, 8), (2, 4, 6), (14, 5, 2)) depth 2"
    _edit(app, {1: {"Value": 7.0}, 8: {"Value": -1.5}})
    assert not app.exception and not app.error
    assert app.text_area(key="p_step_w_tree").value == "[[3, 7, 8], [2, 4, 6], [14, 5, -1.5]]"
    assert _tree(app) == "tree ((3, 7, 8), (2, 4, 6), (14, 5, -1.5)) depth 2"
    # a leaf deleted, one added deeper: the text and the tree's depth follow
    _edit(
        app,
        {},
        added=[{"Leaf": "R R L", "Value": 4}, {"Leaf": "R R M", "Value": 0}],
        deleted=[8, 3],
    )
    assert not app.error
    assert app.text_area(key="p_step_w_tree").value == "[[3, 7, 8], [4, 6], [14, 5, [4, 0]]]"
    assert _tree(app) == "tree ((3, 7, 8), (4, 6), (14, 5, (4, 0))) depth 3"


def test_a_bad_cell_is_named_and_changes_nothing():
    app = AppTest.from_function(_script, default_timeout=30).run()
    _edit(app, {4: {"Value": None}})
    (error,) = [e.value.replace("\\", "") for e in app.error]
    assert "Table, row 5 (leaf M M): the value is empty" in error
    assert app.text_area(key="p_step_w_tree").value == "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"
    app.run()  # the message was for that edit only
    assert not app.error


def test_a_text_that_does_not_read_keeps_the_last_tree():
    app = AppTest.from_function(_script, default_timeout=30).run()
    app.text_area(key="p_step_w_tree").set_value("[[1, 2], [3]]").run()
    assert _tree(app) == "tree ((1, 2), (3,)) depth 2"
    app.text_area(key="p_step_w_tree").set_value("[[1, 2], [3]").run()
    (error,) = [e.value.replace("\\", "") for e in app.error]
    assert error.startswith("Tree, at character 1: this '[' is never closed by ']'.")
    assert _tree(app) == "tree ((1, 2), (3,)) depth 2"
    assert app.text_area(key="p_step_w_tree").value == "[[1, 2], [3]"
