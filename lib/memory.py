"""Give the memory a server has freed back to the operating system.

glibc's allocator gives each thread that allocates its own arena (up to 8 per core), and
Streamlit runs every visitor's script in a thread of its own, so the memory freed when
visitors leave mostly stays inside the process, spread over many arenas and pinned there by
the few objects still alive in each. ``MALLOC_ARENA_MAX=2`` in the server's environment is
the cure; a hosted app cannot set it, and setting the same limit from the app (``mallopt``)
comes too late: glibc fixes its limit once 9 arenas exist, and a server has 12 by the end
of its first visitor's first script run (counted with ``malloc_info``). What the app can do:

- :func:`tune_allocator`, called once by the first visitor: large blocks (figures' JSON,
  big arrays) are mapped on their own and unmapped when freed, instead of being carved
  from an arena where a small object left after them pins them;
- :class:`MemoryReleaser` asks glibc now and then, from a daemon thread, to return the
  arenas' free pages (``malloc_trim``). Alone it returned about 10 MB of a 50 MB growth
  after 20 visitors (``bench.load``, part b): the rest was pinned by live objects.

Elsewhere than glibc (macOS, musl) there is nothing to call and nothing is done.
"""

from __future__ import annotations

import ctypes
import functools
import threading
from collections.abc import Callable

RELEASE_EVERY_SECONDS = 20.0
"""How often the releaser trims: freed memory is back with the system within this long."""
LARGE_BLOCK_BYTES = 128 * 1024
"""Blocks from this size up are mapped on their own (glibc's default, kept fixed: glibc
otherwise raises it, up to 32 MB, each time such a block is freed)."""
_M_MMAP_THRESHOLD = -3  # mallopt's parameter, from glibc's <malloc.h>


@functools.cache
def _load_malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none."""
    try:  # the symbols already loaded into this process (the C library among them)
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


@functools.cache
def _load_mallopt() -> Callable[[int, int], int] | None:
    """glibc's ``mallopt``, or None where the C library has none."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return None
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return mallopt


def tune_allocator(large_block_bytes: int = LARGE_BLOCK_BYTES) -> bool:
    """Map blocks of ``large_block_bytes`` or more on their own: True if glibc took it.

    Such a block then goes back to the system as soon as it is freed. It is process-wide:
    call it once (the entry script does, through :mod:`lib.ui.server`).
    """
    mallopt = _load_mallopt()
    return mallopt is not None and mallopt(_M_MMAP_THRESHOLD, large_block_bytes) == 1


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
