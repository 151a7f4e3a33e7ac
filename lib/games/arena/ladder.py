"""The strength ladder: which player is strongest at the same time per move?

A ladder (:class:`LadderConfig`) takes a game's roster of players (by default
:func:`ladder_players`: random, greedy, alpha-beta with each of the game's
heuristics and, where the game has it, Monte Carlo tree search), gives every
searching player the same time budget per move, and plays a round robin:
every pair meets in one match of ``games_per_pair`` games, colours alternating
game by game (player A moves first in the even-numbered games, see
:mod:`lib.games.arena.match`). The matches run through
:func:`~lib.games.arena.tournament.run_tournament`, so on any executor (this
process, a process pool, Dask); :func:`ladder_table` fits Bradley–Terry
ratings to the results (:mod:`lib.games.arena.rating`) and ranks the players.

Random plays instantly and greedy looks one ply ahead whatever the budget:
they are the ladder's baselines. With a time budget the games are not
reproducible (the depth reached depends on the machine's load), only the
schedule and the players' random choices are seeded.

>>> config = LadderConfig("tictactoe", games_per_pair=2)
>>> config.roster()[:2]
('random', 'greedy')
>>> len(config.matches()) == len(config.roster()) * (len(config.roster()) - 1) // 2
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import pandas as pd

from lib.errors import InputError
from lib.games.arena.match import MAX_PLIES, GameRecord, MatchConfig, start_state
from lib.games.arena.options import options_tuple
from lib.games.arena.rating import PRIOR_SD, fit_ratings
from lib.games.arena.tournament import TournamentResult, pair_matches, player_pairs, run_tournament
from lib.games.core import get_game

DEFAULT_TIME = 0.2
"""Default time budget per move, in seconds."""

DEFAULT_GAMES_PER_PAIR = 2
"""Default games per pair: each pair plays both colours once (a few minutes for Othello)."""

MCTS_KIND = "mcts"
"""The player kind of Monte Carlo tree search; in the roster when the game offers it."""

LADDER_COLUMNS = [
    "rank",
    "player",
    "spec",
    "rating",
    "ci_low",
    "ci_high",
    "games",
    "wins",
    "draws",
    "losses",
    "score_pct",
    "seconds_per_move",
]
"""Columns of :func:`ladder_table`: ``rating`` and its interval in Elo, ``score_pct`` 0–100."""


def ladder_players(game: str, time_per_move: float = DEFAULT_TIME, depth: int = 12) -> list[str]:
    """The default roster of ``game``: its baselines and every searcher at ``time_per_move``.

    Random and greedy (one ply, the game's default heuristic); alpha-beta with
    each of the game's heuristics, deepening iteratively up to ``depth`` until
    the budget is spent; MCTS with the same budget if the game has the kind.

    >>> ladder_players("tictactoe", 0.5)
    ['random', 'greedy', 'alphabeta:depth=12,heuristic=lines,time=0.5', \
'alphabeta:depth=12,heuristic=open lines,time=0.5', 'mcts:time=0.5']
    """
    from lib.games.search.players import PlayerConfig, available_kinds

    spec = get_game(game)
    players = ["random", "greedy"]
    for heuristic in spec.heuristics:
        config = PlayerConfig(
            kind="alphabeta", depth=depth, heuristic=heuristic, time_limit=time_per_move
        )
        players.append(config.to_spec())
    if MCTS_KIND in available_kinds(spec):
        players.append(f"{MCTS_KIND}:time={time_per_move:g}")
    return players


def player_label(game: str, spec: str) -> str:
    """A short name of a ladder player: its kind's label, its depth when it has no clock,
    and the heuristic of a searcher.

    >>> player_label("tictactoe", "alphabeta:depth=12,heuristic=lines,time=0.2")
    'Alpha-beta (lines)'
    >>> player_label("tictactoe", "alphabeta:depth=3")
    'Alpha-beta d3'
    """
    from lib.games.search.players import (
        SEARCH_KINDS,
        available_kinds,
        parse_player_spec,
        short_formula,
    )

    config = parse_player_spec(spec)
    if config.kind not in available_kinds(get_game(game)):  # an agent file: named by its file
        return config.label()
    name = available_kinds(get_game(game)).get(config.kind, config.kind)
    if config.kind in SEARCH_KINDS and config.kind != "greedy" and config.time_limit is None:
        name += f" d{config.search_depth}"
    if config.formula is not None:
        name += f" ({short_formula(config.formula)})"
    elif config.heuristic:
        name += f" ({config.heuristic})"
    return name


def player_labels(game: str, specs: Sequence[str]) -> list[str]:
    """:func:`player_label` of each spec; the spec itself where two labels would be equal."""
    labels = [player_label(game, spec) for spec in specs]
    return [
        label if labels.count(label) == 1 else spec
        for label, spec in zip(labels, specs, strict=True)
    ]


@dataclass(frozen=True)
class LadderConfig:
    """A strength ladder: a game, its players, the time per move and the games per pair.

    ``players`` empty means the default roster (:func:`ladder_players` at
    ``time_per_move``); players given are used as written. ``depth`` is the
    alpha-beta players' deepest iteration (a page passes its server's cap).
    """

    game: str
    options: Any = ()
    players: tuple[str, ...] = ()
    time_per_move: float = DEFAULT_TIME
    games_per_pair: int = DEFAULT_GAMES_PER_PAIR
    seed: int = 0
    max_plies: int = MAX_PLIES
    depth: int = 12

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", options_tuple(self.options))
        object.__setattr__(self, "players", tuple(p.strip() for p in self.players if p.strip()))
        if not isinstance(self.games_per_pair, int) or self.games_per_pair < 1:
            raise InputError(
                f"Games per pair must be a positive whole number, got {self.games_per_pair!r}."
            )
        if not (isinstance(self.time_per_move, int | float) and self.time_per_move > 0):
            raise InputError(f"Time per move must be above 0 s, got {self.time_per_move!r}.")

    def roster(self) -> tuple[str, ...]:
        """The players of the ladder, in order."""
        if self.players:
            return self.players
        return tuple(ladder_players(self.game, self.time_per_move, self.depth))

    def matches(self) -> list[MatchConfig]:
        """The round robin (see :func:`ladder_matches`)."""
        return ladder_matches(
            self.game,
            self.roster(),
            games_per_pair=self.games_per_pair,
            seed=self.seed,
            options=dict(self.options),
            max_plies=self.max_plies,
        )


def ladder_matches(
    game: str,
    players: Sequence[str],
    *,
    games_per_pair: int = DEFAULT_GAMES_PER_PAIR,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    max_plies: int = MAX_PLIES,
) -> list[MatchConfig]:
    """One match per pair of ``players`` (a round robin), ``games_per_pair`` games each.

    Colours alternate inside each match, so with an even ``games_per_pair``
    every player moves first in exactly half of its games.

    >>> [m.players for m in ladder_matches("tictactoe", ["random", "greedy", "alphabeta"])]
    [('random', 'greedy'), ('random', 'alphabeta'), ('greedy', 'alphabeta')]
    """
    players = [p.strip() for p in players if p.strip()]
    if len(players) < 2:
        raise InputError("A ladder needs at least two players.")
    repeated = sorted({p for p in players if players.count(p) > 1})
    if repeated:
        raise InputError(f"Each player may be on the ladder once; repeated: {', '.join(repeated)}.")
    return pair_matches(
        game,
        player_pairs(players, round_robin=True),
        games=games_per_pair,
        seed=seed,
        options=options or {},
        max_plies=max_plies,
    )


def run_ladder(
    config: LadderConfig,
    executor: Executor | None = None,
    *,
    on_game: Callable[[GameRecord, int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    previous: Sequence[GameRecord] = (),
) -> TournamentResult:
    """Play the ladder's round robin on ``executor`` (see :func:`run_tournament`)."""
    return run_tournament(
        config.matches(), executor, on_game=on_game, should_stop=should_stop, previous=previous
    )


def game_results(
    records: Iterable[GameRecord], matches: Sequence[MatchConfig]
) -> list[tuple[str, str, float]]:
    """``(player A, player B, A's score)`` of every game, for :func:`fit_ratings`."""
    return [(matches[r.match].players[0], matches[r.match].players[1], r.result_a) for r in records]


def ladder_table(
    records: Iterable[GameRecord],
    matches: Sequence[MatchConfig],
    *,
    anchor: str | None = None,
    prior_sd: float | None = PRIOR_SD,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """The players ranked by Bradley–Terry rating (Elo scale) with their record.

    One row per player of ``matches`` (in ladder order before ranking): rating
    and its ``confidence`` interval (see :func:`fit_ratings`; ``anchor`` is the
    player rated 0, None for a mean of 0), games, wins / draws / losses, the
    score % (wins plus half the draws) and the mean seconds the player took per
    move (the check that the budget was equal). Ties in rating keep ladder order.
    """
    records = list(records)
    if not records:
        raise InputError("The ladder has no finished game to rate yet.")
    players: list[str] = []
    for match in matches:
        players += [p for p in match.players if p not in players]
    ratings = fit_ratings(
        players,
        game_results(records, matches),
        anchor=anchor,
        prior_sd=prior_sd,
        confidence=confidence,
    )
    tally = {p: {"games": 0, "wins": 0, "draws": 0, "seconds": 0.0, "moves": 0} for p in players}
    for record in records:
        a, b = matches[record.match].players
        for player, won, seconds, moves in (
            (a, record.winner == "A", record.seconds_a, record.moves_a),
            (b, record.winner == "B", record.seconds_b, record.moves_b),
        ):
            row = tally[player]
            row["games"] += 1
            row["wins"] += won
            row["draws"] += record.winner == "draw"
            row["seconds"] += seconds
            row["moves"] += moves
    labels = player_labels(matches[0].game, players)
    rows = []
    for i, player in enumerate(players):
        row = tally[player]
        losses = row["games"] - row["wins"] - row["draws"]
        rows.append(
            {
                "player": labels[i],
                "spec": player,
                "rating": ratings.elo[i],
                "ci_low": ratings.low[i],
                "ci_high": ratings.high[i],
                "games": row["games"],
                "wins": row["wins"],
                "draws": row["draws"],
                "losses": losses,
                "score_pct": (
                    100 * (row["wins"] + 0.5 * row["draws"]) / row["games"]
                    if row["games"]
                    else math.nan
                ),
                "seconds_per_move": row["seconds"] / row["moves"] if row["moves"] else math.nan,
            }
        )
    table = pd.DataFrame(rows).sort_values("rating", ascending=False, kind="stable")
    table.insert(0, "rank", range(1, len(table) + 1))
    return table.reset_index(drop=True)[LADDER_COLUMNS]


def estimated_seconds(config: LadderConfig, samples: int = 3) -> float:
    """A rough upper bound of the ladder's thinking time: games × plies × time per move.

    The plies per game are the mean length of ``samples`` seeded random games
    (capped at the ply limit); every move is counted at the full budget (random
    and greedy players use less). For caps on a shared server, not a promise.
    """
    import numpy as np

    matches = config.matches()
    probe = matches[0]
    lengths = []
    for index in range(samples):
        state = start_state(probe, index)
        rng = np.random.default_rng(index)
        plies = 0
        while not state.is_terminal() and plies < config.max_plies:
            moves = state.legal_moves()
            state = state.play(moves[int(rng.integers(len(moves)))])
            plies += 1
        lengths.append(plies)
    total_games = sum(m.games for m in matches)
    return total_games * float(np.mean(lengths)) * config.time_per_move
