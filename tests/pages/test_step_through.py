"""The "Step through" tab of the game pages (AppTest): choose a position and an
algorithm, move through the steps, and read the marked line of code, the window and the
counts."""

from __future__ import annotations

import html
import json
import re

from streamlit.testing.v1 import AppTest

from lib.games.search.stepthrough import MAX_EVENTS
from lib.ui.step_panel import TREE_HEIGHT
from tests.pages.game_app import STEP_TAB, open_game_page, open_panels, session, shared_game_page

TAB = "Step through"


def status(app: AppTest, key: str) -> list[str]:
    """The lines under the step slider: the step, the window and counts, the statistics."""
    texts = [m.value for m in app.markdown if m.value.startswith(("**Step ", "Window at"))]
    return texts + [c.value for c in app.caption if c.value.startswith("Search statistics")]


MARKED_ROW = re.compile(
    r'<div class="cv-row cv-current" aria-current="step" data-line="(\d+)">'
    r'<span class="cv-gutter">(\d+)</span>'
    r'<span class="cv-code"[^>]*>(.*?)</span></div>'
)


def code_panels(app: AppTest) -> list[str]:
    """The code panels' HTML: the excerpt beside the tree, the whole listing under it."""
    return [h.value for h in app.get("html") if 'class="code-view"' in h.value]


def marked_line(app: AppTest) -> str:
    """The line marked as being executed, the same (and numbered alike) in both panels."""
    panels = code_panels(app)
    assert len(panels) == 2
    marked = [MARKED_ROW.findall(panel) for panel in panels]
    assert all(len(rows) == 1 for rows in marked), marked
    texts = [html.unescape(re.sub(r"<[^>]+>", "", rows[0][2])).strip() for rows in marked]
    numbers = {number for rows in marked for number in rows[0][:2]}  # data-line, gutter
    assert texts[0] == texts[1] and len(numbers) == 1  # the excerpt is dedented
    assert not any("tracer." in panel for panel in panels)  # the textbook code only
    return texts[0]


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
    assert marked_line(app).startswith("def value(")  # entering the root


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
    assert window(app) == "α=−∞ β=+∞" and marked_line(app).startswith("def value(")


def test_the_last_step_shows_the_search_statistics():
    app = open_game_page("othello", tab=STEP_TAB)
    app.button(key="othello_step_w_last").click().run()
    nodes, cutoffs = statistics(app)
    assert counts(app) == (nodes, cutoffs) and cutoffs > 0
    assert marked_line(app) == "return v, best"
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
    # a deep tree is drawn flatter, so the tree and the code beside it fit one screen
    (tree,) = [c for c in app.get("plotly_chart") if "Alpha-beta, depth 6" in c.proto.spec]
    assert json.loads(tree.proto.spec)["layout"]["height"] == TREE_HEIGHT
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
        panel for panel in code_panels(app) if "expectimax_search" in panel
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


def chart_titles(app: AppTest) -> dict[str, str]:
    """Each step-through chart's title (its first line), by the chart's key."""
    titles = {}
    for chart in app.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        text = spec["layout"].get("title", {}).get("text", "")
        titles[chart.proto.id] = text.split("<br>")[0]
    return titles


def test_the_comparison_says_when_the_other_tree_is_cut_and_fits_half_a_screen():
    app = open_game_page(
        "connect_four", tab=STEP_TAB, step_depth="4", step_order="1", step_compare="1", step="6"
    )
    assert not app.exception
    titles = [t for t in chart_titles(app).values() if t.startswith(("Alpha-beta", "Minimax"))]
    assert titles[:2] == ["Alpha-beta, depth 4", f"Minimax: first {MAX_EVENTS:,} steps"]
    assert all(len(t) <= 30 for t in titles)  # half of a 1024 px screen at the title's size
    assert not any("whole search" in t for t in titles)
    # a search that fits the step cap is the whole search
    small = open_game_page("tictactoe", tab=STEP_TAB, step_depth="2", step_compare="1")
    titles = [t for t in chart_titles(small).values() if t.startswith(("Alpha-beta", "Minimax"))]
    assert titles[:2] == ["Alpha-beta, depth 2", "Minimax: whole search"]
