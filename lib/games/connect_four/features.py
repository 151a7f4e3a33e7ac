"""Connect Four's named features for student formulas: open threes and twos, centre, threats ...

Every feature is the evaluated player's count minus the opponent's, but for
``empties`` (the same for both). ``5*open_threes + 2*open_twos + 3*centre`` is
the ``threats`` heuristic and ``windows`` the ``open windows`` one.

>>> from lib.games.connect_four import state_from_moves
>>> state = state_from_moves("dde")  # Red d1 e1, Yellow d2
>>> [FEATURES[name].function(state, 0) for name in ("open_twos", "centre", "threats")]
[3.0, 0.0, 0.0]
>>> FEATURES["threats"].function(state_from_moves("dadbd"), 0)  # d4 wins for Red
1.0
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from lib.games.connect_four import (
    BOARD,
    CENTRE_COLUMN,
    RED,
    SQUARES,
    ConnectFourState,
    four_completions,
    open_windows,
    window_counts_fast,
)
from lib.games.core import Feature


def _sides(state: ConnectFourState, player: int) -> tuple[int, int]:
    return (state.red, state.yellow) if player == RED else (state.yellow, state.red)


def _open_threes(state: ConnectFourState, player: int) -> float:
    my_three, _, their_three, _ = window_counts_fast(state, player)
    return float(my_three - their_three)


def _open_twos(state: ConnectFourState, player: int) -> float:
    _, my_two, _, their_two = window_counts_fast(state, player)
    return float(my_two - their_two)


def _centre(state: ConnectFourState, player: int) -> float:
    mine, theirs = _sides(state, player)
    return float((mine & CENTRE_COLUMN).bit_count() - (theirs & CENTRE_COLUMN).bit_count())


def winning_squares(discs: int, empty: int) -> int:
    """The empty squares that would complete a four of ``discs`` (playable now or later)."""
    return four_completions(discs, empty)


def _threats(state: ConnectFourState, player: int) -> float:
    mine, theirs = _sides(state, player)
    empty = BOARD & ~(mine | theirs)
    return float(
        winning_squares(mine, empty).bit_count() - winning_squares(theirs, empty).bit_count()
    )


def _empties(state: ConnectFourState, player: int) -> float:
    return float(SQUARES - (state.red | state.yellow).bit_count())


FEATURES: dict[str, Feature] = {
    f.name: f
    for f in (
        Feature(
            "open_threes",
            "Windows of four holding three of my discs and none of theirs, minus theirs.",
            _open_threes,
        ),
        Feature(
            "open_twos",
            "Windows of four holding two of my discs and none of theirs, minus theirs.",
            _open_twos,
        ),
        Feature("centre", "My discs in the centre column minus theirs.", _centre),
        Feature(
            "threats",
            "Empty squares that would complete a four of mine, minus theirs.",
            _threats,
        ),
        Feature(
            "windows",
            "Windows of four still open for me (none of their discs) minus theirs.",
            lambda state, player: open_windows(state, player),
        ),
        Feature("empties", "Empty squares (the same for both players).", _empties, True),
    )
}
"""Connect Four's features by name, each "mine minus theirs" unless symmetric."""


FUSED = ("open_threes", "open_twos", "centre")
"""The features :func:`fuse` computes together (one bit-parallel count of the windows)."""


def fuse(
    weights: Mapping[str, float],
) -> tuple[Callable[[ConnectFourState, int], float], frozenset[str]] | None:
    """One pass for the open threes, open twos and centre part of ``sum(weight * feature)``.

    Returns the evaluator and the features it covers, or None when ``weights``
    names none of them; see :func:`lib.games.formula.compile_formula`.

    >>> from lib.games.connect_four import state_from_moves
    >>> evaluate, covered = fuse({"open_twos": 2.0, "centre": 3.0, "threats": 1.0})
    >>> sorted(covered), evaluate(state_from_moves("dde"), 0)
    (['centre', 'open_twos'], 6.0)
    """
    covered = frozenset(name for name in FUSED if name in weights)
    if not covered:
        return None
    w_three, w_two, w_centre = (weights.get(name, 0.0) for name in FUSED)
    count_windows = bool(w_three or w_two)

    def evaluate(state: ConnectFourState, player: int) -> float:
        mine, theirs = _sides(state, player)
        value = 0.0
        if count_windows:
            my_three, my_two, their_three, their_two = window_counts_fast(state, player)
            value += w_three * (my_three - their_three) + w_two * (my_two - their_two)
        if w_centre:
            centre = (mine & CENTRE_COLUMN).bit_count() - (theirs & CENTRE_COLUMN).bit_count()
            value += w_centre * centre
        return value

    return evaluate, covered
