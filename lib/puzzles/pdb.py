"""The 15-puzzle's additive pattern database (disjoint 5-5-5), built once and cached on disk.

The fifteen tiles are split into three groups of five (:data:`PATTERNS`).
For each group a table gives, for every placement of its five tiles, the
fewest moves *of those tiles* that bring them home, the other tiles being
indistinguishable and their moves free. Because each move moves one tile of
one group, the three numbers add up to an admissible estimate (Korf and
Felner, "Disjoint pattern database heuristics", 2002), much closer to the
truth than Manhattan distance.

Each table is built by a breadth-first search backwards from the goal over
(placement, blank square) states, zero-cost blank moves first (a 0-1 BFS),
compiled by numba: a few seconds for the three. The tables (3 x 16^5 bytes)
are saved under :func:`cache_folder` and loaded from there afterwards; the
Docker image builds them at build time (``python -m lib.puzzles prepare``).
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import numpy as np

from lib.games.jit import njit
from lib.puzzles.board import Board

#: The disjoint groups of tiles (goal: blank top left, tile t on square t).
PATTERNS: tuple[tuple[int, ...], ...] = ((1, 2, 3, 6, 7), (4, 5, 8, 9, 12), (10, 11, 13, 14, 15))
#: Bump when the tables' layout or the groups change (old files are then ignored).
VERSION = 1


def cache_folder() -> Path:
    """Where the tables are kept: ``$PUZZLES_CACHE_DIR``, else ``~/.cache/ai-search-lab/puzzles``
    (a folder of this user's; nothing is written into the repository)."""
    folder = os.environ.get("PUZZLES_CACHE_DIR")
    return Path(folder) if folder else Path.home() / ".cache" / "ai-search-lab" / "puzzles"


def cache_file() -> Path:
    """The file holding the tables of this :data:`VERSION` and :data:`PATTERNS`."""
    name = "-".join(str(len(p)) for p in PATTERNS)
    return cache_folder() / f"pdb-{name}-v{VERSION}.npy"


@njit()
def _build_one(pattern: np.ndarray, nb: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """One group's table: a 0-1 breadth-first search from the goal over (placement, blank)."""
    k = pattern.shape[0]
    size = 16**k
    table = np.full(size, 127, dtype=np.int8)
    dist = np.full(size * 16, -1, dtype=np.int8)
    states = 16 * 15 * 14 * 13 * 12 * 11 if k == 5 else size * 16
    stack = np.zeros(states, dtype=np.int32)
    later = np.zeros(states, dtype=np.int32)
    places = np.zeros(k, dtype=np.int64)
    start = 0
    for i in range(k):
        start = start * 16 + pattern[i]
    start = start * 16  # the blank on square 0
    dist[start] = 0
    later[0] = start
    n_later, level = 1, 0
    while n_later > 0:
        top = 0
        for i in range(n_later):
            if dist[later[i]] == level:
                stack[top] = later[i]
                top += 1
        n_later = 0
        while top > 0:
            top -= 1
            state = stack[top]
            blank = state % 16
            index = state // 16
            if table[index] > level:
                table[index] = level
            rest = index
            for i in range(k - 1, -1, -1):
                places[i] = rest % 16
                rest //= 16
            for m in range(4):
                to = nb[blank, m]
                if to < 0:
                    continue
                which = -1
                for i in range(k):
                    if places[i] == to:
                        which = i
                if which < 0:  # the blank swaps with a tile of another group: free
                    nxt = index * 16 + to
                    if dist[nxt] == -1 or dist[nxt] > level:
                        dist[nxt] = level
                        stack[top] = nxt
                        top += 1
                else:  # a tile of this group moves into the blank: one move
                    moved = index + (blank - to) * 16 ** (k - 1 - which)
                    nxt = moved * 16 + to
                    if dist[nxt] == -1:
                        dist[nxt] = level + 1
                        later[n_later] = nxt
                        n_later += 1
        level += 1
    return table


def build_pdb() -> np.ndarray:
    """The three tables, built now (a few seconds): shape ``(3, 16**5)``, ``int8``."""
    from lib.puzzles.tables import neighbour_array

    nb = neighbour_array(4)
    return np.stack([_build_one(np.array(p, dtype=np.int64), nb) for p in PATTERNS])


@cache
def load_pdb() -> tuple[np.ndarray, np.ndarray]:
    """``(patterns, tables)`` for the kernels: from the disk cache, else built (and saved)."""
    path = cache_file()
    tables = None
    if path.exists():
        try:
            tables = np.load(path, allow_pickle=False)
        except (OSError, ValueError):
            tables = None
        if tables is not None and tables.shape != (len(PATTERNS), 16**5):
            tables = None
    if tables is None:
        tables = build_pdb()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(f".{os.getpid()}.tmp.npy")
            np.save(partial, tables, allow_pickle=False)
            partial.replace(path)
        except OSError:
            pass  # a read-only home: keep the tables in memory only
    tables.setflags(write=False)
    patterns = np.array(PATTERNS, dtype=np.int64)
    patterns.setflags(write=False)
    return patterns, tables


def pdb_heuristic(board: Board) -> int:
    """The additive pattern database estimate of a 15-puzzle board."""
    if len(board) != 16:
        from lib.errors import InputError

        raise InputError("The pattern database is for the 15-puzzle only.")
    _, tables = load_pdb()
    where = [0] * 16
    for pos, tile in enumerate(board):
        where[tile] = pos
    total = 0
    for p, group in enumerate(PATTERNS):
        index = 0
        for tile in group:
            index = index * 16 + where[tile]
        total += int(tables[p, index])
    return total
