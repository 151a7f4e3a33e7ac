"""Random small CSPs for property tests, and brute force as their oracle."""

from __future__ import annotations

import itertools

from hypothesis import strategies as st

from lib.csp.core import CSP, not_equal


def _table(allowed: frozenset):
    return lambda a, b: (a, b) in allowed


@st.composite
def small_csps(draw, max_vars: int = 6, max_values: int = 4) -> CSP:
    """A binary CSP with 1..max_vars variables, small integer domains, random relations.

    About a third of the constraints are "not equal" (the fast path's shortcut), the
    rest random tables of allowed pairs.
    """
    n = draw(st.integers(1, max_vars))
    names = [f"X{i}" for i in range(n)]
    domains = {
        name: tuple(draw(st.lists(st.integers(0, 5), min_size=1, max_size=max_values, unique=True)))
        for name in names
    }
    constraints = []
    for i, j in itertools.combinations(range(n), 2):
        kind = draw(st.sampled_from(("none", "ne", "table", "table")))
        if kind == "ne":
            constraints.append((names[i], names[j], not_equal))
        elif kind == "table":
            pairs = [(a, b) for a in domains[names[i]] for b in domains[names[j]]]
            keep = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
            allowed = frozenset(p for p, k in zip(pairs, keep, strict=True) if k)
            constraints.append((names[i], names[j], _table(allowed)))
    return CSP.build("random", domains, constraints)


def brute_force(csp: CSP) -> list[dict]:
    """Every solution, by trying every complete assignment."""
    solutions = []
    for values in itertools.product(*(csp.domains[v] for v in csp.variables)):
        assignment = dict(zip(csp.variables, values, strict=True))
        if not csp.conflicts(assignment):
            solutions.append(assignment)
    return solutions


def arc_consistent_domains(csp: CSP) -> dict:
    """The largest arc-consistent domains, by sweeping every arc until nothing changes."""
    domains = {v: list(csp.domains[v]) for v in csp.variables}
    changed = True
    while changed:
        changed = False
        for A, B in csp.relations:
            keep = [a for a in domains[A] if any(csp.constraint(A, a, B, b) for b in domains[B])]
            if keep != domains[A]:
                domains[A], changed = keep, True
    return domains
