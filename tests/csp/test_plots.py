"""The CSP pictures show the search's state: every digit and candidate where it belongs."""

from __future__ import annotations

import pytest

from lib.csp import plots, runs
from lib.csp.sudoku import variable
from lib.csp.trace import replay


@pytest.fixture(scope="module")
def sudoku_run() -> runs.TracedRun:
    return runs.traced_run(
        runs.Settings(problem="sudoku", algorithm="backtracking", mrv=True, inference="fc")
    )


def _cells(trace) -> dict[tuple[int, int], str]:
    """``{(row, column): text}`` of a text trace drawn at the cells' centres."""
    return {
        (round(8.5 - y), round(x - 0.5)): text
        for x, y, text in zip(trace.x, trace.y, trace.text, strict=True)
    }


@pytest.mark.parametrize("share", [0.0, 0.3, 1.0])
def test_the_sudoku_grid_shows_each_digit_and_the_candidates_left(sudoku_run, share) -> None:
    step = int(share * len(sudoku_run.events))
    state = replay(sudoku_run.domains, sudoku_run.events, step)
    candidates, digits = plots.sudoku_figure(sudoku_run, state).data
    shown, left = _cells(digits), _cells(candidates)
    grid = sudoku_run.info["grid"]
    for index in range(81):
        cell, var = divmod(index, 9), variable(index)
        value = state.assignment.get(var)
        if grid[index] != "0":
            assert shown[cell] == grid[index]
        elif value is not None:
            assert shown[cell] == str(value)
        else:
            expected = sorted(state.domains[var])
            written = left[cell].replace("<br>", " ").split()
            assert written == ["∅"] if not expected else [int(d) for d in written] == expected
    assert len(shown) + len(left) == 81


def test_the_cell_the_step_is_about_is_shaded(sudoku_run) -> None:
    state = replay(sudoku_run.domains, sudoku_run.events, 10)
    shaded = [s for s in plots.sudoku_figure(sudoku_run, state).layout.shapes if s.type == "rect"]
    (rect,) = shaded
    r, c = round(8 - rect.y0), round(rect.x0)
    assert variable(9 * r + c) == state.event.var
