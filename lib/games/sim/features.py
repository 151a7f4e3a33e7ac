"""Sim's named features for student formulas: threats, safe lines, doomed, lines, free.

Every feature is the evaluated player's view minus the opponent's, but for
``safe_lines`` and ``free`` (the same for both). ``threats`` is the ``threats``
heuristic and ``threats + 20*doomed*(free + 1)`` the ``late loss`` one.

>>> from lib.games.sim import position
>>> state = position(red=[(1, 2), (1, 3)], blue=[(4, 5)])  # red must not colour 2-3
>>> [FEATURES[name].function(state, 0) for name in ("threats", "safe_lines", "lines", "free")]
[-1.0, 11.0, 1.0, 12.0]
"""

from __future__ import annotations

from lib.games.core import Feature
from lib.games.sim import SimState, dead_lines


def _threats(state: SimState, player: int) -> float:
    return float(dead_lines(state, 1 - player) - dead_lines(state, player))


def _safe_lines(state: SimState, player: int) -> float:
    return float(state.free().bit_count() - dead_lines(state, state.to_move))


def _doomed(state: SimState, player: int) -> float:
    free = state.free().bit_count()
    if not free or dead_lines(state, state.to_move) < free:
        return 0.0
    return -1.0 if state.to_move == player else 1.0


def _lines(state: SimState, player: int) -> float:
    mine, theirs = state.own_and_opponent(player)
    return float(mine.bit_count() - theirs.bit_count())


def _to_move(state: SimState, player: int) -> float:
    return 1.0 if state.to_move == player else -1.0


def _free(state: SimState, player: int) -> float:
    return float(state.free().bit_count())


FEATURES: dict[str, Feature] = {
    f.name: f
    for f in (
        Feature(
            "threats",
            "Free lines that would complete a triangle of theirs, minus ones of mine.",
            _threats,
        ),
        Feature(
            "safe_lines",
            "Free lines the side to move can colour without completing its own triangle.",
            _safe_lines,
            symmetric=True,
        ),
        Feature(
            "doomed",
            "-1 if I must complete my triangle now (every free line does), 1 if they must.",
            _doomed,
        ),
        Feature("lines", "Lines I have coloured minus lines they have.", _lines),
        Feature("to_move", "1 if it is my turn, -1 if theirs.", _to_move),
        Feature("free", "Uncoloured lines (the same for both players).", _free, symmetric=True),
    )
}
"""Sim's features by name, each "mine minus theirs" unless symmetric."""
