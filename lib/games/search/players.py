"""Players built from a small, picklable config, for the game pages and the arena.

A :class:`PlayerConfig` is a frozen value (kind, depth, heuristic, weights,
search options) with a one-line text form, the *player spec*::

    >>> config = parse_player_spec("alphabeta:depth=5,ordering=false")
    >>> config.depth, config.ordering
    (5, False)
    >>> config.to_spec()
    'alphabeta:depth=5,ordering=false'

:func:`make_player` turns a config into a :class:`Player` for one game;
``player.choose(state, rng)`` returns a :class:`Decision` (the move and the
search statistics). Players hold only the config and a bound heuristic, so
they are cheap to build and pickle (the arena runs them in process pools).

Built-in kinds: ``human`` (the page asks the person; ``choose`` refuses),
``random``, ``greedy``, ``minimax``, ``alphabeta``, ``expectimax`` and ``mcts``
(Monte Carlo tree search, :mod:`lib.games.search.mcts`). Any other kind is looked up in
the game's ``GameSpec.players`` (name -> factory(config) -> Player), e.g. Sim's
perfect player.

Spec keys: ``depth`` (a cap; without one a player with a ``time`` budget deepens while
it lasts), ``heuristic`` (``h``), ``weights`` (``w``, numbers joined by ``/``),
``ordering``, ``time`` (seconds), ``beam``, ``endgame`` (exact endgame threshold),
``tt`` (transposition table); for ``mcts``: ``sims``
(simulations), ``time``, ``c`` (exploration constant), ``rollout`` (``random`` or
``heuristic``, which uses ``heuristic`` and ``weights``), ``seed`` and ``solver``
(MCTS-Solver, on unless ``solver=false``: the textbook UCT)::

    >>> parse_player_spec("mcts:time=0.2,c=1.4,rollout=heuristic").label()
    'MCTS 0.2 s (heuristic rollouts)'
    >>> parse_player_spec("mcts:sims=2000").simulations
    2000

``formula`` (``f``) replaces the heuristic by a student's formula over the
game's features (:mod:`lib.games.formula`), percent-encoded so its commas and
brackets survive inside the spec (:func:`encode_formula`; plain text without
commas is read as typed)::

    >>> config = PlayerConfig(formula="max(lines, 2*centre)")
    >>> config.to_spec()
    'alphabeta:formula=max%28lines%2C%202%2Acentre%29'
    >>> parse_player_spec(config.to_spec()).formula
    'max(lines, 2*centre)'
    >>> parse_player_spec("alphabeta:depth=3,formula=lines + 2*centre").label()
    'Alpha-beta d3 (lines + 2*centre)'

``agent`` is a student's own Python file defining ``choose_move(state, seconds_left)``
(``path`` or ``file``, percent-encoded like a formula; ``time``: seconds per move). It
plays only in the Arena (:mod:`lib.games.arena.agents` runs it in a process of its own)
and only on a local install: without ``AI_SEARCH_LAB_LOCAL=1`` (:func:`lib.settings.local_mode`)
a config of that kind is refused, so a hosted server never runs a visitor's code.
"""

from __future__ import annotations

import importlib
import math
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from lib.errors import InputError
from lib.games.core import GameSpec, Move
from lib.games.formula import MAX_TEXT, formula_evaluator
from lib.games.search import fast as search
from lib.games.search import mcts
from lib.games.search.fast import SearchStats
from lib.links import parse_bool
from lib.settings import LOCAL, local_mode

BUILTIN_KINDS: dict[str, str] = {
    "human": "Human",
    "random": "Random",
    "greedy": "Greedy (one ply)",
    "minimax": "Minimax",
    "alphabeta": "Alpha-beta",
    "expectimax": "Expectimax",
    "mcts": "Monte Carlo tree search",
}
"""Player kinds every game has, with their labels."""

MCTS_KIND = "mcts"
"""The kind that plays by Monte Carlo tree search (:mod:`lib.games.search.mcts`)."""

AGENT_KIND = "agent"
"""The kind that plays a student's agent file (local installs only; see the module docstring)."""

AGENT_LOCAL_ONLY = (
    f"Agent files (agent:path=...) run only on a local install: start the app or the "
    f"command line with {LOCAL}=1."
)
"""Why an agent is refused on a hosted server (and how to run one locally)."""

MAX_PATH = 1000
"""Longest agent file path a config accepts."""

SEARCH_KINDS = ("greedy", "minimax", "alphabeta", "expectimax")
"""Kinds that call :func:`lib.games.search.fast.choose_move` and use the search options."""

MAX_DEPTH = 12
"""Largest depth cap a config accepts (pages cap lower)."""

DEFAULT_DEPTH = 4
"""The depth a search player without a depth cap searches when it has no clock either."""

MAX_TIME_LIMIT = 60.0
"""Largest time budget (seconds) a config accepts."""

MAX_SIMULATIONS = 1_000_000
"""Most simulations an MCTS config accepts (pages and the hosted Arena cap lower)."""

MAX_EXPLORATION = 10.0
"""Largest exploration constant c an MCTS config accepts."""


@dataclass(frozen=True)
class PlayerConfig:
    """How a player plays. Frozen, hashable and picklable.

    ``heuristic`` None means the game's default; ``weights`` None means the
    heuristic's default weights. ``depth`` None means no cap: with a time budget the
    search deepens until the clock runs out (or the game's end), without one it searches
    :data:`DEFAULT_DEPTH` (see :attr:`search_depth`).
    """

    kind: str = "alphabeta"
    depth: int | None = None
    heuristic: str | None = None
    weights: tuple[float, ...] | None = None
    ordering: bool = True
    time_limit: float | None = None
    beam: int | None = None
    endgame_exact: int | None = None
    transposition: bool = True
    simulations: int | None = None
    exploration: float = mcts.DEFAULT_EXPLORATION
    rollout: str = "random"
    seed: int | None = None
    formula: str | None = None
    solver: bool = True  # MCTS: back up proven wins and losses (MCTS-Solver)
    path: str | None = None  # agent: the agent file

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or not self.kind:
            raise InputError(f"A player kind must be a name, not {self.kind!r}.")
        self._check_agent()
        if self.depth is None:
            pass
        elif isinstance(self.depth, bool) or not isinstance(self.depth, int | np.integer):
            raise InputError(f"Player depth must be a whole number, not {self.depth!r}.")
        elif not 1 <= self.depth <= MAX_DEPTH:
            raise InputError(f"Player depth must be from 1 to {MAX_DEPTH}, not {self.depth}.")
        if self.time_limit is not None and not 0 < self.time_limit <= MAX_TIME_LIMIT:
            raise InputError(
                f"Time budget must be above 0 and at most {MAX_TIME_LIMIT:g} s, "
                f"not {self.time_limit}."
            )
        if self.beam is not None and self.beam < 1:
            raise InputError(f"Beam width must be at least 1, not {self.beam}.")
        if self.endgame_exact is not None and self.endgame_exact < 0:
            raise InputError(
                f"Exact-endgame threshold must be 0 or more, not {self.endgame_exact}."
            )
        if self.simulations is not None and (
            isinstance(self.simulations, bool)
            or not isinstance(self.simulations, int | np.integer)
            or not 1 <= self.simulations <= MAX_SIMULATIONS
        ):
            raise InputError(
                f"Simulations must be a whole number from 1 to {MAX_SIMULATIONS:,}, "
                f"not {self.simulations}."
            )
        if not (
            isinstance(self.exploration, int | float) and 0 <= self.exploration <= MAX_EXPLORATION
        ):
            raise InputError(
                f"The exploration constant c must be from 0 to {MAX_EXPLORATION:g}, "
                f"not {self.exploration}."
            )
        object.__setattr__(self, "exploration", float(self.exploration))
        if self.rollout not in mcts.ROLLOUTS:
            raise InputError(
                f"Rollout must be one of {', '.join(mcts.ROLLOUTS)}, not {quoted(self.rollout)}."
            )
        if self.seed is not None and (
            isinstance(self.seed, bool)
            or not isinstance(self.seed, int | np.integer)
            or not 0 <= self.seed < 2**63
        ):
            raise InputError(f"A seed must be a whole number from 0 up, not {self.seed}.")
        if self.weights is not None:
            weights = tuple(float(w) for w in self.weights)
            bad = [w for w in weights if not math.isfinite(w)]
            if bad:
                raise InputError(f"Heuristic weights must be finite numbers, not {bad[0]}.")
            object.__setattr__(self, "weights", weights)
        if self.formula is not None:
            _check_formula_text(self.formula)

    def _check_agent(self) -> None:
        """Refuse an agent off a local install, without a path, or a path on another kind."""
        if self.kind != AGENT_KIND:
            if self.path is not None:
                raise InputError(f"Only agent players take a file, not {quoted(self.kind)}.")
            return
        if not local_mode():
            raise InputError(AGENT_LOCAL_ONLY)
        if not isinstance(self.path, str) or not self.path.strip():
            raise InputError("An agent player needs its file: write e.g. agent:path=my_agent.py.")
        if len(self.path) > MAX_PATH or "\0" in self.path:
            raise InputError(f"Agent file path {quoted(self.path)} is not a usable file path.")
        searching = ("depth", "heuristic", "weights", "beam", "endgame_exact", "simulations")
        extra = [
            _SPEC_KEYS.get(name, name) for name in searching if getattr(self, name) is not None
        ]
        if extra or self.formula is not None:
            raise InputError(
                f"An agent player takes only path and time, not {', '.join(extra) or 'formula'}."
            )

    @property
    def search_depth(self) -> int | None:
        """The depth cap a search uses: ``depth`` when set; else none (None) with a time
        budget, :data:`DEFAULT_DEPTH` without one."""
        if self.depth is not None:
            return self.depth
        return None if self.time_limit is not None else DEFAULT_DEPTH

    @property
    def is_human(self) -> bool:
        """True for the ``human`` kind."""
        return self.kind == "human"

    def to_spec(self) -> str:
        """The text form; only settings that differ from the defaults are written."""
        if self.kind == AGENT_KIND:
            parts = [f"path={urllib.parse.quote(str(self.path), safe='/._-~')}"]
            if self.time_limit is not None:
                parts.append(f"time={self.time_limit:g}")
            return f"{self.kind}:{','.join(parts)}"
        defaults = PlayerConfig(kind=self.kind)
        parts = []
        if self.kind == MCTS_KIND:
            parts = self._mcts_spec_parts()
        elif self.kind in SEARCH_KINDS or self.kind not in BUILTIN_KINDS:
            if self.depth != defaults.depth:
                parts.append(f"depth={self.depth}")
            if self.heuristic is not None:
                parts.append(f"heuristic={self.heuristic}")
            if self.weights is not None:
                parts.append("weights=" + "/".join(f"{w:g}" for w in self.weights))
            if self.ordering != defaults.ordering:
                parts.append(f"ordering={str(self.ordering).lower()}")
            if self.time_limit is not None:
                parts.append(f"time={self.time_limit:g}")
            if self.beam is not None:
                parts.append(f"beam={self.beam}")
            if self.endgame_exact is not None:
                parts.append(f"endgame={self.endgame_exact}")
            if self.transposition != defaults.transposition:
                parts.append(f"tt={str(self.transposition).lower()}")
            if self.formula is not None:
                parts.append(f"formula={encode_formula(self.formula)}")
        return self.kind + (":" + ",".join(parts) if parts else "")

    def _mcts_spec_parts(self) -> list[str]:
        """The ``key=value`` parts of an MCTS spec (settings that differ from the defaults)."""
        parts = []
        if self.simulations is not None:
            parts.append(f"sims={self.simulations}")
        if self.time_limit is not None:
            parts.append(f"time={self.time_limit:g}")
        if self.exploration != mcts.DEFAULT_EXPLORATION:
            parts.append(f"c={self.exploration:g}")
        if self.rollout != "random":
            parts.append(f"rollout={self.rollout}")
        if self.heuristic is not None:
            parts.append(f"heuristic={self.heuristic}")
        if self.weights is not None:
            parts.append("weights=" + "/".join(f"{w:g}" for w in self.weights))
        if self.seed is not None:
            parts.append(f"seed={self.seed}")
        if self.formula is not None:
            parts.append(f"formula={encode_formula(self.formula)}")
        if not self.solver:
            parts.append("solver=false")
        return parts

    def label(self) -> str:
        """A short human-readable description, e.g. ``"Alpha-beta d5 (table)"``.

        MCTS: its budget, a non-default c and heuristic rollouts, e.g.
        ``"MCTS 2000 sims c=0.7 (heuristic rollouts)"``.
        """
        if self.kind == MCTS_KIND:
            return self._mcts_label()
        if self.kind == AGENT_KIND:
            return f"Agent {str(self.path).replace(chr(92), '/').rpartition('/')[2]}"
        name = BUILTIN_KINDS.get(self.kind, self.kind.replace("_", " ").capitalize())
        if self.kind in ("minimax", "alphabeta", "expectimax"):
            depth = self.search_depth
            name += f" {self.time_limit:g} s" if depth is None else f" d{depth}"
        if self.kind in SEARCH_KINDS and self.formula is not None:
            name += f" ({short_formula(self.formula)})"
        elif self.kind in SEARCH_KINDS and self.heuristic:
            name += f" ({self.heuristic}{'*' if self.weights is not None else ''})"
        return name

    def _mcts_label(self) -> str:
        budgets = []
        if self.simulations is not None:
            budgets.append(f"{self.simulations} sims")
        if self.time_limit is not None:
            budgets.append(f"{self.time_limit:g} s")
        name = "MCTS " + (" / ".join(budgets) or f"{mcts.DEFAULT_SIMULATIONS} sims")
        if self.exploration != mcts.DEFAULT_EXPLORATION:
            name += f" c={self.exploration:g}"
        if self.rollout == "heuristic" and self.formula is not None:
            name += f" ({short_formula(self.formula)} rollouts)"
        elif self.rollout == "heuristic":
            heuristic = f"{self.heuristic}{'*' if self.weights is not None else ''} "
            name += f" ({heuristic if self.heuristic else ''}heuristic rollouts)"
        if not self.solver:
            name += " without solver"
        return name


_KEY_ALIASES = {
    "d": "depth",
    "depth": "depth",
    "h": "heuristic",
    "heuristic": "heuristic",
    "w": "weights",
    "weights": "weights",
    "ordering": "ordering",
    "order": "ordering",
    "time": "time_limit",
    "time_limit": "time_limit",
    "t": "time_limit",
    "beam": "beam",
    "endgame": "endgame_exact",
    "endgame_exact": "endgame_exact",
    "tt": "transposition",
    "transposition": "transposition",
    "sims": "simulations",
    "simulations": "simulations",
    "c": "exploration",
    "exploration": "exploration",
    "rollout": "rollout",
    "seed": "seed",
    "formula": "formula",
    "f": "formula",
    "solver": "solver",
    "path": "path",
    "file": "path",
}

FORMULA_LABEL = 24
"""Longest formula a player's label repeats whole."""


def encode_formula(text: str) -> str:
    """``text`` percent-encoded for a player spec (no ``,`` ``=`` ``:`` or spaces left).

    >>> encode_formula("if(empties < 12, discs, corners)")
    'if%28empties%20%3C%2012%2C%20discs%2C%20corners%29'
    """
    return urllib.parse.quote(text, safe="")


def decode_formula(text: str) -> str:
    """The formula an :func:`encode_formula` value (or plain typed text) stands for."""
    return urllib.parse.unquote(text, errors="strict")


def short_formula(text: str) -> str:
    """``text`` on one line, cut to :data:`FORMULA_LABEL` characters with ``…``."""
    text = " ".join(text.split())
    return text if len(text) <= FORMULA_LABEL else text[: FORMULA_LABEL - 1] + "…"


def _check_formula_text(formula: object) -> None:
    """Refuse a formula that is not text or is longer than a formula may be."""
    if not isinstance(formula, str):
        raise InputError(f"A formula must be text, not {formula!r}.")
    if len(formula) > MAX_TEXT:
        raise InputError(f"Formula: {len(formula):,} characters; at most {MAX_TEXT}.")


QUOTE_LIMIT = 40
"""Longest text a message repeats whole (a link may carry thousands of characters)."""


def quoted(text: object) -> str:
    """``repr(text)``, cut to :data:`QUOTE_LIMIT` characters with the full length said."""
    text = str(text)
    if len(text) <= QUOTE_LIMIT:
        return repr(text)
    return f"{text[:QUOTE_LIMIT]!r}… ({len(text):,} characters)"


def _parse_bool(key: str, value: str, spec: str) -> bool:
    try:
        return parse_bool(value)
    except ValueError:
        raise InputError(
            f"Player spec {quoted(spec)}: {key} must be true or false, not {quoted(value)}."
        ) from None


def _parse_number(key: str, value: str, spec: str, kind: type) -> Any:
    if value.lower() in ("none", ""):
        return None
    try:
        return kind(value)
    except ValueError:
        expected = "a whole number" if kind is int else "a number"
        raise InputError(
            f"Player spec {quoted(spec)}: {key} must be {expected}, not {quoted(value)}."
        ) from None


def parse_player_spec(spec: str) -> PlayerConfig:
    """Parse ``"kind[:key=value,...]"`` (see the module docstring) into a :class:`PlayerConfig`.

    Raises
    ------
    InputError
        Naming the offending key or value.
    """
    kind, values = _spec_values(spec)
    return PlayerConfig(kind=kind, **values)


def parse_player_spec_to_fit(
    spec: str,
    max_depth: Mapping[str, int] | None = None,
    max_time: float = MAX_TIME_LIMIT,
    max_simulations: int = MAX_SIMULATIONS,
    max_exploration: float = MAX_EXPLORATION,
) -> tuple[PlayerConfig, list[str]]:
    """Like :func:`parse_player_spec`, but numbers outside the accepted ranges are moved inside.

    ``max_depth`` (kind -> depth), ``max_time``, ``max_simulations`` and
    ``max_exploration`` narrow the ranges (a page's caps). Returns the config
    and one ``"depth 20 → 8"`` note per value moved. Text that cannot be read
    at all (an unknown key, a word for a number) still raises.
    """
    kind, values = _spec_values(spec)
    limits = {
        "depth": (1, min(MAX_DEPTH, (max_depth or {}).get(kind, MAX_DEPTH))),
        "time_limit": (0.05, min(MAX_TIME_LIMIT, max_time)),
        "beam": (1, None),
        "endgame_exact": (0, None),
        "simulations": (1, min(MAX_SIMULATIONS, max_simulations)),
        "exploration": (0.0, min(MAX_EXPLORATION, max_exploration)),
    }
    changes = []
    for name, (low, high) in limits.items():
        value = values.get(name)
        if value is None or not math.isfinite(value):
            continue
        fitted = max(low, value) if high is None else min(max(low, value), high)
        if fitted != value:
            values[name] = type(value)(fitted)
            changes.append(f"{_SPEC_KEYS.get(name, name)} {value:g} → {fitted:g}")
    return PlayerConfig(kind=kind, **values), changes


_SPEC_KEYS = {
    "time_limit": "time",
    "endgame_exact": "endgame",
    "transposition": "tt",
    "simulations": "sims",
    "exploration": "c",
}
"""The spec key of each config field whose name differs."""


def _spec_values(spec: str) -> tuple[str, dict[str, Any]]:
    """The kind and the settings written in a player spec, read but not yet checked."""
    text = str(spec).strip()
    if not text:
        raise InputError("An empty player spec; write e.g. 'alphabeta:depth=4'.")
    kind, _, rest = text.partition(":")
    kind = kind.strip().lower().replace("-", "")
    if not kind.replace("_", "").isalnum():
        raise InputError(f"Player spec {quoted(spec)}: {quoted(kind)} is not a player kind.")
    values: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not sep:
            raise InputError(f"Player spec {quoted(spec)}: {quoted(item)} should be key=value.")
        field_name = _KEY_ALIASES.get(key)
        if field_name is None:
            known = (
                "depth, heuristic, weights, ordering, time, beam, endgame, tt, formula "
                "(mcts: sims, time, c, rollout, heuristic, weights, seed, formula, solver; "
                "agent: path, time)"
            )
            raise InputError(
                f"Player spec {quoted(spec)}: unknown setting {quoted(key)}; use {known}."
            )
        if field_name in ("depth", "beam", "endgame_exact", "simulations", "seed"):
            values[field_name] = _parse_number(key, value, spec, int)
        elif field_name == "time_limit":
            values[field_name] = _parse_number(key, value, spec, float)
        elif field_name == "exploration":
            number = _parse_number(key, value, spec, float)
            if number is not None:  # "c=none": the default
                values[field_name] = number
        elif field_name == "rollout":
            values[field_name] = value.lower() or "random"
        elif field_name in ("ordering", "transposition", "solver"):
            values[field_name] = _parse_bool(key, value, spec)
        elif field_name == "heuristic":
            values[field_name] = value or None
        elif field_name in ("formula", "path"):
            values[field_name] = _parse_text(field_name, value, spec)
        else:
            parts = [p for p in value.replace(";", "/").split("/") if p.strip()]
            values[field_name] = tuple(_parse_number(key, p, spec, float) for p in parts)
    return kind, values


def _parse_text(name: str, value: str, spec: str) -> str | None:
    """The text a spec's ``formula=`` (``name``) or ``path=`` value carries (None when empty)."""
    try:
        text = decode_formula(value)
    except UnicodeDecodeError:
        raise InputError(
            f"Player spec {quoted(spec)}: the {name} is not percent-encoded UTF-8 text."
        ) from None
    return text if text.strip() else None


@dataclass(frozen=True)
class Decision:
    """A player's move and, for search players, what the search did."""

    move: Move
    stats: SearchStats | mcts.MctsStats | None = None
    value: float | None = None  # MCTS: the move's win rate for the player to move


class Player(Protocol):
    """Anything with a config and ``choose(state, rng) -> Decision``."""

    config: PlayerConfig

    def choose(self, state: Any, rng: np.random.Generator) -> Decision:
        """Pick a move for the player to move in ``state``."""


@dataclass(frozen=True)
class HumanPlayer:
    """Placeholder for a person: the page asks them; ``choose`` refuses."""

    config: PlayerConfig

    def choose(self, state: Any, rng: np.random.Generator) -> Decision:
        """Humans move through the page, not through this call."""
        raise InputError("A human player moves on the board; it cannot be asked for a move.")


@dataclass(frozen=True)
class RandomPlayer:
    """Plays a uniformly random legal move (from ``rng``)."""

    config: PlayerConfig

    def choose(self, state: Any, rng: np.random.Generator) -> Decision:
        """A random legal move."""
        moves = state.legal_moves()
        if not moves:
            raise InputError("The game is over: there is no move to choose.")
        return Decision(moves[int(rng.integers(len(moves)))])


@dataclass(frozen=True)
class SearchPlayer:
    """Plays by :func:`lib.games.search.fast.choose_move` with the config's settings."""

    config: PlayerConfig
    evaluate: Any  # a core.Evaluator (picklable) or any evaluate(state, player) callable

    def choose(
        self,
        state: Any,
        rng: np.random.Generator,
        *,
        record_tree: bool = False,
        exact_root_scores: bool = False,
        on_progress: Callable[[SearchStats], None] | None = None,
    ) -> Decision:
        """Search and return the move with its statistics.

        ``record_tree`` keeps the explored tree (for small searches the page
        draws); ``exact_root_scores`` gives every root move its exact value
        instead of alpha-beta's bound (the page's hint); ``on_progress`` sees the
        statistics while the search runs (see :func:`lib.games.search.fast.choose_move`).
        """
        config = self.config
        result = search.choose_move(
            state,
            algorithm=config.kind,
            depth=config.search_depth,
            heuristic=self.evaluate,
            ordering=config.ordering,
            time_limit=config.time_limit,
            beam=config.beam,
            endgame_exact=config.endgame_exact,
            transposition=config.transposition,
            record_tree=record_tree,
            exact_root_scores=exact_root_scores,
            rng=rng,
            on_progress=on_progress,
        )
        return Decision(result.move, result.stats, result.value)


@dataclass(frozen=True)
class MctsPlayer:
    """Plays by Monte Carlo tree search (:func:`lib.games.search.mcts.mcts_search`)."""

    config: PlayerConfig
    evaluate: Any  # the bound heuristic that judges heuristic rollouts

    def choose(
        self,
        state: Any,
        rng: np.random.Generator,
        *,
        on_progress: Callable[[Any], None] | None = None,
    ) -> Decision:
        """Search and return the most-visited move with its statistics.

        A config with a ``seed`` searches with its own generator seeded afresh for
        every move (the same position gives the same move); otherwise ``rng``.
        ``on_progress`` sees the statistics while the search runs.
        """
        config = self.config
        if config.seed is not None:
            rng = np.random.default_rng(config.seed)
        result = mcts.mcts_search(
            state,
            simulations=config.simulations,
            time_limit=config.time_limit,
            exploration=config.exploration,
            rollout=config.rollout,
            evaluate=self.evaluate,
            rng=rng,
            on_progress=on_progress,
            solver=config.solver,
        )
        return Decision(result.move, result.stats, result.value)


def available_kinds(game: GameSpec) -> dict[str, str]:
    """Player kinds for ``game`` (built-in and game-specific) with their labels."""
    kinds = dict(BUILTIN_KINDS)
    for name in game.players:
        kinds[name] = name.replace("_", " ").capitalize()
    return kinds


def bind_heuristic(config: PlayerConfig, game: GameSpec) -> Any:
    """The config's heuristic and weights bound for ``game`` (a ``core.Evaluator``).

    A config with a ``formula`` gets it compiled (once: see
    :func:`~lib.games.formula.formula_evaluator`) into a picklable
    :class:`~lib.games.formula.FormulaEvaluator`; its errors name the character.
    """
    if config.formula is not None:
        return formula_evaluator(game, config.formula)
    name = config.heuristic or game.default_heuristic
    if name not in game.heuristics:
        raise InputError(
            f"{game.title} has no heuristic {quoted(name)}; "
            f"choose one of {', '.join(game.heuristics)}."
        )
    return game.heuristics[name].bind(config.weights)


def make_player(config: PlayerConfig, game: GameSpec) -> Any:
    """Build the :class:`Player` that ``config`` describes for ``game``.

    Raises
    ------
    InputError
        For an unknown kind or heuristic, or weights of the wrong length.
    """
    if config.kind in game.players:
        module, _, factory = game.players[config.kind].partition(":")
        return getattr(importlib.import_module(module), factory)(config)
    if config.kind == "human":
        return HumanPlayer(config)
    if config.kind == "random":
        return RandomPlayer(config)
    if config.kind in SEARCH_KINDS:
        return SearchPlayer(config, bind_heuristic(config, game))
    if config.kind == MCTS_KIND:
        return MctsPlayer(config, bind_heuristic(config, game))
    if config.kind == AGENT_KIND:
        raise InputError("An agent file plays in the Arena (matches, tournaments, the ladder).")
    raise InputError(
        f"Unknown player kind {quoted(config.kind)} for {game.title}; "
        f"choose one of {', '.join(available_kinds(game))}."
    )
