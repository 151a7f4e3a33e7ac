"""Compile a function with numba, kept in numba's disk cache wherever a cache folder is writable.

``numba.njit(cache=True)`` refuses to decorate a function (a ``RuntimeError`` at import)
when neither the source's ``__pycache__``, ``~/.cache/numba`` nor ``NUMBA_CACHE_DIR`` can
be written, as on a host with a read-only file system. The exact solvers must still run
there: :func:`njit` then compiles without the cache, so each process compiles on its
first solve (seconds, once per process) instead of the app failing to import.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba


def njit(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``numba.njit(cache=True, **options)``, or without the cache when no folder takes it."""

    def compile_function(function: Callable[..., Any]) -> Any:
        try:
            return numba.njit(cache=True, **options)(function)
        except RuntimeError:  # no writable cache folder: compile in every process instead
            return numba.njit(**options)(function)

    return compile_function
