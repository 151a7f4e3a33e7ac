"""Step-through speed: what a step change costs against tracing the search once.

For each game's opening (and the textbook tree) the alpha-beta step-through at the
default depth is traced once (``run_step_search``: the trace, the minimax count and
the finished tree), then every tenth step is replayed (``tree_at``), drawn
(``step_tree_figure``) and its code excerpt built (``code_excerpt``, ``code_html``)
as a slider move does. Prints the trace time, the median
time of one step change and their ratio (a step change should cost a small fraction
of tracing: the page keeps the trace in the visitor's session), and the worst step.

    python bench/step_through.py [--depth 3] [--every 10]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lib.games import core
from lib.games.drawing.step_tree import step_tree_figure, tree_positions
from lib.games.search.stepthrough import (
    StepPosition,
    code_excerpt,
    run_step_search,
    textbook_positions,
    tree_at,
)
from lib.ui.code_view import code_html


def positions(depth: int) -> list[tuple[StepPosition, int]]:
    found = [(textbook_positions()[0], 3)]
    for game in core.available_games().values():
        evaluate = game.heuristics[game.default_heuristic].bind()
        found.append(
            (StepPosition(game.title, game.initial_state(), evaluate, game.format_move), depth)
        )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--every", type=int, default=10)
    args = parser.parse_args()
    print(
        f"{'position':<36} {'steps':>6} {'trace s':>8} {'step ms':>8} {'worst ms':>9} {'ratio':>7}"
    )
    for position, depth in positions(args.depth):
        start = time.perf_counter()
        search = run_step_search(position, algorithm="alphabeta", depth=depth)
        layout = tree_positions(search.final)
        traced = time.perf_counter() - start
        times = []
        for step in range(0, search.steps, args.every):
            start = time.perf_counter()
            now = tree_at(search.trace.events, step)
            step_tree_figure(
                now,
                search.final,
                position.format_move,
                title="Alpha-beta",
                minimax_nodes=search.minimax_nodes,
                positions=layout,
            )
            excerpt = code_excerpt(search.trace.listing.textbook, now.event.line)
            code_html(excerpt.rows, excerpt.current, excerpt.numbers)
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        print(
            f"{position.label[:36]:<36} {search.steps:>6} {traced:>8.3f} "
            f"{1000 * median:>8.1f} {1000 * max(times):>9.1f} {median / traced:>7.2f}"
        )


if __name__ == "__main__":
    main()
