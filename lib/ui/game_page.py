"""Reusable Streamlit widgets for a two-player game page (Othello, checkers, Sim).

How another game page uses it
-----------------------------
Describe the game's board once with a :class:`BoardAdapter` and call
:func:`run_game_page`; everything else (player/AI controls with their URL
query parameters, clickable plotly board with a button-grid and a move-list
fallback, undo / hint / new game, AI-vs-AI step and autoplay, search
statistics with the move-score heat map and the search tree, game record
download) is generic::

    import streamlit as st
    from lib.games import checkers
    from lib.ui.game_page import BoardAdapter, ClickOutcome, run_game_page

    def figure(state, view):            # -> go.Figure (see lib.games.plots.grid_board_figure)
        ...
    def click(state, square, pending):  # (row, col) clicked -> ClickOutcome
        ...                             # two-click games keep the first square in ``pending``

    ADAPTER = BoardAdapter(game=checkers.GAME, figure=figure, click=click,
                           cell_label=lambda state, r, c: "●", board_shape=lambda s: (8, 8))
    st.title("Checkers")
    run_game_page(ADAPTER, key="checkers")

The pieces are usable one by one too: :func:`player_controls`,
:class:`GameSession` (kept in ``st.session_state``), :func:`board_widget`,
:func:`search_stats_panel`, :func:`record_table`. Nothing is kept in module
globals: every board lives in the visitor's own session.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from lib.errors import InputError
from lib.games import plots, search
from lib.games.core import GameSpec
from lib.games.players import (
    SEARCH_KINDS,
    Decision,
    PlayerConfig,
    available_kinds,
    bind_heuristic,
    parse_player_spec,
)
from lib.ui.common import csv_download, escape_markdown, user_errors

Move = Hashable


def _player_label(spec: str) -> str:
    """A recorded player spec as people read it ("alphabeta:depth=3" -> "Alpha-beta d3")."""
    try:
        return parse_player_spec(spec).label()
    except InputError:
        return spec


UI_MAX_DEPTH = {"alphabeta": 8, "minimax": 4, "expectimax": 4, "greedy": 1}
"""Depth caps per algorithm in the UI (a hosted server must stay responsive)."""
UI_MAX_TIME = 5.0
"""Largest time budget (seconds) a visitor may give one AI move."""
DEFAULT_TIME = 1.0
TREE_MAX_DEPTH = 3
"""Search trees are recorded and drawn only up to this depth."""
PERFECT = "perfect"
"""The player kind of a game's exact solver; the Hint uses it when the game has one."""
STATUS_HEIGHT = 84
"""Pixels of the status slot right above the board: two lines of an alert. The status line, or
a click message in its place, fits in it without moving the board (a projector's 768 pixels
leave no room for the board to jump)."""
BOARD_PIXELS = 360
"""Default board size (``BoardView.pixels``): the whole board fits under the title, the buttons
and the status slot at 1024x768 with the sidebar open. The sidebar offers larger sizes."""
BOARD_PIXEL_RANGE = (300, 640)
"""Board sizes the sidebar offers (pixels)."""
SIDE_PANEL_WIDTH = 320
"""Pixel width of the panel beside the board (the position's verdict, the hint, how to play):
beside the board where the main column has room, under it at 1024 px."""
SCORE_BARS_WIDTH = 460
"""Pixel width of the move-score bars beside the 400-pixel score board (both fit at 1400 px)."""


@dataclass(frozen=True)
class BoardView:
    """What the board should show besides the position."""

    last_move: Move | None = None
    previous: Any = None  # the position before the last move (to mark changed squares)
    scores: Mapping[Move, float] | None = None  # move -> score heat map
    bounds: Mapping[Move, str] | None = None
    pending: Any = None  # a game's partial click selection (e.g. the piece to move)
    show_legal: bool = True
    title: str | None = None
    pixels: int = BOARD_PIXELS
    flipped: bool = False  # draw the board turned round (games whose adapter is flippable)
    marked: Move | None = None  # a move to outline, e.g. the hint's choice


@dataclass(frozen=True)
class ClickOutcome:
    """Result of a click on a square: a move to play, a new pending selection, or a message."""

    move: Move | None = None
    pending: Any = None
    message: str | None = None


@dataclass(frozen=True)
class BoardAdapter:
    """The game-specific part of a game page.

    ``figure(state, view) -> go.Figure`` draws a position (its clickable
    trace must give ``(row, col)`` through :func:`lib.games.plots.square_from_point`).
    ``click(state, square, pending) -> ClickOutcome`` turns a clicked square
    into a move. ``cell_label(state, row, col) -> str`` and
    ``board_shape(state) -> (rows, cols)`` enable the button-grid fallback
    (omit them for games without a grid; the move list fallback always works).
    ``status(state) -> str`` is a one-line score, e.g. "Black 12 – White 9".
    """

    game: GameSpec
    figure: Callable[[Any, BoardView], go.Figure]
    click: Callable[[Any, tuple[int, int], Any], ClickOutcome]
    cell_label: Callable[[Any, int, int], str] | None = None
    board_shape: Callable[[Any], tuple[int, int]] | None = None
    status: Callable[[Any], str] | None = None
    default_players: tuple[str, str] = ("human", "alphabeta:depth=6,time=1")
    about: str = ""
    # optional: a line of markdown about the position shown under the status line
    # (Sim: who wins from here with perfect play)
    insight: Callable[[Any], str] | None = None
    # optional: widget titles of the game's options, e.g. {"first": "Who starts"}
    option_labels: Mapping[str, str] = field(default_factory=dict)
    # optional: how the option selects show each value, e.g. {"first": {"random": "Coin toss"}}
    option_formats: Mapping[str, Mapping[Any, str]] = field(default_factory=dict)
    # optional: offer a "turn the board round" toggle (the figure honours BoardView.flipped
    # and keeps its click targets in board coordinates, so clicks need no change)
    flippable: bool = False
    # optional: what a person to move does, shown in the status line, e.g. "click a dotted square"
    prompt: str = ""


@dataclass
class GameSession:
    """One game in one visitor's session: positions, moves and what each AI move searched."""

    options: dict[str, Any]
    states: list[Any]
    moves: list[Move] = field(default_factory=list)
    decisions: list[Decision | None] = field(default_factory=list)
    players: list[str] = field(default_factory=list)  # who made each move (label)
    pending: Any = None
    nonce: int = 0
    message: str | None = None
    hint: search.SearchResult | None = None
    hint_ply: int = -1
    seed: int = 0
    rng: np.random.Generator = field(default_factory=np.random.default_rng)
    # a replayed game (e.g. from the Arena): "Replay of <match>, game N: <players>"; the page
    # shows it as a banner and lets both sides be played by hand until New game
    replay: str | None = None
    # the Arena link that plays the replayed game again (None: not reproducible from a link)
    replay_link: str | None = None

    @classmethod
    def new(cls, game: GameSpec, options: dict[str, Any], seed: int = 0) -> GameSession:
        """A fresh game with ``options`` (e.g. ``{"size": 8}``).

        A game whose start may be a coin toss (Sim's ``first="random"``) tosses
        with ``seed``, like every other random choice of the session.
        """
        start = dict(options)
        if "seed" in inspect.signature(game.initial_state).parameters:
            start.setdefault("seed", seed)
        return cls(
            options=dict(options),
            states=[game.initial_state(**start)],
            seed=seed,
            rng=np.random.default_rng(seed),
        )

    @property
    def state(self) -> Any:
        """The current position."""
        return self.states[-1]

    @property
    def ply(self) -> int:
        """Moves played so far."""
        return len(self.moves)

    def play(self, move: Move, decision: Decision | None = None, who: str = "human") -> None:
        """Play ``move`` (raises InputError if illegal) and record it."""
        state = self.state
        if move not in state.legal_moves():
            raise InputError("That move is not legal in this position.")
        self.states.append(state.play(move))
        self.moves.append(move)
        self.decisions.append(decision)
        self.players.append(who)
        self.pending = None
        self.hint = None

    def undo(self, human_sides: set[int]) -> int:
        """Take back moves until a human is to move again (at least one move). Returns how many."""
        undone = 0
        while self.moves:
            self.states.pop()
            self.moves.pop()
            self.decisions.pop()
            self.players.pop()
            undone += 1
            if not human_sides or self.state.to_move in human_sides:
                break
        self.pending = None
        self.hint = None
        return undone

    def last_decision(self) -> tuple[int, Decision] | None:
        """(ply index, decision) of the most recent AI move, if any."""
        for index in range(len(self.decisions) - 1, -1, -1):
            decision = self.decisions[index]
            if decision is not None and decision.stats is not None:
                return index, decision
        return None


# -- AI ---------------------------------------------------------------------------


def ai_decision(
    state: Any,
    config: PlayerConfig,
    game: GameSpec,
    rng: np.random.Generator,
    *,
    record_tree: bool = False,
    exact_root_scores: bool = False,
) -> Decision:
    """Ask the AI ``config`` for a move (search kinds with the page's caps; others via the game)."""
    if config.kind in SEARCH_KINDS:
        result = search.choose_move(
            state,
            algorithm=config.kind,
            depth=config.depth,
            heuristic=bind_heuristic(config, game),
            ordering=config.ordering,
            time_limit=config.time_limit or DEFAULT_TIME,
            beam=config.beam,
            endgame_exact=config.endgame_exact,
            transposition=config.transposition,
            record_tree=record_tree and config.depth <= TREE_MAX_DEPTH,
            exact_root_scores=exact_root_scores,
            rng=rng,
        )
        return Decision(result.move, result.stats, result.value)
    from lib.games.players import make_player

    return make_player(config, game).choose(state, rng)


# -- controls ---------------------------------------------------------------------


def _init_widget(key: str, value: Any) -> None:
    if key not in st.session_state:
        st.session_state[key] = value


def _init_clamped(key: str, value: float, low: float, high: float) -> str | None:
    """Seed a slider once, and keep its value inside [low, high] (URL values may be anything).

    Returns ``"<old> → <new>"`` when the seeded value had to be moved inside
    the range (for the page to say so), else None.
    """
    seeding = key not in st.session_state
    _init_widget(key, value)
    current = st.session_state[key]
    if not low <= current <= high:
        st.session_state[key] = type(current)(min(max(current, low), high))
        if seeding:
            return f"{current:g} → {st.session_state[key]:g}"
    return None


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
    key: str,
    label: str,
    default: PlayerConfig,
    *,
    allow_human: bool = True,
    notes: list[str] | None = None,
) -> PlayerConfig:
    """Widgets for one player (kind, depth, heuristic and weights, ordering, time, beam ...).

    ``default`` seeds the widgets on first use (e.g. from a URL query
    parameter); afterwards the widgets are the source of truth. Widget keys
    start with ``{key}_w_``. Returns the validated :class:`PlayerConfig`.
    Problems with ``default`` (weights that do not fit the heuristic) are shown
    in the sidebar and appended to ``notes``, for the page to show in its main
    area too.
    """
    kinds = available_kinds(game)
    if not allow_human:
        kinds.pop("human", None)
    p = f"{key}_w_"
    kind_default = default.kind if default.kind in kinds else next(iter(kinds))
    _init_widget(p + "kind", kind_default)
    kind = st.selectbox(
        f"{label}: player", list(kinds), format_func=kinds.get, key=p + "kind", help=None
    )
    if kind not in SEARCH_KINDS:
        return PlayerConfig(kind=kind)
    cap = UI_MAX_DEPTH.get(kind, 6)
    changed: list[str] = []  # settings from the URL moved inside this page's limits

    def clamp(name: str, key_: str, value: float, low: float, high: float, why: str) -> None:
        moved = _init_clamped(key_, value, low, high)
        if moved:
            changed.append(f"{name} {moved} ({why})")

    depth = PlayerConfig().depth  # greedy looks one ply ahead whatever the depth
    if kind != "greedy":
        clamp(
            "depth",
            p + "depth",
            default.depth,
            1,
            cap,
            f"this page allows depth 1 to {cap} for {ALGORITHM_NAMES.get(kind, kind)}",
        )
        depth = st.slider(
            f"{label}: depth (plies)",
            1,
            cap,
            key=p + "depth",
            help="How many moves ahead the AI looks (a forced pass counts as a move).",
        )
    names = list(game.heuristics)
    _init_widget(p + "heuristic", default.heuristic or game.default_heuristic)
    if st.session_state[p + "heuristic"] not in names:
        changed.append(
            f"heuristic {escape_markdown(st.session_state[p + 'heuristic'])} → "
            f"{game.default_heuristic} ({game.title} has {', '.join(names)})"
        )
        st.session_state[p + "heuristic"] = game.default_heuristic
    heuristic_name = st.selectbox(
        f"{label}: heuristic",
        names,
        key=p + "heuristic",
        help="The evaluation function used where the search stops.",
    )
    heuristic = game.heuristics[heuristic_name]
    weights = None
    problem = weights_problem(default, game, heuristic_name, label)
    if problem and notes is not None and problem not in notes:
        notes.append(problem)
    if heuristic.weight_names:
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
                wkey = f"{p}weight_{heuristic_name}_{name}"
                _init_widget(wkey, float(seed))
                values.append(st.number_input(name, key=wkey, step=1.0, format="%.3g"))
            if tuple(values) != tuple(heuristic.default_weights):
                weights = tuple(float(v) for v in values)
    else:
        st.caption(heuristic.description)
        if problem:
            st.warning(problem)
    ordering, transposition, beam, endgame = True, True, None, None
    time_limit: float | None = None  # greedy needs no budget
    if kind != "greedy":
        with st.expander(f"{label}: search options"):
            clamp(
                "time",
                p + "time",
                float(default.time_limit or DEFAULT_TIME),
                0.1,
                UI_MAX_TIME,
                f"this page allows 0.1 to {UI_MAX_TIME:g} s per move",
            )
            time_limit = st.slider(
                "Time budget per move (s)",
                0.1,
                UI_MAX_TIME,
                step=0.1,
                key=p + "time",
                help="Iterative deepening: the deepest search finished in time is used.",
            )
            if kind == "alphabeta":
                _init_widget(p + "ordering", default.ordering)
                ordering = st.toggle(
                    "Move ordering", key=p + "ordering", help="Search the best-looking moves first."
                )
                _init_widget(p + "tt", default.transposition)
                transposition = st.toggle(
                    "Transposition table",
                    key=p + "tt",
                    help="Reuse values of positions reached by another move order.",
                )
                clamp("beam", p + "beam", default.beam or 0, 0, 10, "this page allows 0 to 10")
                beam = st.slider(
                    "Beam (0 = off)",
                    0,
                    10,
                    key=p + "beam",
                    help="Expand only the k best-looking moves at each node (the course used 3).",
                )
                beam = beam or None
            has_hint = hasattr(game.initial_state(), "plies_left_hint")
            if kind in ("alphabeta", "minimax") and has_hint:
                clamp(
                    "endgame",
                    p + "endgame",
                    default.endgame_exact or 0,
                    0,
                    14,
                    "this page allows 0 to 14",
                )
                endgame = st.slider(
                    "Exact endgame: play perfectly when at most this many moves are left (0 = off)",
                    0,
                    14,
                    key=p + "endgame",
                )
                endgame = endgame or None
    if changed and notes is not None:
        notes.append(f"{label}: changed the link's settings: " + "; ".join(changed) + ".")
    return PlayerConfig(
        kind=kind,
        depth=depth,
        heuristic=None if heuristic_name == game.default_heuristic else heuristic_name,
        weights=weights,
        ordering=ordering,
        time_limit=None if time_limit is None else float(time_limit),
        beam=beam,
        endgame_exact=endgame,
        transposition=transposition,
    )


def weights_problem(
    config: PlayerConfig, game: GameSpec, heuristic_name: str, label: str
) -> str | None:
    """Why ``config.weights`` cannot be used with ``heuristic_name`` (None if they can).

    Weights are for the config's own heuristic (the game's default when it
    names none); they must be as many as that heuristic has.
    """
    if config.weights is None or config.kind not in SEARCH_KINDS:
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
    :func:`_query_config`), so the page writes it out even when it equals the
    library default.
    """
    spec = config.to_spec()
    if config.kind in SEARCH_KINDS and config.kind != "greedy" and "depth" not in _spec_keys(spec):
        kind, _, rest = spec.partition(":")
        spec = f"{kind}:depth={config.depth}" + ("," + rest if rest else "")
    return spec


def _query_config(
    name: str, fallback: str, notes: list[str], kinds: Mapping[str, str] | None = None
) -> PlayerConfig:
    """The player spec in the URL parameter ``name``, else ``fallback``.

    Settings the URL leaves out (depth, time budget) come from ``fallback``
    when both are search players, not from the library's generic defaults.
    A spec that cannot be read, or whose player is not one of ``kinds`` (the
    game's players, when given), is reported in ``notes`` and ``fallback`` used.
    """
    default = parse_player_spec(fallback)
    text = st.query_params.get(name)
    if text is None:
        return default
    try:
        config = parse_player_spec(text)
        if kinds is not None and config.kind not in kinds:
            raise InputError(
                f"there is no player {config.kind!r} here; choose one of {', '.join(kinds)}."
            )
    except InputError as error:
        limits = f" This page's depth limits: {depth_limits()}." if "depth" in str(error) else ""
        notes.append(
            f"Ignoring the URL setting {name}={escape_markdown(repr(text))}: "
            f"{escape_markdown(error)}{limits}"
        )
        return default
    if config.kind in SEARCH_KINDS and default.kind in SEARCH_KINDS:
        keys = _spec_keys(text)
        changes: dict[str, Any] = {}
        if "depth" not in keys:
            changes["depth"] = default.depth
        if "time" not in keys and default.time_limit is not None:
            changes["time_limit"] = default.time_limit
        if changes:
            config = replace(config, **changes)
    return config


def _query_option(name: str, allowed: tuple[Any, ...], notes: list[str]) -> Any:
    """The game option ``name`` from the URL, else the last allowed one (a bad value: ``notes``)."""
    text = st.query_params.get(name)
    if text is None:
        return allowed[-1] if allowed else None
    for value in allowed:
        if str(value) == str(text):
            return value
    notes.append(
        f"Ignoring the URL setting {name}={escape_markdown(repr(text))}: "
        f"choose one of {escape_markdown(', '.join(map(str, allowed)))}; using {allowed[-1]}."
    )
    return allowed[-1]


# -- board ------------------------------------------------------------------------


def _session(key: str) -> GameSession:
    return st.session_state[f"{key}_session"]


def _on_board_click(adapter: BoardAdapter, key: str, chart_key: str, human_sides: set[int]) -> None:
    """``on_select`` callback: apply the clicked move before the rerun draws the board."""
    session = _session(key)
    event = st.session_state.get(chart_key)
    points = []
    if event is not None:
        selection = event.get("selection", {}) if isinstance(event, Mapping) else event.selection
        points = selection.get("points", []) if isinstance(selection, Mapping) else selection.points
    session.nonce += 1  # a new chart key clears the selection, so a square can be clicked again
    if not points:
        return
    square = plots.square_from_point(points[0])
    if square is None:
        return
    handle_square(adapter, session, square, human_sides)


def handle_square(
    adapter: BoardAdapter, session: GameSession, square: tuple[int, int], human_sides: set[int]
) -> None:
    """Apply a click on ``square`` (from the chart or the button grid) to ``session``."""
    state = session.state
    if not state.legal_moves():
        session.message = "The game is over: start a new game."
        return
    if state.to_move not in human_sides:
        session.message = "It is the AI's turn: use Step or Autoplay, or make this side human."
        return
    outcome = adapter.click(state, square, session.pending)
    session.pending = outcome.pending
    session.message = outcome.message
    if outcome.move is not None:
        try:
            session.play(outcome.move, None, "human")
        except InputError as error:
            session.message = str(error)


def board_widget(adapter: BoardAdapter, key: str, view: BoardView, human_sides: set[int]) -> None:
    """The clickable plotly board; a click applies the move in the callback."""
    session = _session(key)
    fig = adapter.figure(session.state, view)
    chart_key = f"{key}_board_{session.nonce}"
    st.plotly_chart(
        fig,
        key=chart_key,
        on_select=functools.partial(_on_board_click, adapter, key, chart_key, human_sides),
        selection_mode="points",
        width="content",
        config={"displayModeBar": False},
    )


def _on_grid_click(adapter: BoardAdapter, key: str, square: tuple[int, int], humans: set[int]):
    handle_square(adapter, _session(key), square, humans)


def _on_list_move(adapter: BoardAdapter, key: str, humans: set[int]) -> None:
    session = _session(key)
    state = session.state
    text = st.session_state.get(f"{key}_w_move_text", "")
    if state.to_move not in humans:
        session.message = "It is the AI's turn."
        return
    try:
        move = adapter.game.parse_move(text, state)
        session.play(move, None, "human")
        session.message = None
    except InputError as error:
        session.message = str(error)


def fallback_controls(adapter: BoardAdapter, key: str, human_sides: set[int]) -> None:
    """Button grid (grid games) and a move-list picker: the board without a plotly click."""
    session = _session(key)
    state = session.state
    game = adapter.game
    with st.expander("Keyboard-friendly board (buttons)", expanded=False):
        if adapter.cell_label is not None and adapter.board_shape is not None:
            rows, cols = adapter.board_shape(state)
            for r in range(rows):
                columns = st.columns(cols, gap=None)
                for c in range(cols):
                    columns[c].button(
                        adapter.cell_label(state, r, c),
                        key=f"{key}_w_cell_{r}_{c}",
                        on_click=_on_grid_click,
                        args=(adapter, key, (r, c), human_sides),
                        use_container_width=True,
                    )
        moves = state.legal_moves()
        if moves:
            names = [game.format_move(m) for m in moves]
            st.selectbox("Or pick a legal move", names, key=f"{key}_w_move_text")
            st.button(
                "Play this move",
                key=f"{key}_w_play_listed",
                on_click=_on_list_move,
                args=(adapter, key, human_sides),
            )


# -- statistics -------------------------------------------------------------------


def search_stats_panel(
    stats: search.SearchStats,
    format_move: Callable[[Move], str],
    *,
    chosen: Move | None = None,
    key: str = "stats",
    board: go.Figure | None = None,
) -> None:
    """Metrics (nodes, cut-offs, depth, time, EBF), scores per move (on ``board`` as a heat
    map when given, and as bars), principal variation, iterations and the search tree."""
    cols = st.columns(5)
    cols[0].metric("Nodes", f"{stats.nodes:,}")
    cols[1].metric("Cut-offs", f"{stats.cutoffs:,}")
    cols[2].metric("Depth reached", stats.depth_reached)
    cols[3].metric("Time", f"{stats.seconds:.2f} s")
    cols[4].metric("EBF", f"{stats.ebf:.2f}", help="Effective branching factor nodes^(1/depth)")
    notes = []
    if stats.timed_out:
        notes.append("the time budget stopped a deeper iteration")
    if stats.exact_endgame:
        notes.append("exact endgame search")
    if stats.solved:
        notes.append("every line reached the end of the game")
    if stats.table_hits:
        notes.append(f"{stats.table_hits:,} transposition-table hits")
    pv = " ".join(format_move(m) for m in stats.principal_variation)
    st.caption(
        f"Principal variation: **{pv or '—'}** · leaf evaluations {stats.leaf_evaluations:,}"
        + (" · " + "; ".join(notes) if notes else "")
    )
    if stats.root_scores:
        bars = plots.root_scores_figure(stats.root_scores, format_move, stats.root_bounds, chosen)
        if board is not None:
            # side by side where both fit (1400 px), one under the other at 1024 px: in two
            # half-width columns the board shrank and its score badges overlapped
            with st.container(horizontal=True, wrap=True, key=f"{key}_heat_row"):
                st.plotly_chart(
                    board, key=f"{key}_heat", width="content", config={"displayModeBar": False}
                )
                st.plotly_chart(bars, key=f"{key}_scores", width=SCORE_BARS_WIDTH)
        else:
            st.plotly_chart(bars, key=f"{key}_scores")
        if any(bound != "exact" for bound in stats.root_bounds.values()):
            st.caption(
                "Hatched bars (≤) are alpha-beta bounds: that move is at most this good, "
                "which is enough to reject it. *Exact score for every move* in the sidebar "
                "gives every move its exact value."
            )
        table = pd.DataFrame(
            {
                "move": [format_move(m) for m in stats.root_scores],
                "score": list(stats.root_scores.values()),
                "bound": [stats.root_bounds.get(m, "exact") for m in stats.root_scores],
            }
        ).sort_values("score", ascending=False)
        csv_download(table, "move_scores.csv", "Download move scores (CSV)", key=f"{key}_csv")
    if len(stats.iterations) > 1:
        st.plotly_chart(plots.iterations_figure(stats.iterations), key=f"{key}_iterations")
    if stats.tree:
        st.plotly_chart(plots.search_tree_figure(stats.tree, format_move), key=f"{key}_tree")
        if stats.tree_truncated:
            st.caption("The tree was too large to record completely; the drawing shows its start.")


def record_table(session: GameSession, game: GameSpec) -> pd.DataFrame:
    """The game record: one row per move, with the AI's search figures."""
    rows = []
    for index, (move, decision, who) in enumerate(
        zip(session.moves, session.decisions, session.players, strict=True)
    ):
        state = session.states[index]
        stats = decision.stats if decision is not None else None
        rows.append(
            {
                "ply": index + 1,
                "side": game.player_names[state.to_move],
                "player": who,
                "move": game.format_move(move),
                "value": decision.value if decision is not None else None,
                "nodes": stats.nodes if stats else None,
                "depth": stats.depth_reached if stats else None,
                "seconds": round(stats.seconds, 4) if stats else None,
            }
        )
    return pd.DataFrame(
        rows, columns=["ply", "side", "player", "move", "value", "nodes", "depth", "seconds"]
    )


COMPARE_MAX_DEPTH = 5
"""Deepest search the comparison runs (alpha-beta without ordering is slow beyond)."""
COMPARE_MINIMAX_DEPTH = 4
"""Plain minimax is only run up to this depth."""


def compare_panel(
    adapter: BoardAdapter, key: str, session: GameSession, config: PlayerConfig
) -> None:
    """Search the current position with minimax and alpha-beta variants to the same depth."""
    game = adapter.game
    state = session.state
    st.markdown(
        "Search the position on the board with each variant to the same depth: every variant "
        "finds the same value, but pruning and good move ordering visit far fewer positions. "
        "The **effective branching factor** `nodes^(1/depth)` shows it per ply."
    )
    if not state.legal_moves():
        st.caption("The game is over: there is nothing to search.")
        return
    depth = st.slider(
        "Depth",
        1,
        COMPARE_MAX_DEPTH,
        value=min(3, config.depth),
        key=f"{key}_w_cmp_depth",
        help=f"Plain minimax runs only up to depth {COMPARE_MINIMAX_DEPTH}.",
    )
    store = f"{key}_compare"
    if st.button("Compare the searches", key=f"{key}_w_cmp_run", icon=":material/compare_arrows:"):
        variants = [v for v in search.VARIANTS if v != "minimax" or depth <= COMPARE_MINIMAX_DEPTH]
        progress = st.progress(0.0, text="Searching…")
        with user_errors():
            rows = search.compare_variants(
                state,
                depth,
                bind_heuristic(config, game),
                variants,
                on_progress=lambda done, total: progress.progress(
                    done / total, text=f"{done} of {total} searches done"
                ),
            )
            st.session_state[store] = (state, depth, rows)
        progress.empty()
    kept = st.session_state.get(store)
    if kept is None or kept[0] != state:
        st.caption(f"Heuristic: {config.heuristic or game.default_heuristic}. Press the button.")
        return
    _, searched_depth, rows = kept
    st.plotly_chart(plots.variants_figure(rows), key=f"{key}_cmp_chart")
    table = pd.DataFrame(rows)
    table["move"] = [game.format_move(m) for m in table["move"]]
    st.dataframe(table.round({"value": 4, "ebf": 2}), hide_index=True)  # the CSV keeps all
    csv_download(
        table, f"{game.name}_search_comparison.csv", "Download comparison (CSV)", key=f"{key}_cmpdl"
    )
    left_out = (
        f" Plain minimax is left out above depth {COMPARE_MINIMAX_DEPTH} (it searches every "
        "node: too slow for this server)."
        if searched_depth > COMPARE_MINIMAX_DEPTH
        else ""
    )
    st.caption(
        f"Depth {searched_depth}, {len(rows)} searches of the position on the board.{left_out}"
    )


# -- the whole page ---------------------------------------------------------------


def _format_option(names: Mapping[Any, str] | None, value: Any) -> str:
    """How an option select shows ``value`` (``names`` from the adapter's option_formats)."""
    return names.get(value, str(value)) if names else str(value)


def _sync_query_params(values: Mapping[str, str]) -> None:
    for name, value in values.items():
        if st.query_params.get(name) != value:
            st.query_params[name] = value


def run_game_page(adapter: BoardAdapter, key: str, description: str = "") -> None:
    """Render a complete human-vs-AI / AI-vs-AI game page for ``adapter.game``.

    Layout (the page's ``st.title`` above it): the button row, the status slot,
    then the board with a panel beside it (under it in a narrow main column)
    holding the position's verdict, the hint and ``description`` (markdown: how
    to play), so that the whole board is in view on a 1024x768 projector; then
    the button-grid fallback and the tabs with the search statistics, the
    comparison, the game record and the explanation.
    """
    game = adapter.game
    names = [name.lower() for name in game.player_names]
    # -- sidebar: game options and players (seeded from the URL on first use) --
    # Widget values vanish when the visitor opens another page; the game and the
    # player specs are kept under non-widget keys, so coming back restores both
    # (a setting in the URL wins).
    skey = f"{key}_session"
    previous = st.session_state.get(skey)
    stored_specs = st.session_state.get(f"{key}_specs", adapter.default_players)
    options: dict[str, Any] = {}
    notes: list[str] = []  # problems with the link's settings, shown on the page
    with st.sidebar:
        st.subheader(f"{game.title} settings")
        for option, allowed in game.options.items():
            wkey = f"{key}_w_opt_{option}"
            if wkey not in st.session_state:
                kept = previous.options.get(option) if previous is not None else None
                in_url = option in st.query_params
                value = kept if kept in allowed and not in_url else None
                _init_widget(
                    wkey,
                    _query_option(option, tuple(allowed), notes) if value is None else value,
                )
            options[option] = st.selectbox(
                adapter.option_labels.get(
                    option, f"Board {option}" if option == "size" else option
                ),
                list(allowed),
                key=wkey,
                format_func=functools.partial(_format_option, adapter.option_formats.get(option)),
            )
        configs: list[PlayerConfig] = []
        with user_errors():
            for side, name in enumerate(game.player_names):
                default = _query_config(
                    names[side], stored_specs[side], notes, available_kinds(game)
                )
                st.markdown(f"**{name}**")
                configs.append(player_controls(game, f"{key}_p{side}", name, default, notes=notes))
        if len(configs) < 2:
            st.stop()
        st.markdown("**Display**")
        show_legal = st.toggle("Mark legal moves", value=True, key=f"{key}_w_show_legal")
        flipped = adapter.flippable and st.toggle(
            "Turn the board round", value=False, key=f"{key}_w_flip"
        )
        pixels = st.slider(
            "Board display size (pixels)",
            *BOARD_PIXEL_RANGE,
            value=BOARD_PIXELS,
            step=20,
            key=f"{key}_w_board_px",
            help=f"{BOARD_PIXELS} fits the whole board on a 1024×768 screen; "
            "larger suits a bigger screen.",
        )
        show_tree = st.toggle(
            f"Record the search tree (depth ≤ {TREE_MAX_DEPTH})",
            value=False,
            key=f"{key}_w_tree",
        )
        exact_scores = st.toggle(
            "Exact score for every move (slower)",
            value=False,
            key=f"{key}_w_exact",
            help="Otherwise alpha-beta only proves that the other moves are no better (≤ bounds).",
        )
    _sync_query_params(
        {
            **{option: str(value) for option, value in options.items()},
            **{names[side]: url_spec(configs[side]) for side in (0, 1)},
        }
    )
    st.session_state[f"{key}_specs"] = tuple(url_spec(config) for config in configs)
    human_sides = {side for side in (0, 1) if configs[side].is_human}

    # -- the session's game --
    if skey not in st.session_state or st.session_state[skey].options != options:
        seed = int(np.random.SeedSequence().entropy % (2**32))
        st.session_state[skey] = GameSession.new(game, options, seed)
    session = _session(key)
    state = session.state
    moves = state.legal_moves()
    over = not moves
    if session.replay:  # no AI plays on in a replay: both sides move by hand (or Undo)
        human_sides = {0, 1}

    # settings problems, on the page itself, not only in the sidebar; kept until New game (a
    # link's settings are read once: the AI's first move reruns the page without them)
    kept_notes = st.session_state.setdefault(f"{key}_notes", [])
    kept_notes.extend(note for note in notes if note not in kept_notes)
    for note in kept_notes:
        st.warning(note, icon=":material/warning:")

    human_turn = not over and state.to_move in human_sides
    must_pass = human_turn and len(moves) == 1 and game.format_move(moves[0]) == "pass"

    # -- buttons --
    # one row at 1024 px with the sidebar open (about 560 px of main column): short labels
    with st.container(
        horizontal=True, vertical_alignment="center", gap="small", key=f"{key}_buttons"
    ):
        new_game = st.button("New game", key=f"{key}_w_new", icon=":material/restart_alt:")
        undo = st.button(
            "Undo", key=f"{key}_w_undo", disabled=not session.moves, icon=":material/undo:"
        )
        hint_config = next((c for c in configs if c.kind in SEARCH_KINDS), PlayerConfig())
        # a game with an exact solver (Sim's "perfect" player) hints with its move values
        hint_player = PlayerConfig(kind=PERFECT) if PERFECT in game.players else hint_config
        want_hint = st.button(
            "Hint",
            key=f"{key}_w_hint",
            disabled=over or state.to_move not in human_sides,
            icon=":material/lightbulb:",
            help=f"What {hint_player.label()} would play here, with the score of every move.",
        )
        ai_to_move = not over and state.to_move not in human_sides
        step = False
        if must_pass:  # in the place of Step (a person is to move, so Step would be disabled)
            if st.button(
                "Pass",
                key=f"{key}_w_pass",
                type="primary",
                icon=":material/step_over:",
                help="No legal move: you must pass.",
            ):
                session.play(moves[0], None, "human")
                st.rerun()
        else:
            step = st.button(
                "Step",
                key=f"{key}_w_step",
                disabled=not ai_to_move,
                icon=":material/skip_next:",
                help="Let the AI to move play one move.",
            )
        autoplay = st.toggle(
            "Autoplay",
            key=f"{key}_w_autoplay",
            disabled=bool(human_sides),
            help="AI vs AI: play the AI moves one after another (when both sides are AI players).",
        )
    if new_game:
        st.session_state[skey] = GameSession.new(game, options, session.seed + 1)
        st.session_state.pop(f"{key}_notes", None)
        st.rerun()
    if undo:
        session.undo(human_sides)
        st.session_state.pop(f"{key}_w_autoplay", None)
        st.rerun()
    if want_hint:
        with st.spinner("Thinking about a hint…"), user_errors():
            decision = ai_decision(state, hint_player, game, session.rng, exact_root_scores=True)
            session.hint = search.SearchResult(decision.move, decision.value or 0.0, decision.stats)
            session.hint_ply = session.ply

    # -- status slot: a fixed height right above the board --
    status = adapter.status(state) if adapter.status else ""
    # the placeholder also says when the AI is thinking, and shows a click message in place
    # of the status line (it is back after the next click); either fits without moving the board
    slot = st.container(height=STATUS_HEIGHT, border=False, key=f"{key}_messages")
    status_line = slot.empty()
    if session.message:
        status_line.warning(session.message, icon=":material/info:")
        session.message = None
    elif over:
        winner = state.winner()
        result = "Draw" if winner is None else f"{game.player_names[winner]} wins"
        if session.replay and winner is not None:  # say who played the winning side
            played = {
                who
                for before, who in zip(session.states[:-1], session.players, strict=True)
                if before.to_move == winner
            }
            if len(played) == 1:
                result += f" ({escape_markdown(_player_label(played.pop()))})"
        status_line.success(f"Game over: **{result}**. {status}")
    else:
        who = "replay" if session.replay else configs[state.to_move].label()
        prompt = ""
        if must_pass:
            prompt = ": no legal move, press **Pass**"
        elif human_turn and adapter.prompt:
            prompt = f": {adapter.prompt}"
        status_line.info(
            f"**{game.player_names[state.to_move]}** to move ({who}){prompt} · {status}"
        )

    # -- board, with the verdict, the hint and how to play beside it (under it if narrow) --
    hint = session.hint if session.hint_ply == session.ply else None
    view = BoardView(
        last_move=session.moves[-1] if session.moves else None,
        previous=session.states[-2] if len(session.states) > 1 else None,
        scores=hint.stats.root_scores if hint else None,
        bounds=hint.stats.root_bounds if hint else None,
        marked=hint.move if hint else None,
        pending=session.pending,
        show_legal=show_legal,
        flipped=flipped,
        pixels=pixels,
    )
    # (no key starting "{key}_board_": the tests find the chart by that prefix)
    with st.container(horizontal=True, wrap=True, gap="medium", key=f"{key}_play_area"):
        board_widget(adapter, key, view, human_sides)
        with st.container(width=SIDE_PANEL_WIDTH, key=f"{key}_side_panel"):
            notice = st.session_state.pop(f"{key}_notice", None)  # once, on arrival
            if notice:
                st.info(escape_markdown(notice), icon=":material/tune:")
            # on arrival from the Arena, also a toast: at 1024 px this panel is under the board
            replay_toast = st.session_state.pop(f"{key}_toast", None)  # an Arena replay
            if replay_toast or notice:
                st.toast(
                    escape_markdown(replay_toast or notice),
                    icon=":material/replay:" if replay_toast else ":material/tune:",
                    duration="long",
                )
            if session.replay:  # here, not above: the board stays in view
                st.info(
                    f"{escape_markdown(session.replay)}. Undo steps back; New game plays with "
                    "the players in the sidebar.",
                    icon=":material/replay:",
                )
            if session.replay and session.replay_link:
                # an urlencoded Arena address: nothing in it can break the Markdown link
                st.markdown(f"[Link to share this replay]({session.replay_link})")
            if adapter.insight is not None:
                st.markdown(adapter.insight(state))
            if hint:
                st.caption(
                    f"Hint: **{game.format_move(hint.move)}** · the colours show the score of "
                    f"every move ({hint.stats.nodes:,} positions searched)."
                )
            if description:
                st.markdown(f"**How to play.** {description}")
    fallback_controls(adapter, key, human_sides)

    # -- analysis, record, explanation --
    tabs = st.tabs(
        ["The AI's last search", "Pruning and ordering", "Game record", "How the AI thinks"]
    )
    with tabs[0]:
        last = session.last_decision()
        if last is None:
            st.caption("Nothing searched yet: the statistics of each AI move appear here.")
        else:
            index, decision = last
            before = session.states[index]
            st.markdown(
                f"**{game.player_names[before.to_move]}** "
                f"({escape_markdown(session.players[index])}) played "
                f"**{game.format_move(session.moves[index])}** "
                f"at move {index + 1}."
            )
            search_stats_panel(
                decision.stats,
                game.format_move,
                chosen=decision.move,
                key=f"{key}_last",
                board=adapter.figure(
                    before,
                    BoardView(
                        scores=decision.stats.root_scores,
                        bounds=decision.stats.root_bounds,
                        show_legal=False,
                        title="Score of each move it considered",
                        pixels=400,
                        flipped=flipped,
                    ),
                ),
            )
    with tabs[1]:
        compare_panel(adapter, key, session, hint_config)
    with tabs[2]:
        table = record_table(session, game)
        if session.moves:
            # wrapped: a whole game (60 Othello moves) is read without scrolling sideways
            st.code(
                " ".join(game.format_move(m) for m in session.moves),
                language=None,
                wrap_lines=True,
            )
            st.dataframe(table, hide_index=True, height=min(300, 40 + 35 * len(table)))
        else:
            st.caption("No move yet.")
        csv_download(table, f"{game.name}_game.csv", "Download game record (CSV)", key=f"{key}_dl")
    with tabs[3]:
        st.markdown(adapter.about or "")
        for heuristic in game.heuristics.values():
            weights = ", ".join(
                f"{n}={w:g}"
                for n, w in zip(heuristic.weight_names, heuristic.default_weights, strict=True)
            )
            st.markdown(
                f"- **{heuristic.name}**: {heuristic.description}"
                + (f" Default weights: {weights}." if weights else "")
            )

    # -- AI move: after drawing, so the human's own move is on screen first --
    if ai_to_move and (step or autoplay or len(human_sides) == 1):
        config = configs[state.to_move]
        # shown in the status line above the board (the search runs here, at the end of the
        # script, so that everything else is drawn first; a spinner here would be far below)
        status_line.info(
            f"**{game.player_names[state.to_move]}** ({config.label()}) **is thinking…** · "
            f"{status}",
            icon=":material/hourglass_top:",
        )
        with user_errors():
            decision = ai_decision(
                state,
                config,
                game,
                session.rng,
                record_tree=show_tree,
                exact_root_scores=exact_scores,
            )
            session.play(decision.move, decision, config.label())
            st.rerun()
