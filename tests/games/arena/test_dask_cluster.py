"""The Arena on a real Dask cluster: ``dask scheduler`` and two ``dask worker`` programs on
127.0.0.1, driven by the command line and the page, and a worker killed mid-study.

Each cluster is separate processes started here (free ports, their own process groups,
killed afterwards), as a user starts them on several machines. Results must equal an
in-process run of the same seeds, game for game.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from lib.games.arena import MatchConfig, open_executor, run_tournament
from lib.games.arena.__main__ import main
from lib.games.arena.ladder import run_ladder
from lib.games.arena.limits import LOCAL_ENV

distributed = pytest.importorskip("dask.distributed")

ROOT = Path(__file__).resolve().parents[3]
PAGE = str(ROOT / "pages" / "arena.py")

pytestmark = pytest.mark.slow


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stop(process: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    """Stop ``process`` and everything it started (its process group)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@contextlib.contextmanager
def dask_cluster(
    directory: Path, workers: int = 2
) -> Iterator[tuple[str, dict[str, subprocess.Popen]]]:
    """Start ``dask scheduler`` and ``workers`` ``dask worker`` programs on 127.0.0.1.

    Yields the scheduler's address and each worker program by its name (``w0``, ``w1``
    ...). The programs run with this repository on ``PYTHONPATH`` (the workers unpickle
    tasks that name ``lib.games``), one thread each, in their own process groups; all
    are killed on exit. A scheduler left behind stops itself after 5 idle minutes.
    """
    address = f"tcp://127.0.0.1:{free_port()}"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    dask = [sys.executable, "-m", "dask"]
    log = (directory / "cluster.log").open("wb")
    started = {"cwd": directory, "env": env, "stdout": log, "stderr": subprocess.STDOUT}
    port = address.rsplit(":", 1)[1]
    options = f"--host 127.0.0.1 --port {port} --no-dashboard --idle-timeout 300s"
    scheduler = subprocess.Popen(
        [*dask, "scheduler", *options.split()],
        start_new_session=True,
        **started,
    )
    programs: dict[str, subprocess.Popen] = {}
    try:
        for i in range(workers):
            options = f"--name w{i} --nworkers 1 --nthreads 1 --host 127.0.0.1 --no-dashboard"
            options += " --death-timeout 60s --local-directory"
            programs[f"w{i}"] = subprocess.Popen(
                [*dask, "worker", address, *options.split(), str(directory)],
                start_new_session=True,
                **started,
            )
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(workers, timeout=120)
        yield address, programs
    finally:
        for program in [*programs.values(), scheduler]:
            stop(program)
        log.close()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A scheduler and two workers shared by the tests that leave them running."""
    with dask_cluster(tmp_path_factory.mktemp("dask")) as (address, _):
        yield address


def run_cli(capsys: pytest.CaptureFixture[str], args: list[str], csv: Path) -> tuple[str, bytes]:
    """Run the Arena's command line; return what it printed and the games CSV it wrote."""
    assert main([*args, "--quiet", "--csv", str(csv)]) == 0
    return capsys.readouterr().out, csv.read_bytes()


def test_the_command_line_plays_a_study_and_a_ladder_on_the_cluster_as_in_process(
    cluster: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    study = ["--preset", "othello_pruning", "--max-depth", "3", "--games", "4", "--seed", "1"]
    on_cluster = run_cli(capsys, [*study, "--scheduler", cluster], tmp_path / "dask.csv")
    in_process = run_cli(capsys, study, tmp_path / "inline.csv")
    assert on_cluster[1] == in_process[1]  # the games, byte for byte (no wall-clock columns)
    assert on_cluster[1].count(b"\n") == 1 + 4 * 4  # header and 4 games of 4 matches

    ladder = ["--ladder", "--game", "tictactoe", "--players", "random", "greedy"]
    ladder += ["alphabeta:depth=2", "--games", "2", "--seed", "5"]
    on_cluster = run_cli(capsys, [*ladder, "--scheduler", cluster], tmp_path / "ladder-dask.csv")
    in_process = run_cli(capsys, ladder, tmp_path / "ladder-inline.csv")
    assert on_cluster[1] == in_process[1]
    assert on_cluster[1].count(b"\n") == 1 + 3 * 2
    assert "Strength ladder: tictactoe" in on_cluster[0]


def test_the_page_plays_a_study_and_a_ladder_on_the_cluster_as_in_process(
    cluster: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from streamlit.testing.v1 import AppTest

    from lib.ui.arena_controls import EXECUTOR_LABELS
    from lib.ui.arena_ladder import LADDER_KEY

    monkeypatch.setenv(LOCAL_ENV, "1")
    app = AppTest.from_file(PAGE, default_timeout=300)
    app.run()
    assert EXECUTOR_LABELS["dask"] in app.radio(key="arena_w_executor").options
    app.radio(key="arena_w_executor").set_value("dask")
    app.run()
    app.text_input(key="arena_w_scheduler").set_value(cluster)
    app.selectbox(key="arena_w_preset").set_value("othello_depth3")
    app.number_input(key="arena_w_preset_games").set_value(6)
    app.run()
    next(b for b in app.button if b.label == "Run study").click()
    app.run()
    assert not app.exception, app.exception
    run = app.session_state["arena_study"]
    assert run.status == "done" and run.where == f"on the Dask scheduler at {cluster}"
    assert [r.reproducible() for r in run.records] == [
        r.reproducible() for r in run_tournament(run.matches).records
    ]

    app.selectbox(key="arena_w_ladder_game").set_value("tictactoe")
    app.run()
    players = app.multiselect(key="arena_w_ladder_players_tictactoe")
    players.set_value(players.options[:2])  # random and greedy: no time budget, reproducible
    app.number_input(key="arena_w_ladder_games").set_value(4)
    next(b for b in app.button if b.label == "Run ladder").click()
    app.run()
    assert not app.exception, app.exception
    ladder = app.session_state[LADDER_KEY]
    assert ladder.config.players == ("random", "greedy")
    assert ladder.status == "done" and len(ladder.records) == 4
    assert ladder.where == f"on the Dask scheduler at {cluster}"
    assert [r.reproducible() for r in ladder.records] == [
        r.reproducible() for r in run_ladder(ladder.config).records
    ]


def test_a_worker_killed_mid_study_loses_and_duplicates_no_game(tmp_path: Path) -> None:
    """Kill one worker program (its nanny and its worker process) while it plays games: the
    study finishes on the other, with exactly the games of an in-process run."""
    matches = [
        MatchConfig(
            "othello", ("alphabeta:depth=2", "random"), games=12, seed=11, options={"size": 6}
        ),
        MatchConfig("othello", ("greedy", "random"), games=12, seed=12, options={"size": 6}),
    ]
    killed: dict[str, object] = {}
    with (
        dask_cluster(tmp_path) as (address, programs),
        distributed.Client(address, timeout=30) as observer,
    ):

        def kill_a_busy_worker(record: object, done: int, total: int) -> None:
            if killed or done < 2:
                return
            names = {a: w["name"] for a, w in observer.scheduler_info()["workers"].items()}
            for worker, keys in observer.processing().items():
                if keys:  # games in flight on this worker are lost with it
                    killed.update(name=names[worker], in_flight=len(keys), done=done)
                    stop(programs[names[worker]], signal.SIGKILL)
                    return

        with open_executor("dask", scheduler=address) as executor:
            result = run_tournament(matches, executor, on_game=kill_a_busy_worker)
        survivors = [w["name"] for w in observer.scheduler_info()["workers"].values()]

    assert killed, "no worker had a game in flight to kill"
    assert killed["in_flight"] >= 1 and killed["done"] < 24
    assert killed["name"] not in survivors and len(survivors) == 1
    assert not result.cancelled
    keys = [(r.match, r.game) for r in result.records]
    assert len(keys) == len(set(keys)) == 24
    in_process = run_tournament(matches)
    assert [r.reproducible() for r in result.records] == [
        r.reproducible() for r in in_process.records
    ]
