"""The constraint-satisfaction page in AppTest: defaults, settings in the link, steps, errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from lib.csp import compare, runs
from lib.csp.sudoku import bundled
from lib.links import read_link
from lib.ui import csp_page
from lib.ui.presentation import TOGGLE_KEY
from tests.pages.widget_defaults import default_mismatches, seeded_widget_count

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "csp.py")
TWO_SOLUTIONS = "8596124377.38541.91.43795.8986147352375268914241593786432981675617425893598736241"


def plain(text: str) -> str:
    """A Markdown text without its escapes."""
    return text.replace("\\", "")


def open_page(**params: str) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=60)
    for name, value in params.items():
        app.query_params[name] = value
    return app.run()


def test_first_load_solves_australia_and_opens_on_the_answer():
    app = open_page()
    assert not app.exception
    assert "Solved: Australia" in app.success[0].value
    step = app.slider(key=csp_page.STEP_KEY)
    assert step.value == step.max == 22  # 7 assignments, 14 narrowings, the solution
    assert app.metric[0].value == "7"


def test_stepping_back_replays_the_search():
    app = open_page()
    app.slider(key=csp_page.STEP_KEY).set_value(0).run()
    assert "The start" in app.markdown[1].value
    app.button(key="csp_w_next").click().run()
    assert app.slider(key=csp_page.STEP_KEY).value == 1
    assert "Assign WA = red" in plain(app.markdown[1].value)


def test_the_link_sets_the_problem_and_techniques_and_follows_changes():
    app = open_page(problem="queens", n="8", mrv="true", inference="fc")
    assert not app.exception
    assert app.selectbox(key="csp_w_problem").value == "queens"
    assert app.checkbox(key="csp_w_mrv").value is True
    assert app.metric[0].value == "75"  # FC + MRV on 8-queens (the comparison's figure)
    app.radio(key="csp_w_inference").set_value("mac").run()
    assert app.query_params["inference"] == ["mac"] or app.query_params["inference"] == "mac"


def test_every_seeded_widget_sends_its_value_as_its_default():
    app = open_page(problem="queens", n="12", mrv="true", lcv="true", inference="mac")
    assert seeded_widget_count(app) >= 8
    assert default_mismatches(app) == []
    app.button(key="csp_w_back").click().run()
    assert default_mismatches(app) == []


def test_a_bad_link_value_is_noted_and_the_default_used():
    app = open_page(n="1000000000", inference="magic")
    assert not app.exception
    notes = " ".join(w.value for w in app.warning)
    assert "inference" in notes and "n=1000000000" in notes


def test_a_typed_grid_is_checked_at_once_naming_the_cell():
    app = open_page(problem="sudoku", puzzle=csp_page.TYPED)
    app.text_area(key="csp_w_grid").input("12x" + "." * 78).run()
    assert "Character 'x' at cell 3 (row 1, column 3)" in plain(app.error[0].value)
    app.text_area(key="csp_w_grid").input("55" + "." * 79).run()
    assert "digit 5 appears twice in row 1" in plain(app.error[0].value)


def test_the_zebra_table_shows_the_answer():
    app = open_page(problem="zebra", mrv="yes", inference="fc")
    table = app.dataframe[0].value
    assert table.loc[5, "pet"] == "Zebra" and table.loc[5, "nationality"] == "Japanese"
    assert table.loc[1, "drink"] == "Water"


@pytest.mark.parametrize("problem", ["usa", "sudoku"])
def test_larger_runs_go_through_the_job_pool(problem):
    app = open_page(problem=problem, mrv="true", inference="mac")
    assert not app.exception
    assert app.success and "Solved" in app.success[0].value


def test_link_schema_round_trips():
    values = {f.name: f.default for f in csp_page.SCHEMA}
    values.update(problem="sudoku", grid=bundled()["Inkala 2012"], mrv=True)
    from lib.links import write_link

    read, notes = read_link(csp_page.SCHEMA, write_link(csp_page.SCHEMA, values))
    assert read == values and notes == []


def test_the_comparison_table_and_its_csv():
    cells = compare.compare(("Australia",), cap=1_000)
    assert compare.table(cells).loc["Australia", "FC+MRV"] == "7"
    assert list(compare.long_table(cells).columns)[:3] == ["problem", "technique", "assignments"]


def test_a_two_solution_sudoku_is_told_by_the_run_and_the_page():
    run = runs.traced_run(runs.Settings("sudoku", grid=TWO_SOLUTIONS, mrv=True, inference="mac"))
    assert run.solution is not None and run.extra["solutions"] == 2
    app = open_page(problem="sudoku", puzzle=csp_page.TYPED, grid=TWO_SOLUTIONS)
    assert not app.exception
    assert "more than one solution" in plain(app.warning[0].value)


def test_a_sudoku_without_a_solution_says_so():
    no_solution = "12345678." + "........9" + "." * 63
    app = open_page(problem="sudoku", puzzle=csp_page.TYPED, grid=no_solution, inference="mac")
    assert not app.exception
    assert "has no solution" in plain(app.error[0].value)


def test_the_presentation_view_hides_the_settings_and_keeps_the_counts_in_a_line():
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.session_state[TOGGLE_KEY] = True  # what the entry script's toggle sets
    app.run()
    assert not app.exception
    assert not app.metric  # the counts are one line of text
    assert any("7** assignments" in m.value for m in app.markdown)


def test_the_comparison_runs_on_the_job_pool_with_its_table(monkeypatch):
    monkeypatch.setattr(csp_page, "COMPARE_ROWS", ("Australia", "8-queens"))
    app = open_page()
    app.button(key="csp_w_compare").click().run()
    assert not app.exception
    table = app.dataframe[-1].value
    assert list(table.index) == ["Australia", "8-queens"]
    assert table.loc["8-queens", "FC+MRV"] == "75" and table.loc["8-queens", "BT"] == "113"


@pytest.mark.parametrize(
    ("grid", "used", "chosen"),
    [
        (TWO_SOLUTIONS, "using the link's grid.", csp_page.TYPED),
        ("", f"using {csp_page.DEFAULT_PUZZLE}.", csp_page.DEFAULT_PUZZLE),
    ],
)
def test_a_link_s_unknown_puzzle_is_named_with_what_the_page_uses_instead(grid, used, chosen):
    app = open_page(problem="sudoku", puzzle="zz<b>", **({"grid": grid} if grid else {}))
    assert not app.exception
    notes = [plain(w.value) for w in app.warning if "puzzle=" in w.value]
    assert notes == [f"The link's puzzle=zz<b> is not a bundled one; {used}"]
    assert app.selectbox(key="csp_w_puzzle").value == chosen
