"""The puzzle page under AppTest: first load, typed boards, clicks, link, sections."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from lib.puzzles.board import apply_moves, goal_board, parse_board
from lib.puzzles.compare import compare_all
from lib.puzzles.korf import korf_instances
from lib.puzzles.search import solve
from lib.routes import quiz
from lib.ui import puzzles_page
from lib.ui.common import escape_markdown

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "puzzles.py")


def _app(**query: str) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=90)
    for key, value in query.items():
        app.query_params[key] = value
    return app.run()


def _metrics(app: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in app.metric}


def test_first_load_solves_aimas_board_with_a_star_h2():
    app = _app()
    assert not app.exception and not app.error
    assert app.title[0].value == "Sliding-tile puzzles"
    metrics = _metrics(app)
    assert metrics["Moves"] == "26"  # AIMA's Figure 3.4 board, optimal 26
    assert int(metrics["Generated"].replace(",", "")) > 0
    moves = app.code[0].value
    assert apply_moves(puzzles_page.DEFAULT_BOARD, moves) == goal_board(3)
    assert app.query_params["board"] == "7,2,4,5,0,6,8,3,1"


def test_an_unsolvable_typed_board_is_refused_with_the_reason_and_the_board_kept():
    app = _app()
    app.text_input(key="pz_w_typed").set_value("0 2 1 3 4 5 6 7 8").run()
    errors = " ".join(e.value for e in app.error)
    assert "cannot be solved" in errors and "inversion" in errors
    assert app.session_state[puzzles_page.BOARD_KEY] == puzzles_page.DEFAULT_BOARD
    app.text_input(key="pz_w_typed").set_value("1 2 5 3 4 0 6 7 8").run()
    assert not app.error
    assert _metrics(app)["Moves"] == "3"


def test_algorithm_and_link_settings():
    app = _app(board="1,2,5,3,4,0,6,7,8", algo="rbfs", h="lc")
    assert not app.exception and not app.error
    assert _metrics(app)["Moves"] == "3"
    app.selectbox(key="pz_w_algo").set_value("ids").run()
    assert _metrics(app)["Moves"] == "3" and app.query_params["algo"] == "ids"
    bad = _app(board="1,2,3", algo="nope")
    assert not bad.exception
    warnings = " ".join(w.value for w in bad.warning)
    assert "board" in warnings and "algo" in warnings


def test_a_click_beside_the_blank_slides_the_tile(monkeypatch):
    store: dict = {puzzles_page.BOARD_KEY: parse_board("1 2 5 3 4 0 6 7 8")}
    monkeypatch.setattr(puzzles_page.st, "session_state", store)
    assert not puzzles_page.slide_tile(0)  # not next to the blank
    assert puzzles_page.slide_tile(2)  # 5 slides down
    assert store[puzzles_page.BOARD_KEY] == parse_board("1 2 0 3 4 5 6 7 8")


def test_the_15_puzzle_waits_for_solve_then_runs_in_the_pool():
    app = _app(board=",".join(map(str, korf_instances()[11].board)), algo="idastar", h="pdb")
    assert not app.exception
    assert any("Press Solve" in i.value for i in app.info)
    app.button(key="pz_w_solve").click().run()
    assert not app.exception and not app.error
    assert _metrics(app)["Moves"] == "45"


def test_the_comparison_runs_every_algorithm():
    table = compare_all(parse_board("1 2 5 3 4 0 6 7 8"))
    assert {row["length"] for row in table} == {3}
    assert len(table) == 3 + 4 * 3  # three uninformed, four informed with h1, h2, lc
    app = AppTest.from_file(PAGE, default_timeout=90)
    app.query_params["board"] = "1,2,5,3,4,0,6,7,8"
    app.session_state["pz_open_compare"] = True
    app.run()
    app.button(key="pz_w_compare").click().run()
    assert not app.exception and not app.error
    shown = app.dataframe[0].value
    assert list(shown["algorithm"]) == [row["algorithm"] for row in table]
    assert list(shown["generated"]) == [row["generated"] for row in table]


def test_step_through_and_quiz_use_the_route_labs_trace():
    app = AppTest.from_file(PAGE, default_timeout=90)
    app.query_params["board"] = "1,2,5,3,4,0,6,7,8"
    app.session_state["pz_open_steps"] = True
    app.session_state["pz_open_quiz"] = True
    app.run()
    assert not app.exception and not app.error
    traced = solve(parse_board("1 2 5 3 4 0 6 7 8"), "astar", "h2", record_trace=True)
    step = app.slider(key="pz_w_step")
    assert step.max == len(traced.trace) - 1  # the route lab's trace of the run, every step
    step.set_value(step.max).run()
    assert not app.exception and not app.error
    # the quiz: answer every question with the board the trace expanded
    asked = quiz.questions("A*", traced.trace)
    for question in asked:
        radio = next(r for r in app.radio if r.label == "Which board is expanded next?")
        radio.set_value(",".join(map(str, question.answer))).run()
        app.button(key="pz_w_quiz_answer").click().run()
        assert not app.exception
    assert any(f"{len(asked)} of {len(asked)} right" in i.value for i in app.info)


def _two_counts() -> None:
    import streamlit as st

    from lib.ui.puzzles_page import _count_metric

    _count_metric(st, "Generated", 12_345_678)
    _count_metric(st, "Expanded", 171_712)


def test_counts_of_millions_are_compact_with_the_whole_figure_in_their_help():
    app = AppTest.from_function(_two_counts).run()
    big, small = app.metric
    assert big.proto.body == "12345678" and big.proto.format == "compact"
    assert big.proto.help == "12,345,678 in all"
    assert small.value == "171,712" and not small.proto.format and not small.proto.help


def test_a_link_s_bad_board_is_quoted_escaped_once():
    typed = "<img src=x onerror=alert(1)>"
    app = _app(board=typed)
    (warning,) = [w.value for w in app.warning]
    assert escape_markdown(typed) in warning  # shown as typed, no HTML
    assert "\\\\" not in warning  # no escape of an escape: no stray backslash on the page


def test_a_link_s_pattern_databases_on_an_8_puzzle_board_are_said_to_be_replaced():
    app = _app(h="pdb")
    assert not app.exception
    assert [w.value for w in app.warning] == [
        "The link's h=pdb (pattern databases) is for the 15-puzzle; using h2 on this "
        "8-puzzle board."
    ]
    assert app.selectbox(key="pz_w_h").value == "h2"
    fifteen = _app(h="pdb", board=",".join(map(str, korf_instances()[0].board)))
    assert not fifteen.warning and fifteen.selectbox(key="pz_w_h").value == "pdb"


def test_a_link_s_unsolvable_board_is_refused_for_its_parity_not_its_format():
    app = _app(board="1,2,3,4,5,6,8,7,0")
    (warning,) = [w.value for w in app.warning]
    assert escape_markdown("This board cannot be solved: it has 1 inversion") in warning
    assert "not a whole number" not in warning
    assert app.session_state[puzzles_page.BOARD_KEY] == puzzles_page.DEFAULT_BOARD
