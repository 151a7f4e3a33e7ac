r"""The CSP command line: solve a Sudoku, or run one search on a bundled problem.

    python -m lib.csp sudoku "85...24..72......9..4.........1.7..23.5...9...4...\
........8..7..17..........36.4."
    python -m lib.csp sudoku --bundled "Inkala 2012"
    python -m lib.csp solve zebra --mrv --inference mac
    python -m lib.csp solve queens --n 20 --mrv --inference fc

``sudoku`` solves with MAC + MRV (the fast path) and checks that the solution
is the only one; it prints the grid, a line of counts, and the 81 digits of the
solution as its last line. A malformed grid (naming the cell and character), a
digit repeated in a row, column or box, a grid with no solution or with more
than one exits with status 2 and the reason on standard error.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from lib.csp.problems import PROBLEMS
from lib.csp.search import INFERENCES, run_algorithm
from lib.csp.sudoku import bundled, format_grid, parse_grid, solve
from lib.csp.trace import CSPTracer, SearchStopped
from lib.errors import InputError


def sudoku_command(args: argparse.Namespace) -> int:
    """Solve one grid; print it and the solution's 81 digits last."""
    if args.bundled:
        if args.bundled not in bundled():
            names = ", ".join(bundled())
            raise InputError(f"No bundled puzzle is named {args.bundled!r}; choose one of {names}.")
        text = bundled()[args.bundled]
    elif args.grid is not None:
        text = args.grid
    else:
        raise InputError("Give a grid (81 characters, digits and . for blanks) or --bundled NAME.")
    grid = parse_grid(text)
    try:
        result = solve(grid, limit=2)
    except SearchStopped as stop:
        raise InputError(f"Gave up: {stop.reason} without settling the grid.") from None
    if not result.solutions:
        raise InputError(
            f"This Sudoku has no solution (proved by MAC + MRV after {result.assignments:,} "
            "assignments)."
        )
    if len(result.solutions) > 1:
        first, second = result.solutions[:2]
        differ = sum(a != b for a, b in zip(first, second, strict=True))
        raise InputError(
            f"This Sudoku has more than one solution (two differ in {differ} cells): "
            f"{first} and {second}."
        )
    solution = result.solutions[0]
    print(format_grid(solution))
    print(
        f"assignments={result.assignments} backtracks={result.backtracks} "
        f"seconds={result.seconds:.3f} unique=yes"
    )
    print(solution)
    return 0


def solve_command(args: argparse.Namespace) -> int:
    """Run one search on a bundled problem; print the solution and the counts."""
    csp = PROBLEMS[args.problem].build(n=args.n)
    tracer = CSPTracer()
    start = time.perf_counter()
    try:
        solution = run_algorithm(
            csp,
            args.algorithm,
            mrv=args.mrv,
            degree=args.degree,
            lcv=args.lcv,
            inference=args.inference,
            seed=args.seed,
            max_steps=args.max_steps,
            max_assignments=args.max_assignments,
            tracer=tracer,
        )
    except SearchStopped as stop:
        raise InputError(f"Gave up: {stop.reason}.") from None
    seconds = time.perf_counter() - start
    if solution is None:
        print(f"{csp.name}: no solution found")
    else:
        for var in csp.variables:
            print(f"{var} = {solution[var]}")
    print(
        f"assignments={tracer.assignments} backtracks={tracer.backtracks} "
        f"checks={tracer.checks} seconds={seconds:.3f}"
    )
    return 0 if solution is not None else 1


def parser() -> argparse.ArgumentParser:
    """The command line's options."""
    top = argparse.ArgumentParser(prog="python -m lib.csp", description=__doc__.splitlines()[0])
    commands = top.add_subparsers(dest="command", required=True)
    sudoku = commands.add_parser("sudoku", help="solve a Sudoku (MAC + MRV), checking uniqueness")
    sudoku.add_argument("grid", nargs="?", help="81 characters: digits, . or 0 for blanks")
    sudoku.add_argument("--bundled", help="a bundled hard puzzle by name instead")
    sudoku.set_defaults(run=sudoku_command)
    one = commands.add_parser("solve", help="run one search on a bundled problem")
    one.add_argument("problem", choices=[p for p in PROBLEMS if p != "sudoku"])
    one.add_argument("--n", type=int, default=8, help="queens (n-queens only)")
    one.add_argument(
        "--algorithm", choices=("backtracking", "min-conflicts"), default="backtracking"
    )
    one.add_argument("--mrv", action="store_true", help="minimum remaining values")
    one.add_argument("--degree", action="store_true", help="degree heuristic")
    one.add_argument("--lcv", action="store_true", help="least-constraining value")
    one.add_argument("--inference", choices=INFERENCES, default="none")
    one.add_argument("--max-assignments", type=int, default=1_000_000)
    one.add_argument("--max-steps", type=int, default=10_000, help="min-conflicts' steps")
    one.add_argument("--seed", type=int, default=0)
    one.set_defaults(run=solve_command)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; a user's mistake exits with status 2 and the reason."""
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
