"""Connect Four solver benchmarks: solve times and nodes per second of the exact solver.

Run from the repository root::

    python -m bench.connect_four_solver                  # every section
    python -m bench.connect_four_solver known random22   # some sections

Sections:

* ``known``: the three reference positions of the tests (18, 24 and 12 empty
  squares): the full solution (score, every best move, the principal line) and
  every move's score, in seconds, nodes and nodes per second.
* ``speed``: nodes per CPU second of the compiled search against the readable
  pure-Python one on the same positions (sensible, 20 discs): the ratio.
* ``random22``: positions with 22 empty squares, reached by random play and by
  random *sensible* play (no move that lets the opponent win at once, so the
  position is not already settled), solved in full, against the 1 s target:
  median, 90th percentile and max seconds (wall clock, and CPU seconds of
  this process, which a loaded machine disturbs less), nodes per CPU second.
* ``reach``: sensible positions with 8 to 16 discs (34 to 26 empty squares):
  median and max seconds of the solution without its line (what the player's
  attempt computes), and how many finish within 0.5 s and within 0.8 s (the
  attempt's shares of the default AI's second before and from 12 discs): how early in
  the game the player plays exactly.
* ``wins``: sensible positions with 5 to 11 discs that the side to move wins (as after
  an opponent's move that gave its win away): seconds of the player's win proof
  (:func:`solver.win_solution`) against the exact solution without its line, and how
  many proofs fit the attempt's share of the default AI's second (:data:`hook.WIN_SHARE`).
* ``jit``: the compiled search in a fresh process: seconds to import and load it
  with an empty numba cache (compiling) and with the cache that run wrote, beside
  the import of numba alone.
* ``window``: null-window narrowing against one full-window search on the same
  positions: node and time ratios (the scores must agree).
* ``book``: the bundled book: entries, bytes, load time, the plies it covers.

Figures depend on the machine and its load: compare ratios and nodes per
second, not seconds, between machines.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import numpy as np

from bench.sections import run_sections
from lib.games.connect_four import (
    ConnectFourState,
    format_move,
    hook,
    initial_state,
    solver,
    state_from_moves,
)

TARGET = 1.0
"""Seconds a position with 22 empty squares should take at most."""
KNOWN = ("dddddbbebbdgbgggbgeeeaae", "dcdddfdcffdacccffa", "caecgfccbdccgbggegfdafaabddefa")


def random_position(rng: np.random.Generator, discs: int, sensible: bool) -> ConnectFourState:
    """A position with ``discs`` discs that is not over; ``sensible``: no move along the way
    let the opponent win at once, and the mover cannot win at once either."""
    while True:
        state = initial_state()
        for _ in range(discs):
            moves = solver.non_losing_columns(state) if sensible else state.legal_moves()
            if not moves or state.is_terminal():
                break
            state = state.play(moves[int(rng.integers(len(moves)))])
        if state.occupied().bit_count() != discs or state.is_terminal():
            continue
        if sensible and (
            solver.can_win_now(*solver.bitboards(state)[:2]) or not solver.non_losing_columns(state)
        ):
            continue
        return state


def _summary(seconds: list[float], cpu: list[float], nodes: int) -> str:
    ordered = sorted(seconds)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    within = sum(s <= TARGET for s in seconds)
    return (
        f"wall: median {statistics.median(seconds):.3f} s, p90 {p90:.3f} s, "
        f"max {max(seconds):.3f} s, {within}/{len(seconds)} within {TARGET:.0f} s; "
        f"CPU: median {statistics.median(cpu):.3f} s, max {max(cpu):.3f} s, "
        f"{sum(c <= TARGET for c in cpu)}/{len(cpu)} within; "
        f"{nodes / max(sum(cpu), 1e-9):,.0f} nodes per CPU second"
    )


def bench_known() -> None:
    print("known positions: full solution (score, best moves, line) and every move's score")
    for moves in KNOWN:
        state = state_from_moves(moves)
        result = solver.solve(state)
        started = time.perf_counter()
        scores = solver.move_scores(state)
        scores_seconds = time.perf_counter() - started
        best = "".join(format_move(move) for move in sorted(result.best_moves))
        print(
            f"  {moves} ({state.plies_left_hint()} empty): {result.describe()}, best {best}, "
            f"line {result.line_text()}; {result.seconds:.3f} s, {result.nodes:,} nodes, "
            f"{result.nodes / result.seconds:,.0f} nodes/s; every move {scores_seconds:.3f} s "
            f"{ {format_move(m): s for m, s in scores.items()} }"
        )


def bench_random22(count: int = 60, seed: int = 22) -> None:
    rng = np.random.default_rng(seed)
    for sensible in (False, True):
        seconds, cpu, nodes = [], [], 0
        for _ in range(count):
            state = random_position(rng, 20, sensible)
            started = time.process_time()
            result = solver.solve(state)
            cpu.append(time.process_time() - started)
            seconds.append(result.seconds)
            nodes += result.nodes
        kind = "sensible" if sensible else "random"
        print(f"22 empty, {kind} play, {count} positions, full solution:")
        print(f"  {_summary(seconds, cpu, nodes)}")


def bench_speed(count: int = 6, seed: int = 20) -> None:
    rng = np.random.default_rng(seed)
    totals = {True: [0, 0.0], False: [0, 0.0]}  # compiled: [nodes, CPU seconds]
    for _ in range(count):
        state = random_position(rng, 20, True)
        for compiled in (True, False):
            started = time.process_time()
            result = solver.solve(state, line=False, compiled=compiled)
            totals[compiled][0] += result.nodes
            totals[compiled][1] += time.process_time() - started
    rates = {kind: nodes / max(cpu, 1e-9) for kind, (nodes, cpu) in totals.items()}
    print(
        f"nodes per CPU second, {count} sensible positions with 22 empty: compiled "
        f"{rates[True]:,.0f}, readable {rates[False]:,.0f}: x{rates[True] / rates[False]:.1f}"
    )


def bench_reach(count: int = 12, seed: int = 14, limit: float = 20.0) -> None:
    rng = np.random.default_rng(seed)
    early = hook.WIN_SHARE
    print(f"solution without the line of sensible positions ({count} each, {limit:.0f} s cap)")
    for discs in (16, 14, 12, 10, 8):
        seconds, cpu, unsolved = [], [], 0
        for _ in range(count):
            state = random_position(rng, discs, True)
            started, cpu_started = time.perf_counter(), time.process_time()
            if solver.solve(state, time_limit=limit, line=False) is None:
                unsolved += 1
            seconds.append(time.perf_counter() - started)
            cpu.append(time.process_time() - cpu_started)
        print(
            f"  {discs} discs ({42 - discs} empty): wall median {statistics.median(seconds):.2f} s,"
            f" max {max(seconds):.2f} s; CPU median {statistics.median(cpu):.2f} s, "
            f"max {max(cpu):.2f} s; within {early:g} s {sum(s <= early for s in seconds)}, "
            f"within 0.8 s {sum(s <= 0.8 for s in seconds)}; {unsolved} over the cap"
        )


def _won_position(rng: np.random.Generator, discs: int, limit: float) -> ConnectFourState:
    """A sensible position with ``discs`` discs whose side to move has a proved win."""
    while True:
        state = random_position(rng, discs, True)
        if solver.win_solution(state, limit) is not None:
            return state


def _cpu_seconds(work: Callable[[], object]) -> tuple[float, bool]:
    """CPU seconds of ``work()`` and whether it gave an answer (not None)."""
    started = time.process_time()
    answered = work() is not None
    return time.process_time() - started, answered


def bench_wins(count: int = 12, seed: int = 5, limit: float = 20.0) -> None:
    rng = np.random.default_rng(seed)
    share = hook.WIN_SHARE
    print(f"sensible positions the mover wins ({count} each): CPU s of the win proof, exact solve")
    for discs in (11, 9, 7, 5):
        states = [_won_position(rng, discs, limit) for _ in range(count)]
        proofs = [_cpu_seconds(lambda s=s: solver.win_solution(s, limit))[0] for s in states]
        exact = [
            _cpu_seconds(lambda s=s: solver.solve(s, time_limit=limit, line=False, all_best=False))
            for s in states
        ]
        print(
            f"  {discs} discs: win proof median {statistics.median(proofs):.2f} s, max "
            f"{max(proofs):.2f} s, {sum(p <= share for p in proofs)}/{count} within {share:g} s; "
            f"exact solution median {statistics.median(t for t, _ in exact):.2f} s, "
            f"{sum(t <= share and done for t, done in exact)}/{count} within {share:g} s, "
            f"{sum(not done for _, done in exact)} over the {limit:g} s cap"
        )


def _fresh_process_seconds(code: str, cache: str) -> float:
    """Wall seconds a fresh Python takes to run ``code``, numba caching in ``cache``."""
    environment = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONDONTWRITEBYTECODE": "1"}
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=environment)
    return time.perf_counter() - started


def bench_jit() -> None:
    load = "from lib.games.connect_four.compiled import load_compiled; load_compiled()"
    with tempfile.TemporaryDirectory() as cache:
        numba_alone = _fresh_process_seconds("import numba, numpy", cache)
        cold = _fresh_process_seconds(load, cache)
        warm = min(_fresh_process_seconds(load, cache) for _ in range(3))
    print(
        f"fresh process: import numba and NumPy {numba_alone:.2f} s; the compiled search "
        f"(import, load, one call) with an empty cache {cold:.2f} s (compiling), with the "
        f"cache {warm:.2f} s (best of 3)"
    )


def bench_window(count: int = 8, seed: int = 8) -> None:
    rng = np.random.default_rng(seed)
    null_nodes = full_nodes = 0
    null_seconds = full_seconds = 0.0
    for _ in range(count):
        state = random_position(rng, 18, True)
        position, mask, played = solver.bitboards(state)
        searches = []
        for method in ("score", "full_window_score"):
            search = solver._Search(None, None, None)
            started = time.process_time()
            value = getattr(search, method)(position, mask, played)
            searches.append((value, search.nodes, time.process_time() - started))
        (null_value, nodes_a, seconds_a), (full_value, nodes_b, seconds_b) = searches
        assert null_value == full_value, "null windows and the full window disagree"
        null_nodes, full_nodes = null_nodes + nodes_a, full_nodes + nodes_b
        null_seconds, full_seconds = null_seconds + seconds_a, full_seconds + seconds_b
    print(
        f"null windows vs one full window, {count} sensible positions with 24 empty: "
        f"nodes {null_nodes:,} vs {full_nodes:,} (x{full_nodes / null_nodes:.2f} fewer), "
        f"CPU time x{full_seconds / null_seconds:.2f} faster"
    )


def bench_book() -> None:
    started = time.perf_counter()
    book = solver.load_book()
    seconds = time.perf_counter() - started
    size = solver.BOOK_PATH.stat().st_size
    print(
        f"book {solver.BOOK_PATH.name}: {len(book):,} positions with "
        f"{sorted(book.plies)} discs, {size:,} bytes, loaded in {seconds * 1000:.1f} ms"
    )


SECTIONS: dict[str, Callable[[], None]] = {
    "known": bench_known,
    "speed": bench_speed,
    "random22": bench_random22,
    "reach": bench_reach,
    "wins": bench_wins,
    "window": bench_window,
    "book": bench_book,
    "jit": bench_jit,
}


def main(argv: list[str]) -> None:
    """Run the named sections (all by default)."""
    run_sections(SECTIONS, argv)


if __name__ == "__main__":
    main(sys.argv[1:])
