"""Connect Four benchmarks: speeds printed as ratios against references measured in the same run.

Run from the repository root::

    python -m bench.connect_four                 # every section
    python -m bench.connect_four answer perft    # some sections

Sections:

* ``answer``: seconds and nodes of the default AI's search (alpha-beta depth 8
  with move ordering and a transposition table, no time budget) from 10 fixed
  positions (the empty board and 9 positions 2 to 18 random plies in), against
  the 1 s target.
* ``reference``: the same positions searched to depth 6 by the full engine and
  by plain alpha-beta (no ordering, no table), the reference measured in the
  same run: node and time ratios at equal depth (the values must agree).
* ``reference8``: plain alpha-beta to depth 8 on the first 2 positions (about
  half a minute each here): the time ratio at the depth the page plays.
* ``perft``: perft(7) from the empty board with the bitboard engine in moves
  per second, against the naive list-of-lists engine
  (:mod:`tests.games.naive.connect_four`) on perft(5) in the same run.

Figures depend on the machine and its load: compare the ratios, not the
seconds, between machines.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import numpy as np

from bench.sections import run_sections
from lib.games import connect_four
from lib.games.core import perft
from lib.games.search import fast as search
from tests.games.naive import connect_four as connect_four_naive

ANSWER_TARGET = 1.0
"""Seconds the default AI (depth 8) should take to answer from a typical position."""
PLAIN = {"ordering": False, "transposition": False}
FULL = {"ordering": True, "transposition": True}


def positions(count: int = 10, seed: int = 2024) -> list[connect_four.ConnectFourState]:
    """The empty board and ``count - 1`` fixed positions 2, 4, ... 18 random plies in."""
    rng = np.random.default_rng(seed)
    found = [connect_four.initial_state()]
    while len(found) < count:
        state = connect_four.initial_state()
        for _ in range(2 * len(found)):
            moves = state.legal_moves()
            if not moves:
                break
            state = state.play(moves[int(rng.integers(len(moves)))])
        if len(state.legal_moves()) > 1:
            found.append(state)
    return found


def _timed(function: Callable[[], object]) -> tuple[object, float]:
    start = time.perf_counter()
    result = function()
    return result, time.perf_counter() - start


def bench_answer() -> None:
    """The default AI's depth-8 answer time and nodes per position, against the 1 s target."""
    print("== Connect Four default AI: alpha-beta depth 8, ordering + table, no time budget ==")
    print(f"{'position':<10} {'discs':>5} {'nodes':>8} {'seconds':>8} {'nodes/s':>8} {'move':>5}")
    times = []
    for index, state in enumerate(positions()):
        result = search.choose_move(state, algorithm="alphabeta", depth=8, **FULL)
        stats = result.stats
        times.append(stats.seconds)
        print(
            f"{index:<10} {state.occupied().bit_count():>5} {stats.nodes:>8,} "
            f"{stats.seconds:>8.3f} {stats.nodes / stats.seconds:>8,.0f} "
            f"{connect_four.format_move(result.move):>5}"
        )
    ordered = sorted(times)
    within = sum(t <= ANSWER_TARGET for t in times)
    print(
        f"mean {sum(times) / len(times):.3f} s, median {ordered[len(ordered) // 2]:.3f} s, "
        f"max {ordered[-1]:.3f} s; mean / target {sum(times) / len(times) / ANSWER_TARGET:.2f}; "
        f"{within}/{len(times)} within {ANSWER_TARGET:g} s"
    )


def bench_reference(depth: int = 6) -> None:
    """Full engine vs plain alpha-beta at equal depth on the same positions."""
    print(f"== Connect Four: full engine vs plain alpha-beta at depth {depth} ==")
    totals = {"full": [0, 0.0], "plain": [0, 0.0]}
    for state in positions():
        values = []
        for name, options in (("full", FULL), ("plain", PLAIN)):
            result = search.choose_move(state, algorithm="alphabeta", depth=depth, **options)
            totals[name][0] += result.stats.nodes
            totals[name][1] += result.stats.seconds
            values.append(result.value)
        assert values[0] == values[1], values  # the same value, with less work
    (full_nodes, full_seconds), (plain_nodes, plain_seconds) = totals["full"], totals["plain"]
    print(f"plain alpha-beta: {plain_nodes:,} nodes in {plain_seconds:.2f} s")
    print(f"ordering + table: {full_nodes:,} nodes in {full_seconds:.2f} s")
    print(
        f"ratio: {plain_nodes / full_nodes:.1f}x fewer nodes, "
        f"{plain_seconds / full_seconds:.1f}x less time"
    )


def bench_reference8(count: int = 2) -> None:
    """Plain alpha-beta vs the full engine at depth 8 on the first ``count`` positions."""
    print(f"== Connect Four: full engine vs plain alpha-beta at depth 8 ({count} positions) ==")
    for index, state in enumerate(positions()[:count]):
        full = search.choose_move(state, algorithm="alphabeta", depth=8, **FULL)
        plain = search.choose_move(state, algorithm="alphabeta", depth=8, **PLAIN)
        assert full.value == plain.value, (full.value, plain.value)
        print(
            f"position {index}: plain {plain.stats.nodes:,} nodes {plain.stats.seconds:.2f} s, "
            f"full {full.stats.nodes:,} nodes {full.stats.seconds:.2f} s: "
            f"{plain.stats.nodes / full.stats.nodes:.0f}x fewer nodes, "
            f"{plain.stats.seconds / full.stats.seconds:.1f}x less time"
        )


def bench_perft() -> None:
    """Bitboard perft(7) and naive perft(5), in moves per second."""
    print("== Connect Four perft from the empty board ==")
    leaves7, seconds7 = _timed(lambda: perft(connect_four.initial_state(), 7))
    leaves5, seconds5 = _timed(lambda: perft(connect_four.initial_state(), 5))
    naive5, naive_seconds = _timed(
        lambda: connect_four_naive.perft(connect_four_naive.initial_grid(), 0, 5)
    )
    assert leaves5 == naive5, (leaves5, naive5)
    rate7 = leaves7 / seconds7
    print(f"bitboard perft(7) = {leaves7:,} leaves in {seconds7:.3f} s: {rate7:,.0f} moves/s")
    print(
        f"perft(5) = {leaves5:,}: bitboard {leaves5 / seconds5:,.0f} moves/s, naive "
        f"{naive5 / naive_seconds:,.0f} moves/s: {naive_seconds / seconds5:.1f}x faster"
    )


SECTIONS: dict[str, Callable[[], None]] = {
    "answer": bench_answer,
    "reference": bench_reference,
    "reference8": bench_reference8,
    "perft": bench_perft,
}


def main(argv: list[str]) -> None:
    """Run the named sections (all by default)."""
    run_sections(SECTIONS, argv)


if __name__ == "__main__":
    main(sys.argv[1:])
