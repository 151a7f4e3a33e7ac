"""The puzzle's move and distance tables as NumPy arrays, for the compiled kernels."""

from __future__ import annotations

from functools import cache

import numpy as np

from lib.puzzles.board import MOVES, move_table


@cache
def neighbour_array(width: int) -> np.ndarray:
    """``nb[pos, m]``: where the blank at ``pos`` goes by move ``m`` (U, D, L, R), or -1."""
    nb = -np.ones((width * width, 4), dtype=np.int64)
    for pos, options in enumerate(move_table(width)):
        for move, to in options:
            nb[pos, MOVES.index(move)] = to
    nb.setflags(write=False)
    return nb


@cache
def manhattan_array(width: int) -> np.ndarray:
    """``md[tile, pos]``: the Manhattan distance of ``tile`` at ``pos`` (0 for the blank)."""
    n = width * width
    md = np.zeros((n, n), dtype=np.int64)
    for tile in range(1, n):
        for pos in range(n):
            md[tile, pos] = abs(pos // width - tile // width) + abs(pos % width - tile % width)
    md.setflags(write=False)
    return md
