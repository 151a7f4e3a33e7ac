"""The Arena: AI-vs-AI matches and tournaments, summary statistics, scaling out.

A **match** (:class:`MatchConfig`) is two player specs (``"alphabeta:depth=5"``,
``"random"``, see :mod:`lib.games.players`), a game with its options (board
size), a number of games and a seed. Player *A* (the first spec) moves first in
the even-numbered games and second in the odd-numbered ones, so colours
alternate. A **tournament** is a list of matches.

Every game is a pure function of ``(match, game index)``: :func:`play_game`
derives the random generators of both players from
``numpy.random.SeedSequence(match.seed, spawn_key=(game_index,))``. So a study
gives identical games (moves, winners, node counts) whether it runs in this
process, in a process pool or on a Dask cluster; only wall-clock times differ.

Execution goes through any :class:`concurrent.futures.Executor`:

>>> from lib.games.arena import MatchConfig, run_tournament  # doctest: +SKIP
>>> result = run_tournament([MatchConfig("othello", ("alphabeta:depth=3", "random"),
...                                      games=10, options={"size": 6})])  # doctest: +SKIP
>>> result.summary()  # doctest: +SKIP

:func:`open_executor` builds the three executors the app and the CLI offer:
in-process (:class:`InlineExecutor`), a local process pool, and a Dask
``Client(address).get_executor()``.

Command line (prints the summary, writes the per-game CSV)::

    python -m lib.games.arena --game othello --size 6 \\
        --players "alphabeta:depth=5" "random" --games 150 --seed 1 --csv out.csv
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import binomtest

from lib.common import safe_csv_bytes
from lib.errors import InputError
from lib.games.core import get_game

MAX_PLIES = 400
"""Default ply limit of one game; a game reaching it is scored as a draw (``truncated``)."""

TIMING_FIELDS = ("seconds_a", "seconds_b")
"""Fields of :class:`GameRecord` that measure wall-clock time (not reproducible)."""


# ---------------------------------------------------------------------------
# Configurations and per-game records
# ---------------------------------------------------------------------------


def options_tuple(options: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> tuple:
    """Game options as a tuple of ``(name, value)`` pairs, sorted when given as a dict.

    A hashable form for frozen configs: ``{"size": 6}`` -> ``(("size", 6),)``.
    """
    if isinstance(options, Mapping):
        options = tuple(sorted(options.items()))
    return tuple(tuple(pair) for pair in options)


@dataclass(frozen=True)
class MatchConfig:
    """Two players, a game and how many games to play between them.

    ``players`` are player specs understood by :func:`lib.games.players.parse_player_spec`
    (plain strings, so a match pickles cheaply to a worker process or a Dask
    cluster). ``options`` are keyword options of the game's ``initial_state``,
    e.g. ``{"size": 6}``; they are stored as a sorted tuple of pairs so the
    config stays hashable. Players with a time budget (``time=``) search to
    whatever depth the clock allows, so their games are not reproducible.
    """

    game: str
    players: tuple[str, str]
    games: int = 10
    seed: int = 0
    options: Any = ()
    label: str = ""
    max_plies: int = MAX_PLIES

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", options_tuple(self.options))
        object.__setattr__(self, "players", tuple(self.players))
        if len(self.players) != 2:
            raise InputError(f"A match needs exactly two players, got {len(self.players)}.")
        if not isinstance(self.games, int) or self.games < 1:
            raise InputError(f"Number of games must be a positive integer, got {self.games!r}.")
        if not isinstance(self.seed, int) or self.seed < 0:
            raise InputError(f"Seed must be a non-negative integer, got {self.seed!r}.")
        if not isinstance(self.max_plies, int) or self.max_plies < 1:
            raise InputError(f"Ply limit must be a positive integer, got {self.max_plies!r}.")
        if not self.label:
            object.__setattr__(self, "label", f"{self.players[0]} vs {self.players[1]}")

    @property
    def option_dict(self) -> dict[str, Any]:
        """The game options as a dict (``initial_state(**option_dict)``)."""
        return dict(self.options)

    def validate(self) -> None:
        """Raise :class:`InputError` if the game, its options or a player spec is invalid."""
        spec = get_game(self.game)
        for name, value in self.options:
            allowed = spec.options.get(name)
            if allowed is None:
                raise InputError(
                    f"{spec.title} has no option {name!r}; "
                    f"its options are {', '.join(spec.options) or 'none'}."
                )
            if value not in allowed:
                raise InputError(
                    f"{spec.title} option {name}={value!r} is not allowed; "
                    f"choose one of {', '.join(map(str, allowed))}."
                )
        from lib.games.players import available_kinds, make_player, parse_player_spec

        computer_kinds = [kind for kind in available_kinds(spec) if kind != "human"]
        for player in self.players:
            config = parse_player_spec(player)
            if config.is_human:
                raise InputError("The arena plays computer players only; 'human' cannot play here.")
            if config.kind not in computer_kinds:
                raise InputError(
                    f"Unknown player kind {config.kind!r} for {spec.title}; "
                    f"choose one of {', '.join(computer_kinds)}."
                )
            make_player(config, spec)  # unknown heuristics, wrong weight counts


@dataclass(frozen=True)
class GameRecord:
    """The result of one game of a match, from player A's point of view.

    ``a_first`` tells whether A played player 0 (the side that moves first in
    Othello and checkers, Red in Sim); ``first_player`` is the player (0 or 1)
    who made the first move (Sim's ``first`` option, a coin toss included,
    decides it; see :func:`start_state`). ``result_a`` is 1 for
    a win of A, 0.5 for a draw, 0 for a loss; ``margin`` is the game's own
    score for A (e.g. the disc difference). Per-player search statistics are
    totals over the game (``nodes``, ``cutoffs``, ``seconds``, ``moves``) and
    the mean effective branching factor over the moves that searched (None
    for players that do not search, e.g. ``random``). ``moves`` is the move
    list in the game's notation, space separated, for replays.
    """

    match: int
    label: str
    game: int
    seed: int
    a_first: bool
    winner: str  # "A", "B" or "draw"
    result_a: float
    margin: float
    plies: int
    truncated: bool
    nodes_a: int
    nodes_b: int
    cutoffs_a: int
    cutoffs_b: int
    moves_a: int
    moves_b: int
    seconds_a: float
    seconds_b: float
    ebf_a: float | None
    ebf_b: float | None
    moves: str
    first_player: int = 0

    def reproducible(self) -> tuple:
        """Every field except wall-clock times: equal for equal seeds on any executor."""
        return tuple(getattr(self, f.name) for f in fields(self) if f.name not in TIMING_FIELDS)


def game_seed(seed: int, game_index: int) -> np.random.SeedSequence:
    """The seed sequence of game ``game_index`` of a match seeded with ``seed``."""
    return np.random.SeedSequence(seed, spawn_key=(game_index,))


def start_state(match: MatchConfig, game_index: int) -> Any:
    """The starting position of game ``game_index`` of ``match``.

    A game whose ``initial_state`` takes a ``seed`` (Sim, whose ``first``
    option may be a coin toss) gets one derived from :func:`game_seed`, so the
    toss, like everything else in the game, is a function of the seed and the
    game's number (a replay starts with the same player).
    """
    spec = get_game(match.game)
    options = match.option_dict
    if "seed" in inspect.signature(spec.initial_state).parameters and "seed" not in options:
        options["seed"] = int(game_seed(match.seed, game_index).generate_state(1)[0])
    return spec.initial_state(**options)


def play_game(
    match: MatchConfig,
    game_index: int,
    match_index: int = 0,
    on_move: Callable[[int, str], None] | None = None,
) -> GameRecord:
    """Play game ``game_index`` of ``match`` and return its record.

    A pure function of its arguments (apart from the measured seconds): the
    two players' generators are spawned from :func:`game_seed`. Player A
    moves first when ``game_index`` is even. ``on_move(plies, move)`` is
    called after each move (progress for a long game played on its own).
    """
    from lib.games.players import make_player, parse_player_spec

    spec = get_game(match.game)
    rng_a, rng_b = (np.random.default_rng(s) for s in game_seed(match.seed, game_index).spawn(2))
    player_a = make_player(parse_player_spec(match.players[0]), spec)
    player_b = make_player(parse_player_spec(match.players[1]), spec)
    a_first = game_index % 2 == 0
    a_colour = 0 if a_first else 1
    # per side: nodes, cutoffs, moves, seconds, ebf values
    totals = {side: [0, 0, 0, 0.0, []] for side in "ab"}
    state = start_state(match, game_index)
    first_player = int(state.to_move)
    moves: list[str] = []
    truncated = False
    while not state.is_terminal():
        if len(moves) >= match.max_plies:
            truncated = True
            break
        side = "a" if state.to_move == a_colour else "b"
        player, rng = (player_a, rng_a) if side == "a" else (player_b, rng_b)
        start = time.perf_counter()
        decision = player.choose(state, rng)
        elapsed = time.perf_counter() - start
        total = totals[side]
        total[2] += 1
        total[3] += elapsed
        stats = decision.stats
        if stats is not None:
            total[0] += int(stats.nodes)
            total[1] += int(getattr(stats, "cutoffs", 0) or 0)
            ebf = getattr(stats, "ebf", None)
            if ebf is not None and math.isfinite(ebf) and ebf > 0:
                total[4].append(float(ebf))
        moves.append(spec.format_move(decision.move))
        state = state.play(decision.move)
        if on_move is not None:
            on_move(len(moves), moves[-1])
    winner_colour = None if truncated else state.winner()
    if winner_colour is None:
        winner, result_a = "draw", 0.5
    elif winner_colour == a_colour:
        winner, result_a = "A", 1.0
    else:
        winner, result_a = "B", 0.0
    a, b = totals["a"], totals["b"]
    return GameRecord(
        match=match_index,
        label=match.label,
        game=game_index,
        seed=match.seed,
        a_first=a_first,
        winner=winner,
        result_a=result_a,
        margin=float(state.score(a_colour)),
        plies=len(moves),
        truncated=truncated,
        nodes_a=a[0],
        nodes_b=b[0],
        cutoffs_a=a[1],
        cutoffs_b=b[1],
        moves_a=a[2],
        moves_b=b[2],
        seconds_a=a[3],
        seconds_b=b[3],
        ebf_a=float(np.mean(a[4])) if a[4] else None,
        ebf_b=float(np.mean(b[4])) if b[4] else None,
        moves=" ".join(moves),
        first_player=first_player,
    )


def _play_task(match: MatchConfig, game_index: int, match_index: int) -> GameRecord:
    """Module-level task wrapper (picklable for process pools and Dask)."""
    return play_game(match, game_index, match_index)


# ---------------------------------------------------------------------------
# Executors
# ---------------------------------------------------------------------------


class InlineExecutor(Executor):
    """An executor that runs each task in the calling thread when it is submitted.

    For small runs and for Streamlit pages (no extra processes on a shared
    server). The returned future is already finished.
    """

    def __init__(self) -> None:
        self._shutdown = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        """Run ``fn(*args, **kwargs)`` now; return a finished future holding its result."""
        if self._shutdown:
            raise RuntimeError("cannot schedule new futures after shutdown")
        future: Future = Future()
        try:
            result = fn(*args, **kwargs)
        except Exception as error:  # handed to the future, as any executor does
            future.set_exception(error)
        else:
            future.set_result(result)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Refuse further tasks (nothing runs in the background, so nothing to wait for)."""
        self._shutdown = True


EXECUTOR_KINDS = ("inline", "process", "dask")
"""Executors :func:`open_executor` can build."""


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A local process pool that is safe to start from a threaded server.

    Uses the ``forkserver`` start method where available (``spawn`` elsewhere)
    rather than forking a process that runs threads (Streamlit, Dask).
    """
    methods = multiprocessing.get_all_start_methods()
    method = "forkserver" if "forkserver" in methods else "spawn"
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method))


@contextlib.contextmanager
def open_executor(
    kind: str = "inline", workers: int | None = None, scheduler: str | None = None
) -> Iterator[Executor]:
    """Yield an executor of ``kind`` and shut it down afterwards.

    ``"inline"`` runs games in this process, ``"process"`` in a local pool of
    ``workers`` processes (default: the CPU count), ``"dask"`` on the Dask
    distributed scheduler at ``scheduler`` (``"tcp://host:8786"``) through
    ``Client(scheduler).get_executor()``. Pending games are cancelled on exit.
    """
    if kind not in EXECUTOR_KINDS:
        raise InputError(f"Unknown executor {kind!r}; choose one of {', '.join(EXECUTOR_KINDS)}.")
    if kind == "inline":
        yield InlineExecutor()
        return
    if kind == "process":
        workers = workers or os.cpu_count() or 1
        if workers < 1:
            raise InputError(f"Number of workers must be at least 1, got {workers}.")
        pool = process_pool(workers)
        try:
            yield pool
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        return
    if not scheduler:
        raise InputError("The Dask executor needs a scheduler address, e.g. tcp://127.0.0.1:8786.")
    from dask.distributed import Client

    try:
        client = Client(scheduler, timeout=10, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise InputError(
            f"Could not connect to the Dask scheduler at {scheduler!r} ({error}); "
            "check the address (e.g. tcp://127.0.0.1:8786) and that the scheduler runs."
        ) from error
    executor = client.get_executor(pure=False)
    try:
        yield executor
    except RuntimeError as error:
        if "deserializ" not in str(error):
            raise
        raise InputError(
            f"The Dask cluster at {scheduler!r} cannot import this project's code: start the "
            "scheduler and the workers with the repository on PYTHONPATH."
        ) from error
    finally:
        executor.shutdown(wait=False)
        client.close()


def default_in_flight(executor: Executor) -> int:
    """How many tasks to keep submitted at once on ``executor``.

    One for an :class:`InlineExecutor` (it runs on submit, so the caller sees
    every game finish), otherwise twice the worker count (the pool's, the Dask
    cluster's, or the CPU count), enough to keep workers busy while letting a
    cancel stop the run quickly.
    """
    if isinstance(executor, InlineExecutor):
        return 1
    workers = getattr(executor, "_max_workers", None)
    client = getattr(executor, "_client", None)
    if client is not None:
        with contextlib.suppress(Exception):
            workers = sum(w["nthreads"] for w in client.scheduler_info()["workers"].values())
    return 2 * max(1, int(workers or os.cpu_count() or 1))


def run_tasks(
    function: Callable[..., Any],
    tasks: Sequence[tuple],
    executor: Executor,
    *,
    on_result: Callable[[int, Any], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    max_in_flight: int | None = None,
) -> tuple[dict[int, Any], bool]:
    """Run ``function(*task)`` for every task on ``executor``, at most ``max_in_flight`` at once.

    ``on_result(index, result)`` is called in the calling thread as each task
    finishes (in completion order). ``should_stop()`` is polled after each
    finished task; when it returns True, pending tasks are cancelled. If the
    caller is interrupted (an exception from a callback, ``KeyboardInterrupt``)
    the pending tasks are cancelled and the exception propagates; the results
    already passed to ``on_result`` are the partial result.

    Returns ``(results by task index, completed)``.
    """
    if max_in_flight is None:
        max_in_flight = default_in_flight(executor)
    results: dict[int, Any] = {}
    pending: dict[Future, int] = {}
    queue = iter(enumerate(tasks))
    stopped = False

    def top_up() -> None:
        while len(pending) < max_in_flight:
            item = next(queue, None)
            if item is None:
                return
            index, task = item
            pending[executor.submit(function, *task)] = index

    try:
        top_up()
        while pending:
            finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for future in finished:
                index = pending.pop(future)
                results[index] = future.result()
                if on_result is not None:
                    on_result(index, results[index])
            if should_stop is not None and should_stop():
                stopped = True
                break
            top_up()
    finally:
        for future in pending:
            future.cancel()
    return results, not stopped and len(results) == len(tasks)


# ---------------------------------------------------------------------------
# Tournaments and summaries
# ---------------------------------------------------------------------------


@dataclass
class TournamentResult:
    """The games played so far in a tournament (all of them unless ``cancelled``)."""

    matches: tuple[MatchConfig, ...]
    records: list[GameRecord] = field(default_factory=list)
    cancelled: bool = False

    def games_table(self, timings: bool = True) -> pd.DataFrame:
        """One row per game (see :func:`games_table`)."""
        return games_table(self.records, timings=timings)

    def summary(self) -> pd.DataFrame:
        """One row per match (see :func:`summarize`)."""
        return summarize(self.records, self.matches)


def tournament_tasks(
    matches: Sequence[MatchConfig], done: Iterable[tuple[int, int]] = ()
) -> list[tuple[MatchConfig, int, int]]:
    """The ``(match, game index, match index)`` tasks of a tournament, minus those ``done``.

    Tasks interleave the matches (game 0 of every match, then game 1 ...) so a
    cancelled run has results for every match.
    """
    skip = set(done)
    longest = max((m.games for m in matches), default=0)
    return [
        (match, game, index)
        for game in range(longest)
        for index, match in enumerate(matches)
        if game < match.games and (index, game) not in skip
    ]


def run_tournament(
    matches: Sequence[MatchConfig],
    executor: Executor | None = None,
    *,
    on_game: Callable[[GameRecord, int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    previous: Sequence[GameRecord] = (),
    max_in_flight: int | None = None,
) -> TournamentResult:
    """Play every game of every match on ``executor`` (in-process if None).

    ``on_game(record, done, total)`` is called after each finished game.
    ``should_stop()`` (polled after each game) cancels the rest: the result
    then holds the games finished so far and ``cancelled`` is True.
    ``previous`` records (e.g. of a cancelled run of the same matches) are
    kept and their games are not played again, so a run can be resumed.
    Records are returned sorted by (match, game), whatever the order in
    which the executor finished them.
    """
    matches = tuple(matches)
    if not matches:
        raise InputError("A tournament needs at least one match.")
    for match in matches:
        match.validate()
    records = {(r.match, r.game): r for r in previous}
    tasks = tournament_tasks(matches, records)
    total = sum(m.games for m in matches)

    def collect(_: int, record: GameRecord) -> None:
        records[(record.match, record.game)] = record
        if on_game is not None:
            on_game(record, len(records), total)

    _, completed = run_tasks(
        _play_task,
        tasks,
        executor if executor is not None else InlineExecutor(),
        on_result=collect,
        should_stop=should_stop,
        max_in_flight=max_in_flight,
    )
    ordered = [records[key] for key in sorted(records)]
    return TournamentResult(matches, ordered, cancelled=not completed)


def player_pairs(
    players: Sequence[str], opponent: str | None = None, round_robin: bool = False
) -> list[tuple[str, str]]:
    """The (A, B) pairs of a study: each player against ``opponent``, or a round robin.

    With ``round_robin`` every pair of ``players`` (and ``opponent``, if given)
    plays once, in the order given; otherwise each player meets ``opponent``.

    >>> player_pairs(["a", "b"], "r")
    [('a', 'r'), ('b', 'r')]
    >>> player_pairs(["a", "b"], "r", round_robin=True)
    [('a', 'b'), ('a', 'r'), ('b', 'r')]
    """
    players = [p.strip() for p in players if p.strip()]
    opponent = opponent.strip() if opponent else None
    if round_robin:
        everyone = [*players, opponent] if opponent else players
        return [(a, b) for i, a in enumerate(everyone) for b in everyone[i + 1 :]]
    if opponent is None:
        raise InputError("Give an opponent for the players, or choose a round robin.")
    return [(a, opponent) for a in players]


def grid_matches(
    game: str,
    *,
    depths: Sequence[int],
    algorithms: Sequence[str] = ("minimax", "alphabeta"),
    orderings: Sequence[bool] = (False,),
    heuristics: Sequence[str | None] = (None,),
    opponent: str = "random",
    games: int = 10,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    max_plies: int = MAX_PLIES,
) -> list[MatchConfig]:
    """A tournament over depth × algorithm × move ordering × heuristic, each vs ``opponent``.

    Alpha-beta players run without a transposition table so that ordering is
    the only difference between the ordering settings; ordering does not
    apply to minimax (one minimax player per depth and heuristic).

    >>> [m.label for m in grid_matches("othello", depths=[2], orderings=[False, True])]
    ['minimax d2 vs random', 'alphabeta d2 vs random', 'alphabeta d2 ordered vs random']
    """
    from lib.games.players import PlayerConfig

    matches = []
    for depth in depths:
        for heuristic in heuristics:
            for algorithm in algorithms:
                for ordering in orderings if algorithm == "alphabeta" else (False,):
                    extra = (
                        {"ordering": bool(ordering), "transposition": False}
                        if algorithm == "alphabeta"
                        else {}
                    )
                    config = PlayerConfig(
                        kind=algorithm, depth=int(depth), heuristic=heuristic or None, **extra
                    )
                    label = f"{algorithm} d{depth}" + (" ordered" if ordering else "")
                    label += f" {heuristic}" if heuristic else ""
                    matches.append(
                        MatchConfig(
                            game,
                            (config.to_spec(), opponent),
                            games=games,
                            seed=seed,
                            options=options or {},
                            label=f"{label} vs {opponent}",
                            max_plies=max_plies,
                        )
                    )
    if not matches:
        raise InputError("The grid is empty: choose at least one depth, algorithm and heuristic.")
    return matches


def pair_matches(
    game: str,
    pairs: Sequence[tuple[str, str]],
    *,
    games: int = 10,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    max_plies: int = MAX_PLIES,
) -> list[MatchConfig]:
    """One match per (A, B) pair of ``pairs`` (see :func:`player_pairs`), same settings each.

    >>> [m.label for m in pair_matches("othello", [("greedy", "random")], games=2)]
    ['greedy vs random']
    """
    return [
        MatchConfig(game, pair, games=games, seed=seed, options=options or {}, max_plies=max_plies)
        for pair in pairs
    ]


def partition_matches(
    matches: Iterable[MatchConfig], allowed: Callable[[MatchConfig], bool]
) -> tuple[list[MatchConfig], list[MatchConfig]]:
    """Split ``matches`` into those ``allowed`` keeps and those it leaves out (order kept).

    >>> matches = grid_matches("othello", depths=[1, 3], algorithms=["alphabeta"])
    >>> kept, out = partition_matches(matches, lambda m: "d3" not in m.label)
    >>> [m.label for m in kept], [m.label for m in out]
    (['alphabeta d1 vs random'], ['alphabeta d3 vs random'])
    """
    kept: list[MatchConfig] = []
    left_out: list[MatchConfig] = []
    for match in matches:
        (kept if allowed(match) else left_out).append(match)
    return kept, left_out


def replay_label(record: GameRecord) -> str:
    """How a finished game is named in the list of games to replay.

    The game number is the record's own (from 0), as in the per-game table and CSV.
    """
    return f"{record.label} · game {record.game} · winner {record.winner}"


REPLAY_LINK_PARAMS = ("replay", "r_a", "r_b", "r_seed", "r_game", "r_first", "r_plies", "r_label")
"""URL parameters of a shared replay; game options add ``o_<option>`` (e.g. ``o_size``).

The ``r_`` prefix keeps them apart from the Arena study form's own ``seed`` / ``games``.
"""

MAX_LINK_GAME = 10**9
"""Highest game number a replay link may name."""


def replay_blocker(match: MatchConfig) -> str | None:
    """Why the games of ``match`` cannot be reproduced from a link (None if they can).

    A player with a time budget searches as deep as the clock allows, so its
    moves depend on the machine's speed and load, not only on the seed.
    """
    from lib.games.players import parse_player_spec

    for spec in match.players:
        if parse_player_spec(spec).time_limit is not None:
            return (
                f"{spec} plays with a time budget, so its moves depend on the machine's "
                "speed: the game cannot be replayed from a link."
            )
    return None


def replay_link_params(record: GameRecord, match: MatchConfig) -> dict[str, str]:
    """URL parameters from which :func:`replay_from_link` reproduces ``record``.

    The game is reproduced from the players, the seed and the game's number
    (which decide the colours, Sim's coin toss and every random choice);
    ``r_first`` is the player who moved first, checked on arrival. No moves are
    stored in the link. Raises :class:`InputError` for a match with a time
    budget (see :func:`replay_blocker`).
    """
    blocker = replay_blocker(match)
    if blocker:
        raise InputError(blocker)
    params = {
        "replay": match.game,
        "r_a": match.players[0],
        "r_b": match.players[1],
        "r_seed": str(match.seed),
        "r_game": str(record.game),
        "r_first": str(record.first_player),
    }
    params.update({f"o_{name}": str(value) for name, value in match.options})
    if match.max_plies != MAX_PLIES:
        params["r_plies"] = str(match.max_plies)
    if match.label != f"{match.players[0]} vs {match.players[1]}":
        params["r_label"] = match.label
    return params


def _link_int(params: Mapping[str, str], name: str, low: int, high: int) -> int | None:
    text = params.get(name)
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"The replay link's {name}={text!r} is not a whole number.") from None
    if not low <= value <= high:
        raise InputError(f"The replay link's {name}={value} is outside {low}–{high}.")
    return value


def replay_from_link(params: Mapping[str, str]) -> tuple[MatchConfig, int, int | None]:
    """The match, the game number and the recorded first player of a replay link.

    ``params`` are the URL parameters written by :func:`replay_link_params`.
    Raises :class:`InputError` naming the parameter that is missing or wrong
    (unknown game or option value, invalid player spec, number out of range).
    """
    from lib.games.core import available_games

    game = params.get("replay", "")
    games = available_games()
    if game not in games:
        raise InputError(f"The replay link's game {game!r} is not one of {', '.join(games)}.")
    spec = games[game]
    missing = [name for name in ("r_a", "r_b", "r_seed", "r_game") if not params.get(name)]
    if missing:
        raise InputError(f"The replay link lacks {', '.join(missing)}.")
    options: dict[str, Any] = {}
    for name, allowed in spec.options.items():
        text = params.get(f"o_{name}")
        if text is None:
            continue
        chosen = [value for value in allowed if str(value) == text]
        if not chosen:
            raise InputError(
                f"The replay link's o_{name}={text!r} is not one of {', '.join(map(str, allowed))}."
            )
        options[name] = chosen[0]
    seed = _link_int(params, "r_seed", 0, 2**63 - 1)
    number = _link_int(params, "r_game", 0, MAX_LINK_GAME)
    plies = _link_int(params, "r_plies", 1, MAX_PLIES)
    starts = _link_int(params, "r_first", 0, 1)
    match = MatchConfig(
        game,
        (params["r_a"], params["r_b"]),
        games=1,
        seed=seed or 0,
        options=options,
        label=params.get("r_label", "")[:120],
        max_plies=plies or MAX_PLIES,
    )
    match.validate()
    blocker = replay_blocker(match)
    if blocker:
        raise InputError(blocker)
    return match, number or 0, starts


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion ``successes / n``.

    Better than the normal approximation for small ``n`` and for rates near 0
    or 1 (it never leaves [0, 1]). Computed by SciPy
    (``binomtest(...).proportion_ci(method="wilson")``); ``(0, 1)`` when ``n == 0``.

    >>> tuple(round(x, 4) for x in wilson_interval(8, 10))
    (0.4902, 0.9433)
    """
    if n < 0 or successes < 0 or successes > n:
        raise InputError(f"Need 0 <= successes <= n, got {successes} of {n}.")
    if not 0 < confidence < 1:
        raise InputError(f"Confidence must be between 0 and 1, got {confidence}.")
    if n == 0:
        return 0.0, 1.0
    interval = binomtest(successes, n).proportion_ci(confidence_level=confidence, method="wilson")
    return float(interval.low), float(interval.high)


GAME_COLUMNS = [f.name for f in fields(GameRecord)]

SUMMARY_COLUMNS = [
    "match",
    "label",
    "player_a",
    "player_b",
    "games",
    "wins",
    "draws",
    "losses",
    "win_pct",
    "win_ci_low",
    "win_ci_high",
    "draw_pct",
    "loss_pct",
    "score_pct",
    "mean_margin",
    "plies_per_game",
    "nodes_per_game",
    "seconds_per_game",
    "seconds_per_move",
    "ebf",
    "b_nodes_per_game",
    "b_seconds_per_move",
    "b_ebf",
]
"""Columns of :func:`summarize`; statistics without a suffix are player A's."""


def games_table(records: Iterable[GameRecord], timings: bool = True) -> pd.DataFrame:
    """The per-game records as a table, one row per game, sorted by (match, game).

    With ``timings=False`` the wall-clock columns are left out, so the table
    (and its CSV) is identical for the same seeds on every executor.
    """
    rows = sorted((asdict(r) for r in records), key=lambda row: (row["match"], row["game"]))
    table = pd.DataFrame(rows, columns=GAME_COLUMNS)
    if not timings:
        table = table.drop(columns=list(TIMING_FIELDS))
    return table


def _mean(values: Sequence[float | None]) -> float:
    present = [v for v in values if v is not None and not math.isnan(v)]
    return float(np.mean(present)) if present else math.nan


def summarize(
    records: Iterable[GameRecord], matches: Sequence[MatchConfig] | None = None
) -> pd.DataFrame:
    """One row per match: win/draw/loss % of player A with a 95 % Wilson interval on wins.

    Per-game means (``nodes_per_game``, ``seconds_per_game``, ``plies_per_game``,
    ``mean_margin``) average over the games; ``seconds_per_move`` is A's total
    thinking time over A's total moves; ``ebf`` averages the per-game mean EBF
    of A (NaN for players that do not search). The ``b_`` columns are the same
    for player B. Percentages are 0–100. Matches without games are left out.
    """
    by_match: dict[int, list[GameRecord]] = {}
    for record in records:
        by_match.setdefault(record.match, []).append(record)
    rows = []
    for index in sorted(by_match):
        games = by_match[index]
        n = len(games)
        wins = sum(g.winner == "A" for g in games)
        draws = sum(g.winner == "draw" for g in games)
        losses = n - wins - draws
        low, high = wilson_interval(wins, n)
        match = matches[index] if matches is not None else None
        player_a, player_b = match.players if match else (None, None)
        moves_a = sum(g.moves_a for g in games)
        moves_b = sum(g.moves_b for g in games)
        rows.append(
            {
                "match": index,
                "label": games[0].label,
                "player_a": player_a,
                "player_b": player_b,
                "games": n,
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "win_pct": 100 * wins / n,
                "win_ci_low": 100 * low,
                "win_ci_high": 100 * high,
                "draw_pct": 100 * draws / n,
                "loss_pct": 100 * losses / n,
                "score_pct": 100 * (wins + 0.5 * draws) / n,
                "mean_margin": float(np.mean([g.margin for g in games])),
                "plies_per_game": float(np.mean([g.plies for g in games])),
                "nodes_per_game": float(np.mean([g.nodes_a for g in games])),
                "seconds_per_game": float(np.mean([g.seconds_a for g in games])),
                "seconds_per_move": (
                    sum(g.seconds_a for g in games) / moves_a if moves_a else math.nan
                ),
                "ebf": _mean([g.ebf_a for g in games]),
                "b_nodes_per_game": float(np.mean([g.nodes_b for g in games])),
                "b_seconds_per_move": (
                    sum(g.seconds_b for g in games) / moves_b if moves_b else math.nan
                ),
                "b_ebf": _mean([g.ebf_b for g in games]),
            }
        )
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


# ---------------------------------------------------------------------------
# Presets: the course's experiments
# ---------------------------------------------------------------------------


def spec_depth(spec: str) -> int | None:
    """The search depth of a player spec (None for players that do not search)."""
    from lib.games.players import SEARCH_KINDS, parse_player_spec

    config = parse_player_spec(spec)
    return config.depth if config.kind in SEARCH_KINDS else None


@dataclass(frozen=True)
class Preset:
    """A ready-made study reproducing one of the course's tables.

    ``pairs`` are ``(label, spec A, spec B)``; ``games`` is the course's number
    of games per match. "Without pruning" is minimax; "with pruning" is plain
    alpha-beta (no move ordering, no transposition table) so that only pruning
    differs.
    """

    key: str
    title: str
    description: str
    game: str
    options: tuple[tuple[str, Any], ...]
    pairs: tuple[tuple[str, str, str], ...]
    games: int

    def matches(
        self, games: int | None = None, seed: int = 0, max_depth: int | None = None
    ) -> list[MatchConfig]:
        """The preset's matches, ``games`` each, without players deeper than ``max_depth``."""
        chosen = []
        for label, a, b in self.pairs:
            depths = [d for d in (spec_depth(a), spec_depth(b)) if d is not None]
            if max_depth is not None and any(d > max_depth for d in depths):
                continue
            chosen.append(
                MatchConfig(
                    self.game,
                    (a, b),
                    games=games or self.games,
                    seed=seed,
                    options=self.options,
                    label=label,
                )
            )
        return chosen


_PLAIN_AB = "alphabeta:depth={d},ordering=false,tt=false"


def _pruning_pairs(depths: Sequence[int], minimax_depths: Sequence[int]) -> tuple:
    pairs = []
    for d in depths:
        if d in minimax_depths:
            pairs.append((f"minimax d{d} vs random", f"minimax:depth={d}", "random"))
        pairs.append((f"alpha-beta d{d} vs random", _PLAIN_AB.format(d=d), "random"))
    return tuple(pairs)


PRESETS: dict[str, Preset] = {
    p.key: p
    for p in (
        Preset(
            "othello_depth3",
            "Othello 6x6: alpha-beta depth 3 vs random",
            "The smallest study (and the benchmark's workload): alpha-beta at depth 3 "
            "with move ordering and a transposition table against a random player.",
            "othello",
            (("size", 6),),
            (("alpha-beta d3 vs random", "alphabeta:depth=3", "random"),),
            150,
        ),
        Preset(
            "othello_pruning",
            "Othello 6x6: depths 1/3/5/7 with and without pruning vs random",
            "The course's first table: win %, nodes and time per game of minimax (no "
            "pruning) and alpha-beta (pruning only) at each depth, 150 games each. "
            "Minimax at depth 7 takes tens of seconds per game.",
            "othello",
            (("size", 6),),
            _pruning_pairs((1, 3, 5, 7), (1, 3, 5, 7)),
            150,
        ),
        Preset(
            "checkers_pruning",
            "Checkers: minimax vs alpha-beta vs random at depths 3 and 4",
            "Minimax and alpha-beta each against random, and against each other, at "
            "depths 3 and 4 (the strong evaluation).",
            "checkers",
            (),
            tuple(
                pair
                for d in (3, 4)
                for pair in (
                    (f"minimax d{d} vs random", f"minimax:depth={d}", "random"),
                    (f"alpha-beta d{d} vs random", _PLAIN_AB.format(d=d), "random"),
                    (
                        f"alpha-beta d{d} vs minimax d{d}",
                        _PLAIN_AB.format(d=d),
                        f"minimax:depth={d}",
                    ),
                )
            ),
            150,
        ),
        Preset(
            "sim_pruning",
            "Sim: depths 1/3/5/7 with and without pruning vs random",
            "The Sim table: minimax and alpha-beta against random. Minimax at depth 7 "
            "(about 30 million nodes for the first move) is left out; run it from the "
            "command line if you have the hours.",
            "sim",
            (),
            _pruning_pairs((1, 3, 5, 7), (1, 3, 5)),
            150,
        ),
        Preset(
            "othello_ordering",
            "Othello 6x6: move ordering on/off (EBF)",
            "Alpha-beta at depths 3 and 5 with and without move ordering (no "
            "transposition table), against random: same moves' quality, fewer nodes, a "
            "smaller effective branching factor with ordering.",
            "othello",
            (("size", 6),),
            tuple(
                pair
                for d in (3, 5)
                for pair in (
                    (f"d{d} ordering off", _PLAIN_AB.format(d=d), "random"),
                    (f"d{d} ordering on", f"alphabeta:depth={d},tt=false", "random"),
                )
            ),
            150,
        ),
        Preset(
            "othello_evaluation",
            "Othello 6x6: simple vs improved evaluation",
            "Alpha-beta depth 3 with the simple disc count against the square-table "
            "evaluation: head to head, and each against random.",
            "othello",
            (("size", 6),),
            (
                (
                    "table vs discs",
                    "alphabeta:depth=3,heuristic=table",
                    "alphabeta:depth=3,heuristic=discs",
                ),
                ("discs vs random", "alphabeta:depth=3,heuristic=discs", "random"),
                ("table vs random", "alphabeta:depth=3,heuristic=table", "random"),
            ),
            150,
        ),
        Preset(
            "checkers_evaluation",
            "Checkers: simple vs improved evaluation",
            "Alpha-beta depth 4 with the course's evaluation (pieces and mobility) against "
            "the strong one (men, kings, back row, centre, advancement).",
            "checkers",
            (),
            (
                (
                    "strong vs course",
                    "alphabeta:depth=4,heuristic=strong",
                    "alphabeta:depth=4,heuristic=course",
                ),
                ("course vs random", "alphabeta:depth=4,heuristic=course", "random"),
                ("strong vs random", "alphabeta:depth=4,heuristic=strong", "random"),
            ),
            150,
        ),
    )
}
"""The course's studies by key (games missing from the engine are skipped by the page)."""


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m lib.games.arena",
        description=(
            "Play AI-vs-AI games and print a summary table. With two players, one match; "
            "with more, a round robin of every pair. Colours alternate game by game."
        ),
    )
    parser.add_argument("--game", default="othello", help="game name (default: othello)")
    parser.add_argument("--size", type=int, default=None, help="board size, if the game has one")
    parser.add_argument(
        "--first",
        default=None,
        help="who moves first, if the game has that option (Sim: red, blue, or random for a "
        "coin toss per game drawn from the seed)",
    )
    parser.add_argument(
        "--preset",
        choices=sorted(PRESETS),
        help="run one of the course's studies instead of --players (--game/--size ignored)",
    )
    parser.add_argument(
        "--players",
        nargs="+",
        metavar="SPEC",
        help='player specs, e.g. "alphabeta:depth=5" "random"',
    )
    parser.add_argument(
        "--games", type=int, default=None, help="games per match (default: 10, or the preset's)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed (default: 0)")
    parser.add_argument("--max-plies", type=int, default=MAX_PLIES, help="ply limit per game")
    parser.add_argument(
        "--max-depth", type=int, default=None, help="with --preset: leave out deeper players"
    )
    parser.add_argument("--csv", metavar="FILE", help="write the per-game table to FILE")
    parser.add_argument(
        "--timings",
        action="store_true",
        help="include wall-clock seconds in the CSV (then it differs from run to run)",
    )
    parser.add_argument("--summary-csv", metavar="FILE", help="write the summary table to FILE")
    parser.add_argument(
        "--workers", type=int, default=1, help="local worker processes (default 1: in-process)"
    )
    parser.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://10.0.0.5:8786")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return parser.parse_args(argv)


def cli_matches(args: argparse.Namespace) -> list[MatchConfig]:
    """The matches described by the command-line arguments."""
    if args.preset:
        return PRESETS[args.preset].matches(args.games, args.seed, args.max_depth)
    players = list(args.players or [])
    if len(players) < 2:
        raise InputError("Give at least two --players, e.g. --players alphabeta:depth=3 random.")
    options: dict[str, Any] = {"size": args.size} if args.size is not None else {}
    if args.first is not None:
        options["first"] = args.first
    pairs = player_pairs(players, round_robin=True)
    return [
        MatchConfig(
            args.game,
            pair,
            games=10 if args.games is None else args.games,
            seed=args.seed,
            options=options,
            max_plies=args.max_plies,
        )
        for pair in pairs
    ]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m lib.games.arena``; returns the exit status."""
    args = _parse_args(argv)
    try:
        matches = cli_matches(args)
        if args.scheduler:
            kind = "dask"
        elif args.workers > 1:
            kind = "process"
        elif args.workers == 1:
            kind = "inline"
        else:
            raise InputError(f"--workers must be at least 1, got {args.workers}.")

        def progress(record: GameRecord, done: int, total: int) -> None:
            if not args.quiet:
                print(f"\r{done}/{total} games", end="", file=sys.stderr, flush=True)

        with open_executor(kind, workers=args.workers, scheduler=args.scheduler) as executor:
            result = run_tournament(matches, executor, on_game=progress)
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if not args.quiet:
        print(file=sys.stderr)
    summary = result.summary()
    shown = summary.drop(columns=["match", "player_a", "player_b"])
    with pd.option_context("display.width", 200, "display.max_columns", None):
        print(shown.to_string(index=False, float_format=lambda x: f"{x:.4g}"))
    if args.csv:
        with open(args.csv, "wb") as file:
            file.write(safe_csv_bytes(result.games_table(timings=args.timings)))
    if args.summary_csv:
        with open(args.summary_csv, "wb") as file:
            file.write(safe_csv_bytes(summary))
    return 0


if __name__ == "__main__":
    # Re-import under the package name so tasks pickle as lib.games.arena.* (not __main__.*),
    # which worker processes and Dask workers can import.
    from lib.games.arena import main as _main

    sys.exit(_main())
