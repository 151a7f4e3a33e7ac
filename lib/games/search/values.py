"""What a finished game and a forced win are worth to a search.

Shared by the textbook reference search (:mod:`lib.games.search.reference`), the fast
search (:mod:`lib.games.search.fast`) and the step-through, so that all of them score an
end of game alike: ``±(WIN_VALUE + margin - ply)``, far beyond every heuristic, a faster
win worth more.
"""

from __future__ import annotations

from typing import Any

from lib.games.core import WIN_VALUE

WIN_THRESHOLD = WIN_VALUE / 2
"""Values beyond this (either sign) mean a forced win or loss."""


def terminal_value(state: Any, player: int, ply: int) -> float:
    """Value of a finished game for ``player``, found ``ply`` plies below the root.

    ``WIN_VALUE + margin - ply`` for a win (margin = the game's ``score``),
    its negative for a loss, 0 for a draw.
    """
    winner = state.winner()
    if winner is None:
        return 0.0
    value = WIN_VALUE + abs(float(state.score(player))) - ply
    return value if winner == player else -value


def is_win_value(value: float) -> bool:
    """True for a value that means a forced win or loss (beyond every heuristic)."""
    return abs(value) > WIN_THRESHOLD
