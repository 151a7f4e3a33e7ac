"""A deliberately naive Othello: a list-of-lists board copied with ``deepcopy``.

This is the style of the course code (one Python loop per square and
direction, a deep copy per move). It is **not** used by the app: it is the
independent oracle the tests compare the bitboard engine with, and the
baseline the benchmark (``bench/games.py``) measures perft speed against.

Cells hold ``0`` (Black), ``1`` (White) or ``None``; a move is ``(row, col)``
or ``None`` for a pass.
"""

from __future__ import annotations

import copy

from tests.games.naive import perft_positions

Board = list[list[int | None]]
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def initial_board(size: int = 8) -> Board:
    """The standard start position on a ``size`` x ``size`` board."""
    board: Board = [[None] * size for _ in range(size)]
    half = size // 2
    board[half - 1][half - 1] = board[half][half] = 1
    board[half - 1][half] = board[half][half - 1] = 0
    return board


def flips(board: Board, player: int, row: int, col: int) -> list[tuple[int, int]]:
    """The discs flipped by ``player`` playing at ``row``, ``col`` (empty if illegal)."""
    size = len(board)
    if board[row][col] is not None:
        return []
    flipped: list[tuple[int, int]] = []
    for dr, dc in DIRECTIONS:
        run = []
        r, c = row + dr, col + dc
        while 0 <= r < size and 0 <= c < size and board[r][c] == 1 - player:
            run.append((r, c))
            r, c = r + dr, c + dc
        if run and 0 <= r < size and 0 <= c < size and board[r][c] == player:
            flipped.extend(run)
    return flipped


def placing_moves(board: Board, player: int) -> list[tuple[int, int]]:
    """Squares where ``player`` may place a disc, row by row."""
    size = len(board)
    return [(r, c) for r in range(size) for c in range(size) if flips(board, player, r, c)]


def legal_moves(board: Board, player: int) -> list[tuple[int, int] | None]:
    """Placing moves, or ``[None]`` (pass) if only the opponent can move, or ``[]`` at the end."""
    moves = placing_moves(board, player)
    if moves:
        return list(moves)
    return [None] if placing_moves(board, 1 - player) else []


def play(board: Board, player: int, move: tuple[int, int] | None) -> Board:
    """A deep copy of ``board`` after ``player`` plays ``move``."""
    new = copy.deepcopy(board)
    if move is None:
        return new
    row, col = move
    for r, c in flips(board, player, row, col):
        new[r][c] = player
    new[row][col] = player
    return new


def perft(board: Board, player: int, depth: int) -> int:
    """Leaves of the game tree cut at ``depth`` (a pass is a move; an ended game is a leaf)."""
    return perft_positions(legal_moves, play, board, player, depth)
