"""The Sudoku parser (hypothesis: any text is read or refused naming the cell), and the solver."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.csp.fast import CompiledCSP
from lib.csp.search import backtracking_search
from lib.csp.sudoku import (
    bundled,
    check_givens,
    format_grid,
    grid_of,
    parse_grid,
    solve,
    sudoku_csp,
    units,
)
from lib.errors import InputError

SOLVED = "859612437723854169164379528986147352375268914241593786432981675617425893598736241"
NO_SOLUTION = "12345678." + "........9" + "." * 63  # r1c9 must be 9, column 9 has one
# SOLVED with a "deadly rectangle" blanked: 2 and 6 in rows 2-3, columns 2 and 8 can swap
TWO_SOLUTIONS = "8596124377.38541.91.43795.8986147352375268914241593786432981675617425893598736241"


def is_valid_solution(grid: str) -> bool:
    return all(sorted(grid[i] for i in cells) == list("123456789") for _, cells in units())


@given(st.text(max_size=200))
@settings(max_examples=300)
def test_any_text_is_read_or_refused_with_a_reason(text):
    try:
        grid = parse_grid(text)
    except InputError as error:
        assert "cell" in str(error) or "Character" in str(error)
        return
    assert len(grid) == 81 and set(grid) <= set("0123456789")


@given(
    st.lists(st.sampled_from("0123456789."), min_size=81, max_size=81),
    st.lists(st.sampled_from(" \n\t"), min_size=0, max_size=20),
    st.randoms(use_true_random=False),
)
def test_whitespace_anywhere_is_ignored_and_dots_are_blanks(cells, spaces, rng):
    text = list("".join(cells))
    for space in spaces:
        text.insert(rng.randrange(len(text) + 1), space)
    assert parse_grid("".join(text)) == "".join(cells).replace(".", "0")


@given(st.integers(0, 80), st.sampled_from("xA-|/#é*"))
def test_a_bad_character_is_named_with_its_cell(index, char):
    text = "." * index + char + "." * (80 - index)
    row, column = index // 9 + 1, index % 9 + 1
    with pytest.raises(InputError, match=rf"cell {index + 1} \(row {row}, column {column}\)"):
        parse_grid(text)


@given(st.integers(0, 200).filter(lambda n: n != 81))
def test_a_wrong_length_is_named(length):
    with pytest.raises(InputError, match=f"has {length} cells"):
        parse_grid("." * length)


def test_a_huge_paste_is_refused_before_reading():
    with pytest.raises(InputError, match="characters long"):
        parse_grid(" " * 5_000 + "." * 81)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {0: "5", 8: "5"},
            "digit 5 appears twice in row 1: at row 1, column 1 and at row 1, column 9",
        ),
        ({0: "7", 72: "7"}, "digit 7 appears twice in column 1"),
        ({30: "4", 50: "4"}, r"digit 4 appears twice in box 5 \(rows 4-6, columns 4-6\)"),
    ],
)
def test_a_repeated_digit_names_the_unit_and_cells(changes, message):
    grid = ["0"] * 81
    for index, digit in changes.items():
        grid[index] = digit
    with pytest.raises(InputError, match=message):
        check_givens("".join(grid))
    with pytest.raises(InputError, match=message):
        solve("".join(grid))


def test_bundled_puzzles_have_exactly_one_valid_solution():
    # all of them in bench.csp; here the named ones and two more, to keep the test short
    assert len(bundled()) >= 10
    names = ["Inkala 2010", "AI Escargot", "Inkala 2012", "Norvig hardest 1", "Norvig hardest 7"]
    for name in names:
        text = bundled()[name]
        grid = parse_grid(text)
        result = solve(grid)
        assert len(result.solutions) == 1, name
        solution = result.solutions[0]
        assert is_valid_solution(solution), name
        assert all(g in "0" + s for g, s in zip(grid, solution, strict=True)), name
    assert solve(parse_grid(bundled()["Norvig hardest 1"])).solutions[0] == SOLVED


def test_no_solution_and_two_solutions_are_told():
    assert solve(NO_SOLUTION).solutions == ()
    two = solve(TWO_SOLUTIONS)
    assert len(two.solutions) == 2 and SOLVED in two.solutions
    assert all(is_valid_solution(s) for s in two.solutions)
    assert sum(a != b for a, b in zip(*two.solutions, strict=True)) == 4


def test_the_textbook_search_agrees_with_the_fast_one_on_a_sudoku():
    grid = parse_grid(bundled()["Norvig hardest 5"])
    csp = sudoku_csp(grid)
    solution = backtracking_search(csp, mrv=True, inference="mac")
    assert grid_of(solution) == solve(grid).solutions[0]
    run = CompiledCSP.of(csp).search(mrv=True, inference="mac")
    assert grid_of(run.solutions[0]) == grid_of(solution)


def test_a_solved_grid_with_cells_blanked_is_solved_back():
    rng = random.Random(3)
    grid = list(SOLVED)
    for index in rng.sample(range(81), 45):
        grid[index] = "0"
    result = solve("".join(grid))
    assert SOLVED in result.solutions


def test_the_grid_is_formatted_in_boxes():
    text = format_grid(parse_grid(bundled()["Norvig hardest 1"]))
    assert text.splitlines()[0] == "85. ..2 4.."
    assert len(text.splitlines()) == 11
