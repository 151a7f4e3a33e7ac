"""How long a game's exact solver takes at a number of empty squares, measured on this machine.

The page's exact-endgame setting says what a perfect-play solve of that size costs here,
not in a table written elsewhere: a few positions with that many empty squares, reached by
seeded random play from the start, are each solved by the game's own solver (the one the
player hands positions to) and timed.

>>> from lib.games.core import get_game
>>> timing = solve_timing(get_game("othello"), 6)
>>> timing.empties, timing.positions, timing.solved
(6, 3, 3)
"""

from __future__ import annotations

import importlib
import statistics
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from lib.durations import duration_text
from lib.games.core import GameSpec

POSITIONS = 3
"""Positions timed per size: the median of three shrugs off one odd position."""
CAP_SECONDS = 2.0
"""The time budget handed to each timed solve. The player's hook (``exact_solution``) may
give up well before it, on a position it sees would not fit, as it does in play."""


@dataclass(frozen=True)
class SolveTiming:
    """Wall seconds of the exact solver on ``positions`` positions of ``empties`` empty squares."""

    empties: int
    positions: int
    solved: int  # how many finished within the cap
    median_seconds: float
    worst_seconds: float

    def text(self) -> str:
        """One line for the page, e.g. "14 empty squares: 20 ms here (median; worst 78 ms of 3)"."""
        if self.positions == 0:
            return f"no position with {self.empties} empty squares was reached"
        if self.solved < self.positions:
            return (
                f"{self.empties} empty squares: not solved with a {CAP_SECONDS:g} s budget "
                f"here for {self.positions - self.solved} of {self.positions} positions"
            )
        return (
            f"{self.empties} empty squares: {duration_text(self.median_seconds)} here "
            f"(median; worst {duration_text(self.worst_seconds)} of {self.positions})"
        )


def sample_positions(game: GameSpec, empties: int, count: int = POSITIONS, seed: int = 0) -> list:
    """Up to ``count`` positions with ``empties`` empty squares, by seeded random play from
    the start (a game that ends before that size is played again with the next seed)."""
    rng = np.random.default_rng(seed)
    positions: list[Any] = []
    for _ in range(20 * count):
        if len(positions) == count:
            break
        state = game.initial_state()
        while not state.is_terminal() and state.plies_left_hint() > empties:
            moves = state.legal_moves()
            state = state.play(moves[int(rng.integers(len(moves)))])
        if not state.is_terminal() and state.plies_left_hint() == empties:
            positions.append(state)
    return positions


def solve_timing(game: GameSpec, empties: int, count: int = POSITIONS) -> SolveTiming:
    """Time the game's exact solver (``GameSpec.exact_solver``) on :func:`sample_positions`."""
    if not game.exact_solver:
        raise ValueError(f"{game.title} has no exact solver to time.")
    solver = importlib.import_module(game.exact_solver)
    if hasattr(solver, "load_compiled"):
        solver.load_compiled()  # a cost of the process, not of a solve's size
    seconds, solved = [], 0
    positions = sample_positions(game, empties, count)
    for state in positions:
        started = time.perf_counter()
        result = solver.exact_solution(state, CAP_SECONDS)
        seconds.append(time.perf_counter() - started)
        solved += result is not None
    return SolveTiming(
        empties,
        len(positions),
        solved,
        statistics.median(seconds) if seconds else 0.0,
        max(seconds, default=0.0),
    )
