"""Play a contest's games from the command line: ``python -m lib.contest play``.

One process is one server's contest player (:class:`lib.contest.runner.ContestWorker`):
it schedules, claims, plays (in a process pool of ``--workers`` processes, in this
process with ``--workers 0``, or on the Dask cluster whose scheduler ``--scheduler`` names,
as the Arena's studies: docs/cluster.md) and records games until none is left
(``--until-done``) or forever, on the database of ``--url`` (default:
``$AI_SEARCH_LAB_DATABASE_URL``, else the SQLite file). Several such processes may share
one database.

    python -m lib.contest play --url postgresql+psycopg://...  --workers 2 --until-done
    python -m lib.contest play --scheduler tcp://10.0.0.5:8786 --batch 16
"""

from __future__ import annotations

import argparse
import sys
import threading

from lib.contest.runner import ContestWorker
from lib.contest.schedule import LEASE_SECONDS
from lib.contest.store import Store
from lib.errors import InputError
from lib.games.arena.executors import open_executor


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m lib.contest", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("play", help="play pending contest games")
    play.add_argument("--url", default=None, help="SQLAlchemy URL of the contest database")
    play.add_argument("--worker", default=None, help="this player's id (default: random)")
    play.add_argument("--workers", type=int, default=1, help="game processes (0: this one)")
    play.add_argument("--scheduler", default=None, help="a Dask scheduler (tcp://host:8786)")
    play.add_argument("--batch", type=int, default=4, help="games claimed at a time")
    play.add_argument("--lease", type=float, default=LEASE_SECONDS, help="claim lease (s)")
    play.add_argument("--until-done", action="store_true", help="stop when nothing is left")
    args = parser.parse_args(argv)
    kind = "dask" if args.scheduler else "process" if args.workers > 0 else "inline"
    try:
        store = Store(args.url)
        with open_executor(kind, args.workers, args.scheduler) as executor:
            worker = ContestWorker(
                store,
                worker_id=args.worker,
                submit=executor.submit,
                batch=args.batch,
                lease=args.lease,
            )
            try:
                _play(worker, args.until_done)
            finally:
                store.dispose()
    except InputError as error:
        print(error, file=sys.stderr)
        return 2
    return 0


def _play(worker: ContestWorker, until_done: bool) -> None:
    """Play until nothing is left (``until_done``) or forever."""
    if not until_done:
        worker.run(threading.Event())
        return
    while worker.schedule() + worker.step() > 0 or _unfinished(worker):
        pass


def _unfinished(worker: ContestWorker) -> bool:
    """Whether games are still claimed by others (wait for their lease) and so not done."""
    import time

    import sqlalchemy as sa

    from lib.contest.schema import games

    with worker.store.read() as connection:
        left = connection.scalar(
            sa.select(sa.func.count()).select_from(games).where(games.c.state == "claimed")
        )
    if left:
        time.sleep(0.5)
    return bool(left)


if __name__ == "__main__":
    raise SystemExit(main())
