"""The Arena page's Strength ladder tab under AppTest: a small ladder run to its ranked table,
chart and downloads; refused ladders; an interrupted ladder resumed."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from lib.games.arena import limits as arena_limits
from lib.games.arena.ladder import (
    LadderConfig,
    ladder_players,
    ladder_table,
    player_labels,
    run_ladder,
)
from lib.games.core import available_games
from lib.ui import arena_ladder
from lib.ui.arena_ladder import LADDER_KEY, LadderRun

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "arena.py")
FIRST_GAME = next(iter(available_games()))


def _app(**state) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=180)
    for key, value in state.items():
        app.session_state[key] = value
    app.run()
    assert not app.exception, app.exception
    return app


def _run_ladder(app: AppTest) -> None:
    next(b for b in app.button if b.label == "Run ladder").click()
    app.run()
    assert not app.exception, app.exception


def _ladder_frame(app: AppTest):
    frames = [f.value for f in app.dataframe if "rating" in f.value.columns]
    assert len(frames) == 1
    return frames[0]


def test_the_form_offers_the_games_roster_at_the_default_time():
    app = _app()
    assert app.selectbox(key="arena_w_ladder_game").value == FIRST_GAME
    roster = ladder_players(FIRST_GAME, 0.2, arena_limits.HOSTED_CAPS.max_depth)
    players = app.multiselect(key=f"arena_w_ladder_players_{FIRST_GAME}")
    assert players.options == players.value == player_labels(FIRST_GAME, roster)
    assert app.number_input(key="arena_w_ladder_time").value == 0.2
    assert app.number_input(key="arena_w_ladder_time").max == (
        arena_limits.HOSTED_CAPS.max_move_seconds
    )
    assert LADDER_KEY not in app.session_state  # nothing runs before the click
    assert all(c.key != "arena_chart_ladder" for c in app.get("plotly_chart"))


def test_a_small_ladder_runs_to_a_ranked_table_chart_and_downloads():
    app = _app()
    app.selectbox(key="arena_w_ladder_game").set_value("tictactoe")
    app.run()
    app.number_input(key="arena_w_ladder_time").set_value(0.05)
    app.number_input(key="arena_w_ladder_games").set_value(2)
    _run_ladder(app)
    run = app.session_state[LADDER_KEY]
    n = len(run.config.roster())
    assert run.status == "done" and len(run.records) == n * (n - 1)
    assert all(p.endswith("time=0.05") for p in run.config.roster()[2:])
    shown = _ladder_frame(app)
    expected = ladder_table(run.records, run.matches)  # the oracle: the library's table
    assert list(shown["rank"]) == list(range(1, n + 1))
    assert list(shown["player"]) == list(expected["player"])
    assert list(shown["rating"]) == list(expected["rating"].round(0))
    assert list(shown["wins"]) == list(expected["wins"])
    assert any(s.value.startswith(f"Played {n * (n - 1)} games of") for s in app.success)
    assert {c.key for c in app.get("plotly_chart")} >= {"arena_chart_ladder"}
    assert {b.key for b in app.get("download_button")} >= {
        "arena_dl_ladder",
        "arena_dl_ladder_games",
    }


def test_fewer_than_two_players_and_too_long_ladders_are_refused():
    app = _app()
    app.selectbox(key="arena_w_ladder_game").set_value("othello")
    app.run()
    players = app.multiselect(key="arena_w_ladder_players_othello")
    players.set_value(players.options[:1])
    _run_ladder(app)
    assert any("at least two players" in e.value for e in app.error)
    assert LADDER_KEY not in app.session_state
    players = app.multiselect(key="arena_w_ladder_players_othello")
    players.set_value(players.options)
    # every pair as many games as the hosted 400 games allow: not within its thinking time
    pairs = len(players.options) * (len(players.options) - 1) // 2
    app.number_input(key="arena_w_ladder_games").set_value(400 // pairs)
    _run_ladder(app)
    assert any("minutes" in e.value and "limit here" in e.value for e in app.error)
    assert LADDER_KEY not in app.session_state


@pytest.mark.parametrize("resume", [False, True])
def test_an_interrupted_ladder_is_cancelled_and_can_be_resumed(resume):
    config = LadderConfig("tictactoe", players=("random", "greedy", "alphabeta:depth=2"))
    partial = run_ladder(config, should_stop=lambda: True).records
    run = LadderRun(config, tuple(config.matches()), list(partial))  # left "running"
    app = _app(**{LADDER_KEY: run})
    assert run.status == "cancelled"
    assert any(w.value.startswith(f"Stopped after {len(partial)} of 6 games") for w in app.warning)
    assert list(_ladder_frame(app)["games"].sort_values()) == [0, 1, 1]
    if resume:
        app.button(key="arena_w_ladder_resume").click()
        app.run()
        assert not app.exception, app.exception
        assert run.status == "done" and len(run.records) == 6
        assert run.records[0] == partial[0]  # the finished game was kept, not replayed
        assert list(_ladder_frame(app)["games"]) == [4, 4, 4]


def test_the_ladder_view_puts_the_interval_in_one_column():
    config = LadderConfig("tictactoe", players=("random", "greedy"), games_per_pair=2)
    result = run_ladder(config)
    table = ladder_table(result.records, result.matches)
    view = arena_ladder.ladder_view(table)
    assert list(view.columns) == list(arena_ladder.LADDER_VIEW_COLUMNS.values())
    for row, shown in zip(table.itertuples(), view.itertuples(), strict=True):
        assert shown[4] == f"{row.ci_low:.0f} to {row.ci_high:.0f}"
