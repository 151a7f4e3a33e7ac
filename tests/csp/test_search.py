"""The textbook CSP searches against brute force, and the fast path against the textbook."""

from __future__ import annotations

import itertools
from collections import deque

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lib.csp.fast import CompiledCSP
from lib.csp.problems import australia, n_queens, us_map, zebra
from lib.csp.search import INFERENCES, ac3, backtracking_search, min_conflicts
from lib.csp.trace import CSPTracer, Kind, SearchStopped, replay
from tests.csp.random_csps import arc_consistent_domains, brute_force, small_csps

TECHNIQUES = [
    dict(mrv=mrv, degree=degree, lcv=lcv, inference=inference)
    for mrv, degree, lcv in itertools.product((False, True), repeat=3)
    for inference in INFERENCES
]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(small_csps(), st.sampled_from(TECHNIQUES))
def test_backtracking_finds_a_solution_exactly_when_brute_force_does(csp, techniques):
    solutions = brute_force(csp)
    found = backtracking_search(csp, **techniques)
    if solutions:
        assert found is not None and csp.is_solution(found)
    else:
        assert found is None


@FAST
@given(small_csps(), st.sampled_from(TECHNIQUES))
def test_the_fast_path_makes_the_textbook_choices(csp, techniques):
    tracer = CSPTracer()
    found = backtracking_search(csp, tracer=tracer, **techniques)
    run = CompiledCSP.of(csp).search(**techniques)
    assert run.assignments == tracer.assignments
    assert run.backtracks == tracer.backtracks
    assert (run.solutions[0] if run.solutions else None) == found


@FAST
@given(small_csps(), st.sampled_from(TECHNIQUES))
def test_the_fast_path_counts_every_solution(csp, techniques):
    solutions = brute_force(csp)
    run = CompiledCSP.of(csp).search(limit=10_000, **techniques)
    assert sorted(map(repr, run.solutions)) == sorted(map(repr, solutions))
    assert len(CompiledCSP.of(csp).search(limit=2, **techniques).solutions) == min(
        2, len(solutions)
    )


@FAST
@given(small_csps())
def test_ac3_reaches_the_largest_arc_consistent_domains(csp):
    domains = {v: list(csp.domains[v]) for v in csp.variables}
    arcs = deque((a, b) for a, b in csp.relations)
    expected = arc_consistent_domains(csp)
    consistent = ac3(csp, domains, arcs, [], CSPTracer())
    if all(expected.values()):
        assert consistent and domains == expected
    else:
        assert not consistent
    for solution in brute_force(csp):  # AC-3 never prunes a value of a solution
        assert all(solution[v] in expected[v] for v in csp.variables)


@FAST
@given(small_csps(), st.sampled_from(TECHNIQUES))
def test_replaying_the_events_gives_the_solution(csp, techniques):
    tracer = CSPTracer(record=True)
    found = backtracking_search(csp, tracer=tracer, **techniques)
    end = replay(csp.domains, tracer.events, len(tracer.events) - 1)
    assert tracer.assignments == sum(e.kind is Kind.ASSIGN for e in tracer.events)
    assert tracer.backtracks == sum(e.kind is Kind.BACKTRACK for e in tracer.events)
    if found is not None:
        assert end.assignment == found
        if techniques["inference"] != "none":  # inference leaves each domain its value
            assert end.domains == {v: [found[v]] for v in csp.variables}
    else:
        assert end.assignment == {}
    start = replay(csp.domains, tracer.events, -1)
    assert start.assignment == {} and start.domains == {v: list(d) for v, d in csp.domains.items()}


@FAST
@given(small_csps(), st.integers(0, 10))
def test_min_conflicts_returns_only_solutions(csp, seed):
    found = min_conflicts(csp, max_steps=200, seed=seed)
    if found is not None:
        assert csp.is_solution(found)
    if not brute_force(csp):
        assert found is None


@pytest.mark.parametrize("build", [australia, us_map, zebra, lambda: n_queens(8)])
@pytest.mark.parametrize("techniques", TECHNIQUES[::5], ids=str)
def test_the_bundled_problems_are_solved(build, techniques):
    csp = build()
    tracer = CSPTracer()
    found = backtracking_search(csp, tracer=tracer, max_assignments=200_000, **techniques)
    assert csp.is_solution(found)
    assert tracer.assignments >= len(csp.variables)


def test_min_conflicts_solves_the_maps_and_queens():
    for csp in (australia(), us_map(), n_queens(20)):
        assert csp.is_solution(min_conflicts(csp, max_steps=5_000, seed=1))


def test_n_queens_counts_match_the_known_totals():
    # the number of n-queens solutions, OEIS A000170
    known = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92}
    for n, count in known.items():
        run = CompiledCSP.of(n_queens(n)).search(inference="fc", limit=1_000)
        assert len(run.solutions) == count


def test_mrv_and_forward_checking_beat_plain_backtracking_on_the_us_map():
    plain, fc_mrv = CSPTracer(), CSPTracer()
    backtracking_search(us_map(), tracer=plain)
    backtracking_search(us_map(), mrv=True, inference="fc", tracer=fc_mrv)
    assert fc_mrv.assignments == 48  # never a wrong colour
    assert plain.assignments > 10 * fc_mrv.assignments


def test_a_cap_stops_the_search():
    tracer = CSPTracer()
    with pytest.raises(SearchStopped, match="more than 100 assignments"):
        backtracking_search(n_queens(30), tracer=tracer, max_assignments=100)
    assert tracer.assignments == 100
    with pytest.raises(SearchStopped, match="stopped"):
        backtracking_search(n_queens(30), tracer=CSPTracer(should_stop=lambda: True))
