"""The step-through's lab: a tree the student types, and predict-then-reveal before stepping.

* **Your own tree**: a text box of nested lists of leaf values (the one source of
  truth, kept in ``st.session_state[StepKeys(key).TREE]``) and, beside it, a
  table of the leaves, one row per leaf (edit, add or delete one: the text is
  rewritten, :mod:`lib.games.tree_table`). A text that does not read keeps the
  student's text in the box, says what is wrong and where, and leaves the last
  tree that read on the page.
* **Predict, then reveal**: at step 1 of an alpha-beta search of a tree, pick
  the branches you expect it to cut off and type the root's value; on a game
  position, pick the move you expect minimax to choose. "Reveal" scores the
  guess (:mod:`lib.games.search.predict`) and jumps to the last step.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import partial
from typing import Any

import pandas as pd
import streamlit as st

from lib.errors import InputError
from lib.games import textbook_tree
from lib.games.search.predict import (
    CUT_HELP,
    CUT_QUESTION,
    MovePredictionScore,
    TreePredictionScore,
    edge_name,
    explain_move_choice,
    minimax_choice,
    move_question,
    reveal_tree,
    root_move_values,
    score_move_prediction,
    tree_edges,
)
from lib.games.search.stepthrough import StepPosition, StepSearch, value_text
from lib.games.tree_table import edited_rows, leaf_rows, tree_from_rows
from lib.ui.common import escape_markdown, keep_widget_values
from lib.ui.contest_poll import ask_the_class
from lib.ui.game_state import StepKeys

DEFAULT_TREE_TEXT = textbook_tree.tree_to_text(textbook_tree.AIMA_FIGURE_5_2)
"""The text a new visitor finds in the box: AIMA's figure 5.2."""

TABLE_HEIGHT = 250
"""Pixels of the leaf table (it scrolls beyond about eight leaves)."""


def tree_key(key: str) -> str:
    """The text box's widget key on the page ``key`` (links set it from ``tree=``)."""
    return StepKeys(key).TREE


def _read(key: str) -> tuple[textbook_tree.TreeState, str | None]:
    """The tree typed on page ``key`` and the reason it does not read (None if it does).

    A text that does not read gives the last tree that did (AIMA's figure at first).
    """
    text = st.session_state.setdefault(tree_key(key), DEFAULT_TREE_TEXT)
    good_key = StepKeys(key).TREE_GOOD
    try:
        state = textbook_tree.tree_from_text(str(text))
    except InputError as error:
        last = st.session_state.get(good_key, textbook_tree.AIMA_FIGURE_5_2)
        return textbook_tree.initial_state(last), str(error)
    st.session_state[good_key] = state.tree
    return state, None


def own_tree_position(key: str, label: str) -> StepPosition:
    """The typed tree as a position to step through, named ``label``."""
    state, _ = _read(key)
    return StepPosition(
        label,
        state,
        textbook_tree.leaf_value,
        textbook_tree.format_move,
        depth=textbook_tree.height(state.tree),
        abstract=True,
    )


def keep_tree_text(key: str) -> None:
    """Keep the typed text through runs that do not draw the box (another position chosen)."""
    keep_widget_values([tree_key(key)])


def tree_editor(key: str) -> None:
    """The text box and the leaf table, with what is wrong with the text if it does not read."""
    state, problem = _read(key)
    text_column, table_column = st.columns([3, 2])
    with text_column:
        st.text_area(
            "Your tree: nested lists of leaf values (MAX at the root)",
            key=tree_key(key),
            max_chars=textbook_tree.MAX_TEXT,
            height=120,
            help="Each [...] is a node, each number a leaf; the levels alternate MAX, MIN, "
            "MAX... Leaves may sit at different depths. At most "
            f"{textbook_tree.MAX_LEAVES:,} leaves and {textbook_tree.MAX_LEVELS} levels. "
            "Press Ctrl+Enter or click outside the box to read it.",
        )
        if problem is not None:
            st.error(
                f"{escape_markdown(problem)} The tree below is the last one that read; "
                "your text is kept in the box to fix.",
                icon=":material/error:",
            )
        else:
            st.caption(
                f"{len(leaf_rows(state.tree)):,} leaves, {textbook_tree.height(state.tree)} "
                "plies. Moves are named L, M, R (c3, c4... beyond the third child)."
            )
    with table_column:
        _leaf_table(key, state.tree, disabled=problem is not None)


def _leaf_table(key: str, tree: tuple, *, disabled: bool) -> None:
    """One row per leaf (its path and value); an edit, a new row or a deleted one rewrites
    the text."""
    rows = leaf_rows(tree)
    frame = pd.DataFrame({"Leaf": [r[0] for r in rows], "Value": [float(r[1]) for r in rows]})
    # a new text is a new table: the editor's pending edits belong to the text they edited
    text = str(st.session_state.get(tree_key(key), ""))
    editor_key = StepKeys(key).tree_table(text)
    st.data_editor(
        frame,
        key=editor_key,
        hide_index=True,
        num_rows="dynamic",
        disabled=disabled,
        height=min(TABLE_HEIGHT, 38 + 35 * (len(rows) + 1)),
        column_config={
            "Leaf": st.column_config.TextColumn(
                "Leaf",
                help="The moves from the root: L, M, R = first, second, third child (c3, "
                "c4... beyond), e.g. 'M R'. A new path adds a leaf there.",
                max_chars=8 * 4,
            ),
            "Value": st.column_config.NumberColumn(
                "Value",
                min_value=-textbook_tree.MAX_LEAF_VALUE,
                max_value=textbook_tree.MAX_LEAF_VALUE,
                default=0,
                help="The leaf's value for MAX.",
            ),
        },
        on_change=_apply_table,
        args=(key, editor_key, tree),
    )
    problem = st.session_state.pop(StepKeys(key).TREE_TABLE_ERROR, None)
    if problem:
        st.error(escape_markdown(problem), icon=":material/error:")
    elif disabled:
        st.caption("Fix the text first: the table shows the last tree that read.")
    else:
        st.caption(
            "Edit a value or a path, add a leaf (a row with a new path) or delete one: "
            "the text follows. A node's children keep their order; gaps close up."
        )


def _apply_table(key: str, editor_key: str, tree: tuple) -> None:
    """Write the edited table back into the text (or keep the message why not)."""
    changes = st.session_state.get(editor_key, {})
    try:
        rows = edited_rows(
            leaf_rows(tree),
            changes.get("edited_rows", {}),
            changes.get("added_rows", []),
            changes.get("deleted_rows", []),
        )
        new_tree = tree_from_rows(rows)
    except (InputError, ValueError) as error:
        st.session_state[StepKeys(key).TREE_TABLE_ERROR] = str(error)
        return
    st.session_state[tree_key(key)] = textbook_tree.tree_to_text(new_tree)


# -- predict, then reveal --------------------------------------------------------------


def _search_id(position: StepPosition, search: StepSearch) -> tuple:
    """What a prediction belongs to: the position (a tree: all of it), the search settings."""
    return (
        position.label,
        tree_search_key(position),
        search.algorithm,
        search.depth,
        search.ordering,
    )


def prediction_panel(key: str, position: StepPosition, search: StepSearch) -> None:
    """At step 1, the guess to make; after "Reveal", its score (until the search changes)."""
    if position.abstract and search.algorithm != "alphabeta":
        return
    search_id = _search_id(position, search)
    if st.session_state.get(StepKeys(key).PREDICT_FOR) != search_id:  # a new search: new guess
        st.session_state[StepKeys(key).PREDICT_FOR] = search_id
        for name in ("cuts", "value", "move"):
            st.session_state.pop(StepKeys(key).predict_widget(name), None)
    stored = st.session_state.get(StepKeys(key).PREDICTION)
    score = stored[1] if stored and stored[0] == search_id else None
    at_start = int(st.session_state.get(StepKeys(key).STEP, 1)) <= 1
    if score is None and not at_start:
        return
    with st.container(border=True, key=StepKeys(key).PREDICT):
        if position.abstract:
            if at_start:
                _tree_guess(key, position, search, search_id)
            if isinstance(score, TreePredictionScore):
                _tree_score(score, position)
        else:
            if at_start:
                _move_guess(key, position, search, search_id)
            if isinstance(score, MovePredictionScore):
                _move_score(score, position, search.depth)
            elif isinstance(score, str):
                st.info(escape_markdown(score), icon=":material/info:")


def _tree_guess(key: str, position: StepPosition, search: StepSearch, search_id: tuple) -> None:
    """Pick the branches alpha-beta will cut, type the root's value, and reveal."""
    names = [edge_name(path, position.format_move) for path in tree_edges(position.state.tree)]
    st.markdown(f"**Predict, then reveal.** Before you step: {CUT_QUESTION}")
    with st.container(horizontal=True, vertical_alignment="bottom", gap="small"):
        st.multiselect(
            "Branches skipped",
            names,
            key=StepKeys(key).PREDICT_CUTS,
            placeholder="e.g. M→M R",
            help=CUT_HELP,
            width=420,
        )
        st.number_input(
            "Root value", value=None, step=1.0, key=StepKeys(key).PREDICT_VALUE, width=140
        )
        st.button(
            "Reveal",
            key=StepKeys(key).REVEAL,
            on_click=_reveal_tree,
            args=(key, position, search, search_id),
            icon=":material/visibility:",
        )
    ask_the_class("root_value", f"{key}_step", partial(_poll_root_value, position, search))


def _poll_root_value(position: StepPosition, search: StepSearch) -> tuple[str, list, str, str]:
    """The root-value guess as a class poll: the tree's leaf values, the root's, and why."""
    score = reveal_tree(
        position.state, search.depth, position.evaluate, [], None, ordering=search.ordering
    )
    leaves = sorted({float(v) for v in _leaf_values(position.state.tree)})
    return (
        f"Alpha-beta, {search.depth} plies: what is the root worth?",
        [value_text(v) for v in leaves],
        value_text(score.value),
        f"The root is worth {value_text(score.value)}. Alpha-beta cuts off: "
        f"{_names(score.missed, position)}.",
    )


def _leaf_values(tree: object) -> list:
    """Every leaf value of a nested-tuple tree."""
    if isinstance(tree, tuple):
        return [value for child in tree for value in _leaf_values(child)]
    return [tree]


def _reveal_tree(key: str, position: StepPosition, search: StepSearch, search_id: tuple) -> None:
    edges = tree_edges(position.state.tree)
    by_name = {edge_name(path, position.format_move): path for path in edges}
    chosen = st.session_state.get(StepKeys(key).PREDICT_CUTS) or []
    guess = st.session_state.get(StepKeys(key).PREDICT_VALUE)
    score = reveal_tree(
        position.state,
        search.depth,
        position.evaluate,
        [by_name[name] for name in chosen if name in by_name],
        None if guess is None else float(guess),
        ordering=search.ordering,
    )
    st.session_state[StepKeys(key).PREDICTION] = (search_id, score)
    st.session_state[StepKeys(key).STEP] = search.steps  # the tree with its cuts drawn


LISTED_BRANCHES = 12
"""A score lists at most this many branches of each kind (a big tree can have hundreds)."""


def _names(paths: tuple, position: StepPosition) -> str:
    """The branches ``paths`` by name, the first :data:`LISTED_BRANCHES` of them."""
    names = [edge_name(p, position.format_move) for p in paths[:LISTED_BRANCHES]]
    more = len(paths) - LISTED_BRANCHES
    return ", ".join(names) + (f" and {more:,} more" if more > 0 else "") if names else "none"


def _tree_score(score: TreePredictionScore, position: StepPosition) -> None:
    """Marks, the branches right, missed and extra, and the value."""
    verdict = "Full marks!" if score.full_marks else f"{score.marks} of {score.out_of} marks."
    st.markdown(f"**Your prediction: {verdict}**")
    st.markdown(
        escape_markdown(
            f"Skipped branches right: {_names(score.right, position)} · missed: "
            f"{_names(score.missed, position)} · extra (not cut): {_names(score.extra, position)}"
        )
    )
    value = value_text(score.value)
    if score.guess is None:
        said = f"Root value: no guess; it is {value}."
    elif score.value_right:
        said = f"Root value: you said {value_text(score.guess)}, right."
    else:
        said = f"Root value: you said {value_text(score.guess)}, wrong: it is {value}."
    st.markdown(escape_markdown(said))


def _move_guess(key: str, position: StepPosition, search: StepSearch, search_id: tuple) -> None:
    """Pick the move minimax will choose at the search's depth, and reveal."""
    moves = {position.format_move(move): move for move in position.state.legal_moves()}
    st.markdown(f"**Predict, then reveal.** {move_question(search.depth)}")
    with st.container(horizontal=True, vertical_alignment="bottom", gap="small"):
        st.selectbox(
            "Your guess",
            list(moves),
            index=None,
            placeholder="Pick a move",
            key=StepKeys(key).PREDICT_MOVE,
            width=200,
        )
        st.button(
            "Reveal",
            key=StepKeys(key).REVEAL_MOVE,
            on_click=_reveal_move,
            args=(key, position, search, search_id, moves),
            icon=":material/visibility:",
        )
    ask_the_class("root_move", f"{key}_step", partial(_poll_root_move, position, search))


def _poll_root_move(position: StepPosition, search: StepSearch) -> tuple[str, list, str, str]:
    """The move guess as a class poll: the root's moves, minimax's choice, and why."""
    values = root_move_values(position.state, search.depth, position.evaluate)
    return (
        f"{position.label}: {move_question(search.depth)}",
        [position.format_move(move) for move in values],
        position.format_move(minimax_choice(values)),
        explain_move_choice(values, position.format_move, search.depth),
    )


def _reveal_move(
    key: str,
    position: StepPosition,
    search: StepSearch,
    search_id: tuple,
    moves: dict[str, Hashable],
) -> None:
    name = st.session_state.get(StepKeys(key).PREDICT_MOVE)
    result: MovePredictionScore | str
    if name not in moves:
        result = "Pick the move you expect first, then reveal."
    else:
        try:
            values = root_move_values(position.state, search.depth, position.evaluate)
            result = score_move_prediction(moves[name], values)
        except InputError as error:
            result = str(error)
    st.session_state[StepKeys(key).PREDICTION] = (search_id, result)
    if isinstance(result, MovePredictionScore):
        st.session_state[StepKeys(key).STEP] = search.steps


def _move_score(score: MovePredictionScore, position: StepPosition, depth: int) -> None:
    """Right or wrong, minimax's move, and every root move's value."""
    chosen, guess = position.format_move(score.chosen), position.format_move(score.guess)
    best = value_text(score.values[score.chosen])
    if score.tie:
        said = f"Right: {guess} is as good as minimax's choice {chosen} (both {best})."
    elif score.right:
        said = f"Right: minimax chooses {chosen} (value {best})."
    else:
        said = (
            f"Wrong: you picked {guess} ({value_text(score.values[score.guess])}); "
            f"minimax chooses {chosen} ({best})."
        )
    st.markdown(f"**{escape_markdown(said)}**")
    table = pd.DataFrame(
        {
            "Move": [position.format_move(m) for m in score.values],
            f"Minimax value, depth {depth}": [value_text(v) for v in score.values.values()],
            "": [_move_note(m, score) for m in score.values],
        }
    )
    st.dataframe(table, hide_index=True, width=460, height=min(TABLE_HEIGHT, 38 + 35 * len(table)))


def _move_note(move: Hashable, score: MovePredictionScore) -> str:
    if move == score.chosen:
        return "minimax's choice"
    return "your guess" if move == score.guess else ""


def tree_search_key(position: StepPosition) -> Any:
    """What tells positions apart in the step-through's caches: a tree's root is always path
    ``()``, so an abstract position is told by its whole tree."""
    return position.state if position.abstract else position.state.key
