"""Build data/connect_four_strategy.bin: Red's winning strategy read off the solver's proof.

Run from the repository root, on one core, at low priority::

    nice -n 19 python -m scripts.make_connect_four_strategy              # the bundled file
    nice -n 19 python -m scripts.make_connect_four_strategy --plies 6 --out /tmp/s.bin

One compiled search with a very large table (:data:`TABLE`, kept for the whole run)
first proves that Red's opening move d wins (about four minutes of CPU), then walks the
strategy ply by ply. The table must keep the proof's bounds: with more slots than the
proof visits positions, each question of the walk ("does this move keep the win?") is
answered by a few lookups; with the start proof's 67 million slots, overwritten many
times over, the walk proves every subtree again (about the proof's time per ply). The walk:
at each Red position the first move in the search's own order (most new threats,
centre first on ties: the order the proof tried them, so its bounds are in the
table) that the solver proves keeps the win (score at least 1), an immediate win
first; after it every legal Yellow reply. Transpositions and mirror images are
met once (:func:`solver.book_key`). The file is written after each Red ply, so an
interrupted run keeps every finished ply, and the figures of each ply are printed.

``--leaves N`` builds nothing: it draws ``N`` Red positions just past the strategy (seeded)
and times, in CPU seconds, the solve the 1-second player makes there (:func:`solver.solve`
with the table of a short solve, no clock): where the live solver takes over.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from lib.games.connect_four import ConnectFourState, hook, initial_state, solver
from lib.games.connect_four import strategy as strategy

PROGRESS_EVERY = 500
WIN = 1
TABLE = 536_870_909
"""Slots of the walk's table: the largest prime under ``2**29`` (about 2.7 GB, touched as the
proof fills it), more than the positions the proof of d visits."""


def canonical(state: ConnectFourState) -> tuple[int, ConnectFourState]:
    """The book key of ``state`` and the state in that key's orientation."""
    position, mask, _played = solver.bitboards(state)
    key = solver.book_key(position, mask)
    return key, solver.state_from_key(key)


def winning_move(search: solver._Search, state: ConnectFourState) -> int | None:
    """An immediate win, else the first column in the search's order proved to keep a win."""
    position, mask, played = solver.bitboards(state)
    wins = solver.winning_squares(position, mask)
    order = solver.threat_order(state, state.legal_moves())
    for column in order:
        if wins & state.landing(column):
            return column
    for column in order:
        if search.achieves(position, mask, played, state.landing(column), WIN):
            return column
    return None


def replies(state: ConnectFourState, column: int) -> dict[int, ConnectFourState]:
    """Red positions (by book key, in that orientation) after ``column`` and each Yellow reply;
    none after a move that ends the game, none after a reply that ends it."""
    after = state.play(column)
    return {} if after.is_terminal() else children(after)


def children(state: ConnectFourState) -> dict[int, ConnectFourState]:
    """The positions (by book key, in that orientation) after every move in ``state``;
    none after a move that ends the game."""
    found: dict[int, ConnectFourState] = {}
    for move in state.legal_moves():
        child = state.play(move)
        if not child.is_terminal():
            key, oriented = canonical(child)
            found[key] = oriented
    return found


def walk_ply(search: solver._Search, frontier: dict[int, ConnectFourState], moves: dict) -> dict:
    """Add the move of every Red position of ``frontier`` to ``moves``; the next Red frontier."""
    following: dict[int, ConnectFourState] = {}
    cpu_started = time.process_time()
    for done, (key, state) in enumerate(sorted(frontier.items()), 1):
        column = winning_move(search, state)
        if column is None:
            raise SystemExit(f"no winning move in {state.to_text()}: the proof is wrong")
        moves[key] = column
        following.update(replies(state, column))
        if done % PROGRESS_EVERY == 0:
            print(
                f"  {done:,}/{len(frontier):,} positions, {search.nodes:,} nodes, "
                f"{time.process_time() - cpu_started:.0f} s CPU",
                flush=True,
            )
    return following


def resume(moves: dict[int, int]) -> tuple[int, dict[int, ConnectFourState]]:
    """From the moves of a finished run: the next Red ply and its positions."""
    frontier = {solver.book_key(0, 0): initial_state()}
    plies = 0
    while frontier and all(key in moves for key in frontier):
        following: dict[int, ConnectFourState] = {}
        for key, state in frontier.items():
            following.update(replies(state, moves[key]))
        frontier, plies = following, plies + 2
    return plies, frontier


def build(plies: int, table: int, out: Path, keep: bool) -> None:
    """Walk the strategy to Red positions of ``plies`` discs, writing ``out`` after each ply."""
    moves: dict[int, int] = dict(strategy.load_strategy(out).moves) if keep and out.exists() else {}
    ply, frontier = resume(moves)
    search = solver._CompiledSearch(None, None, None, table)
    cpu_started = time.process_time()
    first = initial_state()
    if not search.achieves(0, 0, 0, first.landing(3), WIN):
        raise SystemExit("d does not win: the solver disagrees with the start proof")
    print(f"proved d wins: {search.nodes:,} nodes, {time.process_time() - cpu_started:.0f} s CPU")
    while ply <= plies and frontier:
        nodes, cpu = search.nodes, time.process_time()
        count = len(frontier)
        frontier = walk_ply(search, frontier, moves)
        out.write_bytes(strategy.strategy_bytes(moves))
        print(
            f"ply {ply}: {count:,} Red positions, {search.nodes - nodes:,} nodes, "
            f"{time.process_time() - cpu:.0f} s CPU; {len(frontier):,} at ply {ply + 2}; "
            f"{len(moves):,} entries written to {out}",
            flush=True,
        )
        ply += 2
    print(f"done: {len(moves):,} entries, {time.process_time() - cpu_started:.0f} s CPU in all")


def leaf_positions(found: strategy.Strategy, count: int, seed: int) -> list[ConnectFourState]:
    """``count`` random Red positions two plies past the strategy's deepest (its move, then a
    random Yellow reply), the game not over and Red unable to win at once."""
    rng = random.Random(seed)
    deepest = [key for key in found if solver.key_discs(key) == found.plies]
    leaves: list[ConnectFourState] = []
    while len(leaves) < count:
        state = solver.state_from_key(rng.choice(deepest))
        after = state.play(found.move(state))
        if after.is_terminal():
            continue
        child = after.play(rng.choice(after.legal_moves()))
        if not child.is_terminal() and not solver.can_win_now(*solver.bitboards(child)[:2]):
            leaves.append(child)
    return leaves


def time_leaves(path: Path, count: int, seed: int) -> None:
    """Print the CPU seconds of the 1-second player's solve on positions past the strategy."""
    found = strategy.load_strategy(path)
    solver.load_compiled()
    took = []
    for state in leaf_positions(found, count, seed):
        position, mask, played = solver.bitboards(state)
        search = solver._new_search(None, None, None, True, 1.0)  # a short solve's table
        cpu = time.process_time()
        score = search.score(position, mask, played)
        next(
            column
            for column, move in solver._moves_centre_first(mask)
            if search.achieves(position, mask, played, move, score)
        )
        took.append(time.process_time() - cpu)
    share = hook.attempt_share(state)  # every leaf has the same number of discs
    took.sort()
    within = sum(seconds <= share for seconds in took)
    print(
        f"{count} positions with {found.plies + 2} discs past the strategy: CPU seconds "
        f"median {took[len(took) // 2]:.2f}, 90% {took[int(0.9 * len(took))]:.2f}, "
        f"max {took[-1]:.2f}; {within} within the 1-second player's share there ({share:g} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=12, help="discs of the deepest Red positions")
    parser.add_argument("--table", type=int, default=TABLE, help="table slots")
    parser.add_argument("--out", type=Path, default=strategy.STRATEGY_PATH)
    parser.add_argument(
        "--restart", action="store_true", help="start again instead of going on from --out"
    )
    parser.add_argument("--leaves", type=int, default=0, help="only time N positions past it")
    parser.add_argument("--seed", type=int, default=2026, help="of --leaves")
    args = parser.parse_args()
    if args.leaves:
        time_leaves(args.out, args.leaves, args.seed)
        return
    build(args.plies, args.table, args.out, keep=not args.restart)


if __name__ == "__main__":
    main()
