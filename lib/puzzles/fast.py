"""The fast paths: IDS, IDA* and the 8-puzzle's A* compiled by numba, counting as the textbook does.

Each kernel is the readable search of :mod:`lib.puzzles.search` (or, for A*,
the route lab's :func:`~lib.routes.best_first.best_first_search`) written for
numba: the same order of moves (U, D, L, R), the same pruning and tie-breaking,
so it finds a solution of the same length with the same counts of nodes
generated and expanded and the same peak frontier (tests check this with
hypothesis). They run tens to hundreds of times faster: what the AIMA table
(1,200 searches), the Korf benchmark and the page's 15-puzzle solver need.

A board goes in as a NumPy ``int8`` array; a heuristic is named by its key
(``"zero"``, ``"h1"``, ``"h2"``, ``"lc"``, ``"pdb"``). Each kernel stops
after ``cap`` nodes generated and reports it (``length = -1``).
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass
from functools import cache

import numpy as np

from lib.errors import InputError
from lib.games.jit import njit
from lib.puzzles.board import MOVES, Board, solvability
from lib.puzzles.tables import manhattan_array, neighbour_array

#: Heuristic codes inside the kernels.
CODES = {"zero": 0, "h1": 1, "h2": 2, "lc": 3, "pdb": 4}
#: A run stops after this many nodes generated unless told otherwise.
FAST_CAP = 2_000_000_000


@dataclass(frozen=True)
class FastResult:
    """A fast run's answer: moves and counts (``moves`` is ``None`` when it hit its cap)."""

    moves: str | None
    generated: int
    expanded: int
    max_frontier: int
    seconds: float
    next_bound: int | None = None  # IDA* stopped after its iterations: the bound to go on with


# ----------------------------------------------------------------------- heuristics in the kernels


@njit()
def _lis(values: np.ndarray, count: int) -> int:  # pragma: no cover - compiled
    """Longest strictly increasing subsequence of ``values[:count]`` (count <= 4)."""
    best = 0
    length = np.zeros(4, dtype=np.int64)
    for i in range(count):
        length[i] = 1
        for j in range(i):
            if values[j] < values[i] and length[j] + 1 > length[i]:
                length[i] = length[j] + 1
        best = max(best, length[i])
    return best


@njit()
def _conflicts(tiles: np.ndarray, width: int) -> int:  # pragma: no cover - compiled
    """Linear conflict's extra moves (see :func:`lib.puzzles.heuristics.line_conflicts`)."""
    extra = 0
    goals = np.zeros(4, dtype=np.int64)
    for line in range(width):
        count = 0
        for c in range(width):
            t = tiles[line * width + c]
            if t != 0 and t // width == line:
                goals[count] = t % width
                count += 1
        extra += count - _lis(goals, count)
        count = 0
        for r in range(width):
            t = tiles[r * width + line]
            if t != 0 and t % width == line:
                goals[count] = t // width
                count += 1
        extra += count - _lis(goals, count)
    return 2 * extra


@njit()
def _pdb_value(
    pos: np.ndarray, patterns: np.ndarray, tables: np.ndarray
) -> int:  # pragma: no cover
    """The additive pattern database estimate: the sum over patterns of each table's entry."""
    total = 0
    for p in range(patterns.shape[0]):
        index = 0
        for k in range(patterns.shape[1]):
            index = index * 16 + pos[patterns[p, k]]
        total += tables[p, index]
    return total


@njit()
def _estimate(
    tiles: np.ndarray, pos: np.ndarray, width: int, code: int, md: np.ndarray,
    patterns: np.ndarray, tables: np.ndarray,
) -> int:  # pragma: no cover - compiled  # fmt: skip
    """The heuristic ``code`` of the board ``tiles`` (``pos[tile]``: where each tile is)."""
    if code == 0:
        return 0
    if code == 4:
        return _pdb_value(pos, patterns, tables)
    total = 0
    n = tiles.shape[0]
    for p in range(n):
        t = tiles[p]
        if t != 0:
            if code == 1:
                total += 1 if t != p else 0
            else:
                total += md[t, p]
    if code == 3:
        total += _conflicts(tiles, width)
    return total


@njit()
def _is_goal(tiles: np.ndarray) -> bool:  # pragma: no cover - compiled
    for p in range(tiles.shape[0]):  # noqa: SIM110 (numba compiles no generator in all())
        if tiles[p] != p:
            return False
    return True


# --------------------------------------------------------------------------- IDS


@njit()
def _ids_kernel(start: np.ndarray, nb: np.ndarray, cap: int):  # pragma: no cover - compiled
    """IDS as :func:`lib.puzzles.search.iterative_deepening`: (length, gen, exp, peak, moves)."""
    tiles = start.copy()
    blank = 0
    for p in range(tiles.shape[0]):
        if tiles[p] == 0:
            blank = p
    path = np.zeros(256, dtype=np.int64)
    nxt = np.zeros(256, dtype=np.int64)
    gen, exp, peak, limit = 0, 0, 0, 0
    while limit < 250:
        gen += 1
        peak = max(peak, 1)
        if _is_goal(tiles):
            return 0, gen, exp, peak, path[:0]
        if limit == 0:
            limit += 1
            continue
        exp += 1
        depth = 0
        nxt[0] = 0
        while depth >= 0:
            if nxt[depth] == 4:
                depth -= 1
                if depth >= 0:  # undo the move into this node
                    back = nb[blank, path[depth] ^ 1]
                    tiles[blank] = tiles[back]
                    tiles[back] = 0
                    blank = back
                continue
            m = nxt[depth]
            nxt[depth] += 1
            to = nb[blank, m]
            if to < 0:
                continue
            gen += 1
            if gen > cap:
                return -1, gen, exp, peak, path[:0]
            tiles[blank] = tiles[to]
            tiles[to] = 0
            blank = to
            path[depth] = m
            depth += 1
            peak = max(peak, depth + 1)
            if _is_goal(tiles):
                return depth, gen, exp, peak, path[:depth].copy()
            if depth == limit:
                depth -= 1
                back = nb[blank, m ^ 1]
                tiles[blank] = tiles[back]
                tiles[back] = 0
                blank = back
                continue
            exp += 1
            nxt[depth] = 0
        limit += 1
    return -1, gen, exp, peak, path[:0]


# --------------------------------------------------------------------------- IDA*


@njit()
def _slide(
    tiles: np.ndarray, pos: np.ndarray, blank: int, square: int
) -> int:  # pragma: no cover - compiled
    """Slide the tile on ``square`` into the blank on ``blank``; the blank's new square."""
    tile = tiles[square]
    tiles[blank] = tile
    pos[tile] = blank
    tiles[square] = 0
    pos[0] = square
    return square


@njit()
def _ida_kernel(
    start: np.ndarray, nb: np.ndarray, width: int, code: int, md: np.ndarray,
    patterns: np.ndarray, tables: np.ndarray, cap: int, first_bound: int, iterations: int,
):  # pragma: no cover - compiled  # fmt: skip
    """IDA* as :func:`lib.puzzles.search.ida_star`: (length, gen, exp, peak, moves, next bound).

    Starts at ``first_bound`` (``h(start)`` when negative) and stops after
    ``iterations`` iterations (0: no limit) with length -1 and the next bound.
    """
    tiles = start.copy()
    n = tiles.shape[0]
    pos = np.zeros(n, dtype=np.int64)
    for p in range(n):
        pos[tiles[p]] = p
    blank = pos[0]
    path = np.zeros(256, dtype=np.int64)
    nxt = np.zeros(256, dtype=np.int64)
    hs = np.zeros(256, dtype=np.int64)
    gen, exp, peak = 0, 0, 0
    h0 = _estimate(tiles, pos, width, code, md, patterns, tables)
    bound = h0 if first_bound < 0 else first_bound
    done = 0
    while bound < 250:
        if iterations > 0 and done == iterations:
            return -1, gen, exp, peak, path[:0], bound
        done += 1
        gen += 1
        if _is_goal(tiles):
            return 0, gen, exp, peak, path[:0], -1
        exp += 1
        peak = max(peak, 1)
        over = 1 << 30
        depth = 0
        nxt[0] = 0
        hs[0] = h0
        while depth >= 0:
            if nxt[depth] == 4:
                depth -= 1
                if depth >= 0:  # take back the move that led here
                    blank = _slide(tiles, pos, blank, nb[blank, path[depth] ^ 1])
                continue
            m = nxt[depth]
            nxt[depth] += 1
            if depth > 0 and m == (path[depth - 1] ^ 1):
                continue
            to = nb[blank, m]
            if to < 0:
                continue
            gen += 1
            if gen > cap:
                return -1, gen, exp, peak, path[:0], -1
            t = tiles[to]
            old = blank
            blank = _slide(tiles, pos, blank, to)
            if code == 2:
                h = hs[depth] + md[t, old] - md[t, to]
            else:
                h = _estimate(tiles, pos, width, code, md, patterns, tables)
            f = depth + 1 + h
            if f > bound or (h == 0 and _is_goal(tiles)):
                if f <= bound:  # the goal
                    path[depth] = m
                    return depth + 1, gen, exp, peak, path[: depth + 1].copy(), -1
                over = min(over, f)
                blank = _slide(tiles, pos, blank, old)  # and back
                continue
            path[depth] = m
            depth += 1
            hs[depth] = h
            exp += 1
            peak = max(peak, depth + 1)
            nxt[depth] = 0
        if over == 1 << 30:
            return -1, gen, exp, peak, path[:0], -1
        bound = over
    return -1, gen, exp, peak, path[:0], -1


# --------------------------------------------------------------------------- A* on the 8-puzzle


@njit()
def _rank(tiles: np.ndarray) -> int:  # pragma: no cover - compiled
    """The board's index among the 9! permutations (its Lehmer code)."""
    n = tiles.shape[0]
    r = 0
    for i in range(n):
        c = 0
        for j in range(i + 1, n):
            if tiles[j] < tiles[i]:
                c += 1
        r = r * (n - i) + c
    return r


@njit()
def _astar_kernel(
    start: np.ndarray, nb: np.ndarray, code: int, md: np.ndarray, cap: int
):  # pragma: no cover - compiled
    """A* on the 8-puzzle as the route lab's best-first search: (length, gen, exp, peak)."""
    size = 362880
    g = np.zeros(size, dtype=np.int8)  # 1 + the cheapest cost found; 0: not reached (calloc: cheap)
    boards = np.empty((size, 9), dtype=np.int8)
    dummy_pos = np.zeros(9, dtype=np.int64)
    empty_patterns = np.zeros((0, 0), dtype=np.int64)
    empty_tables = np.zeros((0, 0), dtype=np.int8)
    r0 = _rank(start)
    g[r0] = 1
    boards[r0] = start
    h0 = _estimate(start, dummy_pos, 3, code, md, empty_patterns, empty_tables)
    heap = [(h0, 0, 0, r0)]
    newest = 0
    gen, exp, peak = 1, 0, 1
    child = np.zeros(9, dtype=np.int8)
    while len(heap) > 0:
        _, _, cost, r = heapq.heappop(heap)
        if cost + 1 > g[r]:
            continue
        exp += 1
        node = boards[r]
        if _is_goal(node):
            return cost, gen, exp, peak
        blank = 0
        for p in range(9):
            if node[p] == 0:
                blank = p
        for m in range(4):
            to = nb[blank, m]
            if to < 0:
                continue
            child[:] = node
            child[blank] = node[to]
            child[to] = 0
            rc = _rank(child)
            new_cost = cost + 1
            if g[rc] > 0 and new_cost + 1 >= g[rc]:
                continue
            g[rc] = new_cost + 1
            boards[rc] = child
            newest -= 1
            f = new_cost + _estimate(child, dummy_pos, 3, code, md, empty_patterns, empty_tables)
            heapq.heappush(heap, (f, newest, new_cost, rc))
            gen += 1
            peak = max(peak, len(heap))
            if gen > cap:
                return -1, gen, exp, peak
    return -1, gen, exp, peak


# ----------------------------------------------------------------------- the 8-puzzle's distances


@njit()
def _distance_kernel(goal: np.ndarray, nb: np.ndarray):  # pragma: no cover - compiled
    """Breadth-first from the goal over all 181,440 boards: (boards in BFS order, their depths)."""
    count = 181440
    boards = np.zeros((count, 9), dtype=np.int8)
    depth = np.zeros(count, dtype=np.int8)
    seen = np.zeros(362880, dtype=np.bool_)
    boards[0] = goal
    seen[_rank(goal)] = True
    head, tail = 0, 1
    child = np.zeros(9, dtype=np.int8)
    while head < tail:
        node = boards[head]
        blank = 0
        for p in range(9):
            if node[p] == 0:
                blank = p
        for m in range(4):
            to = nb[blank, m]
            if to < 0:
                continue
            child[:] = node
            child[blank] = node[to]
            child[to] = 0
            rc = _rank(child)
            if not seen[rc]:
                seen[rc] = True
                boards[tail] = child
                depth[tail] = depth[head] + 1
                tail += 1
        head += 1
    return boards, depth


@cache
def distance_table() -> tuple[np.ndarray, np.ndarray]:
    """Every solvable 8-puzzle board (rows, in breadth-first order) and its optimal length."""
    boards, depth = _distance_kernel(np.arange(9, dtype=np.int8), neighbour_array(3))
    boards.setflags(write=False)
    depth.setflags(write=False)
    return boards, depth


def instances_at_depth(depth: int, count: int, seed: int) -> list[Board]:
    """``count`` 8-puzzle boards whose optimal solution is ``depth`` moves: uniform, seeded."""
    boards, depths = distance_table()
    rows = np.flatnonzero(depths == depth)
    if len(rows) == 0:
        raise InputError(f"No 8-puzzle board needs exactly {depth} moves (0 to 31 do).")
    picks = np.random.default_rng(seed).choice(rows, size=count, replace=True)
    return [tuple(int(t) for t in boards[i]) for i in picks]


def optimal_length(board: Board) -> int:
    """The optimal solution length of an 8-puzzle board (from :func:`distance_table`)."""
    _, depths = distance_table()
    index = _index_of_boards()
    return int(depths[index[tuple(board)]])


@cache
def _index_of_boards() -> dict[Board, int]:
    boards, _ = distance_table()
    return {tuple(int(t) for t in row): i for i, row in enumerate(boards)}


# --------------------------------------------------------------------------- entry points


def _prepare(board: Board) -> np.ndarray:
    if not solvability(board).solvable:
        raise InputError(f"This board cannot be solved: {solvability(board).reason}")
    return np.array(board, dtype=np.int8)


def _moves(path: np.ndarray) -> str:
    return "".join(MOVES[int(m)] for m in path)


def fast_ids(board: Board, cap: int = FAST_CAP) -> FastResult:
    """IDS, compiled (as :func:`lib.puzzles.search.iterative_deepening`)."""
    started = time.perf_counter()
    width = 3 if len(board) == 9 else 4
    length, gen, exp, peak, path = _ids_kernel(_prepare(board), neighbour_array(width), cap)
    moves = None if length < 0 else _moves(path)
    return FastResult(moves, int(gen), int(exp), int(peak), time.perf_counter() - started)


def fast_ida_star(
    board: Board,
    heuristic: str = "h2",
    cap: int = FAST_CAP,
    *,
    bound: int | None = None,
    iterations: int = 0,
) -> FastResult:
    """IDA*, compiled (as :func:`lib.puzzles.search.ida_star`), with any heuristic key.

    ``bound`` starts at that f bound instead of h(start); ``iterations`` stops
    after that many iterations (0: none) with ``next_bound`` set, so a caller can
    report progress between iterations and go on from there.
    """
    started = time.perf_counter()
    width = 3 if len(board) == 9 else 4
    if heuristic not in CODES:
        raise InputError(f"Unknown heuristic {heuristic!r}; choose one of {', '.join(CODES)}.")
    if heuristic == "pdb":
        if width != 4:
            raise InputError("The pattern database is for the 15-puzzle only.")
        from lib.puzzles.pdb import load_pdb

        patterns, tables = load_pdb()
        started = time.perf_counter()  # the search's time, not the database's one-off build
    else:
        patterns, tables = np.zeros((0, 0), dtype=np.int64), np.zeros((0, 0), dtype=np.int8)
    length, gen, exp, peak, path, next_bound = _ida_kernel(
        _prepare(board), neighbour_array(width), width, CODES[heuristic], manhattan_array(width),
        patterns, tables, cap, -1 if bound is None else bound, iterations,
    )  # fmt: skip
    moves = None if length < 0 else _moves(path)
    return FastResult(
        moves, int(gen), int(exp), int(peak), time.perf_counter() - started,
        None if next_bound < 0 else int(next_bound),
    )  # fmt: skip


def fast_astar(board: Board, heuristic: str = "h2", cap: int = FAST_CAP) -> FastResult:
    """A* on the 8-puzzle, compiled; the same counts as the route lab's best-first search.

    Returns no moves (the table needs only the length): ``moves`` is a string of
    ``length`` dots.
    """
    started = time.perf_counter()
    if len(board) != 9:
        raise InputError("The compiled A* is for the 8-puzzle only.")
    if heuristic not in ("zero", "h1", "h2", "lc"):
        raise InputError(f"The compiled A* takes zero, h1, h2 or lc, not {heuristic!r}.")
    length, gen, exp, peak = _astar_kernel(
        _prepare(board), neighbour_array(3), CODES[heuristic], manhattan_array(3), cap
    )
    moves = None if length < 0 else "." * int(length)
    return FastResult(moves, int(gen), int(exp), int(peak), time.perf_counter() - started)


def warm_compiled(*, with_pdb: bool = True) -> None:
    """Compile (or load from numba's disk cache) every kernel, and load the pattern database.

    A job pool worker caps its address space below what numba's compiler needs,
    so the server readies the code once in its own process (the workers then
    load it from the cache); the Docker image does it at build time
    (``python -m lib.puzzles prepare``).
    """
    eight = (1, 0, 2, 3, 4, 5, 6, 7, 8)
    fifteen = (1, 0, *range(2, 16))
    fast_ids(eight)
    fast_astar(eight, "h2")
    distance_table()
    for h in ("zero", "h1", "h2", "lc"):
        fast_ida_star(eight, h)
        fast_ida_star(fifteen, h)
    if with_pdb:
        fast_ida_star(fifteen, "pdb")
