"""A bounded pool of worker processes shared by every session of a server.

Heavy jobs (an Arena study, the portfolio GA at its caps, an all-pairs route comparison)
run here instead of in the server's interpreter, so one visitor's job does not hold the
GIL while everyone else clicks. The pool has a fixed number of workers (at most that many
jobs run at once); further jobs wait in a first-in, first-out queue that tells each job its
position. A job can be cancelled: a queued job leaves the queue, a running one is asked to
stop at its next progress callback and, if it has not stopped within a short grace period
(a search deep inside one move calls nothing back), its worker process is killed and
replaced, so no CPU is spent on work nobody waits for. Each worker's memory is capped
(:func:`memory_cap_mb`): a job that needs more fails with :class:`JobOutOfMemory`, a plain
message for the visitor, and its worker is replaced, so one runaway job cannot take the
server's memory.

A job is a module-level function (it is pickled by name) called in a worker as
``function(*args, **kwargs)``. Its progress callbacks are named keyword arguments
(``callbacks={"on_generation": EVERY, "on_move": LATEST}``): the worker passes a callable
for each, and each call's arguments come back to the caller as a :class:`JobEvent`, in
order. ``EVERY`` forwards every call (a generation's statistics for a live chart);
``LATEST`` at most one call per :data:`LATEST_EVERY` seconds (a "move 12" line).
Every forwarded callback is also where a cancelled job stops.

>>> pool = JobPool(workers=1)                     # doctest: +SKIP
>>> job = pool.submit(run_ga, (table, config), callbacks={"on_generation": EVERY})  # +SKIP
>>> while not job.finished: job.wait(0.25); rows += job.take_events()  # doctest: +SKIP
>>> job.result()                                  # doctest: +SKIP

Nothing here imports Streamlit: :mod:`lib.ui.jobs` creates one pool per server
(``st.cache_resource``) and draws the queue position, progress and Cancel.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import multiprocessing
import os
import pickle
import sys
import threading
import time
import traceback
import types
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Literal

import pebble
from pebble import ProcessExpired

from lib.errors import InputError
from lib.settings import setting, whole_number

try:
    import resource
except ImportError:  # Windows has no resource module: its workers have no memory cap
    resource = None  # type: ignore[assignment]

WORKERS_ENV = "AI_SEARCH_LAB_JOB_WORKERS"
"""Environment variable setting the number of worker processes (concurrent heavy jobs)."""

MEMORY_ENV = "AI_SEARCH_LAB_JOB_MEMORY_MB"
"""Environment variable setting each worker's memory cap in MB (``0`` or ``off``: none)."""

DEFAULT_MEMORY_MB = 600
"""Each worker's address-space cap in MB without ``$AI_SEARCH_LAB_JOB_MEMORY_MB``.

``bench/job_memory.py`` measured the heaviest jobs a hosted server allows at 390–486 MB of
address space (148–228 MB resident): the GA at its caps 390 (473 on the widest table it
takes), an Arena study or a depth-7 search 473–475, an evolution 473, every route algorithm
on a 2,000-place map 486. 600 MB leaves them about a quarter more (other library versions
map more), and bounds a worker's resident memory to roughly 600 MB less the ~290 MB of
libraries mapped but not resident: a ~400 MB server and two workers at their cap stay
near 1 GB."""

WORKER_ENVIRONMENT = {
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "ARROW_DEFAULT_MEMORY_POOL": "system",
}
"""Set in a worker before it imports a job's libraries (unless set already), so that its
address space, which the cap counts, follows the memory it uses on any host: a worker runs
one job on a shared CPU, and each BLAS thread would reserve buffers (more on a host that
reports many CPUs); Arrow's default allocator (pandas' strings) reserves about 1 GB of
address space up front that it never touches, the system allocator does not."""

WORKER_NICENESS = 10
"""How much lower than the server a worker's CPU priority is (Unix ``nice``): when the CPU
is short, the server's answer to a click comes before a heavy job's next step."""

OUT_OF_MEMORY_EXIT = 75
"""The exit code of a worker whose job ran out of memory (it leaves; pebble replaces it)."""

_BASE_CONTEXT = multiprocessing.get_context(
    "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
)
"""How workers start: never a fork of the server, whose threads may hold locks."""

EVERY = "every"
"""Forward every call of this callback (in order)."""

LATEST = "latest"
"""Forward at most one call of this callback per :data:`LATEST_EVERY` seconds."""

LATEST_EVERY = 0.2
"""Seconds between two forwarded calls of a ``LATEST`` callback."""

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
FINISHED_STATES = frozenset({DONE, FAILED, CANCELLED})


class JobCancelled(Exception):
    """Raised inside a job's callback once the job was cancelled (the job stops there)."""


class JobOutOfMemory(InputError):
    """A job needed more memory than a worker may take (:data:`MEMORY_ENV`).

    An :class:`InputError`: smaller settings are what the visitor can change. Its worker
    is replaced (the memory it took goes back to the system).
    """

    def __init__(self, limit_mb: int) -> None:
        super().__init__(
            f"This job needed more memory than this server allows per job ({limit_mb:,} MB); "
            "try smaller settings."
        )
        self.limit_mb = limit_mb


class JobFailed(RuntimeError):
    """A job raised an error that is not an :class:`InputError` (a bug), or could not be sent.

    The message names the error; ``details`` holds the worker's traceback. (A worker
    that dies under a job, e.g. out of memory, is reported as an :class:`InputError`:
    smaller settings are what the visitor can change.)
    """

    def __init__(self, message: str, details: str = "") -> None:
        super().__init__(message)
        self.details = details


MAX_DEFAULT_WORKERS = 2
"""Most workers started without ``$AI_SEARCH_LAB_JOB_WORKERS``: a small hosted server has about
1 GB of RAM (each working worker takes about 185 MB) whatever CPU count its host reports."""


def default_workers(environ: Mapping[str, str] | None = None) -> int:
    """The number of workers: ``$AI_SEARCH_LAB_JOB_WORKERS``, else the CPU count minus one (≥ 1,
    at most :data:`MAX_DEFAULT_WORKERS`).

    One core is left to the server itself, which draws every session's pages.
    Raises :class:`InputError` if the variable is not a whole number ≥ 1.
    """
    default = min(MAX_DEFAULT_WORKERS, max(1, (os.cpu_count() or 1) - 1))
    expected = "a whole number of at least 1"
    return setting(WORKERS_ENV, whole_number(1), default, expected=expected, environ=environ)


def memory_cap_mb(environ: Mapping[str, str] | None = None) -> int | None:
    """Each worker's memory cap in MB: ``$AI_SEARCH_LAB_JOB_MEMORY_MB``, else
    :data:`DEFAULT_MEMORY_MB`; None (no cap) for ``0`` / ``off`` or where the platform
    cannot cap a process (no :mod:`resource`, e.g. Windows).

    The cap is on the worker's address space (``RLIMIT_AS``), which counts the libraries
    mapped and memory reserved as well as what the job fills: a worker that has imported
    the app's libraries spans about 470 MB, of which about 180 MB is resident
    (``bench/job_memory.py`` prints both for the heaviest jobs). Unlike resident memory,
    address space can be capped by the kernel on any Unix: an allocation past the cap
    fails at once (a :class:`MemoryError`) instead of the machine running out.
    Raises :class:`InputError` if the variable is not a whole number ≥ 0 or ``off``.
    """
    expected = "a whole number of megabytes (0 or off: no cap)"
    megabytes = setting(
        MEMORY_ENV, _megabytes, DEFAULT_MEMORY_MB, expected=expected, environ=environ
    )
    return None if resource is None or not megabytes else megabytes


def _megabytes(text: str) -> int:
    """A memory cap's text as megabytes (0 for ``off`` / ``none``)."""
    return 0 if text.lower() in ("off", "none") else whole_number(0)(text)


@dataclass(frozen=True)
class JobEvent:
    """One forwarded call of a job's progress callback: its name and arguments."""

    callback: str
    args: tuple


# -- in a worker process --------------------------------------------------------------------


def _prepare_worker() -> None:
    """Run once in each new worker: lower its CPU priority, set :data:`WORKER_ENVIRONMENT`."""
    with contextlib.suppress(OSError):  # a heavy job yields the CPU to clicks being served
        os.nice(WORKER_NICENESS)
    for name, value in WORKER_ENVIRONMENT.items():
        os.environ.setdefault(name, value)


class _Forwarder:
    """The callable a worker passes to the job for one callback name.

    Each call first checks whether the job was cancelled (raising :class:`JobCancelled`),
    then sends its arguments to the pool (every call, or at most one per
    :data:`LATEST_EVERY` seconds for ``LATEST``).
    """

    def __init__(self, link: _JobLink, name: str, mode: str) -> None:
        self.link, self.name, self.mode = link, name, mode
        self.last = -float("inf")

    def __call__(self, *args: Any) -> None:
        self.link.check_cancelled()
        if self.mode == LATEST:
            now = time.monotonic()
            if now - self.last < LATEST_EVERY:
                return
            self.last = now
        self.link.conn.send(("event", JobEvent(self.name, args)))


class _JobLink:
    """The worker's end of one job's pipe: its events go out, a cancel comes in."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.cancelled = False

    def check_cancelled(self) -> None:
        """Raise :class:`JobCancelled` once the pool has asked the job to stop."""
        self.cancelled = self.cancelled or self.conn.poll()  # the pool sends nothing else
        if self.cancelled:
            raise JobCancelled


@contextlib.contextmanager
def _memory_cap(megabytes: int | None) -> Iterator[None]:
    """Cap this process's address space at ``megabytes`` while the block runs (a bigger
    allocation raises :class:`MemoryError`), never above the hard limit it already has.

    Only the job runs capped: the worker receives its next job uncapped, so a job's
    arguments never fail half-read in the pool's pipe that every worker shares.
    """
    if megabytes is None or resource is None:
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = megabytes * 1024 * 1024
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _run_job(
    memory_mb: int | None,
    function: Callable[..., Any],
    args: tuple,
    kwargs: dict[str, Any],
    callbacks: dict[str, str],
    conn: Connection,
) -> tuple:
    """Run one job in a worker; return its outcome as plain data (:meth:`JobPool._outcome`).

    ``conn`` (last, so that it is sent only once everything before it could be pickled) is
    the job's own pipe to the pool. A job that runs out of memory ends the worker (its
    memory goes with the process; the pool starts a fresh one).
    """
    link = _JobLink(conn)
    try:
        conn.send(("started", os.getpid()))
        link.check_cancelled()
        forwarders = {name: _Forwarder(link, name, mode) for name, mode in callbacks.items()}
        with _memory_cap(memory_mb):
            result = function(*args, **kwargs, **forwarders)
    except MemoryError:
        os._exit(OUT_OF_MEMORY_EXIT)
    except JobCancelled:
        return ("cancelled",)
    except InputError as error:
        return ("input_error", str(error))
    except Exception as error:  # reported to the page, never a crash of the worker
        return ("failed", f"{type(error).__name__}: {error}", traceback.format_exc())
    finally:
        conn.close()
    try:  # here, so that a result that cannot be pickled is named as such
        return ("done", pickle.dumps(result))
    except Exception as error:
        return ("failed", f"its result could not be sent back: {error}", "")


class _WorkerProcess(_BASE_CONTEXT.Process):  # type: ignore[name-defined,misc]
    """A worker process that does not run the server's ``__main__`` when it starts.

    A new process (spawn, forkserver) first runs the parent's ``__main__`` file again. In a
    Streamlit server that is the page being run (its script runner installs the page as
    ``__main__``): a worker would draw the page. It is hidden while the process starts,
    and put back unless a script run installed another one meanwhile.
    """

    def start(self) -> None:
        main, bare = sys.modules.get("__main__"), types.ModuleType("__main__")
        sys.modules["__main__"] = bare
        try:
            super().start()
        finally:
            if sys.modules.get("__main__") is bare and main is not None:
                sys.modules["__main__"] = main


class _WorkerContext(type(_BASE_CONTEXT)):  # type: ignore[misc]
    """The multiprocessing context a pool's workers start in (without ``__main__``)."""

    Process = _WorkerProcess


# -- the pool (in the server) ---------------------------------------------------------------


class Job:
    """One job submitted to a :class:`JobPool`: its state, queue position, events and result.

    Read it from the thread that submitted it: :meth:`wait` for news, :meth:`take_events`
    for the callbacks' calls since the last take, :meth:`result` once finished.
    """

    def __init__(self, pool: JobPool, job_id: int, task: tuple) -> None:
        self._pool = pool
        self.id = job_id
        self._task = task  # (function, args, kwargs, callbacks)
        self.state = QUEUED
        self.position: int | None = None  # 1 = next to start, while queued
        self.worker_pid: int | None = None  # while running
        self._events: list[JobEvent] = []
        self._result: Any = None
        self._error: Exception | None = None
        self._changed = threading.Condition(pool._lock)
        self.submitted = time.monotonic()
        self.started: float | None = None
        self.touched = self.submitted  # last time its owner looked (see abandon_after)
        self._conn: Connection | None = None  # the pool's end of its pipe, once handed over
        # the worker's end: closed here once the worker has it (pebble pickles it first)
        self._worker_end: Connection | None = None
        self._future: Future | None = None
        self.kill_at: float | None = None  # once asked to stop while running

    @property
    def finished(self) -> bool:
        """True once the job is done, failed or cancelled."""
        return self.state in FINISHED_STATES

    def wait(self, timeout: float) -> bool:
        """Block for ``timeout`` seconds, or less if the job's state or queue position changes.

        Returns whether it is finished. Events do not end the wait: they are taken in
        batches (a GA sends dozens of generations a second; waking the page for each
        would cost the server's interpreter more than the job saves it). Also tells the
        pool the owner still waits for the job.
        """
        with self._pool._lock:
            self.touched = time.monotonic()
            if not self.finished:
                self._changed.wait(timeout)
            self.touched = time.monotonic()
            return self.finished

    def take_events(self) -> list[JobEvent]:
        """The forwarded callback calls since the last take, in the order they were made."""
        with self._pool._lock:
            events, self._events = self._events, []
            return events

    def result(self) -> Any:
        """The job's return value; raises its error (:class:`InputError`, :class:`JobFailed`).

        Raises :class:`JobCancelled` for a cancelled job, RuntimeError if still running.
        """
        if not self.finished:
            raise RuntimeError(f"Job {self.id} has not finished ({self.state}).")
        if self.state == CANCELLED:
            raise JobCancelled
        if self._error is not None:
            raise self._error
        return self._result

    def cancel(self) -> None:
        """Cancel the job: out of the queue, or stopped in (or killed with) its worker."""
        self._pool.cancel(self)

    def _finish(self, state: str, result: Any = None, error: Exception | None = None) -> None:
        self.state, self._result, self._error = state, result, error
        self.position = self.worker_pid = None
        self._changed.notify_all()


class JobPool:
    """A fixed number of worker processes running submitted jobs, first come, first served.

    Args:
        workers: most jobs running at once (default :func:`default_workers`).
        grace: seconds a cancelled running job has to stop at a callback before its
            worker process is killed (and replaced).
        idle_seconds: once no job has run for this long, the workers exit (their memory
            goes back to the system); the next job starts new ones.
        abandon_after: a job whose owner has not called :meth:`Job.wait` for this many
            seconds is cancelled (its page is gone without saying so).
        memory_mb: each job's address-space cap in MB (default :func:`memory_cap_mb`;
            None or 0: no cap). A job that needs more fails with :class:`JobOutOfMemory` and
            its worker is replaced.

    The workers are a :class:`pebble.ProcessPool` (``forkserver``, else ``spawn``: never a
    fork of a threaded server), which starts them, kills one whose job is cancelled and
    replaces one that died. The queue is kept here, so that each job knows its position
    and a cancelled queued job never reaches a worker: pebble is handed a job only when a
    worker is free. Each running job has its own pipe, which carries its progress events
    to the pool and a cancel to the job. A thread of the pool reads those pipes and
    enforces the deadlines; it starts with the first job.
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        grace: float = 0.5,
        idle_seconds: float = 60.0,
        abandon_after: float | None = 10.0,
        memory_mb: int | Literal["environment"] | None = "environment",
    ) -> None:
        self.max_workers = default_workers() if workers is None else int(workers)
        # 0 is no cap, as in the environment variable
        self.memory_mb = (memory_cap_mb() if memory_mb == "environment" else memory_mb) or None
        if self.max_workers < 1:
            raise InputError(f"A job pool needs at least 1 worker, got {workers}.")
        self.grace, self.idle_seconds, self.abandon_after = grace, idle_seconds, abandon_after
        self._lock = threading.RLock()
        self._queue: deque[Job] = deque()
        self._running: list[Job] = []  # handed to the workers
        self._workers: pebble.ProcessPool | None = None
        self._retired: list[pebble.ProcessPool] = []  # idle or broken: to stop
        self._idle_since = time.monotonic()
        self._pids: set[int] = set()
        self._ids = itertools.count(1)
        self._wake_reader, self._wake_writer = multiprocessing.Pipe(duplex=False)
        self._thread: threading.Thread | None = None
        self._closed = False

    # -- what callers use

    def submit(
        self,
        function: Callable[..., Any],
        args: Sequence[Any] = (),
        kwargs: Mapping[str, Any] | None = None,
        *,
        callbacks: Mapping[str, str] | None = None,
    ) -> Job:
        """Queue ``function(*args, **kwargs, **callbacks)``; return its :class:`Job`.

        ``callbacks`` maps keyword argument names to :data:`EVERY` or :data:`LATEST`.
        """
        callbacks = dict(callbacks or {})
        for name, mode in callbacks.items():
            if mode not in (EVERY, LATEST):
                raise ValueError(f"Callback {name!r}: mode must be EVERY or LATEST, not {mode!r}.")
        with self._lock:
            if self._closed:
                raise RuntimeError("The job pool is shut down.")
            task = (function, tuple(args), dict(kwargs or {}), callbacks)
            job = Job(self, next(self._ids), task)
            self._queue.append(job)
            self._start_queued()
            if self._thread is None:
                self._thread = threading.Thread(target=self._dispatch, name="job-pool", daemon=True)
                self._thread.start()
        self._wake()
        return job

    def cancel(self, job: Job) -> None:
        """Cancel ``job``: a queued job leaves the queue; a running one is asked to stop.

        A running job that has not stopped within ``grace`` seconds has its worker
        killed. Cancelling a finished job does nothing.
        """
        with self._lock:
            if job.finished:
                return
            if job in self._queue:
                self._queue.remove(job)
                job._finish(CANCELLED)
                self._renumber()
                return
            self._ask_to_stop(job)
        self._wake()

    def counts(self) -> tuple[int, int]:
        """``(running, queued)`` jobs now."""
        with self._lock:
            return len(self._running), len(self._queue)

    def worker_pids(self) -> list[int]:
        """Process ids of the live workers that have run a job (for tests and benchmarks)."""
        with self._lock:
            self._pids = {pid for pid in self._pids if _alive(pid)}
            return sorted(self._pids)

    def shutdown(self) -> None:
        """Cancel every job and stop the workers and the pool's thread."""
        with self._lock:
            self._closed = True
            for job in [*self._queue, *self._running]:
                job._finish(CANCELLED)
            self._queue.clear()
            self._running.clear()
            workers, self._workers = self._workers, None
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=5)
        for pool in [workers, *self._retired]:
            if pool is not None:
                pool.stop()
                pool.join()

    # -- handing jobs to the workers, and their outcomes

    def _start_queued(self) -> None:
        """Hand queued jobs to pebble while a worker is free; renumber the rest."""
        while self._queue and len(self._running) < self.max_workers:
            job = self._queue.popleft()
            if self._workers is None or not self._workers.active:  # first, idle, or broken
                self._retired += [self._workers] if self._workers is not None else []
                self._workers = pebble.ProcessPool(
                    self.max_workers, initializer=_prepare_worker, context=_WorkerContext()
                )
            job._conn, job._worker_end = multiprocessing.Pipe()
            task = (self.memory_mb, *job._task, job._worker_end)
            job._future = self._workers.schedule(_run_job, task)
            self._running.append(job)
            job._future.add_done_callback(functools.partial(self._finished, job))
        self._renumber()

    def _finished(self, job: Job, future: Future) -> None:
        """Pebble's news that ``job`` ended (in its thread, or in one that cancelled it)."""
        with self._lock:
            self._read(job)  # every event was sent before the outcome
            if job._conn is not None:
                job._conn.close()
                job._conn = None
            if job in self._running:
                self._running.remove(job)
            if not job.finished:
                job._finish(*self._outcome(job, future))
            if not self._running and not self._queue:
                self._idle_since = time.monotonic()
            if not self._closed:
                self._start_queued()
        self._wake()

    def _outcome(self, job: Job, future: Future) -> tuple[str, Any, Exception | None]:
        """``(state, result, error)`` of a job whose future is done."""
        if future.cancelled() or job.kill_at is not None:
            return CANCELLED, None, None
        error = future.exception()
        if isinstance(error, ProcessExpired) and error.exitcode == OUT_OF_MEMORY_EXIT:
            return FAILED, None, JobOutOfMemory(self.memory_mb or 0)
        if isinstance(error, ProcessExpired):  # e.g. killed for its memory by the system
            return FAILED, None, InputError(self._died_message(error.exitcode))
        if isinstance(error, (pickle.PicklingError, AttributeError, TypeError)):
            return FAILED, None, JobFailed(f"The job could not be started: {error}")
        if error is not None:
            return FAILED, None, JobFailed(f"The job failed: {type(error).__name__}: {error}")
        kind, *payload = future.result()
        if kind == "done":
            try:
                return DONE, pickle.loads(payload[0]), None
            except Exception as error:
                return FAILED, None, JobFailed(f"Its result could not be read back: {error}")
        if kind == "cancelled":
            return CANCELLED, None, None
        if kind == "input_error":
            return FAILED, None, InputError(payload[0])
        return FAILED, None, JobFailed(f"The job failed: {payload[0]}", payload[1])

    def _died_message(self, code: int | None) -> str:
        cap = f" (this server allows {self.memory_mb:,} MB per job)" if self.memory_mb else ""
        return (
            f"The worker process running this job stopped unexpectedly (exit code {code}); "
            f"it may have run out of memory{cap}: try smaller settings."
        )

    def _ask_to_stop(self, job: Job) -> None:
        """Ask a running job to stop at its next callback; it is killed after ``grace``."""
        if job.kill_at is None and job._conn is not None:
            job.kill_at = time.monotonic() + self.grace
            with contextlib.suppress(OSError, ValueError):
                job._conn.send("cancel")

    # -- the pool's thread: reads the jobs' pipes, enforces the deadlines

    def _wake(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._wake_writer.send_bytes(b".")

    def _renumber(self) -> None:
        for position, job in enumerate(self._queue, start=1):
            if job.position != position:
                job.position = position
                job._changed.notify_all()

    def _dispatch(self) -> None:
        while True:
            with self._lock:
                if self._closed:
                    return
                timeout = self._step(time.monotonic())
                retired, self._retired = self._retired, []
                jobs = {job._conn: job for job in self._running if job._conn is not None}
            for pool in retired:  # outside the lock: its threads may be reporting to us
                pool.stop()
                pool.join()
            try:
                ready = wait([self._wake_reader, *jobs], timeout=timeout)
            except (OSError, ValueError):  # a job's pipe was closed meanwhile: it ended
                continue
            with self._lock:
                for conn in ready:
                    if conn is self._wake_reader:
                        while conn.poll():
                            conn.recv_bytes()
                    else:
                        self._read(jobs[conn])

    def _read(self, job: Job) -> None:
        """Take what ``job``'s worker has sent: that it started, and its events."""
        try:
            while job._conn is not None and job._conn.poll():
                kind, payload = job._conn.recv()
                if kind == "started":  # the worker has its end of the pipe now
                    job._worker_end.close()
                    self._pids.add(payload)
                    job.state, job.started, job.worker_pid = RUNNING, time.monotonic(), payload
                    job._changed.notify_all()
                elif job.kill_at is None:
                    job._events.append(payload)
        except (EOFError, OSError):  # its worker died (pebble reports how)
            job._conn.close()
            job._conn = None

    def _step(self, now: float) -> float:
        """Enforce the deadlines; return the seconds until the next one."""
        deadlines = [1.0]
        for job in list(self._running):
            if job.kill_at is not None and now >= job.kill_at:
                job._future.cancel()  # pebble kills its worker; the job ends cancelled
            elif job.kill_at is not None:
                deadlines.append(job.kill_at - now)
            elif self.abandon_after is not None and now - job.touched > self.abandon_after:
                self._ask_to_stop(job)
                deadlines.append(self.grace)
        for job in list(self._queue):
            if self.abandon_after is not None and now - job.touched > self.abandon_after:
                self._queue.remove(job)
                job._finish(CANCELLED)
        self._renumber()
        if self.abandon_after is not None and (self._queue or self._running):
            deadlines.append(self.abandon_after / 4)
        if self._workers is not None and not self._running and not self._queue:
            if now - self._idle_since >= self.idle_seconds:  # the workers exit
                self._retired.append(self._workers)
                self._workers = None
            else:
                deadlines.append(self._idle_since + self.idle_seconds - now)
        return max(0.01, min(deadlines))


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists (a worker is reaped by the process that started it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
