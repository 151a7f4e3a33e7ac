"""The local search page under AppTest: first look, settings and link, refusals, AIMA's figures."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from lib.local_search.queens import attacking_pairs
from lib.local_search.solve import solve
from lib.ui import local_search_aima, local_search_page

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "local_search.py")


def _app(**query: str) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=60)
    for key, value in query.items():
        app.query_params[key] = value
    return app.run()


def _summary(app: AppTest) -> str:
    return next(m.value for m in app.markdown if "attacking pairs (**" in m.value)


def test_first_load_runs_hill_climbing_with_sideways_moves_on_8_queens():
    app = _app()
    assert not app.exception and not app.error
    assert app.title[0].value == "Local search: n-queens"
    expected = solve(8, "sideways", seed=1)
    assert _summary(app).startswith(f"**{expected.h}** attacking pairs (**{expected.history[0]}**")
    assert f"**{expected.steps}** steps" in _summary(app)
    assert len(app.get("plotly_chart")) == 3  # board, landscape, objective
    assert app.query_params["algorithm"] == "sideways" and app.query_params["n"] == "8"


def test_the_step_control_moves_through_the_run():
    app = _app()
    last = int(app.slider(key="ls_w_step").max)
    app.button(key="ls_w_next").click().run()
    assert app.slider(key="ls_w_step").value == 1
    app.slider(key="ls_w_step").set_value(last).run()
    caption = " ".join(c.value for c in app.caption)
    outcome = solve(8, "sideways", seed=1)
    assert f"Step {outcome.records[last].index}: {outcome.records[last].h} attacking" in caption
    app.button(key="ls_w_next").click().run()
    assert app.slider(key="ls_w_step").value == last


def test_settings_come_from_the_link_and_go_back_into_it():
    app = _app(n="10", algorithm="annealing", seed="7", schedule="linear", t0="1.5", limit="500")
    assert not app.exception and not app.error
    expected = solve(
        10,
        "annealing",
        seed=7,
        settings=local_search_page.settings_of(
            {**{f.name: f.default for f in local_search_page.LINK}, "schedule": "linear",
             "t0": 1.5, "limit": 500}
        ),
    )  # fmt: skip
    assert f"**{expected.steps:,}** steps" in _summary(app)
    assert app.radio(key="ls_w_schedule").value == "linear"
    app.number_input(key="ls_w_seed").set_value(8).run()
    assert app.query_params["seed"] == "8" and app.query_params["schedule"] == "linear"


@pytest.mark.parametrize("n", ["0", "1000000000"])
def test_an_n_out_of_range_in_the_link_is_named_with_the_range(n):
    app = _app(n=n)
    warning = " ".join(w.value for w in app.warning)
    assert f"n={n}" in warning and "8–1000000" in warning
    assert not app.exception


def test_large_n_takes_min_conflicts_and_draws_no_board():
    app = _app(n="200000", algorithm="min-conflicts")
    assert not app.exception and not app.error
    assert _summary(app).startswith("**0** attacking pairs") and "**solved**" in _summary(app)
    assert any("are not drawn" in i.value for i in app.info)
    assert len(app.get("plotly_chart")) == 1  # the objective only
    app = _app(n="500", algorithm="steepest")
    assert "need min\\-conflicts" in app.error[0].value


def test_the_steps_table_matches_the_run():
    outcome = solve(8, "steepest", seed=3)
    table = local_search_page.steps_table(outcome)
    assert list(table["attacking pairs"]) == list(outcome.history)
    for state, h in zip(table["state (row of each column)"], table["attacking pairs"], strict=True):
        assert attacking_pairs([int(x) for x in state.split()]) == h


def test_the_aima_section_computes_the_table_beside_the_book():
    app = AppTest.from_file(PAGE, default_timeout=120)
    app.session_state[local_search_aima.OPEN_KEY] = True
    app.session_state["ls_w_aima_million"] = False
    app.run()
    assert not app.exception and not app.error
    table = app.dataframe[0].value
    rates = table[table["Measure"] == "solved (%)"]
    assert list(rates["Book"]) == [14, 94]
    assert all(
        abs(ours - book) <= 3 for ours, book in zip(rates["Ours"], rates["Book"], strict=True)
    )


def test_a_run_past_its_time_limit_says_so(monkeypatch):
    monkeypatch.setattr(local_search_page, "HOSTED_SECONDS", 0.0)
    monkeypatch.delenv("AI_SEARCH_LAB_LOCAL", raising=False)
    app = _app(n="30", algorithm="annealing")
    assert not app.exception and not app.error
    assert any("stopped at its time limit" in w.value for w in app.warning)


def test_the_code_panel_shows_the_textbook_code_of_the_algorithm():
    app = _app(algorithm="min-conflicts")
    code = app.code[0].value
    assert code.startswith("def min_conflicts(") and "def greedy_start(" in code
