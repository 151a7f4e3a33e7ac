"""The first AI move after a fresh install, against the same move once the server is warm.

A fresh install has no machine code for the games' exact solvers in numba's cache. The
server compiles it at the first visit in a process of its own (:mod:`lib.ui.server`);
meanwhile a search in the server plays without the solver instead of compiling it a second
time in the server's interpreter (17 s to 2 minutes of a frozen page before). Each case
runs in a fresh Python process, as a server would, with ``NUMBA_CACHE_DIR`` in a folder of
its own, and times what the visitor waits for: the default AI's first move from the start
(``decide`` with the game's default player, clock and all, loading included).

* **fresh**: an empty cache, the server's warm-up started just before the move;
* **fresh, no warm-up**: an empty cache and no warm-up (the move compiles the solver
  itself: a command-line run, or the server before this change);
* **warm**: the cache the warm-up left, no warm-up running (a restarted server).

Run: ``python -m bench.first_move`` (``--games othello`` for one). It ends with one line per
game, ``<game> fresh=<s> warm=<s> ratio=<fresh/warm>``; the goal is a ratio of at most 2.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CASE = """
import json, sys, threading, time
import numpy as np
from lib.games.core import get_game
from lib.games.search.players import parse_player_spec
from lib.games.session import decide

game = get_game(sys.argv[1])
warm_up = None
if sys.argv[2] == "warm-up":
    from lib.ui.server import ready_compiled_solvers

    warm_up = threading.Thread(target=ready_compiled_solvers)
    warm_up.start()
    time.sleep(0.2)  # the warm-up has begun: the visitor's first click comes after
config = parse_player_spec(game.default_player)
started = time.perf_counter()
decision = decide(game.initial_state(), config, game, np.random.default_rng(1), default_time=1.0)
seconds = time.perf_counter() - started
if warm_up is not None:
    warm_up.join()
print(json.dumps({"seconds": seconds}))
"""


def timed_move(game: str, cache: str, warm_up: bool) -> float:
    """Seconds of ``game``'s first default-AI move in a fresh process on ``cache``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    done = subprocess.run(
        [sys.executable, "-c", CASE, game, "warm-up" if warm_up else "none"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])["seconds"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=["othello", "connect_four"])
    options = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}")
    lines = []
    for game in options.games:
        with (
            tempfile.TemporaryDirectory(prefix="numba-fresh-") as fresh,
            tempfile.TemporaryDirectory(prefix="numba-alone-") as alone,
        ):
            started = time.perf_counter()
            cold = timed_move(game, fresh, warm_up=True)
            print(
                f"{game}: fresh install, warm-up running: first move {cold:.2f} s "
                f"(warm-up done {time.perf_counter() - started:.1f} s after the start)"
            )
            blocking = timed_move(game, alone, warm_up=False)
            print(f"{game}: fresh install, no warm-up (the move compiles): {blocking:.2f} s")
            warm = timed_move(game, fresh, warm_up=False)
            print(f"{game}: warm cache: first move {warm:.2f} s")
        lines.append(f"{game} fresh={cold:.2f} warm={warm:.2f} ratio={cold / warm:.2f}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
