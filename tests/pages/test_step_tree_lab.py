"""The step-through's lab (AppTest): a tree the student types is stepped through, a bad one
is refused naming the position with the text kept, and predictions are scored on reveal."""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

from lib.games import core, textbook_tree
from lib.games.search.predict import (
    CUT_HELP,
    CUT_QUESTION,
    edge_name,
    pruned_edges,
    root_move_values,
)
from lib.ui.step_panel import OWN_TREE
from tests.pages.game_app import RECORD_TAB, STEP_TAB, open_game_page, open_panels, session

PAGE = "tictactoe"


def step_line(app: AppTest) -> str:
    return next(m.value for m in app.markdown if m.value.startswith("**Step "))


def statistics(app: AppTest) -> str:
    return next(c.value for c in app.caption if c.value.startswith("Search statistics"))


def own_tree(text: str | None = None, algorithm: str = "alphabeta") -> AppTest:
    app = open_game_page(PAGE, tab=STEP_TAB)
    app.selectbox(key=f"{PAGE}_step_w_position").set_value(OWN_TREE).run()
    app.selectbox(key=f"{PAGE}_step_w_algorithm").set_value(algorithm).run()
    if text is not None:
        app.text_area(key=f"{PAGE}_step_w_tree").set_value(text).run()
    assert not app.exception
    return app


def revealed(app: AppTest) -> list[str]:
    """The lines of the score shown after Reveal (Markdown escapes taken out)."""
    box = [m.value.replace("\\", "") for m in app.markdown]
    return [
        line for line in box if line.startswith(("**Your prediction", "Skipped branches", "Root"))
    ]


def test_the_own_tree_starts_as_aimas_figure_and_steps_through_a_typed_tree():
    app = own_tree()
    assert app.text_area(key=f"{PAGE}_step_w_tree").value == "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"
    app.button(key=f"{PAGE}_step_w_last").click().run()
    assert "1 cut-off;" in statistics(app) and "value **3**" in statistics(app)
    # a tree of its own, leaves at two depths: its own steps and value
    app.text_area(key=f"{PAGE}_step_w_tree").set_value("[[5, 1], [4, [9, 7]]]").run()
    assert step_line(app).startswith("**Step 1 of ")  # a new search starts at its first step
    app.button(key=f"{PAGE}_step_w_next").click().run()
    assert step_line(app).startswith("**Step 2 of ") and "MIN node L" in step_line(app)
    app.button(key=f"{PAGE}_step_w_last").click().run()
    assert "value **4**, best move **M**" in statistics(app)  # max(min(5, 1), min(4, 9))
    # minimax and expectimax run on it too
    app.selectbox(key=f"{PAGE}_step_w_algorithm").set_value("minimax").run()
    app.button(key=f"{PAGE}_step_w_last").click().run()
    assert "value **4**" in statistics(app) and "0 cut-offs" in statistics(app)
    app.selectbox(key=f"{PAGE}_step_w_algorithm").set_value("expectimax").run()
    app.button(key=f"{PAGE}_step_w_last").click().run()
    assert "value **6.5**" in statistics(app)  # max(mean(5, 1), mean(4, max(9, 7)))


def test_a_bad_tree_names_the_position_and_keeps_the_text_and_the_last_tree():
    app = own_tree("[[5, 1], [4, [9, 7]]]")
    good_steps = step_line(app).split(" · ")[0]
    bad = "[[5, 1], [4, [9, x]]]"
    app.text_area(key=f"{PAGE}_step_w_tree").set_value(bad).run()
    assert not app.exception
    (error,) = [e.value.replace("\\", "") for e in app.error]
    assert "character 18" in error and "'x'" in error and "last one that read" in error
    assert app.text_area(key=f"{PAGE}_step_w_tree").value == bad
    assert step_line(app).split(" · ")[0] == good_steps  # the last good tree is still shown
    for text, where in (("[[1, 2], [3, 4]", "character 1"), ("[[1, []]]", "character 6")):
        app.text_area(key=f"{PAGE}_step_w_tree").set_value(text).run()
        (error,) = [e.value.replace("\\", "") for e in app.error]
        assert f"Tree, at {where}:" in error
    # fixed: the message goes, the new tree is searched
    app.text_area(key=f"{PAGE}_step_w_tree").set_value("[[2, 8], [6, 3]]").run()
    assert not app.error
    app.button(key=f"{PAGE}_step_w_last").click().run()
    assert "value **3**" in statistics(app)


def test_the_typed_text_survives_choosing_another_position():
    app = own_tree("[[1, 2], [3, 4]]")
    app.selectbox(key=f"{PAGE}_step_w_position").set_value("Textbook figure 5.2: 2 plies").run()
    assert not [t for t in app.text_area if t.key == f"{PAGE}_step_w_tree"]
    app.selectbox(key=f"{PAGE}_step_w_position").set_value(OWN_TREE).run()
    assert app.text_area(key=f"{PAGE}_step_w_tree").value == "[[1, 2], [3, 4]]"
    # and another tab: the step-through is not drawn meanwhile
    open_panels(app, PAGE, tab=RECORD_TAB).run()
    assert not [t for t in app.text_area if t.key == f"{PAGE}_step_w_tree"]
    open_panels(app, PAGE, tab=STEP_TAB).run()
    assert app.text_area(key=f"{PAGE}_step_w_tree").value == "[[1, 2], [3, 4]]"


def test_a_big_trees_score_lists_the_first_branches_and_counts_the_rest():
    leaves = ", ".join(
        f"[{9 - i}, " + ", ".join(str(v) for v in range(20, 10, -1)) + "]" for i in range(10)
    )
    app = own_tree(f"[{leaves}]")
    app.button(key=f"{PAGE}_step_w_reveal").click().run()
    lines = revealed(app)
    # the first child is worth 9; every other stops at its first leaf (8, 7 ... below 9)
    assert lines[0] == "**Your prediction: 0 of 91 marks.**"
    assert lines[1].startswith("Skipped branches right: none · missed: M→M M, M→M R, M→M c3")
    assert " and 78 more · extra (not cut): none" in lines[1]


def test_a_tree_prediction_is_scored_and_jumps_to_the_last_step():
    text = "[[3, 12, 8], [2, 4, 6], [14, 5, 2], [1, 9]]"
    app = own_tree(text)
    state = textbook_tree.tree_from_text(text)
    cut = sorted(pruned_edges(state, 2, textbook_tree.leaf_value))
    names = [edge_name(path, textbook_tree.format_move) for path in cut]
    assert names == ["M→M M", "M→M R", "c3→c3 M"]  # checked by hand: 2 and 1 are below 3
    # one right, one missed... and one extra, the value wrong
    guess = app.multiselect(key=f"{PAGE}_step_w_predict_cuts")
    assert "M→M R" in guess.options and len(guess.options) == 4 + 11
    guess.set_value(["M→M M", "R→R M"])
    app.number_input(key=f"{PAGE}_step_w_predict_value").set_value(5)
    app.button(key=f"{PAGE}_step_w_reveal").click().run()
    assert not app.exception
    assert revealed(app) == [
        "**Your prediction: 0 of 4 marks.**",
        "Skipped branches right: M→M M · missed: M→M R, c3→c3 M · extra (not cut): R→R M",
        "Root value: you said 5, wrong: it is 3.",
    ]
    total = int(re.search(r"of ([\d,]+)\*\*", step_line(app)).group(1))
    assert app.slider(key=f"{PAGE}_step_w_step").value == total
    # back to step 1 to guess again: every cut and the value is full marks
    app.button(key=f"{PAGE}_step_w_first").click().run()
    app.multiselect(key=f"{PAGE}_step_w_predict_cuts").set_value(names)
    app.number_input(key=f"{PAGE}_step_w_predict_value").set_value(3)
    app.button(key=f"{PAGE}_step_w_reveal").click().run()
    assert revealed(app)[0] == "**Your prediction: Full marks!**"
    # another search (moves ordered) is a new guess: the old score goes
    app.toggle(key=f"{PAGE}_step_w_ordering").set_value(True).run()
    assert revealed(app) == []
    assert app.multiselect(key=f"{PAGE}_step_w_predict_cuts").value == []


def test_prediction_is_offered_before_alphabeta_on_a_tree_only_at_step_one():
    app = own_tree()
    assert [m.key for m in app.multiselect] == [f"{PAGE}_step_w_predict_cuts"]
    app.button(key=f"{PAGE}_step_w_next").click().run()
    assert not app.multiselect  # stepping has begun: nothing to predict
    app.selectbox(key=f"{PAGE}_step_w_algorithm").set_value("minimax").run()
    app.button(key=f"{PAGE}_step_w_first").click().run()
    assert not app.multiselect  # no cut-offs to predict


def test_the_move_minimax_chooses_is_predicted_on_the_board():
    app = open_game_page(PAGE, tab=STEP_TAB)
    game = core.get_game(PAGE)
    state = session(app, PAGE).state
    depth = 3
    evaluate = game.heuristics[game.default_heuristic].bind()
    values = root_move_values(state, depth, evaluate)
    best = max(values.values())
    worst = next(move for move, value in values.items() if value < best)
    app.number_input(key=f"{PAGE}_step_w_depth").set_value(depth).run()
    pick = app.selectbox(key=f"{PAGE}_step_w_predict_move")
    assert pick.value is None and len(pick.options) == len(state.legal_moves())
    pick.set_value(game.format_move(worst))
    app.button(key=f"{PAGE}_step_w_reveal_move").click().run()
    assert not app.exception
    said = [m.value.replace("\\", "") for m in app.markdown if m.value.startswith("**Wrong")]
    assert len(said) == 1 and f"you picked {game.format_move(worst)}" in said[0]
    (table,) = app.dataframe
    frame = table.value
    assert list(frame["Move"]) == [game.format_move(m) for m in values]
    assert frame.columns[1] == f"Minimax value, depth {depth}"
    assert list(frame.iloc[:, 2]).count("minimax's choice") == 1
    # pick minimax's own move: right
    app.button(key=f"{PAGE}_step_w_first").click().run()
    chosen = next(m for m in values if values[m] == best)
    app.selectbox(key=f"{PAGE}_step_w_predict_move").set_value(game.format_move(chosen))
    app.button(key=f"{PAGE}_step_w_reveal_move").click().run()
    said = [m.value.replace("\\", "") for m in app.markdown if m.value.startswith("**Right")]
    assert len(said) == 1 and f"minimax chooses {game.format_move(chosen)}" in said[0]


def test_following_the_help_on_the_figure_from_its_link_scores_full_marks():
    """The link of AIMA figure 5.5 at step 1: the question and help ask for every branch
    a cut-off skips, and picking exactly those (the book's two leaves below M) and the
    value 3 is full marks; picking only the first of them misses the second."""
    app = open_game_page(
        PAGE,
        tab=STEP_TAB,
        tree="[[3,12,8],[2,4,6],[14,5,2]]",
        step_algo="alphabeta",
        step="1",
    )
    assert not app.exception
    pick = app.multiselect(key=f"{PAGE}_step_w_predict_cuts")
    assert pick.help == CUT_HELP
    assert any(CUT_QUESTION in m.value for m in app.markdown)
    pick.set_value(["M→M M", "M→M R"])
    app.number_input(key=f"{PAGE}_step_w_predict_value").set_value(3)
    app.button(key=f"{PAGE}_step_w_reveal").click().run()
    assert revealed(app)[0] == "**Your prediction: Full marks!**"
    app.button(key=f"{PAGE}_step_w_first").click().run()
    app.multiselect(key=f"{PAGE}_step_w_predict_cuts").set_value(["M→M M"])
    app.number_input(key=f"{PAGE}_step_w_predict_value").set_value(3)
    app.button(key=f"{PAGE}_step_w_reveal").click().run()
    assert revealed(app)[0] == "**Your prediction: 2 of 3 marks.**"
    assert "missed: M→M R" in revealed(app)[1]
