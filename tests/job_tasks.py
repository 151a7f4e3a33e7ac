"""Module-level jobs for tests/test_jobs.py (a worker imports them by name)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from lib.errors import InputError


def spin(seconds: float, on_tick: Callable[[int], None] | None = None) -> int:
    """Burn CPU for ``seconds``, calling ``on_tick(count)`` every 1,000 loops when given."""
    end = time.monotonic() + seconds
    count = 0
    while time.monotonic() < end:
        count += 1
        if on_tick is not None and count % 1000 == 0:
            on_tick(count)
    return count


def stamp(label: str, seconds: float) -> tuple[str, float, float]:
    """Sleep ``seconds``; return ``(label, start, end)`` in wall-clock seconds (any process)."""
    start = time.time()
    time.sleep(seconds)
    return label, start, time.time()


def count_up(n: int, on_step: Callable[[int, int], None]) -> int:
    """Call ``on_step(i, i * i)`` for i in 0..n-1; return n."""
    for i in range(n):
        on_step(i, i * i)
    return n


def fail_with(kind: str) -> None:
    """Raise the error named by ``kind``, or end the process abruptly for ``"exit"``."""
    if kind == "input":
        raise InputError("The map has no place called Atlantis.")
    if kind == "exit":
        os._exit(3)
    if kind == "unpicklable":
        return lambda: None  # type: ignore[return-value]
    raise ValueError("weights must be finite")


def allocate(megabytes: int, _cargo: bytes = b"") -> tuple[int, int]:
    """Hold ``megabytes`` of memory for a moment; return ``(process id, bytes held)``.

    ``_cargo`` is an argument the job ignores (its size is what a test sends).
    """
    block = bytearray(megabytes * 1024 * 1024)
    return os.getpid(), len(block)
