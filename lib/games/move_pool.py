"""Search an AI move in a small pool of worker processes, so the server's interpreter stays free.

A game page's AI move is searched in the server's process by default, in a thread of lower
CPU priority (:func:`lib.games.session.decide`). A lower priority shares the CPU, not the
interpreter's lock: two sessions playing AI against AI at 5 s a move held it so much that
another visitor's light click took 1.7 times as long. A move is therefore searched in a
worker of a second :class:`lib.jobs.JobPool` (its own, so a move never queues behind an
Arena study), when one of its workers is up and free; otherwise, as before, in the
server's thread, so a move never waits in a queue either: in a class of thirty playing at
once, the first few moves go to the workers and the rest share the server as they always
did. The first such move starts the workers, each loading the games' code and compiled
solvers ahead of the moves that follow.

A move searched in a worker is the move :func:`~lib.games.session.decide` finds: the same
player from the same settings, the same random generator (its state comes back and
continues in the page's session), its progress passed on at most every
:data:`lib.jobs.LATEST_EVERY` seconds, and a progress handler that raises (a page whose run
was replaced) cancels it there. While the server compiles the solvers elsewhere
(:func:`lib.games.compiled_code.compiling_elsewhere`) the worker does not compile them
either, as the server would not.

``$AI_SEARCH_LAB_MOVE_WORKERS`` sets the number of workers (default: the CPU count, at
most 2; ``0``: every move in the server's threads).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from lib.games import compiled_code
from lib.games.core import GameSpec, available_games, get_game
from lib.games.search.players import Decision, PlayerConfig, make_player, parse_player_spec
from lib.games.session import decide, move_chooser
from lib.jobs import LATEST, MAX_DEFAULT_WORKERS, Job, JobPool
from lib.settings import setting, whole_number

MOVE_WORKERS_ENV = "AI_SEARCH_LAB_MOVE_WORKERS"
"""Environment variable setting the number of worker processes for AI moves (0: none)."""

IDLE_SECONDS = 600.0
"""A move worker idle this long exits (a game's moves come seconds apart; a worker that
started again would load the games' code again, about a second)."""

WAIT_SECONDS = 0.1
"""How often the page's thread looks at a move searched elsewhere (its progress, its end)."""


def move_workers(environ: Mapping[str, str] | None = None) -> int:
    """``$AI_SEARCH_LAB_MOVE_WORKERS``, else the CPU count (at most 2); 0 turns them off.

    >>> move_workers({"AI_SEARCH_LAB_MOVE_WORKERS": "0"})
    0
    """
    default = min(MAX_DEFAULT_WORKERS, max(1, os.cpu_count() or 1))
    expected = "a whole number (0 for no move workers)"
    return setting(MOVE_WORKERS_ENV, whole_number(0), default, expected=expected, environ=environ)


def new_move_pool(workers: int | None = None) -> JobPool | None:
    """A pool for AI moves with ``workers`` processes (default :func:`move_workers`), at
    the job pool's lower priority and memory cap; None for 0 workers."""
    workers = move_workers() if workers is None else workers
    if workers <= 0:
        return None
    return JobPool(workers, idle_seconds=IDLE_SECONDS)


def warm_up(compiling_elsewhere: bool) -> list[str]:
    """A worker's first job: import every game with its default player (rules, search,
    heuristics) and, unless the server is compiling them elsewhere, load the compiled
    solvers; the games' names."""
    for game in available_games().values():
        make_player(parse_player_spec(game.default_player), game)
    if not compiling_elsewhere:
        compiled_code.load_all()
    return list(available_games())


def search_move(
    state: Any,
    config: PlayerConfig,
    game_name: str,
    rng: np.random.Generator,
    *,
    compiling_elsewhere: bool,
    on_progress: Callable[[Any], None],
    **options: Any,
) -> tuple[Decision, Mapping[str, Any]]:
    """A worker's job: the move :func:`decide` finds with ``options`` (its keyword
    arguments), and the random generator's state after."""
    choose = move_chooser(state, config, get_game(game_name), rng, **options)
    # the server compiles the solvers in another process: this worker does not wait for it
    compiling = compiled_code.warming_up() if compiling_elsewhere else contextlib.nullcontext()
    with compiling:
        decision = choose(on_progress)
    return decision, rng.bit_generator.state


def decide_anywhere(
    pool: JobPool | None,
    state: Any,
    config: PlayerConfig,
    game: GameSpec,
    rng: np.random.Generator,
    *,
    on_progress: Callable[[Any], None] | None = None,
    **options: Any,
) -> Decision:
    """:func:`decide`'s move (``options``: its keyword arguments, ``default_time`` ...),
    searched in a free worker of ``pool`` if there is one, else in this process (and then
    the pool's workers are started for the moves to come)."""
    if pool is not None:
        job = pool.submit_if_idle(
            search_move,
            (state, config, game.name, rng),
            {**options, "compiling_elsewhere": compiled_code.compiling_elsewhere()},
            callbacks={"on_progress": LATEST},
        )
        if job is not None:
            return _wait_for(job, rng, on_progress)
        pool.fill(warm_up, (compiled_code.compiling_elsewhere(),))
    return decide(state, config, game, rng, on_progress=on_progress, **options)


def _wait_for(
    job: Job, rng: np.random.Generator, on_progress: Callable[[Any], None] | None
) -> Decision:
    """Wait for the move ``job`` searches, passing its progress on; cancel it if the
    progress handler raises (or anything else stops the wait)."""
    try:
        while not job.wait(WAIT_SECONDS):
            events = job.take_events()
            if events and on_progress is not None:
                on_progress(*events[-1].args)
        decision, rng_state = job.result()
    except BaseException:
        job.cancel()
        raise
    rng.bit_generator.state = rng_state
    return decision
