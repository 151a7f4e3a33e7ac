"""Exact Othello endgames: the FFO test positions #1-#19 (14 to 16 empty squares) and #20-#29.

#20-#29 (6 to 20 empties, most of them 19 or 20) are the harder set: they are solved
without the reference search (which would take many minutes each) and reported with
their total CPU time and nodes per second.

For each position, the exact solver of :mod:`lib.games.othello.endgame` (best move
and margin) against today's generic exact search, ``search.choose_move(state,
depth=64, endgame_exact=64)``, measured in the same run: seconds (wall clock and
this process's CPU time, which a busy machine disturbs less), nodes, and the
ratio of the two. Both answers are checked against the published best score.

Run from the repository root::

    python -m bench.othello_endgame              # all 19, with the reference search
    python -m bench.othello_endgame 1-7 13       # some positions
    python -m bench.othello_endgame --no-reference
    python -m bench.othello_endgame --every-move  # also every move's exact margin
    python -m bench.othello_endgame 20-29         # the harder set (no reference search)
    python -m bench.othello_endgame 20-29 --no-reference --previous   # against the old solver
    python -m bench.othello_endgame --player alphabeta:time=5   # a player with its clock
    python -m bench.othello_endgame --player alphabeta:time=5 --cpu-clock

``--previous`` also runs the last pure-Python solver (git revision :data:`PREVIOUS`, loaded
from git into a temporary folder) on each position, in the same run: the ratio of its CPU
time to today's is the speed-up of compiling the search (same algorithm, same answers).

``--cpu-clock`` makes the search and the solver read this process's CPU time as their
clock: the budget then means what it would on a quiet machine, whatever else runs.

Targets for #1-#19: each position under 1 s, median under 0.3 s, checked on CPU time and
on wall-clock time (the CPU time is the fairer figure on a shared, busy machine; the load
average is printed beside the figures).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable
from pathlib import Path

import numpy as np

from lib.games import othello
from lib.games.core import WIN_VALUE
from lib.games.othello import OthelloState, endgame, format_move, state_from_text
from lib.games.othello.endgame import solve
from lib.games.search import fast as search
from lib.games.search.players import make_player, parse_player_spec

DATA = Path(__file__).resolve().parent.parent / "tests" / "games" / "data"
FFO_FILES = (DATA / "ffo_1_19.txt", DATA / "ffo_20_29.txt")
TARGET_EACH, TARGET_MEDIAN = 1.0, 0.3
REFERENCE_UP_TO = 19
"""Positions beyond this number are not given to today's generic search (minutes each)."""
PREVIOUS = "e87aea0"
"""The git revision of the last pure-Python solver (``--previous``)."""
_PREVIOUS_FILES = ("endgame_kernels", "endgame")  # the kernels first: the solver imports them


def previous_solve(revision: str = PREVIOUS) -> Callable[[OthelloState], object]:
    """The ``solve`` of :mod:`lib.games.othello.endgame` as it was at git ``revision``, with
    the kernels module of that revision: written from git into a temporary folder and
    imported from there under private names, beside today's modules."""
    root = Path(__file__).resolve().parent.parent
    folder = Path(tempfile.mkdtemp(prefix="previous_endgame_"))
    module = None
    for name in _PREVIOUS_FILES:
        text = subprocess.run(
            ["git", "show", f"{revision}:lib/games/othello/{name}.py"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        text = text.replace("lib.games.othello.endgame_kernels", "_previous_endgame_kernels")
        path = folder / f"_previous_{name}.py"
        path.write_text(text)
        spec = importlib.util.spec_from_file_location(f"_previous_{name}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
    return module.solve  # type: ignore[union-attr]


def load_positions() -> list[tuple[int, OthelloState, dict[str, int]]]:
    """(number, position, published move -> margin) for each line of the FFO data files."""
    positions = []
    lines = [line for path in FFO_FILES for line in path.read_text().splitlines()]
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        number, board, side, moves = (part.strip() for part in line.split(";", 3))
        rows = "\n".join(board[row * 8 : row * 8 + 8] for row in range(8))
        scores = {}
        for item in moves.split(";"):
            if ":" in item:
                move, score = item.strip().split(":")
                scores[move.lower()] = int(score)
        positions.append((int(number), state_from_text(rows, {"X": 0, "O": 1}[side]), scores))
    return positions


def _selection(specs: list[str]) -> set[int]:
    chosen: set[int] = set()
    for spec in specs:
        first, _, last = spec.partition("-")
        chosen.update(range(int(first), int(last or first) + 1))
    return chosen


def play_positions(spec: str, chosen: set[int]) -> None:
    """Let the player ``spec`` move in each chosen position: did its search solve the
    position exactly (the exact endgame, with the published best margin and a best move),
    within its time budget?"""
    config = parse_player_spec(spec)
    player = make_player(config, othello.GAME)
    print(f"{'#':>3} {'empt':>4} {'move':>4} {'exact':>5} {'ok':>3} {'seconds':>8} {'cpu s':>7}")
    solved, seconds, cpu_seconds = 0, [], []
    for number, state, scores in load_positions():
        if number not in chosen:
            continue
        cpu = time.process_time()
        decision = player.choose(state, np.random.default_rng(0))
        cpu = time.process_time() - cpu
        stats, best = decision.stats, max(scores.values())
        margin = (
            0
            if decision.value == 0
            else int(np.sign(decision.value)) * round(abs(decision.value) - WIN_VALUE)
        )
        ok = (
            stats.exact_endgame
            and margin == best
            and scores.get(format_move(decision.move)) == best
            and (config.time_limit is None or stats.seconds <= config.time_limit)
        )
        solved += bool(ok)
        seconds.append(stats.seconds)
        cpu_seconds.append(cpu)
        print(
            f"{number:>3} {state.plies_left_hint():>4} {format_move(decision.move):>4} "
            f"{'yes' if stats.exact_endgame else 'no':>5} {'yes' if ok else 'NO':>3} "
            f"{stats.seconds:>8.3f} {cpu:>7.3f}",
            flush=True,
        )
    print(
        f"{spec}: solved and played exactly within its budget {solved} of {len(seconds)}; "
        f"worst {max(seconds):.2f} s (cpu {max(cpu_seconds):.2f} s), total {sum(seconds):.2f} s"
    )


def warm_up() -> None:
    """Solve one small position first and print how long it took: the first solve of a process
    loads the compiled search from numba's cache on disk (or compiles it, when the cache is
    cold), which is no part of any position's time."""
    state = state_from_text("\n".join(["XXXXXXXX"] * 6 + ["XXXXXXOO", "XXXXXX.."]))
    started = time.perf_counter()
    solve(state)
    seconds = time.perf_counter() - started
    print(f"first solve of this process (compiled search loaded): {seconds:.2f} s")


def main(argv: list[str] | None = None) -> None:
    """Print the per-position table and the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", nargs="*", help="numbers or ranges such as 1-7")
    parser.add_argument("--no-reference", action="store_true", help="skip today's search")
    parser.add_argument("--every-move", action="store_true", help="solve every move exactly")
    parser.add_argument("--player", help="a player spec to move in each position instead")
    parser.add_argument(
        "--cpu-clock", action="store_true", help="budgets in CPU seconds of this process"
    )
    parser.add_argument(
        "--previous", action="store_true", help=f"also the pure-Python solver of {PREVIOUS}"
    )
    args = parser.parse_args(argv)
    if args.cpu_clock:
        cpu_clock = types.SimpleNamespace(perf_counter=time.process_time)
        search.time = endgame.time = cpu_clock  # type: ignore[assignment]
    chosen = _selection(args.positions) if args.positions else set(range(1, 20))
    if args.player:
        play_positions(args.player, chosen)
        return
    load_before = os.getloadavg()[0]
    previous = previous_solve() if args.previous else None
    warm_up()
    print(
        f"{'#':>3} {'empt':>4} {'move':>4} {'margin':>6} {'ok':>3} {'seconds':>8} {'cpu s':>7} "
        f"{'nodes':>9} | {'ref move':>8} {'ref s':>7} {'ref nodes':>10} {'cpu ratio':>10}"
    )
    seconds, cpu_seconds, ratios, nodes, previous_cpu = [], [], [], [], []
    for number, state, scores in load_positions():
        if number not in chosen:
            continue
        best = max(scores.values())
        cpu = time.process_time()
        result = solve(state, every_move=args.every_move)
        cpu = time.process_time() - cpu
        ok = result.margin == best and scores.get(format_move(result.best_move)) == best
        if args.every_move:
            margins = {format_move(m): v for m, v in result.move_margins.items()}
            ok = ok and all(margins[m] == v for m, v in scores.items())
        seconds.append(result.seconds)
        cpu_seconds.append(cpu)
        nodes.append(result.nodes)
        line = (
            f"{number:>3} {state.plies_left_hint():>4} {format_move(result.best_move):>4} "
            f"{result.margin:>+6} {'yes' if ok else 'NO':>3} {result.seconds:>8.3f} {cpu:>7.3f} "
            f"{result.nodes:>9,}"
        )
        if previous is not None:
            old_cpu = time.process_time()
            old = previous(state, every_move=args.every_move)
            old_cpu = time.process_time() - old_cpu
            previous_cpu.append(old_cpu)
            same = (old.margin, old.move_margins) == (result.margin, result.move_margins)
            line += (
                f" | previous {old_cpu:.3f} s cpu, {old.nodes:,} nodes, "
                f"{old_cpu / max(cpu, 1e-9):.1f}x{'' if same else ', DIFFERENT answer'}"
            )
        if not args.no_reference and number <= REFERENCE_UP_TO:
            started, ref_cpu = time.perf_counter(), time.process_time()
            reference = search.choose_move(state, depth=64, endgame_exact=64)
            ref_seconds = time.perf_counter() - started
            ratio = (time.process_time() - ref_cpu) / max(cpu, 1e-9)  # CPU: steadier than wall
            ratios.append(ratio)
            line += (
                f" | {format_move(reference.move):>8} {ref_seconds:>7.2f} "
                f"{reference.stats.nodes:>10,} {ratio:>9.1f}x"
            )
        print(line, flush=True)
    if not seconds:
        return
    median, worst = statistics.median(seconds), max(seconds)
    print(
        f"median {median:.3f} s (cpu {statistics.median(cpu_seconds):.3f} s), "
        f"worst {worst:.3f} s (cpu {max(cpu_seconds):.3f} s) over {len(seconds)} positions"
    )
    print(
        f"total {sum(seconds):.2f} s (cpu {sum(cpu_seconds):.2f} s), {sum(nodes):,} nodes, "
        f"{sum(nodes) / max(sum(cpu_seconds), 1e-9):,.0f} nodes per cpu second"
    )
    for label, times in (("cpu", cpu_seconds), ("wall clock", seconds)) * (max(chosen) < 20):
        worst_time, median_time = max(times), statistics.median(times)
        print(
            f"targets ({label}): each < {TARGET_EACH} s: "
            f"{'met' if worst_time < TARGET_EACH else 'missed'}; median < {TARGET_MEDIAN} s: "
            f"{'met' if median_time < TARGET_MEDIAN else 'missed'}"
        )
    if previous_cpu:
        print(
            f"previous solver ({PREVIOUS}, pure Python) in the same run: cpu "
            f"{sum(previous_cpu):.2f} s, {sum(previous_cpu) / max(sum(cpu_seconds), 1e-9):.1f}x "
            "today's total"
        )
    if ratios:
        print(f"median speed-up over today's search (cpu): {statistics.median(ratios):.1f}x")
    # a busy machine slows both searches; CPU seconds suffer less than wall-clock ones
    print(
        f"load average (1 min): {load_before:.2f} at the start, {os.getloadavg()[0]:.2f} at the end"
    )


if __name__ == "__main__":
    main()
