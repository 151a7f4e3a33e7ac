"""The Portfolio GA page under AppTest: defaults, a small run, uploads, study, URL settings."""

from __future__ import annotations

import base64
import json
import math
from datetime import date
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from lib.jobs import JobOutOfMemory
from lib.portfolio.data import load_stock_table
from lib.portfolio.exact import efficient_frontier, solve_exact
from lib.portfolio.ga import GAConfig, GenerationStats
from lib.ui import portfolio as ui
from lib.ui import portfolio_inputs as inputs
from lib.ui.common import escape_markdown
from tests.pages.widget_defaults import default_mismatches, seeded_widget_count

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "portfolio.py")
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


def data_table(app: AppTest):
    """The table of the data expander (the results come first on the page), opened.

    The page draws the table only while the expander is open (a click on it reruns).
    """
    app.session_state["pf_w_data_open"] = True
    app.run()
    assert not app.exception, app.exception
    box = next(e for e in app.expander if e.label.startswith("The data:"))
    return box.dataframe[0].value


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


def test_the_default_run_hints_that_unticking_stop_when_feasible_goes_further():
    app = open_page()  # the course's rule: stop at the first feasible portfolio
    percent = metrics(app)["% of optimum"]
    hints = [i.value for i in app.info if "Stop when feasible" in i.value]
    assert len(hints) == 1 and percent in hints[0]
    set_settings(app, {**SMALL, "pf_w_stop_at_first_feasible": False, "pf_w_seed": 3})
    run_ga(app)
    assert float(metrics(app)["% of optimum"].split()[0]) > float(percent.split()[0])


def plotly_array(value: object) -> np.ndarray:
    """An array of a plotly JSON spec: a list, or plotly's ``{"bdata", "dtype"}`` form."""
    if isinstance(value, dict):
        return np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
    return np.asarray(value)


def test_the_population_animation_sits_beside_the_fitness_chart():
    app = open_page()
    charts = {chart.key: chart for chart in app.get("plotly_chart")}
    assert list(charts)[:2] == ["pf_fitness_chart", "pf_population_chart"]
    spec = json.loads(charts["pf_population_chart"].proto.spec)
    result = app.session_state["pf_result"]["result"]
    kept = result.trace.generations
    assert [frame["name"] for frame in spec["frames"]] == [str(g) for g in kept]
    assert kept[-1] == result.generations
    # the last frame: the population the run ended with (its recorded sample of at most
    # TRACE_POINTS individuals), with as many feasible dots as that sample holds
    last = spec["frames"][-1]["data"]
    assert len(plotly_array(last[1]["x"])) == int(result.trace.feasible[-1].sum())
    assert int(result.trace.feasible[-1].sum()) <= result.history["n_feasible"].iloc[-1]
    assert any(trace.get("name") == "exact optimum" for trace in spec["data"])


def test_a_small_config_run_without_stopping_at_first_feasible():
    app = open_page()
    set_settings(app, {**SMALL, "pf_w_stop_at_first_feasible": False, "pf_w_seed": 3})
    run_ga(app)
    shown = metrics(app)
    assert shown["Generations"] == "200"
    assert shown["Feasible"] == "yes"
    assert float(shown["% of optimum"].split()[0]) > 80
    assert app.query_params["gens"] == "200" and app.query_params["stop"] == "0"


def test_an_elite_as_large_as_the_population_is_said_in_the_forms_words_and_keeps_the_page():
    app = open_page()
    set_settings(app, {"pf_w_population_size": 50, "pf_w_elite_size": 70})
    run_ga(app)
    errors = " ".join(error.value for error in app.error)
    assert "Elite size 70" in errors and "Population size 50" in errors
    assert "at most 49" in errors
    assert "elite" + escape_markdown("_size") not in errors and "population_size" not in errors
    # the page stays: the last results (labelled), the data and the study
    assert any("Results of the last run" in e.label for e in app.expander)
    assert [h.value for h in app.header if h.value == "Parameter study"]
    assert app.button(key="FormSubmitter:pf_w_study_form-Run the study")


def test_a_link_with_a_population_below_the_elite_keeps_the_page():
    app = open_page({"pop": "25", "elite": "70"})  # both asked for: said, nothing run
    errors = " ".join(error.value for error in app.error)
    assert "Elite size 70" in errors and "Population size 25" in errors
    assert [h.value for h in app.header if h.value == "Parameter study"]
    assert "pf_result" not in app.session_state  # nothing ran on the invalid settings
    app.button(key="FormSubmitter:pf_w_study_form-Run the study").click().run()
    assert not app.exception and "pf_study" not in app.session_state


def test_a_link_setting_only_a_small_population_scales_the_default_elite_and_says_so():
    app = open_page({"pop": "50"})
    assert not app.exception and not app.error
    assert app.session_state["pf_w_elite_size"] == 5  # 70 of 700: a tenth
    assert [w.value for w in app.warning if "elite" in w.value] == [
        "The link sets Population size 50 but no elite size; using an elite of 5 (the "
        "default's share, 10%; 70 would not fit)."
    ]
    assert "pf_result" in app.session_state  # the page ran on the link's population


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
    # the repair with its full budget (at 60 generations NumPy 1.26's rounding left it short)
    set_settings(
        app, {"pf_w_fitness": "constrained", "pf_w_repair": True, "pf_w_max_generations": 200}
    )
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
    whole = data_table(app).set_index("ticker")
    window = app.get("date_input")[0]  # the window widget is shown for price histories
    window.set_value((date(2021, 1, 4), date(2021, 12, 31))).run()
    assert not app.exception
    year = data_table(app).set_index("ticker")
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
    assert escape_markdown("broken.csv") in messages
    assert "line 3" in messages and "'lots'" in messages


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
    assert study["parameter"].tolist() == [
        "population size",
        "population size",
        "mutation probability",
    ]
    assert "fitness (mean)" in study.columns and "success rate" in study.columns
    assert "Download parameter_study.csv" in downloads(app)


def test_query_params_set_up_the_page():
    app = open_page({"data": "hard", "pop": "120", "elite": "12", "fit": "course", "seed": "x"})
    assert app.radio(key="pf_w_source").value == "hard"
    assert app.slider(key="pf_w_population_size").value == 120
    assert app.selectbox(key="pf_w_fitness").value == "course"
    assert any("seed" in warning.value for warning in app.warning)


def test_infinite_or_huge_numbers_in_a_link_are_ignored_with_a_warning():
    app = open_page({"pop": "inf", "gens": "1e400", "seed": "-inf", "pc": "nan", "pm": "0.05"})
    message = " ".join(warning.value for warning in app.warning)
    for name in ("pop", "gens", "seed", "pc"):
        assert name in message
    assert app.slider(key="pf_w_population_size").value == inputs.DEFAULTS.population_size


def test_the_frontier_is_solved_and_drawn_only_once_its_section_is_opened(monkeypatch):
    solved = []

    def counted(table, config, **kwargs):
        solved.append(len(table))
        return efficient_frontier(table, config, **kwargs)

    monkeypatch.setattr(ui, "efficient_frontier", counted)
    ui.frontier.clear()  # shared by sessions: another test may have filled it
    app = open_page()
    assert metrics(app) and solved == []
    assert len(app.get("plotly_chart")) == 3  # fitness, population, scatter
    assert [e.label for e in app.expander].count(ui.FRONTIER_LABEL) == 1
    app.session_state[ui.FRONTIER_OPEN_KEY] = True  # the visitor opens it
    app.run()
    assert not app.exception and solved == [len(app.session_state["pf_result"]["table"])]
    box = next(e for e in app.expander if e.label == ui.FRONTIER_LABEL)
    assert len(box.get("plotly_chart")) == 1
    ui.frontier.clear()


def test_progress_of_an_interrupted_run_is_shown_as_the_only_fitness_chart():
    app = open_page()  # the first-load run: its results and fitness chart are on screen
    app.session_state[ui.FRONTIER_OPEN_KEY] = True
    app.run()
    assert len(app.get("plotly_chart")) == 4  # fitness, population, scatter, frontier
    rows = [
        GenerationStats(g, 1.0 * g, 0.5 * g, math.nan, 0, 0.5, 2.0, 40, 0.01 * g)
        for g in range(1, 8)
    ]
    data_id = app.session_state["pf_result"]["data_id"]
    app.session_state["pf_partial"] = {"rows": rows, "config": GAConfig(), "data_id": data_id}
    app.run()
    assert not app.exception
    assert any("interrupted after 7 generations" in w.value for w in app.warning)
    # one fitness chart (the interrupted run's), not the older run's stacked under it
    assert len(app.get("plotly_chart")) == 1
    assert not app.metric


def test_a_run_interrupted_before_its_first_generation_says_so():
    """Cancel pressed before the worker sent a generation (a busy server): the page says
    the run was interrupted, not silently shows the results from before it."""
    app = open_page()
    data_id = app.session_state["pf_result"]["data_id"]
    app.session_state["pf_partial"] = {"rows": [], "config": GAConfig(), "data_id": data_id}
    app.run()
    assert not app.exception
    assert [w.value for w in app.warning if "interrupted" in w.value] == [
        "The last run was interrupted before its first generation (a widget changed or "
        "another button was pressed while it ran): press **Run the GA** to run it again."
    ]
    assert not app.get("plotly_chart") and not app.metric


def intro(app: AppTest) -> str:
    return next(m.value for m in app.markdown if m.value.startswith("Give every stock"))


def test_the_intro_states_the_current_constraints():
    app = open_page()
    text = intro(app)
    assert "at least 30 stocks" in text and "below 0.6" in text and "exceeds 10" in text
    app.radio(key="pf_w_source").set_value("sp500").run()
    text = intro(app)
    assert "at least 10 stocks" in text and "below 0.3" in text
    assert "exceeds 1**" in text and "(100 %)" in text and "30 stocks" not in text


def test_switching_to_other_bundled_data_runs_on_it():
    app = open_page()
    app.radio(key="pf_w_source").set_value("sp500").run()
    assert not app.exception
    saved = app.session_state["pf_result"]
    assert len(saved["table"]) == 20 and saved["result"].config.min_stocks == 10
    assert int(metrics(app)["Stocks held"]) <= 20
    assert not app.expander or all("other data" not in e.label for e in app.expander)


def test_an_upload_hides_the_old_results_until_run():
    app = open_page()
    app.radio(key="pf_w_source").set_value("upload").run()
    rows = "\n".join(f"T{i},{0.1 + (i % 7) / 10:.2f},{1 + i % 5}" for i in range(40))
    app.get("file_uploader")[0].set_value(
        ("mine.csv", f"ticker,risk,return\n{rows}\n".encode(), "text/csv")
    )
    app.run()
    assert any(escape_markdown("mine.csv") in i.value and "Run the GA" in i.value for i in app.info)
    old = [e for e in app.expander if "Results of the last run, on other data" in e.label]
    assert len(old) == 1 and "Sample" in old[0].label  # the sample's results, labelled
    # the frontier with them (an expander cannot hold another one to open)
    assert len(old[0].get("plotly_chart")) == 4
    set_settings(app, {**SMALL, "pf_w_min_stocks": 5, "pf_w_max_risk": 0.5, "pf_w_min_return": 2.0})
    run_ga(app)
    assert not any("other data" in e.label for e in app.expander)
    assert not any("Run the GA for this data" in i.value for i in app.info)
    assert len(app.session_state["pf_result"]["table"]) == 40


def test_a_link_asking_for_a_long_run_waits_for_the_button():
    app = open_page({"pop": "3000", "gens": "5000", "stop": "0"})
    assert "pf_result" not in app.session_state and not app.metric
    message = " ".join(i.value for i in app.info)
    assert "3000 × 5000" in message and "Run the GA" in message and "60 s" in message
    assert app.slider(key="pf_w_population_size").value == 3000


def test_a_study_setting_with_no_feasible_run_says_so():
    app = open_page()
    set_settings(app, {**SMALL, "pf_w_min_return": 50.0})  # above every stock's return
    app.multiselect(key="pf_w_study_pop").set_value([100])
    app.multiselect(key="pf_w_study_pc").set_value([])
    app.multiselect(key="pf_w_study_pm").set_value([])
    app.slider(key="pf_w_study_repeats").set_value(1)
    app.number_input(key="pf_w_study_gens").set_value(10)
    app.button(key="FormSubmitter:pf_w_study_form-Run the study").click().run()
    assert not app.exception
    shown = app.dataframe[-1].value
    assert shown["generations to feasible (mean)"].tolist() == ["— (no feasible run)"]
    assert "None" not in shown.astype(str).to_numpy().ravel().tolist()


def test_an_infeasible_reason_is_shown_once():
    app = open_page()
    upload(app, "five.csv", FIVE)
    set_settings(app, {**SMALL, "pf_w_min_stocks": 2, "pf_w_max_risk": 0.1})
    run_ga(app)
    shown = [c.value for c in app.caption] + [e.value for e in app.error]
    reason = escape_markdown("the least risky stock, C, has risk 0.15")
    assert sum(reason in text or "least risky stock, C" in text for text in shown) == 1


def test_file_names_and_tickers_from_an_upload_are_shown_as_text():
    app = open_page()
    app.radio(key="pf_w_source").set_value("upload").run()
    evil = "![x](http://attacker.example/i.png)"
    lines = ["date,ticker,close"]
    lines += [f"2024-01-0{d},T{i},{10 + i + d}" for i in range(12) for d in range(1, 6)]
    lines.append(f'2024-01-01,"{evil}",5')  # one price only: dropped, and named in a note
    name = "[c](javascript:alert(1)).csv"
    app.get("file_uploader")[0].set_value((name, "\n".join(lines).encode(), "text/csv"))
    app.run()
    assert not app.exception
    infos = [i.value for i in app.info] + [e.value for e in app.error]  # 12 stocks < 30: error
    assert any(escape_markdown(evil) in i for i in infos)
    assert any(escape_markdown(name) in i for i in infos)
    assert not any("](" in i for i in infos)


def upload(app: AppTest, name: str, text: str) -> None:
    app.radio(key="pf_w_source").set_value("upload").run()
    app.get("file_uploader")[0].set_value((name, text.encode(), "text/csv"))
    app.run()
    assert not app.exception, app.exception


FIVE = "ticker,risk,return\nA,0.2,1\nB,0.3,2\nC,0.15,3\nD,0.5,1\nE,0.4,2\n"


@pytest.mark.parametrize(
    ("limits", "named"),
    [
        ({"pf_w_max_risk": 0.1, "pf_w_min_return": 0.5}, "the least risky stock, C, has risk 0.15"),
        ({"pf_w_max_risk": 0.9, "pf_w_min_return": 5.0}, "the highest return is 3 (C)"),
    ],
)
def test_infeasible_constraints_name_the_stock_that_blocks_them(limits, named):
    app = open_page()
    upload(app, "five.csv", FIVE)
    set_settings(app, {**SMALL, "pf_w_min_stocks": 2, **limits})
    run_ga(app)
    messages = " ".join(error.value for error in app.error)
    assert escape_markdown(named) in messages or named in messages, messages


def test_too_few_stocks_for_the_minimum_is_an_error_and_nothing_runs():
    app = open_page()
    upload(app, "five.csv", FIVE)
    set_settings(app, {**SMALL, "pf_w_min_stocks": 10})
    run_ga(app)
    messages = " ".join(error.value for error in app.error)
    assert escape_markdown("five.csv: only 5 usable stock(s)") in messages
    assert escape_markdown("at least 10") in messages
    # no run on data that cannot meet the minimum: the sample's results stay, labelled
    assert len(app.session_state["pf_result"]["table"]) == 400
    assert [e.label for e in app.expander if "Results of the last run" in e.label] == [
        "Results of the last run, on other data: " + inputs.SOURCES["sample"]
    ]
    assert len(app.error) == 1
    set_settings(app, {"pf_w_min_stocks": 5, "pf_w_max_risk": 0.5, "pf_w_min_return": 1.5})
    run_ga(app)
    assert not app.error and metrics(app)["Feasible"] == "yes"


def test_the_ga_answer_is_shown_beside_the_exact_optimum():
    app = open_page()
    table = load_stock_table(ROOT / "data" / "sample_stocks.csv")
    exact = solve_exact(table, GAConfig())  # the oracle, solved here independently
    tables = [frame.value for frame in app.dataframe if "measure" in frame.value.columns]
    assert len(tables) == 1
    compare = tables[0].set_index("measure")
    assert list(compare.columns) == ["GA", "exact optimum", "must be"]
    assert float(compare.loc["fitness", "exact optimum"]) == pytest.approx(exact.fitness, abs=1e-4)
    assert int(compare.loc["stocks held", "exact optimum"]) == exact.n_stocks
    ga_return = float(compare.loc["return", "GA"])
    assert ga_return == pytest.approx(float(metrics(app)["Return"]), abs=1e-3)
    assert compare.loc["risk", "must be"] == "below 0.6"
    # the coefficients table leads with the GA's and the optimum's coefficients (a 1024 px
    # projector cuts the last columns), aligned per stock with the oracle's weights
    coefficients = [f.value for f in app.dataframe if "exact_coefficient" in f.value.columns]
    assert len(coefficients) == 1
    shown = coefficients[0]
    assert list(shown.columns[:3]) == ["ticker", "coefficient", "exact_coefficient"]
    oracle = dict(zip(table["ticker"], exact.weights, strict=True))
    assert shown["exact_coefficient"].tolist() == pytest.approx(
        [oracle[t] for t in shown["ticker"]]
    )


def test_a_population_too_large_for_the_upload_is_an_error_not_a_traceback():
    n = 8000  # 700 × 8000 weights is over the GA's memory cap
    rows = "\n".join(f"S{i},{(i % 97) / 100:.2f},{i % 7}" for i in range(n))
    app = open_page()
    upload(app, "big.csv", f"ticker,risk,return\n{rows}\n")
    set_settings(app, {"pf_w_min_return": 1.0})
    run_ga(app)  # asserts no exception
    messages = " ".join(error.value for error in app.error)
    assert escape_markdown("700 × 8000") in messages
    assert escape_markdown(f"at most {5_000_000 // n}") in messages
    assert len(app.session_state["pf_result"]["table"]) == 400  # nothing ran on big.csv


def test_a_study_population_too_large_for_the_data_is_refused_before_it_starts():
    n = 2000  # 3000 × 2000 weights is over the cap; 700 × 2000 is not
    rows = "\n".join(f"S{i},{(i % 97) / 100:.2f},{i % 7}" for i in range(n))
    app = open_page()
    upload(app, "mid.csv", f"ticker,risk,return\n{rows}\n")
    app.multiselect(key="pf_w_study_pop").set_value([100, 3000])
    app.button(key="FormSubmitter:pf_w_study_form-Run the study").click().run()
    assert not app.exception, app.exception
    messages = " ".join(error.value for error in app.error)
    assert escape_markdown("3000 × 2000") in messages
    assert not app.get("progress")  # no bar left behind


def test_a_link_keeps_the_date_window_and_the_return_definition():
    app = open_page({"data": "sp500"})
    app.get("date_input")[0].set_value((date(2021, 1, 4), date(2021, 12, 31))).run()
    app.radio(key="pf_w_definition_sp500").set_value("peak").run()
    set_settings(app, SMALL)
    run_ga(app)
    link = dict(app.query_params)
    assert (link["from"], link["to"], link["retdef"]) == ("2021-01-04", "2021-12-31", "peak")
    # a new visitor opening that link sees the same window, definition and table
    shared = open_page({name: str(value) for name, value in link.items()})
    assert shared.get("date_input")[0].value == (date(2021, 1, 4), date(2021, 12, 31))
    assert shared.radio(key="pf_w_definition_sp500").value == "peak"
    expected = load_stock_table(
        SP500, start="2021-01-04", end="2021-12-31", return_definition="peak"
    ).set_index("ticker")
    table = data_table(shared).set_index("ticker")
    assert table.loc["AAPL", "return"] == pytest.approx(expected.loc["AAPL", "return"])
    assert not shared.warning
    # back on summary data the window leaves the link
    app.radio(key="pf_w_source").set_value("sample").run()
    run_ga(app)
    assert "from" not in app.query_params and "retdef" not in app.query_params


def test_link_values_are_named_as_on_every_page_and_numbers_out_of_range_fitted():
    app = open_page({"pop": "99999", "data": "nasdaq", "sel": "best"})
    notes = [warning.value for warning in app.warning]
    assert any("pop=99999 is outside this page's range 20–3000; using 3000" in n for n in notes)
    assert any("data=nasdaq is not one of" in n and "using the default" in n for n in notes)
    assert any("sel=best is not one of" in n for n in notes)
    assert app.slider(key="pf_w_population_size").value == 3000


def test_every_seeded_setting_is_its_widgets_default():
    # the link's settings and a price history's window: what the browser starts each widget
    # at when it first draws it from a later run is its value (tests.pages.widget_defaults)
    link = {
        "data": "sp500",
        "pop": "700",
        "from": "2021-01-04",
        "to": "2022-06-30",
        "retdef": "peak",
    }
    app = open_page(link)
    assert app.slider(key="pf_w_population_size").value == 700
    assert app.date_input[0].value == (date(2021, 1, 4), date(2022, 6, 30))
    assert app.radio(key="pf_w_definition_sp500").value == "peak"
    assert seeded_widget_count(app.sidebar) >= 15
    assert default_mismatches(app.sidebar) == [] and default_mismatches(app.main) == []
    app.run()
    assert default_mismatches(app.sidebar) == [] and default_mismatches(app.main) == []


def test_a_ga_job_that_runs_out_of_memory_says_so_and_keeps_the_page(monkeypatch):
    def out_of_memory(*args, **kwargs):
        raise JobOutOfMemory(600)  # what run_job raises for a job past its worker's cap

    app = open_page()
    before = app.session_state["pf_result"]["result"]  # the first look's run
    monkeypatch.setattr(ui, "run_job", out_of_memory)
    set_settings(app, SMALL)
    run_ga(app)
    assert not app.exception
    assert [e.value for e in app.error] == [escape_markdown(str(JobOutOfMemory(600)))]
    assert app.session_state["pf_result"]["result"] is before  # the last results stay


def test_a_run_without_a_feasible_portfolio_advises_only_settings_that_are_off():
    # a bad link value: the generations are fitted to 1, fitness and repair stay on
    app = open_page({"gens": "-5"})
    assert any("gens=\\-5" in warning.value for warning in app.warning)
    assert metrics(app)["Feasible"] == "no"
    (advice,) = [error.value for error in app.error if "One exists" in error.value]
    assert "constraint-aware" not in advice and "repair" not in advice.lower()
    assert "raise **Max generations** (this run stopped after 1)" in advice
    # with the course's GA as taught, the two switches are advised as well
    set_settings(app, {"pf_w_fitness": "course", "pf_w_repair": False})
    run_ga(app)
    (advice,) = [error.value for error in app.error if "One exists" in error.value]
    assert "constraint-aware" in advice and "Repair" in advice
