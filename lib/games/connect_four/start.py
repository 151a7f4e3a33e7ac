"""Who wins Connect Four from the start, proved ahead by the compiled solver: proof, file, checks.

The empty board is too far from the end for a live solve, so
``scripts/prove_connect_four_start.py`` proves it ahead of time with
:func:`prove_first_move`, one first move at a time, and writes the verdicts to
``data/connect_four_start.json`` (:func:`start_bytes`). The page reads that file
(:func:`bundled_start_proof`) to answer "who wins from the start?".

A first move's proof is one or two null-window searches of the compiled solver from
the position after it, with a large table: "does Red win?" (Red's score at least 1),
and, when not, "does Red at least draw?" (at least 0). The columns e, f and g are the
mirror images of c, b and a, so the four columns a–d settle all seven.

The file also keeps **check lines**: from the position after each first move, moves
that keep its verdict (the winner plays a move the solver proves keeps the win, the
loser any move that does not lose at once; in a draw both sides keep the draw) down
to :data:`CHECK_DISCS` discs. Every position on such a line has the first move's
verdict, and the last one is near enough to the end for a test to solve it again.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from lib.errors import InputError
from lib.games.connect_four import (
    COLUMN_NAMES,
    ConnectFourState,
    format_move,
    state_from_moves,
)
from lib.games.connect_four import solver as solver

START_PATH = Path(__file__).resolve().parents[3] / "data" / "connect_four_start.json"
"""The bundled proof (see :func:`load_start_proof`)."""
FORMAT = "connect-four-start-proof/1"
OUTCOMES = {1: "win", 0: "draw", -1: "loss"}
"""Red's outcome after a first move, as the file writes it."""
MIRROR = {4: 2, 5: 1, 6: 0}
"""Columns e, f, g and the columns c, b, a whose mirror images they are."""
PROVED_COLUMNS = (0, 1, 2, 3)
CHECK_DISCS = 12
"""Discs of a check line's last position: within a second of the compiled solver."""
PROOF_TABLE_SIZE = 67_108_859
"""Slots of the table for a first move's proof: the largest prime under ``2**26``
(about 340 MB; a script's table, never the page's)."""


@dataclass(frozen=True)
class FirstMove:
    """The proved outcome for Red of one first move, and what the proof cost."""

    column: int
    outcome: int
    nodes: int
    seconds: float
    cpu_seconds: float


@dataclass(frozen=True)
class StartProof:
    """Every first move's proved outcome (``first_moves``: the columns a–d), the check
    lines (move strings, each with its first move's outcome) and how it was computed."""

    first_moves: dict[int, FirstMove]
    checks: tuple[tuple[str, int], ...]
    command: str
    table_size: int

    def outcome(self, column: int) -> int:
        """Red's outcome after opening in ``column`` (0–6): 1 win, 0 draw, -1 loss."""
        return self.first_moves[MIRROR.get(column, column)].outcome

    def winning_columns(self) -> list[int]:
        """The first moves that win for Red, left to right."""
        return [column for column in range(7) if self.outcome(column) == 1]

    def total_nodes(self) -> int:
        """Positions searched by the whole proof."""
        return sum(move.nodes for move in self.first_moves.values())

    def total_cpu_seconds(self) -> float:
        """CPU seconds of the whole proof."""
        return sum(move.cpu_seconds for move in self.first_moves.values())


def prove_first_move(
    column: int,
    table_size: int = PROOF_TABLE_SIZE,
    opening: str = "",
    on_progress: Callable[[str], None] | None = None,
) -> tuple[FirstMove, solver._Search]:
    """The proved outcome of playing ``column`` after ``opening`` (default: the empty board,
    Red's first move) for the side playing it, and the search (its table warm, for the
    check lines). Minutes compiled on one core for a first move; hours in pure Python."""
    before = state_from_moves(opening)
    position, mask, played = solver.bitboards(before)
    square = before.landing(column)
    search = solver._CompiledSearch(None, None, None, table_size)
    started, cpu_started = time.perf_counter(), time.process_time()
    outcome = 1
    if not search.achieves(position, mask, played, square, 1):
        if on_progress:
            on_progress(f"{format_move(column)}: no win ({search.nodes:,} nodes)")
        outcome = 0 if search.achieves(position, mask, played, square, 0) else -1
    proved = FirstMove(
        column,
        outcome,
        search.nodes,
        time.perf_counter() - started,
        time.process_time() - cpu_started,
    )
    return proved, search


def _keeps(search: solver._Search, state: ConnectFourState, column: int, target: int) -> bool:
    """True when the mover's ``column`` scores at least ``target`` (the solver proves it)."""
    position, mask, played = solver.bitboards(state)
    return search.achieves(position, mask, played, state.landing(column), target)


def _next_move(
    search: solver._Search, state: ConnectFourState, outcome: int, prover: bool, rng
) -> int | None:
    """The next move of a check line (None: none keeps the game going): the mover's
    ``outcome`` (1 win, 0 draw, -1 loss) is kept. A winner (or in a draw the ``prover``)
    takes the first move in the search's order that keeps it; in a draw the other side a
    random one that keeps it; a loser any move that does not lose at once."""
    candidates = solver.non_losing_columns(state) or state.legal_moves()
    candidates = [m for m in candidates if not state.play(m).is_terminal()]
    if outcome < 0:
        return candidates[int(rng.integers(len(candidates)))] if candidates else None
    if outcome > 0 or prover:
        order = solver.threat_order(state, candidates)
    else:
        order = [candidates[int(i)] for i in rng.permutation(len(candidates))]
    return next((m for m in order if _keeps(search, state, m, outcome)), None)


def check_line(
    search: solver._Search,
    moves: str,
    outcome: int,
    rng: np.random.Generator,
    discs: int = CHECK_DISCS,
) -> str:
    """``moves`` extended to ``discs`` discs by moves that keep ``outcome``, the proved
    outcome of the position after ``moves`` for the side that made its last move (see
    :func:`_next_move`; the losing side's moves are drawn from ``rng``).

    Raises InputError when no move keeps the game going (the line cannot be that long).
    """
    state = state_from_moves(moves)
    prover = 1 - state.to_move  # the side whose outcome it is
    while state.occupied().bit_count() < discs:
        mover = state.to_move
        move = _next_move(
            search, state, outcome if mover == prover else -outcome, mover == prover, rng
        )
        if move is None:
            raise InputError(f"The check line {moves} cannot reach {discs} discs unfinished.")
        moves += format_move(move)
        state = state.play(move)
    return moves


def start_bytes(proof: StartProof) -> bytes:
    """The file form of ``proof`` (JSON, keys sorted, one first move per entry)."""
    document = {
        "format": FORMAT,
        "command": proof.command,
        "table_size": proof.table_size,
        "first_moves": {
            format_move(move.column): {
                "red": OUTCOMES[move.outcome],
                "nodes": move.nodes,
                "seconds": round(move.seconds, 1),
                "cpu_seconds": round(move.cpu_seconds, 1),
            }
            for move in sorted(proof.first_moves.values(), key=lambda move: move.column)
        },
        "mirrors": {format_move(a): format_move(b) for a, b in MIRROR.items()},
        "checks": [{"moves": moves, "red": OUTCOMES[outcome]} for moves, outcome in proof.checks],
    }
    return (json.dumps(document, indent=1, sort_keys=True) + "\n").encode()


def _outcome(text: object, where: str) -> int:
    """The outcome written ``text`` (win, draw, loss), or InputError naming ``where``."""
    for value, name in OUTCOMES.items():
        if text == name:
            return value
    raise InputError(f"{where}: {text!r} is not an outcome (win, draw or loss).")


def _first_move(name: str, entry: object) -> FirstMove:
    """One first move's record, checked."""
    if name not in COLUMN_NAMES[:4] or not isinstance(entry, dict):
        raise InputError(f"first_moves: {name!r} is not one of the columns a-d with a record.")
    counts = [entry.get(field) for field in ("nodes", "seconds", "cpu_seconds")]
    if not all(isinstance(count, int | float) and count >= 0 for count in counts):
        raise InputError(f"first_moves.{name}: nodes, seconds and cpu_seconds must be numbers.")
    nodes, seconds, cpu = counts
    column = COLUMN_NAMES.index(name)
    return FirstMove(
        column,
        _outcome(entry.get("red"), f"first_moves.{name}"),
        int(nodes),
        float(seconds),
        float(cpu),
    )


def _check(index: int, entry: object, first_moves: dict[int, FirstMove]) -> tuple[str, int]:
    """One check line, checked: legal moves, :data:`CHECK_DISCS` of them, the game not over,
    the outcome of its first move."""
    where = f"checks[{index}]"
    if not isinstance(entry, dict) or not isinstance(entry.get("moves"), str):
        raise InputError(f"{where}: a check is a record with its moves.")
    moves, outcome = entry["moves"], _outcome(entry.get("red"), where)
    if len(moves) != CHECK_DISCS:
        raise InputError(f"{where}: {len(moves)} moves, expected {CHECK_DISCS}.")
    state = state_from_moves(moves)  # raises InputError naming a bad move
    if state.is_terminal():
        raise InputError(f"{where}: the game is over after {moves}.")
    column = COLUMN_NAMES.index(moves[0])
    if first_moves[MIRROR.get(column, column)].outcome != outcome:
        raise InputError(f"{where}: the outcome differs from its first move's.")
    return moves, outcome


def load_start_proof(path: str | Path | None = None) -> StartProof:
    """Read a proof written by ``scripts/prove_connect_four_start.py`` (default: the bundled one).

    Raises InputError naming the first thing wrong with the file.
    """
    file = Path(path or START_PATH)
    try:
        document = json.loads(file.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(f"{file.name} is not a Connect Four start proof: {error}.") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise InputError(f"{file.name} is not a Connect Four start proof ({FORMAT}).")
    entries = document.get("first_moves")
    if not isinstance(entries, dict) or sorted(entries) != list(COLUMN_NAMES[:4]):
        raise InputError("first_moves: expected one record for each of the columns a-d.")
    first_moves = {move.column: move for move in (_first_move(n, e) for n, e in entries.items())}
    checks = document.get("checks")
    if not isinstance(checks, list):
        raise InputError("checks: expected a list of check lines.")
    found = tuple(_check(index, entry, first_moves) for index, entry in enumerate(checks))
    table_size, command = document.get("table_size"), document.get("command")
    if not isinstance(table_size, int) or not isinstance(command, str):
        raise InputError("table_size must be a whole number and command a text.")
    return StartProof(first_moves, found, command, table_size)


@functools.cache
def bundled_start_proof() -> StartProof | None:
    """The bundled proof, read once per process (read-only); None without the file."""
    return load_start_proof(START_PATH) if START_PATH.exists() else None
