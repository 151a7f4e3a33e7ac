"""Student formulas: the cost of one evaluation against the built-in heuristic it equals.

Run from the repository root::

    python -m bench.formula

For each formula equal to a built-in heuristic (Othello's ``table``,
tic-tac-toe's ``lines``, and the other games' equal pairs), both evaluate the
same positions from both sides, as the search calls them (a bound
``evaluate(state, player)``), timed in the same run, best of several repeats
(interleaved, so a busy machine slows both alike). The ratio is the
formula's cost per evaluation over the built-in's; the goal is at most 2.

A formula linear in the features is compiled to one weighted sum, and a
game's features module may ``fuse`` the features that share work (Othello's
disc counts become one square table). The last column times the same
formula read the general way (wrapped in ``if(1 > 0, ..., 0)``, so every
feature is computed and the formula read from both sides): what the linear
path saves.

Figures depend on the machine and its load: compare the ratios, not the microseconds.
"""

from __future__ import annotations

import contextlib
import math
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from bench.sections import run_sections
from lib.games.core import get_game
from lib.games.formula import FormulaEvaluator

CASES = (
    (
        "othello",
        "table",
        "100*corners - 50*x_squares - 20*c_squares + 10*a_squares + 5*b_squares"
        " - 2*inner_ring - centre",
    ),
    ("tictactoe", "lines", "10*twos + ones + 3*centre + corners"),
    ("checkers", "strong", "men + 1.5*kings + 0.2*back_row + 0.1*centre + 0.3*advancement"),
    ("connect_four", "threats", "5*open_threes + 2*open_twos + 3*centre"),
    ("sim", "threats", "threats"),
)
"""(game, built-in heuristic, the formula equal to it)."""

POSITIONS = 200
"""Positions evaluated per timing (from both sides)."""

REPEATS = 25
"""Timings per evaluator; the best is kept."""


def positions(name: str, count: int, seed: int = 0) -> list[Any]:
    """``count`` unfinished positions of the game ``name`` reached by random moves."""
    game = get_game(name)
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(int(rng.integers(0, 40))):
            moves = state.legal_moves()
            if state.is_terminal() or not moves:
                break
            state = state.play(moves[int(rng.integers(len(moves)))])
        if not state.is_terminal():
            found.append(state)
    return found


def seconds_per_evaluation(evaluate: Callable[[Any, int], float], states: list[Any]) -> float:
    """Seconds one ``evaluate(state, player)`` call takes over ``states``, both sides."""
    started = time.perf_counter()
    for state in states:
        evaluate(state, 0)
        evaluate(state, 1)
    return (time.perf_counter() - started) / (2 * len(states))


def cost() -> None:
    """The formula's cost per evaluation relative to the built-in heuristic it equals."""
    print(f"Formula vs built-in: {POSITIONS} positions x 2 sides, best of {REPEATS}")
    print(
        f"{'game':<14}{'built-in':<10}{'built-in µs':>12}{'formula µs':>12}{'ratio':>8}"
        f"{'general µs':>12}{'ratio':>8}"
    )
    for name, built_in, text in CASES:
        game = get_game(name)
        states = positions(name, POSITIONS)
        heuristic = game.heuristics[built_in].bind()
        formula = FormulaEvaluator(game, text)
        general = FormulaEvaluator(game, f"if(1 > 0, {text}, 0)")
        for state in states[:20]:  # they agree before they are compared
            assert abs(heuristic(state, 0) - formula(state, 0)) < 1e-9
            assert abs(heuristic(state, 0) - general(state, 0)) < 1e-9
        best = {"built-in": math.inf, "formula": math.inf, "general": math.inf}
        for _ in range(REPEATS):
            for label, evaluate in (
                ("built-in", heuristic),
                ("formula", formula),
                ("general", general),
            ):
                best[label] = min(best[label], seconds_per_evaluation(evaluate, states))
        base = best["built-in"]
        print(
            f"{name:<14}{built_in:<10}{base * 1e6:>12.2f}{best['formula'] * 1e6:>12.2f}"
            f"{best['formula'] / base:>8.2f}{best['general'] * 1e6:>12.2f}"
            f"{best['general'] / base:>8.2f}"
        )


HOSTILE = (
    "(" * 199 + "1" + ")" * 199,
    "-" * 499 + "1",
    "1" + "+1" * 249,
    "max(" * 60 + "1" + ")" * 60,
    "corners " * 62,
    "9" * 500,
    "if(" * 40 + "1,2,3)" * 40,
    "lines.__class__.__bases__[0].__subclasses__()",
    "__import__('os').system('true')",
    "x" * 501,
)
"""Inputs made to be slow or dangerous: the longest, deepest and widest a box accepts."""


def refusal() -> None:
    """The worst time to compile or refuse hostile formulas (goal: 0.1 s on any input)."""
    from lib.errors import InputError
    from lib.games.formula import compile_formula

    game = get_game("othello")
    worst, worst_text = 0.0, ""
    for text in HOSTILE:
        started = time.perf_counter()
        with contextlib.suppress(InputError):
            compile_formula(game, text)
        seconds = time.perf_counter() - started
        if seconds > worst:
            worst, worst_text = seconds, text
    print(f"Hostile formulas: {len(HOSTILE)}, worst {worst * 1e3:.2f} ms ({worst_text[:30]!r}…)")
    print(f"goal 100 ms: {'met' if worst < 0.1 else 'NOT met'}")


SECTIONS = {"cost": cost, "refusal": refusal}

if __name__ == "__main__":
    run_sections(SECTIONS, sys.argv[1:])
