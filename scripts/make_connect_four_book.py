"""Build data/connect_four_book.bin: exact Connect Four scores computed by the project's solver.

Run from the repository root::

    python -m scripts.make_connect_four_book                    # the bundled book
    python -m scripts.make_connect_four_book --plies 12 --budget 3600 --out /tmp/book.bin

Solving a whole level of the game tree (every position with ``plies`` discs) is
beyond this machine for every level where it would matter: even compiled, a
position with 8 discs takes the solver a second or a few, and there are 184,275
of them (days on one core). So the book
holds a reproducible sample: positions with ``plies`` discs reached by seeded
random openings that never hand the opponent a win at once (a position where
the mover wins at once, or cannot stop the opponent, is skipped: the search
settles those instantly). Each is solved exactly, without a book, until the
CPU budget (seconds of this process) is spent; the file is rewritten every few
entries, so an interrupted run keeps its work.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from lib.games.connect_four import ConnectFourState, initial_state
from lib.games.connect_four import solver as solver

SAVE_EVERY = 10


def sensible_opening(rng: np.random.Generator, plies: int) -> ConnectFourState | None:
    """A random opening of ``plies`` moves, each one that does not lose at once; None when
    it ends in a position the search settles at once (a win on the board, or no defence)."""
    state = initial_state()
    for _ in range(plies + 1):
        if solver.can_win_now(*solver.bitboards(state)[:2]):
            return None
        columns = solver.non_losing_columns(state)
        if not columns:
            return None
        if state.occupied().bit_count() == plies:
            return state
        state = state.play(columns[int(rng.integers(len(columns)))])
    return None


def build(plies: int, budget: float, seed: int, out: Path, per_position: float) -> None:
    """Solve sampled positions with ``plies`` discs for ``budget`` CPU seconds, writing ``out``."""
    rng = np.random.default_rng(seed)
    scores: dict[int, int] = {}
    started, cpu_started = time.perf_counter(), time.process_time()
    skipped = 0
    while time.process_time() - cpu_started < budget:
        state = sensible_opening(rng, plies)
        if state is None:
            continue
        key = solver.book_key(*solver.bitboards(state)[:2])
        if key in scores:
            continue
        value = solver.score(state, time_limit=per_position)
        if value is None:
            skipped += 1
            continue
        scores[key] = value
        if len(scores) % SAVE_EVERY == 0:
            out.write_bytes(solver.book_bytes(scores))
            print(f"{len(scores)} positions, {time.process_time() - cpu_started:.0f} s CPU")
    out.write_bytes(solver.book_bytes(scores))
    print(
        f"wrote {out}: {len(scores)} positions with {plies} discs, "
        f"{time.process_time() - cpu_started:.0f} s CPU, {time.perf_counter() - started:.0f} s "
        f"wall, {skipped} left out (over {per_position:.0f} s each)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=14, help="discs of the book's positions")
    parser.add_argument("--budget", type=float, default=1200.0, help="CPU seconds to spend")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--per-position", type=float, default=120.0, help="wall-clock cap")
    parser.add_argument("--out", type=Path, default=solver.BOOK_PATH)
    args = parser.parse_args()
    build(args.plies, args.budget, args.seed, args.out, args.per_position)


if __name__ == "__main__":
    main()
