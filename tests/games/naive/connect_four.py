"""A deliberately naive Connect Four: a list-of-lists grid, copied per move.

Written straight from the rules, one loop per square and direction. It is
**not** used by the app: it is the independent oracle the tests compare the
bitboard engine (:mod:`lib.games.connect_four`) with, and the reference the
benchmark (``bench/connect_four.py``) measures search speed against.

``grid[row][col]`` holds ``0`` (Red), ``1`` (Yellow) or ``None``; row 0 is the
bottom row. A move is the column index 0–6, as in the bitboard engine.
"""

from __future__ import annotations

from tests.games.naive import perft_positions

ROWS, COLUMNS = 6, 7
Grid = list[list[int | None]]
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # (row step, column step)


def initial_grid() -> Grid:
    """The empty board."""
    return [[None] * COLUMNS for _ in range(ROWS)]


def has_four(grid: Grid, player: int) -> bool:
    """True when ``player`` has four discs in a line somewhere on ``grid``."""
    for row in range(ROWS):
        for col in range(COLUMNS):
            for dr, dc in DIRECTIONS:
                run = 0
                r, c = row, col
                while 0 <= r < ROWS and 0 <= c < COLUMNS and grid[r][c] == player and run < 4:
                    run += 1
                    r, c = r + dr, c + dc
                if run == 4:
                    return True
    return False


def is_full(grid: Grid) -> bool:
    """True when every square holds a disc."""
    return all(cell is not None for row in grid for cell in row)


def winner(grid: Grid) -> int | None:
    """The player with four in a line, or None."""
    for player in (0, 1):
        if has_four(grid, player):
            return player
    return None


def legal_moves(grid: Grid, player: int) -> list[int]:
    """Columns whose top square is empty, unless the game is over (a four or a full board)."""
    if winner(grid) is not None or is_full(grid):
        return []
    return [col for col in range(COLUMNS) if grid[ROWS - 1][col] is None]


def play(grid: Grid, player: int, col: int) -> Grid:
    """A new grid with ``player``'s disc dropped into ``col`` (assumed not full)."""
    new = [list(row) for row in grid]
    for row in range(ROWS):
        if new[row][col] is None:
            new[row][col] = player
            return new
    raise ValueError(f"column {col} is full")


def perft(grid: Grid, player: int, depth: int) -> int:
    """Leaves of the game tree cut at ``depth`` (a finished game counts as one leaf)."""
    return perft_positions(legal_moves, play, grid, player, depth)
