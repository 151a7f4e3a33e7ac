"""The Portfolio GA page under AppTest: defaults, a small run, uploads, study, URL settings."""

from __future__ import annotations

import math
from datetime import date
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from lib.portfolio.data import load_stock_table
from lib.portfolio.ga import GAConfig, GenerationStats

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "app_pages" / "portfolio.py")
SP500 = ROOT / "data" / "sp500_prices_2020_2022.csv"
SMALL = {
    "pf_w_population_size": 100,
    "pf_w_elite_size": 10,
    "pf_w_max_generations": 200,
}


def open_page(query: dict[str, str] | None = None) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=60)
    if query:
        app.query_params.update(query)
    app.run()
    assert not app.exception, app.exception
    return app


def metrics(app: AppTest) -> dict[str, str]:
    return {metric.label: metric.value for metric in app.metric}


def set_settings(app: AppTest, values: dict[str, object]) -> None:
    for key, value in values.items():
        widget = app.get("slider") + app.get("number_input") + app.get("selectbox")
        widget += app.get("checkbox")
        match = [w for w in widget if getattr(w, "key", None) == key]
        assert match, key
        match[0].set_value(value)


def run_ga(app: AppTest) -> None:
    app.button(key="FormSubmitter:pf_w_form-Run the GA").click().run()
    assert not app.exception, app.exception


def downloads(app: AppTest) -> list[str]:
    return [button.proto.label for button in app.get("download_button")]


def test_first_load_runs_the_ga_on_the_bundled_sample():
    app = open_page()
    assert app.title[0].value.startswith("Portfolio optimisation")
    shown = metrics(app)
    assert shown["Feasible"] == "yes"
    assert float(shown["Return"]) > 10 and float(shown["Risk"]) < 0.6
    assert int(shown["Stocks held"]) >= 30
    assert shown["% of optimum"].endswith("%")
    assert 0 < float(shown["% of optimum"].split()[0]) <= 100
    assert "Download coefficients.csv" in downloads(app)
    assert not app.error
    # the settings are mirrored in the URL
    assert app.query_params["pop"] == "700" and app.query_params["data"] == "sample"


def test_a_small_config_run_without_stopping_at_first_feasible():
    app = open_page()
    set_settings(app, {**SMALL, "pf_w_stop_at_first_feasible": False, "pf_w_seed": 3})
    run_ga(app)
    shown = metrics(app)
    assert shown["Generations"] == "200"
    assert shown["Feasible"] == "yes"
    assert float(shown["% of optimum"].split()[0]) > 80
    assert app.query_params["gens"] == "200" and app.query_params["stop"] == "0"


def test_invalid_settings_show_an_error_not_a_traceback():
    app = open_page()
    set_settings(app, {"pf_w_population_size": 50, "pf_w_elite_size": 60})
    run_ga(app)
    assert any("elite_size" in error.value for error in app.error)


def test_hard_case_with_the_course_fitness_finds_nothing_and_says_so():
    app = open_page()
    app.radio(key="pf_w_source").set_value("hard").run()
    set_settings(
        app,
        {**SMALL, "pf_w_fitness": "course", "pf_w_repair": False, "pf_w_max_generations": 60},
    )
    run_ga(app)
    assert metrics(app)["Feasible"] == "no"
    assert any("One exists" in error.value for error in app.error)
    set_settings(app, {"pf_w_fitness": "constrained", "pf_w_repair": True})
    run_ga(app)
    assert metrics(app)["Feasible"] == "yes"


def test_sp500_prices_use_their_own_constraints_and_a_date_window():
    app = open_page()
    app.radio(key="pf_w_source").set_value("sp500").run()
    assert not app.exception
    assert app.number_input(key="pf_w_min_stocks").value == 10
    set_settings(app, SMALL)
    run_ga(app)
    assert metrics(app)["Feasible"] == "yes"
    whole = app.dataframe[0].value.set_index("ticker")
    window = app.get("date_input")[0]  # the window widget is shown for price histories
    window.set_value((date(2021, 1, 4), date(2021, 12, 31))).run()
    assert not app.exception
    year = app.dataframe[0].value.set_index("ticker")
    expected = load_stock_table(SP500, start="2021-01-04", end="2021-12-31")
    assert year.loc["AAPL", "return"] == pytest.approx(
        expected.set_index("ticker").loc["AAPL", "return"]
    )
    assert year.loc["AAPL", "return"] != pytest.approx(whole.loc["AAPL", "return"])


def test_good_upload_runs_and_offers_the_download():
    app = open_page()
    app.radio(key="pf_w_source").set_value("upload").run()
    assert any("Upload a CSV" in info.value for info in app.info)
    rows = "\n".join(f"T{i},{0.1 + (i % 7) / 10:.2f},{1 + i % 5}" for i in range(40))
    app.get("file_uploader")[0].set_value(
        ("mine.csv", f"ticker,risk,return\n{rows}\n".encode(), "text/csv")
    )
    app.run()
    set_settings(app, {**SMALL, "pf_w_min_stocks": 5, "pf_w_max_risk": 0.5, "pf_w_min_return": 2.0})
    run_ga(app)
    assert not app.error
    assert metrics(app)["Feasible"] == "yes"
    assert "Download coefficients.csv" in downloads(app)


def test_bad_upload_shows_the_message():
    app = open_page()
    app.radio(key="pf_w_source").set_value("upload").run()
    app.get("file_uploader")[0].set_value(
        ("broken.csv", b"ticker,risk,return\nAAA,0.1,1\nBBB,lots,2\n", "text/csv")
    )
    app.run()
    assert not app.exception
    messages = " ".join(error.value for error in app.error)
    assert "broken.csv" in messages and "line 3" in messages and "'lots'" in messages


def test_parameter_study_shows_a_table_a_chart_and_a_download():
    app = open_page()
    set_settings(app, SMALL)
    app.multiselect(key="pf_w_study_pop").set_value([100, 300])
    app.multiselect(key="pf_w_study_pc").set_value([])
    app.multiselect(key="pf_w_study_pm").set_value([0.1])
    app.slider(key="pf_w_study_repeats").set_value(1)
    app.number_input(key="pf_w_study_gens").set_value(40)
    app.button(key="FormSubmitter:pf_w_study_form-Run the study").click().run()
    assert not app.exception
    study = app.dataframe[-1].value
    assert study["parameter"].tolist() == ["population_size", "population_size", "p_mutation"]
    assert "Download parameter_study.csv" in downloads(app)


def test_query_params_set_up_the_page():
    app = open_page({"data": "hard", "pop": "120", "elite": "12", "fit": "course", "seed": "x"})
    assert app.radio(key="pf_w_source").value == "hard"
    assert app.slider(key="pf_w_population_size").value == 120
    assert app.selectbox(key="pf_w_fitness").value == "course"
    assert any("seed" in warning.value for warning in app.warning)


def test_progress_of_an_interrupted_run_is_shown():
    app = AppTest.from_file(PAGE, default_timeout=60)
    rows = [
        GenerationStats(g, 1.0 * g, 0.5 * g, math.nan, 0, 0.5, 2.0, 40, 0.01 * g)
        for g in range(1, 8)
    ]
    app.session_state["pf_partial"] = {"rows": rows, "config": GAConfig()}
    app.run()
    assert not app.exception
    assert any("interrupted after 7 generations" in w.value for w in app.warning)
