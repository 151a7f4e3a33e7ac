"""Monte Carlo tree search benchmarks: speed against plain random play-outs, and strength.

Run from the repository root::

    python -m bench.mcts                  # every section
    python -m bench.mcts speed            # one section

Sections:

* ``speed``: simulations per second of :func:`lib.games.search.mcts.mcts_search` from each
  game's start (random and heuristic rollouts), against random games played from the
  same start without a tree, in the same run: with random rollouts the ratio (below 1)
  is what the tree (UCB1 selection, expansion, backing up) costs on top of the
  play-outs (each simulation's rollout also starts a few plies deeper). Heuristic
  rollouts stop after a few plies, so they run faster than whole random games.
* ``strength``: the score of MCTS against random, against itself with fewer
  simulations, and against alpha-beta at the same time per move (colours alternating).

Figures depend on the machine and its load: compare the ratios, not the seconds.
"""

from __future__ import annotations

import random
import sys
import time

import numpy as np

from bench.sections import run_sections
from lib.games.arena import MatchConfig, play_game
from lib.games.core import available_games
from lib.games.search import mcts

SPEED_SIMULATIONS = 400
"""Simulations per measured search (each game's start)."""


def random_playouts_per_second(state, games: int, seed: int = 0) -> float:
    """Random games played to the end from ``state`` per second (no tree, the same rules).

    Moves are drawn as the rollouts draw them (``random.Random.choice``).
    """
    random_source = random.Random(seed)
    started = time.perf_counter()
    for _ in range(games):
        current = state
        moves = current.legal_moves()
        while moves:
            current = current.play(random_source.choice(moves))
            moves = current.legal_moves()
    return games / (time.perf_counter() - started)


def speed() -> None:
    """Simulations per second by rollout, against plain random play-outs from the start."""
    print(f"MCTS speed: {SPEED_SIMULATIONS} simulations from each game's start")
    print(f"{'game':<14}{'rollout':<11}{'sims/s':>9}{'play-outs/s':>13}{'ratio':>8}")
    for name, game in available_games().items():
        state = game.initial_state()
        evaluate = game.heuristics[game.default_heuristic].bind()
        playouts = random_playouts_per_second(state, SPEED_SIMULATIONS)
        for rollout in mcts.ROLLOUTS:
            result = mcts.mcts_search(
                state,
                simulations=SPEED_SIMULATIONS,
                rollout=rollout,
                evaluate=evaluate,
                rng=np.random.default_rng(1),
            )
            rate = result.stats.simulations / result.stats.seconds
            print(f"{name:<14}{rollout:<11}{rate:>9,.0f}{playouts:>13,.0f}{rate / playouts:>8.2f}")


STRENGTH_MATCHES = (
    ("tictactoe", "mcts:sims=300", "random", 20),
    ("tictactoe", "mcts:sims=2000", "alphabeta:depth=9", 10),
    ("connect_four", "mcts:sims=200", "random", 10),
    ("connect_four", "mcts:sims=400", "mcts:sims=25", 20),
    ("connect_four", "mcts:time=0.2", "alphabeta:time=0.2", 10),
    ("othello", "mcts:sims=200", "random", 10),
    ("othello", "mcts:time=0.2,rollout=heuristic", "mcts:time=0.2", 10),
    ("othello", "mcts:time=0.2", "alphabeta:time=0.2", 10),
    ("checkers", "mcts:sims=200", "random", 10),
    ("checkers", "mcts:time=0.2,rollout=heuristic", "alphabeta:time=0.2", 10),
    ("sim", "mcts:sims=300", "random", 20),
)
"""(game, player A, player B, games): A's score (win 1, draw 1/2) over the games."""


def strength() -> None:
    """Scores of MCTS players against random, fewer simulations and alpha-beta."""
    print("MCTS strength (score of A: win 1, draw 1/2; colours alternate; seed 0)")
    print(f"{'game':<14}{'A':<34}{'B':<22}{'games':>6}{'score A':>9}{'W-D-L':>9}{'s':>7}")
    for game, spec_a, spec_b, games in STRENGTH_MATCHES:
        match = MatchConfig(game, (spec_a, spec_b), games=games, seed=0)
        started = time.perf_counter()
        results = [play_game(match, index).result_a for index in range(games)]
        seconds = time.perf_counter() - started
        record = f"{results.count(1.0)}-{results.count(0.5)}-{results.count(0.0)}"
        score = sum(results) / games
        print(
            f"{game:<14}{spec_a:<34}{spec_b:<22}{games:>6}{score:>9.2f}{record:>9}{seconds:>7.0f}"
        )


SECTIONS = {"speed": speed, "strength": strength}

if __name__ == "__main__":
    run_sections(SECTIONS, sys.argv[1:])
