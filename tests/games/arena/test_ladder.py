"""The strength ladder: its roster, its round-robin schedule, a small real ladder ranked by
the rating fit, its caps on a shared server, and the command line's --ladder."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from lib.errors import InputError
from lib.games.arena import open_executor, run_tournament
from lib.games.arena.__main__ import main
from lib.games.arena.ladder import (
    LADDER_COLUMNS,
    LadderConfig,
    estimated_seconds,
    game_results,
    ladder_matches,
    ladder_players,
    ladder_table,
    player_labels,
    run_ladder,
)
from lib.games.arena.limits import HOSTED_CAPS, LOCAL_CAPS, check_ladder
from lib.games.arena.rating import fit_ratings
from lib.games.core import available_games, get_game
from lib.games.search import players as players_module
from lib.games.search.players import available_kinds, parse_player_spec

ROOT = Path(__file__).resolve().parents[3]
GAMES = list(available_games())


@pytest.mark.parametrize("game", GAMES)
def test_the_roster_is_the_baselines_and_every_searcher_at_the_same_time(game):
    spec = get_game(game)
    roster = ladder_players(game, 0.3)
    assert roster[:2] == ["random", "greedy"]
    searchers = [parse_player_spec(p) for p in roster[2:]]
    assert [c.heuristic for c in searchers if c.kind == "alphabeta"] == list(spec.heuristics)
    assert all(c.time_limit == 0.3 for c in searchers)
    # MCTS exactly when the game offers the kind
    assert ("mcts" in [c.kind for c in searchers]) == ("mcts" in available_kinds(spec))
    for player in roster:  # every player is one the game can make
        players_module.make_player(parse_player_spec(player), spec)


def test_mcts_joins_the_roster_when_the_kind_exists(monkeypatch):
    real = players_module.available_kinds
    monkeypatch.setattr(
        players_module, "available_kinds", lambda spec: {**real(spec), "mcts": "MCTS"}
    )
    assert ladder_players("tictactoe", 0.2)[-1] == "mcts:time=0.2"


@pytest.mark.parametrize("n_players,per_pair", [(2, 1), (4, 2), (5, 3)])
def test_the_schedule_is_a_round_robin_with_every_pair_once(n_players, per_pair):
    roster = ["random", "greedy", "alphabeta:depth=1", "alphabeta:depth=2", "minimax:depth=1"]
    roster = roster[:n_players]
    matches = ladder_matches("tictactoe", roster, games_per_pair=per_pair, seed=7)
    pairs = [frozenset(m.players) for m in matches]
    assert len(pairs) == n_players * (n_players - 1) // 2 == len(set(pairs))
    assert set(pairs) == {frozenset((a, b)) for a in roster for b in roster if a != b}
    assert all(m.games == per_pair and m.seed == 7 for m in matches)
    games = Counter(p for m in matches for p in m.players)
    assert set(games.values()) == {n_players - 1}


def test_colours_alternate_and_every_player_plays_its_share():
    config = LadderConfig(
        "tictactoe", players=("random", "greedy", "alphabeta:depth=2"), games_per_pair=4
    )
    result = run_ladder(config)
    assert len(result.records) == 3 * 4
    for index in range(len(result.matches)):
        firsts = [r.a_first for r in result.records if r.match == index]
        assert firsts == [True, False, True, False]
    table = ladder_table(result.records, result.matches)
    assert list(table["games"]) == [8, 8, 8]
    assert (table["wins"] + table["draws"] + table["losses"] == table["games"]).all()
    assert table["wins"].sum() == table["losses"].sum()


def test_a_small_real_ladder_is_ranked_by_the_rating_fit():
    config = LadderConfig("tictactoe", time_per_move=0.02, games_per_pair=2, seed=3)
    result = run_ladder(config)
    roster = config.roster()
    assert len(result.records) == len(roster) * (len(roster) - 1)
    table = ladder_table(result.records, result.matches, anchor="random")
    assert list(table.columns) == LADDER_COLUMNS
    assert list(table["rank"]) == list(range(1, len(roster) + 1))
    assert sorted(table["spec"]) == sorted(roster)
    assert list(table["rating"]) == sorted(table["rating"], reverse=True)
    # the oracle: the rating fit of the games' results
    fitted = fit_ratings(roster, game_results(result.records, result.matches), anchor="random")
    for row in table.itertuples():
        assert row.rating == pytest.approx(fitted.rating(row.spec))
        assert row.ci_low <= row.rating <= row.ci_high
    assert table.loc[table["spec"] == "random", "rating"].item() == 0
    assert (table["games"] == 2 * (len(roster) - 1)).all()


def test_a_perfect_player_tops_the_ladder_and_never_loses():
    # searched to the end, alpha-beta plays tic-tac-toe perfectly: no clock, no luck
    config = LadderConfig(
        "tictactoe", players=("random", "greedy", "alphabeta:depth=9"), games_per_pair=6
    )
    result = run_ladder(config)
    table = ladder_table(result.records, result.matches)
    top = table.iloc[0]
    assert top["spec"] == "alphabeta:depth=9" and top["losses"] == 0
    assert top["rating"] > max(table["rating"].iloc[1:])


def test_the_ladder_plays_the_same_games_in_a_process_pool():
    # players without a clock: their games are a function of the seed
    config = LadderConfig(
        "tictactoe", players=("random", "greedy", "alphabeta:depth=2"), games_per_pair=2, seed=5
    )
    inline = run_ladder(config)
    with open_executor("process", workers=2) as pool:
        pooled = run_ladder(config, pool)
    assert [r.reproducible() for r in pooled.records] == [r.reproducible() for r in inline.records]
    assert run_tournament(config.matches()).records[0].reproducible() == (
        inline.records[0].reproducible()
    )


def test_the_ladder_plays_the_same_games_on_a_dask_local_cluster():
    distributed = pytest.importorskip("dask.distributed")
    config = LadderConfig(
        "tictactoe", players=("random", "greedy", "alphabeta:depth=2"), games_per_pair=2, seed=5
    )
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=40,
        ) as cluster,
        open_executor("dask", scheduler=cluster.scheduler_address) as executor,
    ):
        on_dask = run_ladder(config, executor)
    assert [r.reproducible() for r in on_dask.records] == [
        r.reproducible() for r in run_ladder(config).records
    ]
    table = ladder_table(on_dask.records, on_dask.matches)
    assert table["games"].tolist() == [4, 4, 4]


def test_a_cancelled_ladder_is_rated_on_its_finished_games():
    config = LadderConfig("tictactoe", players=("random", "greedy", "alphabeta:depth=1"))
    result = run_ladder(config, should_stop=lambda: True)
    assert result.cancelled and len(result.records) == 1
    table = ladder_table(result.records, result.matches)
    assert table["games"].sum() == 2  # one game, two players
    with pytest.raises(InputError, match="no finished game"):
        ladder_table([], result.matches)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"players": ("random",)}, "at least two"),
        ({"players": ("random", "random ")}, "once"),
        ({"games_per_pair": 0}, "Games per pair"),
        ({"time_per_move": 0}, "Time per move"),
    ],
)
def test_bad_ladders_are_refused_plainly(kwargs, message):
    with pytest.raises(InputError, match=message):
        LadderConfig("tictactoe", **kwargs).matches()


def test_caps_refuse_long_budgets_and_long_ladders_on_a_shared_server():
    small = LadderConfig("tictactoe", depth=HOSTED_CAPS.max_depth)
    assert len(check_ladder(small, HOSTED_CAPS)) == len(small.matches())
    slow = dataclasses.replace(small, time_per_move=HOSTED_CAPS.max_move_seconds * 2)
    with pytest.raises(InputError, match="per move is above"):
        check_ladder(slow, HOSTED_CAPS)
    check_ladder(slow, LOCAL_CAPS)
    # many games at the full budget: over the hosted thinking time, fine locally
    pairs = len(small.matches())
    long = dataclasses.replace(
        small,
        games_per_pair=min(HOSTED_CAPS.max_games_per_match, HOSTED_CAPS.max_total_games // pairs),
        time_per_move=HOSTED_CAPS.max_move_seconds,
    )
    assert estimated_seconds(long) > HOSTED_CAPS.max_ladder_seconds
    with pytest.raises(InputError, match="minutes"):
        check_ladder(long, HOSTED_CAPS)
    deep = LadderConfig("tictactoe", depth=HOSTED_CAPS.max_depth + 1)
    with pytest.raises(InputError, match="depth"):
        check_ladder(deep, HOSTED_CAPS)


def test_the_estimate_counts_games_plies_and_budget():
    config = LadderConfig("tictactoe", players=("random", "greedy"), games_per_pair=4)
    # tic-tac-toe games last 5 to 9 plies
    assert 4 * 5 * 0.2 <= estimated_seconds(config) <= 4 * 9 * 0.2
    double = dataclasses.replace(config, time_per_move=0.4)
    assert estimated_seconds(double) == pytest.approx(2 * estimated_seconds(config))


def test_the_command_line_prints_the_ranked_ladder(tmp_path):
    out = tmp_path / "ladder.csv"
    command = [sys.executable, "-m", "lib.games.arena", "--ladder", "--game", "tictactoe"]
    command += ["--time", "0.02", "--games", "2", "--quiet", "--summary-csv", str(out)]
    command += ["--anchor", "random"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Strength ladder: tictactoe" in done.stdout and "random = 0" in done.stdout
    table = pd.read_csv(out, encoding="utf-8-sig")
    roster = ladder_players("tictactoe", 0.02)
    assert sorted(table["spec"]) == sorted(roster)
    assert list(table["rank"]) == list(range(1, len(roster) + 1))
    lines = done.stdout.splitlines()
    assert lines[1].split()[:3] == ["rank", "player", "rating"]
    # printed in rank order
    for rank, line in enumerate(lines[2:], start=1):
        assert line.split()[0] == str(rank)


def test_the_command_line_ladder_takes_players_and_options(capsys):
    argv = ["--ladder", "--game", "othello", "--size", "6", "--players", "random", "greedy"]
    status = main([*argv, "--games", "2", "--quiet"])
    assert status == 0
    out = capsys.readouterr().out
    assert "othello (size 6), 2 players, 2 games per pair" in out


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--ladder", "--preset", "othello_depth3"], "either --ladder or --preset"),
        (["--ladder", "--game", "tictactoe", "--anchor", "nobody"], "not on the ladder"),
        (["--ladder", "--game", "tictactoe", "--games", "0"], "Games per pair"),
        (["--ladder", "--game", "tictactoe", "--players", "random"], "at least two"),
    ],
)
def test_the_command_line_refuses_bad_ladders_plainly(argv, message, capsys):
    assert main([*argv, "--quiet"]) == 2
    assert message in capsys.readouterr().err


def test_the_ladder_chart_ranks_top_down_with_asymmetric_intervals():
    from lib.games.arena.plots import ladder_figure

    config = LadderConfig(
        "tictactoe", players=("random", "greedy", "alphabeta:depth=2"), games_per_pair=4
    )
    result = run_ladder(config)
    table = ladder_table(result.records, result.matches)
    figure = ladder_figure(table)
    (trace,) = figure.data
    assert list(trace.y) == list(table["player"])
    assert list(trace.x) == list(table["rating"])
    # best on top: a category axis drawn bottom-up lists the ranking reversed
    assert list(figure.layout.yaxis.categoryarray) == list(table["player"])[::-1]
    assert list(trace.error_x.array) == pytest.approx(list(table["ci_high"] - table["rating"]))
    assert list(trace.error_x.arrayminus) == pytest.approx(list(table["rating"] - table["ci_low"]))


def test_agents_on_the_ladder_are_named_by_their_files(monkeypatch):
    monkeypatch.setenv("AI_SEARCH_LAB_LOCAL", "1")
    specs = ["greedy", "agent:path=examples/greedy_agent.py", "agent:path=/x/mine.py,time=0.2"]
    assert player_labels("tictactoe", specs) == [
        "Greedy (one ply)",
        "Agent greedy_agent.py",
        "Agent mine.py",
    ]
