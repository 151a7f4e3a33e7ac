"""The entry script tunes the allocator and starts one memory releaser per server, whichever
page is visited; a server warms the pages' shared first looks once, in a thread of its own."""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from lib.games.move_pool import new_move_pool
from lib.jobs import JobPool
from lib.ui import arena_first_look, jobs, portfolio_first_look, server

ROOT = Path(__file__).resolve().parents[2]


def test_visitors_share_one_releaser_started_by_the_first(monkeypatch):
    started, tuned = [], []

    class Recording:
        def __init__(self) -> None:
            started.append(self)

    monkeypatch.setattr(server, "MemoryReleaser", Recording)
    monkeypatch.setattr(server, "tune_allocator", lambda: tuned.append(len(started)))
    server.memory_releaser.clear()
    try:
        for page in ("home", "sim"):  # two visitors, two pages
            app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=60)
            app.switch_page(f"pages/{page}.py").run()
            assert not app.exception, app.exception
        assert len(started) == 1
        assert tuned == [0]  # once, before the releaser started
    finally:
        server.memory_releaser.clear()


def _visit(page: str) -> None:
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=60)
    app.switch_page(f"pages/{page}.py").run()
    assert not app.exception, app.exception


def test_a_server_warms_the_shared_work_once_beside_the_first_visit(monkeypatch):
    threads: list[str] = []
    warmed = threading.Event()

    def warm(moves) -> None:
        assert moves is jobs.move_pool()  # the server's pool for AI moves, to start
        threads.append(threading.current_thread().name)
        warmed.set()

    monkeypatch.setattr(server, "serving", lambda: True)
    monkeypatch.setattr(server, "warm_shared_work", warm)
    server.shared_work_warmer.clear()
    try:
        for page in ("home", "sim"):  # two visitors, two pages
            _visit(page)
        assert warmed.wait(30)
        # once, and not in a script's thread: the visit that started it did not wait
        assert threads == ["shared-work-warm-up"]
    finally:
        server.shared_work_warmer.clear()


def test_page_tests_start_no_warm_up(monkeypatch):
    """AppTest's runtime is a stand-in, not a server: nothing runs behind a test's back."""
    started: list[str] = []
    monkeypatch.setattr(server, "warm_shared_work", lambda: started.append("warm"))
    server.shared_work_warmer.clear()
    try:
        _visit("home")
        assert not server.serving()
        assert server.shared_work_warmer() is None
        assert started == []
    finally:
        server.shared_work_warmer.clear()


def test_a_failed_warm_up_is_logged_and_the_next_one_still_runs(monkeypatch, caplog):
    warmed: list[str] = []

    def broken() -> None:
        raise OSError("data/sample_stocks.csv: no such file")

    monkeypatch.setattr(portfolio_first_look, "warm_first_look", broken)
    monkeypatch.setattr(arena_first_look, "warm_first_look", lambda: warmed.append("arena"))
    monkeypatch.setattr(server.subprocess, "run", lambda command, **_: warmed.append(command[-1]))
    with caplog.at_level(logging.WARNING, logger=server.LOG.name):
        server.warm_shared_work()  # raises nothing: the page computes it itself
    assert "warming lib.ui.portfolio_first_look's first look failed" in caplog.text
    assert "no such file" in caplog.text
    assert sorted(warmed) == ["arena", "lib.games.compiled_code"]  # the solvers in a thread


def test_the_compiled_solvers_are_readied_in_a_process_of_their_own(monkeypatch, caplog):
    monkeypatch.setattr(portfolio_first_look, "warm_first_look", lambda: None)
    monkeypatch.setattr(arena_first_look, "warm_first_look", lambda: None)
    commands: list[list[str]] = []
    folders: list[Path] = []

    def failing_run(command: list[str], **options) -> None:
        commands.append(command)
        folders.append(options["cwd"])
        raise subprocess.CalledProcessError(1, command, stderr=b"numba: no such CPU")

    monkeypatch.setattr(server.subprocess, "run", failing_run)
    with caplog.at_level(logging.WARNING, logger=server.LOG.name):
        server.warm_shared_work()  # a failed warm-up leaves the first solve to compile
    assert commands == [[sys.executable, "-m", "lib.games.compiled_code"]]
    assert "readying the compiled solvers failed: numba: no such CPU" in caplog.text
    # run from the repository, so `-m lib...` is found wherever the server was started
    assert (folders[0] / "lib" / "games" / "compiled_code.py").is_file()


def test_the_warm_up_starts_the_move_workers_once_the_solvers_are_ready(monkeypatch):
    monkeypatch.setattr(portfolio_first_look, "warm_first_look", lambda: None)
    monkeypatch.setattr(arena_first_look, "warm_first_look", lambda: None)
    order: list[str] = []
    monkeypatch.setattr(server.subprocess, "run", lambda command, **_: order.append("solvers"))
    pool = new_move_pool(1)
    monkeypatch.setattr(
        pool, "fill", lambda *args: order.append("moves") or JobPool.fill(pool, *args)
    )
    try:
        server.warm_shared_work(pool)
        assert order == ["solvers", "moves"]
        deadline = time.monotonic() + 120
        while pool.idle_workers() < 1:  # up, its warm-up done, waiting for a move
            assert time.monotonic() < deadline, "the move worker did not come up"
            time.sleep(0.1)
    finally:
        pool.shutdown()
