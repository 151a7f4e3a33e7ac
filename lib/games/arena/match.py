"""Match play: one match's configuration, one game played, and its record.

A **match** (:class:`MatchConfig`) is two player specs (``"alphabeta:depth=5"``,
``"random"``, see :mod:`lib.games.search.players`), a game with its options, a number
of games and a seed. Player *A* (the first spec) moves first in the
even-numbered games and second in the odd-numbered ones, so colours alternate.

Every game is a pure function of ``(match, game index)``: :func:`play_game`
derives the random generators of both players from
``numpy.random.SeedSequence(match.seed, spawn_key=(game_index,))``. So a study
gives identical games (moves, winners, node counts) whether it runs in this
process, in a process pool or on a Dask cluster; only wall-clock times differ.

A player that cannot give a legal move in time (an agent file that crashes, runs out
of its clock or plays an illegal move, see :mod:`lib.games.arena.agents`) loses that
game: its record's ``forfeit`` says who and why, and the match goes on.
"""

from __future__ import annotations

import inspect
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from lib.errors import InputError
from lib.games.arena.agents import AgentFault, arena_player
from lib.games.arena.options import check_options, options_tuple
from lib.games.core import get_game
from lib.games.search.players import AGENT_KIND

MAX_PLIES = 400
"""Default ply limit of one game; a game reaching it is scored as a draw (``truncated``)."""

TIMING_FIELDS = ("seconds_a", "seconds_b")
"""Fields of :class:`GameRecord` that measure wall-clock time (not reproducible)."""


@dataclass(frozen=True)
class MatchConfig:
    """Two players, a game and how many games to play between them.

    ``players`` are player specs understood by :func:`lib.games.search.players.parse_player_spec`
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
        check_options(spec, self.options)
        from lib.games.search.players import available_kinds, parse_player_spec

        computer_kinds = [kind for kind in available_kinds(spec) if kind != "human"]
        computer_kinds.append(AGENT_KIND)  # the parser refuses it off a local install
        for player in self.players:
            config = parse_player_spec(player)
            if config.is_human:
                raise InputError("The arena plays computer players only; 'human' cannot play here.")
            if config.kind not in computer_kinds:
                raise InputError(
                    f"Unknown player kind {config.kind!r} for {spec.title}; "
                    f"choose one of {', '.join(computer_kinds)}."
                )
            arena_player(config, spec)  # unknown heuristics, wrong weight counts, no file


@dataclass(frozen=True)
class GameRecord:
    """The result of one game of a match, from player A's point of view.

    ``a_first`` tells whether A played player 0 (the side that moves first
    unless a game option says otherwise); ``first_player`` is the player (0 or 1)
    who made the first move (a game option, a coin toss included, may decide
    it; see :func:`start_state`). ``result_a`` is 1 for
    a win of A, 0.5 for a draw, 0 for a loss; ``margin`` is the game's own
    score for A (e.g. the disc difference). Per-player search statistics are
    totals over the game (``nodes``, ``cutoffs``, ``seconds``, ``moves``) and
    the mean effective branching factor over the moves that searched (None
    for players that do not search, e.g. ``random``). ``moves`` is the move
    list in the game's notation, space separated, for replays. ``forfeit`` is empty
    unless a player lost by failing to move (``"B: timeout: no move within 1 s"``):
    the side, then the reason; ``margin`` is then the score of the position left.
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
    forfeit: str = ""

    def reproducible(self) -> tuple:
        """Every field except wall-clock times: equal for equal seeds on any executor."""
        return tuple(getattr(self, f.name) for f in fields(self) if f.name not in TIMING_FIELDS)


def game_seed(seed: int, game_index: int) -> np.random.SeedSequence:
    """The seed sequence of game ``game_index`` of a match seeded with ``seed``."""
    return np.random.SeedSequence(seed, spawn_key=(game_index,))


def start_state(match: MatchConfig, game_index: int) -> Any:
    """The starting position of game ``game_index`` of ``match``.

    A game whose ``initial_state`` takes a ``seed`` (e.g. one whose ``first``
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

    A pure function of its arguments (apart from the measured seconds, and agents,
    which run on a clock): the two players' generators are spawned from
    :func:`game_seed`. Player A moves first when ``game_index`` is even.
    ``on_move(plies, move)`` is called after each move (progress for a long game
    played on its own). A player whose move fails (:class:`AgentFault`) loses the game.
    """
    from lib.games.search.players import parse_player_spec

    spec = get_game(match.game)
    rngs = {
        side: np.random.default_rng(s)
        for side, s in zip("ab", game_seed(match.seed, game_index).spawn(2), strict=True)
    }
    players = {
        side: arena_player(parse_player_spec(text), spec)
        for side, text in zip("ab", match.players, strict=True)
    }
    a_first = game_index % 2 == 0
    a_colour = 0 if a_first else 1
    # per side: nodes, cutoffs, moves, seconds, ebf values
    totals = {side: [0, 0, 0, 0.0, []] for side in "ab"}
    state = start_state(match, game_index)
    first_player = int(state.to_move)
    moves: list[str] = []
    truncated, forfeit, winner_colour = False, "", None
    try:
        while not state.is_terminal():
            if len(moves) >= match.max_plies:
                truncated = True
                break
            side = "a" if state.to_move == a_colour else "b"
            start = time.perf_counter()
            try:
                decision = players[side].choose(state, rngs[side])
            except AgentFault as fault:
                forfeit, winner_colour = f"{side.upper()}: {fault.reason}", 1 - state.to_move
                break
            _count(totals[side], decision, time.perf_counter() - start)
            moves.append(spec.format_move(decision.move))
            state = state.play(decision.move)
            if on_move is not None:
                on_move(len(moves), moves[-1])
    finally:
        for player in players.values():
            getattr(player, "close", lambda: None)()
    if not forfeit and not truncated:
        winner_colour = state.winner()
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
        forfeit=forfeit,
    )


def _count(total: list, decision: Any, elapsed: float) -> None:
    """Add one move's time and search statistics to a side's ``total`` (see play_game)."""
    total[2] += 1
    total[3] += elapsed
    stats = decision.stats
    if stats is not None:
        total[0] += int(stats.nodes)
        total[1] += int(getattr(stats, "cutoffs", 0) or 0)
        ebf = getattr(stats, "ebf", None)
        if ebf is not None and math.isfinite(ebf) and ebf > 0:
            total[4].append(float(ebf))


def play_task(match: MatchConfig, game_index: int, match_index: int) -> GameRecord:
    """One game as an executor task: a module-level function, so it pickles by name
    (``lib.games.arena.match.play_task``) to pool processes and Dask workers."""
    return play_game(match, game_index, match_index)


def spec_depth(spec: str) -> int | None:
    """The search depth of a player spec (None for players that do not search, and for
    searchers without a depth cap, which deepen while their time budget lasts)."""
    from lib.games.search.players import SEARCH_KINDS, parse_player_spec

    config = parse_player_spec(spec)
    return config.search_depth if config.kind in SEARCH_KINDS else None
