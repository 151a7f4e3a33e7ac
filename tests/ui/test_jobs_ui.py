"""Pages running jobs on the shared pool: the queue position while waiting, and a stopped
script (a rerun, a closed tab) cancelling its job."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from lib.jobs import CANCELLED, RUNNING, JobPool
from lib.ui import jobs as ui_jobs
from tests import job_tasks
from tests.test_jobs import cpu_seconds, finish, wait_for_state

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pool(monkeypatch):
    """A one-worker pool the pages use instead of the server's; what they drew while waiting."""
    pool = JobPool(workers=1, grace=0.5)
    pool.jobs = []  # every job submitted, in order
    pool.waiting_lines = []
    submit = pool.submit

    def recording_submit(*args, **kwargs):
        job = submit(*args, **kwargs)
        pool.jobs.append(job)
        return job

    show_waiting = ui_jobs.show_waiting

    def recording_show_waiting(slot, job, pool_):
        pool.waiting_lines.append(ui_jobs.waiting_text(job.position, pool_.counts()[0], 1))
        show_waiting(slot, job, pool_)

    monkeypatch.setattr(pool, "submit", recording_submit)
    monkeypatch.setattr(ui_jobs, "shared_pool", lambda: pool)
    monkeypatch.setattr(ui_jobs, "show_waiting", recording_show_waiting)
    yield pool
    pool.shutdown()


def _counting_script() -> None:
    import streamlit as st

    from lib.jobs import EVERY
    from lib.ui.jobs import run_job
    from tests import job_tasks

    steps = []
    record = (EVERY, lambda i, _square: steps.append(i))
    result = run_job(job_tasks.count_up, (5,), callbacks={"on_step": record})
    st.write(f"result {result}, steps {steps}")


def _spinning_script() -> None:
    from lib.jobs import LATEST
    from lib.ui.jobs import run_job
    from tests import job_tasks

    run_job(job_tasks.spin, (120.0,), callbacks={"on_tick": (LATEST, lambda count: None)})


def _free_the_worker_once_a_page_waits(pool, blocker) -> threading.Thread:
    """Cancel ``blocker`` once a page has drawn its waiting line (in a thread)."""

    def watch() -> None:
        deadline = time.monotonic() + 60
        while not pool.waiting_lines and time.monotonic() < deadline:
            time.sleep(0.05)
        blocker.cancel()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def test_waiting_text_names_the_position_and_the_busy_workers():
    assert ui_jobs.waiting_text(3, 2, 2) == (
        "Waiting for a free worker (position 3 in the queue; 2 of 2 workers busy)…"
    )


def test_a_queued_job_says_its_position_until_a_worker_is_free(pool):
    blocker = pool.submit(job_tasks.spin, (60.0,))
    wait_for_state(blocker, RUNNING)
    ahead = pool.submit(job_tasks.stamp, ("ahead", 0.5))  # position 1; the page's job is 2nd
    watcher = _free_the_worker_once_a_page_waits(pool, blocker)
    app = AppTest.from_function(_counting_script, default_timeout=60)
    app.run()
    watcher.join()
    assert not app.exception, app.exception
    lines = pool.waiting_lines
    busy = "in the queue; 1 of 1 workers busy)…"
    assert lines[0] == f"Waiting for a free worker (position 2 {busy}"
    assert f"Waiting for a free worker (position 1 {busy}" in lines  # after the blocker ended
    assert lines.index(f"Waiting for a free worker (position 1 {busy}") > lines.index(lines[0])
    assert finish(ahead).state == "done"
    # the job's callbacks reached the page in order, and the waiting line is gone
    assert [m.value for m in app.markdown] == ["result 5, steps [0, 1, 2, 3, 4]"]
    assert not app.info


def test_a_stopped_script_cancels_its_running_job_and_the_worker_stops_burning_cpu(pool):
    app = AppTest.from_function(_spinning_script)
    with pytest.raises(RuntimeError, match="timed out"):
        app.run(timeout=4)  # AppTest stops the script, as Streamlit does for a closed tab
    (job,) = pool.jobs
    finish(job, timeout=2.0)
    assert job.state == CANCELLED
    (pid,) = pool.worker_pids()  # stopped at its callback: the worker lives on, idle
    before = cpu_seconds(pid)
    time.sleep(1.0)
    assert cpu_seconds(pid) - before < 0.05


def test_a_stopped_script_takes_its_queued_job_out_of_the_queue(pool):
    blocker = pool.submit(job_tasks.stamp, ("blocker", 30.0))
    wait_for_state(blocker, RUNNING)
    app = AppTest.from_function(_counting_script)
    with pytest.raises(RuntimeError, match="timed out"):
        app.run(timeout=2)
    queued = pool.jobs[-1]
    assert queued.state == CANCELLED
    assert pool.counts() == (1, 0)
    assert pool.waiting_lines  # it did say it was waiting


def test_the_arena_page_waits_for_a_free_worker_then_shows_the_study(pool):
    # the study runs in a niced worker: on a heavily loaded machine it once outran 120 s
    app = AppTest.from_file(str(ROOT / "pages" / "arena.py"), default_timeout=300)
    app.run()  # a first visit shows the default study, played once per server (no job)
    assert not app.exception, app.exception
    blocker = pool.submit(job_tasks.spin, (60.0,))
    wait_for_state(blocker, RUNNING)
    watcher = _free_the_worker_once_a_page_waits(pool, blocker)
    next(b for b in app.button if b.label == "Run study").click()
    app.run()  # the visitor's own run queues behind the blocker
    watcher.join()
    assert not app.exception, app.exception
    assert pool.waiting_lines[0].startswith("Waiting for a free worker (position 1 in the queue")
    run = app.session_state["arena_study"]
    assert run.status == "done" and len(run.records) == run.total
    assert run.where == "in a worker process of the server's shared pool"
    assert app.success[0].value.startswith(f"Played {run.total} games in a worker process")
    assert not [i for i in app.info if i.value.startswith("Waiting")]


def test_a_big_map_compares_in_the_pool_and_gets_the_same_table_as_here(pool):
    from lib.routes import compare
    from lib.ui.routes_page import COMPARE_IN_POOL_PLACES, COMPARISON_OPEN_KEY

    app = AppTest.from_file(str(ROOT / "pages" / "routes.py"), default_timeout=120)
    app.query_params.update(source="Grid with obstacles", rows="20", cols="20")
    app.session_state[COMPARISON_OPEN_KEY] = True  # the comparison's section opened
    app.run()
    assert not app.exception, app.exception
    next(n for n in app.number_input if n.label == "At most").set_value(12)
    next(b for b in app.button if b.label == "Compare on a sample of pairs").click().run()
    assert not app.exception, app.exception
    (job,) = pool.jobs
    function, args, kwargs = job.request.function, job.request.args, job.request.kwargs
    G = args[0]
    assert function is compare.all_pairs and G.number_of_nodes() >= COMPARE_IN_POOL_PLACES
    shown = app.session_state["rt_compare"][1]
    here = compare.all_pairs(*args, **kwargs)
    assert len(shown) > 0
    assert shown.drop(columns="seconds").equals(here.drop(columns="seconds"))
    assert not [b for b in app.button if b.label == "Cancel"]  # gone once the table is in
