"""Memory of the shared pool's workers running the heaviest jobs a hosted server allows.

Each job runs alone in a fresh one-worker :class:`lib.jobs.JobPool` with no memory cap (the
figures are what picks the cap, :data:`lib.jobs.DEFAULT_MEMORY_MB`). While it runs, the
worker's ``/proc/<pid>/status`` is sampled every 50 ms; afterwards its kernel-kept peaks are
read. Printed per job, in MB:

* **peak RSS** (``VmHWM``): the physical memory it took at worst: what a ~1 GB server must
  hold (the server itself, plus every worker at once);
* **peak address space** (``VmPeak``): the libraries' mappings and reserved but untouched
  memory as well as the data (a cap on it refused numba's LLVM);
* **peak data** (``VmData``, sampled): private writable memory, heap and arrays: what
  ``RLIMIT_DATA``, the cap, counts.

The jobs (the same as ``bench/load.py``'s, plus the widest GA an upload allows):

* ``ga``: the portfolio GA at the page's caps (population 3,000, 5,000 generations, no
  early stop) on the bundled stocks, for its page's time budget (``--ga-seconds``);
* ``ga-wide``: the same on the widest table the GA takes at that population
  (``MAX_CELLS`` weights: 3,000 × 1,666 stocks);
* ``arena``: the Arena's Othello 6x6 depths 1/3/5/7 preset within the hosted caps (minimax
  to depth 5, alpha-beta to 7), ``--arena-games`` per match (memory is per game, the
  records kept are a few hundred bytes each);
* ``arena-deep``: alpha-beta at depth 7 with its transposition table against random on
  8x8 Othello (``--arena-games`` games), the deepest search a study may hold in memory;
* ``routes``: every route algorithm on 400 pairs of a 2,000-place random graph;
* ``evolution``: weight evolution at the hosted caps (population 30, depth 2, 2 games per
  pair in 5 leagues, 10 benchmark games), ``--evo-generations`` generations (memory is per
  generation);
* ``ladder-formula``: an Othello 6x6 strength ladder with a student's formula player (a
  game reaches the compiled endgame solver, so the worker loads numba's LLVM);
* ``othello-solver`` / ``connect-four-solver``: a game of each game's default AI, whose
  exact solver (compiled code) takes over near the end;
* ``cold-compile``: the Othello game again with numba's cache in an empty folder, so the
  worker compiles the solver itself (a fresh install whose warm-up has not finished).

An idle worker (a trivial job) is measured first: the floor every job starts from.

Run: ``python -m bench.job_memory`` (``--jobs ga routes`` for some).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lib.jobs import JobPool  # noqa: E402

MB = 1024 * 1024


def idle() -> int:
    """A trivial job: the worker's own process id."""
    return os.getpid()


def ga_job(wide: bool, seconds: float) -> int:
    """The portfolio GA at the page's caps; returns the generations it ran."""
    from lib.portfolio.data import hard_case_table, load_stock_table
    from lib.portfolio.ga import MAX_CELLS, GAConfig, run_ga

    population = 3000
    if wide:
        table = hard_case_table(MAX_CELLS // population, seed=1)
    else:
        table = load_stock_table(ROOT / "data" / "sample_stocks.csv")
    config = GAConfig(
        population_size=population,
        elite_size=300,
        max_generations=5000,
        stop_at_first_feasible=False,
        time_limit=seconds,
        seed=1,
    )
    return run_ga(table, config).generations


def arena_job(games: int) -> int:
    """The Othello 6x6 depths 1/3/5/7 preset with ``games`` per match; returns the games."""
    from lib.games.arena import presets, run_tournament
    from lib.games.arena.limits import HOSTED_CAPS, leave_out_over_caps

    chosen = presets()["othello_pruning"].matches(games, 1, HOSTED_CAPS.max_depth)
    matches, _ = leave_out_over_caps(chosen, HOSTED_CAPS)  # as the page: minimax d7 is out
    return len(run_tournament(matches).records)


def deep_game_job(games: int) -> int:
    """Alpha-beta at the hosted depth cap with its transposition table (kept for a whole
    search, the most memory one player takes) against random on 8x8 Othello."""
    from lib.games.arena import MatchConfig, run_tournament
    from lib.games.arena.limits import HOSTED_CAPS

    player = f"alphabeta:depth={HOSTED_CAPS.max_depth},tt=true,ordering=true"
    match = MatchConfig("othello", (player, "random"), games=games, seed=1, options={"size": 8})
    return len(run_tournament([match]).records)


def routes_job() -> int:
    """Every algorithm on 400 pairs of a 2,000-place random graph; returns the table's rows."""
    from lib.routes import compare, graphs, search

    G = graphs.random_geometric(2000, seed=0)
    h = graphs.make_heuristic(G, graphs.STRAIGHT)
    pairs = compare.choose_pairs(G, ordered=False, max_pairs=400)
    table = compare.all_pairs(G, list(search.ALGORITHMS), h, pairs=pairs, drop_failing=True)
    return len(table)


def evolution_job(generations: int) -> int:
    """Weight evolution at the hosted caps for ``generations``; returns the games played."""
    from lib.games.arena.evolve import EvolutionConfig, evolve

    config = EvolutionConfig(
        "othello", population=30, leagues=5, generations=generations, depth=2, seed=1
    )
    return sum(g.games for g in evolve(config).generations)


LADDER_FORMULA = "if(empties < 12, discs, 4*mobility + 10*corners)"
"""The formula player of the ladder that once failed under an address-space cap."""


def ladder_formula_job() -> int:
    """Random, greedy and a formula player on 6x6 Othello at 0.1 s a move; the games."""
    from lib.games.arena import run_tournament
    from lib.games.arena.ladder import LadderConfig
    from lib.games.search.players import PlayerConfig

    formula = PlayerConfig(kind="alphabeta", depth=12, formula=LADDER_FORMULA, time_limit=0.1)
    players = ("random", "greedy", formula.to_spec())
    config = LadderConfig("othello", {"size": 6}, players, time_per_move=0.1, games_per_pair=2)
    return len(run_tournament(config.matches()).records)


def solver_game_job(game: str, options: dict) -> int:
    """One game of ``game``'s default AI against random (its exact solver ends it)."""
    from lib.games.arena import MatchConfig, run_tournament
    from lib.games.core import get_game

    player = get_game(game).default_player
    match = MatchConfig(game, (player, "random"), games=1, seed=1, options=options)
    return len(run_tournament([match]).records)


def cold_compile_job(cache: str) -> int:
    """The Othello solver game with numba's cache in the empty folder ``cache``."""
    os.environ["NUMBA_CACHE_DIR"] = cache  # read when numba is first imported, below
    return solver_game_job("othello", {"size": 8})


def status(pid: int) -> dict[str, int]:
    """The ``Vm*`` lines of ``/proc/<pid>/status``, in bytes."""
    with open(f"/proc/{pid}/status") as text:
        return {k: int(v) * 1024 for k, v in re.findall(r"^(Vm\w+):\s+(\d+) kB", text.read(), re.M)}


def measure(function, args: tuple) -> dict[str, float]:
    """Run ``function(*args)`` alone in a fresh worker; its peaks in MB and its seconds."""
    pool = JobPool(workers=1, memory_mb=None, abandon_after=None)
    try:
        start = time.monotonic()
        job = pool.submit(function, args)
        data = 0
        while not job.wait(0.05):
            if job.worker_pid is not None:
                data = max(data, status(job.worker_pid)["VmData"])
        seconds = time.monotonic() - start
        (pid,) = pool.worker_pids()
        job.result()
        last = status(pid)
    finally:
        pool.shutdown()
    return {
        "seconds": seconds,
        "rss": last["VmHWM"] / MB,
        "address_space": last["VmPeak"] / MB,
        "data": max(data, last["VmData"]) / MB,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", nargs="*", default=None, help="some of the jobs (default all)")
    parser.add_argument("--ga-seconds", type=float, default=60.0)
    parser.add_argument("--arena-games", type=int, default=1)
    parser.add_argument("--evo-generations", type=int, default=1)
    options = parser.parse_args()
    # a worker finds a job by its module's name: this file's, not "__main__"
    from bench import job_memory as here

    jobs = {
        "idle worker": (here.idle, ()),
        "ga": (here.ga_job, (False, options.ga_seconds)),
        "ga-wide": (here.ga_job, (True, options.ga_seconds)),
        "arena": (here.arena_job, (options.arena_games,)),
        "arena-deep": (here.deep_game_job, (options.arena_games,)),
        "routes": (here.routes_job, ()),
        "evolution": (here.evolution_job, (options.evo_generations,)),
        "ladder-formula": (here.ladder_formula_job, ()),
        "othello-solver": (here.solver_game_job, ("othello", {"size": 8})),
        "connect-four-solver": (here.solver_game_job, ("connect_four", {})),
        "cold-compile": (here.cold_compile_job, (tempfile.mkdtemp(prefix="numba-cold-"),)),
    }
    chosen = ["idle worker", *(options.jobs or [name for name in jobs if name != "idle worker"])]
    print(f"load average {os.getloadavg()[0]:.2f}; figures in MB")
    print(f"{'job':<12} {'seconds':>8} {'peak RSS':>9} {'address space':>14} {'data':>8}")
    for name in chosen:
        figures = measure(*jobs[name])
        print(
            f"{name:<12} {figures['seconds']:8.1f} {figures['rss']:9.0f} "
            f"{figures['address_space']:14.0f} {figures['data']:8.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
