"""The "Step through the search" tab of the game pages (AppTest): choose a position and an
algorithm, move through the steps, and read the marked line of code, the window and the
counts."""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

from tests.pages.game_app import STEP_TAB, open_game_page, open_panels, session, shared_game_page

TAB = "Step through the search"


def status(app: AppTest, key: str) -> list[str]:
    """The lines under the step slider: the step, the window and counts, the statistics."""
    texts = [m.value for m in app.markdown if m.value.startswith(("**Step ", "Window at"))]
    return texts + [c.value for c in app.caption if c.value.startswith("Search statistics")]


def marked_line(app: AppTest) -> str:
    """The line of the code excerpt beside the tree that is marked as being executed."""
    code = next(m.value for m in app.markdown if m.value.startswith("```python\n  def "))
    marked = [line for line in code.splitlines() if line.startswith("▶")]
    assert len(marked) == 1
    return marked[0]


def window(app: AppTest) -> str:
    text = next(m.value for m in app.markdown if m.value.startswith("Window at"))
    return re.search(r"\*\*(α=\S+ β=\S+)\*\*", text).group(1)


def counts(app: AppTest) -> tuple[int, int]:
    """(nodes visited, cut-offs) so far, from the counter under the slider."""
    text = next(m.value for m in app.markdown if m.value.startswith("Window at"))
    visited = int(re.search(r"visited ([\d,]+)", text).group(1).replace(",", ""))
    cutoffs = int(re.search(r"(\d+) cut-offs?", text).group(1))
    return visited, cutoffs


def statistics(app: AppTest) -> tuple[int, int]:
    text = next(c.value for c in app.caption if c.value.startswith("Search statistics"))
    found = re.search(r"\): ([\d,]+) nodes?, ([\d,]+) cut-offs?", text)
    return int(found.group(1).replace(",", "")), int(found.group(2).replace(",", ""))


def test_every_game_page_has_the_tab_on_the_board_position(game, tmp_path):
    app = open_panels(shared_game_page(game, tmp_path), game.name, tab=STEP_TAB).run()
    assert not app.exception
    assert TAB in [tab.label for tab in app.tabs]
    assert app.selectbox(key=f"{game.name}_step_w_position").value == "The position on the board"
    assert app.selectbox(key=f"{game.name}_step_w_algorithm").value == "alphabeta"
    assert status(app, game.name)[0].startswith("**Step 1 of ")
    assert "tracer.enter" in marked_line(app)


def test_stepping_moves_the_marked_line_and_the_window():
    app = open_game_page("tictactoe", tab=STEP_TAB)
    assert window(app) == "α=−∞ β=+∞"
    seen_lines, seen_windows = {marked_line(app)}, {window(app)}
    for step in (2, 5, 12, 40, 120):
        app.slider(key="tictactoe_step_w_step").set_value(step).run()
        assert not app.exception
        assert status(app, "tictactoe")[0].startswith(f"**Step {step} of ")
        seen_lines.add(marked_line(app))
        seen_windows.add(window(app))
    assert len(seen_lines) >= 3 and len(seen_windows) >= 2
    # Next and Prev move one step; First and Last go to the ends
    app.button(key="tictactoe_step_w_next").click().run()
    assert status(app, "tictactoe")[0].startswith("**Step 121 of ")
    app.button(key="tictactoe_step_w_prev").click().run()
    assert app.slider(key="tictactoe_step_w_step").value == 120
    app.button(key="tictactoe_step_w_first").click().run()
    assert app.slider(key="tictactoe_step_w_step").value == 1
    assert window(app) == "α=−∞ β=+∞" and "tracer.enter" in marked_line(app)


def test_the_last_step_shows_the_search_statistics():
    app = open_game_page("othello", tab=STEP_TAB)
    app.button(key="othello_step_w_last").click().run()
    nodes, cutoffs = statistics(app)
    assert counts(app) == (nodes, cutoffs) and cutoffs > 0
    assert "return v, best" in marked_line(app)
    # the textbook tree: 28 of minimax's 40 nodes, 3 cut-offs (AIMA's figure, one ply deeper)
    app.selectbox(key="othello_step_w_position").set_value("Textbook tree: 3 plies, 27 leaves")
    app.run()
    assert status(app, "othello")[0].startswith("**Step 1 of 113**")
    app.button(key="othello_step_w_last").click().run()
    assert counts(app) == statistics(app) == (28, 3)
    assert "of minimax's 40 nodes" in status(app, "othello")[1]
    assert any(m.value == "Current node: **the root**" for m in app.markdown)


def test_algorithms_ordering_and_the_comparison():
    app = open_game_page("tictactoe", tab=STEP_TAB)
    label = "Six squares left, O to move (X wins)"
    app.selectbox(key="tictactoe_step_w_position").set_value(label).run()
    app.number_input(key="tictactoe_step_w_depth").set_value(6).run()
    plain = statistics(app)
    app.toggle(key="tictactoe_step_w_ordering").set_value(True).run()
    ordered = statistics(app)
    assert ordered[0] < plain[0]  # ordering cuts more here
    assert "moves ordered" in status(app, "tictactoe")[2]
    app.selectbox(key="tictactoe_step_w_algorithm").set_value("minimax").run()
    assert statistics(app)[1] == 0
    minimax_nodes = statistics(app)[0]
    app.selectbox(key="tictactoe_step_w_algorithm").set_value("expectimax").run()
    assert statistics(app) == (minimax_nodes, 0)
    assert "chance_value" in next(
        m.value for m in app.markdown if "def expectimax_search" in m.value
    )
    # compare: alpha-beta stepped, minimax's whole tree beside it
    app.selectbox(key="tictactoe_step_w_algorithm").set_value("alphabeta").run()
    app.toggle(key="tictactoe_step_w_compare").set_value(True).run()
    assert not app.exception
    charts = [c for c in app.get("plotly_chart")]
    assert len(charts) >= 2
    assert f"of minimax's {minimax_nodes:,} nodes" in status(app, "tictactoe")[1]


def test_examples_are_one_click_away():
    for name, count in (("tictactoe", 4), ("sim", 3)):
        app = open_game_page(name, tab=STEP_TAB)
        options = app.selectbox(key=f"{name}_step_w_position").options
        assert options[0] == "The position on the board"
        assert sum(option.startswith("Textbook") for option in options) == 2
        assert len(options) == 4 + count
        app.selectbox(key=f"{name}_step_w_position").set_value(options[-1]).run()
        assert not app.exception and statistics(app)[0] > 0
    app = open_game_page("othello", tab=STEP_TAB)
    assert len(app.selectbox(key="othello_step_w_position").options) == 4


def test_depth_is_cut_and_a_finished_game_is_explained():
    app = open_game_page("tictactoe", tab=STEP_TAB)
    app.number_input(key="tictactoe_step_w_depth").set_value(8).run()
    assert any(c.value.startswith("Depth cut to ") for c in app.caption)
    game = session(app, "tictactoe")
    for square in (0, 3, 1, 4, 2):  # X wins along the top row
        game.play(square, None, "human", at_ply=game.ply)
    app.run()
    assert not app.exception
    assert any("game is over" in i.value for i in app.info)


def test_play_and_pause():
    app = open_game_page("tictactoe", tab=STEP_TAB)
    app.button(key="tictactoe_step_w_play").click().run()
    assert app.session_state["tictactoe_step_playing"] is True
    assert app.button(key="tictactoe_step_w_play").label == "Pause"
    app.button(key="tictactoe_step_w_play").click().run()
    assert app.session_state["tictactoe_step_playing"] is False
    assert app.button(key="tictactoe_step_w_play").label == "Play"


def test_one_cut_off_is_said_in_the_singular():
    """Issue: the statistics said "1 cut-offs"."""
    app = open_game_page("othello", tab=STEP_TAB)
    app.selectbox(key="othello_step_w_position").set_value("Textbook figure 5.2: 2 plies")
    app.run()
    app.button(key="othello_step_w_last").click().run()
    text = next(c.value for c in app.caption if c.value.startswith("Search statistics"))
    assert statistics(app)[1] == 1
    assert " 1 cut-off;" in text and "cut-offs" not in text
