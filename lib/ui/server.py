"""Server-wide helpers started once per server, whoever visits first."""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
from pathlib import Path

import streamlit as st
from streamlit.runtime import Runtime

from lib.games import compiled_code, move_pool
from lib.jobs import JobPool
from lib.memory import MemoryReleaser, tune_allocator
from lib.ui import jobs

LOG = logging.getLogger(__name__)

COMPILE_SECONDS = 300
REPOSITORY = Path(__file__).resolve().parents[2]
"""Where ``python -m lib...`` finds the app's modules, whatever folder the server started in."""
"""The longest the compiled solvers' warm-up may take (it compiles in some 15 s)."""


@st.cache_resource(show_spinner=False)
def memory_releaser() -> MemoryReleaser:
    """The server's one :class:`MemoryReleaser`, started after :func:`tune_allocator`:
    what visitors free goes back to the system."""
    tune_allocator()
    return MemoryReleaser()


def warm_shared_work(moves: JobPool | None = None) -> None:
    """Compute the read-only work that a page's first visit shares with every later one,
    then start the AI moves' workers (``moves``, :mod:`lib.games.move_pool`).

    That is the first looks of the Portfolio page (its imports: pandas, scipy; the sample
    data's seeded GA run, exact optimum and charts) and of the Arena (its imports, the
    default study's seeded games). They took about a second of each page's first visit
    after a server start, which then missed 3 s; every later visit reads them from the
    cache. Meanwhile the games' compiled exact solvers are made ready in a separate process
    (:mod:`lib.games.compiled_code`), which fills numba's disk cache: the first AI move
    then loads the code in a fraction of a second instead of compiling it for seconds, and
    the compiler never holds this server's interpreter. Once that code is ready, the move
    workers start and load it, so a game's first AI moves need not be searched in this
    server's interpreter while they start. A failure is only logged: the page then
    computes it itself, as it would without this.
    """
    # first, in a thread of its own: the solvers' process compiles while the first looks
    # are computed here, so a first AI move soon after the start rarely compiles them itself
    solvers = threading.Thread(target=ready_compiled_solvers, name="solvers-warm-up", daemon=True)
    solvers.start()
    # imported here, in the warm-up's thread: the entry script's run does not wait
    from lib.ui import arena_first_look, portfolio_first_look

    for page in (portfolio_first_look, arena_first_look):
        try:
            page.warm_first_look()
        except Exception:  # the page computes what failed here itself, and says why
            LOG.warning("warming %s's first look failed", page.__name__, exc_info=True)
    solvers.join()
    if moves is not None:  # the solvers' code is on disk now: the workers load, not compile
        moves.fill(move_pool.warm_up, (False,))


def ready_compiled_solvers() -> None:
    """Run :mod:`lib.games.compiled_code` in a process of its own (numba's compiler never
    holds this server's interpreter); a failure is logged with the process's own error."""
    command = [sys.executable, "-m", "lib.games.compiled_code"]
    try:
        with compiled_code.warming_up():  # meanwhile, searches here play without the solvers
            subprocess.run(
                command, cwd=REPOSITORY, check=True, capture_output=True, timeout=COMPILE_SECONDS
            )
    except subprocess.CalledProcessError as error:  # the first solve compiles it instead
        reason = error.stderr.decode(errors="replace")[-2000:] if error.stderr else ""
        LOG.warning("readying the compiled solvers failed: %s", reason)
    except (OSError, subprocess.SubprocessError):
        LOG.warning("readying the compiled solvers failed", exc_info=True)


def serving() -> bool:
    """True in a ``streamlit run`` server (AppTest runs pages beside a stand-in runtime)."""
    return Runtime.exists() and type(Runtime.instance()) is Runtime


@st.cache_resource(show_spinner=False)
def shared_work_warmer() -> threading.Thread | None:
    """Start :func:`warm_shared_work` once per server, in a daemon thread: the visit that
    starts it (usually Home's) goes on meanwhile. ``None`` outside a server."""
    if not serving():
        return None
    thread = threading.Thread(
        target=warm_shared_work, args=(jobs.move_pool(),), name="shared-work-warm-up", daemon=True
    )
    thread.start()
    return thread
