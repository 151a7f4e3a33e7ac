"""The contest bench's class: distinct formulas the game page accepts, reproducible by seed."""

from __future__ import annotations

from bench.contest import class_formulas
from lib.games.core import get_game
from lib.games.formula import compile_formula


def test_the_class_is_forty_distinct_valid_formulas_fixed_by_the_seed() -> None:
    formulas = class_formulas(40, seed=1)
    assert len(set(formulas)) == 40 and formulas == class_formulas(40, seed=1)
    assert formulas != class_formulas(40, seed=2)
    for formula in formulas:
        compile_formula(get_game("othello"), formula)
