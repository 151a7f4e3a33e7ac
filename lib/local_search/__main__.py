"""The command line: solve n-queens by a named local search and print one summary line.

    python -m lib.local_search queens --n 1000000 --algorithm min-conflicts --seed 1

prints what it ran and ends with ``conflicts=<attacking pairs> steps=<n>
seconds=<s>`` (seconds of the search, the one-off compilation of the fast path
left out). Bad settings exit with status 2 and the reason.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from lib.errors import InputError
from lib.local_search.solve import ALGORITHMS, Settings, solve, warm_up
from lib.local_search.textbook import SCHEDULES, Schedule


def parser() -> argparse.ArgumentParser:
    """The command line's arguments."""
    main = argparse.ArgumentParser(prog="python -m lib.local_search", description=__doc__)
    commands = main.add_subparsers(dest="command", required=True)
    queens = commands.add_parser("queens", help="solve n-queens by local search")
    queens.add_argument("--n", type=int, default=8, help="number of queens (8 to 1,000,000)")
    queens.add_argument("--algorithm", choices=tuple(ALGORITHMS), default="min-conflicts")
    queens.add_argument("--seed", type=int, default=1)
    queens.add_argument("--max-steps", type=int, default=10_000, help="step / generation cap")
    queens.add_argument("--sideways", type=int, default=100, help="sideways moves in a row")
    queens.add_argument("--restarts", type=int, default=1_000, help="random restarts at most")
    queens.add_argument("--tries", type=int, default=100, help="first-choice: draws per step")
    queens.add_argument("--schedule", choices=SCHEDULES, default="exponential")
    queens.add_argument("--t0", type=float, default=2.0, help="annealing: first temperature")
    queens.add_argument("--rate", type=float, default=0.005, help="annealing: cooling rate")
    queens.add_argument("--limit", type=int, default=2_000, help="annealing: last step")
    queens.add_argument("--beam", type=int, default=10, help="local beam: k states")
    queens.add_argument("--population", type=int, default=50, help="GA: population size")
    queens.add_argument("--mutation", type=float, default=0.1, help="GA: mutation probability")
    queens.add_argument(
        "--random-start", action="store_true", help="min-conflicts: random, not greedy, start"
    )
    return main


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; the exit status."""
    args = parser().parse_args(argv)
    try:
        settings = Settings(
            max_sideways=args.sideways,
            max_restarts=args.restarts,
            max_tries=args.tries,
            schedule=Schedule(args.schedule, args.t0, args.rate, args.limit),
            beam_width=args.beam,
            population=args.population,
            p_mutation=args.mutation,
            max_steps=args.max_steps,
            greedy=not args.random_start,
        )
        if args.algorithm == "min-conflicts":
            warm_up()
        outcome = solve(args.n, args.algorithm, args.seed, settings)
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"{ALGORITHMS[args.algorithm].title} on {outcome.n:,} queens, seed {args.seed}")
    print(f"start: {outcome.history[0]:,} attacking pairs; restarts: {outcome.restarts}")
    print(f"conflicts={outcome.h} steps={outcome.steps} seconds={outcome.seconds:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
