"""The Arena's command line names no game: games, option flags and presets come from the specs."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from lib.errors import InputError
from lib.games.arena import MatchConfig, presets
from lib.games.arena.__main__ import (
    build_parser,
    cli_ladder,
    cli_matches,
    game_options,
    main,
    option_flag,
    parse_args,
)
from lib.games.arena.ladder import ladder_players
from lib.games.core import available_games, get_game
from lib.settings import LOCAL

ROOT = Path(__file__).resolve().parents[3]
GAMES = list(available_games())


@pytest.mark.parametrize("game", GAMES)
def test_the_command_line_plays_a_tiny_match_of_every_game(game, tmp_path):
    out = tmp_path / "games.csv"
    command = [sys.executable, "-m", "lib.games.arena", "--game", game]
    command += ["--players", "random", "random", "--games", "2", "--csv", str(out)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "random vs random" in done.stdout and "win_pct" in done.stdout
    assert "2/2 games" in done.stderr  # the progress line
    table = pd.read_csv(out)
    assert list(table["game"]) == [0, 1] and list(table["a_first"]) == [True, False]
    # the same games as the library plays (no timings in the CSV)
    match = MatchConfig(game, ("random", "random"), games=2)
    from lib.games.arena import run_tournament

    assert list(table["moves"].fillna("")) == [r.moves for r in run_tournament([match]).records]


def test_the_command_line_runs_a_preset_in_worker_processes(tmp_path):
    # tasks pickle as lib.games.arena.match.play_task although the CLI runs as __main__
    # a preset with a study of depth-1 players (quick)
    key, study = next((k, p) for k, p in presets().items() if p.matches(2, 0, max_depth=1))
    command = [sys.executable, "-m", "lib.games.arena", "--preset", key, "--games", "2"]
    command += ["--max-depth", "1", "--workers", "2", "--quiet", "--csv", str(tmp_path / "p.csv")]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    table = pd.read_csv(tmp_path / "p.csv")
    assert set(table["label"]) == {m.label for m in study.matches(2, 0, max_depth=1)}


@pytest.mark.parametrize("game", GAMES)
def test_every_option_of_every_game_is_a_flag_with_values_of_their_own_type(game):
    spec = get_game(game)
    for name, allowed in spec.options.items():
        for value in allowed:
            args = parse_args(
                ["--game", game, option_flag(name), str(value), "--players", "random", "greedy"]
            )
            (match,) = cli_matches(args)
            assert match.option_dict == {name: value}  # 6, not "6"
            assert type(match.option_dict[name]) is type(value)
            match.validate()
        with pytest.raises(InputError, match=option_flag(name)):
            game_options(parse_args(["--game", game, option_flag(name), "nonsense"]), spec)
    # no option given: the game's own defaults
    (match,) = cli_matches(parse_args(["--game", game, "--players", "random", "greedy"]))
    assert match.options == ()


def test_the_help_lists_every_game_and_its_options(capsys):
    with pytest.raises(SystemExit) as stop:
        parse_args(["--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    for name, spec in available_games().items():
        assert f"  {name}: " in text
        for option, allowed in spec.options.items():
            assert f"{option_flag(option)} {{{','.join(map(str, allowed))}}}" in text
    for key in presets():
        assert key in text


@pytest.mark.parametrize("name", list(available_games()))
def test_a_game_s_own_flags_carry_its_option_titles_and_value_names(name, capsys):
    spec = available_games()[name]
    with pytest.raises(SystemExit):
        parse_args(["--game", name, "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    for option in spec.options:
        assert spec.option_labels.get(option, option.replace("_", " ").capitalize()) in shown
        for value, label in spec.option_formats.get(option, {}).items():
            assert f"{value} ({label})" in shown


def test_unknown_games_presets_and_option_flags_are_refused(capsys):
    for argv in (["--game", "chess"], ["--preset", "nonsense"]):
        with pytest.raises(SystemExit) as stop:
            parse_args(argv)
        assert stop.value.code == 2
        assert "invalid choice" in capsys.readouterr().err
    # an option flag of no game at all
    with pytest.raises(SystemExit):
        parse_args(["--game", GAMES[0], "--no-such-option", "1"])
    assert "unrecognized arguments" in capsys.readouterr().err


def test_option_flags_are_generated_from_a_spec_and_avoid_the_cli_s_own_flags():
    base = get_game(GAMES[0])
    made_up = dataclasses.replace(
        base,
        name="made_up",
        options={"board_size": (4, 6), "seed": ("a", "b")},
        option_labels={"board_size": "Board width"},
    )
    games = {"made_up": made_up}
    parser = build_parser(games, made_up, {})
    args = parser.parse_args(["--board-size", "4", "--option-seed", "b", "--seed", "3"])
    assert (args.option_board_size, args.option_seed, args.seed) == ("4", "b", 3)
    assert game_options(args, made_up) == {"board_size": 4, "seed": "b"}
    assert "Board width: one of 4, 6" in " ".join(parser.format_help().split())
    assert option_flag("seed") == "--option-seed" and option_flag("max_size") == "--max-size"


def test_the_cli_reports_bad_input_with_exit_status_2(capsys):
    # (same CSV for any worker count: tests/games/arena/test_tournament.py)
    game = GAMES[0]
    assert main(["--game", game, "--players", "random", "--quiet"]) == 2
    assert "at least two --players" in capsys.readouterr().err
    assert main(["--game", game, "--players", "random", "random", "--workers", "0"]) == 2
    assert "--workers must be at least 1" in capsys.readouterr().err


def test_agent_files_play_from_the_command_line_on_a_local_install(tmp_path):
    crash = tmp_path / "crash.py"
    crash.write_text("def choose_move(state, seconds_left):\n    raise KeyError('oops')\n")
    command = [sys.executable, "-m", "lib.games.arena", "--game", "tictactoe", "--quiet"]
    command += ["--agent", "examples/greedy_agent.py", str(crash), "--players", "random"]
    command += ["--games", "2", "--workers", "2", "--csv", str(tmp_path / "a.csv")]
    env = {**os.environ, LOCAL: "1"}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    table = pd.read_csv(tmp_path / "a.csv", keep_default_na=False)
    crashed = table[table["label"].str.contains("crash.py")]
    assert len(table) == 6 and len(crashed) == 4  # a round robin of three: 3 matches of 2
    for _, row in crashed.iterrows():  # the crashing agent loses each of its games, named
        side = "B" if row["label"].endswith("crash.py") else "A"
        assert row["forfeit"] == f"{side}: crash: KeyError: 'oops' (line 2)"
        assert row["winner"] == ("A" if side == "B" else "B")
    greedy = table[~table["label"].str.contains("crash.py")]
    assert list(greedy["forfeit"]) == ["", ""] and set(greedy["winner"]) <= {"B", "draw"}


def test_agent_files_are_refused_off_a_local_install_and_on_dask(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)  # the example's path is relative
    monkeypatch.delenv(LOCAL, raising=False)
    agent = ["--game", "tictactoe", "--agent", "examples/greedy_agent.py", "--players", "random"]
    assert main([*agent, "--quiet"]) == 2
    assert f"start the app or the command line with {LOCAL}=1" in capsys.readouterr().err
    assert main(["--game", "tictactoe", "--players", "agent:path=x.py", "random"]) == 2
    assert f"{LOCAL}=1" in capsys.readouterr().err
    monkeypatch.setenv(LOCAL, "1")
    assert main([*agent, "--scheduler", "tcp://127.0.0.1:1", "--quiet"]) == 2
    assert "not on a Dask cluster" in capsys.readouterr().err
    assert main(["--game", "tictactoe", "--agent", "missing.py", "--players", "random"]) == 2
    assert "'missing.py': there is no such file" in capsys.readouterr().err


def test_a_ladder_s_agent_joins_the_roster_at_the_ladder_s_time(monkeypatch):
    monkeypatch.chdir(ROOT)  # the example's path is relative
    monkeypatch.setenv(LOCAL, "1")
    args = parse_args(["--ladder", "--game", "tictactoe", "--time", "0.3"])
    args.agent = ["examples/greedy_agent.py"]
    ladder = cli_ladder(args)
    assert ladder.roster()[:-1] == tuple(ladder_players("tictactoe", 0.3))
    assert ladder.roster()[-1] == "agent:path=examples/greedy_agent.py,time=0.3"


def interrupted_run(tmp_path, workers: int, interrupts: int) -> tuple:
    """A long study on the command line, sent ``interrupts`` Ctrl-Cs (SIGINT to its whole
    process group, as a terminal sends it) once a few games are done: tic-tac-toe's quick
    games, or for two Ctrl-Cs Othello's slower ones (the second lands inside a game)."""
    out = tmp_path / "games.csv"
    command = [sys.executable, "-m", "lib.games.arena"]
    if interrupts == 1:
        command += ["--game", "tictactoe", "--players", "alphabeta:depth=9", "random"]
    else:
        command += ["--game", "othello", "--size", "8", "--players", "alphabeta:depth=5", "random"]
    command += ["--games", "5000"]
    command += ["--workers", str(workers), "--csv", str(out)]
    run = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    seen = ""
    while "2/5000 games" not in seen and run.poll() is None:  # the progress line
        seen += run.stderr.read(1)
    os.killpg(run.pid, signal.SIGINT)
    if interrupts == 2:  # the second while a game of seconds is being played
        while "again to stop now" not in seen and run.poll() is None:
            seen += run.stderr.read(1)
        os.killpg(run.pid, signal.SIGINT)
    stdout, stderr = run.communicate(timeout=120)
    return run, seen + stderr, stdout, out


@pytest.mark.parametrize(("workers", "interrupts"), [(1, 1), (1, 2), (2, 1)])
def test_ctrl_c_keeps_the_games_finished_and_says_so_in_one_line(tmp_path, workers, interrupts):
    run, stderr, stdout, out = interrupted_run(tmp_path, workers, interrupts)
    assert run.returncode == 0, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr
    (stopped,) = [line for line in stderr.splitlines() if line.startswith("Stopped:")]
    finished = int(stopped.split()[1])
    assert 2 <= finished < 5000 and stopped.endswith("the tables below hold them.")
    table = pd.read_csv(out)  # the finished games, written as a whole run's would be
    assert len(table) == finished and table["game"].is_unique
    assert "win_pct" in stdout
