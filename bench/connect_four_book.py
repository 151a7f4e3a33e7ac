"""Connect Four: the page's default AI as Red, with its opening strategy, never loses or draws.

Run from the repository root::

    python -m bench.connect_four_book                         # 100 games against random openings
    python -m bench.connect_four_book --games 20 --mcts 10000 --mcts-games 3 --cpu-clock
    python -m bench.connect_four_book --games 0 --mcts 10000 100000 --mcts-games 100
    python -m bench.connect_four_book --games 0 --mcts 10000 --mcts-games 100 --yellow

Our side is :attr:`GameSpec.default_player` of Connect Four as Red from the empty board:
the moves of Red's proved opening strategy (``data/connect_four_strategy.bin``) while the
position is in it, then the exact solver and alpha-beta. Red wins from the start, so every
game it does not win is a failure, and printed with its moves.

Opponents, Yellow in every game:

* a **random-opening player**: uniformly random moves for its first ``--random-moves``
  moves (default: through the strategy's plies and one more, so the games spread over the
  whole book), then the default AI itself (strong play from where the book stops);
* with ``--mcts N ...``, OpenSpiel's ``MCTSBot`` with ``N`` simulations a move (the textbook
  settings of ``bench/connect_four_openspiel.py``); OpenSpiel is a bench-only dependency
  (``pip install -r requirements-bench.txt``).

``--engine cpp`` (the default) plays OpenSpiel's C++ ``MCTSBot``, the same algorithm and
settings as its Python one (``--engine python``) at about ten times the speed.

``--yellow`` plays our AI as Yellow instead (Yellow's opening book,
``data/connect_four_yellow_book.bin``, then the win proof, the solver and alpha-beta),
against the same opponents as Red: random openings (``--random-moves`` random Red moves,
then the default AI as Red) and MCTS. Red wins from the start, so Yellow can win only a
game in which Red hands it a won position; the goal is that every such game is won.
Yellow's won games count as such; for each game it did not win, the exact solver
(``--oracle-seconds`` per position, the bundled book) checks every Red move: did it hand
Yellow a win? A position the solver does not settle in time is counted as unsettled,
never as a pass.

``--cpu-clock`` makes our player read this process's CPU time instead of the wall clock,
so a busy machine does not shorten its second (the load average is printed either way).
"""

from __future__ import annotations

import argparse
import os
import time
import types

import numpy as np

from bench import connect_four_openspiel as openspiel_bench
from lib.games import connect_four
from lib.games.connect_four import opening_book, solver, strategy
from lib.games.search import fast as search
from lib.games.search.players import make_player, parse_player_spec


def play_random_opening(
    seed: int, random_moves: int, spec: str, ours_red: bool = True
) -> tuple[int | None, str]:
    """One game: our AI against ``random_moves`` random moves of the other side, then our AI
    on both sides; (winner or None for a draw, the moves). ``ours_red``: we play Red."""
    rng = np.random.default_rng(seed)
    ours = make_player(parse_player_spec(spec), connect_four.GAME)
    theirs = make_player(parse_player_spec(spec), connect_four.GAME)
    our_side = connect_four.RED if ours_red else connect_four.YELLOW
    state, moves, random_played = connect_four.initial_state(), [], 0
    while not state.is_terminal():
        if state.to_move == our_side:
            move = ours.choose(state, rng).move
        elif random_played < random_moves:
            legal = state.legal_moves()
            move = legal[int(rng.integers(len(legal)))]
            random_played += 1
        else:
            move = theirs.choose(state, rng).move
        moves.append(connect_four.format_move(move))
        state = state.play(move)
    side = "Red" if ours_red else "Yellow"
    print(f"  game {seed}: ours {side}, {''.join(moves)}, winner {state.winner()}", flush=True)
    return state.winner(), "".join(moves)


def report(name: str, results: list[tuple[int | None, str]], started: float) -> None:
    """Print Red's wins, draws and losses against one opponent, and each game not won."""
    won = sum(winner == connect_four.RED for winner, _ in results)
    drawn = sum(winner is None for winner, _ in results)
    lost = len(results) - won - drawn
    print(
        f"as Red against {name}: {won} won, {drawn} drawn, {lost} lost in {len(results)} "
        f"games ({time.perf_counter() - started:.0f} s wall)",
        flush=True,
    )
    for winner, moves in results:
        if winner != connect_four.RED:
            print(f"  not won ({'draw' if winner is None else 'lost'}): {moves}")


def handed_wins(moves: str, seconds: float) -> tuple[list[int], int]:
    """The plies (1-based) at which Red's move in the game ``moves`` left Yellow a proved
    win, and how many of Red's moves the solver did not settle in ``seconds`` each."""
    handed, unsettled = [], 0
    for ply in range(0, len(moves), 2):  # Red's moves: plies 1, 3, 5 ...
        after = connect_four.state_from_moves(moves[: ply + 1])
        if after.is_terminal():
            continue  # Red won or filled the board: nothing handed over
        score = solver.score(after, time_limit=seconds, book=solver.bundled_book())
        if score is None:
            unsettled += 1
        elif score > 0:  # Yellow to move wins
            handed.append(ply + 1)
    return handed, unsettled


def mcts_games(
    args: argparse.Namespace, spec: str, simulations: int, *, ours_red: bool
) -> list[tuple[int | None, str]]:
    """``--mcts-games`` games of our AI (Red or Yellow) against OpenSpiel's MCTS at
    ``simulations``; (winner or None for a draw, the moves) of each."""
    results = []
    for index in range(args.mcts_games):
        winner, _seconds, moves = openspiel_bench.play_game(
            ours_red, args.seed + index, simulations, spec, args.engine
        )
        results.append((winner, moves))
    return results


def yellow_report(
    name: str, results: list[tuple[int | None, str]], oracle_seconds: float, started: float
) -> None:
    """Print Yellow's games won against one opponent, and for each game not won what the
    solver (``oracle_seconds`` a position) says of Red's moves: did one hand Yellow a win?"""
    won = sum(winner == connect_four.YELLOW for winner, _ in results)
    not_won = [(winner, moves) for winner, moves in results if winner != connect_four.YELLOW]
    print(
        f"as Yellow against {name}: {won} won, {len(results) - won} not won in {len(results)} "
        f"games ({time.perf_counter() - started:.0f} s wall)",
        flush=True,
    )
    failures = unsettled_total = 0
    for winner, moves in not_won:
        handed, unsettled = handed_wins(moves, oracle_seconds)
        failures += bool(handed)
        unsettled_total += unsettled
        outcome = "draw" if winner is None else "lost"
        print(
            f"  not won ({outcome}): {moves}; Red handed Yellow a win at plies "
            f"{handed or 'none'}; Red's moves unsettled in {oracle_seconds:g} s: {unsettled}"
        )
    print(
        f"as Yellow: games where Red handed over a win and Yellow did not win: {failures} "
        f"(Red's moves left unsettled in the games not won: {unsettled_total})",
        flush=True,
    )


def main(argv: list[str] | None = None) -> None:
    """Play the matches and print Red's results against each opponent."""
    book = strategy.bundled_strategy()
    plies = book.plies if book is not None else 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games against random openings")
    parser.add_argument("--random-moves", type=int, default=plies // 2 + 1)
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--mcts", type=int, nargs="*", default=[], help="OpenSpiel simulations")
    parser.add_argument("--mcts-games", type=int, default=100, help="games per MCTS setting")
    parser.add_argument("--cpu-clock", action="store_true", help="our budget in CPU seconds")
    parser.add_argument("--engine", choices=openspiel_bench.ENGINES, default="cpp")
    parser.add_argument("--yellow", action="store_true", help="our AI as Yellow")
    parser.add_argument("--oracle-seconds", type=float, default=30.0, help="--yellow's solver")
    args = parser.parse_args(argv)
    if args.cpu_clock:
        cpu_clock = types.SimpleNamespace(perf_counter=time.process_time)
        search.time = openspiel_bench.solver.time = cpu_clock  # type: ignore[assignment]
    spec = connect_four.GAME.default_player
    yellow = opening_book.bundled_opening_book()
    books = (
        f"Yellow's opening book to {yellow.plies if yellow else 0} discs "
        f"({len(yellow) if yellow else 0:,} positions)"
        if args.yellow
        else f"opening strategy to {plies} discs ({len(book) if book else 0:,} positions)"
    )
    print(
        f"== Connect Four: {spec} as {'Yellow' if args.yellow else 'Red'} "
        f"({'CPU' if args.cpu_clock else 'wall'} clock), {books}; "
        f"load {os.getloadavg()[0]:.1f} =="
    )

    def show(name: str, results: list[tuple[int | None, str]], started: float) -> None:
        if args.yellow:
            yellow_report(name, results, args.oracle_seconds, started)
        else:
            report(name, results, started)

    if args.games:
        started = time.perf_counter()
        results = [
            play_random_opening(args.seed + index, args.random_moves, spec, not args.yellow)
            for index in range(args.games)
        ]
        show(f"random openings ({args.random_moves} random moves)", results, started)
    for simulations in args.mcts:
        started = time.perf_counter()
        results = mcts_games(args, spec, simulations, ours_red=not args.yellow)
        name = f"OpenSpiel MCTS ({simulations:,} simulations, {args.engine})"
        show(name, results, started)
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
