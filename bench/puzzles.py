"""Benchmark: AIMA's Figure 3.29 and Korf's 100 15-puzzle instances, reproduced and timed.

Sections::

    python -m bench.puzzles                  # everything
    python -m bench.puzzles table            # AIMA's table beside ours (goal: < 60 s, x2)
    python -m bench.puzzles korf             # the 100, IDA* + pattern database (5 CPU min)
    python -m bench.puzzles manhattan        # IDA* + Manhattan against Korf's node counts
    python -m bench.puzzles speed            # the compiled kernels against the readable code

``table``: 100 seeded 8-puzzle instances per even depth 2-24 whose optimal
length is exactly d, IDS to d = 12 and A* with h1 and h2, nodes generated
(AIMA's convention), each figure's ratio to the 3rd edition's, and the
wall and CPU time of the whole table (the distance table and compiled
code's first load timed apart). ``korf``: every instance solved by the
compiled IDA* with the 5-5-5 additive pattern database; each length checked
against the published optimum; CPU time in total (the database's build or
load apart). ``manhattan``: the compiled IDA* with Manhattan distance on the
instances Korf's IDA* solved with fewest nodes, our nodes generated against
his (ours differ in move order, so only the last iteration differs).
``--instances 1-20`` limits ``korf`` to a range (for a busy machine).
Run it under ``nice``.
"""

from __future__ import annotations

import os
import sys
import time

from bench.sections import run_sections
from lib.puzzles.aima import BOOK, BOOK_IDS_2ND_D12, aima_table, format_table
from lib.puzzles.board import apply_moves, goal_board
from lib.puzzles.fast import distance_table, fast_astar, fast_ida_star, fast_ids
from lib.puzzles.korf import korf_instances
from lib.puzzles.search import solve

RANGE = (1, 100)


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.1f} {five:.1f} {fifteen:.1f}"


def table() -> None:
    """AIMA's Figure 3.29: ours beside the book's, with the ratio range and timings."""
    started, cpu = time.perf_counter(), time.process_time()
    distance_table()
    fast_ids((1, 0, 2, 3, 4, 5, 6, 7, 8))
    fast_astar((1, 0, 2, 3, 4, 5, 6, 7, 8), "h1")
    warm = time.perf_counter() - started
    started, cpu = time.perf_counter(), time.process_time()
    rows = aima_table()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(format_table(rows))
    ratios = []
    for row in rows:
        book = BOOK[row.depth]
        for ours, theirs in ((row.ids, book[0]), (row.astar_h1, book[1]), (row.astar_h2, book[2])):
            if ours is not None and theirs:
                ratios.append((ours / theirs, row.depth))
    outside = [(round(r, 2), d) for r, d in ratios if not 0.5 <= r <= 2]
    print(f"ours / book: {min(r for r, _ in ratios):.2f} to {max(r for r, _ in ratios):.2f}")
    print(f"outside x2: {outside or 'none'}")
    ids12 = next((r.ids for r in rows if r.depth == 12), None)
    if ids12:
        print(
            f"IDS at d = 12: {ids12:,.0f}; 2nd edition {BOOK_IDS_2ND_D12:,} "
            f"(x{ids12 / BOOK_IDS_2ND_D12:.2f}); the 3rd edition's 3,644,035 does not fit its own "
            "b* = 2.78"
        )
    print(f"table: {wall:.1f} s wall, {cpu:.1f} s CPU (goal < 60 s); first load {warm:.1f} s")
    print(_load())


def korf() -> None:
    """Korf's 100 with the compiled IDA* and the pattern database: lengths checked, CPU timed."""
    from lib.puzzles.pdb import load_pdb

    started = time.perf_counter()
    load_pdb()
    fast_ida_star(korf_instances()[0].board, "pdb", cap=10)
    print(f"pattern database and compiled code ready in {time.perf_counter() - started:.1f} s")
    lo, hi = RANGE
    chosen = [i for i in korf_instances() if lo <= i.number <= hi]
    cpu0, wall0 = time.process_time(), time.perf_counter()
    nodes, wrong, worst = 0, [], (0.0, 0)
    for instance in chosen:
        t = time.process_time()
        run = fast_ida_star(instance.board, "pdb")
        spent = time.process_time() - t
        worst = max(worst, (spent, instance.number))
        nodes += run.generated
        moves = run.moves or ""
        if len(moves) != instance.length or apply_moves(instance.board, moves) != goal_board(4):
            wrong.append(instance.number)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    print(
        f"instances {lo}-{hi}: {len(chosen)} solved, {len(chosen) - len(wrong)} at exactly the "
        f"published length (wrong: {wrong or 'none'})"
    )
    print(
        f"CPU {cpu:.1f} s (goal <= 300 s for all 100), wall {wall:.1f} s; "
        f"{nodes:,} nodes generated ({nodes / len(chosen):,.0f} per instance, "
        f"{nodes / max(cpu, 1e-9) / 1e6:.1f} M/s); worst #{worst[1]} {worst[0]:.1f} s"
    )
    korf_nodes = sum(i.ida_nodes for i in chosen)
    print(f"Korf's IDA* + Manhattan on the same: {korf_nodes:,} nodes (x{korf_nodes / nodes:,.0f})")
    print(_load())


def manhattan() -> None:
    """IDA* with Manhattan distance against Korf's published nodes, on his easiest instances."""
    easy = sorted(korf_instances(), key=lambda i: i.ida_nodes)[:12]
    fast_ida_star(easy[0].board, "h2", cap=10)
    print(f"{'#':>3} {'length':>6} {'ours':>11} {'Korf 1985':>11} {'ratio':>6}")
    ratios = []
    for instance in sorted(easy, key=lambda i: i.number):
        run = fast_ida_star(instance.board, "h2")
        ratio = run.generated / instance.ida_nodes
        ratios.append(ratio)
        ok = "" if len(run.moves or "") == instance.length else "  WRONG LENGTH"
        print(
            f"{instance.number:>3} {len(run.moves or ''):>6} {run.generated:>11,} "
            f"{instance.ida_nodes:>11,} {ratio:>6.2f}{ok}"
        )
    print(f"ratio ours / Korf's: {min(ratios):.2f} to {max(ratios):.2f}")
    print(_load())


def speed() -> None:
    """The compiled IDA* and A* against the readable searches on the same 8-puzzle boards."""
    from lib.puzzles.fast import instances_at_depth

    boards = instances_at_depth(20, 10, seed=3)
    fast_ida_star(boards[0], "h2")  # the compiled code's first load, not timed
    fast_astar(boards[0], "h2")
    for name, slow_args, fast_run in (
        ("IDA* h2", ("idastar", "h2"), lambda b: fast_ida_star(b, "h2")),
        ("A* h2", ("astar", "h2"), lambda b: fast_astar(b, "h2")),
    ):
        t = time.process_time()
        slow = [solve(b, *slow_args) for b in boards]
        slow_cpu = time.process_time() - t
        t = time.process_time()
        quick = [fast_run(b) for b in boards]
        fast_cpu = time.process_time() - t
        same = all(s.generated == q.generated for s, q in zip(slow, quick, strict=True))
        print(
            f"{name}: readable {slow_cpu:.3f} s CPU, compiled {fast_cpu:.4f} s "
            f"(x{slow_cpu / max(fast_cpu, 1e-9):.0f}); same counts: {same}"
        )
    print(_load())


SECTIONS = {"table": table, "korf": korf, "manhattan": manhattan, "speed": speed}


def main(argv: list[str]) -> None:
    """Run the named sections (all by default); ``--instances A-B`` limits ``korf``."""
    global RANGE
    if "--instances" in argv:
        at = argv.index("--instances")
        lo, _, hi = argv[at + 1].partition("-")
        RANGE = (int(lo), int(hi or lo))
        del argv[at : at + 2]
    run_sections(SECTIONS, argv)


if __name__ == "__main__":
    main(sys.argv[1:])
