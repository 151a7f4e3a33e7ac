"""Deliberately naive game engines: independent oracles for the bitboard rules.

Each engine is plain functions of ``(position, player)`` with its own
``next_player``: who moves after a move is the engine's rule, never assumed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lib.games.core import Move


def alternate(position: Any, player: int, move: Move) -> int:
    """The other player moves next (every naive engine here: a pass is a move)."""
    return 1 - player


def perft_positions(
    legal_moves: Callable[[Any, int], list[Move]],
    play: Callable[[Any, int, Move], Any],
    position: Any,
    player: int,
    depth: int,
    next_player: Callable[[Any, int, Move], int] = alternate,
) -> int:
    """:func:`lib.games.core.perft` for engines written as functions of ``(position, player)``.

    Leaves are counted with the convention of :func:`~lib.games.core.perft` (a
    finished game before ``depth`` is one leaf); ``next_player(position, player,
    move)`` says who moves after ``move``.
    """
    if depth == 0:
        return 1
    moves = legal_moves(position, player)
    if not moves:
        return 1
    if depth == 1:
        return len(moves)
    return sum(
        perft_positions(
            legal_moves,
            play,
            play(position, player, move),
            next_player(position, player, move),
            depth - 1,
            next_player,
        )
        for move in moves
    )
