"""Tournaments: many matches played on an executor, and the helpers that build a study.

A **tournament** is a list of :class:`~lib.games.arena.match.MatchConfig`;
:func:`run_tournament` plays every game of every match on any executor (see
:mod:`lib.games.arena.executors`), can be cancelled and resumed, and returns a
:class:`TournamentResult` whose records are the same for the same seeds on
every executor. :func:`player_pairs`, :func:`grid_matches`, :func:`pair_matches`
and :func:`partition_matches` build the studies the Arena page and the CLI offer.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from lib.errors import InputError
from lib.games.arena.executors import InlineExecutor, run_tasks
from lib.games.arena.match import MAX_PLIES, GameRecord, MatchConfig, play_game, play_task
from lib.games.arena.stats import games_table, summarize


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
    on_move: Callable[[int, str], None] | None = None,
) -> TournamentResult:
    """Play every game of every match on ``executor`` (in-process if None).

    ``on_game(record, done, total)`` is called after each finished game.
    ``on_move(plies, move)`` is called after each move of a game played in this
    process (an :class:`InlineExecutor`; other executors' games run elsewhere): an
    exception it raises stops the run in the middle of that game.
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

    executor = executor if executor is not None else InlineExecutor()
    play = play_task
    if on_move is not None and isinstance(executor, InlineExecutor):
        play = functools.partial(play_game, on_move=on_move)  # same arguments as play_task
    _, completed = run_tasks(
        play,
        tasks,
        executor,
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
    from lib.games.search.players import PlayerConfig

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
