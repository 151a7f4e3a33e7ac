"""A traced run for the page, its code panel's lines and the pictures of a step."""

from __future__ import annotations

import pickle

import pytest

from lib.csp import plots, runs
from lib.csp.trace import Kind, replay


def test_a_run_pickles_and_counts_what_its_events_say():
    run = runs.traced_run(runs.Settings("usa", inference="fc"))
    assert pickle.loads(pickle.dumps(run)).assignments == run.assignments
    assert run.assignments == sum(e.kind is Kind.ASSIGN for e in run.events)
    assert run.backtracks == sum(e.kind is Kind.BACKTRACK for e in run.events)
    assert run.prunes == sum(e.kind is Kind.PRUNE for e in run.events)


@pytest.mark.parametrize("algorithm", ["backtracking", "min-conflicts"])
def test_every_event_has_a_marked_line_in_the_excerpt(algorithm):
    settings = runs.Settings("queens", n=6, algorithm=algorithm, inference="fc", seed=3)
    run = runs.traced_run(settings)
    lines, marks = runs.listing(algorithm)
    start = runs.excerpt_start(lines)
    for event in run.events:
        line = runs.line_of(event, marks)
        assert line is not None and line > start
        mark = lines[line - 1].rsplit("# [", 1)[1]
        assert mark.startswith(event.kind.value) or (
            event.kind is Kind.PRUNE and mark[:-1] in ("narrow", "infer")
        )
    assert runs.line_of(None, marks) is None
    assert "def " in lines[0] and '"""' not in "\n".join(lines[:3])


def test_a_run_past_its_cap_gives_up(monkeypatch):
    monkeypatch.setattr(runs, "MAX_ASSIGNMENTS", 50)
    run = runs.traced_run(runs.Settings("queens", n=30))
    assert run.solution is None and "more than 50 assignments" in run.gave_up


def test_the_sentences_name_the_variable_and_value():
    run = runs.traced_run(runs.Settings("australia", inference="fc"))
    sentences = [runs.describe(e) for e in run.events]
    assert sentences[0] == "Assign WA = red."
    assert "Prune red from NT's domain (it conflicts with WA)." in sentences
    assert runs.describe(None).startswith("The start")


@pytest.mark.parametrize(
    "settings",
    [
        runs.Settings("australia"),
        runs.Settings("usa", mrv=True),
        runs.Settings("queens", n=8, inference="fc"),
        runs.Settings("sudoku", mrv=True, inference="mac"),
    ],
    ids=lambda s: s.problem,
)
def test_the_pictures_show_the_assignment_and_the_domains(settings):
    run = runs.traced_run(settings)
    middle = replay(run.domains, run.events, len(run.events) // 2)
    figure = plots.figure(run, middle)
    assert figure is not None and figure.layout.height == 460
    table = plots.domains_table(run, middle)
    assert len(table) == len(run.variables)
    assert (table["left"] == [len(middle.domains[v]) for v in run.variables]).all()
    assigned = (table["value"] != "").sum()
    assert assigned == len(middle.assignment)


def test_the_queens_board_shades_pruned_squares():
    run = runs.traced_run(runs.Settings("queens", n=4, inference="fc"))
    first_prune = next(
        i for i, e in enumerate(run.events) if e.kind is Kind.PRUNE and e.cause != e.var
    )
    state = replay(run.domains, run.events, first_prune)
    shaded = [
        s
        for s in plots.queens_figure(run, state).layout.shapes
        if s.fillcolor in ("#fca5a5", "#ef4444")
    ]
    pruned = sum(4 - len(state.domains[v]) for v in run.variables if v not in state.assignment)
    assert len(shaded) == pruned >= 1


def test_min_conflicts_conflicts_are_drawn_in_red():
    run = runs.traced_run(runs.Settings("usa", algorithm="min-conflicts", seed=1))
    n = len(run.variables)
    start = replay(run.domains, run.events, n - 1)  # the greedy complete assignment
    clashes = sum(
        start.assignment[a] == start.assignment[b]
        for a in run.variables
        for b in run.neighbours[a]
        if a < b
    )
    red = plots.map_figure(run, start).data[1]
    assert red.line.color == "#dc2626" and len(red.x) == 3 * clashes
    end = replay(run.domains, run.events, len(run.events) - 1)
    assert run.solution is not None and len(plots.map_figure(run, end).data[1].x) == 0
