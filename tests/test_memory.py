"""Memory freed by a thread (as a visitor's script run is) goes back to the system."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

from lib.memory import MemoryReleaser, release_free_memory

ROOT = Path(__file__).resolve().parents[1]

ALLOCATED_MB = 200


def _rss_mb() -> float:
    return psutil.Process().memory_info().rss / 1e6


def _free_in_a_thread(kept: list[bytes]) -> None:
    """Allocate ~200 MB in small blocks in a thread of its own (its own glibc arena), free
    all but the last: glibc keeps the freed memory, pinned below that block."""

    def work() -> None:
        blocks = [bytes(2000) for _ in range(ALLOCATED_MB * 500)]
        kept.append(blocks[-1])

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()


def test_release_returns_what_a_thread_freed():
    kept: list[bytes] = []
    before = _rss_mb()
    _free_in_a_thread(kept)
    freed_but_held = _rss_mb()
    assert freed_but_held - before > 0.5 * ALLOCATED_MB  # held: what the releaser is for
    assert release_free_memory()
    assert _rss_mb() - before < 0.2 * ALLOCATED_MB
    assert len(kept) == 1 and kept[0] == bytes(2000)  # what is in use stays


def test_the_releaser_thread_returns_it_within_its_period_and_stops():
    releaser = MemoryReleaser(every=0.1)
    try:
        kept: list[bytes] = []
        before = _rss_mb()
        _free_in_a_thread(kept)
        deadline = time.monotonic() + 10
        while _rss_mb() - before > 0.2 * ALLOCATED_MB:
            assert time.monotonic() < deadline, f"still {_rss_mb() - before:.0f} MB over"
            time.sleep(0.05)
    finally:
        releaser.stop()
    assert releaser.releases >= 1
    count = releaser.releases
    time.sleep(0.3)
    assert releaser.releases == count  # stopped


# Run in a fresh interpreter: the allocator's settings are process-wide.
LARGE_BLOCKS_SCRIPT = """
import sys
import psutil
from lib.memory import tune_allocator
# the control maps only blocks of 32 MB and more (where glibc's own threshold may climb)
assert tune_allocator() if sys.argv[1] == "tuned" else tune_allocator(32 << 20)
rss = lambda: psutil.Process().memory_info().rss / 1e6
before = rss()
megabyte = bytes(range(256)) * 4096
blocks, kept = [], []
for _ in range(150):  # 150 MB of 1 MB blocks, each followed by a small object that stays
    blocks.append(bytearray(megabyte))
    kept.append(bytes(1000 + len(kept)))  # over 512 bytes: from malloc, not pymalloc
del blocks
print(rss() - before)
"""


def _run(script: str, mode: str) -> float:
    done = subprocess.run(
        [sys.executable, "-c", script, mode],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return float(done.stdout.split()[-1])


def test_tuned_large_blocks_go_back_to_the_system_when_freed():
    held_by_the_control = _run(LARGE_BLOCKS_SCRIPT, "control")
    assert held_by_the_control > 100  # carved from the arena, pinned by the small objects
    assert _run(LARGE_BLOCKS_SCRIPT, "tuned") < 20
