"""The CSPs the page and the bench offer: map colouring, n-queens, Sudoku and the zebra puzzle.

* :func:`australia`: AIMA's map of Australia (Figure 6.1), three colours.
* :func:`us_map`: the 48 contiguous US states (``data/csp/us_states.json``), four colours.
* :func:`n_queens`: one variable per column, its value the queen's row.
* :func:`zebra`: AIMA's zebra puzzle (Exercise 6.7; the Japanese owns the zebra,
  the Norwegian drinks water); 25 variables, each a house number 1-5.
* :func:`lib.csp.sudoku.sudoku_csp`: a Sudoku grid.

:data:`PROBLEMS` names them for the page, the command line and the bench.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from lib.csp.core import CSP, Constraint, all_different, not_equal
from lib.csp.sudoku import bundled, parse_grid, sudoku_csp
from lib.errors import InputError

DATA = Path(__file__).resolve().parents[2] / "data" / "csp"
MAX_QUEENS = 100  # the CSP has n(n-1)/2 constraints; the page draws the board

#: AIMA's Australia: the states and territories in the book's order, and their borders.
AUSTRALIA_BORDERS = {
    "WA": ("NT", "SA"),
    "NT": ("SA", "Q"),
    "Q": ("SA", "NSW"),
    "NSW": ("SA", "V"),
    "V": ("SA",),
    "SA": (),
    "T": (),
}
#: Where the page draws each region (longitude, latitude, roughly).
AUSTRALIA_PLACES = {
    "WA": (121.0, -25.5),
    "NT": (133.5, -19.5),
    "SA": (135.5, -30.0),
    "Q": (144.5, -22.0),
    "NSW": (146.5, -32.0),
    "V": (144.5, -37.0),
    "T": (146.5, -42.0),
}
COLOURS = ("red", "green", "blue", "yellow")


def map_colouring(
    name: str, borders: dict[str, tuple[str, ...]], colours: int, places: dict
) -> CSP:
    """A map-colouring CSP: a region per variable, ``colours`` colours, neighbours differ."""
    if not 1 <= colours <= len(COLOURS):
        raise InputError(f"Colours must be 1 to {len(COLOURS)}, not {colours}.")
    domains = {region: COLOURS[:colours] for region in borders}
    constraints = [(a, b, not_equal) for a, others in borders.items() for b in others]
    return CSP.build(name, domains, constraints, kind="map", info={"places": places})


def australia(colours: int = 3) -> CSP:
    """AIMA's map of Australia (7 regions, Tasmania alone), three colours by default."""
    return map_colouring("Australia", AUSTRALIA_BORDERS, colours, AUSTRALIA_PLACES)


@cache
def us_borders() -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[float, float]]]:
    """The contiguous US states' borders (each once) and drawing places, from the bundled file."""
    data = json.loads((DATA / "us_states.json").read_text(encoding="utf-8"))
    states = sorted(data["states"])
    later: dict[str, list[str]] = {state: [] for state in states}
    for a, b in data["borders"]:
        later[min(a, b)].append(max(a, b))
    places = {s: (data["states"][s]["lon"], data["states"][s]["lat"]) for s in states}
    return {s: tuple(later[s]) for s in states}, places


def us_map(colours: int = 4) -> CSP:
    """The 48 contiguous US states, alphabetical by postal code, four colours by default."""
    borders, places = us_borders()
    return map_colouring("US states", borders, colours, places)


def n_queens(n: int = 8) -> CSP:
    """n-queens: variable ``Qc`` is the row (1..n) of the queen in column c."""
    if not isinstance(n, int) or not 1 <= n <= MAX_QUEENS:
        raise InputError(
            f"The number of queens must be a whole number from 1 to {MAX_QUEENS}, not {n}."
        )
    columns = [f"Q{c}" for c in range(1, n + 1)]
    constraints: list[Constraint] = []
    for i in range(n):
        for j in range(i + 1, n):
            gap = j - i
            constraints.append(
                (columns[i], columns[j], lambda a, b, gap=gap: a != b and abs(a - b) != gap)
            )
    domains = {column: tuple(range(1, n + 1)) for column in columns}
    return CSP.build(f"{n}-queens", domains, constraints, kind="queens", info={"n": n})


ZEBRA_GROUPS = {
    "colour": ("Red", "Green", "Ivory", "Yellow", "Blue"),
    "nationality": ("Englishman", "Spaniard", "Norwegian", "Ukrainian", "Japanese"),
    "drink": ("Coffee", "Tea", "Milk", "OJ", "Water"),
    "smoke": ("Kools", "Chesterfield", "Winston", "LuckyStrike", "Parliament"),
    "pet": ("Dog", "Snails", "Fox", "Horse", "Zebra"),
}


def _same(a: int, b: int) -> bool:
    return a == b


def _next_to(a: int, b: int) -> bool:
    return abs(a - b) == 1


def _right_of(a: int, b: int) -> bool:
    return a == b + 1


def zebra() -> CSP:
    """The zebra puzzle as AIMA states it: who owns the zebra, who drinks water?

    Variables are the 25 attributes, each valued by its house (1 = leftmost).
    The Norwegian lives in the first house and milk is drunk in the middle one:
    unary constraints, folded into those two domains.
    """
    houses = (1, 2, 3, 4, 5)
    domains = {a: houses for group in ZEBRA_GROUPS.values() for a in group}
    domains["Norwegian"] = (1,)
    domains["Milk"] = (3,)
    constraints = [c for group in ZEBRA_GROUPS.values() for c in all_different(group)]
    constraints += [
        ("Englishman", "Red", _same),
        ("Spaniard", "Dog", _same),
        ("Kools", "Yellow", _same),
        ("Chesterfield", "Fox", _next_to),
        ("Norwegian", "Blue", _next_to),
        ("Winston", "Snails", _same),
        ("LuckyStrike", "OJ", _same),
        ("Ukrainian", "Tea", _same),
        ("Japanese", "Parliament", _same),
        ("Kools", "Horse", _next_to),
        ("Coffee", "Green", _same),
        ("Green", "Ivory", _right_of),
    ]
    return CSP.build("Zebra puzzle", domains, constraints, kind="zebra")


@dataclass(frozen=True)
class Problem:
    """A problem the page offers: its title and how to build it from the page's one setting."""

    key: str
    title: str
    build: Callable[..., CSP]
    about: str


PROBLEMS: dict[str, Problem] = {
    "australia": Problem(
        "australia",
        "Australia (3 colours)",
        lambda **_: australia(),
        "AIMA's first CSP: colour 7 regions so that neighbours differ.",
    ),
    "usa": Problem(
        "usa",
        "US states (4 colours)",
        lambda **_: us_map(),
        "The 48 contiguous states, 105 borders, four colours.",
    ),
    "queens": Problem(
        "queens",
        "n-queens",
        lambda n=8, **_: n_queens(n),
        "n queens on an n x n board, none attacking another: a variable per column.",
    ),
    "sudoku": Problem(
        "sudoku",
        "Sudoku",
        lambda grid=None, **_: sudoku_csp(parse_grid(grid or bundled()["Norvig hardest 7"])),
        "81 cells, all-different rows, columns and boxes (810 binary constraints).",
    ),
    "zebra": Problem(
        "zebra",
        "Zebra puzzle",
        lambda **_: zebra(),
        "Five houses, 25 attributes, 14 clues: who owns the zebra?",
    ),
}
