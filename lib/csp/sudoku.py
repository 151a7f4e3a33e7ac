"""Sudoku as typed or pasted: the parser, the checks naming the mistake, the bundled hard puzzles.

A grid is 81 characters, row by row: a digit 1-9 for a given, ``.`` or ``0``
for a blank; whitespace (spaces, line breaks) is ignored, so a grid may be
pasted as nine lines. :func:`parse_grid` refuses anything else naming the cell
and the character; :func:`check_givens` a digit repeated in a row, column or
box, naming the digit and where. :func:`solve` runs the fast MAC + MRV search
and counts solutions up to two, so a puzzle with none or with several says so;
past :data:`MAX_ASSIGNMENTS` it gives up (:class:`~lib.csp.trace.SearchStopped`).

>>> grid = parse_grid(bundled()["Norvig hardest 1"])
>>> result = solve(grid)
>>> len(result.solutions), result.solutions[0][:9]
(1, '859612437')
"""

from __future__ import annotations

import csv
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from lib.csp.core import CSP, all_different
from lib.errors import InputError

DATA = Path(__file__).resolve().parents[2] / "data" / "csp" / "sudoku_hard.csv"
MAX_TEXT = 2_000  # characters: a pasted grid with generous whitespace fits
DIGITS = "123456789"


@cache
def bundled() -> dict[str, str]:
    """The bundled hard puzzles (name -> 81 characters), from ``data/csp/sudoku_hard.csv``."""
    with DATA.open(newline="", encoding="utf-8") as handle:
        return {row["name"]: row["puzzle"] for row in csv.DictReader(handle)}


def cell_name(index: int) -> str:
    """``"row 2, column 3"`` for the 0-based cell index 11."""
    return f"row {index // 9 + 1}, column {index % 9 + 1}"


def parse_grid(text: str) -> str:
    """The 81 cells of ``text`` as digits, ``0`` for a blank; InputError names any mistake."""
    if not isinstance(text, str):
        raise InputError("A Sudoku is text: 81 characters, digits 1-9 and . or 0 for blanks.")
    if len(text) > MAX_TEXT:
        raise InputError(
            f"The grid is {len(text):,} characters long; a Sudoku is 81 cells "
            f"(at most {MAX_TEXT:,} characters with spaces and line breaks)."
        )
    cells = []
    for char in text:
        if char.isspace():
            continue
        index = len(cells)
        if char in DIGITS:
            cells.append(char)
        elif char in ".0":
            cells.append("0")
        else:
            where = f"cell {index + 1} ({cell_name(index)})" if index < 81 else f"cell {index + 1}"
            raise InputError(
                f"Character {char!r} at {where} is not a digit 1-9 or a blank "
                "('.' or '0'); write the grid row by row."
            )
    if len(cells) != 81:
        raise InputError(
            f"The grid has {len(cells)} cells; a Sudoku needs 81 (nine rows of nine, "
            "'.' or '0' for a blank)."
        )
    return "".join(cells)


def units() -> list[tuple[str, list[int]]]:
    """The 27 units (name, cell indices): nine rows, nine columns, nine boxes."""
    rows = [(f"row {r + 1}", [r * 9 + c for c in range(9)]) for r in range(9)]
    cols = [(f"column {c + 1}", [r * 9 + c for r in range(9)]) for c in range(9)]
    boxes = [
        (
            f"box {b + 1} (rows {b // 3 * 3 + 1}-{b // 3 * 3 + 3}, "
            f"columns {b % 3 * 3 + 1}-{b % 3 * 3 + 3})",
            [(b // 3 * 3 + i) * 9 + b % 3 * 3 + j for i in range(3) for j in range(3)],
        )
        for b in range(9)
    ]
    return rows + cols + boxes


def check_givens(grid: str) -> None:
    """Raise InputError if a digit is given twice in a row, column or box (naming them)."""
    for name, cells in units():
        seen: dict[str, int] = {}
        for index in cells:
            digit = grid[index]
            if digit == "0":
                continue
            if digit in seen:
                raise InputError(
                    f"The digit {digit} appears twice in {name}: at {cell_name(seen[digit])} "
                    f"and at {cell_name(index)}."
                )
            seen[digit] = index


def variable(index: int) -> str:
    """The CSP variable of a cell: ``"r1c1"`` ... ``"r9c9"``."""
    return f"r{index // 9 + 1}c{index % 9 + 1}"


def sudoku_csp(grid: str, name: str = "Sudoku") -> CSP:
    """The Sudoku CSP: 81 cells, given digits as one-value domains, all-different units."""
    domains = {
        variable(i): (int(grid[i]),) if grid[i] != "0" else tuple(range(1, 10)) for i in range(81)
    }
    constraints = [
        pair for _, cells in units() for pair in all_different(variable(i) for i in cells)
    ]
    return CSP.build(name, domains, constraints, kind="sudoku", info={"grid": grid})


def grid_of(assignment: dict) -> str:
    """The 81 digits of a complete assignment, row by row."""
    return "".join(str(assignment[variable(i)]) for i in range(81))


@dataclass(frozen=True)
class SudokuResult:
    """Up to ``limit`` solutions (81 digits each) and the search's work."""

    solutions: tuple[str, ...]
    assignments: int
    backtracks: int
    seconds: float
    limit: int


MAX_ASSIGNMENTS = 300_000  # a few seconds; every bundled puzzle needs under 10,000


def solve(grid: str, limit: int = 2, max_assignments: int = MAX_ASSIGNMENTS) -> SudokuResult:
    """Solve a grid (as :func:`parse_grid` reads it) by MAC + MRV, to ``limit`` solutions."""
    from lib.csp.fast import CompiledCSP  # the compiled form is built only to solve

    grid = parse_grid(grid)
    check_givens(grid)
    start = time.perf_counter()
    compiled = CompiledCSP.of(sudoku_csp(grid))
    run = compiled.search(mrv=True, inference="mac", limit=limit, max_assignments=max_assignments)
    seconds = time.perf_counter() - start
    return SudokuResult(
        tuple(grid_of(solution) for solution in run.solutions),
        run.assignments,
        run.backtracks,
        seconds,
        limit,
    )


def format_grid(grid: str) -> str:
    """Nine lines of nine, blanks as dots, boxes spaced (for the command line and logs)."""
    lines = []
    for r in range(9):
        row = grid[r * 9 : r * 9 + 9].replace("0", ".")
        lines.append(" ".join(row[c : c + 3] for c in (0, 3, 6)))
        if r in (2, 5):
            lines.append("")
    return "\n".join(lines)
