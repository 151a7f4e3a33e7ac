"""A class contest's ranking against a full round robin, and a light click beside it.

A class of ``--entries`` (default 40) formula entries on Othello 6x6 at the contest's
default settings (:class:`lib.contest.contests.ContestSettings`: alpha-beta, depth cap 3,
0.1 s per move, 12 games a new entry) joins a fresh contest in an SQLite file. The contest
plays itself as on a server: :class:`lib.contest.runner.ContestWorker` in a thread of this
process, its games on a :class:`lib.jobs.JobPool` (the server's default number of
workers: the CPU count less one). The clock runs until every scheduled game is recorded
and the refinement it then schedules (neighbours of the leaderboard that have not met) is
played too (limit ``--limit`` minutes, default 10); the contest's ranking is its leaderboard.

The oracle is a full round robin of the same entries (every pair, both colours), rated by
the same model (:func:`lib.games.arena.rating.fit_ratings`); games already played in the
contest are reused for their pairs (the same players and seeds; depth-capped searches that
finish within their clock play the same moves), the others are played after the clock
stops, on a pool of one worker per core. The agreement is Kendall's tau
(``scipy.stats.kendalltau``) between the two orders of the entries.

A light click elsewhere in the app is a rerun of the tic-tac-toe page (AppTest) in this, the
server's, process: median of repeated timings, first with nothing running, then while the
contest plays; ``click_ratio`` is the second over the first (goal at most 2). It times the
server's side of a click, not a browser's (``bench/load.py`` times those).

The entries' formulas are random combinations of Othello's features (seeded, ``--seed``),
so the class has strong, middling and weak entries, as a real one does.

    python -m bench.contest                       # the goal: 40 entries, 10 minutes, 2 cores
    python -m bench.contest --entries 12 --limit 5 # a reduced run on a shared machine

Ends with one line: ``kendall_tau=<x> minutes=<y> click_ratio=<z>``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import sqlalchemy as sa
from scipy.stats import kendalltau

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lib.contest import contests as C  # noqa: E402
from lib.contest.identity import new_token  # noqa: E402
from lib.contest.runner import ContestWorker, JobPoolSubmitter, play_claim  # noqa: E402
from lib.contest.schedule import Claim, game_counts, game_seed  # noqa: E402
from lib.contest.schema import games, versions  # noqa: E402
from lib.contest.standings import leaderboard  # noqa: E402
from lib.contest.store import Store  # noqa: E402
from lib.games.arena.rating import fit_ratings  # noqa: E402
from lib.jobs import JobPool  # noqa: E402

FEATURES = ("discs", "corners", "mobility", "x_squares", "c_squares", "edges")
"""The Othello features the class's formulas combine."""


def class_formulas(count: int, seed: int) -> list[str]:
    """``count`` different formulas: random integer weights on a few features each."""
    rng = np.random.default_rng(seed)
    formulas: list[str] = []
    while len(formulas) < count:
        chosen = rng.choice(FEATURES, size=rng.integers(1, 4), replace=False)
        parts = [f"{int(rng.integers(-3, 11))}*{name}" for name in sorted(chosen)]
        formula = " + ".join(parts)
        if formula not in formulas:
            formulas.append(formula)
    return formulas


class LightClick:
    """A light click elsewhere in the app: a rerun of the tic-tac-toe page (AppTest), the
    server-side work one click on its board starts, in this (the server's) process."""

    def __init__(self) -> None:
        from streamlit.testing.v1 import AppTest

        self.app = AppTest.from_file(str(ROOT / "pages" / "tictactoe.py"), default_timeout=60)
        self.app.run()

    def __call__(self, repeats: int = 7) -> float:
        """Median seconds of ``repeats`` reruns."""
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            self.app.run()
            times.append(time.perf_counter() - start)
        return statistics.median(times)


def round_robin(store: Store, contest: C.Contest, pool: JobPool) -> tuple[list[int], dict]:
    """Every pair's two games (the contest's reused); the versions and their results."""
    with store.read() as connection:
        specs = dict(connection.execute(sa.select(versions.c.id, versions.c.spec)).all())
        played = {
            (row.version_a, row.version_b, row.game_index): row.result_a
            for row in connection.execute(sa.select(games).where(games.c.state == "done")).all()
        }
    ids = sorted(specs)
    options = tuple(sorted(contest.options.items()))
    waiting = {}
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            for index in (0, 1):
                if (a, b, index) not in played:
                    claim = Claim(
                        0, contest.id, contest.game, options, specs[a], specs[b], index,
                        game_seed(contest.seed, a, b),
                    )  # fmt: skip
                    job = pool.submit(play_claim, (claim,))
                    waiting[(a, b, index)] = job
    for key, job in waiting.items():
        while not job.finished:
            job.wait(0.25)
        played[key] = job.result().result_a
    return ids, played


def _finished(store: Store, contest_id: int) -> bool:
    """Whether no game of the contest waits or is being played."""
    counts = game_counts(store, contest_id)
    return not counts.get("pending") and not counts.get("claimed")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=40)
    parser.add_argument("--limit", type=float, default=10.0, help="minutes for the contest")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    folder = tempfile.mkdtemp(prefix="bench-contest-")
    store = Store(f"sqlite:///{folder}/contest.sqlite3")
    settings = C.ContestSettings(max_entries=max(C.DEFAULT_MAX_ENTRIES, args.entries))
    contest = C.open_contest(store, settings)
    for i, formula in enumerate(class_formulas(args.entries, args.seed)):
        token = new_token()
        C.join(store, contest.code, f"Student {i:02}", token, f"bench-{i}")
        C.submit(
            store,
            contest.code,
            token,
            C.Submission(formula=formula),
            f"bench-key-{i:04}",
            f"bench-{i}",
        )
    scheduled = game_counts(store, contest.id)["pending"]
    print(f"{args.entries} entries, {scheduled} games scheduled; load {os.getloadavg()[0]:.1f}")
    light_click = LightClick()
    idle = light_click(9)
    pool = JobPool(abandon_after=None)
    stop = threading.Event()
    worker = ContestWorker(store, submit=JobPoolSubmitter(pool), batch=2 * pool.max_workers)
    start = time.monotonic()
    thread = threading.Thread(target=worker.run, args=(stop, 0.2), daemon=True)
    thread.start()
    busy = []
    while time.monotonic() - start < 60 * args.limit:
        busy.append(light_click(3))
        if _finished(store, contest.id) and worker.schedule() == 0 and _finished(store, contest.id):
            break  # (read again: the worker's thread may have scheduled a round meanwhile)
        time.sleep(1.0)
    minutes = (time.monotonic() - start) / 60
    stop.set()
    thread.join()
    counts = game_counts(store, contest.id)
    print(
        f"contest: {counts.get('done', 0)} of {scheduled} games in {minutes:.2f} min "
        f"({counts.get('failed', 0)} failed); load {os.getloadavg()[0]:.1f}"
    )
    table = leaderboard(store, contest.id)
    pool.shutdown()
    # the oracle after the clock, on every core (nothing else to keep responsive then)
    oracle_pool = JobPool(os.cpu_count() or 1, abandon_after=None)
    ids, played = round_robin(store, contest, oracle_pool)
    oracle_pool.shutdown()
    oracle = fit_ratings(
        [str(v) for v in ids],
        [(str(a), str(b), float(r)) for (a, b, _), r in played.items()],
    )
    with store.read() as connection:
        entry_of = dict(connection.execute(sa.select(versions.c.id, versions.c.entry_id)).all())
    contest_rating = dict(zip(table.entry, table.rating, strict=True))
    pairs = [(contest_rating[entry_of[v]], oracle.rating(str(v))) for v in ids]
    tau = kendalltau([p[0] for p in pairs], [p[1] for p in pairs]).statistic
    ratio = statistics.median(busy) / idle if busy else float("nan")
    print(
        f"round robin: {len(played)} games; light click {idle * 1000:.1f} ms idle, "
        f"{statistics.median(busy) * 1000:.1f} ms during the contest"
    )
    print(f"kendall_tau={tau:.3f} minutes={minutes:.2f} click_ratio={ratio:.2f}")


if __name__ == "__main__":
    main()
