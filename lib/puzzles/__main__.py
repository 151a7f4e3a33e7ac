"""The puzzles from the command line: solve a board, print AIMA's table, build the pattern database.

``python -m lib.puzzles solve "<tiles row by row, 0 the blank>" --algorithm
idastar --heuristic pdb`` prints the run's counts and ends with one line
``length=<n> generated=<n> seconds=<s> moves=<the blank's moves>``; a
malformed or unsolvable board, an unknown option or a run past its cap
exits with status 2 and the reason. ``table`` prints AIMA's Figure 3.29
beside ours; ``prepare`` compiles the kernels and builds the pattern database.
"""

from __future__ import annotations

import argparse
import sys

from lib.errors import InputError
from lib.puzzles.board import apply_moves, goal_board, parse_board, width_of
from lib.puzzles.search import ALGORITHMS, effective_branching_factor, solve

#: Algorithms with a compiled path (used unless ``--readable``).
COMPILED = {"ids", "idastar"}


def _solve(args: argparse.Namespace) -> None:
    board = parse_board(args.board)
    if args.algorithm not in ALGORITHMS:
        raise InputError(
            f"Unknown algorithm {args.algorithm!r}; choose one of {', '.join(ALGORITHMS)}."
        )
    if args.heuristic == "pdb" and width_of(board) != 4:
        raise InputError("The pattern database (pdb) is for the 15-puzzle only; try h2 or lc.")
    if args.algorithm in COMPILED and not args.readable:
        from lib.puzzles.fast import fast_ida_star, fast_ids

        run = fast_ids(board) if args.algorithm == "ids" else fast_ida_star(board, args.heuristic)
        if run.moves is None:
            raise InputError("The search gave up at its cap of nodes generated.")
        moves, generated, expanded, frontier, seconds = (
            run.moves, run.generated, run.expanded, run.max_frontier, run.seconds,
        )  # fmt: skip
        how = "compiled"
    else:
        result = solve(board, args.algorithm, args.heuristic, max_generated=args.max_generated)
        moves, generated, expanded, frontier, seconds = (
            result.moves, result.generated, result.expanded, result.max_frontier, result.seconds,
        )  # fmt: skip
        how = "readable"
    assert apply_moves(board, moves) == goal_board(width_of(board))
    uses_h = ALGORITHMS[args.algorithm].uses_heuristic
    print(f"algorithm={args.algorithm} ({how}) heuristic={args.heuristic if uses_h else 'none'}")
    print(f"expanded={expanded} max_frontier={frontier}")
    print(f"ebf={effective_branching_factor(generated, len(moves)):.4f}")
    print(f"length={len(moves)} generated={generated} seconds={seconds:.3f} moves={moves}")


def _table(args: argparse.Namespace) -> None:
    from lib.puzzles.aima import aima_table, format_table

    rows = aima_table(instances=args.instances, seed=args.seed, ids_max_depth=args.ids_max_depth)
    print(format_table(rows))
    print(f"seconds={sum(r.seconds for r in rows):.2f}")


def _prepare(args: argparse.Namespace) -> None:
    from lib.puzzles.fast import warm_compiled
    from lib.puzzles.pdb import cache_file

    warm_compiled()
    print(f"compiled code and pattern database ready: {cache_file()}")


def parser() -> argparse.ArgumentParser:
    """The command line's options."""
    top = argparse.ArgumentParser(prog="python -m lib.puzzles", description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)
    s = sub.add_parser("solve", help="solve one board")
    s.add_argument("board", help='tiles row by row, 0 the blank, e.g. "1 2 5 3 4 0 6 7 8"')
    s.add_argument("--algorithm", default="astar", help=", ".join(ALGORITHMS))
    s.add_argument("--heuristic", default="h2", help="zero, h1, h2, lc or pdb (15-puzzle)")
    s.add_argument("--readable", action="store_true", help="run the textbook code, not compiled")
    s.add_argument("--max-generated", type=int, default=3_000_000, help="cap (readable runs)")
    s.set_defaults(run=_solve)
    t = sub.add_parser("table", help="AIMA's Figure 3.29 beside ours")
    t.add_argument("--instances", type=int, default=100)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--ids-max-depth", type=int, default=12)
    t.set_defaults(run=_table)
    p = sub.add_parser("prepare", help="compile the kernels, build the pattern database")
    p.set_defaults(run=_prepare)
    return top


def main(argv: list[str] | None = None) -> int:
    """Run the command line; 2 on bad input (the reason on stderr)."""
    try:
        args = parser().parse_args(argv)
    except SystemExit as exit_:
        return 2 if exit_.code else 0
    try:
        if getattr(args, "instances", 1) < 1 or getattr(args, "instances", 1) > 1000:
            raise InputError("--instances must be 1 to 1000.")
        args.run(args)
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
