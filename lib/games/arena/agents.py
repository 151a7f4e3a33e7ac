"""Agent files in the Arena: a student's ``choose_move`` plays in its own process, on a clock.

An agent file is a Python file defining ``choose_move(state, seconds_left)``: ``state``
is the game's own state object (the contract of :mod:`lib.games.core`: ``legal_moves()``,
``play(move)``, ``to_move`` ...; ``lib.games.core.game_of(state)`` gives its game) and
``seconds_left`` the time left for this move; it returns one of ``state.legal_moves()``.
The player spec is ``agent:path=my_agent.py`` (``time=`` seconds per move, default
:data:`DEFAULT_SECONDS`); it is accepted only on a local install (see
:mod:`lib.games.search.players`).

Each agent plays each game in a process of its own: ``python -m lib.games.agent_runner``
started with :mod:`subprocess` (not :mod:`multiprocessing`, which refuses to start a
process from the shared job pool's daemonic workers, where the Arena page's studies
run), fed positions on its standard input and read on its standard output by a thread,
so the clock is a plain ``queue.get(timeout=...)`` that works on every platform. Its
replies are JSON, never unpickled. A crash (an exception, an import or syntax error,
``sys.exit`` or ``os._exit``), a move later than the clock plus :data:`GRACE_SECONDS`,
or an illegal move raises :class:`AgentFault`: the Arena scores that game as lost by
the agent, with the reason, and goes on with the next game. The process runs in a
session (process group) of its own under a memory cap (:data:`AGENT_MEMORY_MB`), and
the whole group is killed when its game ends, however it ends: nothing it started
outlives the game, and a signal it sends its group reaches no one else.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from lib.errors import InputError
from lib.games.agent_runner import move_json
from lib.games.core import GameSpec
from lib.games.search.players import AGENT_KIND, Decision, PlayerConfig, make_player

MAX_AGENT_BYTES = 100_000
"""Largest agent file accepted (a readable agent is a few kilobytes)."""

DEFAULT_SECONDS = 1.0
"""An agent's time per move without ``time=`` in its spec."""

GRACE_SECONDS = 0.3
"""Allowance beyond the clock for the position's trip through the pipe both ways."""

LOAD_SECONDS = 30.0
"""Longest an agent's process may take to start, import its game and run its file (Python
starting on a busy machine takes seconds; this is not part of any move's clock)."""

MAX_REPLY = 10_000
"""Longest reply line read from an agent's process."""

ROOT = Path(__file__).resolve().parents[3]
"""The repository root: on the agent process's ``PYTHONPATH`` so it imports the games."""


AGENT_MEMORY_MB = 1024
"""Address space an agent's process may use (``RLIMIT_AS``, in MB of 2**20 bytes). The
runner with NumPy, pandas and the lab's search imported reserves about 420 MB; beyond the
cap an allocation fails and the agent loses its game to "out of memory"."""

THREAD_VARIABLES = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMBA_NUM_THREADS",
)
"""Thread counts set to 1 in an agent's environment (unless set): each thread's stack and
buffers count against :data:`AGENT_MEMORY_MB`, and an agent plays on one core."""


def kill_group(process: subprocess.Popen) -> None:
    """Kill ``process`` and every process of its group (``SIGKILL``; nothing if none is left).

    ``process`` was started with ``start_new_session``, so its group is its own and has its
    id. Where there are no process groups (Windows), the process alone is killed.
    """
    if not hasattr(os, "killpg"):
        if process.poll() is None:
            process.kill()
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


class AgentFault(Exception):
    """An agent lost its game: ``reason`` says how (``"timeout: ..."``, ``"crash: ..."`` ...)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def agent_file(path: str) -> Path:
    """The agent file at ``path``, checked: it exists, ends in ``.py``, is small enough.

    Raises :class:`InputError` naming the path and what is wrong.
    """
    file = Path(path).expanduser()
    try:
        if not file.is_file():
            raise InputError(f"Agent file {path!r}: there is no such file.")
        size = file.stat().st_size
    except OSError as error:
        raise InputError(f"Agent file {path!r} cannot be read ({error.strerror}).") from None
    if file.suffix != ".py":
        raise InputError(f"Agent file {path!r}: expected a Python file ending in .py.")
    if size > MAX_AGENT_BYTES:
        raise InputError(
            f"Agent file {path!r}: {size:,} bytes; an agent file may have at most "
            f"{MAX_AGENT_BYTES:,}."
        )
    return file.resolve()


def arena_player(config: PlayerConfig, game: GameSpec) -> Any:
    """The player ``config`` describes: an :class:`AgentPlayer` for an agent file (its file
    checked), else :func:`~lib.games.search.players.make_player`'s."""
    if config.kind == AGENT_KIND:
        agent_file(str(config.path))
        return AgentPlayer(config, game.name)
    return make_player(config, game)


def agent_spec(path: str, seconds: float | None = None) -> str:
    """The player spec of the agent file at ``path`` (checked), ``seconds`` per move.

    Raises :class:`InputError` off a local install or for a file :func:`agent_file` refuses.
    """
    config = PlayerConfig(AGENT_KIND, path=path.strip(), time_limit=seconds)
    agent_file(str(config.path))
    return config.to_spec()


def refuse_remote_agents(executor: str, matches: Sequence[Any]) -> None:
    """Refuse agent files on a Dask cluster (``executor == "dask"``): an agent's file and
    process belong to this machine. ``matches`` are :class:`MatchConfig` objects."""
    agents = sorted({p for m in matches for p in m.players if is_agent(p)})
    if executor == "dask" and agents:
        raise InputError(
            "Agent files play on this machine only (in this process or a local process "
            f"pool), not on a Dask cluster: {', '.join(agents)}."
        )


def is_agent(spec: str) -> bool:
    """Whether player ``spec`` is an agent file (read without parsing: no local-mode check)."""
    return str(spec).strip().partition(":")[0].strip().lower() == AGENT_KIND


def _read_replies(stream: IO[bytes], replies: queue.Queue) -> None:
    """Put each line of ``stream`` on ``replies``, then None at its end (the process ended)."""
    for line in iter(lambda: stream.readline(MAX_REPLY), b""):
        replies.put(line)
    replies.put(None)


@dataclass(eq=False)
class AgentPlayer:
    """An agent file playing one game: its process starts at the first move.

    Call :meth:`close` when the game ends (the Arena does); a fault closes it too.
    """

    config: PlayerConfig
    game: str
    _process: subprocess.Popen | None = field(default=None, repr=False)
    _replies: queue.Queue = field(default_factory=queue.Queue, repr=False)

    @property
    def seconds(self) -> float:
        """The agent's time per move."""
        return self.config.time_limit or DEFAULT_SECONDS

    def choose(self, state: Any, rng: np.random.Generator) -> Decision:
        """The agent's move in ``state``; raises :class:`AgentFault` if it does not give one."""
        if self._process is None:
            self.start()
        frame = pickle.dumps((state, self.seconds, time.time()))
        self._send(len(frame).to_bytes(8, "big") + frame)
        reply = self._receive(self.seconds + GRACE_SECONDS, "crash")
        if reply is None:
            raise self._fault(f"timeout: no move within {self.seconds:g} s")
        legal = {json.dumps(move_json(move)): move for move in state.legal_moves()}
        chosen = json.dumps(reply.get("move"))
        if chosen not in legal:
            shown = chosen if len(chosen) <= 40 else chosen[:40] + "…"
            raise self._fault(f"illegal move: {shown} is not one of the {len(legal)} legal moves")
        return Decision(legal[chosen])

    def close(self) -> None:
        """Stop the agent's process and every process it started (nothing if it never started).

        The whole process group is killed first (a child the agent forked holds the reply
        pipe open: the reading thread would never see its end), then the process is reaped.
        """
        process, self._process = self._process, None
        if process is None:
            return
        kill_group(process)
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    @property
    def running(self) -> bool:
        """Whether the agent's process is running."""
        return self._process is not None and self._process.poll() is None

    def start(self) -> None:
        """Start the process and wait until it has loaded the file (:meth:`choose` starts it
        when it has not been started; loading is not on any move's clock)."""
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        for name in THREAD_VARIABLES:  # one thread each: less address space under the cap
            env.setdefault(name, "1")
        self._process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "lib.games.agent_runner",
                str(agent_file(str(self.config.path))),
                self.game,
                str(AGENT_MEMORY_MB),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            start_new_session=True,  # a group of its own, killed whole by close()
        )
        threading.Thread(
            target=_read_replies, args=(self._process.stdout, self._replies), daemon=True
        ).start()
        if self._receive(LOAD_SECONDS, "bad file") is None:
            raise self._fault(f"bad file: it took over {LOAD_SECONDS:g} s to load")

    def _send(self, data: bytes) -> None:
        """Write ``data`` to the agent's process (a fault if it has ended)."""
        try:
            self._process.stdin.write(data)
            self._process.stdin.flush()
        except OSError:
            raise self._fault(f"crash: its process ended (exit code {self._exit_code()})") from None

    def _receive(self, seconds: float, kind: str) -> dict | None:
        """The next reply within ``seconds`` (None if none came); a fault of ``kind`` for an
        error, an unreadable reply or the end of the process."""
        try:
            line = self._replies.get(timeout=seconds)
        except queue.Empty:
            return None
        if line is None:
            raise self._fault(f"{kind}: its process ended (exit code {self._exit_code()})")
        try:
            reply = json.loads(line)
        except ValueError:
            reply = None
        if not isinstance(reply, dict):
            raise self._fault(f"{kind}: an unreadable reply from its process")
        if "error" in reply:
            raise self._fault(f"{kind}: {str(reply['error'])[:500]}")
        return reply

    def _exit_code(self) -> int | None:
        """The process's exit code, once it has ended (waiting a moment for it)."""
        try:
            return self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return None

    def _fault(self, reason: str) -> AgentFault:
        """An :class:`AgentFault` for ``reason``, the process stopped."""
        self.close()
        return AgentFault(reason)
