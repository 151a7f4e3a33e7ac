"""The CSP representation: variables, domains, and binary constraints as neighbours + a predicate.

A :class:`CSP` is AIMA's binary CSP: every constraint relates two variables,
``constraint(A, a, B, b)`` says whether ``A = a`` and ``B = b`` may hold
together, and ``neighbours[A]`` are the variables sharing a constraint with
``A``. An all-different constraint over a group of variables is expanded into
one "not equal" constraint per pair (:func:`all_different`). Several
constraints on the same pair are combined with "and". Unary constraints are
folded into the domains.

>>> csp = CSP.build("tiny", {"A": (1, 2), "B": (1, 2)}, all_different(["A", "B"]))
>>> csp.neighbours["A"], csp.constraint("A", 1, "B", 1), csp.constraint("A", 1, "B", 2)
(('B',), False, True)
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from lib.errors import InputError

Var = Hashable
Value = Hashable
#: A binary relation ``relation(a, b)``: may the first variable take a and the second b?
Relation = Callable[[Value, Value], bool]
#: A constraint as built: ``(A, B, relation)``.
Constraint = tuple[Var, Var, Relation]


def not_equal(a: Value, b: Value) -> bool:
    """The relation of map colouring and all-different: the two values differ."""
    return a != b


def all_different(variables: Iterable[Var]) -> list[Constraint]:
    """An all-different constraint expanded to one ``!=`` constraint per pair."""
    return [(a, b, not_equal) for a, b in combinations(list(variables), 2)]


def _flipped(relation: Relation) -> Relation:
    if relation is not_equal:  # symmetric: kept as itself, so fast paths recognise it
        return relation
    return lambda b, a: relation(a, b)


def _both(first: Relation, second: Relation) -> Relation:
    return lambda a, b: first(a, b) and second(a, b)


@dataclass(frozen=True, eq=False)
class CSP:
    """A binary constraint satisfaction problem (immutable: searches copy the domains).

    ``relations[(A, B)]`` is the relation on ``(A's value, B's value)``; both
    directions are stored. ``labels`` name the values for display (e.g. colours);
    ``kind`` says how the page draws it (``map``, ``queens``, ``sudoku``, ``zebra``).
    """

    name: str
    variables: tuple[Var, ...]
    domains: Mapping[Var, tuple[Value, ...]]
    neighbours: Mapping[Var, tuple[Var, ...]]
    relations: Mapping[tuple[Var, Var], Relation] = field(repr=False)
    kind: str = "generic"
    info: Mapping[str, object] = field(default_factory=dict, repr=False)

    @classmethod
    def build(
        cls,
        name: str,
        domains: Mapping[Var, Sequence[Value]],
        constraints: Iterable[Constraint],
        *,
        kind: str = "generic",
        info: Mapping[str, object] | None = None,
    ) -> CSP:
        """A CSP from its domains (in variable order) and its binary constraints."""
        variables = tuple(domains)
        relations: dict[tuple[Var, Var], Relation] = {}
        neighbours: dict[Var, list[Var]] = {v: [] for v in variables}
        for a, b, relation in constraints:
            if a not in neighbours or b not in neighbours:
                missing = a if a not in neighbours else b
                raise InputError(f"The constraint names {missing!r}, which is not a variable.")
            if a == b:
                raise InputError(f"A binary constraint needs two variables, not {a!r} twice.")
            if (a, b) in relations:
                if relation is not_equal and relations[(a, b)] is not_equal:
                    continue  # the same pair in two all-different groups (a row and a box)
                relations[(a, b)] = _both(relations[(a, b)], relation)
                relations[(b, a)] = _both(relations[(b, a)], _flipped(relation))
            else:
                relations[(a, b)] = relation
                relations[(b, a)] = _flipped(relation)
                neighbours[a].append(b)
                neighbours[b].append(a)
        return cls(
            name,
            variables,
            {v: tuple(domains[v]) for v in variables},
            {v: tuple(n) for v, n in neighbours.items()},
            relations,
            kind,
            dict(info or {}),
        )

    def constraint(self, A: Var, a: Value, B: Var, b: Value) -> bool:
        """Whether ``A = a`` and ``B = b`` satisfy the constraints between A and B."""
        return self.relations[(A, B)](a, b)

    def is_ne(self, A: Var, B: Var) -> bool:
        """Whether the constraint between A and B is exactly "not equal" (fast paths use it)."""
        return self.relations[(A, B)] in (not_equal, operator.ne)

    def conflicts(self, assignment: Mapping[Var, Value]) -> list[tuple[Var, Var]]:
        """The constrained pairs (each once) that a (partial) assignment violates."""
        order = {v: i for i, v in enumerate(self.variables)}
        return [
            (A, B)
            for A, B in self.relations
            if A in assignment and B in assignment and order[A] < order[B]
            if not self.constraint(A, assignment[A], B, assignment[B])
        ]

    def is_solution(self, assignment: Mapping[Var, Value]) -> bool:
        """Whether ``assignment`` gives every variable a value of its domain, breaking nothing."""
        return (
            set(assignment) == set(self.variables)
            and all(assignment[v] in self.domains[v] for v in self.variables)
            and not self.conflicts(assignment)
        )

    @property
    def arcs(self) -> int:
        """The number of constrained pairs (each pair once)."""
        return len(self.relations) // 2
