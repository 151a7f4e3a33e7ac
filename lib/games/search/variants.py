"""One position searched by minimax and alpha-beta variants to the same depth, side by side.

Every variant finds the same value; pruning, move ordering and a transposition
table visit fewer nodes. The game pages' "Pruning" tab shows this.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from lib.errors import InputError
from lib.games.search.fast import choose_move, resolve_evaluator

VARIANTS: dict[str, dict[str, Any]] = {
    "minimax": {"algorithm": "minimax"},
    "alpha-beta": {"algorithm": "alphabeta", "ordering": False, "transposition": False},
    "alpha-beta + ordering": {"algorithm": "alphabeta", "ordering": True, "transposition": False},
    "alpha-beta + ordering + table": {
        "algorithm": "alphabeta",
        "ordering": True,
        "transposition": True,
    },
}
"""The search variants :func:`compare_variants` runs, from plain minimax to the full engine."""


def compare_variants(
    state: Any,
    depth: int,
    heuristic: Any = None,
    variants: Sequence[str] = tuple(VARIANTS),
    on_progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Search ``state`` to ``depth`` with each variant (no time budget) and report the cost.

    Every variant returns the same value (the minimax value); what changes is
    the work: one row per variant with ``nodes``, ``leaf_evaluations``,
    ``cutoffs``, ``ebf``, ``seconds``, ``value`` and the chosen ``move``.
    """
    unknown = [name for name in variants if name not in VARIANTS]
    if unknown:
        raise InputError(
            f"Unknown search variant {unknown[0]!r}; choose from {', '.join(VARIANTS)}."
        )
    evaluate = resolve_evaluator(state, heuristic)
    rows = []
    for index, name in enumerate(variants):
        result = choose_move(state, depth=depth, heuristic=evaluate, **VARIANTS[name])
        stats = result.stats
        rows.append(
            {
                "variant": name,
                "move": result.move,
                "value": result.value,
                "nodes": stats.nodes,
                "leaf_evaluations": stats.leaf_evaluations,
                "cutoffs": stats.cutoffs,
                "ebf": stats.ebf,
                "seconds": stats.seconds,
            }
        )
        if on_progress is not None:
            on_progress(index + 1, len(variants))
    return rows
