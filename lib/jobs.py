"""A bounded pool of worker processes shared by every session of a server.

Heavy jobs (an Arena study, the portfolio GA at its caps, an all-pairs route comparison)
run here instead of in the server's interpreter, so one visitor's job does not hold the
GIL while everyone else clicks. The pool has a fixed number of workers (at most that many
jobs run at once); further jobs wait in a first-in, first-out queue that tells each job its
position. A job can be cancelled: a queued job leaves the queue, a running one is asked to
stop at its next progress callback and, if it has not stopped within a short grace period
(a search deep inside one move calls nothing back), its worker process is killed and
replaced, so no CPU is spent on work nobody waits for. Each worker's private data is
capped (:func:`memory_cap_mb`): a job that needs more fails with :class:`JobOutOfMemory`, a
plain message for the visitor, and its worker is replaced, so one runaway job cannot take
the server's memory.

A job is a module-level function (it is pickled by name) called in a worker as
``function(*args, **kwargs)``. Its progress callbacks are named keyword arguments
(``callbacks={"on_generation": EVERY, "on_move": LATEST}``): the worker passes a callable
for each, and each call's arguments come back to the caller as a :class:`JobEvent`, in
order. ``EVERY`` forwards every call (a generation's statistics for a live chart);
``LATEST`` at most one call per :data:`LATEST_EVERY` seconds (a "move 12" line).
Every forwarded callback is also where a cancelled job stops.

>>> pool = JobPool(workers=1)                     # doctest: +SKIP
>>> job = pool.submit(run_ga, (table, config), callbacks={"on_generation": EVERY})  # doctest: +SKIP
>>> while not job.finished: job.wait(0.25); rows += job.take_events()  # doctest: +SKIP
>>> job.result()                                  # doctest: +SKIP

Nothing here imports Streamlit: :mod:`lib.ui.jobs` creates one pool per server
(``st.cache_resource``) and draws the queue position, progress and Cancel.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
import types
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Literal

from lib.errors import InputError
from lib.settings import setting, whole_number

try:
    import resource
except ImportError:  # Windows has no resource module: its workers have no memory cap
    resource = None  # type: ignore[assignment]

WORKERS_ENV = "AI_SEARCH_LAB_JOB_WORKERS"
"""Environment variable setting the number of worker processes (concurrent heavy jobs).

Its old name is still read for a release (:data:`lib.settings.RENAMED`), as is
:data:`MEMORY_ENV`'s."""

MEMORY_ENV = "AI_SEARCH_LAB_JOB_MEMORY_MB"
"""Environment variable setting each worker's memory cap in MB (``0`` or ``off``: none)."""

DEFAULT_MEMORY_MB = 480
"""Each worker's data cap in MB without ``$AI_SEARCH_LAB_JOB_MEMORY_MB``.

The cap is on a worker's private data (``RLIMIT_DATA``: its heap and the arrays it fills),
not on its address space, which also counts the libraries mapped: numba's LLVM alone maps
about 200 MB it never fills, and a worker capped at 600 MB of address space could not load
it (a formula player reaching the compiled endgame solver failed). ``bench/job_memory.py``
measured the heaviest jobs a hosted server allows at 176–325 MB of data (147–381 MB
resident): the GA at its caps 176 (263 on the widest table it takes), an Arena study or a
depth-7 search 196–198, an evolution 196, every route algorithm on a 2,000-place map 225,
a ladder with a formula player 251, a game ended by each compiled solver 236–253, and the
Othello solver compiled in the worker itself (a cold cache) 325. 480 MB leaves the
heaviest about half as much again, and stops a runaway job before it takes a small
server's memory: resident memory stays near the data plus about 60 MB of library code."""

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

NICENESS_ENV = "AI_SEARCH_LAB_JOB_NICENESS"
"""Environment variable setting how much lower than the server a worker's CPU priority is."""

WORKER_NICENESS = 10
"""How much lower than the server a worker's CPU priority is (Unix ``nice``), without
``$AI_SEARCH_LAB_JOB_NICENESS``: when the CPU is short, the server's answer to a click
comes before a heavy job's next step. Linux shares a busy core by weight, 1024 for the
server against 110 for a worker at 10: the server gets about 90 % of a core it has to
share with one worker, which is why the workers may take every core
(:func:`default_workers`)."""

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
    """The number of workers: ``$AI_SEARCH_LAB_JOB_WORKERS``, else the CPU count (at most
    :data:`MAX_DEFAULT_WORKERS`).

    The server's share of the CPU is kept by priority, not by a core left idle: the
    workers run :data:`WORKER_NICENESS` lower (:func:`worker_niceness`), so a click the
    server answers takes the CPU from them whenever it needs it, and a second job starts
    at once instead of queueing behind the first. Raises :class:`InputError` if the
    variable is not a whole number ≥ 1.
    """
    default = min(MAX_DEFAULT_WORKERS, max(1, os.cpu_count() or 1))
    expected = "a whole number of at least 1"
    return setting(WORKERS_ENV, whole_number(1), default, expected=expected, environ=environ)


def worker_niceness(environ: Mapping[str, str] | None = None) -> int:
    """How much lower than the server the workers' CPU priority is:
    ``$AI_SEARCH_LAB_JOB_NICENESS``, else :data:`WORKER_NICENESS`.

    0 (the server's own priority) to 19 (the lowest Unix has). Raises :class:`InputError`
    if the variable is not a whole number in that range.
    """
    expected = "a whole number from 0 to 19"
    return setting(NICENESS_ENV, _niceness, WORKER_NICENESS, expected=expected, environ=environ)


def _niceness(text: str) -> int:
    value = whole_number(0)(text)
    if value > 19:
        raise ValueError(text)
    return value


def memory_cap_mb(environ: Mapping[str, str] | None = None) -> int | None:
    """Each worker's memory cap in MB: ``$AI_SEARCH_LAB_JOB_MEMORY_MB``, else
    :data:`DEFAULT_MEMORY_MB`; None (no cap) for ``0`` / ``off`` or where the platform
    cannot cap a process (no :mod:`resource`, e.g. Windows).

    The cap is on the worker's private data (``RLIMIT_DATA``: heap, arrays, anything it
    writes), not its address space: libraries mapped but never filled (numba's LLVM maps
    about 200 MB) do not count, so no legitimate job is refused for loading one. A worker
    that has imported the app's libraries holds about 250 MB of data
    (``bench/job_memory.py`` prints each heavy job's peaks). The kernel enforces the cap
    at once on Linux: an allocation past it fails (a :class:`MemoryError`) instead of the
    machine running out.
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


# -- what the pool and a worker say to each other -----------------------------------------


@dataclass(frozen=True)
class _Run:
    """Pool to worker: run ``function(*args, **kwargs)`` with these progress callbacks."""

    job_id: int
    function: Callable[..., Any]
    args: tuple
    kwargs: dict[str, Any]
    callbacks: dict[str, str]  # keyword argument -> EVERY or LATEST


@dataclass(frozen=True)
class _Cancel:
    """Pool to worker: stop job ``job_id`` at its next callback."""

    job_id: int


EVENT, OUT_OF_MEMORY, FINISHED = "event", "out of memory", "finished"


@dataclass(frozen=True)
class _Report:
    """Worker to pool, about job ``job_id`` (None: the job it was being sent).

    ``kind`` is :data:`EVENT` (``event`` holds a callback's call), :data:`OUT_OF_MEMORY`
    (the worker leaves), or :data:`FINISHED` with the job's end ``state`` (:data:`DONE`,
    :data:`CANCELLED`, :data:`FAILED`) and its ``result``, or for a failure its
    ``message``, ``details`` (a traceback) and whether it was the visitor's
    ``input_error``.
    """

    kind: str
    job_id: int | None
    event: JobEvent | None = None
    state: str = ""
    result: Any = None
    message: str = ""
    details: str = ""
    input_error: bool = False


# -- the worker process ---------------------------------------------------------------------


class _Forwarder:
    """The callable a worker passes to the job for one callback name.

    Each call first checks whether the job was cancelled (raising :class:`JobCancelled`),
    then sends its arguments to the pool (every call, or at most one per
    :data:`LATEST_EVERY` seconds for ``LATEST``).
    """

    def __init__(self, link: _WorkerLink, name: str, mode: str) -> None:
        self.link, self.name, self.mode = link, name, mode
        self.last = -float("inf")

    def __call__(self, *args: Any) -> None:
        self.link.check_cancelled()
        if self.mode == LATEST:
            now = time.monotonic()
            if now - self.last < LATEST_EVERY:
                return
            self.last = now
        self.link.send(_Report(EVENT, self.link.job_id, event=JobEvent(self.name, args)))


class _WorkerLink:
    """The worker's end of its pipe to the pool, for the job it runs now."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.job_id = -1
        self.cancelled = False

    def send(self, report: _Report) -> None:
        self.conn.send(report)

    def check_cancelled(self) -> None:
        """Read any cancel message for the running job; raise :class:`JobCancelled` if so."""
        while not self.cancelled and self.conn.poll():
            message = self.conn.recv()
            if message == _Cancel(self.job_id):
                self.cancelled = True
        if self.cancelled:
            raise JobCancelled


def _cap_memory(megabytes: int | None) -> None:
    """Cap this process's private data at ``megabytes`` (``RLIMIT_DATA``: a bigger
    allocation raises :class:`MemoryError`), never above the hard limit it already has."""
    if megabytes is None or resource is None:
        return
    limit = megabytes * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))


def _ran_out_of_memory(error: BaseException) -> bool:
    """Whether ``error`` (or what it was raised from) says memory ran out.

    A :class:`MemoryError`, or an :class:`OSError` of ``ENOMEM``, or a shared library that
    could not be mapped (``dlopen``'s "failed to map segment", which libraries such as
    llvmlite re-raise as an ``OSError`` of their own wording).
    """
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, MemoryError):
            return True
        if isinstance(error, OSError) and (
            error.errno == errno.ENOMEM or "failed to map segment" in str(error)
        ):
            return True
        error = error.__cause__ or error.__context__
    return False


def _worker_main(
    conn: Connection, memory_mb: int | None = None, niceness: int = WORKER_NICENESS
) -> None:
    """A worker's loop: run each job it is sent and send back events and the outcome.

    The worker first lowers its CPU priority by ``niceness`` (a heavy job yields the CPU
    to the clicks the server answers). A job that runs out of the worker's memory
    (``memory_mb``) is reported as such and the worker exits, so the pool replaces it with
    a fresh process.
    """
    with contextlib.suppress(OSError, AttributeError):  # Windows has no nice
        os.nice(niceness)
    for name, value in WORKER_ENVIRONMENT.items():
        os.environ.setdefault(name, value)
    _cap_memory(memory_mb)
    link = _WorkerLink(conn)
    while True:
        try:
            message = conn.recv()
        except EOFError:  # the pool is gone
            return
        except MemoryError:  # receiving the job (its arguments, its modules' imports)
            with contextlib.suppress(Exception):
                link.send(_Report(OUT_OF_MEMORY, None))
            return
        if message is None:
            return
        if not isinstance(message, _Run):
            continue  # a cancel for a job that already finished
        report = _run_job(link, message)
        if report.kind == OUT_OF_MEMORY:  # say so and leave: its memory goes with the process
            with contextlib.suppress(Exception):
                link.send(report)
            return  # a fresh worker takes the next job
        try:
            link.send(report)
        except Exception as error:  # e.g. a result that cannot be pickled
            message = f"its result could not be sent back: {error}"
            link.send(_Report(FINISHED, report.job_id, state=FAILED, message=message))


def _run_job(link: _WorkerLink, run: _Run) -> _Report:
    """Run the job ``run`` asks for in this worker; the report of how it ended."""
    link.job_id, link.cancelled = run.job_id, False
    forwarders = {name: _Forwarder(link, name, mode) for name, mode in run.callbacks.items()}
    try:
        result = run.function(*run.args, **run.kwargs, **forwarders)
        return _Report(FINISHED, run.job_id, state=DONE, result=result)
    except MemoryError:
        return _Report(OUT_OF_MEMORY, run.job_id)
    except JobCancelled:
        return _Report(FINISHED, run.job_id, state=CANCELLED)
    except InputError as error:
        return _Report(FINISHED, run.job_id, state=FAILED, message=str(error), input_error=True)
    except Exception as error:  # reported to the page, never a crash of the worker
        if _ran_out_of_memory(error):  # e.g. a library that could not be loaded
            return _Report(OUT_OF_MEMORY, run.job_id)
        message, details = f"{type(error).__name__}: {error}", _trace()
        return _Report(FINISHED, run.job_id, state=FAILED, message=message, details=details)


def _trace() -> str:
    return traceback.format_exc()


# -- the pool (in the server) ---------------------------------------------------------------


class Job:
    """One job submitted to a :class:`JobPool`: its state, queue position, events and result.

    Read it from the thread that submitted it: :meth:`wait` for news, :meth:`take_events`
    for the callbacks' calls since the last take, :meth:`result` once finished.
    """

    def __init__(self, pool: JobPool, request: _Run) -> None:
        self._pool = pool
        self.id = request.job_id
        self.request = request  # what its worker is sent
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
        self.expected: float | None = None  # seconds its submitter expects it to run
        self.fraction: float | None = None  # how much of it is done, as its owner last heard
        self.unattended = False  # nobody waits for it (a warm-up): never abandoned

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

    def progressed(self, fraction: float) -> None:
        """Its owner heard that ``fraction`` (0 to 1) of it is done: a queued job's wait
        behind it is estimated from that while no job of its kind has finished here."""
        with self._pool._lock:
            self.fraction = min(1.0, max(0.0, float(fraction)))

    def seconds_expected(self, typical: float | None, now: float) -> float | None:
        """Seconds this job runs in all, as far as is known: projected from its own
        progress once running (at least 2 % done), else ``typical`` (how long its kind took
        here), else what its submitter expected; None if nothing says."""
        if self.started is not None and self.fraction is not None and self.fraction >= 0.02:
            return (now - self.started) / self.fraction
        return typical if typical is not None else self.expected

    # -- its changes, made by its pool's dispatcher (under the pool's lock)

    def queued_at(self, position: int) -> None:
        """It is now ``position`` in the queue (1: next to start)."""
        if self.position != position:
            self.position = position
            self._changed.notify_all()

    def started_in(self, pid: int | None, now: float) -> None:
        """A worker (process ``pid``) has started it at ``now``."""
        self.state, self.started, self.worker_pid, self.position = RUNNING, now, pid, None
        self._changed.notify_all()

    def add_event(self, event: JobEvent) -> None:
        """Its worker forwarded a callback's call (taken by :meth:`take_events`)."""
        self._events.append(event)

    def finish(self, state: str, result: Any = None, error: Exception | None = None) -> None:
        """It ended: ``state`` (done, failed, cancelled), with its result or error."""
        self.state, self._result, self._error = state, result, error
        self.position = self.worker_pid = None
        self._changed.notify_all()


def job_kind(function: Callable[..., Any]) -> str:
    """The name a job's function is known by (its module and name): jobs of one kind take
    alike long, which is what a queued job's wait is estimated from."""
    return f"{getattr(function, '__module__', '?')}.{getattr(function, '__qualname__', '?')}"


class _Durations:
    """How long each kind of job has taken to run on this pool: a moving average."""

    WEIGHT = 0.3  # of the latest run against the average so far

    def __init__(self) -> None:
        self._seconds: dict[str, float] = {}

    def record(self, kind: str, seconds: float) -> None:
        old = self._seconds.get(kind)
        self._seconds[kind] = seconds if old is None else old + self.WEIGHT * (seconds - old)

    def typical(self, kind: str) -> float | None:
        """The usual seconds of a job of ``kind``; None before one has finished."""
        return self._seconds.get(kind)


class _Worker:
    """The pool's side of one worker process."""

    def __init__(
        self,
        context: multiprocessing.context.BaseContext,
        memory_mb: int | None = None,
        niceness: int = WORKER_NICENESS,
    ) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=_worker_main, args=(child, memory_mb, niceness), daemon=True
        )
        # A new process (spawn, forkserver) first runs the parent's ``__main__`` file again.
        # In a Streamlit server that is the page being run (its script runner installs the
        # page as ``__main__``): a worker would draw the page. Hide it while starting, and
        # put it back unless a script run installed another one meanwhile.
        main, bare = sys.modules.get("__main__"), types.ModuleType("__main__")
        sys.modules["__main__"] = bare
        try:
            self.process.start()
        finally:
            if sys.modules.get("__main__") is bare and main is not None:
                sys.modules["__main__"] = main
        child.close()
        self.job: Job | None = None
        self.kill_at: float | None = None  # set when its job was cancelled
        self.idle_since = time.monotonic()

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.process.kill()
        else:
            with contextlib.suppress(OSError, ValueError):
                self.conn.send(None)
        self.process.join(timeout=2)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=2)
        self.conn.close()


class JobPool:
    """A fixed number of worker processes running submitted jobs, first come, first served.

    Args:
        workers: most jobs running at once (default :func:`default_workers`).
        grace: seconds a cancelled running job has to stop at a callback before its
            worker process is killed (and replaced when needed).
        idle_seconds: a worker idle this long exits (its memory goes back to the
            system); the next job starts a new one.
        abandon_after: a job whose owner has not called :meth:`Job.wait` for this many
            seconds is cancelled (its page is gone without saying so).
        memory_mb: each worker's data cap in MB (default :func:`memory_cap_mb`;
            None or 0: no cap). A job that needs more fails with :class:`JobOutOfMemory` and
            its worker is replaced.
        niceness: how much lower than the server the workers' CPU priority is (default
            :func:`worker_niceness`).

    Workers start on demand (``forkserver``, else ``spawn``: never a fork of a threaded
    server). A dispatcher thread starts jobs, collects what workers send and enforces
    the deadlines; it starts with the first job.
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        grace: float = 0.5,
        idle_seconds: float = 60.0,
        abandon_after: float | None = 10.0,
        memory_mb: int | Literal["environment"] | None = "environment",
        niceness: int | None = None,
    ) -> None:
        self.max_workers = default_workers() if workers is None else int(workers)
        # 0 is no cap, as in the environment variable
        self.memory_mb = (memory_cap_mb() if memory_mb == "environment" else memory_mb) or None
        self.niceness = worker_niceness() if niceness is None else niceness
        if self.max_workers < 1:
            raise InputError(f"A job pool needs at least 1 worker, got {workers}.")
        self.grace, self.idle_seconds, self.abandon_after = grace, idle_seconds, abandon_after
        methods = multiprocessing.get_all_start_methods()
        self._context = multiprocessing.get_context(
            "forkserver" if "forkserver" in methods else "spawn"
        )
        self._lock = threading.RLock()
        self._queue: deque[Job] = deque()
        self._workers: list[_Worker] = []
        self._ids = itertools.count(1)
        self._durations = _Durations()
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
        expected_seconds: float | None = None,
    ) -> Job:
        """Queue ``function(*args, **kwargs, **callbacks)``; return its :class:`Job`.

        ``callbacks`` maps keyword argument names to :data:`EVERY` or :data:`LATEST`.
        ``expected_seconds``: how long the submitter expects it to run (e.g. its time
        cap), for the wait of jobs queued behind it until one of its kind has finished.
        """
        callbacks = dict(callbacks or {})
        for name, mode in callbacks.items():
            if mode not in (EVERY, LATEST):
                raise ValueError(f"Callback {name!r}: mode must be EVERY or LATEST, not {mode!r}.")
        with self._lock:
            if self._closed:
                raise RuntimeError("The job pool is shut down.")
            request = _Run(next(self._ids), function, tuple(args), dict(kwargs or {}), callbacks)
            job = Job(self, request)
            job.expected = expected_seconds
            self._queue.append(job)
            self._renumber()
            if self._thread is None:
                self._thread = threading.Thread(target=self._dispatch, name="job-pool", daemon=True)
                self._thread.start()
        self._wake()
        return job

    def submit_if_idle(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Job | None:
        """:meth:`submit` (the same arguments), but only when a live worker has nothing to do
        (and no queued job is waiting for it), so the job starts at once in a process that
        has run jobs before; None otherwise, and nothing is queued."""
        with self._lock:
            if self.idle_workers() <= len(self._queue):
                return None
            return self.submit(function, *args, **kwargs)

    def idle_workers(self) -> int:
        """Live workers with no job now."""
        with self._lock:
            return sum(
                w.job is None and w.kill_at is None and w.process.is_alive() for w in self._workers
            )

    def fill(self, function: Callable[..., Any], args: Sequence[Any] = ()) -> int:
        """Start every worker the pool may still start, each on ``function(*args)`` (a
        warm-up: importing what its jobs need); how many were started."""
        with self._lock:
            missing = self.max_workers - len(self._workers) - len(self._queue)
            for _ in range(max(0, missing)):
                self.submit(function, args).unattended = True
            return max(0, missing)

    def cancel(self, job: Job) -> None:
        """Cancel ``job``: a queued job leaves the queue; a running one is asked to stop.

        A running job that has not stopped within ``grace`` seconds has its worker
        killed. Cancelling a finished job does nothing.
        """
        with self._lock:
            if job.finished:
                return
            if job.state == QUEUED:
                self._queue.remove(job)
                job.finish(CANCELLED)
                self._renumber()
                return
            for worker in self._workers:
                if worker.job is job and worker.kill_at is None:
                    worker.kill_at = time.monotonic() + self.grace
                    with contextlib.suppress(OSError, ValueError):
                        worker.conn.send(_Cancel(job.id))
        self._wake()

    def counts(self) -> tuple[int, int]:
        """``(running, queued)`` jobs now."""
        with self._lock:
            return sum(w.job is not None for w in self._workers), len(self._queue)

    def estimated_wait(self, job: Job, now: float | None = None) -> float | None:
        """Seconds until queued ``job`` starts: the running jobs' time left and those ahead
        of it in the queue, shared among the workers.

        Each job's length is what :meth:`Job.seconds_expected` knows: its own progress
        once running, else how long jobs of its kind took here, else what its submitter
        expected. A job of which none of that is known counts as long as the shortest
        known (a rough figure, but a figure; the longest made a quick comparison queued
        behind a half-hour study read as half an hour). 0 for a job that is not queued; None while
        nothing at all is known (no job has finished here, none has said how far it is).
        """
        now = time.monotonic() if now is None else now
        with self._lock:
            if job.state != QUEUED or job not in self._queue:
                return 0.0
            running = [w.job for w in self._workers if w.job is not None]
            ahead = list(itertools.takewhile(lambda queued: queued is not job, self._queue))
            lengths = {
                other.id: other.seconds_expected(
                    self._durations.typical(job_kind(other.request.function)), now
                )
                for other in (*running, *ahead)
            }
            known = [seconds for seconds in lengths.values() if seconds is not None]
            if len(known) < len(lengths) and not known:
                return None
            stand_in = min(known, default=0.0)
            free_at = [0.0] * self.max_workers  # seconds from now until each worker is free
            for slot, other in enumerate(running):
                length = lengths[other.id] if lengths[other.id] is not None else stand_in
                free_at[slot] = max(0.0, length - (now - (other.started or now)))
            for other in ahead:
                slot = free_at.index(min(free_at))
                free_at[slot] += lengths[other.id] if lengths[other.id] is not None else stand_in
            return min(free_at)

    def worker_pids(self) -> list[int]:
        """Process ids of the live workers (for tests and the load benchmark)."""
        with self._lock:
            return [w.process.pid for w in self._workers if w.process.pid is not None]

    def shutdown(self) -> None:
        """Cancel every job and stop the workers and the dispatcher thread."""
        with self._lock:
            self._closed = True
            for job in list(self._queue):
                job.finish(CANCELLED)
            self._queue.clear()
            workers, self._workers = self._workers, []
            for worker in workers:
                if worker.job is not None:
                    worker.job.finish(CANCELLED)
        for worker in workers:
            worker.stop(kill=True)
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=5)

    # -- the dispatcher thread

    def _wake(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._wake_writer.send_bytes(b".")

    def _renumber(self) -> None:
        for position, job in enumerate(self._queue, start=1):
            job.queued_at(position)

    def _dispatch(self) -> None:
        while True:
            with self._lock:
                if self._closed:
                    return
                timeout = self._step(time.monotonic())
                conns = [w.conn for w in self._workers]
            ready = wait([self._wake_reader, *conns], timeout=timeout)
            for conn in ready:
                if conn is self._wake_reader:
                    with contextlib.suppress(EOFError, OSError):
                        while conn.poll():
                            conn.recv_bytes()
                    continue
                self._receive(conn)

    def _step(self, now: float) -> float:
        """Enforce deadlines and start queued jobs; return the seconds until the next deadline."""
        deadlines = [1.0]
        for worker in list(self._workers):
            job = worker.job
            if job is not None and worker.kill_at is not None and now >= worker.kill_at:
                self._retire(worker, kill=True)
                job.finish(CANCELLED)
                continue
            if job is not None and worker.kill_at is not None:
                deadlines.append(worker.kill_at - now)
            if (
                job is not None
                and worker.kill_at is None
                and self.abandon_after is not None
                and not job.unattended
                and now - job.touched > self.abandon_after
            ):
                worker.kill_at = now + self.grace
                with contextlib.suppress(OSError, ValueError):
                    worker.conn.send(_Cancel(job.id))
                deadlines.append(self.grace)
            idle_for = now - worker.idle_since
            if job is None and (not worker.process.is_alive() or idle_for > self.idle_seconds):
                self._retire(worker)  # it died on its own, or idled long enough to exit
            elif job is None:
                deadlines.append(worker.idle_since + self.idle_seconds - now)
        for job in list(self._queue):
            abandoned = self.abandon_after is not None and now - job.touched > self.abandon_after
            if abandoned and not job.unattended:
                self._queue.remove(job)
                job.finish(CANCELLED)
        while self._queue:
            worker = next((w for w in self._workers if w.job is None), None)
            if worker is None and len(self._workers) < self.max_workers:
                worker = _Worker(self._context, self.memory_mb, self.niceness)
                self._workers.append(worker)
            if worker is None:
                break
            job = self._queue.popleft()
            try:
                worker.conn.send(job.request)
            except OSError:  # the worker left while receiving it (e.g. out of memory):
                pass  # its message, or its end, is read next and says why the job failed
            except Exception as error:  # e.g. an argument that cannot be pickled
                job.finish(FAILED, error=JobFailed(f"The job could not be started: {error}"))
                continue
            worker.job, worker.kill_at = job, None
            job.started_in(worker.process.pid, now)
        self._renumber()
        if self.abandon_after is not None and (self._queue or any(w.job for w in self._workers)):
            deadlines.append(self.abandon_after / 4)
        return max(0.01, min(deadlines))

    def _retire(self, worker: _Worker, kill: bool = False) -> None:
        self._workers.remove(worker)
        worker.stop(kill=kill)

    def _receive(self, conn: Connection) -> None:
        with self._lock:
            worker = next((w for w in self._workers if w.conn is conn), None)
            if worker is None:
                return
            try:
                while worker in self._workers and conn.poll():
                    self._handle(worker, conn.recv())
            except (EOFError, OSError):  # the worker died (killed, out of memory, crashed)
                job = worker.job
                died = "" if worker.kill_at is not None else self._died_message(worker.process)
                self._retire(worker, kill=True)
                if job is not None and not job.finished:
                    if worker.kill_at is not None:
                        job.finish(CANCELLED)
                    else:
                        job.finish(FAILED, error=InputError(died))

    def _died_message(self, process: multiprocessing.process.BaseProcess) -> str:
        """What is known of a worker ``process`` that died under its job: its signal or code.

        Read before the pool kills it: the process is given a moment to be reaped, since
        its pipe closes just before it ends (its exit code is None until then).
        """
        process.join(timeout=2)
        code = process.exitcode
        start = "The worker process running this job stopped unexpectedly"
        cap = f" (this server allows {self.memory_mb:,} MB per job)" if self.memory_mb else ""
        if code is None:
            return f"{start} (its exit status is unknown): try again, or smaller settings."
        if code >= 0:
            return f"{start}: it exited with code {code}; try again, or smaller settings."
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "unknown"
        killed = f"{start}: killed by signal {name} ({-code})"
        if -code == signal.SIGKILL:  # what the system's out-of-memory killer sends
            return (
                f"{killed}, as when the machine runs out of memory{cap}, or stopped by an "
                "administrator: try smaller settings."
            )
        return f"{killed}, sent from outside (the server stopping, or an administrator)."

    def _handle(self, worker: _Worker, report: _Report) -> None:
        job = worker.job
        job_id = report.job_id
        if report.kind == OUT_OF_MEMORY and job_id is None and job is not None:
            job_id = job.id  # it ran out receiving the job it was sent
        if job is None or job.id != job_id:
            return  # news of a job already given up
        if report.kind == EVENT:
            if worker.kill_at is None and report.event is not None:
                job.add_event(report.event)
            return
        worker.job, worker.kill_at = None, None
        worker.idle_since = time.monotonic()
        if report.kind == OUT_OF_MEMORY:  # the worker has left: a fresh one takes the next job
            self._retire(worker)
            job.finish(FAILED, error=JobOutOfMemory(self.memory_mb or 0))
        elif report.state != FAILED:
            if report.state == DONE and job.started is not None:
                seconds = time.monotonic() - job.started
                self._durations.record(job_kind(job.request.function), seconds)
            job.finish(report.state, result=report.result)
        elif report.input_error:
            job.finish(FAILED, error=InputError(report.message))
        else:
            error = JobFailed(f"The job failed: {report.message}", report.details)
            job.finish(FAILED, error=error)
        self._wake()
