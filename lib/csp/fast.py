"""The fast path: the same backtracking search over bitmask domains, counting solutions.

:class:`CompiledCSP` numbers a :class:`~lib.csp.core.CSP`'s variables and
values once and keeps, for every arc ``(X, Y)`` and value ``a`` of X, the
bitmask of Y's values compatible with ``X = a`` (a "not equal" arc needs no
predicate calls). A domain is then one integer, forward checking one ``&``
per neighbour and AC-3's revise one ``&`` per value. The search makes the
same choices as :func:`lib.csp.search.backtracking_search` (variable order,
MRV, degree, LCV, the same ties), so it makes the same assignments; tests
check both on random small CSPs. It can go on after the first solution, to
count solutions up to a limit (a Sudoku with two solutions says so).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from lib.csp.core import CSP
from lib.csp.trace import SearchStopped


def _bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _equal_bits(mine: tuple, theirs: tuple) -> list[int]:
    """For each of ``theirs``' values, the bit of the equal value in ``mine`` (0: none)."""
    position = {value: k for k, value in enumerate(mine)}
    return [1 << position[b] if b in position else 0 for b in theirs]


@dataclass
class FastRun:
    """What :meth:`CompiledCSP.search` found: solutions (up to the limit) and its work."""

    solutions: list[dict] = field(default_factory=list)
    assignments: int = 0
    backtracks: int = 0


@dataclass(frozen=True, eq=False)
class CompiledCSP:
    """A CSP with numbered variables and values, bitmask domains and support tables."""

    csp: CSP
    values: tuple[tuple, ...]  # the values of each variable, by index
    masks: tuple[int, ...]  # the initial domains
    neighbours: tuple[tuple[int, ...], ...]
    support: dict  # (i, j) -> per value index of i: mask of j's compatible values
    equal: dict  # a "not equal" arc (i, j) -> per value index of j: the bit of i's equal value
    tables_into: tuple[tuple[int, ...], ...]  # the neighbours k of i whose arc (k, i) is not "!="

    @classmethod
    def of(cls, csp: CSP) -> CompiledCSP:
        """Compile ``csp`` (the support tables cost one predicate call per value pair)."""
        index = {var: i for i, var in enumerate(csp.variables)}
        values = tuple(tuple(csp.domains[var]) for var in csp.variables)
        support: dict = {}
        for (A, B), relation in csp.relations.items():
            i, j = index[A], index[B]
            full = (1 << len(values[j])) - 1
            if csp.is_ne(A, B):
                position = {value: k for k, value in enumerate(values[j])}
                support[(i, j)] = [
                    full & ~(1 << position[a]) if a in position else full for a in values[i]
                ]
            else:
                support[(i, j)] = [
                    sum(1 << k for k, b in enumerate(values[j]) if relation(a, b))
                    for a in values[i]
                ]
        return cls(
            csp,
            values,
            tuple((1 << len(v)) - 1 for v in values),
            tuple(tuple(index[n] for n in csp.neighbours[var]) for var in csp.variables),
            support,
            {
                (index[A], index[B]): _equal_bits(values[index[A]], values[index[B]])
                for A, B in csp.relations
                if csp.is_ne(A, B)
            },
            tuple(
                tuple(index[n] for n in csp.neighbours[var] if not csp.is_ne(n, var))
                for var in csp.variables
            ),
        )

    # ---------------------------------------------------------------- pieces

    def _legal(self, i: int, dom: list[int], value: list[int]) -> int:
        mask = dom[i]
        for j in self.neighbours[i]:
            if value[j] >= 0:
                mask &= self.support[(j, i)][value[j]]
        return mask

    def _select(self, dom, value, mrv: bool, degree: bool, inferring: bool) -> int:
        best, best_key = -1, None
        for i in range(len(dom)):
            if value[i] >= 0:
                continue
            remaining = 0
            if mrv:
                remaining = (dom[i] if inferring else self._legal(i, dom, value)).bit_count()
            unassigned = sum(value[j] < 0 for j in self.neighbours[i]) if degree else 0
            key = (remaining, -unassigned)
            if best_key is None or key < best_key:
                best, best_key = i, key
        return best

    def _order(self, i: int, dom, value, lcv: bool, inferring: bool) -> list[int]:
        candidates = _bits(dom[i])
        if not lcv:
            return candidates
        others = [j for j in self.neighbours[i] if value[j] < 0]
        legal = {j: dom[j] if inferring else self._legal(j, dom, value) for j in others}

        def ruled_out(a: int) -> int:
            return sum((legal[j] & ~self.support[(i, j)][a]).bit_count() for j in others)

        return sorted(candidates, key=ruled_out)

    def _consistent(self, i: int, a: int, value: list[int]) -> bool:
        return all(
            value[j] < 0 or self.support[(i, j)][a] >> value[j] & 1 for j in self.neighbours[i]
        )

    def _ac3(self, dom: list[int], queue: deque) -> bool:
        support, neighbours, equal = self.support, self.neighbours, self.equal
        while queue:
            xi, xj = queue.popleft()
            other, old = dom[xj], dom[xi]
            same = equal.get((xi, xj))
            if same is not None:  # "not equal": only a single value left in xj removes one
                if other & (other - 1):
                    continue
                new = old & ~same[other.bit_length() - 1]
            else:
                new, table = old, support[(xi, xj)]
                for a in _bits(old):
                    if not table[a] & other:
                        new &= ~(1 << a)
            if new != old:
                if not new:
                    return False
                dom[xi] = new
                # a "not equal" arc into xi can prune only once xi is down to one value
                into = neighbours[xi] if not new & (new - 1) else self.tables_into[xi]
                queue.extend((xk, xi) for xk in into if xk != xj)
        return True

    def _infer(self, i: int, a: int, dom: list[int], value: list[int], inference: str) -> bool:
        if inference == "fc":
            for j in self.neighbours[i]:
                if value[j] < 0:
                    dom[j] &= self.support[(i, j)][a]
                    if not dom[j]:
                        return False
            return True
        if inference == "mac":
            return self._ac3(dom, deque((j, i) for j in self.neighbours[i] if value[j] < 0))
        return True

    # ---------------------------------------------------------------- the search

    def search(
        self,
        *,
        mrv: bool = False,
        degree: bool = False,
        lcv: bool = False,
        inference: str = "none",
        limit: int = 1,
        max_assignments: int | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> FastRun:
        """The textbook backtracking search on bitmasks, going on to ``limit`` solutions.

        ``run.assignments`` counts the assignments until the search stopped: at
        the first solution when ``limit`` is 1 (the reference's count).
        """
        run = FastRun()
        n = len(self.values)
        dom = list(self.masks)
        value = [-1] * n
        inferring = inference != "none"
        if inference == "mac":
            arcs = deque((i, j) for i in range(n) for j in self.neighbours[i])
            if not self._ac3(dom, arcs):
                return run

        def backtrack(depth: int) -> bool:  # True: stop (the limit is reached)
            nonlocal dom
            if depth == n:
                run.solutions.append(
                    {var: self.values[k][value[k]] for k, var in enumerate(self.csp.variables)}
                )
                return len(run.solutions) >= limit
            i = self._select(dom, value, mrv, degree, inferring)
            for a in self._order(i, dom, value, lcv, inferring):
                if not self._consistent(i, a, value):
                    continue
                if max_assignments is not None and run.assignments >= max_assignments:
                    raise SearchStopped(f"more than {max_assignments:,} assignments")
                if should_stop is not None and run.assignments % 256 == 0 and should_stop():
                    raise SearchStopped("stopped")
                run.assignments += 1
                saved = dom[:]
                value[i], dom[i] = a, 1 << a
                if self._infer(i, a, dom, value, inference) and backtrack(depth + 1):
                    return True
                value[i], dom = -1, saved
            run.backtracks += 1
            return False

        backtrack(0)
        return run
