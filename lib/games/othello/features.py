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

from collections.abc import Callable, Mapping

from lib.games.core import Feature
from lib.games.othello import BLACK, GEOMETRY, Geometry, OthelloState, move_mask

REGION_FEATURES: dict[str, tuple[str, ...]] = {
    "corners": ("corner",),
    "x_squares": ("x_square",),
    "c_squares": ("c_square",),
    "edges": ("edge_a", "edge_b"),
    "a_squares": ("edge_a",),
    "b_squares": ("edge_b",),
    "inner_ring": ("inner_ring",),
    "centre": ("mid_ring", "centre"),
}
"""The features that count discs on squares of the named regions (of ``Geometry.regions``)."""


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
        Feature(
            "corners",
            "Corners I hold minus theirs.",
            _region_difference(*REGION_FEATURES["corners"]),
        ),
        Feature(
            "x_squares",
            "Discs diagonally next to a corner (X-squares): mine minus theirs.",
            _region_difference(*REGION_FEATURES["x_squares"]),
        ),
        Feature(
            "c_squares",
            "Edge discs next to a corner (C-squares): mine minus theirs.",
            _region_difference(*REGION_FEATURES["c_squares"]),
        ),
        Feature(
            "edges",
            "Other edge discs (A- and B-squares): mine minus theirs.",
            _region_difference(*REGION_FEATURES["edges"]),
        ),
        Feature(
            "a_squares",
            "Edge A-squares: mine minus theirs.",
            _region_difference(*REGION_FEATURES["a_squares"]),
        ),
        Feature(
            "b_squares",
            "Edge B-squares: mine minus theirs.",
            _region_difference(*REGION_FEATURES["b_squares"]),
        ),
        Feature(
            "inner_ring",
            "Discs on the ring inside the edges: mine minus theirs.",
            _region_difference(*REGION_FEATURES["inner_ring"]),
        ),
        Feature(
            "centre",
            "Discs in the middle (inside the inner ring): mine minus theirs.",
            _region_difference(*REGION_FEATURES["centre"]),
        ),
        Feature("mobility", "My legal moves minus theirs.", _mobility),
        Feature("frontier", "My discs next to an empty square minus theirs.", _frontier),
        Feature("parity", "1 if I am in line to play the last disc, else -1.", _parity),
        Feature("empties", "Empty squares (the same for both players).", _empties, symmetric=True),
    )
}
"""Othello's features by name, each "mine minus theirs" unless symmetric."""


def _square_masks(
    geometry: Geometry, weights: Mapping[str, float]
) -> tuple[tuple[float, int], ...]:
    """``(weight, mask)`` pairs giving each square the summed weight of the features counting it."""
    per_square: dict[int, float] = {}
    for name, weight in weights.items():
        if name == "discs":
            mask = geometry.full
        else:
            mask = 0
            for region in REGION_FEATURES[name]:
                mask |= geometry.regions[region]
        for square in range(64):
            if mask >> square & 1:
                per_square[square] = per_square.get(square, 0.0) + weight
    by_weight: dict[float, int] = {}
    for square, weight in per_square.items():
        if weight:
            by_weight[weight] = by_weight.get(weight, 0) | 1 << square
    return tuple(by_weight.items())


def fuse(
    weights: Mapping[str, float],
) -> tuple[Callable[[OthelloState, int], float], frozenset[str]] | None:
    """One pass for the disc-counting part of ``sum(weight * feature)``: a square table.

    Returns the evaluator and the features it covers (discs and the region
    counts), or None when ``weights`` names none of them; see
    :func:`lib.games.formula.compile_formula`.

    >>> from lib.games.othello import initial_state
    >>> evaluate, covered = fuse({"corners": 100.0, "discs": 1.0, "mobility": 2.0})
    >>> sorted(covered), evaluate(initial_state(8).play(19), 0)
    (['corners', 'discs'], 3.0)
    """
    counted = {n: w for n, w in weights.items() if n == "discs" or n in REGION_FEATURES}
    if not counted:
        return None
    tables = {size: _square_masks(geometry, counted) for size, geometry in GEOMETRY.items()}

    def evaluate(state: OthelloState, player: int) -> float:
        mine, theirs = _sides(state, player)
        total = 0.0
        for weight, mask in tables[state.size]:
            total += weight * ((mine & mask).bit_count() - (theirs & mask).bit_count())
        return total

    return evaluate, frozenset(counted)
