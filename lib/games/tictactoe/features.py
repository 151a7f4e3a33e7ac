"""Tic-tac-toe's named features for student formulas: lines, threats, centre, corners.

>>> from lib.games.tictactoe import state_from_text
>>> state = state_from_text("X..\\n.O.\\n..X")
>>> [FEATURES[name].function(state, 0) for name in ("lines", "twos", "centre", "corners")]
[1.0, 0.0, -1.0, 2.0]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from lib.games.core import Feature
from lib.games.tictactoe import CENTRE, CORNERS, CROSS, TicTacToeState, line_counts, open_lines


def _sides(state: TicTacToeState, player: int) -> tuple[int, int]:
    return (state.x, state.o) if player == CROSS else (state.o, state.x)


def _twos(state: TicTacToeState, player: int) -> float:
    my_two, _, their_two, _ = line_counts(state, player)
    return float(my_two - their_two)


def _ones(state: TicTacToeState, player: int) -> float:
    _, my_one, _, their_one = line_counts(state, player)
    return float(my_one - their_one)


def _centre(state: TicTacToeState, player: int) -> float:
    mine, theirs = _sides(state, player)
    return float(bool(mine & CENTRE)) - float(bool(theirs & CENTRE))


def _corners(state: TicTacToeState, player: int) -> float:
    mine, theirs = _sides(state, player)
    return float((mine & CORNERS).bit_count() - (theirs & CORNERS).bit_count())


def _empties(state: TicTacToeState, player: int) -> float:
    return float(9 - (state.x | state.o).bit_count())


FEATURES: dict[str, Feature] = {
    f.name: f
    for f in (
        Feature("lines", "Lines still open for me minus lines still open for them.", open_lines),
        Feature("twos", "Open lines holding two of my marks (threats), minus theirs.", _twos),
        Feature("ones", "Open lines holding one of my marks, minus theirs.", _ones),
        Feature("centre", "1 if I hold the centre, -1 if they do, else 0.", _centre),
        Feature("corners", "Corners I hold minus corners they hold.", _corners),
        Feature("empties", "Empty squares (the same for both players).", _empties, symmetric=True),
    )
}
"""Tic-tac-toe's features by name, each "mine minus theirs" unless symmetric."""


FUSED = ("twos", "ones", "centre", "corners")
"""The features :func:`fuse` computes together (twos and ones share one pass over the lines)."""


def fuse(
    weights: Mapping[str, float],
) -> tuple[Callable[[TicTacToeState, int], float], frozenset[str]] | None:
    """One pass for the twos, ones, centre and corners part of ``sum(weight * feature)``.

    Returns the evaluator and the features it covers, or None when ``weights``
    names none of them; see :func:`lib.games.formula.compile_formula`.

    >>> from lib.games.tictactoe import state_from_text
    >>> evaluate, covered = fuse({"twos": 10.0, "corners": 1.0, "lines": 2.0})
    >>> sorted(covered), evaluate(state_from_text("X..\\n.O.\\n..X"), 0)
    (['corners', 'twos'], 2.0)
    """
    covered = frozenset(name for name in FUSED if name in weights)
    if not covered:
        return None
    w_two, w_one, w_centre, w_corner = (weights.get(name, 0.0) for name in FUSED)
    count_lines = bool(w_two or w_one)

    def evaluate(state: TicTacToeState, player: int) -> float:
        mine, theirs = _sides(state, player)
        value = 0.0
        if count_lines:
            my_two, my_one, their_two, their_one = line_counts(state, player)
            value += w_two * (my_two - their_two) + w_one * (my_one - their_one)
        if w_centre:
            value += w_centre * (bool(mine & CENTRE) - bool(theirs & CENTRE))
        if w_corner:
            value += w_corner * ((mine & CORNERS).bit_count() - (theirs & CORNERS).bit_count())
        return value

    return evaluate, covered
