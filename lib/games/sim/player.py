"""Sim's perfect player: the exact solution played as a player kind of the search package."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from lib.games.search.fast import SearchStats
from lib.games.search.players import Decision, PlayerConfig
from lib.games.sim import SimState, perfect_move


@dataclass(frozen=True)
class PerfectPlayer:
    """Sim's perfect player (kind ``perfect``): plays :func:`perfect_move`.

    Its :class:`~lib.games.search.players.Decision` carries a ``SearchStats`` whose
    root scores are the exact values (+1 win / −1 loss) of every free line.
    Each call solves afresh (under a second), so nothing is shared between games.
    """

    config: PlayerConfig

    def choose(self, state: SimState, rng: np.random.Generator) -> Decision:
        """The perfect-play move for the side to move in ``state``."""
        start = time.perf_counter()
        memo: dict[int, int] = {}
        move, values = perfect_move(state, rng, memo)
        stats = SearchStats(
            algorithm="perfect",
            nodes=len(memo),
            seconds=time.perf_counter() - start,
            root_scores=values,
            principal_variation=[move],
            solved=True,
        )
        return Decision(move, stats, values[move])


def make_perfect_player(config: PlayerConfig) -> PerfectPlayer:
    """Factory registered in ``GAME.players["perfect"]``."""
    return PerfectPlayer(config)
