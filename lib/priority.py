"""Run a long computation in a thread of lower CPU priority, its progress seen by the caller.

A game's AI move is searched in the server's own process (a page waits seconds for it,
too short a wait for the job pool's queue). In the thread of the page's script run it
would compete for the CPU with every other visitor's clicks at the server's priority;
:func:`run_lowered` searches in a thread of its own instead, lowered by the same step as
the job pool's workers (:func:`lib.jobs.worker_niceness`; Linux sets a priority per
thread), while the calling thread waits and hands each progress report on. That keeps
what the caller's progress callback does (a Streamlit page redrawing its "thinking" line,
where a stale run stops) in the caller's thread: an exception it raises abandons the
computation at its next report.

>>> run_lowered(lambda report: [report(i) for i in range(3)] and "done")
'done'
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from lib.jobs import worker_niceness

R = TypeVar("R")


class Abandoned(Exception):
    """Raised in the computation's thread at its next report once the caller gave up."""


def lower_this_thread(step: int) -> int | None:
    """Lower the calling thread's CPU priority by ``step`` (at most to 19); its niceness
    now, or None where a thread's priority cannot be set on its own (not Linux)."""
    if not sys.platform.startswith("linux") or step <= 0:
        return None
    thread = threading.get_native_id()  # on Linux a thread's id names it to setpriority
    with contextlib.suppress(OSError):
        now = os.getpriority(os.PRIO_PROCESS, thread)
        os.setpriority(os.PRIO_PROCESS, thread, min(19, now + step))
        return os.getpriority(os.PRIO_PROCESS, thread)
    return None


def run_lowered(
    work: Callable[[Callable[[Any], None]], R],
    on_progress: Callable[[Any], None] | None = None,
    *,
    niceness: int | None = None,
    poll: float = 0.05,
) -> R:
    """``work(report)`` in a new thread ``niceness`` lower (default
    :func:`lib.jobs.worker_niceness`); its result, or its exception raised here.

    Each ``report(progress)`` call of ``work`` reaches ``on_progress`` in this thread
    (the newest one, within ``poll`` seconds; the last one too). If ``on_progress``
    raises (or anything stops this thread's wait), ``work``'s next report raises
    :class:`Abandoned` there and the exception goes on here at once.
    """
    step = worker_niceness() if niceness is None else niceness
    lock = threading.Lock()
    news: list[Any] = []  # the newest report not yet handed on
    stop = threading.Event()
    outcome: dict[str, Any] = {}

    def report(progress: Any) -> None:
        if stop.is_set():
            raise Abandoned
        with lock:
            news[:] = [progress]

    def target() -> None:
        lower_this_thread(step)
        try:
            outcome["value"] = work(report)
        except BaseException as error:  # handed to the caller's thread
            outcome["error"] = error

    thread = threading.Thread(target=target, name="lowered-work", daemon=True)
    thread.start()
    try:
        alive = True
        while alive:  # the last report is handed on too, after the work has ended
            thread.join(poll)
            alive = thread.is_alive()
            with lock:
                latest, news[:] = news[:], []
            if latest and on_progress is not None:
                on_progress(latest[0])
    except BaseException:
        stop.set()
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
