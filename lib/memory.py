"""Give the memory a server has freed back to the operating system.

glibc's allocator gives each thread that allocates its own arena, and Streamlit runs
every visitor's script in a thread of its own, so the memory freed when visitors leave
mostly stays inside the process, counted in its resident size, until glibc is asked to
return it (``malloc_trim``). :class:`MemoryReleaser` asks, now and then, from a daemon
thread (a hosted app cannot set ``MALLOC_ARENA_MAX`` before its server starts). It returns
only pages that hold nothing: after 20 visitors (``bench.load``, part b) that was about
10 MB of a 50 MB growth; the rest was still in use or shared pages with live objects.

Elsewhere than glibc (macOS, musl) there is nothing to call and nothing is done.
"""

from __future__ import annotations

import ctypes
import functools
import threading
from collections.abc import Callable

RELEASE_EVERY_SECONDS = 20.0
"""How often the releaser trims: freed memory is back with the system within this long."""


@functools.cache
def _load_malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none."""
    try:  # the symbols already loaded into this process (the C library among them)
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def release_free_memory() -> bool:
    """Return the free memory of every allocator arena to the system; True if glibc did.

    Only memory already freed is returned; nothing in use moves. The call runs without
    the GIL (ctypes releases it), so other threads go on meanwhile.
    """
    trim = _load_malloc_trim()
    return bool(trim is not None and trim(0))


class MemoryReleaser:
    """A daemon thread calling :func:`release_free_memory` every ``every`` seconds.

    ``stop()`` ends it (tests); a server simply lets it run until the process exits.
    """

    def __init__(self, every: float = RELEASE_EVERY_SECONDS) -> None:
        self.every = every
        self.releases = 0
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="memory-releaser", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stopped.wait(self.every):
            release_free_memory()
            self.releases += 1

    def stop(self) -> None:
        """End the thread (it finishes the release under way, if any)."""
        self._stopped.set()
        self._thread.join()
