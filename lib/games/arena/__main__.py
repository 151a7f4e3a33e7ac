"""The Arena's command line: play AI-vs-AI games, print the summary, write the per-game CSV.

    python -m lib.games.arena --game othello --size 6 \\
        --players "alphabeta:depth=5" "random" --games 150 --seed 1 --csv out.csv
    python -m lib.games.arena --preset othello_pruning --max-depth 5 --workers 2
    python -m lib.games.arena --ladder --game othello --size 8 --time 0.2 --games 2 --workers 2
    AI_SEARCH_LAB_LOCAL=1 python -m lib.games.arena --game othello \\
        --agent examples/greedy_agent.py --players random greedy --games 4

``--agent FILE`` (or a player spec ``agent:path=FILE``) plays a student's agent file
(:mod:`lib.games.arena.agents`); like the app, the command line runs agent files only
with ``AI_SEARCH_LAB_LOCAL=1`` set, and never on a Dask cluster.

The games (``--game``) and the presets (``--preset``) are the discovered ones,
and each option of the chosen game is a flag of its own, made from its spec
(``--size`` for a game whose ``initial_state`` takes ``size`` ...): this module
names no game. ``--help`` lists every game's options.

Games run in tasks defined in :mod:`lib.games.arena.match`, so they pickle by
that module's name to pool processes and Dask workers even though this module
runs as ``__main__``.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from lib.common import safe_csv_bytes
from lib.errors import InputError
from lib.games.arena.agents import DEFAULT_SECONDS, agent_spec, refuse_remote_agents
from lib.games.arena.executors import DASK_INSTALL, dask_available, open_executor
from lib.games.arena.ladder import (
    DEFAULT_GAMES_PER_PAIR,
    DEFAULT_TIME,
    LadderConfig,
    ladder_players,
    ladder_table,
)
from lib.games.arena.match import MAX_PLIES, GameRecord, MatchConfig
from lib.games.arena.options import format_option_value, option_from_text, option_label
from lib.games.arena.preset import Preset, presets
from lib.games.arena.tournament import TournamentResult, player_pairs, run_tournament
from lib.games.core import GameSpec, available_games
from lib.games.search.players import AGENT_LOCAL_ONLY
from lib.settings import local_mode

PROG = "python -m lib.games.arena"

RESERVED_FLAGS = frozenset(
    {
        "game",
        "preset",
        "players",
        "games",
        "seed",
        "max-plies",
        "max-depth",
        "csv",
        "timings",
        "summary-csv",
        "workers",
        "scheduler",
        "quiet",
        "help",
        "ladder",
        "time",
        "anchor",
        "agent",
    }
)
"""The command line's own flags: a game option of the same name gets ``--option-<name>``."""


def option_flag(name: str) -> str:
    """The flag of game option ``name``: ``--max-size`` for ``max_size``.

    An option named like one of the command line's own flags (``seed``,
    ``games`` ...) becomes ``--option-<name>`` so the two cannot clash.
    """
    flag = name.replace("_", "-")
    return f"--option-{flag}" if flag in RESERVED_FLAGS else f"--{flag}"


def option_help(spec: GameSpec, name: str) -> str:
    """The help of one option flag: its title and allowed values, named as on the page."""
    shown = []
    for value in spec.options[name]:
        title = format_option_value(spec, name, value)
        shown.append(str(value) if title == str(value) else f"{value} ({title})")
    return f"{option_label(spec, name)}: one of {', '.join(shown)} (default: the game's own)"


def games_epilog(games: Mapping[str, GameSpec]) -> str:
    """Every game's option flags, for ``--help`` (the flags of ``--game`` are the parsed ones)."""
    lines = ["game options (give --game first):"]
    for name, spec in games.items():
        flags = [
            f"{option_flag(option)} {{{','.join(map(str, allowed))}}}"
            for option, allowed in spec.options.items()
        ]
        lines.append(f"  {name}: {' '.join(flags) or '(none)'}")
    return "\n".join(lines)


def build_parser(
    games: Mapping[str, GameSpec], game: GameSpec | None, studies: Mapping[str, Preset]
) -> argparse.ArgumentParser:
    """The argument parser, with one flag per option of ``game`` (see :func:`option_flag`),
    its flags in groups: what to play, how, where, and what to write."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=(
            "Play AI-vs-AI games and print a summary table. With two players, one match; "
            "with more, a round robin of every pair. Colours alternate game by game."
        ),
        epilog=games_epilog(games),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _what_to_play(parser.add_argument_group("what to play"), games, game, studies)
    _how_to_play(parser.add_argument_group("how many games, and how long"))
    _where_to_play(parser.add_argument_group("where the games run"))
    _what_to_write(parser.add_argument_group("output"))
    return parser


def _what_to_play(
    group: Any, games: Mapping[str, GameSpec], game: GameSpec | None, studies: Mapping[str, Preset]
) -> None:
    """The game, its options, and the players (a preset study, a ladder, specs, agents)."""
    default = next(iter(games), None)
    group.add_argument(
        "--game", choices=list(games), default=default, help=f"the game (default: {default})"
    )
    if game is not None:
        for name, allowed in game.options.items():
            group.add_argument(
                option_flag(name),
                dest=f"option_{name}",
                metavar="{" + ",".join(map(str, allowed)) + "}",
                default=None,
                help=option_help(game, name),
            )
    group.add_argument(
        "--preset",
        choices=sorted(studies),
        help="run one of the games' studies instead of --players (--game and the game "
        "options are then ignored)",
    )
    group.add_argument(
        "--ladder",
        action="store_true",
        help="a strength ladder of --game: a round robin at an equal time per move, "
        "ranked by Bradley-Terry rating (players: --players, or the game's roster)",
    )
    group.add_argument(
        "--players",
        nargs="+",
        metavar="SPEC",
        help='player specs, e.g. "alphabeta:depth=5" "random"',
    )
    group.add_argument(
        "--agent",
        nargs="+",
        metavar="FILE",
        help="agent files (Python, defining choose_move(state, seconds_left)) to add to the "
        f"players; local only: needs AI_SEARCH_LAB_LOCAL=1. Time per move: --time in a "
        f"ladder, else {DEFAULT_SECONDS:g} s (or write agent:path=FILE,time=S in --players)",
    )


def _how_to_play(group: Any) -> None:
    """Games per match, the ladder's clock and anchor, the seed and the limits."""
    group.add_argument(
        "--games",
        type=int,
        default=None,
        help=f"games per match (default: 10, the preset's, or {DEFAULT_GAMES_PER_PAIR} "
        "per pair in a ladder)",
    )
    group.add_argument(
        "--time",
        type=float,
        default=DEFAULT_TIME,
        help=f"with --ladder: seconds per move of the roster's searchers (default {DEFAULT_TIME})",
    )
    group.add_argument(
        "--anchor",
        metavar="SPEC",
        help="with --ladder: the player rated 0 (default: the ratings' mean is 0)",
    )
    group.add_argument("--seed", type=int, default=0, help="seed (default: 0)")
    group.add_argument("--max-plies", type=int, default=MAX_PLIES, help="ply limit per game")
    group.add_argument(
        "--max-depth", type=int, default=None, help="with --preset: leave out deeper players"
    )


def _where_to_play(group: Any) -> None:
    """In this process, local worker processes, or a Dask cluster."""
    group.add_argument(
        "--workers", type=int, default=1, help="local worker processes (default 1: in-process)"
    )
    group.add_argument(
        "--scheduler",
        help="Dask scheduler address, e.g. tcp://10.0.0.5:8786"
        + ("" if dask_available() else f" (needs Dask, not installed here: {DASK_INSTALL})"),
    )


def _what_to_write(group: Any) -> None:
    """The CSV files, their timings, and the progress line."""
    group.add_argument("--csv", metavar="FILE", help="write the per-game table to FILE")
    group.add_argument(
        "--timings",
        action="store_true",
        help="include wall-clock seconds in the CSV (then it differs from run to run)",
    )
    group.add_argument("--summary-csv", metavar="FILE", help="write the summary table to FILE")
    group.add_argument("--quiet", action="store_true", help="no progress on stderr")


def parse_args(
    argv: Sequence[str] | None,
    games: Mapping[str, GameSpec] | None = None,
    studies: Mapping[str, Preset] | None = None,
) -> argparse.Namespace:
    """Parse ``argv`` in two steps: ``--game`` first, then with that game's option flags.

    ``games`` and ``studies`` default to the discovered games and their presets.
    """
    games = available_games() if games is None else games
    studies = presets() if studies is None else studies
    first = argparse.ArgumentParser(add_help=False)
    first.add_argument("--game")
    known, _ = first.parse_known_args(argv)
    name = known.game if known.game is not None else next(iter(games), None)
    parser = build_parser(games, games.get(name), studies)
    return parser.parse_args(argv)


def game_options(args: argparse.Namespace, spec: GameSpec) -> dict[str, Any]:
    """The options of ``spec`` given on the command line, as values of their own type."""
    options = {}
    for name in spec.options:
        text = getattr(args, f"option_{name}", None)
        if text is not None:
            options[name] = option_from_text(spec, name, text, option_flag(name))
    return options


def cli_matches(
    args: argparse.Namespace,
    games: Mapping[str, GameSpec] | None = None,
    studies: Mapping[str, Preset] | None = None,
) -> list[MatchConfig]:
    """The matches described by the command-line arguments."""
    if args.preset:
        studies = presets() if studies is None else studies
        return studies[args.preset].matches(args.games, args.seed, args.max_depth)
    games = available_games() if games is None else games
    players = list(args.players or []) + agent_specs(args)
    if len(players) < 2:
        raise InputError("Give at least two --players, e.g. --players alphabeta:depth=3 random.")
    options = game_options(args, games[args.game])
    return [
        MatchConfig(
            args.game,
            pair,
            games=10 if args.games is None else args.games,
            seed=args.seed,
            options=options,
            max_plies=args.max_plies,
        )
        for pair in player_pairs(players, round_robin=True)
    ]


def cli_ladder(
    args: argparse.Namespace, games: Mapping[str, GameSpec] | None = None
) -> LadderConfig:
    """The ladder described by the command-line arguments (``--ladder``)."""
    if args.preset:
        raise InputError("Choose either --ladder or --preset, not both.")
    games = available_games() if games is None else games
    players = list(args.players or [])
    agents = agent_specs(args, args.time)
    if agents and not players:  # the agents join the game's roster
        players = ladder_players(args.game, args.time)
    ladder = LadderConfig(
        args.game,
        options=game_options(args, games[args.game]),
        players=tuple(players + agents),
        time_per_move=args.time,
        games_per_pair=DEFAULT_GAMES_PER_PAIR if args.games is None else args.games,
        seed=args.seed,
        max_plies=args.max_plies,
    )
    if args.anchor is not None and args.anchor not in ladder.roster():
        raise InputError(
            f"--anchor {args.anchor!r} is not on the ladder; its players are "
            f"{', '.join(ladder.roster())}."
        )
    return ladder


def agent_specs(args: argparse.Namespace, seconds: float | None = None) -> list[str]:
    """The player specs of the ``--agent`` files (``seconds`` per move; None: the default).

    Raises :class:`InputError` off a local install (see :data:`AGENT_LOCAL_ONLY`).
    """
    if not args.agent:
        return []
    if not local_mode():
        raise InputError(AGENT_LOCAL_ONLY)
    return [agent_spec(path, seconds) for path in args.agent]


def executor_kind(args: argparse.Namespace) -> str:
    """``"dask"`` with a scheduler, ``"process"`` with several workers, else ``"inline"``."""
    if args.scheduler:
        return "dask"
    if args.workers > 1:
        return "process"
    if args.workers == 1:
        return "inline"
    raise InputError(f"--workers must be at least 1, got {args.workers}.")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m lib.games.arena``; returns the exit status.

    A Ctrl-C outside the games (while the tables are printed, say) ends it with one line
    and the status 130, as a shell reports an interrupted command, not a traceback.
    """
    previous = signal.getsignal(signal.SIGINT)
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("\nStopped (Ctrl-C).", file=sys.stderr)
        return 130
    finally:
        with contextlib.suppress(ValueError):
            signal.signal(signal.SIGINT, previous)


def _main(argv: Sequence[str] | None) -> int:
    """:func:`main`'s work: parse, play, report."""
    args = parse_args(argv)
    try:
        ladder = cli_ladder(args) if args.ladder else None
        matches = ladder.matches() if ladder else cli_matches(args)
        kind = executor_kind(args)
        refuse_remote_agents(kind, matches)

        result = _play(matches, kind, args)
        table = ladder_table(result.records, result.matches, anchor=args.anchor) if ladder else None
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if not args.quiet:
        print(file=sys.stderr)
    if ladder is not None:
        return print_ladder(args, ladder, result, table)
    summary = result.summary()
    return _report(summary, summary.drop(columns=["match", "player_a", "player_b"]), result, args)


class _Interrupts:
    """Ctrl-C during a run: the first stops it after the games being played (they are kept
    and reported), a second stops it at once (the games finished are still reported).
    Once the games are over, a Ctrl-C is ignored: the report of the kept games is quick."""

    def __init__(self) -> None:
        self.asked = False
        self.playing = True

    def __call__(self, signum: int, frame: Any) -> None:
        if not self.playing:
            return
        if self.asked:
            raise KeyboardInterrupt
        self.asked = True
        print(
            "\nStopping after the games being played (Ctrl-C again to stop now)…",
            file=sys.stderr,
            flush=True,
        )


def _play(matches: list[MatchConfig], kind: str, args: argparse.Namespace) -> TournamentResult:
    """Play ``matches`` on an executor of ``kind`` with a progress line; a Ctrl-C keeps the
    games finished so far (the result is then ``cancelled``) and says so in one line."""
    finished: list[GameRecord] = []
    interrupts = _Interrupts()
    with contextlib.suppress(ValueError):  # (only a main thread can; else Ctrl-C as usual)
        signal.signal(signal.SIGINT, interrupts)  # until the end of the command (main)

    def progress(record: GameRecord, done: int, total: int) -> None:
        finished.append(record)
        if not args.quiet:
            print(f"\r{done}/{total} games", end="", file=sys.stderr, flush=True)

    try:
        with open_executor(kind, workers=args.workers, scheduler=args.scheduler) as executor:
            result = run_tournament(
                matches, executor, on_game=progress, should_stop=lambda: interrupts.asked
            )
    except KeyboardInterrupt:
        ordered = sorted(finished, key=lambda record: (record.match, record.game))
        result = TournamentResult(tuple(matches), ordered, cancelled=True)
    finally:
        interrupts.playing = False
    if result.cancelled:
        total = sum(match.games for match in matches)
        print(
            f"\nStopped: {len(result.records)} of {total} games finished; "
            "the tables below hold them.",
            file=sys.stderr,
        )
    return result


def print_ladder(
    args: argparse.Namespace, ladder: LadderConfig, result: Any, table: pd.DataFrame
) -> int:
    """Print the ranked ladder (and write its CSVs); returns the exit status."""
    options = ", ".join(f"{name} {value}" for name, value in ladder.options)
    anchor = "mean 0" if args.anchor is None else f"{args.anchor} = 0"
    print(
        f"Strength ladder: {ladder.game}{f' ({options})' if options else ''}, "
        f"{len(ladder.roster())} players, {ladder.games_per_pair} games per pair, "
        f"{ladder.time_per_move:g} s per move, seed {ladder.seed}; "
        f"Bradley-Terry ratings (Elo scale, {anchor}) "
        "with 95 % intervals"
    )
    return _report(table, table.drop(columns=["spec"]), result, args)


def _report(table: pd.DataFrame, shown: pd.DataFrame, result: Any, args: Any) -> int:
    """Print ``shown``; write the games (``--csv``) and ``table`` (``--summary-csv``)."""
    with pd.option_context("display.width", 200, "display.max_columns", None):
        print(shown.to_string(index=False, float_format=lambda x: f"{x:.4g}"))
    if args.csv:
        with open(args.csv, "wb") as file:
            file.write(safe_csv_bytes(result.games_table(timings=args.timings)))
    if args.summary_csv:
        with open(args.summary_csv, "wb") as file:
            file.write(safe_csv_bytes(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
