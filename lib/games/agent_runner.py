"""The agent's own process: load a student's agent file and answer each position with a move.

Started by :mod:`lib.games.arena.agents` as ``python -m lib.games.agent_runner FILE GAME``
(here, beside the game contract, rather than in the Arena package, so that an agent's
process imports the contract and its game, not the Arena's pandas and SciPy).

The protocol, on this process's standard input and output:

* in: frames of an 8-byte big-endian length and a pickle of
  ``(state, seconds for this move, time.time() when sent)``, written by the Arena
  (the pickle is the Arena's own, never the agent's); a zero length ends the process;
* out: one JSON line per message: ``{"ready": true}`` once the file is loaded, then
  ``{"move": ...}`` per position (the move as JSON: a whole number or lists of them), or
  ``{"error": "..."}`` once, naming what went wrong (then the process ends).

The agent's own ``print`` goes to standard error, so it can never be read as a reply.
"""

from __future__ import annotations

import importlib.util
import json
import operator
import os
import pickle
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any, BinaryIO

MAX_MESSAGE = 500
"""Longest error text sent back (an agent's exception may carry megabytes)."""

MAX_MOVE_DEPTH = 4
"""Deepest nesting of lists a move may have (moves are numbers or tuples of them)."""


class AgentFileError(Exception):
    """The agent file is not usable (no ``choose_move``); the message says why."""


def move_json(move: Any, depth: int = 0) -> Any:
    """``move`` as JSON data (whole numbers and lists), the same for equal moves.

    A move is a whole number (NumPy's included) or a tuple / list of moves.
    Raises :class:`TypeError` naming the type of anything else (``True`` included).

    >>> move_json((9, 13)), move_json(4)
    ([9, 13], 4)
    """
    if isinstance(move, tuple | list) and depth < MAX_MOVE_DEPTH:
        return [move_json(part, depth + 1) for part in move]
    if not isinstance(move, bool):
        try:
            return operator.index(move)
        except TypeError:
            pass
    shown = repr(move) if len(repr(move)) <= 60 else repr(move)[:60] + "…"
    raise TypeError(f"choose_move returned {shown} ({type(move).__name__}), which is not a move")


def describe(error: BaseException, path: str, memory_mb: int | None = None) -> str:
    """What went wrong, in one line: the exception and the agent file's line it came from
    (``memory_mb``: the process's memory cap, named for a :class:`MemoryError`)."""
    if isinstance(error, AgentFileError):
        return _shorten(str(error))
    if isinstance(error, SystemExit):
        return _shorten(f"called sys.exit({error.code!r})")
    if isinstance(error, SyntaxError) and error.filename == path:
        return _shorten(f"SyntaxError at line {error.lineno}, column {error.offset}: {error.msg}")
    if isinstance(error, MemoryError):
        cap = f" (an agent may use {memory_mb:,} MB)" if memory_mb else ""
        text = f"out of memory{cap}: MemoryError"
    else:
        text = f"{type(error).__name__}: {error}"
    lines = [
        frame.lineno
        for frame in traceback.extract_tb(error.__traceback__)
        if frame.filename == path
    ]
    if lines:
        text += f" (line {lines[-1]})"
    return _shorten(text)


def _shorten(text: str) -> str:
    """``text`` cut to :data:`MAX_MESSAGE` characters (an agent's exception may be huge)."""
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def load_agent(path: str) -> Callable[[Any, float], Any]:
    """The ``choose_move`` of the agent file at ``path`` (running the file once)."""
    spec = importlib.util.spec_from_file_location("student_agent", path)
    if spec is None or spec.loader is None:
        raise AgentFileError(f"{path} cannot be loaded as a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules["student_agent"] = module  # so the agent's own dataclasses and pickles work
    spec.loader.exec_module(module)
    choose = getattr(module, "choose_move", None)
    if not callable(choose):
        raise AgentFileError("the file defines no function choose_move(state, seconds_left)")
    return choose


def read_frame(source: BinaryIO) -> Any:
    """The next ``(state, seconds, sent)`` from the Arena, or None when it says stop."""
    header = source.read(8)
    size = int.from_bytes(header, "big") if len(header) == 8 else 0
    return pickle.loads(source.read(size)) if size else None


def serve(
    path: str,
    game: str,
    source: BinaryIO,
    reply: Callable[[dict], None],
    memory_mb: int | None = None,
) -> None:
    """Load the agent, then answer positions from ``source`` until told to stop (``memory_mb``:
    the process's memory cap, named when the agent runs out of memory)."""
    try:
        from lib.games.core import get_game

        get_game(game)  # the game's module, so that its states unpickle
        choose = load_agent(path)
    except BaseException as error:  # the agent's file may raise anything, sys.exit included
        reply({"error": f"could not load the file: {describe(error, path, memory_mb)}"})
        return
    reply({"ready": True})
    while (message := read_frame(source)) is not None:
        state, seconds, sent = message
        try:
            move = move_json(choose(state, max(0.0, seconds - (time.time() - sent))))
        except BaseException as error:
            reply({"error": describe(error, path, memory_mb)})
            return
        reply({"move": move})


def cap_memory(megabytes: int) -> bool:
    """Cap this process's address space at ``megabytes`` (2**20 bytes), the hard limit too,
    so the agent cannot raise it: True if set (not where ``resource`` is missing)."""
    try:
        import resource
    except ImportError:  # Windows
        return False
    limit = megabytes * 2**20
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return True


def main(argv: list[str]) -> int:
    """Serve the agent file ``argv[0]`` for the game ``argv[1]`` on stdin and stdout, under a
    memory cap of ``argv[2]`` MB if given."""
    memory_mb = int(argv[2]) if len(argv) > 2 else None
    if memory_mb is not None:
        cap_memory(memory_mb)
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # the agent's prints, C code's too

    def reply(message: dict) -> None:
        replies.write(json.dumps(message) + "\n")
        replies.flush()

    serve(argv[0], argv[1], sys.stdin.buffer, reply, memory_mb)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
