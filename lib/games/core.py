"""The game contract: what a game provides, and what every algorithm may assume of it.

Games know only their rules; the algorithms (:mod:`lib.games.search`,
:mod:`lib.games.arena`) know only this contract (the OpenSpiel split). This
docstring is the whole contract; the types below state it in code.

**A game is one package** ``lib/games/<name>/`` whose ``__init__.py`` holds the
rules and a module-level ``GAME = GameSpec(...)`` (see :class:`GameSpec` for
every field). Beside it: ``view.py`` (the board view the game page draws and
clicks, no Streamlit; see :mod:`lib.games.drawing.view`), ``plots.py`` (its
plotly board) and, if it has one, an exact solver. Its page is
``pages/<name>.py``: ``run_game_page(get_game("<name>"))``. :func:`available_games`
discovers the package; no shared file names a game.

**The state** (:class:`GameState`) is immutable and hashable (ints, bitboards,
tuples inside) so it keys a transposition table and lives in ``st.session_state``:
``to_move``, ``key``, ``legal_moves()``, ``play(move)``, ``is_terminal()``,
``winner()``, ``score(player)``. Players are 0 (moves first) and 1.

* **Who moves next is read from ``to_move``, never assumed to alternate.** A
  game may give a player several moves in a row (an extra turn); every search,
  ``perft``, MCTS and the Arena read ``state.to_move`` after each move.
* A forced pass is an explicit move (Othello), so depth counting and perft agree
  with the published tables; ``legal_moves()`` is empty exactly when the game is over.
* Optional hooks, used when present: ``count_moves() -> int`` (equal to
  ``len(legal_moves())``, e.g. a popcount; :func:`perft` counts the last ply with
  it) and ``plies_left_hint() -> int`` (an estimate of the plies left, e.g.
  Othello's empty squares; the exact endgame and the beam use it).
* The state's class is :attr:`GameSpec.state_type`: the search finds a state's
  game, its default heuristic and its exact solver through :func:`game_of`, so a
  state class may live in any module of the package (or subclass another).

**Heuristics** (:class:`Heuristic`) are named functions ``function(state,
player, weights) -> float``, from ``player``'s point of view, and **symmetric:
"mine minus theirs"**, so ``evaluate(s, 0) == -evaluate(s, 1)``. MCTS's
heuristic roll-outs read ``evaluate(state, 0)`` and take its sign as "who is
ahead"; minimax negates values between the players. Values stay well inside
``±WIN_VALUE / 10`` so a finished game always scores beyond any heuristic.

**Weights** are what the page's sliders and the weight-evolving GA
(:mod:`lib.games.arena.evolve`) set: ``weight_names`` and ``default_weights``
of equal length. Evolution treats every weight as an **integer in
[-100, 100]** (:class:`lib.games.arena.evolve.EvolutionConfig` ``low``/``high``);
choose units so that range is enough.

**Moves** are small hashable values the game chooses; ``format_move`` and
``parse_move`` (raising :class:`lib.errors.InputError` with a message naming
the bad text) are inverse on every legal move, and the notation is what links,
the Arena's records, ``step_examples`` and the command line use.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import pkgutil
import re
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import lib.games as games_package
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


@dataclass(frozen=True)
class Feature:
    """A named number of a position that a student's formula can use (:mod:`lib.games.formula`).

    ``function(state, player)`` is, unless ``symmetric``, the evaluated player's
    value minus the opponent's ("mine minus theirs"); a ``symmetric`` feature is
    the same for both players (e.g. the empty squares), for a formula's conditions.
    """

    name: str
    meaning: str  # one line, shown beside the formula box
    function: Callable[[Any, int], float]
    symmetric: bool = False


WIN_VALUE = 1_000_000.0
"""Value of a won position; heuristics stay far inside ±WIN_VALUE/10."""


@dataclass(frozen=True)
class ArenaPreset:
    """A ready-made Arena study a game offers: labelled player pairs on fixed options.

    ``pairs`` are ``(label, spec_a, spec_b)`` with player specs as in
    :func:`lib.games.search.players.parse_player_spec`; ``options`` are the game's
    ``initial_state`` options as sorted ``(name, value)`` pairs.
    """

    key: str  # unique across games, e.g. "othello_pruning"
    title: str
    description: str
    pairs: tuple[tuple[str, str, str], ...]
    options: tuple[tuple[str, Any], ...] = ()
    games: int = 150


PLAIN_ALPHABETA = "alphabeta:depth={d},ordering=false,tt=false"
"""Alpha-beta with pruning only (no ordering, no table): the course's pruning studies."""


def pruning_pairs(
    depths: tuple[int, ...], minimax_depths: tuple[int, ...]
) -> tuple[tuple[str, str, str], ...]:
    """Preset pairs "minimax dN vs random" and "alpha-beta dN vs random" at each depth."""
    pairs = []
    for d in depths:
        if d in minimax_depths:
            pairs.append((f"minimax d{d} vs random", f"minimax:depth={d}", "random"))
        pairs.append((f"alpha-beta d{d} vs random", PLAIN_ALPHABETA.format(d=d), "random"))
    return tuple(pairs)


@dataclass(frozen=True)
class GameSpec:
    """Everything generic code (search, players, arena, evolution, pages) knows about one game.

    A game is one module of :mod:`lib.games` with a module-level ``GAME = GameSpec(...)``;
    :func:`available_games` finds it there, so no shared file names a game.
    """

    name: str  # registry key, equal to the module's name, e.g. "othello"
    title: str  # shown to users, e.g. "Othello"
    initial_state: Callable[..., Any]
    format_move: Callable[[Move], str]
    parse_move: Callable[[str, Any], Move]
    heuristics: Mapping[str, Heuristic]
    default_heuristic: str
    # the game's state class: the search finds this spec (and so the default heuristic
    # and the exact solver) for a state by ``isinstance``, see :func:`game_of`
    state_type: type
    player_names: tuple[str, str] = ("Black", "White")
    # keyword options of initial_state with their allowed values, e.g. {"size": (6, 8)}
    options: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    # widget titles of the options, e.g. {"size": "Board size"}, and how values are shown,
    # e.g. {"first": {"random": "Coin toss"}}
    option_labels: Mapping[str, str] = field(default_factory=dict)
    option_formats: Mapping[str, Mapping[Any, str]] = field(default_factory=dict)
    # game-specific player kinds beyond the generic ones of lib.games.search.players, e.g.
    # Sim's perfect player: kind name -> "module:factory", the factory(config) -> player
    # (named, not imported, so the rules never import the search package)
    players: Mapping[str, str] = field(default_factory=dict)
    # the kind in ``players`` that plays perfectly (the page's Hint uses it), if any
    solver_kind: str | None = None
    # the move that passes the turn, if the game has one (a forced pass gets a Pass button)
    pass_move: Move | None = None
    # ready-made Arena studies
    presets: tuple[ArenaPreset, ...] = ()
    # weight evolution: the heuristic evolved by default, the fixed opponent it is measured
    # against, and the options it plays on (None: the first heuristic with weights)
    evolve_heuristic: str | None = None
    evolve_benchmark: str = "random"
    evolve_options: tuple[tuple[str, Any], ...] = ()
    # the board view: a module with ``ADAPTER`` (figure, click, status ...), e.g.
    # "lib.games.othello.view"; it keeps plotly and streamlit out of the rules module
    view: str = ""
    # the page card: sidebar icon, one or two lines for the home page, position among games
    icon: str = ":material/grid_on:"
    teaches: str = ""
    order: int = 50
    # search trees are recorded and drawn up to this depth (small games: the whole tree)
    tree_depth: int = 3
    # positions the step-through tab offers one click away: (label, moves in the game's
    # notation from ``initial_state()`` with its default options)
    step_examples: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # the module of the game's exact endgame solver, if it has one, e.g.
    # "lib.games.othello.endgame": its ``exact_solution(state, time_limit, every_move)``
    # returns the best move with its exact final margin, or None when it would not
    # finish in time; its optional ``load_compiled()`` readies compiled code before a move's
    # clock starts. Named, not imported, so the rules never import their solver.
    exact_solver: str = ""
    # the module holding the game's named features for student formulas, e.g.
    # "lib.games.othello.features": its ``FEATURES: dict[str, Feature]``
    features: str = ""
    # the page's default AI, a player spec (see lib.games.search.players); without a depth
    # cap it deepens while its clock lasts, e.g. "alphabeta:time=1"
    default_player: str = "alphabeta:time=1"

    def __post_init__(self) -> None:
        """Check the hooks named as strings now, so a typo fails with the game's name at
        once rather than on the first click that loads it (:func:`check_hooks`)."""
        check_hooks(self)


class GameSpecError(ValueError):
    """A :class:`GameSpec` names a hook that is not there (the message names the game)."""


HOOKS = {"view": "ADAPTER", "features": "FEATURES", "exact_solver": "exact_solution"}
"""The spec's fields naming a module, and the name each module must define."""


def check_hooks(spec: GameSpec) -> None:
    """Raise :class:`GameSpecError` unless every hook ``spec`` names exists: each module of
    :data:`HOOKS` defines its name and each ``players`` entry ``"module:factory"`` its factory.

    The modules are found and their source read, not imported: a game's module is still
    being imported when its spec is made, and the hooks import the search and plotly.
    """
    wanted = [(name, getattr(spec, name), HOOKS[name]) for name in HOOKS if getattr(spec, name)]
    for kind, target in spec.players.items():
        module, colon, factory = target.partition(":")
        if not colon or not module or not factory:
            raise GameSpecError(
                f"Game {spec.name!r}: its players[{kind!r}] is {target!r}; expected "
                "'module:factory'."
            )
        wanted.append((f"players[{kind!r}]", module, factory))
    for field_name, module, name in wanted:
        problem = _missing(module, name)
        if problem:
            raise GameSpecError(f"Game {spec.name!r}: its {field_name} names {problem}.")


def _missing(module: str, name: str) -> str:
    """What is wrong with hook ``name`` of ``module`` ("" if it is there), read from source."""
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        found = None
    if found is None:
        return f"no module {module}"
    origin = found.origin or ""
    if not origin.endswith(".py"):
        return ""  # compiled or namespace: not read here (its import says)
    names = _top_level_names(origin)
    if name in names or "__getattr__" in names:
        return ""
    return f"{module}, which defines no {name}"


@functools.cache
def _top_level_names(path: str) -> frozenset[str]:
    """The names a Python source file binds at module level (definitions, assignments, imports)."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"), filename=path)
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).partition(".")[0] for a in node.names)
    return frozenset(names)


_DECLARES_GAME = re.compile(r"^GAME\s*[:=]", re.MULTILINE)
"""A module's own ``GAME = GameSpec(...)`` line (at the start of a line: module level)."""


def _declares_game(folder: str, name: str) -> bool:
    """Whether package ``name`` in ``folder`` may declare a game (read, not imported).

    Only such packages are imported: the search, the Arena and the shared drawing
    (with SciPy and plotly behind them) are left to the pages that use them, so
    opening any page does not import them all.
    """
    source = Path(folder) / name / "__init__.py"
    if not source.is_file():  # not plain source: import it to see
        return True
    return _DECLARES_GAME.search(source.read_text(encoding="utf-8")) is not None


def _discover() -> dict[str, GameSpec]:
    found = []
    for module_info in pkgutil.iter_modules(games_package.__path__):
        if not module_info.ispkg or module_info.name.startswith("_"):
            continue
        folder = getattr(module_info.module_finder, "path", None)
        if folder is not None and not _declares_game(folder, module_info.name):
            continue
        module = importlib.import_module(f"{games_package.__name__}.{module_info.name}")
        spec = getattr(module, "GAME", None)
        if isinstance(spec, GameSpec):
            found.append(spec)
    return {spec.name: spec for spec in sorted(found, key=lambda g: (g.order, g.title))}


@functools.cache
def _games() -> dict[str, GameSpec]:
    # Specs are frozen and modules are imported once per process: safe to share.
    return _discover()


def available_games() -> dict[str, GameSpec]:
    """Every game of the package (a module with a ``GAME``), by name, in page order.

    Call it at run time, never while modules are still being imported.
    """
    return dict(_games())


def game_of(state: Any) -> GameSpec | None:
    """The spec of the discovered game whose ``state_type`` ``state`` is, or None."""
    for spec in _games().values():
        if isinstance(state, spec.state_type):
            return spec
    return None


def game_features(game: GameSpec) -> dict[str, Feature]:
    """The named features of ``game`` a formula can use (none when it declares none)."""
    if not game.features:
        return {}
    return dict(importlib.import_module(game.features).FEATURES)


def get_game(name: str) -> GameSpec:
    """The :class:`GameSpec` of the game called ``name`` (e.g. ``"othello"``)."""
    games = _games()
    if name not in games:
        raise InputError(f"Unknown game {name!r}; choose one of {', '.join(games)}.")
    return games[name]


def perft(state: GameState, depth: int) -> int:
    """Count the leaves of the game tree below ``state`` cut at ``depth`` plies.

    A forced pass is a move like any other, and a game that ends before
    ``depth`` counts as one leaf, the convention of the published Othello and
    checkers perft tables.

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
