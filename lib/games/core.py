"""The game interface shared by every game, and helpers written once for all games.

Games know only their rules; algorithms (``search.py``, ``players.py``,
``arena.py``) know only this interface (the OpenSpiel split).

A game module (``othello.py``, ``checkers.py``, ``sim.py``) provides:

* a frozen, hashable state class satisfying :class:`GameState`;
* ``initial_state(...)``, ``format_move(move) -> str``,
  ``parse_move(text, state) -> Move`` (raising :class:`lib.errors.InputError`);
* ``HEURISTICS: dict[str, Heuristic]``;
* ``GAME: GameSpec`` bundling the above, so :func:`get_game` finds it.

Adding a game means adding one module with a ``GAME`` and listing its module
name in :data:`GAME_MODULES`.

Optional state hooks, used when present: ``count_moves() -> int`` (equal to
``len(legal_moves())``, e.g. a popcount; :func:`perft` counts the last ply
with it) and ``plies_left_hint() -> int`` (an estimate of the plies left, e.g.
Othello's empty squares; the search's exact-endgame mode and beam use it).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from lib.errors import InputError

Move = Hashable
"""A move is any small hashable value the game chooses (an int, a tuple ...)."""

PLAYERS = (0, 1)
"""Players are numbered 0 (moves first: Black / red) and 1."""


@runtime_checkable
class GameState(Protocol):
    """An immutable position. Every game's state class satisfies this protocol.

    States are frozen and hashable (integers, bitboards and tuples inside), so
    they can key a transposition table and live in ``st.session_state``.
    """

    @property
    def to_move(self) -> int:
        """The player (0 or 1) whose turn it is."""

    @property
    def key(self) -> Hashable:
        """A compact hashable key identifying the position (side to move included)."""

    def legal_moves(self) -> list[Move]:
        """The legal moves; a forced pass is an explicit move. Empty iff terminal."""

    def play(self, move: Move) -> GameState:
        """The state after ``move`` (a new object; ``self`` is unchanged)."""

    def is_terminal(self) -> bool:
        """True when the game is over."""

    def winner(self) -> int | None:
        """The winning player (0/1) of a finished game; None for a draw or an unfinished game."""

    def score(self, player: int) -> float:
        """The game's own margin from ``player``'s view (e.g. disc difference).

        For a finished game its sign agrees with :meth:`winner`; used to report
        results and to prefer bigger wins.
        """


HeuristicFunction = Callable[[Any, int, tuple[float, ...]], float]


@dataclass(frozen=True)
class Heuristic:
    """A named evaluation function with exposed weights.

    ``function(state, player, weights)`` returns how good ``state`` is for
    ``player``; values must stay well inside ``±WIN_VALUE / 10`` so that
    finished games always score beyond any heuristic value.
    """

    name: str
    description: str
    function: HeuristicFunction
    weight_names: tuple[str, ...] = ()
    default_weights: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if len(self.weight_names) != len(self.default_weights):
            raise ValueError(f"heuristic {self.name!r}: one default weight per weight name")

    def evaluate(self, state: Any, player: int, weights: tuple[float, ...] | None = None) -> float:
        """Evaluate ``state`` for ``player`` with ``weights`` (defaults if None)."""
        return self.function(state, player, self.default_weights if weights is None else weights)

    def bind(self, weights: Mapping[str, float] | tuple[float, ...] | None = None) -> Evaluator:
        """An ``evaluate(state, player)`` callable with the given weights fixed."""
        if weights is None:
            values = self.default_weights
        elif isinstance(weights, Mapping):
            unknown = set(weights) - set(self.weight_names)
            if unknown:
                raise InputError(
                    f"Heuristic {self.name!r} has no weight named {sorted(unknown)[0]!r}; "
                    f"its weights are {', '.join(self.weight_names) or 'none'}."
                )
            defaults = dict(zip(self.weight_names, self.default_weights, strict=True))
            values = tuple(float(weights.get(n, defaults[n])) for n in self.weight_names)
        else:
            values = tuple(float(w) for w in weights)
            if len(values) != len(self.weight_names):
                raise InputError(
                    f"Heuristic {self.name!r} takes {len(self.weight_names)} weights, "
                    f"got {len(values)}."
                )
        return Evaluator(self, values)


@dataclass(frozen=True)
class Evaluator:
    """A heuristic with its weights fixed: ``evaluator(state, player) -> float``."""

    heuristic: Heuristic
    weights: tuple[float, ...]

    def __call__(self, state: Any, player: int) -> float:
        """The heuristic's score of ``state`` for ``player`` with the bound weights."""
        return self.heuristic.function(state, player, self.weights)


WIN_VALUE = 1_000_000.0
"""Value of a won position; heuristics stay far inside ±WIN_VALUE/10."""


@dataclass(frozen=True)
class GameSpec:
    """Everything generic code needs to know about one game."""

    name: str  # registry key, e.g. "othello"
    title: str  # shown to users, e.g. "Othello"
    initial_state: Callable[..., Any]
    format_move: Callable[[Move], str]
    parse_move: Callable[[str, Any], Move]
    heuristics: Mapping[str, Heuristic]
    default_heuristic: str
    player_names: tuple[str, str] = ("Black", "White")
    # keyword options of initial_state with their allowed values, e.g. {"size": (6, 8)}
    options: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    # game-specific player kinds beyond the generic ones in players.py, e.g. Sim's
    # perfect player: kind name -> factory(config) -> player (see players.py)
    players: Mapping[str, Callable[..., Any]] = field(default_factory=dict)


GAME_MODULES: tuple[str, ...] = ("othello", "checkers", "sim")
"""Modules of :mod:`lib.games` that define a ``GAME``; add a game by adding one name."""


def get_game(name: str) -> GameSpec:
    """The :class:`GameSpec` of the game called ``name`` (e.g. ``"othello"``)."""
    if name not in GAME_MODULES:
        raise InputError(f"Unknown game {name!r}; choose one of {', '.join(GAME_MODULES)}.")
    module = importlib.import_module(f"lib.games.{name}")
    return module.GAME


def available_games() -> dict[str, GameSpec]:
    """Every game whose module is present, by name."""
    games = {}
    for name in GAME_MODULES:
        try:
            games[name] = get_game(name)
        except ModuleNotFoundError:
            continue
    return games


def perft(state: GameState, depth: int) -> int:
    """Count the leaves of the game tree below ``state`` cut at ``depth`` plies.

    A forced pass is a move like any other, and a game that ends before
    ``depth`` counts as one leaf, the convention of the published Othello and
    checkers perft tables (``shared/REFERENCE.md``).

    A state may offer ``count_moves() -> int`` (equal to ``len(legal_moves())``,
    computed without building the list, e.g. a popcount); it is used for the
    last ply, where the leaves are only counted.
    """
    if depth == 0:
        return 1
    if depth == 1:
        count_moves = getattr(state, "count_moves", None)
        if count_moves is not None:
            return max(1, count_moves())
    moves = state.legal_moves()
    if not moves:
        return 1
    if depth == 1:
        return len(moves)
    return sum(perft(state.play(move), depth - 1) for move in moves)


def perft_positions(
    legal_moves: Callable[[Any, int], list[Move]],
    play: Callable[[Any, int, Move], Any],
    position: Any,
    player: int,
    depth: int,
) -> int:
    """:func:`perft` for engines written as functions of ``(position, player)``.

    The naive reference engines (``othello_naive``, ``checkers_naive``) are
    plain functions rather than state objects; they count leaves with the same
    convention as :func:`perft` (a finished game before ``depth`` is one leaf).
    """
    if depth == 0:
        return 1
    moves = legal_moves(position, player)
    if not moves:
        return 1
    if depth == 1:
        return len(moves)
    return sum(
        perft_positions(legal_moves, play, play(position, player, move), 1 - player, depth - 1)
        for move in moves
    )
