"""Executors: where the Arena's games run (this process, a process pool, a Dask cluster).

Every task goes through a :class:`concurrent.futures.Executor`.
:func:`open_executor` builds the three the app and the CLI offer: in-process
(:class:`InlineExecutor`), a local process pool, and a Dask
``Client(address).get_executor()`` (Dask is optional: :func:`dask_available`,
:data:`DASK_INSTALL`). :func:`run_tasks` keeps a bounded number of tasks in
flight on any of them, reports results as they finish and cancels the rest on
request. Tasks must be module-level, pure functions (they pickle by name, and
Dask reruns the tasks of a worker it loses).
"""

from __future__ import annotations

import contextlib
import importlib.util
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from typing import Any

from lib.errors import InputError


class InlineExecutor(Executor):
    """An executor that runs each task in the calling thread when it is submitted.

    For small runs and for Streamlit pages (no extra processes on a shared
    server). The returned future is already finished.
    """

    def __init__(self) -> None:
        self._shutdown = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        """Run ``fn(*args, **kwargs)`` now; return a finished future holding its result."""
        if self._shutdown:
            raise RuntimeError("cannot schedule new futures after shutdown")
        future: Future = Future()
        try:
            result = fn(*args, **kwargs)
        except Exception as error:  # handed to the future, as any executor does
            future.set_exception(error)
        else:
            future.set_result(result)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Refuse further tasks (nothing runs in the background, so nothing to wait for)."""
        self._shutdown = True


EXECUTOR_KINDS = ("inline", "process", "dask")
"""Executors :func:`open_executor` can build."""

DASK_INSTALL = "pip install -r requirements-cluster.txt"
"""The command that installs Dask for the cluster executor (a plain install has none)."""


def dask_available() -> bool:
    """Whether Dask's distributed scheduler can be used here (checked without importing it)."""
    try:
        return all(importlib.util.find_spec(name) is not None for name in ("dask", "distributed"))
    except (ImportError, ValueError):
        return False


def available_executors(kinds: tuple[str, ...] = EXECUTOR_KINDS) -> tuple[str, ...]:
    """``kinds`` without ``"dask"`` when Dask is not installed."""
    return tuple(kind for kind in kinds if kind != "dask" or dask_available())


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A local process pool that is safe to start from a threaded server.

    Uses the ``forkserver`` start method where available (``spawn`` elsewhere)
    rather than forking a process that runs threads (Streamlit, Dask).
    Its workers ignore Ctrl-C (SIGINT, which a terminal sends to every process of the
    command): the command that started them decides what a Ctrl-C stops.
    """
    methods = multiprocessing.get_all_start_methods()
    method = "forkserver" if "forkserver" in methods else "spawn"
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context(method),
        initializer=signal.signal,
        initargs=(signal.SIGINT, signal.SIG_IGN),
    )


@contextlib.contextmanager
def open_executor(
    kind: str = "inline", workers: int | None = None, scheduler: str | None = None
) -> Iterator[Executor]:
    """Yield an executor of ``kind`` and shut it down afterwards.

    ``"inline"`` runs games in this process, ``"process"`` in a local pool of
    ``workers`` processes (default: the CPU count), ``"dask"`` on the Dask
    distributed scheduler at ``scheduler`` (``"tcp://host:8786"``) through
    ``Client(scheduler).get_executor(pure=True)``: a task's key is a hash of its
    function and arguments, so a game Dask reruns after losing a worker keeps its
    key and is computed once. Pending games are cancelled on exit. Raises
    :class:`InputError` naming :data:`DASK_INSTALL` when Dask is not installed.
    """
    if kind not in EXECUTOR_KINDS:
        raise InputError(f"Unknown executor {kind!r}; choose one of {', '.join(EXECUTOR_KINDS)}.")
    if kind == "inline":
        yield InlineExecutor()
        return
    if kind == "process":
        workers = workers or os.cpu_count() or 1
        if workers < 1:
            raise InputError(f"Number of workers must be at least 1, got {workers}.")
        pool = process_pool(workers)
        try:
            yield pool
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        return
    if not scheduler:
        raise InputError("The Dask executor needs a scheduler address, e.g. tcp://127.0.0.1:8786.")
    try:
        from dask.distributed import Client
    except ImportError as error:
        raise InputError(
            f"The Dask executor needs Dask, which is not installed here: run `{DASK_INSTALL}`."
        ) from error
    try:
        client = Client(scheduler, timeout=10, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise InputError(
            f"Could not connect to the Dask scheduler at {scheduler!r} ({error}); "
            "check the address (e.g. tcp://127.0.0.1:8786) and that the scheduler runs."
        ) from error
    executor = client.get_executor(pure=True)
    try:
        yield executor
    except RuntimeError as error:
        if "deserializ" not in str(error):
            raise
        raise InputError(
            f"The Dask cluster at {scheduler!r} cannot import this project's code: start the "
            "scheduler and the workers with the repository on PYTHONPATH."
        ) from error
    finally:
        executor.shutdown(wait=False)
        client.close()


def default_in_flight(executor: Executor) -> int:
    """How many tasks to keep submitted at once on ``executor``.

    One for an :class:`InlineExecutor` (it runs on submit, so the caller sees
    every game finish), otherwise twice the worker count (the pool's, the Dask
    cluster's, or the CPU count), enough to keep workers busy while letting a
    cancel stop the run quickly.
    """
    if isinstance(executor, InlineExecutor):
        return 1
    workers = getattr(executor, "_max_workers", None)
    client = getattr(executor, "_client", None)
    if client is not None:
        with contextlib.suppress(Exception):
            workers = sum(w["nthreads"] for w in client.scheduler_info()["workers"].values())
    return 2 * max(1, int(workers or os.cpu_count() or 1))


def run_tasks(
    function: Callable[..., Any],
    tasks: Sequence[tuple],
    executor: Executor,
    *,
    on_result: Callable[[int, Any], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    max_in_flight: int | None = None,
) -> tuple[dict[int, Any], bool]:
    """Run ``function(*task)`` for every task on ``executor``, at most ``max_in_flight`` at once.

    ``on_result(index, result)`` is called in the calling thread as each task
    finishes (in completion order). ``should_stop()`` is polled after each
    finished task; when it returns True, pending tasks are cancelled. If the
    caller is interrupted (an exception from a callback, ``KeyboardInterrupt``)
    the pending tasks are cancelled and the exception propagates; the results
    already passed to ``on_result`` are the partial result.

    Returns ``(results by task index, completed)``.
    """
    if max_in_flight is None:
        max_in_flight = default_in_flight(executor)
    results: dict[int, Any] = {}
    pending: dict[Future, int] = {}
    queue = iter(enumerate(tasks))
    stopped = False

    def top_up() -> None:
        while len(pending) < max_in_flight:
            item = next(queue, None)
            if item is None:
                return
            index, task = item
            pending[executor.submit(function, *task)] = index

    try:
        top_up()
        while pending:
            finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for future in finished:
                index = pending.pop(future)
                results[index] = future.result()
                if on_result is not None:
                    on_result(index, results[index])
            if should_stop is not None and should_stop():
                stopped = True
                break
            top_up()
    finally:
        for future in pending:
            future.cancel()
    return results, not stopped and len(results) == len(tasks)
