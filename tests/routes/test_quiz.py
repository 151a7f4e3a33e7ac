"""You be the algorithm: the quiz's answers are the trace's expansions, its rule and its score."""

from __future__ import annotations

import itertools

import networkx as nx
import pytest

from lib.errors import InputError
from lib.routes import quiz, search
from lib.routes.graphs import StraightLine, grid, romania
from lib.routes.trace import Part


def _trace(name, G=None, start="Arad", goal="Bucharest"):
    G = romania() if G is None else G
    return search.run(name, G, start, goal, StraightLine.of(G), record_trace=True)


def _expansions(name, trace):
    """The places the trace expanded, read off its parts: pops, or expand and goal-test steps."""
    if name in ("BFS", "DFS"):
        return [s.current for s in trace if s.part in (Part.EXPAND, Part.GOAL_TEST)]
    return [s.current for s in trace if s.part is Part.POP]


@pytest.mark.parametrize("name", quiz.QUIZ_ALGORITHMS)
def test_the_expected_answers_are_the_trace_s_expansion_order_on_romania(name):
    for goal in ("Bucharest", "Neamt", "Timisoara"):
        result = _trace(name, goal=goal)
        asked = quiz.questions(name, result.trace)
        assert [q.answer for q in asked] == _expansions(name, result.trace)
        assert len(asked) == result.expanded
        for q in asked:  # the answer was on the frontier, each place once, named in order
            assert q.choice(q.answer) is not None
            assert len({c.node for c in q.frontier}) == len(q.frontier)
            assert [c.label for c in q.frontier] == sorted(c.label for c in q.frontier)


@pytest.mark.parametrize("name", quiz.QUIZ_ALGORITHMS)
def test_the_stated_rule_with_its_tie_break_picks_what_the_trace_expanded(name):
    """On every Romania pair and on grids, where equal f, g and h are common."""
    maps = [romania(), grid(8, 8, obstacles=0.15, seed=2), grid(7, 7, diagonal=True, seed=5)]
    ties = 0
    for G in maps:
        h = StraightLine.of(G)
        places = sorted(max(nx.connected_components(G), key=len), key=str)[:25]
        for start, goal in itertools.permutations(places, 2):
            result = search.run(name, G, start, goal, h, record_trace=True)
            for q in quiz.questions(name, result.trace):
                assert quiz.rule_pick(name, q.frontier).node == q.answer
                best = quiz.decider(name, q.choice(q.answer))
                ties += sum(quiz.decider(name, c) == best for c in q.frontier) > 1
    assert name in ("BFS", "DFS") or ties > 0  # the tie rule was put to the test


def test_right_and_wrong_answers_are_scored_and_explained_with_the_values():
    result = _trace("A*")
    asked = quiz.questions("A*", result.trace)
    rnd = quiz.answer(quiz.Round(), asked, "Arad", "A*")
    assert quiz.score(rnd) == (1, 1) and rnd.answers[0].right
    second = asked[1]
    assert second.answer == "Sibiu"
    rnd = quiz.answer(rnd, asked, "Zerind", "A*")
    last = rnd.answers[-1]
    assert quiz.score(rnd) == (1, 2) and not last.right
    assert (last.chosen, last.expected) == ("Zerind", "Sibiu")
    sibiu, zerind = second.choice("Sibiu"), second.choice("Zerind")
    assert f"You chose Zerind (f = g + h = 75 + {zerind.h:.4g} = {zerind.f:.4g})" in last.why
    assert (
        f"A* expands Sibiu: f = g + h = 140 + {sibiu.h:.4g} = {sibiu.f:.4g}, lowest f" in last.why
    )
    for node in [q.answer for q in asked[2:]]:
        rnd = quiz.answer(rnd, asked, node, "A*")
    assert rnd.finished(asked) and quiz.score(rnd) == (len(asked) - 1, len(asked))
    assert quiz.answer(rnd, asked, "Arad", "A*") is rnd  # a finished round takes no more answers
    table = quiz.answers_table(rnd)
    assert list(table["right"]) == [True, False] + [True] * (len(asked) - 2)
    assert list(table["expanded"]) == [q.answer for q in asked]
    assert list(table.columns) == ["question", "step", "chosen", "expanded", "right", "why"]


def test_a_tie_is_explained_with_the_newest_first_rule():
    G = grid(5, 5, obstacles=0.0)
    result = search.run("Uniform-cost", G, (0, 0), (4, 4), None, record_trace=True)
    asked = quiz.questions("Uniform-cost", result.trace)
    tied = next(
        q for q in asked
        if sum(c.g == q.choice(q.answer).g for c in q.frontier) > 1
    )  # fmt: skip
    why = quiz.explain("Uniform-cost", tied, tied.answer)
    assert "tied with" in why and "on a tie the newest entry goes first" in why
    assert "itertools.count(0, -1)" in quiz.RULES["Uniform-cost"]


@pytest.mark.parametrize(
    ("name", "said"),
    [("BFS", "the oldest on the frontier"), ("DFS", "the newest on the frontier")],
)
def test_bfs_and_dfs_are_decided_by_the_order_of_the_pushes(name, said):
    asked = quiz.questions(name, _trace(name).trace)
    q = asked[1]
    why = quiz.explain(name, q, q.answer)
    assert f"pushed #{q.choice(q.answer).order}, {said}" in why
    table = quiz.frontier_table(name, q)
    assert list(table.columns) == ["node", "g", "depth", "pushed", "parent"]
    orders = dict(zip(table["node"], table["pushed"], strict=True))
    pick = min(orders, key=orders.get) if name == "BFS" else max(orders, key=orders.get)
    assert pick == q.answer


def test_only_the_five_algorithms_and_one_sided_searches_can_be_played():
    with pytest.raises(InputError, match="cannot be played"):
        quiz.questions("IDA*", _trace("IDA*").trace)
    with pytest.raises(InputError, match="one search"):
        quiz.questions("A*", _trace("Bidirectional UCS").trace)


@pytest.mark.parametrize("name", quiz.QUIZ_ALGORITHMS)
def test_the_frontier_table_is_in_the_algorithm_s_own_order_answer_first(name):
    """The table is sorted as the search takes the places (f, then the tie rule): its
    first row is what the trace expanded, and each row comes before the next by the rule."""
    maps = [romania(), grid(8, 8, obstacles=0.15, seed=2)]
    for G in maps:
        places = sorted(max(nx.connected_components(G), key=len), key=str)
        result = search.run(name, G, places[0], places[-1], StraightLine.of(G), record_trace=True)
        for q in quiz.questions(name, result.trace):
            table = quiz.frontier_table(name, q)
            assert table["node"].iloc[0] == q.choice(q.answer).label
            assert sorted(table["node"]) == sorted(c.label for c in q.frontier)
            for row in range(len(table) - 1):  # the rule picks each row from the rows below it
                below = [q.choice(graph_node(G, n)) for n in table["node"].iloc[row:]]
                assert quiz.rule_pick(name, below).label == table["node"].iloc[row]
    for name_ in quiz.QUIZ_ALGORITHMS:  # the order is said in words, the tie included
        assert "first" in quiz.ORDER_TEXT[name_]
        assert name_ in ("BFS", "DFS") or "tie" in quiz.ORDER_TEXT[name_]


def graph_node(G, label):
    return next(node for node in G if quiz.node_label(node) == label)
