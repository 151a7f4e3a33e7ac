"""Game-engine benchmarks: speeds printed as ratios against references measured in the same run.

Run from the repository root::

    python -m bench.games                 # every section
    python -m bench.games checkers sim    # some sections

Sections (each prints its own table):

* ``checkers``: perft(7) from the start position with the bitboard engine,
  in moves (leaves) per second, against the naive coordinate engine
  (:mod:`tests.games.naive.checkers`) on the same tree at depth 5, and against
  the target of 300,000 moves/s (on par with the fastest pure-Python
  draughts move generators).
* ``sim``: time to solve the empty Sim board exactly (target: well under a
  second), against a plain memoised negamax without the dead-line table and
  the symmetry reduction, measured in the same run.
* ``vs-random``: seconds per game for each AI config of checkers and Sim
  against a random player, with the AI's score, against the time of a
  random-vs-random game (the cost of the rules alone).
* ``othello-perft``: Othello perft(7) from the 8x8 start with the bitboard
  engine, in moves (leaves) per second, against the course-style
  list-of-lists engine with deep copies (:mod:`tests.games.naive.othello`) on
  the same tree in the same run, and against the target of 600,000 moves/s.
* ``othello-search``: alpha-beta at depth 5 on 20 fixed 8x8 mid-game
  positions: nodes per second, and total nodes / effective branching factor
  with and without move ordering and the transposition table (minimax at
  depth 4 on the same positions for scale).
* ``othello-reference``: the textbook alpha-beta of :mod:`lib.games.search.reference`
  (with no tracer, and counting with a ``StatsTracer``) against the engine
  without ordering and table on the same 20 positions at depth 4: the same
  nodes, so the ratio is the cost of the readable version; and the full engine.
* ``othello-answer``: seconds for the default AI (alpha-beta, depth 6, no time
  budget) to answer on the same 20 positions, against the 1 s target.
* ``othello-6x6``: seconds per 6x6 game of alpha-beta depth 5 against a
  random player, against a random-vs-random game.

Figures depend on the machine and its load: compare the ratios, not the
seconds, between machines.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from bench.sections import run_sections
from lib.games import checkers, othello, sim
from lib.games.arena import MatchConfig, play_game
from lib.games.core import get_game, perft
from lib.games.search import fast as search
from lib.games.search import reference, tracers
from tests.games.naive import checkers as checkers_naive
from tests.games.naive import othello as othello_naive

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


OTHELLO_PERFT_TARGET = 600_000.0
"""Perft moves per second the Othello engine should reach (pure Python)."""


def _fastest_of(function: Callable[[], object], repeats: int) -> tuple[object, float, float]:
    """Run ``function`` ``repeats`` times: (result, fastest seconds, median seconds).

    The machine is shared, so the fastest run is the least noisy estimate.
    """
    times = []
    result = None
    for _ in range(repeats):
        result, seconds = _timed(function)
        times.append(seconds)
    times.sort()
    return result, times[0], times[len(times) // 2]


def bench_othello_perft(repeats: int = 5) -> None:
    """Othello perft(7): bitboards vs the list-of-lists engine vs the target."""
    print(f"== Othello perft(7) from the 8x8 start (fastest and median of {repeats} runs) ==")
    leaves, seconds, median = _fastest_of(lambda: perft(othello.initial_state(8), 7), repeats)
    naive, naive_seconds, naive_median = _fastest_of(
        lambda: othello_naive.perft(othello_naive.initial_board(8), 0, 7), max(2, repeats // 2)
    )
    assert leaves == naive == 55_092, (leaves, naive)
    rate, naive_rate = leaves / seconds, naive / naive_seconds
    print(
        f"bitboard:      {leaves:,} leaves in {seconds:.3f} s = {rate:,.0f} moves/s "
        f"(median {leaves / median:,.0f})"
    )
    print(
        f"list-of-lists: {naive:,} leaves in {naive_seconds:.3f} s = {naive_rate:,.0f} moves/s "
        f"(median {naive / naive_median:,.0f})"
    )
    print(f"speed-up {rate / naive_rate:.1f}x")
    print(
        f"rate / target {OTHELLO_PERFT_TARGET:,.0f} = {rate / OTHELLO_PERFT_TARGET:.2f} "
        f"({'meets' if rate >= OTHELLO_PERFT_TARGET else 'misses'} the target)"
    )
    leaves8, seconds8 = _timed(lambda: perft(othello.initial_state(8), 8))
    print(f"perft(8) = {leaves8:,} in {seconds8:.2f} s = {leaves8 / seconds8:,.0f} moves/s")


def othello_positions(count: int = 20, seed: int = 2024) -> list[othello.OthelloState]:
    """``count`` fixed 8x8 mid-game positions (20 to 39 random plies from the start)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    positions = []
    while len(positions) < count:
        state = othello.initial_state(8)
        for _ in range(20 + len(positions)):
            moves = state.legal_moves()
            if not moves:
                break
            state = state.play(moves[int(rng.integers(len(moves)))])
        if len(state.legal_moves()) > 1:
            positions.append(state)
    return positions


def bench_othello_search() -> None:
    """Alpha-beta depth 5 on 20 mid-game positions: nodes/s; ordering and table effects."""
    print("== Othello alpha-beta, depth 5, 20 fixed mid-game positions (8x8) ==")
    positions = othello_positions()
    print(f"{'variant':<32} {'nodes':>10} {'seconds':>8} {'nodes/s':>9} {'EBF':>6}")
    rows = {}
    for label, options in (
        ("ordering + table", {"ordering": True, "transposition": True}),
        ("ordering, no table", {"ordering": True, "transposition": False}),
        ("no ordering, table", {"ordering": False, "transposition": True}),
        ("no ordering, no table", {"ordering": False, "transposition": False}),
    ):
        results, seconds = _timed(
            lambda options=options: [search.choose_move(p, depth=5, **options) for p in positions]
        )
        nodes = sum(r.stats.nodes for r in results)
        ebf = search.effective_branching_factor(nodes / len(positions), 5)
        rows[label] = (nodes, [r.value for r in results])
        print(f"{label:<32} {nodes:>10,} {seconds:>8.2f} {nodes / seconds:>9,.0f} {ebf:>6.2f}")
    values = {tuple(v) for _, v in rows.values()}
    assert len(values) == 1, "alpha-beta variants disagree"
    best, worst = rows["ordering + table"][0], rows["no ordering, no table"][0]
    print(f"ordering + table visit {best / worst:.0%} of the nodes of plain alpha-beta")
    results, seconds = _timed(
        lambda: [search.choose_move(p, algorithm="minimax", depth=4) for p in positions]
    )
    minimax_nodes = sum(r.stats.nodes for r in results)
    alphabeta4 = sum(search.choose_move(p, depth=4).stats.nodes for p in positions)
    print(
        f"depth 4: minimax {minimax_nodes:,} nodes ({seconds:.1f} s), alpha-beta {alphabeta4:,} "
        f"nodes: {minimax_nodes / alphabeta4:.0f}x fewer with pruning"
    )


def bench_othello_reference() -> None:
    """Textbook alpha-beta (reference.py) against the engine on the same tree, depth 4."""
    print("== Othello textbook alpha-beta vs the engine, depth 4, 20 mid-game positions (8x8) ==")
    positions = othello_positions()
    evaluate = search.resolve_evaluator(positions[0], None)

    def textbook(tracer_class: type | None = None) -> tuple[int, list[float]]:
        nodes, values = 0, []
        for position in positions:
            tracer = tracer_class() if tracer_class is not None else None
            values.append(reference.alphabeta_search(position, 4, evaluate, tracer)[0])
            nodes += tracer.nodes if tracer is not None else 0
        return nodes, values

    def engine(**options: object) -> tuple[int, list[float]]:
        results = [search.choose_move(p, depth=4, heuristic=evaluate, **options) for p in positions]
        return sum(r.stats.nodes for r in results), [r.value for r in results]

    (_, plain_values), plain_seconds = _timed(textbook)
    (counted, counted_values), counted_seconds = _timed(lambda: textbook(tracers.StatsTracer))
    (nodes, values), seconds = _timed(lambda: engine(ordering=False, transposition=False))
    (full_nodes, full_values), full_seconds = _timed(engine)
    assert plain_values == counted_values == values == full_values, "the searches disagree"
    assert counted == nodes, (counted, nodes)
    print(f"{'search':<40} {'nodes':>9} {'seconds':>8} {'x engine':>9}")
    for label, n, s in (
        ("textbook alpha-beta, no tracer", nodes, plain_seconds),
        ("textbook alpha-beta, StatsTracer", counted, counted_seconds),
        ("engine, no ordering, no table", nodes, seconds),
        ("engine, ordering + table", full_nodes, full_seconds),
    ):
        print(f"{label:<40} {n:>9,} {s:>8.2f} {s / seconds:>9.2f}")


def bench_othello_answer() -> None:
    """Seconds for the default AI (alpha-beta depth 6) to answer on 20 mid-game positions."""
    print("== Othello default AI answer time (alpha-beta depth 6, 8x8, no time budget) ==")
    times = []
    for position in othello_positions():
        result = search.choose_move(position, depth=6)
        assert result.stats.depth_reached == 6 or result.stats.solved
        times.append(result.stats.seconds)
    times.sort()
    within = sum(t <= 1.0 for t in times)
    print(
        f"mean {sum(times) / len(times):.3f} s, median {times[len(times) // 2]:.3f} s, "
        f"max {times[-1]:.3f} s; {within}/{len(times)} within the 1 s target"
    )


def bench_othello_6x6(games: int = 10) -> None:
    """Seconds per 6x6 game: alpha-beta depth 5 against random, vs random against random."""
    print("== Othello 6x6 games against a random player ==")
    _versus_random("othello", ["alphabeta:depth=3", "alphabeta:depth=5"], games, size=6)


SECTIONS: dict[str, Callable[[], None]] = {
    "checkers": bench_checkers,
    "sim": bench_sim,
    "vs-random": bench_vs_random,
    "othello-perft": bench_othello_perft,
    "othello-search": bench_othello_search,
    "othello-reference": bench_othello_reference,
    "othello-answer": bench_othello_answer,
    "othello-6x6": bench_othello_6x6,
}


def main(argv: list[str]) -> None:
    """Run the named sections (all by default)."""
    run_sections(SECTIONS, argv)


if __name__ == "__main__":
    main(sys.argv[1:])
