"""The textbook CSP searches: BACKTRACKING-SEARCH (MRV, degree, LCV, FC, MAC), AC-3, MIN-CONFLICTS.

These are the functions a student reads, shaped like AIMA's pseudocode
(Russell and Norvig, 3rd ed., Figures 6.3, 6.5 and 6.8): each technique is
one small function and :func:`backtracking_search` takes them as switches.
What the search does is reported to a :class:`~lib.csp.trace.CSPTracer`
(assignments, prunings, backtracks, consistency checks), never kept inline.
Sudoku-sized runs that need speed use :mod:`lib.csp.fast`, the same search
over bitmask domains, tested to make the same choices and the same number of
assignments.

Ties are broken by the order of the variables and of the values, so a run is
repeatable: MRV takes the first variable with the fewest legal values, the
degree heuristic (alone, or as MRV's tie-breaker) the one with the most
unassigned neighbours, LCV keeps the domain's order among equal values.

>>> from lib.csp.problems import australia
>>> solution = backtracking_search(australia(), mrv=True, inference="fc")
>>> australia().is_solution(solution)
True
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Hashable

from lib.csp.core import CSP
from lib.csp.trace import CSPTracer, SearchStopped

Assignment = dict
Domains = dict  # variable -> list of the values still possible
Removals = list  # (variable, value) prunings, undone on backtracking

INFERENCES = ("none", "fc", "mac")
INFERENCE_NAMES = {"none": "none", "fc": "forward checking", "mac": "MAC (AC-3)"}


# --------------------------------------------------------------------------- helpers


def consistent(csp: CSP, var, value, assignment: Assignment, tracer: CSPTracer) -> bool:
    """Whether ``var = value`` breaks no constraint with the variables assigned so far."""
    for other in csp.neighbours[var]:
        if other in assignment:
            tracer.check()
            if not csp.constraint(var, value, other, assignment[other]):
                return False
    return True


def legal_values(csp: CSP, var, assignment: Assignment, domains: Domains) -> list:
    """The values left in ``var``'s domain that agree with every assigned neighbour."""
    return [
        value
        for value in domains[var]
        if all(
            csp.constraint(var, value, other, assignment[other])
            for other in csp.neighbours[var]
            if other in assignment
        )
    ]


def prune(domains: Domains, var, value, removals: Removals, tracer: CSPTracer, cause=None) -> None:
    """Take ``value`` out of ``var``'s domain, remembering it in ``removals``."""
    domains[var].remove(value)  # [prune]
    removals.append((var, value))
    tracer.prune(var, value, cause)


def restore(csp: CSP, domains: Domains, removals: Removals) -> None:
    """Put back every pruned value, each domain in its first order again."""
    for var in {var for var, _ in removals}:
        back = set(domains[var]) | {value for other, value in removals if other == var}
        domains[var] = [value for value in csp.domains[var] if value in back]


# --------------------------------------------------------------------------- ordering


def select_unassigned_variable(
    csp: CSP, assignment: Assignment, domains: Domains, mrv: bool, degree: bool
) -> Hashable:
    """The next variable: the first in order, or by MRV and/or the degree heuristic.

    MRV (minimum remaining values) prefers the variable with the fewest legal
    values left; the degree heuristic the one constraining the most unassigned
    variables. With both, the degree breaks MRV's ties.
    """

    def key(var):
        remaining = len(legal_values(csp, var, assignment, domains)) if mrv else 0
        unassigned = sum(other not in assignment for other in csp.neighbours[var])
        return (remaining, -unassigned if degree else 0)

    return min((var for var in csp.variables if var not in assignment), key=key)


def order_domain_values(csp: CSP, var, assignment: Assignment, domains: Domains, lcv: bool) -> list:
    """``var``'s values to try, in domain order, or least-constraining value first (LCV).

    LCV counts, for each value, the choices it would rule out in the unassigned
    neighbours' legal values, and tries the value ruling out the fewest first.
    """
    values = list(domains[var])
    if not lcv:
        return values

    def ruled_out(value) -> int:
        return sum(
            not csp.constraint(var, value, other, choice)
            for other in csp.neighbours[var]
            if other not in assignment
            for choice in legal_values(csp, other, assignment, domains)
        )

    return sorted(values, key=ruled_out)


# --------------------------------------------------------------------------- inference


def no_inference(csp, var, value, assignment, domains, removals, tracer) -> bool:
    """Plain backtracking: infer nothing."""
    return True


def forward_checking(csp, var, value, assignment, domains, removals, tracer) -> bool:
    """Prune the unassigned neighbours' values that disagree with ``var = value``.

    Fails (returns False) as soon as a neighbour has no value left.
    """
    for other in csp.neighbours[var]:
        if other not in assignment:
            for choice in list(domains[other]):
                tracer.check()
                if not csp.constraint(var, value, other, choice):
                    prune(domains, other, choice, removals, tracer, var)
            if not domains[other]:
                return False
    return True


def revise(csp: CSP, domains: Domains, Xi, Xj, removals: Removals, tracer: CSPTracer) -> bool:
    """Remove each value of Xi that no value of Xj supports; say whether any went."""
    revised = False
    for x in list(domains[Xi]):
        supported = False
        for y in domains[Xj]:
            tracer.check()
            if csp.constraint(Xi, x, Xj, y):
                supported = True
                break
        if not supported:
            prune(domains, Xi, x, removals, tracer, Xj)
            revised = True
    return revised


def ac3(csp: CSP, domains: Domains, queue: deque, removals: Removals, tracer: CSPTracer) -> bool:
    """AC-3: make every arc on ``queue`` (and every arc it touches) consistent.

    Returns False when a domain becomes empty (the problem has no solution
    from here).
    """
    while queue:
        Xi, Xj = queue.popleft()
        if revise(csp, domains, Xi, Xj, removals, tracer):
            if not domains[Xi]:
                return False
            for Xk in csp.neighbours[Xi]:
                if Xk != Xj:
                    queue.append((Xk, Xi))
    return True


def mac(csp, var, value, assignment, domains, removals, tracer) -> bool:
    """Maintaining arc consistency: AC-3 from the arcs into ``var``'s unassigned neighbours."""
    queue = deque((other, var) for other in csp.neighbours[var] if other not in assignment)
    return ac3(csp, domains, queue, removals, tracer)


INFERENCE: dict[str, Callable[..., bool]] = {
    "none": no_inference,
    "fc": forward_checking,
    "mac": mac,
}


# --------------------------------------------------------------------------- the search


def backtracking_search(
    csp: CSP,
    *,
    mrv: bool = False,
    degree: bool = False,
    lcv: bool = False,
    inference: str = "none",
    tracer: CSPTracer | None = None,
    max_assignments: int | None = None,
) -> Assignment | None:
    """BACKTRACKING-SEARCH: a solution (variable -> value), or None when there is none.

    ``inference`` is ``"none"``, ``"fc"`` (forward checking) or ``"mac"``
    (maintaining arc consistency, which also runs AC-3 on every arc before the
    search). Raises :class:`~lib.csp.trace.SearchStopped` past
    ``max_assignments`` or when the tracer is told to stop.
    """
    tracer = tracer if tracer is not None else CSPTracer()
    infer = INFERENCE[inference]
    domains = {var: list(csp.domains[var]) for var in csp.variables}
    if inference == "mac":
        arcs = deque((Xi, Xj) for Xi in csp.variables for Xj in csp.neighbours[Xi])
        if not ac3(csp, domains, arcs, [], tracer):
            return None

    def backtrack(assignment: Assignment) -> Assignment | None:
        if len(assignment) == len(csp.variables):
            tracer.solution()  # [solution]
            return dict(assignment)
        var = select_unassigned_variable(csp, assignment, domains, mrv, degree)  # [select]
        for value in order_domain_values(csp, var, assignment, domains, lcv):
            if consistent(csp, var, value, assignment, tracer):
                if max_assignments is not None and tracer.assignments >= max_assignments:
                    raise SearchStopped(f"more than {max_assignments:,} assignments", tracer)
                if tracer.stopping():
                    raise SearchStopped("stopped", tracer)
                assignment[var] = value  # [assign]
                tracer.assign(var, value)
                removals: Removals = []
                for other in [v for v in domains[var] if v != value]:
                    prune(domains, var, other, removals, tracer, var)  # [narrow]
                if infer(csp, var, value, assignment, domains, removals, tracer):  # [infer]
                    result = backtrack(assignment)
                    if result is not None:
                        return result
                del assignment[var]  # [unassign]
                restore(csp, domains, removals)
                tracer.unassign(var, value, removals)
        tracer.backtrack(var)  # [backtrack]
        return None

    return backtrack({})


# --------------------------------------------------------------------------- local search


def n_conflicts(csp: CSP, var, value, assignment: Assignment, tracer: CSPTracer) -> int:
    """How many assigned neighbours ``var = value`` conflicts with."""
    count = 0
    for other in csp.neighbours[var]:
        if other in assignment:
            tracer.check()
            count += not csp.constraint(var, value, other, assignment[other])
    return count


def min_conflicts_value(csp: CSP, var, current: Assignment, rng: random.Random, tracer) -> object:
    """The value of ``var`` with the fewest conflicts (ties broken at random)."""
    scores = {value: n_conflicts(csp, var, value, current, tracer) for value in csp.domains[var]}
    fewest = min(scores.values())
    return rng.choice([value for value, score in scores.items() if score == fewest])


def min_conflicts(
    csp: CSP,
    *,
    max_steps: int = 10_000,
    seed: int = 0,
    tracer: CSPTracer | None = None,
) -> Assignment | None:
    """MIN-CONFLICTS: a solution, or None after ``max_steps`` steps without one.

    Starts from a greedy complete assignment (each variable in turn takes its
    least-conflicting value), then repeatedly gives a randomly chosen
    conflicted variable the value with the fewest conflicts.
    """
    tracer = tracer if tracer is not None else CSPTracer()
    rng = random.Random(seed)
    current: Assignment = {}
    for var in csp.variables:
        current[var] = min_conflicts_value(csp, var, current, rng, tracer)  # [assign]
        tracer.assign(var, current[var], note="initial assignment")
    for _ in range(max_steps):
        conflicted = [
            var for var in csp.variables if n_conflicts(csp, var, current[var], current, tracer)
        ]
        if not conflicted:
            tracer.solution()  # [solution]
            return current
        if tracer.stopping():
            raise SearchStopped("stopped", tracer)
        var = rng.choice(conflicted)  # [select]
        current[var] = min_conflicts_value(csp, var, current, rng, tracer)  # [assign]
        tracer.assign(var, current[var], note=f"{len(conflicted)} variables in conflict")
    return None


def run_algorithm(
    csp: CSP,
    algorithm: str,
    *,
    mrv: bool,
    degree: bool,
    lcv: bool,
    inference: str,
    seed: int,
    max_steps: int,
    max_assignments: int,
    tracer: CSPTracer,
) -> Assignment | None:
    """``min-conflicts`` (with ``seed``, ``max_steps``) or backtracking with the techniques
    given, on ``csp``: the one choice the command line and the page both make."""
    if algorithm == "min-conflicts":
        return min_conflicts(csp, max_steps=max_steps, seed=seed, tracer=tracer)
    return backtracking_search(
        csp,
        mrv=mrv,
        degree=degree,
        lcv=lcv,
        inference=inference,
        tracer=tracer,
        max_assignments=max_assignments,
    )
