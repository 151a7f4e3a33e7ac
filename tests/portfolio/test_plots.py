"""Plot functions return plotly figures with the expected traces."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from lib.portfolio import plots
from lib.portfolio.ga import GAConfig, run_ga

ROOT = Path(__file__).resolve().parents[2]
TABLE = pd.DataFrame(
    {"ticker": list("ABCD"), "risk": [0.1, 0.2, 0.3, 0.9], "return": [1.0, 2.0, 3.0, 20.0]}
)


def test_fitness_chart_has_best_mean_feasible_and_optimum():
    config = GAConfig(
        population_size=30,
        elite_size=3,
        min_stocks=2,
        min_return=5,
        seed=0,
        max_generations=20,
        stop_at_first_feasible=False,
    )
    history = run_ga(TABLE, config).history
    figure = plots.fitness_chart(history, optimum=12.0)
    names = {trace.name for trace in figure.data}
    assert {
        "best of the generation",
        "mean",
        "best feasible so far",
        "feasible individuals",
    } <= names
    best = next(t for t in figure.data if t.name == "best of the generation")
    assert list(best.y) == history["best_fitness"].tolist()
    assert any(shape.y0 == 12.0 for shape in figure.layout.shapes)
    assert len(plots.fitness_chart(history.iloc[:0]).data) == 0


def test_scatter_sizes_held_stocks_by_weight():
    figure = plots.weights_scatter(TABLE, np.array([0.0, 0.2, 0.0, 0.8]))
    held = next(t for t in figure.data if t.name.startswith("held"))
    assert list(held.text) == ["B", "D"]
    assert held.marker.size[1] > held.marker.size[0]
    assert len(plots.weights_scatter(TABLE, None).data) == 1


def test_scatter_title_fits_its_column_on_a_1024_projector():
    # The chart sits in a 3/5 column (about 330 px at 1024 px): a longer title was cut off.
    # The legend entry says how held stocks are sized.
    figure = plots.weights_scatter(TABLE, np.array([0.0, 0.2, 0.0, 0.8]))
    assert len(figure.layout.title.text) <= 30
    assert "size = weight" in next(t.name for t in figure.data if t.name.startswith("held"))


def test_scatter_shows_uploaded_tickers_as_text_not_html():
    table = pd.DataFrame(
        {"ticker": ['<a href="http://x">A</a>', "B&C"], "risk": [0.1, 0.2], "return": [1.0, 2.0]}
    )
    figure = plots.weights_scatter(table, np.array([0.0, 1.0]))
    texts = [t for trace in figure.data for t in trace.text]
    assert texts == ['&lt;a href="http://x"&gt;A&lt;/a&gt;', "B&amp;C"]


def test_frontier_and_study_charts():
    frontier = pd.DataFrame(
        {
            "max_risk": [0.3, 0.6],
            "objective": [1.0, 2.0],
            "risk": [0.3, 0.6],
            "return": [3.0, 4.0],
            "n_stocks": [30, 30],
        }
    )
    figure = plots.frontier_chart(
        frontier, ga_point=(0.5, 1.5), optimum_point=(0.6, 2.0), max_risk=0.6
    )
    assert [t.name for t in figure.data] == [
        "best objective for the risk cap",
        "exact optimum",
        "GA portfolio",
    ]
    study = pd.DataFrame(
        {
            "parameter": ["p_mutation", "p_mutation"],
            "value": [0.1, 0.0],
            "success_rate": [1.0, 0.0],
            "mean_generations": [20.0, np.nan],
        }
    )
    figure = plots.study_chart(study)
    assert list(figure.data[0].x) == ["mut<br>0.1", "mut<br>0"]
    assert list(figure.data[1].y) == [100.0, 0.0]
    assert list(figure.data[0].text) == ["20", "none feasible"]


def _history(n_feasible: list[int], best_feasible: list[float]) -> pd.DataFrame:
    n = len(n_feasible)
    return pd.DataFrame(
        {
            "generation": range(1, n + 1),
            "best_fitness": np.linspace(1, 2, n),
            "mean_fitness": np.linspace(0.5, 1, n),
            "best_feasible_fitness": best_feasible,
            "n_feasible": n_feasible,
        }
    )


def test_feasible_axis_starts_at_zero_with_integer_ticks_when_none_is_feasible():
    figure = plots.fitness_chart(_history([0] * 5, [np.nan] * 5))
    axis = figure.layout.yaxis2
    assert axis.rangemode == "nonnegative" and axis.range[0] == 0 and axis.range[1] >= 1
    assert axis.tickformat == "d" and axis.tick0 == 0
    assert axis.dtick >= 1 and float(axis.dtick).is_integer()
    names = [trace.name for trace in figure.data]
    assert "best feasible so far" not in names  # nothing to draw: no legend entry
    assert "best of the generation" in names and "feasible individuals" in names


def test_feasible_axis_on_a_real_run_covers_the_counts_with_integer_steps():
    history = run_ga(
        pd.read_csv(ROOT / "data" / "sample_stocks.csv"),
        GAConfig(seed=1, max_generations=60, stop_at_first_feasible=False),
    ).history
    top = history["n_feasible"].max()
    assert top > 10  # the default run does have feasible individuals
    axis = plots.fitness_chart(history).layout.yaxis2
    assert axis.range[0] == 0 and axis.range[1] >= top
    assert float(axis.dtick).is_integer() and 2 <= top / axis.dtick <= 8


@pytest.mark.parametrize("top", [0, 1, 3, 7, 19, 124, 559, 994, 5000])
def test_count_dtick_is_a_whole_step_giving_a_few_ticks(top):
    step = plots.count_dtick(top)
    assert isinstance(step, int) and step >= 1
    assert max(top, 1) / step <= 4 or step == 1


def test_every_chart_uses_projector_sized_text():
    history = _history([0, 2, 5], [np.nan, 1.0, 1.5])
    study = pd.DataFrame(
        {
            "parameter": ["p_mutation"],
            "value": [0.1],
            "success_rate": [1.0],
            "mean_generations": [3.0],
        }
    )
    frontier = pd.DataFrame({"max_risk": [0.3, 0.6], "objective": [1.0, 2.0]})
    figures = [
        plots.fitness_chart(history, optimum=2.0),
        plots.weights_scatter(TABLE, np.array([0.0, 0.2, 0.0, 0.8])),
        plots.frontier_chart(frontier, (0.5, 1.5), (0.6, 2.0), 0.6),
        plots.study_chart(study),
    ]
    for figure in figures:
        layout = figure.layout
        assert layout.font.size >= 14 and layout.legend.font.size >= 14
        assert layout.title.font.size >= 14
        axes = [layout[name] for name in layout if name.startswith(("xaxis", "yaxis"))]
        assert axes
        for axis in axes:  # explicit: Streamlit's theme would make the ticks 12 px
            assert axis.tickfont.size >= 14 and axis.title.font.size >= 14
        for annotation in layout.annotations:
            assert annotation.font.size >= 14


def test_study_chart_keeps_labels_clear_of_the_legend_and_percent_ticks_round():
    study = pd.DataFrame(
        {
            "parameter": ["population_size"] * 3 + ["p_crossover"] * 3,
            "value": [700, 300, 3000, 0.6, 0.4, 0.0],
            "success_rate": [1.0, 0.67, 1.0, 1.0, 0.33, 0.0],
            "mean_generations": [12.0, 30.5, 6.0, 12.0, 80.0, np.nan],
        }
    )
    layout = plots.study_chart(study).layout
    assert layout.xaxis.tickangle == 0  # no rotated labels
    assert layout.legend.y >= 1 and layout.legend.yanchor == "bottom"  # legend above the plot
    assert list(layout.yaxis2.tickvals) == [0, 25, 50, 75, 100]
    assert layout.yaxis.range[0] == 0 and layout.yaxis.range[1] >= 80


def test_study_labels_are_short_enough_for_nine_bars_at_1024_px():
    # The default study has nine settings; "population" and "crossover p" ran into
    # each other under ~50 px bars. The axis title spells the short names out.
    study = pd.DataFrame(
        {
            "parameter": ["population_size"] * 3 + ["p_crossover"] * 3 + ["p_mutation"] * 3,
            "value": [700, 300, 3000, 0.6, 0.4, 0.0, 0.1, 0.01, 0.0],
            "success_rate": [1.0] * 9,
            "mean_generations": [20.0] * 9,
        }
    )
    figure = plots.study_chart(study)
    lines = [line for label in figure.data[0].x for line in label.split("<br>")]
    assert max(map(len, lines)) <= 5, lines
    title = figure.layout.xaxis.title.text
    assert all(
        f"{plots.STUDY_NAMES[p]} = " in title or f"{plots.STUDY_NAMES[p]} /" in title
        for p in ("population_size", "p_crossover", "p_mutation")
    )


def test_a_single_feasible_point_is_drawn_as_a_marker():
    figure = plots.fitness_chart(_history([0, 0, 3], [np.nan, np.nan, 1.5]))
    trace = next(t for t in figure.data if t.name == "best feasible so far")
    assert "markers" in trace.mode
    study = pd.DataFrame(
        {
            "parameter": ["p_mutation"],
            "value": [0.0],
            "success_rate": [0.0],
            "mean_generations": [np.nan],
        }
    )
    texts = [a.text for a in plots.study_chart(study).layout.annotations]
    assert "none<br>feasible" in texts


def test_population_chart_animates_every_kept_generation_with_limits_and_optimum():
    config = GAConfig(
        population_size=30,
        elite_size=3,
        min_stocks=2,
        min_return=5,
        seed=0,
        max_generations=25,
        stop_at_first_feasible=False,
    )
    trace = run_ga(TABLE, config).trace.table()
    figure = plots.population_chart(trace, 0.6, 5.0, optimum_point=(0.25, 7.5))
    generations = sorted(trace["generation"].unique())
    assert [frame.name for frame in figure.frames] == [str(g) for g in generations]
    slider = figure.layout.sliders[0]
    assert [list(step.args[0]) for step in slider.steps] == [[str(g)] for g in generations]
    buttons = figure.layout.updatemenus[0].buttons
    assert [b.method for b in buttons] == ["animate", "animate"] and buttons[0].args[0] is None
    # each frame's dots are that generation's points, split by feasibility
    for frame in figure.frames:
        rows = trace[trace["generation"] == int(frame.name)]
        infeasible, feasible = frame.data
        assert len(feasible.x) == int(rows["feasible"].sum())
        assert len(infeasible.x) + len(feasible.x) == len(rows)
        assert sorted(feasible.y) == sorted(rows.loc[rows["feasible"], "return"])
    # the first frame is drawn before play; the axes do not move between frames
    assert list(figure.data[0].x) == list(figure.frames[0].data[0].x)
    assert figure.layout.xaxis.autorange is False and figure.layout.yaxis.autorange is False
    low, high = figure.layout.yaxis.range
    assert low <= trace["return"].min() and high >= max(trace["return"].max(), 7.5)
    # the constraint lines and the optimum
    lines = [s for s in figure.layout.shapes if s.type == "line"]
    assert any(s.x0 == s.x1 == 0.6 for s in lines)
    assert any(s.y0 == s.y1 == 5.0 for s in lines)
    star = next(t for t in figure.data if t.name == "exact optimum")
    assert (star.x[0], star.y[0]) == (0.25, 7.5) and star.marker.symbol == "star"


def test_population_chart_of_one_generation_has_no_player():
    trace = pd.DataFrame(
        {"generation": [1, 1], "risk": [0.2, 0.7], "return": [3.0, 9.0], "feasible": [True, False]}
    )
    figure = plots.population_chart(trace, 0.6, 2.0)
    assert len(figure.frames) == 1 and not figure.layout.sliders
    assert list(figure.data[1].x) == [0.2]  # feasible
    assert not [t for t in figure.data if t.name == "exact optimum"]
