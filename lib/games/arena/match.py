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
from dataclasses import dataclass, field, fields
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


@dataclass
class _SideTotals:
    """One side's search statistics over a game: what its record's ``*_a``/``*_b`` hold."""

    nodes: int = 0
    cutoffs: int = 0
    moves: int = 0
    seconds: float = 0.0
    ebfs: list[float] = field(default_factory=list)

    def add(self, decision: Any, elapsed: float) -> None:
        """Count one move: its time and, for a searching player, its search's statistics."""
        self.moves += 1
        self.seconds += elapsed
        stats = decision.stats
        if stats is not None:
            self.nodes += int(stats.nodes)
            self.cutoffs += int(getattr(stats, "cutoffs", 0) or 0)
            ebf = getattr(stats, "ebf", None)
            if ebf is not None and math.isfinite(ebf) and ebf > 0:
                self.ebfs.append(float(ebf))

    def record_fields(self, side: str) -> dict[str, Any]:
        """The record's fields of this side (``side`` is ``"a"`` or ``"b"``)."""
        ebf = float(np.mean(self.ebfs)) if self.ebfs else None
        return {
            f"nodes_{side}": self.nodes, f"cutoffs_{side}": self.cutoffs,
            f"moves_{side}": self.moves, f"seconds_{side}": self.seconds, f"ebf_{side}": ebf,
        }  # fmt: skip


@dataclass
class _Playout:
    """A game as it is played: its state, moves, each side's totals and how it ended."""

    state: Any
    first_player: int
    moves: list[str] = field(default_factory=list)
    totals: dict[str, _SideTotals] = field(
        default_factory=lambda: {side: _SideTotals() for side in "ab"}
    )
    truncated: bool = False
    forfeit: str = ""
    winner_colour: int | None = None


def _play_out(
    match: MatchConfig,
    game_index: int,
    a_colour: int,
    on_move: Callable[[int, str], None] | None,
) -> _Playout:
    """Play game ``game_index`` of ``match`` to its end, the move cap or a forfeit."""
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
    state = start_state(match, game_index)
    game = _Playout(state, first_player=int(state.to_move))
    try:
        while not game.state.is_terminal():
            if len(game.moves) >= match.max_plies:
                game.truncated = True
                return game
            side = "a" if game.state.to_move == a_colour else "b"
            start = time.perf_counter()
            try:
                decision = players[side].choose(game.state, rngs[side])
            except AgentFault as fault:
                game.forfeit = f"{side.upper()}: {fault.reason}"
                game.winner_colour = 1 - game.state.to_move
                return game
            game.totals[side].add(decision, time.perf_counter() - start)
            game.moves.append(spec.format_move(decision.move))
            game.state = game.state.play(decision.move)
            if on_move is not None:
                on_move(len(game.moves), game.moves[-1])
    finally:
        for player in players.values():
            getattr(player, "close", lambda: None)()
    game.winner_colour = game.state.winner()
    return game


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
    a_first = game_index % 2 == 0
    a_colour = 0 if a_first else 1
    game = _play_out(match, game_index, a_colour, on_move)
    if game.winner_colour is None:
        winner, result_a = "draw", 0.5
    elif game.winner_colour == a_colour:
        winner, result_a = "A", 1.0
    else:
        winner, result_a = "B", 0.0
    return GameRecord(
        match=match_index,
        label=match.label,
        game=game_index,
        seed=match.seed,
        a_first=a_first,
        winner=winner,
        result_a=result_a,
        margin=float(game.state.score(a_colour)),
        plies=len(game.moves),
        truncated=game.truncated,
        **game.totals["a"].record_fields("a"),
        **game.totals["b"].record_fields("b"),
        moves=" ".join(game.moves),
        first_player=game.first_player,
        forfeit=game.forfeit,
    )


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
