"""The route page's search tree and "You be the algorithm" section under AppTest."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from lib.routes import graphs, quiz, search, search_tree
from lib.ui import routes_common, routes_quiz

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "routes.py")


def _app(*, quiz_open: bool = True, **query) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=60)
    for key, value in query.items():
        app.query_params[key] = value
    if quiz_open:
        app.session_state[routes_quiz.OPEN_KEY] = True
    return app.run()


def _text(app: AppTest) -> str:
    """Every markdown, success and error text, markdown escapes removed."""
    texts = [e.value for kind in (app.markdown, app.success, app.error) for e in kind]
    return "\n".join(texts).replace("\\", "").replace("**", "")


def _figure(app: AppTest, key: str) -> dict:
    (chart,) = [c for c in app.get("plotly_chart") if c.proto.id.endswith(key)]
    return json.loads(chart.proto.spec)


def _asked(name: str = "A*", goal: str = "Bucharest") -> list[quiz.Question]:
    G = graphs.romania()
    traced = search.run(name, G, "Arad", goal, graphs.StraightLine.of(G), record_trace=True)
    return quiz.questions(name, traced.trace)


def _pick(app: AppTest, question: quiz.Question, position: int, node) -> AppTest:
    """Press the button of ``node`` on question ``position``."""
    index = [c.node for c in question.frontier].index(node)
    return app.button(key=f"rt_w_quiz_pick_{position}_{index}").click().run()


def test_the_search_tree_follows_the_page_s_step():
    app = _app(quiz_open=False)
    G = graphs.romania()
    traced = search.astar(G, "Arad", "Bucharest", graphs.StraightLine.of(G), record_trace=True)
    for step in (0, 4, len(traced.trace) - 1):
        app.session_state[routes_common.value_key("step")] = step  # as the player's callback
        app.run()
        assert not app.exception
        tree = search_tree.build(traced.trace, step, goal="Bucharest")
        figure = _figure(app, "rt_w_tree")
        drawn = {
            (trace["name"], point[0])
            for trace in figure["data"]
            for point in trace.get("customdata") or []
        }
        expected = {("frontier", place) for _, place in tree.frontier}
        assert {d for d in drawn if d[0] == "frontier"} == expected
        assert {place for _, place in drawn} == {place for _, place in tree.nodes}
        assert figure["layout"]["title"]["text"] == f"A*: step {step}"
    assert any(trace["name"] == "goal path" for trace in figure["data"])


def test_answering_right_then_wrong_is_scored_and_explained():
    app = _app()
    assert not app.exception
    asked = _asked()
    assert "Score: 0 / 0 right" in _text(app)
    assert f"Question 1 of {len(asked)}: which place does A* expand next?" in _text(app)
    _pick(app, asked[0], 0, "Arad")
    assert not app.exception
    assert app.success[0].value.startswith("Right.")
    assert "Score: 1 / 1 right" in _text(app)
    wrong = next(c.node for c in asked[1].frontier if c.node != asked[1].answer)
    _pick(app, asked[1], 1, wrong)
    text = _text(app)
    assert app.error and app.error[0].value.startswith("Wrong.")
    mine, right = asked[1].choice(wrong), asked[1].choice(asked[1].answer)
    assert f"You chose {wrong} (f = g + h = {mine.g:.4g} + {mine.h:.4g} = {mine.f:.4g})" in text
    assert f"A* expands {right.label}: f = g + h = {right.g:.4g}" in text
    assert "Score: 1 / 2 right" in text
    assert f"Question 3 of {len(asked)}" in text  # it goes on either way
    assert any("newest entry goes first" in c.value for c in app.caption)  # the tie rule


def test_a_whole_round_ends_with_a_summary_a_download_and_try_again():
    app = _app(algos="BFS|A*")
    assert app.selectbox(key="rt_w_quiz_algo").value == "BFS"  # the link's first it can play
    asked = _asked("BFS")
    for position, question in enumerate(asked):
        node = question.answer if position else question.frontier[0].node
        if position == 1:  # one wrong answer
            node = next(c.node for c in question.frontier if c.node != question.answer)
        _pick(app, question, position, node)
    assert not app.exception
    text = _text(app)
    assert f"You picked {len(asked) - 1} of {len(asked)} expansions right" in text
    assert "Missed: question 2:" in text
    assert any(s.value == "Round over" for s in app.subheader)
    assert "rt_w_quiz_dl" in {b.key for b in app.get("download_button")}
    app.button(key="rt_w_quiz_again").click().run()
    assert "Score: 0 / 0 right" in _text(app) and "Question 1 of" in _text(app)


def test_changing_the_algorithm_starts_a_new_round():
    app = _app()
    asked = _asked()
    _pick(app, asked[0], 0, "Arad")
    app.selectbox(key="rt_w_quiz_algo").set_value("DFS").run()
    assert "Score: 0 / 0 right" in _text(app)
    assert "which place does DFS expand next?" in _text(app)
    assert not app.exception


def test_a_map_over_the_quiz_cap_says_so():
    app = _app(source="Random graph", n="300")
    assert not app.exception
    assert any("the quiz plays on maps of up to 200 places" in i.value for i in app.info)


def test_a_small_grid_plays_dfs_with_its_cells_as_buttons():
    app = _app(source="Grid with obstacles", rows="8", cols="10", obstacles="20", seed="2")
    app.selectbox(key="rt_w_quiz_algo").set_value("DFS").run()
    assert not app.exception
    G = graphs.grid(8, 10, obstacles=0.2, seed=2, corridor=True)
    start = graphs.find_node(G, app.selectbox(key="rt_w_start").value)
    goal = graphs.find_node(G, app.selectbox(key="rt_w_goal").value)
    traced = search.dfs(G, start, goal, record_trace=True)
    asked = quiz.questions("DFS", traced.trace)
    for position in range(3):
        question = asked[position]
        labels = [b.label for b in app.button if b.key.startswith(f"rt_w_quiz_pick_{position}_")]
        assert labels == [c.label for c in question.frontier]  # cells named "row,col"
        _pick(app, question, position, question.answer)
    assert "Score: 3 / 3 right" in _text(app)
    assert "pushed #" in app.success[0].value.replace("\\", "")


def test_the_frontier_table_lists_the_candidates_first_and_says_its_order():
    """On a grid, up to question 12: the table's top row is the place A* expands (sorted by
    f, then newest first), the order is said above it, and the top rows need no scrolling."""
    app = _app(source="Grid with obstacles", rows="8", cols="10", obstacles="20", seed="2")
    app.selectbox(key="rt_w_quiz_algo").set_value("A*").run()
    G = graphs.grid(8, 10, obstacles=0.2, seed=2, corridor=True)
    start = graphs.find_node(G, app.selectbox(key="rt_w_start").value)
    goal = graphs.find_node(G, app.selectbox(key="rt_w_goal").value)
    h = graphs.make_heuristic(G, graphs.heuristic_choices(G)[0])  # the page's: Manhattan
    traced = search.run("A*", G, start, goal, h, record_trace=True)
    asked = quiz.questions("A*", traced.trace)
    assert len(asked) >= 12
    for position in range(12):
        question = asked[position]
        (table,) = [d.value for d in app.dataframe if "pushed" in d.value.columns]
        assert list(table["node"]) == [c.label for c in quiz.ranked("A*", question.frontier)]
        assert table["node"].iloc[0] == graphs.node_label(question.answer)
        assert any(c.value == quiz.ORDER_TEXT["A*"] for c in app.caption)
        _pick(app, question, position, question.answer)
    assert "Score: 12 / 12 right" in _text(app)
