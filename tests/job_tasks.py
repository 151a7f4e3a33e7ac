"""Module-level jobs for tests/test_jobs.py (a worker imports them by name)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from lib.errors import InputError


def spin(seconds: float, on_tick: Callable[[int], None] | None = None) -> int:
    """Burn CPU for ``seconds``, calling ``on_tick(count)`` every 1,000 loops when given."""
    end = time.monotonic() + seconds
    count = 0
    while time.monotonic() < end:
        count += 1
        if on_tick is not None and count % 1000 == 0:
            on_tick(count)
    return count


def stamp(label: str, seconds: float) -> tuple[str, float, float]:
    """Sleep ``seconds``; return ``(label, start, end)`` in wall-clock seconds (any process)."""
    start = time.time()
    time.sleep(seconds)
    return label, start, time.time()


def priority() -> int:
    """This process's CPU niceness, read from inside it (a worker reports its own)."""
    return os.getpriority(os.PRIO_PROCESS, 0)


def count_up(n: int, on_step: Callable[[int, int], None]) -> int:
    """Call ``on_step(i, i * i)`` for i in 0..n-1; return n."""
    for i in range(n):
        on_step(i, i * i)
    return n


def fail_with(kind: str) -> None:
    """Raise the error named by ``kind``, or end the process abruptly for ``"exit"``."""
    if kind == "input":
        raise InputError("The map has no place called Atlantis.")
    if kind == "exit":
        os._exit(3)
    if kind == "unpicklable":
        return lambda: None  # type: ignore[return-value]
    raise ValueError("weights must be finite")


def allocate(megabytes: int, _cargo: bytes = b"") -> tuple[int, int]:
    """Hold ``megabytes`` of memory for a moment; return ``(process id, bytes held)``.

    ``_cargo`` is an argument the job ignores (its size is what a test sends).
    """
    block = bytearray(megabytes * 1024 * 1024)
    return os.getpid(), len(block)


# -- one job of every kind the pages run (tests/test_jobs_every_kind.py) ---------------------

LADDER_FORMULA = "if(empties < 12, discs, 4*mobility + 10*corners)"
"""The formula of the ladder that once failed in a worker (numba's LLVM could not load)."""


def ga_job() -> tuple[int, float]:
    """The portfolio GA, small, on the bundled stocks: (generations, fitness)."""
    from pathlib import Path

    from lib.portfolio.data import load_stock_table
    from lib.portfolio.ga import GAConfig, run_ga

    table = load_stock_table(Path(__file__).resolve().parents[1] / "data" / "sample_stocks.csv")
    config = GAConfig(population_size=60, elite_size=6, max_generations=15, seed=1)
    result = run_ga(table, config)
    return result.generations, float(result.fitness)


def routes_job() -> int:
    """Every route algorithm on every pair of Romania: the rows of the table."""
    from lib.routes import compare, graphs, search

    G = graphs.romania()
    h = graphs.make_heuristic(G, graphs.STRAIGHT)
    return len(compare.all_pairs(G, list(search.ALGORITHMS), h, drop_failing=True))


def study_job() -> list[float]:
    """A small Arena study (tic-tac-toe, alpha-beta against random): each game's score."""
    from lib.games.arena import MatchConfig, run_tournament

    match = MatchConfig("tictactoe", ("alphabeta:depth=9", "random"), games=2, seed=1)
    return [record.result_a for record in run_tournament([match]).records]


def formula_ladder_job() -> int:
    """The Othello 6x6 ladder with a formula player at 0.1 s a move: the games played."""
    from lib.games.arena import run_tournament
    from lib.games.arena.ladder import LadderConfig
    from lib.games.search.players import PlayerConfig

    formula = PlayerConfig(kind="alphabeta", depth=12, formula=LADDER_FORMULA, time_limit=0.1)
    players = ("random", "greedy", formula.to_spec())
    config = LadderConfig("othello", {"size": 6}, players, time_per_move=0.1, games_per_pair=2)
    return len(run_tournament(config.matches()).records)


def evolution_job() -> int:
    """Weight evolution, tiny: the games its one generation played."""
    from lib.games.arena.evolve import EvolutionConfig, evolve

    config = EvolutionConfig(
        "tictactoe", population=6, leagues=2, generations=1, benchmark_games=2, seed=1
    )
    return sum(generation.games for generation in evolve(config).generations)


def othello_solve_job(state: Any) -> tuple[int, int]:
    """The compiled Othello endgame solver on ``state``: (its best move, its exact margin)."""
    from lib.games.othello.endgame import solve

    result = solve(state)
    return result.best_move, result.margin


def connect_four_solve_job(state: Any) -> tuple[int, tuple[int, ...]]:
    """The compiled Connect Four solver on ``state``: (its score, its best columns)."""
    from lib.games.connect_four.solver import solve

    result = solve(state)
    return result.score, result.best_moves
