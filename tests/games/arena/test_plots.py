"""Arena figures: error bars from the Wilson interval, log axes, fitness lines."""

from __future__ import annotations

import numpy as np
import pandas as pd

from lib.games.arena import MatchConfig, run_tournament
from lib.games.arena import plots as arena_plots
from lib.games.arena.evolve import EvolutionConfig, evolve
from lib.games.drawing.figures import MIN_FONT, TITLE_FONT
from tests.games.drawing.test_figures import text_sizes


def _summary() -> pd.DataFrame:
    matches = [
        MatchConfig("othello", ("alphabeta:depth=2", "random"), games=3, options={"size": 6}),
        MatchConfig("othello", ("random", "greedy"), games=3, options={"size": 6}),
    ]
    return run_tournament(matches).summary()


def test_win_rate_error_bars_span_the_confidence_interval():
    summary = _summary()
    bar = arena_plots.win_rate_figure(summary).data[0]
    assert list(bar.x) == list(summary["label"])
    top = np.asarray(bar.y) + np.asarray(bar.error_y.array)
    bottom = np.asarray(bar.y) - np.asarray(bar.error_y.arrayminus)
    assert np.allclose(top, summary["win_ci_high"]) and np.allclose(bottom, summary["win_ci_low"])


def test_cost_figures_use_log_axes_and_show_b_when_it_searches():
    summary = _summary()
    nodes = arena_plots.nodes_figure(summary)
    assert nodes.layout.yaxis.type == "log"
    assert arena_plots.time_figure(summary).layout.yaxis.type == "log"
    # B of the second match (greedy) searches, so B gets its own bars
    assert [trace.name for trace in nodes.data] == ["player A", "player B"]
    assert list(nodes.data[0].y) == list(summary["nodes_per_game"])
    assert list(nodes.data[1].y) == list(summary["b_nodes_per_game"])
    only_a = arena_plots.nodes_figure(summary.iloc[:1])
    assert len(only_a.data) == 1  # alpha-beta vs random: B never searches
    ebf = arena_plots.ebf_figure(summary)
    assert ebf.layout.yaxis.type != "log"


def test_fitness_and_weights_figures():
    config = EvolutionConfig(
        game="othello", population=4, leagues=1, generations=2, elite=1, worst=1
    )
    history = evolve(config).history()
    fitness = arena_plots.fitness_figure(history)
    names = {trace.name for trace in fitness.data}
    assert {"best (league score share)", "mean", "worst", "best vs benchmark"} == names
    weights = arena_plots.weights_figure(history, config.weight_names())
    assert np.asarray(weights.data[0].z).shape == (9, 2)
    assert weights.layout.xaxis.dtick == 1  # whole generations, not 0.5, 1, 1.5
    assert fitness.layout.xaxis.dtick == 1
    assert fitness.layout.legend.y < 0  # under the plot, clear of the title


def test_generation_ticks_stay_whole_and_about_ten():
    history = pd.DataFrame({"generation": range(1, 31), "best_fitness": np.linspace(0, 1, 30)})
    assert arena_plots.fitness_figure(history).layout.xaxis.dtick == 3


def test_log_axes_label_several_powers_of_ten_even_for_close_values():
    # nodes per game all within one decade: the axis still labels 3 powers of ten
    summary = pd.DataFrame(
        {
            "label": ["a", "b"],
            "nodes_per_game": [3000.0, 9000.0],
            "b_nodes_per_game": [0.0, 0.0],
            "seconds_per_game": [0.004, 0.02],
        }
    )
    for figure in (arena_plots.nodes_figure(summary), arena_plots.time_figure(summary)):
        axis = figure.layout.yaxis
        assert axis.type == "log" and len(axis.ticktext) >= 3
        assert all(np.isclose(np.log10(v), round(np.log10(v))) for v in axis.tickvals)
        assert (
            10 ** axis.range[0]
            <= min(figure.data[0].y)
            < max(figure.data[0].y)
            < 10 ** axis.range[1]
        )
    assert list(arena_plots.time_figure(summary).layout.yaxis.ticktext) == [
        "0.0001",
        "0.001",
        "0.01",
    ]


def test_every_arena_chart_uses_the_apps_font_sizes():
    summary = _summary()
    config = EvolutionConfig(
        game="othello", population=4, leagues=1, generations=2, elite=1, worst=1
    )
    history = evolve(config).history()
    figures = {
        "win": arena_plots.win_rate_figure(summary),
        "nodes": arena_plots.nodes_figure(summary),
        "time": arena_plots.time_figure(summary),
        "ebf": arena_plots.ebf_figure(summary),
        "fitness": arena_plots.fitness_figure(history),
        "weights": arena_plots.weights_figure(history, config.weight_names()),
    }
    for name, figure in figures.items():
        sizes = text_sizes(figure)
        assert sizes.pop("title") == TITLE_FONT, name
        small = {where: size for where, size in sizes.items() if (size or 0) < MIN_FONT}
        assert not small, (name, small)


def test_match_ticks_name_a_common_opponent_once_and_show_labels_as_typed():
    ticks, title = arena_plots.match_ticks(["minimax d1 vs random", "alpha-beta d1 vs random"])
    assert ticks == ["minimax d1", "alpha-beta d1"] and title == "player A (each against random)"
    ticks, title = arena_plots.match_ticks(["a vs b", "<b>x</b> vs c", "solo"])
    assert ticks == ["a vs b", "&lt;b&gt;x&lt;/b&gt; vs c", "solo"] and title is None
    summary = _summary()  # two matches against different players: whole labels
    figure = arena_plots.nodes_figure(summary)
    assert list(figure.layout.xaxis.tickvals) == list(summary["label"])
    assert list(figure.layout.xaxis.ticktext) == list(summary["label"])
    one = arena_plots.win_rate_figure(summary.iloc[:1])
    assert list(one.layout.xaxis.ticktext) == ["alphabeta:depth=2"]
    assert one.layout.xaxis.title.text == "player A (each against random)"
    assert one.layout.xaxis.title.font.size == MIN_FONT
