"""Othello's named features for student formulas: discs, corners, X/C-squares, edges, mobility ...

Every feature is the evaluated player's count minus the opponent's, but for
``empties`` (the same for both). The square classes are those of the classic
square table, so ``100*corners - 50*x_squares - 20*c_squares + 10*a_squares +
5*b_squares - 2*inner_ring - centre`` is the ``table`` heuristic.

>>> from lib.games.othello import initial_state
>>> state = initial_state(8).play(19)  # d3: Black flips d4
>>> [FEATURES[name].function(state, 0) for name in ("discs", "mobility", "empties")]
[3.0, 0.0, 59.0]
"""

from __future__ import annotations

from collections.abc import Callable

from lib.games.core import Feature
from lib.games.othello import BLACK, GEOMETRY, OthelloState, move_mask


def _sides(state: OthelloState, player: int) -> tuple[int, int]:
    return (state.black, state.white) if player == BLACK else (state.white, state.black)


def _region_difference(*regions: str) -> Callable[[OthelloState, int], float]:
    """A feature counting my discs minus theirs on the union of ``regions``."""

    def difference(state: OthelloState, player: int) -> float:
        mine, theirs = _sides(state, player)
        named = GEOMETRY[state.size].regions
        mask = 0
        for region in regions:
            mask |= named[region]
        return float((mine & mask).bit_count() - (theirs & mask).bit_count())

    return difference


def _discs(state: OthelloState, player: int) -> float:
    mine, theirs = _sides(state, player)
    return float(mine.bit_count() - theirs.bit_count())


def _mobility(state: OthelloState, player: int) -> float:
    mine, theirs = _sides(state, player)
    geometry = GEOMETRY[state.size]
    full, inner = geometry.full, geometry.inner_cols
    return float(
        move_mask(mine, theirs, full, inner).bit_count()
        - move_mask(theirs, mine, full, inner).bit_count()
    )


def _next_to(mask: int, size: int, full: int) -> int:
    """The squares next to (all eight directions) a square of ``mask``, on the board."""
    first_col = last_col = 0
    for row in range(size):
        first_col |= 1 << (row * 8)
        last_col |= 1 << (row * 8 + size - 1)
    sideways = ((mask & ~last_col) << 1) | ((mask & ~first_col) >> 1)
    row_and_sides = mask | sideways
    return (sideways | (row_and_sides << 8) | (row_and_sides >> 8)) & full


def _frontier(state: OthelloState, player: int) -> float:
    mine, theirs = _sides(state, player)
    full = GEOMETRY[state.size].full
    near_empty = _next_to(full & ~(mine | theirs), state.size, full)
    return float((mine & near_empty).bit_count() - (theirs & near_empty).bit_count())


def _empties(state: OthelloState, player: int) -> float:
    return float(state.plies_left_hint())


def _parity(state: OthelloState, player: int) -> float:
    # with no passes, the side to move on an odd number of empties plays the last disc
    last_is_mover = state.plies_left_hint() % 2 == 1
    return 1.0 if last_is_mover == (state.to_move == player) else -1.0


FEATURES: dict[str, Feature] = {
    f.name: f
    for f in (
        Feature("discs", "My discs minus theirs.", _discs),
        Feature("corners", "Corners I hold minus theirs.", _region_difference("corner")),
        Feature(
            "x_squares",
            "Discs diagonally next to a corner (X-squares): mine minus theirs.",
            _region_difference("x_square"),
        ),
        Feature(
            "c_squares",
            "Edge discs next to a corner (C-squares): mine minus theirs.",
            _region_difference("c_square"),
        ),
        Feature(
            "edges",
            "Other edge discs (A- and B-squares): mine minus theirs.",
            _region_difference("edge_a", "edge_b"),
        ),
        Feature("a_squares", "Edge A-squares: mine minus theirs.", _region_difference("edge_a")),
        Feature("b_squares", "Edge B-squares: mine minus theirs.", _region_difference("edge_b")),
        Feature(
            "inner_ring",
            "Discs on the ring inside the edges: mine minus theirs.",
            _region_difference("inner_ring"),
        ),
        Feature(
            "centre",
            "Discs in the middle (inside the inner ring): mine minus theirs.",
            _region_difference("mid_ring", "centre"),
        ),
        Feature("mobility", "My legal moves minus theirs.", _mobility),
        Feature("frontier", "My discs next to an empty square minus theirs.", _frontier),
        Feature("parity", "1 if I am in line to play the last disc, else -1.", _parity),
        Feature("empties", "Empty squares (the same for both players).", _empties, symmetric=True),
    )
}
"""Othello's features by name, each "mine minus theirs" unless symmetric."""
