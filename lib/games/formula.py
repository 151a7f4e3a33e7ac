"""A student's evaluation function typed as a formula over a game's named features.

``compile_formula(game, "if(empties < 12, discs, 4*mobility + 10*corners)")``
returns a :class:`~lib.games.core.Heuristic` every search and player can use.
The text is parsed by Python's :mod:`ast` and checked against an allow-list
(numbers, the game's feature names, ``+ - * /``, parentheses, comparisons,
``and``/``or``/``not``, ``min``, ``max``, ``abs`` and ``if(condition, a, b)``),
then compiled once into nested closures: it is never passed to ``eval`` or
``exec``. Everything else (``**``, attribute access, strings, other names and
calls) is refused with a message naming the character where it stands.

The heuristic keeps the contract of :mod:`lib.games.core` whatever is typed:
the formula ``F`` is read from both players' views (mine-minus-theirs features
negated, symmetric ones kept) and ``(F(mine) − F(theirs)) / 2`` is returned,
which is ``F`` itself for a formula that is already "mine minus theirs" and
makes any other one so. Division by zero gives 0; values are held within
``±WIN_VALUE / 10``.

>>> from lib.games.core import get_game
>>> heuristic = compile_formula(get_game("tictactoe"), "lines + 0.5 * centre")
>>> state = get_game("tictactoe").initial_state().play(4)
>>> heuristic.evaluate(state, 0) == -heuristic.evaluate(state, 1) > 0
True
"""

from __future__ import annotations

import ast
import difflib
import importlib
import math
import operator
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from lib.errors import InputError
from lib.games.core import WIN_VALUE, Feature, GameSpec, Heuristic, game_features, get_game

MAX_TEXT = 500
"""The longest formula read (characters)."""

MAX_NODES = 200
"""The most parts (numbers, names, operations) a formula may have."""

MAX_NESTING = 20
"""The deepest a formula may nest (brackets and calls within each other)."""

MAX_NUMBER = 1_000_000.0
"""Numbers typed in a formula lie within ±this."""

LIMIT = WIN_VALUE / 10 - 1
"""A formula's value is held within ±this, below every finished game's value."""

FUNCTIONS = ("min", "max", "abs", "if")
"""The functions a formula may call."""

Compiled = Callable[[Sequence[float]], float]
"""A compiled part of a formula: feature values (in ``used`` order) -> its value."""

_IF_CALL = re.compile(r"\bif(?=\s*\()")
_IF_NAME = "IF"  # ``if`` is a Python keyword: renamed to a name of the same length
_ARITHMETIC = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}
_COMPARISONS = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}
_REFUSED = {
    ast.Pow: "'**' (powers) is not allowed; multiply instead",
    ast.Attribute: "'.' (attribute access) is not allowed",
    ast.Subscript: "'[...]' (indexing) is not allowed",
    ast.Lambda: "'lambda' is not allowed",
    ast.Mod: "'%' is not allowed; use + - * /",
    ast.FloorDiv: "'//' is not allowed; use /",
}


def _divide(a: float, b: float) -> float:
    return a / b if b else 0.0


class _Compiler:
    """Checks a parsed formula against the allow-list and compiles it into closures."""

    def __init__(self, text: str, features: dict[str, Feature]) -> None:
        self.text = text
        self.features = features
        self.used: list[str] = []  # feature names in value order
        self.nodes = 0

    def fail(self, node: ast.AST | None, message: str) -> InputError:
        offset = getattr(node, "col_offset", None)
        where = "" if offset is None else f", at character {offset + 1}"
        return InputError(f"Formula{where}: {message}.")

    def compile(self, node: ast.AST, depth: int = 0) -> Compiled:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.fail(node, f"more than {MAX_NODES} parts; write a shorter formula")
        if depth > MAX_NESTING:
            raise self.fail(node, f"nested more than {MAX_NESTING} deep")
        refused = _REFUSED.get(type(node)) or _REFUSED.get(type(getattr(node, "op", None)))
        if refused:
            raise self.fail(node, refused)
        method = getattr(self, f"_{type(node).__name__.lower()}", None)
        if method is None:
            raise self.fail(node, f"{self.snippet(node)!r} is not allowed in a formula")
        return method(node, depth + 1)

    def snippet(self, node: ast.AST) -> str:
        return ast.get_source_segment(self.text, node) or type(node).__name__

    def _constant(self, node: ast.Constant, depth: int) -> Compiled:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(node, f"{self.snippet(node)!r} is not a number or a feature")
        if not abs(value) <= MAX_NUMBER:
            raise self.fail(node, f"the number {self.snippet(node)} is outside ±{MAX_NUMBER:,.0f}")
        number = float(value)
        return lambda values: number

    def _name(self, node: ast.Name, depth: int) -> Compiled:
        name = node.id
        if name not in self.features:
            if name in FUNCTIONS or name == _IF_NAME:
                raise self.fail(node, f"{name!r} is a function: write {name.lower()}(...)")
            close = difflib.get_close_matches(name, self.features, n=1, cutoff=0.5)
            hint = f"did you mean {close[0]!r}?" if close else "the features are"
            raise self.fail(node, f"unknown name {name!r}; {hint} ({', '.join(self.features)})")
        if name not in self.used:
            self.used.append(name)
        index = self.used.index(name)
        return lambda values: values[index]

    def _unaryop(self, node: ast.UnaryOp, depth: int) -> Compiled:
        operand = self.compile(node.operand, depth)
        if isinstance(node.op, ast.USub):
            return lambda values: -operand(values)
        if isinstance(node.op, ast.UAdd):
            return operand
        if isinstance(node.op, ast.Not):
            return lambda values: float(not operand(values))
        raise self.fail(node, "'~' is not allowed")

    def _binop(self, node: ast.BinOp, depth: int) -> Compiled:
        left, right = self.compile(node.left, depth), self.compile(node.right, depth)
        if isinstance(node.op, ast.Div):
            return lambda values: _divide(left(values), right(values))
        apply = _ARITHMETIC.get(type(node.op))
        if apply is None:
            raise self.fail(node, f"the operator in {self.snippet(node)!r} is not allowed")
        return lambda values: apply(left(values), right(values))

    def _compare(self, node: ast.Compare, depth: int) -> Compiled:
        parts = [self.compile(node.left, depth)] + [
            self.compile(c, depth) for c in node.comparators
        ]
        tests = []
        for op in node.ops:
            test = _COMPARISONS.get(type(op))
            if test is None:
                raise self.fail(node, "compare with < <= > >= == or != only")
            tests.append(test)

        def compare(values: Sequence[float]) -> float:
            results = [part(values) for part in parts]
            return float(all(t(a, b) for t, a, b in zip(tests, results, results[1:], strict=False)))

        return compare

    def _boolop(self, node: ast.BoolOp, depth: int) -> Compiled:
        parts = [self.compile(value, depth) for value in node.values]
        if isinstance(node.op, ast.And):
            return lambda values: float(all(part(values) for part in parts))
        return lambda values: float(any(part(values) for part in parts))

    def _call(self, node: ast.Call, depth: int) -> Compiled:
        if not isinstance(node.func, ast.Name) or node.keywords:
            raise self.fail(node, "call only min(...), max(...), abs(...) or if(c, a, b)")
        name = node.func.id
        if name not in ("min", "max", "abs", _IF_NAME):
            close = difflib.get_close_matches(name, FUNCTIONS, n=1)
            hint = f"; did you mean {close[0]!r}" if close else ""
            raise self.fail(node, f"unknown function {name!r}{hint}? Use min, max, abs or if")
        args = [self.compile(arg, depth) for arg in node.args]
        if name == _IF_NAME:
            if len(args) != 3:
                raise self.fail(node, "if takes three parts: if(condition, value if true, else)")
            test, then, otherwise = args
            return lambda values: then(values) if test(values) else otherwise(values)
        if name == "abs":
            if len(args) != 1:
                raise self.fail(node, "abs takes one part: abs(x)")
            (arg,) = args
            return lambda values: abs(arg(values))
        if not args:
            raise self.fail(node, f"{name} needs at least one part")
        pick = min if name == "min" else max
        return lambda values: pick(arg(values) for arg in args)


def _parse(text: str) -> ast.expr:
    """The expression ``text`` types (``if(`` renamed), or an InputError naming where it breaks."""
    if len(text) > MAX_TEXT:
        raise InputError(f"Formula: {len(text):,} characters; at most {MAX_TEXT}.")
    if not text.strip():
        raise InputError("Formula: it is empty; type e.g. discs + 10 * corners.")
    if "\n" in text or "\r" in text:
        raise InputError("Formula: write it on one line.")
    try:
        return ast.parse(_IF_CALL.sub(_IF_NAME, text), mode="eval").body
    except SyntaxError as error:
        offset = error.offset if error.offset and error.offset <= len(text) else len(text) + 1
        raise InputError(
            f"Formula, at character {offset}: this is not a formula ({error.msg})."
        ) from None
    except (RecursionError, MemoryError, ValueError):
        raise InputError("Formula: nested too deeply; write a flatter formula.") from None


Linear = tuple[dict[str, float], float]
"""A formula that is linear in the features: the weight of each feature, and a constant."""


def linear_form(node: ast.expr) -> Linear | None:
    """``node`` as weights and a constant when it is ``c1*f1 + c2*f2 + ... + c``, else None.

    Only numbers, names, ``+ -`` and multiplying or dividing by a number
    keep a formula linear (dividing by 0 gives 0, as the formula does).

    >>> linear_form(ast.parse("2*(lines - centre/4) + 1", mode="eval").body)
    ({'lines': 2.0, 'centre': -0.5}, 1.0)
    """
    if isinstance(node, ast.Constant):
        return {}, float(node.value)
    if isinstance(node, ast.Name):
        return {node.id: 1.0}, 0.0
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.UAdd | ast.USub):
        inner = linear_form(node.operand)
        sign = -1.0 if isinstance(node.op, ast.USub) else 1.0
        return None if inner is None else _scaled(inner, sign)
    if not isinstance(node, ast.BinOp):
        return None
    left, right = linear_form(node.left), linear_form(node.right)
    if left is None or right is None:
        return None
    if isinstance(node.op, ast.Add | ast.Sub):
        sign = 1.0 if isinstance(node.op, ast.Add) else -1.0
        weights = dict(left[0])
        for name, weight in right[0].items():
            weights[name] = weights.get(name, 0.0) + sign * weight
        return weights, left[1] + sign * right[1]
    if isinstance(node.op, ast.Mult) and not (left[0] and right[0]):
        return _scaled(right, left[1]) if not left[0] else _scaled(left, right[1])
    if isinstance(node.op, ast.Div) and not right[0]:
        return _scaled(left, 1.0 / right[1]) if right[1] else ({}, 0.0)
    return None


def _scaled(form: Linear, factor: float) -> Linear:
    return {name: factor * weight for name, weight in form[0].items()}, factor * form[1]


def _linear_evaluate(
    game: GameSpec, features: dict[str, Feature], weights: dict[str, float]
) -> Callable[[Any, int, tuple[float, ...]], float]:
    """The heuristic function of a linear formula: ``sum(weight * feature)``, in one closure.

    Symmetric features and the constant cancel out of ``(F(mine) − F(theirs)) / 2``,
    so only the others are computed; a features module's ``fuse(weights)`` (if it
    has one) computes the ones it covers in one pass.
    """
    weights = {n: w for n, w in weights.items() if w and not features[n].symmetric}
    fused, covered = _fused(game, weights)
    terms = tuple((w, features[n].function) for n, w in weights.items() if n not in covered)

    def evaluate(state: Any, player: int, _weights: tuple[float, ...] = ()) -> float:
        value = fused(state, player) if fused is not None else 0.0
        for weight, feature in terms:
            value += weight * feature(state, player)
        if -LIMIT <= value <= LIMIT:
            return value
        return 0.0 if math.isnan(value) else max(-LIMIT, min(LIMIT, value))

    return evaluate


def _fused(
    game: GameSpec, weights: dict[str, float]
) -> tuple[Callable[[Any, int], float] | None, frozenset[str]]:
    """The features module's ``fuse(weights)`` and the features it covers (None, none if none)."""
    fuse = getattr(importlib.import_module(game.features), "fuse", None)
    found = fuse(weights) if fuse is not None and weights else None
    return (None, frozenset()) if found is None else found


def compile_formula(game: GameSpec, text: str) -> Heuristic:
    """A :class:`Heuristic` scoring positions of ``game`` by the formula ``text``.

    A formula linear in the features (``c1*f1 + c2*f2 + ...``) becomes one
    weighted sum; any other is read from both sides as the module docstring says.

    Raises
    ------
    InputError
        For text that is not an allowed formula over ``game``'s features, naming
        the character where it goes wrong (and the nearest feature to an unknown name).
    """
    features = game_features(game)
    if not features:
        raise InputError(f"{game.title} has no named features to write a formula with.")
    compiler = _Compiler(text, features)
    tree = _parse(text)
    formula = compiler.compile(tree)
    linear = linear_form(tree)
    if linear is not None and all(math.isfinite(w) for w in linear[0].values()):
        return Heuristic("formula", text.strip(), _linear_evaluate(game, features, linear[0]))
    used = [features[name] for name in compiler.used]
    keeps_sign = tuple(-1.0 if not f.symmetric else 1.0 for f in used)

    def evaluate(state: Any, player: int, weights: tuple[float, ...] = ()) -> float:
        mine = [feature.function(state, player) for feature in used]
        theirs = [value * sign for value, sign in zip(mine, keeps_sign, strict=True)]
        value = (formula(mine) - formula(theirs)) / 2
        if math.isnan(value):
            return 0.0
        return max(-LIMIT, min(LIMIT, value))

    return Heuristic("formula", text.strip(), evaluate)


class FormulaEvaluator:
    """A formula compiled once for ``game``: ``evaluator(state, player) -> float``.

    What a player holds instead of a bound heuristic. It pickles as the game's
    name and the text, and compiles again when unpickled (the arena's worker
    processes), since the compiled closures cannot be pickled.

    >>> from lib.games.core import get_game
    >>> evaluator = FormulaEvaluator(get_game("tictactoe"), "lines")
    >>> evaluator(get_game("tictactoe").initial_state().play(4), 0)
    4.0
    """

    __slots__ = ("_function", "game_name", "heuristic", "text")

    def __init__(self, game: GameSpec, text: str) -> None:
        self.game_name = game.name
        self.text = text
        self.heuristic = compile_formula(game, text)
        self._function = self.heuristic.function

    def __call__(self, state: Any, player: int) -> float:
        """The formula's score of ``state`` for ``player``."""
        return self._function(state, player, ())

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return _evaluator_for, (self.game_name, self.text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FormulaEvaluator) and (self.game_name, self.text) == (
            other.game_name,
            other.text,
        )

    def __hash__(self) -> int:
        return hash((self.game_name, self.text))

    def __repr__(self) -> str:
        return f"FormulaEvaluator({self.game_name!r}, {self.text!r})"


def _evaluator_for(game_name: str, text: str) -> FormulaEvaluator:
    """The evaluator of ``text`` for the game named ``game_name`` (unpickling)."""
    return FormulaEvaluator(get_game(game_name), text)


CACHED_EVALUATORS = 128
"""Compiled formulas kept by :func:`formula_evaluator` (a page rebuilds its player each move)."""

_evaluators: OrderedDict[tuple[str, str, str], FormulaEvaluator] = OrderedDict()
_evaluators_lock = threading.Lock()


def formula_evaluator(game: GameSpec, text: str) -> FormulaEvaluator:
    """``FormulaEvaluator(game, text)``, compiled once and reused while it is recent.

    The evaluator is a pure function of the game and the text, so every
    visitor may share it; text that does not compile raises each time.
    """
    key = (game.name, game.features, text)
    with _evaluators_lock:
        found = _evaluators.get(key)
        if found is not None:
            _evaluators.move_to_end(key)
            return found
    evaluator = FormulaEvaluator(game, text)
    with _evaluators_lock:
        _evaluators[key] = evaluator
        while len(_evaluators) > CACHED_EVALUATORS:
            _evaluators.popitem(last=False)
    return evaluator
