"""Heavy jobs on the server's shared worker pool, seen from a page.

:func:`shared_pool` creates one :class:`lib.jobs.JobPool` per server
(``st.cache_resource``: every session shares its workers and its queue).
:func:`run_job` runs one job there from a page: while the job waits it says
"Waiting for a free worker (position N)", while it runs it passes each progress
callback's calls to the page's handlers (a progress bar, a live chart) and
shows the seconds spent; it returns the job's result or raises its error.

Any rerun of the page (the Cancel button, another widget) and a closed tab stop the
script at its next redraw, and :func:`run_job` then cancels the job: a queued job leaves
the queue, a running one stops in its worker within about a second.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st

from lib.games.move_pool import new_move_pool
from lib.jobs import QUEUED, Job, JobEvent, JobPool

POLL_SECONDS = 0.25
"""How often the page looks at its job (and redraws its status line, where a stop lands)."""


@st.cache_resource(show_spinner=False)
def shared_pool() -> JobPool:
    """The server's job pool: ``$AI_SEARCH_LAB_JOB_WORKERS`` workers (else the CPU count, at
    most 2), at a lower CPU priority than the server (``$AI_SEARCH_LAB_JOB_NICENESS``)."""
    return JobPool()


@st.cache_resource(show_spinner=False)
def move_pool() -> JobPool | None:
    """The server's pool for AI moves (:mod:`lib.games.move_pool`): ``$AI_SEARCH_LAB_MOVE_WORKERS``
    workers (else the CPU count, at most 2; 0: None, every move in the server's threads)."""
    return new_move_pool()


def waiting_text(
    position: int | None, running: int, workers: int, wait_seconds: float | None = None
) -> str:
    """The line shown while a job waits in the queue, with the wait expected when known.

    >>> waiting_text(2, 1, 1)
    'Waiting for a free worker (position 2 in the queue; 1 of 1 workers busy)…'
    >>> waiting_text(2, 1, 1, 95)
    'Waiting for a free worker (position 2 in the queue; 1 of 1 workers busy; about 2 min)…'
    """
    expected = "" if wait_seconds is None else f"; about {wait_text(wait_seconds)}"
    return (
        f"Waiting for a free worker (position {position or 1} in the queue; "
        f"{running} of {workers} workers busy{expected})…"
    )


def wait_text(seconds: float) -> str:
    """A wait in words, rounded as a person reads it.

    >>> [wait_text(s) for s in (0.4, 12, 59.6, 95, 3600)]
    ['a few seconds', '12 s', '1 min', '2 min', '60 min']
    """
    if seconds < 5:
        return "a few seconds"
    if seconds < 59.5:
        return f"{seconds:.0f} s"
    return f"{max(1, round(seconds / 60))} min"


def fraction_done(event: JobEvent) -> float | None:
    """How much of a job is done, when a progress call ends with ``(done, total)`` (an
    Arena study's games, a route comparison's pairs); else None.

    >>> fraction_done(JobEvent("on_game", ("record", 30, 120)))
    0.25
    >>> fraction_done(JobEvent("on_move", (12, "c4"))) is None
    True
    """
    if len(event.args) < 2:
        return None
    done, total = event.args[-2:]
    whole = all(isinstance(x, int) and not isinstance(x, bool) for x in (done, total))
    if not whole or total <= 0 or not 0 <= done <= total:
        return None
    return done / total


def show_waiting(slot: Any, job: Job, pool: JobPool) -> None:
    """Draw the waiting line of a queued ``job`` in ``slot``."""
    running, _ = pool.counts()
    text = waiting_text(job.position, running, pool.max_workers, pool.estimated_wait(job))
    slot.info(text, icon=":material/schedule:")


def show_running(slot: Any, job: Job) -> None:
    """Draw the running line of ``job`` in ``slot`` (redrawn each poll: a stop lands here)."""
    seconds = time.monotonic() - (job.started or time.monotonic())
    slot.caption(f"Running on a shared worker process · {seconds:.0f} s")


def run_job(
    function: Callable[..., Any],
    args: Sequence[Any] = (),
    kwargs: Mapping[str, Any] | None = None,
    *,
    callbacks: Mapping[str, tuple[str, Callable[..., Any]]] | None = None,
    expected_seconds: float | None = None,
) -> Any:
    """Run ``function(*args, **kwargs)`` on the shared pool; return its result.

    ``callbacks`` maps a keyword argument of ``function`` to ``(mode, handler)``:
    ``mode`` is :data:`lib.jobs.EVERY` or :data:`lib.jobs.LATEST`, and ``handler`` is
    called here, in the script's thread, with the arguments of each forwarded call.
    ``expected_seconds`` (e.g. the job's time cap) and the progress calls that end with
    ``(done, total)`` (:func:`fraction_done`) are what the wait of jobs queued behind it is
    estimated from, until a job of its kind has finished on this server.
    Raises the job's :class:`~lib.errors.InputError` or :class:`~lib.jobs.JobFailed`.
    If the script is stopped (a rerun, a closed tab) the job is cancelled.
    """
    callbacks = dict(callbacks or {})
    pool = shared_pool()
    job = pool.submit(
        function,
        args,
        kwargs,
        callbacks={name: mode for name, (mode, _) in callbacks.items()},
        expected_seconds=expected_seconds,
    )
    slot = st.empty()
    try:
        while True:
            finished = job.wait(POLL_SECONDS)
            for event in job.take_events():
                fraction = fraction_done(event)
                if fraction is not None:
                    job.progressed(fraction)
                callbacks[event.callback][1](*event.args)
            if finished:
                break
            if job.state == QUEUED:
                show_waiting(slot, job, pool)
            else:
                show_running(slot, job)
        slot.empty()
        return job.result()
    finally:
        job.cancel()  # nothing to do if it finished; else out of the queue or stopped
