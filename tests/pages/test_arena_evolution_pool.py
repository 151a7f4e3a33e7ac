"""The Arena's weight evolution as a job of the shared pool: it waits for a free worker (saying
its position), sends each generation back to the page as it is played, ends with the same
generations as the same evolution run here, and a stopped script cancels it in its worker."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from lib.games.arena.evolve import evolve
from lib.jobs import CANCELLED, EVERY, LATEST, RUNNING, JobOutOfMemory, JobPool
from lib.ui import arena_controls as arena_ui
from lib.ui import arena_page
from lib.ui import jobs as ui_jobs
from lib.ui.common import escape_markdown
from tests import job_tasks
from tests.test_jobs import cpu_seconds, finish, wait_for_state
from tests.ui.test_jobs_ui import _free_the_worker_once_a_page_waits

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "arena.py")


@pytest.fixture
def pool(monkeypatch):
    """A one-worker pool the page uses instead of the server's, recording its jobs, the
    waiting lines drawn and every progress call handed to the page."""
    pool = JobPool(workers=1, grace=0.5)
    pool.jobs, pool.waiting_lines, pool.handled = [], [], []
    submit, show_waiting, run_job = pool.submit, ui_jobs.show_waiting, ui_jobs.run_job

    def recording_submit(*args, **kwargs):
        pool.jobs.append(submit(*args, **kwargs))
        return pool.jobs[-1]

    def recording_show_waiting(slot, job, pool_):
        pool.waiting_lines.append(ui_jobs.waiting_text(job.position, pool_.counts()[0], 1))
        show_waiting(slot, job, pool_)

    def recording_run_job(function, args=(), kwargs=None, *, callbacks=None):
        def recorded(name, handler):
            def handle(*event):
                pool.handled.append((name, event))
                handler(*event)

            return handle

        callbacks = {name: (mode, recorded(name, h)) for name, (mode, h) in callbacks.items()}
        return run_job(function, args, kwargs, callbacks=callbacks)

    monkeypatch.setattr(pool, "submit", recording_submit)
    monkeypatch.setattr(ui_jobs, "shared_pool", lambda: pool)
    monkeypatch.setattr(ui_jobs, "show_waiting", recording_show_waiting)
    monkeypatch.setattr(arena_ui, "run_job", recording_run_job)
    yield pool
    pool.shutdown()


def _evolution_form(app: AppTest, **numbers: int) -> None:
    app.selectbox(key="arena_w_evo_game").set_value("othello").run()
    for key, value in numbers.items():
        app.number_input(key=f"arena_w_{key}").set_value(value)
    next(b for b in app.button if b.label == "Evolve").click()


def test_an_evolution_waits_its_turn_then_equals_the_same_evolution_run_here(pool):
    app = AppTest.from_file(PAGE, default_timeout=180)
    app.run()  # the first look's study is played once per server, not on the pool
    assert not app.exception, app.exception
    blocker = pool.submit(job_tasks.spin, (60.0,))
    wait_for_state(blocker, RUNNING)
    watcher = _free_the_worker_once_a_page_waits(pool, blocker)
    sizes = {"pop": 6, "leagues": 2, "gens": 3, "elite": 2, "worst": 1, "bench_games": 2}
    _evolution_form(app, **sizes)
    app.run()
    watcher.join()
    assert not app.exception, app.exception
    assert pool.waiting_lines[0].startswith("Waiting for a free worker (position 1 in the queue")
    evo = app.session_state[arena_page.EVOLUTION_KEY]
    job = pool.jobs[-1]
    function, args, modes = job.request.function, job.request.args, job.request.callbacks
    assert function is evolve and args == (evo.config,)
    assert modes == {"on_generation": EVERY, "on_game": LATEST}

    here = evolve(evo.config)  # the oracle: the same settings in this process
    assert evo.status == "done" and not here.cancelled
    assert evo.generations == here.generations
    # each generation reached the page's handler as an event of its own, in order
    generations = [event[0] for name, event in pool.handled if name == "on_generation"]
    assert generations == here.generations
    games = [event for name, event in pool.handled if name == "on_game"]
    assert all(1 <= done <= total for done, total in games)
    # the results: the best weights of the last generation, the charts and the downloads
    assert tuple(app.dataframe[-1].value["weight"]) == here.generations[-1].best_weights
    assert len(app.get("plotly_chart")) >= 2  # fitness and weights
    assert {"arena_dl_evo", "arena_dl_best"} <= {b.key for b in app.get("download_button")}
    assert not [i for i in app.info if i.value.startswith("Waiting")]
    assert not [b for b in app.button if b.label == "Cancel"]


def test_a_stopped_evolution_is_cancelled_in_its_worker_and_said_so(pool):
    # The worker runs niced, so on a loaded machine its next game's callback can be many
    # seconds away (CI once killed it after the fixture's 0.5 s; two suites beside four
    # busy processes outran 60 s once): give it time to get there.
    pool.grace = 240.0
    app = AppTest.from_file(PAGE, default_timeout=180)
    app.run()
    assert not app.exception, app.exception
    # a long one: 190 pairs x 2 games at depth 2 per generation
    _evolution_form(app, pop=20, leagues=1, gens=20, evo_depth=2)
    with pytest.raises(RuntimeError, match="timed out"):
        app.run(timeout=4)  # AppTest stops the script, as a rerun or a closed tab does
    job = pool.jobs[-1]
    assert job.request.function is evolve
    finish(job, timeout=250.0)
    assert job.state == CANCELLED
    (pid,) = pool.worker_pids()  # it stopped at a game's callback: the worker lives on, idle
    before = cpu_seconds(pid)
    time.sleep(1.0)
    assert cpu_seconds(pid) - before < 0.05
    # the next run (the Cancel button's, or any other click's) finds it interrupted; the
    # timed-out run sent no new page, so the Evolve click is still pending: withdraw it
    next(b for b in app.button if b.label == "Evolve").set_value(False)
    app.run(timeout=60)
    assert not app.exception, app.exception
    evo = app.session_state[arena_page.EVOLUTION_KEY]
    assert evo.status == "cancelled"
    assert len(evo.generations) < evo.config.generations


def test_an_evolution_that_runs_out_of_memory_says_so_on_the_page(monkeypatch):
    def out_of_memory(*args, **kwargs):
        raise JobOutOfMemory(600)  # what run_job raises for a job past its worker's cap

    monkeypatch.setattr(arena_ui, "run_job", out_of_memory)
    app = AppTest.from_file(PAGE, default_timeout=180)
    app.run()
    _evolution_form(app, pop=6, leagues=2, gens=2, elite=2, worst=1)
    app.run()
    assert not app.exception, app.exception
    assert [e.value for e in app.error] == [escape_markdown(str(JobOutOfMemory(600)))]
    assert "(600 MB)" in str(JobOutOfMemory(600))
    assert app.session_state[arena_page.EVOLUTION_KEY].status == "cancelled"
