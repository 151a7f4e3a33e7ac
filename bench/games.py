"""Game-engine benchmarks: speeds printed as ratios against references measured in the same run.

Run from the repository root::

    python -m bench.games                 # every section
    python -m bench.games checkers sim    # some sections

Sections (each prints its own table):

* ``checkers``: perft(7) from the start position with the bitboard engine,
  in moves (leaves) per second, against the naive coordinate engine
  (:mod:`lib.games.checkers_naive`) on the same tree at depth 5, and against
  the target of 300,000 moves/s (on par with the fastest pure-Python
  draughts move generators).
* ``sim``: time to solve the empty Sim board exactly (target: well under a
  second), against a plain memoised negamax without the dead-line table and
  the symmetry reduction, measured in the same run.
* ``vs-random``: seconds per game for each AI config of checkers and Sim
  against a random player, with the AI's score, against the time of a
  random-vs-random game (the cost of the rules alone).

Figures depend on the machine and its load: compare the ratios, not the
seconds, between machines.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from lib.games import checkers, checkers_naive, sim
from lib.games.arena import MatchConfig, play_game
from lib.games.core import get_game, perft

CHECKERS_TARGET = 300_000.0
"""Perft moves per second the checkers engine should reach."""


def _timed(function: Callable[[], object]) -> tuple[object, float]:
    start = time.perf_counter()
    result = function()
    return result, time.perf_counter() - start


def bench_checkers() -> None:
    """Checkers perft speed: bitboards vs the naive engine vs the target."""
    print("== checkers perft (start position) ==")
    leaves7, seconds7 = _timed(lambda: perft(checkers.initial_state(), 7))
    rate7 = leaves7 / seconds7
    print(f"bitboard perft(7) = {leaves7:,} leaves in {seconds7:.3f} s: {rate7:,.0f} moves/s")
    leaves5, seconds5 = _timed(lambda: perft(checkers.initial_state(), 5))
    naive5, naive_seconds = _timed(
        lambda: checkers_naive.perft(checkers_naive.initial_board(), 0, 5)
    )
    assert naive5 == leaves5, (naive5, leaves5)
    naive_rate = naive5 / naive_seconds
    print(
        f"perft(5) = {leaves5:,}: bitboard {leaves5 / seconds5:,.0f} moves/s, "
        f"naive {naive_rate:,.0f} moves/s, ratio {naive_seconds / seconds5:.1f}x"
    )
    print(
        f"perft(7) rate / target {CHECKERS_TARGET:,.0f} = {rate7 / CHECKERS_TARGET:.2f} "
        f"({'meets' if rate7 >= CHECKERS_TARGET else 'misses'} the target)"
    )


def _plain_sim_solve(own: int, opp: int, memo: dict[int, int]) -> int:
    """The textbook memoised negamax over (own, opp) masks, no tables, no symmetry."""
    key = own << 15 | opp
    known = memo.get(key)
    if known is not None:
        return known
    result = -1
    free = sim.ALL_LINES & ~(own | opp)
    for line in range(len(sim.LINES)):
        bit = 1 << line
        if not free & bit or sim.completes_triangle(own, line):
            continue
        if _plain_sim_solve(opp, own | bit, memo) < 0:
            result = 1
            break
    memo[key] = result
    return result


def bench_sim() -> None:
    """Sim: exact solution of the empty board, against the plain memoised solver."""
    print("== Sim exact solution of the empty board ==")
    value, seconds = _timed(lambda: sim.solve(sim.initial_state()))
    memo: dict[int, int] = {}
    plain, plain_seconds = _timed(lambda: _plain_sim_solve(0, 0, memo))
    assert value == plain == -1
    print(f"solve(empty) = {value} (second player wins) in {seconds * 1000:.1f} ms")
    print(
        f"plain memoised negamax: {plain_seconds * 1000:.1f} ms, {len(memo):,} positions; "
        f"ratio {plain_seconds / seconds:.1f}x"
    )


def _versus_random(game: str, specs: list[str], games: int, **options: object) -> None:
    """Arena matches of each spec against ``random`` (colours alternate), timed per game."""

    def run(spec: str) -> tuple[float, float]:
        match = MatchConfig(game, (spec, "random"), games=games, seed=1, options=options)
        start = time.perf_counter()
        records = [play_game(match, index) for index in range(games)]
        seconds = (time.perf_counter() - start) / games
        return sum(record.result_a for record in records) / games, seconds

    _, base = run("random")
    print(f"{get_game(game).title}: random vs random {base * 1000:.1f} ms/game ({games} games)")
    print(f"{'AI config':<40} {'score':>7} {'s/game':>8} {'x random':>9}")
    for spec in specs:
        score, per_game = run(spec)
        print(f"{spec:<40} {score:>7.0%} {per_game:>8.3f} {per_game / base:>9.0f}")


def bench_vs_random(games: int = 20) -> None:
    """Seconds per game of each AI config against a random player (AI alternates colours)."""
    print("== AI configs against a random player ==")
    checkers_specs = [
        "greedy:heuristic=course",
        "alphabeta:depth=2,heuristic=course",
        "alphabeta:depth=4,heuristic=course",
        "alphabeta:depth=4,heuristic=strong",
        "alphabeta:depth=6,heuristic=strong",
        "minimax:depth=3,heuristic=course",
    ]
    _versus_random("checkers", checkers_specs, games)
    sim_specs = [
        "greedy:heuristic=threats",
        "alphabeta:depth=3,heuristic=threats",
        "alphabeta:depth=3,heuristic=late loss",
        "alphabeta:depth=5,heuristic=threats",
        "perfect",
    ]
    _versus_random("sim", sim_specs, games, first="red")


SECTIONS: dict[str, Callable[[], None]] = {
    "checkers": bench_checkers,
    "sim": bench_sim,
    "vs-random": bench_vs_random,
}


def main(argv: list[str]) -> None:
    """Run the named sections (all by default)."""
    names = argv or list(SECTIONS)
    unknown = [name for name in names if name not in SECTIONS]
    if unknown:
        raise SystemExit(f"unknown section {unknown[0]!r}; choose from {', '.join(SECTIONS)}")
    for name in names:
        SECTIONS[name]()
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
