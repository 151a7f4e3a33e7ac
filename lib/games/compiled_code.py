"""Ready every game's compiled exact solver: load its machine code, compiling it once if need be.

Exact solvers (Othello's endgame, Connect Four's) compile their inner search with numba
on first use and keep the machine code in numba's disk cache (beside the source when that
folder is writable, else ``~/.cache/numba`` or ``NUMBA_CACHE_DIR``; without a writable one,
each process compiles: :mod:`lib.games.jit`). Compiling takes seconds, once per install
and CPU; loading from the cache takes a fraction of a second.
Running this module fills the cache ahead of the first visitor: the container build does,
and a server starts it in a separate process (:mod:`lib.ui.server`), so the compiler never
holds the server's interpreter.

    python -m lib.games.compiled_code
"""

from __future__ import annotations

import importlib
import sys
import time

from lib.games.core import available_games


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
