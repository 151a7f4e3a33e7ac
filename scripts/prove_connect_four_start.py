"""Prove who wins Connect Four from the start with the compiled solver: the start proof file.

Run from the repository root, on one core, at low priority (tens of minutes)::

    nice -n 10 python -m scripts.prove_connect_four_start
    python -m scripts.prove_connect_four_start --columns d --out /tmp/start.json

Each of the first moves a, b, c and d (e, f and g are their mirror images) is
proved by :func:`lib.games.connect_four.start.prove_first_move`; then, with that
search's table still warm, :data:`LINES` check lines per first move are drawn
(seeded) for the tests to solve again. The file is written once all four are
proved (each first move's figures are printed as it ends); ``--columns`` proves
only some again, keeping the others from the existing file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from lib.errors import InputError
from lib.games.connect_four import COLUMN_NAMES, format_move
from lib.games.connect_four import start as start

LINES = 2
VERBS = {1: "wins", 0: "draws", -1: "loses"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--columns", default="dabc", help="first moves to prove, of a-d")
    parser.add_argument("--table", type=int, default=start.PROOF_TABLE_SIZE, help="table slots")
    parser.add_argument("--seed", type=int, default=1988)
    parser.add_argument("--out", type=Path, default=start.START_PATH)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    first_moves, checks = {}, []
    if args.out.exists():
        kept = start.load_start_proof(args.out)
        first_moves, checks = dict(kept.first_moves), list(kept.checks)
    command = " ".join(["python -m scripts.prove_connect_four_start", *sys.argv[1:]])
    for name in args.columns:
        column = COLUMN_NAMES.index(name)
        proved, search = start.prove_first_move(column, args.table, on_progress=print)
        first_moves[column] = proved
        print(
            f"{name}: Red {VERBS[proved.outcome]}, {proved.nodes:,} nodes, "
            f"{proved.seconds:.0f} s wall, {proved.cpu_seconds:.0f} s CPU",
            flush=True,
        )
        checks = [check for check in checks if check[0][0] != name]
        for _ in range(LINES):
            for _attempt in range(10):  # a line that cannot go on unfinished is drawn again
                try:
                    line = start.check_line(search, name, proved.outcome, rng)
                except InputError as error:
                    print(f"  {error}")
                    continue
                checks.append((line, proved.outcome))
                print(f"  check line {line}", flush=True)
                break
        if len(first_moves) == len(start.PROVED_COLUMNS):
            proof = start.StartProof(first_moves, tuple(checks), command, args.table)
            args.out.write_bytes(start.start_bytes(proof))
            print(f"wrote {args.out}", flush=True)
    missing = [format_move(c) for c in start.PROVED_COLUMNS if c not in first_moves]
    if missing:
        print(f"not written: still to prove {', '.join(missing)}")


if __name__ == "__main__":
    main()
