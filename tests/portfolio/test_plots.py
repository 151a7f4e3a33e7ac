"""Plot functions return plotly figures with the expected traces."""

from __future__ import annotations

import numpy as np
import pandas as pd

from lib.portfolio import plots
from lib.portfolio.ga import GAConfig, run_ga

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
    assert {"best", "mean", "best feasible so far", "feasible individuals"} <= names
    best = next(t for t in figure.data if t.name == "best")
    assert list(best.y) == history["best_fitness"].tolist()
    assert any(shape.y0 == 12.0 for shape in figure.layout.shapes)
    assert len(plots.fitness_chart(history.iloc[:0]).data) == 0


def test_scatter_sizes_held_stocks_by_weight():
    figure = plots.weights_scatter(TABLE, np.array([0.0, 0.2, 0.0, 0.8]))
    held = next(t for t in figure.data if t.name.startswith("held"))
    assert list(held.text) == ["B", "D"]
    assert held.marker.size[1] > held.marker.size[0]
    assert len(plots.weights_scatter(TABLE, None).data) == 1


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
    assert list(figure.data[0].x) == ["p_mutation = 0.1", "p_mutation = 0.0"]
    assert list(figure.data[1].y) == [100.0, 0.0]
