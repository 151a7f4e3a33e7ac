"""Korf's 100 instances: the data checked, and the easiest solved at their published lengths."""

from __future__ import annotations

from lib.puzzles.board import apply_moves, goal_board, solvability
from lib.puzzles.fast import fast_ida_star
from lib.puzzles.heuristics import manhattan
from lib.puzzles.korf import korf_instances


def test_the_bundled_instances_agree_with_the_paper():
    instances = korf_instances()
    assert [i.number for i in instances] == list(range(1, 101))
    assert sum(i.length for i in instances) / 100 == 53.05
    assert all(solvability(i.board).solvable for i in instances)
    assert all(manhattan(i.board) == i.manhattan for i in instances)  # the paper's h column
    assert all((i.length - i.manhattan) % 2 == 0 for i in instances)
    assert len({i.board for i in instances}) == 100


def test_the_easiest_instances_are_solved_at_their_published_lengths():
    easy = sorted(korf_instances(), key=lambda i: i.ida_nodes)[:4]
    for instance in easy:
        run = fast_ida_star(instance.board, "pdb")
        assert len(run.moves) == instance.length
        assert apply_moves(instance.board, run.moves) == goal_board(4)
        manhattan_run = fast_ida_star(instance.board, "h2")
        assert len(manhattan_run.moves) == instance.length
        assert run.generated < manhattan_run.generated  # the database prunes far more
