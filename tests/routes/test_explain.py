"""What the page says about the algorithms: guarantees, the code panel, step sentences."""

from __future__ import annotations

import pytest

from lib.routes import explain, graphs, search
from lib.routes.trace import Part, replay

ROMANIA = graphs.romania()
LINE = graphs.StraightLine.of(ROMANIA)


def guarantee(name: str) -> str:
    """The page's table's "Shortest route guaranteed" for algorithm ``name``."""
    return next(row[3] for row in explain.algorithm_rows() if row[0] == name)


def test_only_the_optimal_algorithms_are_guaranteed_and_none_is_said_never():
    optimal = {"Uniform-cost", "Bidirectional UCS"}
    admissible = {"A*", "IDA*"}
    for name in search.ALGORITHMS:
        verdict = guarantee(name)
        assert "never" not in verdict
        expected = (
            search.GUARANTEED
            if name in optimal
            else search.IF_ADMISSIBLE
            if name in admissible
            else search.NOT_GUARANTEED
        )
        assert verdict == expected, name
    assert guarantee("BFS") == guarantee("Greedy best-first") == "not guaranteed"
    rows = explain.algorithm_rows()
    assert [row[0] for row in rows] == list(search.ALGORITHMS)
    assert {row[3] for row in rows} == {"yes", "if h is admissible", "not guaranteed"}


def test_a_not_guaranteed_algorithm_does_miss_the_shortest_route_somewhere():
    """The verdicts are true: each "not guaranteed" algorithm is beaten by Dijkstra on Romania."""
    pairs = [(s, t) for s in ROMANIA for t in ROMANIA if s != t]
    for name in search.ALGORITHMS:
        if guarantee(name) != search.NOT_GUARANTEED:
            continue
        worse = [
            (s, t)
            for s, t in pairs
            if search.run(name, ROMANIA, s, t, LINE, w=3.0).cost
            > search.uniform_cost(ROMANIA, s, t).cost + 1e-9
        ]
        assert worse, name


@pytest.mark.parametrize("name", list(search.ALGORITHMS))
def test_the_code_view_marks_the_line_of_each_step_s_part(name):
    result = search.run(name, ROMANIA, "Arad", "Bucharest", LINE, record_trace=True)
    source, parts = explain.pseudocode(explain.CODE[name])
    view = explain.code_view(name, result.trace)
    assert ["".join(text for _, text in spans) for spans in view.lines] == source.splitlines()
    assert len(view.step_lines) == len(result.trace)
    for step, line in zip(result.trace, view.step_lines, strict=True):
        assert line == explain.line_of(step, parts) and line in parts[step.part]
        assert view.line_text[line] == explain.PART_TEXT[step.part]
    # the start's push is the first push mark, every other push the last one
    steps = zip(result.trace, view.step_lines, strict=True)
    pushes = [line for step, line in steps if step.part is Part.PUSH]
    assert pushes[0] == parts[Part.PUSH][0]


def test_best_first_algorithms_show_the_textbook_function():
    for name in explain.BEST_FIRST:
        first = explain.code_view(name, ()).lines[0]
        assert first[:3] == [("keyword", "def"), ("", " "), ("definition", "best_first_search")]


def test_the_book_table_blocks_what_it_cannot_run():
    table = graphs.bucharest_table()
    algos = ["A*", "BFS", 'Course "B*"', "Uniform-cost"]
    assert explain.blocked_by_table(algos, table, "Arad", "Iasi") == (["A*", 'Course "B*"'], "goal")
    assert explain.blocked_by_table(algos, table, "Arad", "Bucharest") == (
        ['Course "B*"'],
        "start",
    )
    assert explain.blocked_by_table(algos, LINE, "Arad", "Iasi") == ([], "")


def test_step_sentences_name_the_part_and_the_places_through_the_label():
    result = search.uniform_cost(ROMANIA, "Arad", "Bucharest", record_trace=True)
    sentences = [
        explain.describe_step(state, step, lambda node: f"<{node}>")
        for state, step in zip(replay(result.trace), result.trace, strict=True)
    ]
    assert sentences[0].startswith("Step 0: the start goes on the frontier: **<Arad>**")
    assert sentences[1].startswith("Step 1: pop **<Arad>**")
    assert sentences[2].startswith("Step 2: push **<Zerind>**, reached from **<Arad>**")
    last = len(sentences) - 1
    assert sentences[-1].startswith(f"Step {last}: goal test passed at **<Bucharest>**")
    parts = [step.part for step in result.trace]
    updates = [s for s, part in zip(sentences, parts, strict=True) if part is Part.UPDATE]
    assert all("a cheaper route via" in s for s in updates)
    assert explain.f_rule("Uniform-cost", 1.5) == "f = g, the length of the route so far."
    assert "w = 2" in explain.f_rule("Weighted A*", 2)
