"""The bundled problems: maps checked for symmetry and size, the zebra's known answer."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from lib.csp.core import CSP, all_different, not_equal
from lib.csp.problems import DATA, PROBLEMS, australia, n_queens, us_map, zebra
from lib.csp.search import backtracking_search
from lib.errors import InputError


def test_australia_is_the_books_map():
    csp = australia()
    assert csp.variables == ("WA", "NT", "Q", "NSW", "V", "SA", "T")
    assert set(csp.neighbours["SA"]) == {"WA", "NT", "Q", "NSW", "V"}
    assert csp.neighbours["T"] == ()
    assert csp.arcs == 9


def test_the_us_file_is_symmetric_planar_and_connected():
    data = json.loads((DATA / "us_states.json").read_text())
    G = nx.Graph([tuple(edge) for edge in data["borders"]])
    assert G.number_of_nodes() == 48 and set(G) == set(data["states"])
    # the contiguous-USA graph has 107 edges with Washington DC (2 of them), so 105 without
    assert G.number_of_edges() == len(data["borders"]) == 105
    assert nx.is_connected(G) and nx.check_planarity(G)[0]
    csp = us_map()
    for a in csp.variables:  # every border is in both states' neighbours
        for b in csp.neighbours[a]:
            assert a in csp.neighbours[b]
    assert {frozenset(e) for e in G.edges} == {
        frozenset((a, b)) for a in csp.variables for b in csp.neighbours[a]
    }
    assert set(csp.neighbours["TN"]) == {"KY", "VA", "NC", "GA", "AL", "MS", "AR", "MO"}


def test_the_us_map_needs_four_colours():
    assert backtracking_search(us_map(3), mrv=True, inference="mac") is None
    assert us_map().is_solution(backtracking_search(us_map(), mrv=True, inference="fc"))


def test_the_zebra_puzzle_has_the_known_answer():
    csp = zebra()
    solution = backtracking_search(csp, mrv=True, inference="mac")
    assert solution["Zebra"] == solution["Japanese"]
    assert solution["Water"] == solution["Norwegian"] == 1
    assert csp.is_solution(solution)


def test_queens_are_refused_outside_their_range():
    for n in (0, -1, 10**9, 101):
        with pytest.raises(InputError, match="number of queens"):
            n_queens(n)
    assert n_queens(1).arcs == 0 and n_queens(4).arcs == 6


def test_constraints_naming_unknown_variables_are_refused():
    with pytest.raises(InputError, match="'C'"):
        CSP.build("bad", {"A": (1,), "B": (1,)}, [("A", "C", not_equal)])
    with pytest.raises(InputError, match="two variables"):
        CSP.build("bad", {"A": (1,)}, [("A", "A", not_equal)])


def test_two_constraints_on_a_pair_must_both_hold():
    csp = CSP.build(
        "pair",
        {"A": (1, 2, 3), "B": (1, 2, 3)},
        [*all_different("AB"), ("A", "B", lambda a, b: a < b + 1)],
    )
    assert not csp.constraint("A", 2, "B", 2) and not csp.constraint("A", 3, "B", 1)
    assert csp.constraint("A", 1, "B", 3) and csp.constraint("B", 3, "A", 1)


@pytest.mark.parametrize("key", list(PROBLEMS))
def test_every_problem_builds_with_its_defaults(key):
    csp = PROBLEMS[key].build()
    assert csp.variables and csp.kind in {"map", "queens", "sudoku", "zebra"}
