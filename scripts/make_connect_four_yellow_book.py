"""Build data/connect_four_yellow_book.bin: Yellow's opening book, each move labelled by a proof.

Run from the repository root, on one core, at low priority::

    nice -n 19 python -m scripts.make_connect_four_yellow_book               # the bundled file
    nice -n 19 python -m scripts.make_connect_four_yellow_book --plies 5 --out /tmp/y.bin

The walk (:mod:`lib.games.connect_four.opening_book`) goes from the empty board through
every Red move and the book's own Yellow move, Yellow turn by Yellow turn. At each Yellow
position it asks the solver, move by move in the search's order (most new threats first):
does it win? If none, does it draw? If none, every move loses, and the book keeps the
move of the default heuristic's alpha-beta at ``--loss-depth`` plies. A won position's
subtree is walked on to ``--win-plies`` discs, the others to ``--plies``. One compiled
search with a very large
table (:data:`make_connect_four_strategy.TABLE`, 2.7 GB) serves the whole walk, after
proving that Red's d wins (its bounds answer the positions after d at once). A position
whose questions are not all settled within ``--cap`` seconds is left out of the book,
with its subtree (printed; the live AI plays there). The file is written after each ply, and a
run goes on from the file it finds (``--restart`` to start again).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from lib.games.connect_four import ConnectFourState, initial_state
from lib.games.connect_four import opening_book as opening_book
from lib.games.connect_four import solver as solver
from lib.games.search.fast import choose_move
from scripts.make_connect_four_strategy import TABLE, WIN, children

DRAW = 0
PROGRESS_EVERY = 200


def label(
    search: solver._Search, state: ConnectFourState, cap: float, loss_depth: int
) -> tuple[int, int] | None:
    """``(column, outcome)`` of Yellow's book move in ``state``: the first move in the search's
    order proved to win, else to draw, else (every move loses) the move of the default
    heuristic's alpha-beta at ``loss_depth`` plies, the live AI's kind of choice (the move
    that loses slowest would need exact scores, far beyond the walk's budget this early);
    None when the questions took over ``cap`` seconds in all (wall clock: the search's)."""
    position, mask, played = solver.bitboards(state)
    order = solver.threat_order(state, state.legal_moves())
    immediate = solver.winning_squares(position, mask)
    for column in order:
        if immediate & state.landing(column):
            return column, WIN
    search.deadline = time.perf_counter() + cap
    try:
        for target in (WIN, DRAW):
            for column in order:
                if search.achieves(position, mask, played, state.landing(column), target):
                    return column, target
    except solver._OutOfTime:
        return None
    finally:
        search.deadline = None
    return choose_move(state, algorithm="alphabeta", depth=loss_depth).move, -WIN


def walk_ply(
    search: solver._Search,
    frontier: dict[int, ConnectFourState],
    entries: dict[int, tuple[int, int]],
    args: argparse.Namespace,
) -> tuple[dict[int, ConnectFourState], int]:
    """Label every Yellow position of ``frontier`` into ``entries``; the next Yellow frontier
    (within its depth) and the positions left out for the cap."""
    following: dict[int, ConnectFourState] = {}
    left_out = 0
    cpu_started = time.process_time()
    for done, (key, state) in enumerate(sorted(frontier.items()), 1):
        found = entries.get(key) or label(search, state, args.cap, args.loss_depth)
        if found is None:
            left_out += 1
            print(f"  left out (over {args.cap:g} s): {state.to_text()!r}", flush=True)
            continue
        entries[key] = found
        column, outcome = found
        after = state.play(column)
        depth = args.win_plies if outcome == WIN else args.plies
        if not after.is_terminal() and after.occupied().bit_count() + 1 <= depth:
            following.update(children(after))
        if done % PROGRESS_EVERY == 0:
            print(
                f"  {done:,}/{len(frontier):,} positions, {search.nodes:,} nodes, "
                f"{time.process_time() - cpu_started:.0f} s CPU",
                flush=True,
            )
    return following, left_out


def build(args: argparse.Namespace) -> None:
    """Walk Yellow's turns down to ``--plies`` (``--win-plies`` once won), writing ``--out``."""
    out: Path = args.out
    kept = args.out.exists() and not args.restart
    entries = dict(opening_book.load_opening_book(out).entries) if kept else {}
    search = solver._CompiledSearch(None, None, None, args.table)
    cpu_started = time.process_time()
    first = initial_state()
    if not search.achieves(0, 0, 0, first.landing(3), WIN):
        raise SystemExit("d does not win: the solver disagrees with the start proof")
    print(f"proved d wins: {search.nodes:,} nodes, {time.process_time() - cpu_started:.0f} s CPU")
    frontier = children(first)
    while frontier:
        ply = next(iter(frontier.values())).occupied().bit_count()
        nodes, cpu = search.nodes, time.process_time()
        count = len(frontier)
        frontier, left_out = walk_ply(search, frontier, entries, args)
        out.write_bytes(opening_book.book_bytes(entries))
        print(
            f"ply {ply}: {count:,} Yellow positions ({left_out} left out), "
            f"{search.nodes - nodes:,} nodes, {time.process_time() - cpu:.0f} s CPU; "
            f"{len(frontier):,} at ply {ply + 2}; {len(entries):,} entries written to {out}",
            flush=True,
        )
    print(f"done: {len(entries):,} entries, {time.process_time() - cpu_started:.0f} s CPU in all")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=13, help="discs of the deepest positions")
    parser.add_argument("--win-plies", type=int, default=13, help="the same, once Yellow wins")
    parser.add_argument("--cap", type=float, default=120.0, help="seconds per position")
    parser.add_argument("--loss-depth", type=int, default=10, help="alpha-beta's, once lost")
    parser.add_argument("--table", type=int, default=TABLE, help="table slots")
    parser.add_argument("--out", type=Path, default=opening_book.BOOK_PATH)
    parser.add_argument("--restart", action="store_true", help="start again, ignoring --out")
    build(parser.parse_args())


if __name__ == "__main__":
    main()
