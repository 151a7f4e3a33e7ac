"""Ready every game's compiled exact solver: load its machine code, compiling it once if need be.

Exact solvers (Othello's endgame, Connect Four's) compile their inner search with numba
on first use and keep the machine code in numba's disk cache (beside the source when that
folder is writable, else ``~/.cache/numba`` or ``NUMBA_CACHE_DIR``; without a writable one,
each process compiles: :mod:`lib.games.jit`). Compiling takes seconds, once per install
and CPU; loading from the cache takes a fraction of a second.
Running this module fills the cache ahead of the first visitor: the container build does,
and a server starts it in a separate process (:mod:`lib.ui.server`), so the compiler never
holds the server's interpreter. While that process compiles (:func:`compiling_elsewhere`),
a search in the server does not wait for it: it plays without the exact solver, and says so
(a fresh install's first AI move otherwise stalled 17 s to 2 minutes while it compiled).

    python -m lib.games.compiled_code
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import threading
import time
from collections.abc import Iterator

from lib.games.core import available_games


class _WarmUps:
    """How many warm-ups of this process are compiling the solvers in another process now.

    One per process, like the compiled code it is about: every session of a server shares
    the solvers, and so whether they are being compiled.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running = 0

    @contextlib.contextmanager
    def running(self) -> Iterator[None]:
        with self._lock:
            self._running += 1
        try:
            yield
        finally:
            with self._lock:
                self._running -= 1

    def any(self) -> bool:
        return self._running > 0


_WARM_UPS = _WarmUps()


def warming_up() -> contextlib.AbstractContextManager[None]:
    """Mark the block as this process's warm-up compiling the solvers elsewhere."""
    return _WARM_UPS.running()


def compiling_elsewhere() -> bool:
    """True while a warm-up of this process compiles the solvers in another process: loading
    them here now would compile them a second time, for seconds, in this interpreter."""
    return _WARM_UPS.any()


def solvers_with_compiled_code() -> list[str]:
    """The modules of the games' exact solvers that have compiled code (a ``load_compiled``)."""
    modules = []
    for game in available_games().values():
        if game.exact_solver and hasattr(
            importlib.import_module(game.exact_solver), "load_compiled"
        ):
            modules.append(game.exact_solver)
    return modules


def load_all() -> dict[str, float]:
    """Load (or compile) each solver's compiled code; the seconds each took, by module."""
    seconds = {}
    for name in solvers_with_compiled_code():
        started = time.perf_counter()
        importlib.import_module(name).load_compiled()
        seconds[name] = time.perf_counter() - started
    return seconds


def main() -> int:
    """Load every compiled solver and say how long each took."""
    for name, took in load_all().items():
        print(f"{name}: compiled code ready in {took:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
