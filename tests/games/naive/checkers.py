"""A deliberately naive checkers: a dict board of ``(row, col) -> (player, king)``, copied per move.

Written straight from the rules with coordinates, one loop per piece and
direction and a copy of the board per move. It is **not** used by the app: it
is the independent oracle the tests compare the bitboard engine
(:mod:`lib.games.checkers`) with, and the baseline the benchmark
(``bench/games.py``) measures perft speed against.

Rows run 0–7 from Black's side; dark squares are those with ``row + col`` odd;
square numbers follow the standard 1–32 numbering (four per row). Black
(player 0) moves towards row 7, White (player 1) towards row 0. A move is the
tuple of square numbers visited, as in the bitboard engine.
"""

from __future__ import annotations

from tests.games.naive import perft_positions

Board = dict[tuple[int, int], tuple[int, bool]]


def square_number(row: int, col: int) -> int:
    """Standard square number 1–32 of the dark square at ``(row, col)``."""
    return row * 4 + col // 2 + 1


def coordinates(square: int) -> tuple[int, int]:
    """``(row, col)`` of square 1–32."""
    row = (square - 1) // 4
    col = 2 * ((square - 1) % 4) + (1 if row % 2 == 0 else 0)
    return row, col


def initial_board() -> Board:
    """Black men on rows 0–2, White men on rows 5–7 (dark squares)."""
    board: Board = {}
    for row in range(8):
        for col in range(8):
            if (row + col) % 2 == 1 and row != 3 and row != 4:
                board[(row, col)] = (0 if row < 3 else 1, False)
    return board


def _directions(player: int, king: bool) -> list[tuple[int, int]]:
    forward = 1 if player == 0 else -1
    return [(dr, dc) for dr in (1, -1) for dc in (1, -1) if king or dr == forward]


def _on_board(row: int, col: int) -> bool:
    return 0 <= row < 8 and 0 <= col < 8


def _jumps(
    board: Board,
    player: int,
    king: bool,
    start: tuple[int, int],
    here: tuple[int, int],
    captured: frozenset[tuple[int, int]],
    path: tuple[int, ...],
) -> list[tuple[int, ...]]:
    found: list[tuple[int, ...]] = []
    far_row = 7 if player == 0 else 0
    for dr, dc in _directions(player, king):
        over = (here[0] + dr, here[1] + dc)
        land = (here[0] + 2 * dr, here[1] + 2 * dc)
        if not _on_board(*land) or over in captured:
            continue
        if over not in board or board[over][0] == player:
            continue
        if land in board and land != start:
            continue
        new_path = (*path, square_number(*land))
        if not king and land[0] == far_row:
            found.append(new_path)  # crowned: the move ends
            continue
        longer = _jumps(board, player, king, start, land, captured | {over}, new_path)
        found.extend(longer or [new_path])
    return found


def legal_moves(board: Board, player: int) -> list[tuple[int, ...]]:
    """All legal moves of ``player``: the capture sequences if any, else the simple moves."""
    captures: list[tuple[int, ...]] = []
    simple: list[tuple[int, ...]] = []
    for (row, col), (owner, king) in sorted(board.items()):
        if owner != player:
            continue
        start = square_number(row, col)
        captures.extend(_jumps(board, player, king, (row, col), (row, col), frozenset(), (start,)))
        for dr, dc in _directions(player, king):
            to = (row + dr, col + dc)
            if _on_board(*to) and to not in board:
                simple.append((start, square_number(*to)))
    return captures or simple


def play(board: Board, player: int, move: tuple[int, ...]) -> Board:
    """A new board after ``player`` plays ``move`` (assumed legal)."""
    new = dict(board)
    start = coordinates(move[0])
    owner, king = new.pop(start)
    here = start
    for square in move[1:]:
        there = coordinates(square)
        if abs(there[0] - here[0]) == 2:
            del new[((here[0] + there[0]) // 2, (here[1] + there[1]) // 2)]
        here = there
    far_row = 7 if player == 0 else 0
    new[here] = (owner, king or here[0] == far_row)
    return new


def perft(board: Board, player: int, depth: int) -> int:
    """Leaves of the game tree cut at ``depth`` (a finished game counts as one leaf)."""
    return perft_positions(legal_moves, play, board, player, depth)
