"""The sidebar's player controls of a game page, seeded from the page's link.

:func:`player_controls` draws one player's widgets (kind, depth, heuristic and
weights, search options) within this page's caps; :func:`query_config` and
:func:`query_option` read a shared link's settings, naming each value they
cannot use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

from lib.errors import InputError
from lib.games.core import GameSpec, get_game
from lib.games.search import mcts
from lib.games.search.exact_timing import SolveTiming, solve_timing
from lib.games.search.players import (
    MAX_DEPTH,
    MCTS_KIND,
    SEARCH_KINDS,
    PlayerConfig,
    available_kinds,
    parse_player_spec,
    parse_player_spec_to_fit,
    quoted,
)
from lib.links import LinkField, shown
from lib.ui.common import escape_markdown, read_query
from lib.ui.formula_panel import FORMULA_CHOICE, formula_controls, heuristic_names
from lib.ui.game_state import PlayerKeys

UI_MAX_DEPTH = {"alphabeta": 8, "minimax": 4, "expectimax": 4, "greedy": 1}
"""Depth caps per algorithm in the UI (a hosted server must stay responsive)."""
UI_MAX_TIME = 5.0
"""Largest time budget (seconds) a visitor may give one AI move."""
DEFAULT_TIME = 1.0
"""Time budget of an AI move whose settings give none."""
UI_MAX_SIMULATIONS = 20_000
"""Most simulations a visitor may give one MCTS move (its time budget stops it sooner)."""
UI_MAX_EXPLORATION = 4.0
"""Largest exploration constant c the page offers."""


def init_widget(key: str, value: Any) -> Any:
    """Seed the widget ``key`` with ``value`` once; return its current value.

    Pass what it returns to the widget as its default too (``value=``, or ``index=``
    for a select): see :func:`lib.ui.common.current` for why.
    """
    if key not in st.session_state:
        st.session_state[key] = value
    return st.session_state[key]


def _init_clamped(
    changed: list[str], name: str, key: str, value: float, low: float, high: float, why: str
) -> Any:
    """Seed a slider once, and keep its value inside [low, high] (URL values may be anything).

    When the seeded value had to be moved inside the range, ``changed`` gets
    ``"<name> <old> → <new> (<why>)"`` for the page to say so. Returns the value, for
    the widget's ``value=`` (see :func:`init_widget`).
    """
    seeding = key not in st.session_state
    current = init_widget(key, value)
    if not low <= current <= high:
        st.session_state[key] = type(current)(min(max(current, low), high))
        if seeding:
            changed.append(f"{name} {current:g} → {st.session_state[key]:g} ({why})")
    return st.session_state[key]


def _time_budget_slider(key: str, value: float, changed: list[str], help_text: str) -> float:
    """The time budget per move in seconds, seeded with ``value`` inside this page's range."""
    why = f"this page allows 0.1 to {UI_MAX_TIME:g} s per move"
    value = _init_clamped(changed, "time", key, value, 0.1, UI_MAX_TIME, why)
    return st.slider(
        "Time budget per move (s)", 0.1, UI_MAX_TIME, value, step=0.1, key=key, help=help_text
    )


ALGORITHM_NAMES = {
    "alphabeta": "alpha-beta",
    "minimax": "minimax",
    "expectimax": "expectimax",
    "greedy": "greedy",
}


def depth_limits() -> str:
    """This page's depth caps in words, e.g. "alpha-beta 8, minimax 4, expectimax 4"."""
    return ", ".join(
        f"{ALGORITHM_NAMES[kind]} {cap}" for kind, cap in UI_MAX_DEPTH.items() if cap > 1
    )


def player_controls(
    game: GameSpec,
    keys: PlayerKeys,
    label: str,
    default: PlayerConfig,
    *,
    allow_human: bool = True,
    notes: list[str] | None = None,
    ai_depth: int | None = None,
    link_changes: Sequence[str] = (),
) -> PlayerConfig:
    """Widgets for one player (kind, depth, heuristic and weights, ordering, time, beam ...).

    ``default`` seeds the widgets on first use (e.g. from a URL query
    parameter); afterwards the widgets are the source of truth. Widget keys
    are ``keys`` (one side's, see :class:`lib.ui.game_state.PlayerKeys`).
    Returns the validated :class:`PlayerConfig`.
    Problems with ``default`` (weights that do not fit the heuristic) are shown
    in the sidebar and appended to ``notes``, for the page to show in its main
    area too.
    """
    kind, shown = _kind_select(game, keys, label, default, allow_human)
    if kind == MCTS_KIND:
        return mcts_controls(game, keys, label, default, notes=notes, link_changes=link_changes)
    if kind not in SEARCH_KINDS:
        return PlayerConfig(kind=kind)
    changed = list(link_changes)  # settings from the URL moved inside this page's limits
    depth = None  # greedy looks one ply ahead whatever the depth
    if kind != "greedy":
        depth = _depth_slider(keys, label, kind, shown, default, ai_depth, changed)
    heuristic_name, weights, formula = _heuristic_controls(
        game, keys, label, default, notes, changed
    )
    options = SearchOptions()
    if kind != "greedy":
        with st.expander(f"{label}: search options"):
            options = _search_options(game, keys, kind, default, changed)
    if changed and notes is not None:
        notes.append(f"{label}: changed the link's settings: " + "; ".join(changed) + ".")
    return PlayerConfig(
        kind=kind,
        depth=depth,
        heuristic=None if heuristic_name == game.default_heuristic else heuristic_name,
        weights=weights,
        ordering=options.ordering,
        time_limit=options.time_limit,
        beam=options.beam,
        endgame_exact=options.endgame,
        transposition=options.transposition,
        formula=formula,
    )


def _kind_select(
    game: GameSpec, keys: PlayerKeys, label: str, default: PlayerConfig, allow_human: bool
) -> tuple[str, str | None]:
    """The player's kind (a person, a search, MCTS ...), and the kind shown in the last run."""
    kinds = available_kinds(game)
    if not allow_human:
        kinds.pop("human", None)
    kind_default = default.kind if default.kind in kinds else next(iter(kinds))
    kind = init_widget(keys.KIND, kind_default)
    kind = st.selectbox(
        f"{label}: player",
        list(kinds),
        index=list(kinds).index(kind),
        format_func=kinds.get,
        key=keys.KIND,
    )
    shown, st.session_state[keys.KIND_SHOWN] = st.session_state.get(keys.KIND_SHOWN), kind
    return kind, shown


def _depth_slider(
    keys: PlayerKeys,
    label: str,
    kind: str,
    shown: str | None,
    default: PlayerConfig,
    ai_depth: int | None,
    changed: list[str],
) -> int | None:
    """The search's depth cap (None: none), within this page's cap for ``kind`` (kept when the
    algorithm changes)."""
    cap = UI_MAX_DEPTH.get(kind, 6)
    # Each algorithm's slider has its own range, so Streamlit makes it a new widget (at
    # its minimum) when the algorithm changes: carry the depth over from the last one.
    kept = st.session_state.get(keys.DEPTH_KEPT)
    if kept is not None and shown != kind:
        st.session_state[keys.DEPTH] = min(max(kept, 0), cap)
    seed_depth = default.depth if default.kind in SEARCH_KINDS else ai_depth
    depth = _init_clamped(
        changed,
        "depth",
        keys.DEPTH,
        seed_depth or 0,  # 0: no cap
        0,
        cap,
        f"this page allows depth 1 to {cap} for {ALGORITHM_NAMES.get(kind, kind)}",
    )
    depth = st.slider(
        f"{label}: depth cap (plies, 0 = none)",
        0,
        cap,
        depth,
        key=keys.DEPTH,
        help="How many moves ahead the AI may look (a forced pass counts as a move). "
        "It deepens one ply at a time while its time budget lasts; 0: no cap, it goes on "
        "until the time runs out or it sees the end of the game.",
    )
    st.session_state[keys.DEPTH_KEPT] = depth
    return depth or None


def _heuristic_controls(
    game: GameSpec,
    keys: PlayerKeys,
    label: str,
    default: PlayerConfig,
    notes: list[str] | None,
    changed: list[str],
) -> tuple[str, tuple[float, ...] | None, str | None]:
    """The heuristic, its weights (None: the heuristic's defaults) and a student's formula.

    With "Your formula…" chosen the formula box appears; an invalid formula plays the
    default heuristic (its error says so).
    """
    names = heuristic_names(game)
    from_link = FORMULA_CHOICE if default.formula is not None and FORMULA_CHOICE in names else None
    init_widget(keys.HEURISTIC, from_link or default.heuristic or game.default_heuristic)
    if st.session_state[keys.HEURISTIC] not in names:
        changed.append(
            f"heuristic {escape_markdown(st.session_state[keys.HEURISTIC])} → "
            f"{game.default_heuristic} ({game.title} has {', '.join(names)})"
        )
        st.session_state[keys.HEURISTIC] = game.default_heuristic
    heuristic_name = st.selectbox(
        f"{label}: heuristic",
        names,
        index=names.index(st.session_state[keys.HEURISTIC]),
        key=keys.HEURISTIC,
        help="The evaluation function used where the search stops.",
    )
    if heuristic_name == FORMULA_CHOICE:
        return (
            game.default_heuristic,
            None,
            formula_controls(game, keys.FORMULA, label, default.formula),
        )
    heuristic = game.heuristics[heuristic_name]
    problem = weights_problem(default, game, heuristic_name, label)
    if problem and notes is not None and problem not in notes:
        notes.append(problem)
    if not heuristic.weight_names:
        st.caption(heuristic.description)
        if problem:
            st.warning(problem)
        return heuristic_name, None, None
    with st.expander(f"{label}: weights of '{heuristic_name}'", expanded=bool(problem)):
        st.caption(heuristic.description)
        if problem:
            st.warning(problem)
        values = []
        use_default = (
            problem is not None
            or default.weights is None
            or (default.heuristic or game.default_heuristic) != heuristic_name
        )
        for index, (name, value) in enumerate(
            zip(heuristic.weight_names, heuristic.default_weights, strict=True)
        ):
            seed = value if use_default else default.weights[index]
            wkey = keys.weight(heuristic_name, name)
            seed = init_widget(wkey, float(seed))
            values.append(st.number_input(name, value=seed, key=wkey, step=1.0, format="%.3g"))
    if tuple(values) != tuple(heuristic.default_weights):
        return heuristic_name, tuple(float(v) for v in values), None
    return heuristic_name, None, None


@dataclass(frozen=True)
class SearchOptions:
    """A search player's options beyond depth and heuristic (greedy's: none of them)."""

    time_limit: float | None = None
    ordering: bool = True
    transposition: bool = True
    beam: int | None = None
    endgame: int | None = None


def _search_options(
    game: GameSpec, keys: PlayerKeys, kind: str, default: PlayerConfig, changed: list[str]
) -> SearchOptions:
    """Time budget; alpha-beta's ordering, table and beam; the exact endgame where a game
    can tell how many moves are left."""
    time_limit = _time_budget_slider(
        keys.TIME,
        # an MCTS budget (up to the page's largest, see mcts_controls) is not carried
        # over to a search
        float((default.kind in SEARCH_KINDS and default.time_limit) or DEFAULT_TIME),
        changed,
        "Iterative deepening: the deepest search finished in time is used.",
    )
    options = SearchOptions(time_limit=float(time_limit))
    if kind == "alphabeta":
        options = _alphabeta_options(keys, default, changed, options)
    has_hint = hasattr(game.initial_state(), "plies_left_hint")
    if kind in ("alphabeta", "minimax") and has_hint:
        endgame = _init_clamped(
            changed,
            "endgame",
            keys.ENDGAME,
            default.endgame_exact or 0,
            0,
            14,
            "this page allows 0 to 14",
        )
        # the game's own solver is tried first at every move whatever this says (alpha-beta
        # only); "0 = off" over it made students think they had switched it off
        solver_first = kind == "alphabeta" and bool(game.exact_solver)
        endgame = st.slider(
            "Exact endgame: search to the end when at most this many moves are left (0 = off)",
            0,
            14,
            endgame,
            key=keys.ENDGAME,
            help=(
                "The game's exact solver is tried first at every move, whatever this says: "
                "when it finishes within the time budget, its perfect move is played. This "
                "setting is for the search itself: near the end it looks to the end of the "
                "game instead of stopping at its depth."
                if solver_first
                else "Near the end the search looks to the end of the game instead of "
                "stopping at its depth, and so plays perfectly."
            ),
        )
        options = replace(options, endgame=endgame or None)
        if endgame and game.exact_solver:
            st.caption(f"The exact solver at {exact_solve_timing(game.name, endgame).text()}.")
    return options


@st.cache_data(show_spinner="Timing the exact solver on this server…", max_entries=64)
def exact_solve_timing(game_name: str, empties: int) -> SolveTiming:
    """How long the game's exact solver takes at ``empties`` empty squares on this server
    (measured once per server and size: a few solves of a few milliseconds to 2 s)."""
    return solve_timing(get_game(game_name), empties)


def _alphabeta_options(
    keys: PlayerKeys, default: PlayerConfig, changed: list[str], options: SearchOptions
) -> SearchOptions:
    """Move ordering, the transposition table and the beam width of alpha-beta."""
    ordering = init_widget(keys.ORDERING, default.ordering)
    ordering = st.toggle(
        "Move ordering",
        ordering,
        key=keys.ORDERING,
        help="Search the best-looking moves first.",
    )
    transposition = init_widget(keys.TRANSPOSITION, default.transposition)
    transposition = st.toggle(
        "Transposition table",
        transposition,
        key=keys.TRANSPOSITION,
        help="Reuse values of positions reached by another move order.",
    )
    beam = _init_clamped(
        changed, "beam", keys.BEAM, default.beam or 0, 0, 10, "this page allows 0 to 10"
    )
    beam = st.slider(
        "Beam (0 = off)",
        0,
        10,
        beam,
        key=keys.BEAM,
        help="Expand only the k best-looking moves at each node (the course used 3).",
    )
    return replace(options, ordering=ordering, transposition=transposition, beam=beam or None)


def mcts_controls(
    game: GameSpec,
    keys: PlayerKeys,
    label: str,
    default: PlayerConfig,
    *,
    notes: list[str] | None = None,
    link_changes: Sequence[str] = (),
) -> PlayerConfig:
    """Widgets for a Monte Carlo tree search player: simulations, time, c, rollout (+ heuristic).

    The search stops at the number of simulations or at the time budget, whichever comes
    first. A link that names only one of the two gets the page's largest value for the
    other, so the one it names decides; naming neither gives
    :data:`~lib.games.search.mcts.DEFAULT_SIMULATIONS` within :data:`UI_MAX_TIME`.
    """
    seed = default if default.kind == MCTS_KIND else PlayerConfig(kind=MCTS_KIND)
    changed = list(link_changes)
    simulations = _simulations_input(keys, label, seed, changed)
    with st.expander(f"{label}: search options"):
        time_limit = _time_budget_slider(
            keys.MCTS_TIME,
            float(seed.time_limit or UI_MAX_TIME),
            changed,
            "The search stops here even if simulations are left.",
        )
        exploration = _init_clamped(
            changed,
            "c",
            keys.EXPLORATION,
            seed.exploration,
            0.0,
            UI_MAX_EXPLORATION,
            f"this page allows c from 0 to {UI_MAX_EXPLORATION:g}",
        )
        exploration = st.slider(
            "Exploration constant c",
            0.0,
            UI_MAX_EXPLORATION,
            exploration,
            step=0.1,
            key=keys.EXPLORATION,
            help="UCB1 = win rate + c·sqrt(ln N / n): a larger c tries the less-visited moves "
            "more often; c = 0 always follows the best win rate so far.",
        )
        solver = init_widget(keys.SOLVER, seed.solver)
        solver = st.toggle(
            "Solver: prove wins and losses",
            solver,
            key=keys.SOLVER,
            help="MCTS-Solver: a move that wins by force is proven and played (the fastest "
            "win); a proven loss is avoided. Off: the textbook UCT, averages only.",
        )
        rollout, heuristic_name, weights = _rollout_controls(
            game, keys, label, seed, notes, changed
        )
    if changed and notes is not None:
        notes.append(f"{label}: changed the link's settings: " + "; ".join(changed) + ".")
    return PlayerConfig(
        kind=MCTS_KIND,
        simulations=int(simulations),
        time_limit=float(time_limit),
        exploration=float(exploration),
        rollout=rollout,
        heuristic=heuristic_name,
        weights=weights,
        seed=seed.seed,
        solver=bool(solver),
    )


def _simulations_input(keys: PlayerKeys, label: str, seed: PlayerConfig, changed: list[str]) -> int:
    """Simulations per move (a link naming only a time budget gets the page's largest)."""
    simulations = seed.simulations
    if simulations is None:
        simulations = mcts.DEFAULT_SIMULATIONS if seed.time_limit is None else UI_MAX_SIMULATIONS
    simulations = _init_clamped(
        changed,
        "sims",
        keys.SIMULATIONS,
        simulations,
        1,
        UI_MAX_SIMULATIONS,
        f"this page allows 1 to {UI_MAX_SIMULATIONS:,} simulations",
    )
    return st.number_input(
        f"{label}: simulations per move",
        1,
        UI_MAX_SIMULATIONS,
        simulations,
        step=100,
        key=keys.SIMULATIONS,
        help="Each simulation walks down the tree by UCB1, adds one position and plays the "
        "game out from it. More simulations play better and take longer.",
    )


def _rollout_controls(
    game: GameSpec,
    keys: PlayerKeys,
    label: str,
    seed: PlayerConfig,
    notes: list[str] | None,
    changed: list[str],
) -> tuple[str, str | None, tuple[float, ...] | None]:
    """The rollout kind and, for heuristic rollouts, the heuristic and a link's weights."""
    rollout = init_widget(keys.ROLLOUT, seed.rollout)
    rollout = st.selectbox(
        "Rollouts",
        list(mcts.ROLLOUTS),
        index=list(mcts.ROLLOUTS).index(rollout),
        format_func=mcts.ROLLOUTS.get,
        key=keys.ROLLOUT,
        help=f"Random: random moves to the end of the game. Heuristic: "
        f"{mcts.HEURISTIC_ROLLOUT_PLIES} random moves, then the side the heuristic "
        "favours counts as the winner (faster, and it knows the game a little).",
    )
    if rollout != "heuristic":
        return rollout, None, None
    names = list(game.heuristics)
    init_widget(keys.ROLLOUT_HEURISTIC, seed.heuristic or game.default_heuristic)
    if st.session_state[keys.ROLLOUT_HEURISTIC] not in names:
        changed.append(
            f"heuristic {escape_markdown(st.session_state[keys.ROLLOUT_HEURISTIC])} → "
            f"{game.default_heuristic} ({game.title} has {', '.join(names)})"
        )
        st.session_state[keys.ROLLOUT_HEURISTIC] = game.default_heuristic
    chosen = st.selectbox(
        "Heuristic that judges the rollouts",
        names,
        index=names.index(st.session_state[keys.ROLLOUT_HEURISTIC]),
        key=keys.ROLLOUT_HEURISTIC,
        help=game.heuristics[st.session_state[keys.ROLLOUT_HEURISTIC]].description,
    )
    heuristic_name = None if chosen == game.default_heuristic else chosen
    weights = None
    # a link's weights are kept for its own heuristic (the page has no weight widgets
    # for rollouts); weights that do not fit are dropped with a note
    if seed.weights is not None and (seed.heuristic or game.default_heuristic) == chosen:
        problem = weights_problem(seed, game, chosen, label)
        if problem is None:
            weights = seed.weights
        elif notes is not None and problem not in notes:
            notes.append(problem)
    return rollout, heuristic_name, weights


def weights_problem(
    config: PlayerConfig, game: GameSpec, heuristic_name: str, label: str
) -> str | None:
    """Why ``config.weights`` cannot be used with ``heuristic_name`` (None if they can).

    Weights are for the config's own heuristic (the game's default when it
    names none); they must be as many as that heuristic has.
    """
    if config.weights is None or config.kind not in (*SEARCH_KINDS, MCTS_KIND):
        return None
    wanted = config.heuristic or game.default_heuristic
    if wanted != heuristic_name:
        return None
    heuristic = game.heuristics[heuristic_name]
    given = len(config.weights)
    count = len(heuristic.weight_names)
    if count == given:
        return None
    if count == 0:
        return (
            f"{label}: the heuristic '{heuristic_name}' takes no weights, so the "
            f"{given} weight(s) given are ignored."
        )
    return (
        f"{label}: the heuristic '{heuristic_name}' takes {count} weights "
        f"({', '.join(heuristic.weight_names)}), not {given}: using its default weights."
    )


def _spec_keys(text: str) -> set[str]:
    """The settings a player spec writes out (``"alphabeta:weights=1/2"`` -> {"weights"})."""
    _, _, rest = str(text).partition(":")
    keys = set()
    for item in rest.split(","):
        key = item.partition("=")[0].strip().lower()
        keys.add({"d": "depth", "t": "time", "time_limit": "time"}.get(key, key))
    return keys


def url_spec(config: PlayerConfig) -> str:
    """``config.to_spec()`` with the depth always written for search players.

    A URL that leaves the depth out means "the page's default depth" (see
    :func:`query_config`), so the page writes it out even when it equals the
    library default.
    """
    spec = config.to_spec()
    if config.kind in SEARCH_KINDS and config.kind != "greedy" and "depth" not in _spec_keys(spec):
        kind, _, rest = spec.partition(":")
        depth = "none" if config.depth is None else config.depth
        spec = f"{kind}:depth={depth}" + ("," + rest if rest else "")
    return spec


def query_config(
    name: str, fallback: str, notes: list[str], kinds: Mapping[str, str] | None = None
) -> tuple[PlayerConfig, list[str]]:
    """The player spec in the URL parameter ``name``, else ``fallback``.

    Settings the URL leaves out (depth, time budget) come from ``fallback``
    when both are search players, not from the library's generic defaults.
    A spec that cannot be read, or whose player is not one of ``kinds`` (the
    game's players, when given), is reported in ``notes`` and ``fallback`` used.
    Numbers beyond this page's caps are moved inside them; the second value
    returned names each change (``"depth 13 → 8"``) for :func:`player_controls`.
    """
    default = parse_player_spec(fallback)
    text = st.query_params.get(name)
    if text is None:
        return default, []
    try:
        config, fitted = parse_player_spec_to_fit(
            text, UI_MAX_DEPTH, UI_MAX_TIME, UI_MAX_SIMULATIONS, UI_MAX_EXPLORATION
        )
        if kinds is not None and config.kind not in kinds:
            raise InputError(
                f"there is no player {quoted(config.kind)} here; choose one of {', '.join(kinds)}."
            )
    except InputError as error:
        limits = f" This page's depth limits: {depth_limits()}." if "depth" in str(error) else ""
        notes.append(
            f"The link's {name}={escape_markdown(shown(text))} is not a player here "
            f"({escape_markdown(error)}); using {escape_markdown(fallback)}.{limits}"
        )
        return default, []

    if config.kind in SEARCH_KINDS and default.kind in SEARCH_KINDS:
        keys = _spec_keys(text)
        changes: dict[str, Any] = {}
        if "depth" not in keys:
            changes["depth"] = default.depth
        if "time" not in keys and default.time_limit is not None:
            changes["time_limit"] = default.time_limit
        if changes:
            config = replace(config, **changes)
    reasons = {
        "depth": f"this page allows depth 1 to {UI_MAX_DEPTH.get(config.kind, MAX_DEPTH)} for "
        f"{ALGORITHM_NAMES.get(config.kind, config.kind)}",
        "time": f"this page allows 0.1 to {UI_MAX_TIME:g} s per move",
        "sims": f"this page allows 1 to {UI_MAX_SIMULATIONS:,} simulations",
        "c": f"this page allows c from 0 to {UI_MAX_EXPLORATION:g}",
    }
    return config, [
        f"{change} ({reasons.get(change.split()[0], 'out of range')})" for change in fitted
    ]


def query_option(name: str, allowed: tuple[Any, ...], notes: list[str]) -> Any:
    """The game option ``name`` from the URL, else the last allowed one (a bad value: ``notes``)."""
    default = allowed[-1] if allowed else None
    values, problems = read_query((LinkField(name, str, default, choices=tuple(allowed)),))
    notes.extend(problems)
    return values[name]
