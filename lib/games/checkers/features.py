"""Checkers' named features for student formulas: men, kings, back row, centre, advancement ...

Every feature is the evaluated player's count minus the opponent's, but for
``empties`` (the same for both). ``men + 1.5*kings + 0.2*back_row + 0.1*centre
+ 0.3*advancement`` is the ``strong`` heuristic and ``pieces + mobility`` the
course's.

>>> from lib.games.checkers import initial_state
>>> state = initial_state().play(initial_state().legal_moves()[0])
>>> [FEATURES[name].function(state, 0) for name in ("men", "kings", "back_row", "pieces")]
[0.0, 0.0, 0.0, 0.0]
>>> FEATURES["advancement"].function(state, 0) > 0
True
"""

from __future__ import annotations

from lib.games.checkers import (
    BACK_ROW,
    BLACK,
    CENTRE,
    FULL,
    CheckersState,
    mobility,
    squares_of,
)
from lib.games.core import Feature


def _sides(state: CheckersState, player: int) -> tuple[int, int]:
    return (state.black, state.white) if player == BLACK else (state.white, state.black)


def _men(state: CheckersState, player: int) -> float:
    mine, theirs = _sides(state, player)
    kings = state.kings
    return float((mine & ~kings).bit_count() - (theirs & ~kings).bit_count())


def _kings(state: CheckersState, player: int) -> float:
    mine, theirs = _sides(state, player)
    kings = state.kings
    return float((mine & kings).bit_count() - (theirs & kings).bit_count())


def _pieces(state: CheckersState, player: int) -> float:
    mine, theirs = _sides(state, player)
    return float(mine.bit_count() - theirs.bit_count())


def _back_row(state: CheckersState, player: int) -> float:
    mine, theirs = _sides(state, player)
    men = ~state.kings
    return float(
        (mine & men & BACK_ROW[player]).bit_count()
        - (theirs & men & BACK_ROW[1 - player]).bit_count()
    )


def _centre(state: CheckersState, player: int) -> float:
    mine, theirs = _sides(state, player)
    return float((mine & CENTRE).bit_count() - (theirs & CENTRE).bit_count())


def _rows_advanced(men: int, side: int) -> int:
    """Sum over ``men`` of the rows advanced from ``side``'s back row (0–6)."""
    total = 0
    for square in squares_of(men):
        row = (square - 1) >> 2
        total += row if side == BLACK else 7 - row
    return total


def _advancement(state: CheckersState, player: int) -> float:
    mine, theirs = _sides(state, player)
    men = ~state.kings
    return (_rows_advanced(mine & men, player) - _rows_advanced(theirs & men, 1 - player)) / 7.0


def _mobility(state: CheckersState, player: int) -> float:
    return float(mobility(state, player) - mobility(state, 1 - player))


def _empties(state: CheckersState, player: int) -> float:
    return float((FULL & ~(state.black | state.white)).bit_count())


FEATURES: dict[str, Feature] = {
    f.name: f
    for f in (
        Feature("men", "My men (uncrowned pieces) minus theirs.", _men),
        Feature("kings", "My kings minus theirs.", _kings),
        Feature("pieces", "My pieces (men and kings) minus theirs.", _pieces),
        Feature("back_row", "My men still guarding my back row minus theirs.", _back_row),
        Feature("centre", "My pieces on the eight centre squares minus theirs.", _centre),
        Feature(
            "advancement",
            "Rows my men have advanced (in board lengths: rows / 7) minus theirs.",
            _advancement,
        ),
        Feature(
            "mobility",
            "My steps and jumps (as if captures were optional) minus theirs.",
            _mobility,
        ),
        Feature("empties", "Empty dark squares (the same for both players).", _empties, True),
    )
}
"""Checkers' features by name, each "mine minus theirs" unless symmetric."""
