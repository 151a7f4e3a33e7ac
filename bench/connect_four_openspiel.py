"""Connect Four: the page's default AI against OpenSpiel's Monte Carlo tree search.

Run from the repository root (OpenSpiel is a bench-only dependency,
``pip install -r requirements-bench.txt``)::

    python -m bench.connect_four_openspiel                  # 10 games, wall clock
    python -m bench.connect_four_openspiel --cpu-clock      # budgets in CPU seconds
    python -m bench.connect_four_openspiel --games 2 --simulations 1000
    python -m bench.connect_four_openspiel --analyse 20   # then our proved mistakes

Our side plays :attr:`GameSpec.default_player` of Connect Four
(``alphabeta:time=1,heuristic=threat parity``: the exact solver tried first, with a
quarter of the second, 0.8 of it from 12 discs on, then alpha-beta deepening with the
threat parity heuristic while the second lasts). The
outside reference is OpenSpiel's ``MCTSBot`` with its textbook settings: UCT with
``uct_c=2``, a random-rollout evaluator (one rollout), 10,000 simulations a move, its
MCTS-Solver on (the class's default). Colours alternate: even games our AI is Red
(moves first), odd games it is Yellow. Game ``n`` seeds OpenSpiel's random numbers with
``n`` (``--seed`` gives the first game's number).

Every move is played in both engines, and the two must agree on the rules at every
ply: the same legal columns, the same board, the same end and winner. Any mismatch
stops the bench with an error. OpenSpiel's actions are the columns 0-6 left to right,
as ours (``a``-``g``).

The clock of our player is wall time by default, so on a loaded machine it searches
less than its budget suggests: the load average is printed beside the result.
``--cpu-clock`` makes our search and solver read this process's CPU time instead (the
budget then means what it would on a quiet machine). ``--analyse SECONDS`` then asks
the exact solver, game by game, which of our moves threw away a won or drawn position
(positions it cannot settle in ``SECONDS`` are passed over, so early mistakes go unseen).
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import time
import types
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from lib.games import connect_four
from lib.games.connect_four import solver
from lib.games.search import fast as search
from lib.games.search.players import make_player, parse_player_spec

SIMULATIONS = 10_000
UCT_C = 2.0
SYMBOLS = {connect_four.RED: "x", connect_four.YELLOW: "o"}
"""OpenSpiel's marks: ``x`` moves first (our Red)."""


class RulesMismatch(RuntimeError):
    """The two engines disagree about the rules in some position."""


@dataclass
class Tally:
    """Results of our AI with one colour, and the time it used per move."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    seconds: list[float] = field(default_factory=list)


def openspiel_board(state: connect_four.ConnectFourState) -> str:
    """Our position in OpenSpiel's text form: rows top to bottom, ``x``/``o``/``.``."""
    rows = []
    for height in reversed(range(connect_four.ROWS)):
        cells = (state.cell(column, height) for column in range(connect_four.COLUMNS))
        rows.append("".join("." if owner is None else SYMBOLS[owner] for owner in cells))
    return "\n".join(rows) + "\n"


def check_agree(ours: connect_four.ConnectFourState, theirs: Any, ply: int) -> None:
    """Raise RulesMismatch unless both engines see the same position, moves and end."""
    if str(theirs) != openspiel_board(ours):
        raise RulesMismatch(
            f"ply {ply}: boards differ:\n{theirs}\nagainst\n{openspiel_board(ours)}"
        )
    if ours.is_terminal() != theirs.is_terminal():
        raise RulesMismatch(f"ply {ply}: game over {ours.is_terminal()} against {theirs}")
    if ours.is_terminal():
        winner = ours.winner()
        returns = theirs.returns()
        expected = [0.0, 0.0] if winner is None else [1.0 - 2 * winner, 2 * winner - 1.0]
        if list(returns) != expected:
            raise RulesMismatch(f"ply {ply}: winner {winner} against returns {returns}")
        return
    if sorted(ours.legal_moves()) != sorted(theirs.legal_actions()):
        raise RulesMismatch(
            f"ply {ply}: legal {sorted(ours.legal_moves())} against {theirs.legal_actions()}"
        )
    if theirs.current_player() != ours.to_move:
        raise RulesMismatch(f"ply {ply}: {theirs.current_player()} to move against {ours.to_move}")


def openspiel() -> tuple[Any, Any]:
    """OpenSpiel's ``pyspiel`` and its MCTS module, imported when a game is played: a bench-only
    dependency (``requirements-bench.txt``), so the module imports without it."""
    try:
        pyspiel = importlib.import_module("pyspiel")
        mcts = importlib.import_module("open_spiel.python.algorithms.mcts")
    except ImportError as error:
        raise SystemExit(
            f"This bench needs OpenSpiel ({error}): pip install -r requirements-bench.txt"
        ) from error
    return pyspiel, mcts


ENGINES = ("python", "cpp")
"""OpenSpiel's two ``MCTSBot``: its Python one and its C++ one (``pyspiel.MCTSBot``), the
same algorithm and settings; the C++ one runs about ten times as many simulations a second."""


def mcts_bot(game: Any, simulations: int, seed: int, engine: str = "python") -> Any:
    """OpenSpiel's ``MCTSBot`` on ``game``: UCT with ``uct_c`` :data:`UCT_C`, one random
    rollout per simulation, ``simulations`` a move, its MCTS-Solver on (the Python
    class's default), seeded with ``seed``; ``engine`` picks its Python or C++ code."""
    pyspiel, openspiel_mcts = openspiel()
    if engine == "cpp":
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        return pyspiel.MCTSBot(game, evaluator, UCT_C, simulations, 1000, True, seed, False)
    rng = np.random.RandomState(seed)
    evaluator = openspiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return openspiel_mcts.MCTSBot(game, UCT_C, simulations, evaluator, random_state=rng)


def play_game(
    ours_red: bool, seed: int, simulations: int, spec: str, engine: str = "python"
) -> tuple[int | None, list[float], str]:
    """One game; returns (winner 0/1 or None, our seconds per move, the moves)."""
    pyspiel, _ = openspiel()
    game = pyspiel.load_game("connect_four")
    bot = mcts_bot(game, simulations, seed, engine)
    player = make_player(parse_player_spec(spec), connect_four.GAME)
    generator = np.random.default_rng(seed)
    ours, theirs = connect_four.initial_state(), game.new_initial_state()
    our_colour = connect_four.RED if ours_red else connect_four.YELLOW
    seconds, moves = [], []
    ply = 0
    check_agree(ours, theirs, ply)
    while not ours.is_terminal():
        if ours.to_move == our_colour:
            started = time.perf_counter()
            move = player.choose(ours, generator).move
            seconds.append(time.perf_counter() - started)
        else:
            move = int(bot.step(theirs))
        moves.append(connect_four.format_move(move))
        ours = ours.play(move)
        theirs.apply_action(move)
        ply += 1
        check_agree(ours, theirs, ply)
    print(
        f"  game {seed}: ours {'Red' if ours_red else 'Yellow'}, "
        f"{''.join(moves)}, winner {ours.winner()}",
        flush=True,
    )
    return ours.winner(), seconds, "".join(moves)


OUTCOMES = {1: "won", 0: "drawn", -1: "lost"}


def proved_mistakes(moves: str, ours_red: bool, seconds: float) -> list[str]:
    """Our moves of a played game that the exact solver proves threw away a result: the
    position before the move was better for us (won or drawn) than after it. Each
    position gets ``seconds``; one the solver does not settle in time is passed over."""
    found = []
    our_colour = connect_four.RED if ours_red else connect_four.YELLOW
    for ply, column in enumerate(moves):
        before = connect_four.state_from_moves(moves[:ply])
        if before.to_move != our_colour:
            continue
        after = before.play(connect_four.parse_move(column, before))
        was = solver.score(before, time_limit=seconds, book=solver.bundled_book())
        if after.is_terminal():
            now = 0 if after.winner() is None else 1
        else:
            child = solver.score(after, time_limit=seconds, book=solver.bundled_book())
            now = None if child is None else -child
        if was is None or now is None:
            continue
        if (now > 0) - (now < 0) < (was > 0) - (was < 0):
            best = solver.solve(before, time_limit=seconds, line=False)
            better = "".join(connect_four.format_move(m) for m in best.best_moves) if best else "?"
            found.append(
                f"ply {ply + 1} ({column}): {OUTCOMES[(was > 0) - (was < 0)]} before, "
                f"{OUTCOMES[(now > 0) - (now < 0)]} after (best: {better})"
            )
    return found


def main(argv: list[str] | None = None) -> None:
    """Play the match and print wins/draws/losses per colour, time per move and the load."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--simulations", type=int, default=SIMULATIONS)
    parser.add_argument("--cpu-clock", action="store_true", help="our budget in CPU seconds")
    parser.add_argument(
        "--analyse",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="after the match, the exact solver looks for our proved mistakes (per position)",
    )
    args = parser.parse_args(argv)
    if args.cpu_clock:
        cpu_clock = types.SimpleNamespace(perf_counter=time.process_time)
        search.time = solver.time = cpu_clock  # type: ignore[assignment]
    spec = connect_four.GAME.default_player
    budget = parse_player_spec(spec).time_limit
    clock = "CPU" if args.cpu_clock else "wall"
    print(
        f"== Connect Four: {spec} ({clock} clock) against OpenSpiel MCTSBot "
        f"(uct_c={UCT_C:g}, {args.simulations:,} simulations, random rollouts), "
        f"{args.games} games =="
    )
    loads = [os.getloadavg()[0]]
    tallies = {connect_four.RED: Tally(), connect_four.YELLOW: Tally()}
    played = []
    for index in range(args.games):
        ours_red = index % 2 == 0
        seed = args.seed + index
        colour = connect_four.RED if ours_red else connect_four.YELLOW
        winner, seconds, moves = play_game(ours_red, seed, args.simulations, spec)
        played.append((moves, ours_red))
        tally = tallies[colour]
        tally.seconds.extend(seconds)
        if winner is None:
            tally.draws += 1
        elif winner == colour:
            tally.wins += 1
        else:
            tally.losses += 1
        loads.append(os.getloadavg()[0])
    for colour, tally in tallies.items():
        name = connect_four.PLAYER_NAMES[colour]
        mean = statistics.mean(tally.seconds) if tally.seconds else 0.0
        worst = max(tally.seconds, default=0.0)
        print(
            f"our AI as {name:<6}: {tally.wins} won, {tally.draws} drawn, {tally.losses} lost; "
            f"{mean:.2f} s a move on average (worst {worst:.2f} s, wall) against its "
            f"{budget:g} s budget ({clock} clock)"
        )
    print(f"load average (1 min) during the match: {min(loads):.1f}-{max(loads):.1f}")
    if args.analyse:
        for index, (moves, ours_red) in enumerate(played):
            mistakes = proved_mistakes(moves, ours_red, args.analyse)
            shown = "; ".join(mistakes) or "none found"
            print(f"game {args.seed + index}: our proved mistakes: {shown}")


if __name__ == "__main__":
    main()
