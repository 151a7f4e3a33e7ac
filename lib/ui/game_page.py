"""The shared game page: every game's page is its spec handed to :func:`run_game_page`.

A game page file is a few lines::

    from lib.games.core import get_game
    from lib.ui.game_page import run_game_page

    run_game_page(get_game("othello"), description="Click a square ...")

Everything else is generic and names no game: the sidebar's players (with their
link settings, :mod:`lib.ui.game_controls`), the clickable board (the game's board
figure drawn as SVG by :mod:`lib.ui.components.game_board`) with a button-grid and a
move-list fallback, undo / forward / hint / new game, AI-vs-AI step and autoplay, the
search statistics with the move-score heat map and the search tree, the
comparison of search variants and the game record. The game itself is a
:class:`lib.games.session.GameSession` kept in the visitor's own
``st.session_state``; nothing is kept in module globals.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

from lib.errors import InputError
from lib.games.core import GameSpec, Move
from lib.games.drawing import figures as plots
from lib.games.drawing import search_charts as search_plots
from lib.games.drawing.board_drawing import drawing
from lib.games.drawing.view import BOARD_PIXELS, BoardAdapter, BoardView, load_adapter
from lib.games.search import fast as search
from lib.games.search.mcts import MctsStats
from lib.games.search.players import (
    MCTS_KIND,
    SEARCH_KINDS,
    PlayerConfig,
    available_kinds,
    parse_player_spec,
)
from lib.games.session import STALE_MESSAGE, GameSession, decide
from lib.ui.common import (
    csv_download,
    current,
    escape_markdown,
    keep_widget_values,
    user_errors,
)
from lib.ui.components.game_board import game_board
from lib.ui.game_controls import (
    DEFAULT_TIME,
    init_widget,
    player_controls,
    query_config,
    query_option,
    url_spec,
)
from lib.ui.game_link import LINK_PLAYER, link_seed, restore_from_link, write_game_link
from lib.ui.game_state import GamePageState
from lib.ui.mcts_step_panel import (
    drop_mcts_link,
    mcts_step_panel,
    mcts_step_widget_keys,
    read_mcts_link,
)
from lib.ui.navigation import require_app_navigation
from lib.ui.presentation import presenting
from lib.ui.search_panels import (
    compare_depth_key,
    compare_panel,
    proved_moves_markdown,
    search_stats_panel,
)
from lib.ui.step_panel import drop_step_link, read_step_link, step_panel, step_widget_keys


def _player_label(spec: str) -> str:
    """A recorded player spec as people read it ("alphabeta:depth=3" -> "Alpha-beta d3")."""
    try:
        return parse_player_spec(spec).label()
    except InputError:
        return spec


STATUS_HEIGHT = 108
"""Pixels of the status slot right above the board: three lines of an alert. The turn line (two
lines at 1024 px for checkers) and a click's message under it fit without moving the board
(a projector's 768 pixels leave no room for the board to jump)."""
BOARD_PIXEL_RANGE = (300, 640)
"""Board sizes the sidebar offers (pixels)."""
SIDE_PANEL_WIDTH = 250
"""Pixel width of the panel beside the board (the position's verdict, the hint, a replay's
banner, how to play): with the default board it fits beside it on a 1024x768 projector with
the sidebar open (676 px of main column), so the hint and the verdict are on the first screen."""
ANALYSIS_TABS = (
    "Last search",
    "Pruning",
    "Game record",
    "How it thinks",
    "Step through",
    "MCTS steps",
)
"""The tabs under the board, in order (a test opens one by setting ``<game>_w_tabs``)."""
PRESENTATION_BOARD_PIXELS = 440
"""Board size in the presentation view (unless the sidebar asks for more): the largest that
keeps the board and its panel side by side, and the board whole, on a 1024x768 projector."""


# -- board ------------------------------------------------------------------------


def _ai_plays_on(page: GamePageState, human_sides: set[int]) -> bool:
    """Whether the AI to move searches without being asked: a person plays the other side,
    or Autoplay is on."""
    return len(human_sides) == 1 or page.autoplay


def not_your_turn(game: GameSpec, state: Any, ai_plays_on: bool) -> str:
    """What a click on the AI's turn is told: the side thinking, or how to make it move."""
    if ai_plays_on:
        return f"{game.player_names[state.to_move]} is thinking…: wait for its move."
    return "It is the AI's turn: use Step or Autoplay, or make this side human."


def _on_board_click(
    adapter: BoardAdapter, page: GamePageState, human_sides: set[int], at_ply: int
) -> None:
    """The board's click callback: apply the clicked move before the rerun draws the board."""
    session = page.session
    event = page.board_event
    target = event.get("click") if isinstance(event, Mapping) else None
    session.nonce += 1  # the board's revision: this click was handled
    square = plots.square_from_point({"customdata": target}) if target is not None else None
    if square is None:
        return
    handle_square(
        adapter, session, square, human_sides, at_ply, ai_plays_on=_ai_plays_on(page, human_sides)
    )


def handle_square(
    adapter: BoardAdapter,
    session: GameSession,
    square: tuple[int, int],
    human_sides: set[int],
    at_ply: int | None = None,
    *,
    ai_plays_on: bool | None = None,
) -> None:
    """Apply a click on ``square`` (from the board or the button grid) to ``session``.

    ``at_ply`` is the number of moves on the board the person clicked: a click on a
    board that has changed since (the AI replied, an Undo) is dropped and explained.
    ``ai_plays_on``: the AI to move searches by itself (default: a person plays the
    other side); a click on its turn is then told it is thinking.
    """
    if at_ply is not None and at_ply != session.ply:
        session.message = STALE_MESSAGE
        return
    state = session.state
    if not state.legal_moves():
        session.message = "The game is over: start a new game."
        return
    if state.to_move not in human_sides:
        thinking = len(human_sides) == 1 if ai_plays_on is None else ai_plays_on
        session.message = not_your_turn(adapter.game, state, thinking)
        return
    outcome = adapter.click(state, square, session.pending)
    session.pending = outcome.pending
    session.message = outcome.message
    if outcome.move is not None:
        try:
            session.play(outcome.move, None, "human", at_ply=at_ply)
        except InputError as error:
            session.message = str(error)


def board_widget(
    adapter: BoardAdapter, page: GamePageState, view: BoardView, human_sides: set[int]
) -> None:
    """The clickable board (SVG, no plotly.js); a click applies the move in the callback.

    Its key is the same in every run: under a new key Streamlit kept the previous board,
    faded, beside the new one until the run ended (a whole AI search). The board shows
    the session's click count (``data-revision``), so a page script can tell a click
    was handled.
    """
    session = page.session
    game_board(
        drawing(adapter.figure(session.state, view)),
        key=page.BOARD,
        revision=session.nonce,
        on_click=functools.partial(_on_board_click, adapter, page, human_sides, session.ply),
    )


def _on_grid_click(
    adapter: BoardAdapter,
    page: GamePageState,
    square: tuple[int, int],
    humans: set[int],
    at_ply: int,
) -> None:
    handle_square(
        adapter, page.session, square, humans, at_ply, ai_plays_on=_ai_plays_on(page, humans)
    )


def _on_list_move(
    adapter: BoardAdapter, page: GamePageState, humans: set[int], at_ply: int
) -> None:
    session = page.session
    if at_ply != session.ply:
        session.message = STALE_MESSAGE
        return
    state = session.state
    text = page.move_text
    if state.to_move not in humans:
        session.message = not_your_turn(adapter.game, state, _ai_plays_on(page, humans))
        return
    try:
        move = adapter.game.parse_move(text, state)
        session.play(move, None, "human", at_ply=at_ply)
        session.message = None
    except InputError as error:
        session.message = str(error)


def fallback_controls(adapter: BoardAdapter, page: GamePageState, human_sides: set[int]) -> None:
    """Button grid (grid games) and a move-list picker: the board without a mouse."""
    session = page.session
    state = session.state
    game = adapter.game
    # drawn only while open (its 64 buttons were most of a first visit's wait in the browser)
    fallback = st.expander(
        "Keyboard-friendly board (buttons)", key=page.FALLBACK, on_change="rerun"
    )
    if not fallback.open:
        return
    with fallback:
        if adapter.cell_label is not None and adapter.board_shape is not None:
            rows, cols = adapter.board_shape(state)
            for r in range(rows):
                columns = st.columns(cols, gap=None)
                for c in range(cols):
                    columns[c].button(
                        adapter.cell_label(state, r, c),
                        key=page.cell_key(r, c),
                        on_click=_on_grid_click,
                        args=(adapter, page, (r, c), human_sides, session.ply),
                        use_container_width=True,
                    )
        moves = state.legal_moves()
        if moves:
            names = [game.format_move(m) for m in moves]
            st.selectbox("Or pick a legal move", names, key=page.MOVE_TEXT)
            st.button(
                "Play this move",
                key=page.PLAY_LISTED,
                on_click=_on_list_move,
                args=(adapter, page, human_sides, session.ply),
            )


# -- the whole page, section by section -------------------------------------------


def _format_option(names: Mapping[Any, str] | None, value: Any) -> str:
    """How an option select shows ``value`` (``names`` from the spec's option_formats)."""
    return names.get(value, str(value)) if names else str(value)


def _sync_query_params(values: Mapping[str, str]) -> None:
    for name, value in values.items():
        if st.query_params.get(name) != value:
            st.query_params[name] = value


@dataclass(frozen=True)
class PageSettings:
    """What the sidebar chose: the game's options, both players and the display."""

    options: dict[str, Any]
    configs: tuple[PlayerConfig, PlayerConfig]
    show_legal: bool
    flipped: bool
    pixels: int
    show_tree: bool
    exact_scores: bool

    @property
    def human_sides(self) -> set[int]:
        """The sides a person plays."""
        return {side for side in (0, 1) if self.configs[side].is_human}


def settings_sidebar(adapter: BoardAdapter, page: GamePageState, notes: list[str]) -> PageSettings:
    """The sidebar: game options and both players (seeded from the URL on first use), display.

    Widget values vanish when the visitor opens another page; the game and the
    player specs are kept under non-widget keys, so coming back restores both
    (a setting in the URL wins). Problems with the link's settings go to ``notes``.
    """
    game = adapter.game
    names = [name.lower() for name in game.player_names]
    previous = page.session if page.has_session else None
    stored_specs = page.specs or adapter.default_players
    options: dict[str, Any] = {}
    with st.sidebar:
        st.subheader(f"{game.title} settings")
        for option, allowed in game.options.items():
            wkey = page.option_key(option)
            if wkey not in st.session_state:
                kept = previous.options.get(option) if previous is not None else None
                in_url = option in st.query_params
                value = kept if kept in allowed and not in_url else None
                init_widget(
                    wkey,
                    query_option(option, tuple(allowed), notes) if value is None else value,
                )
            options[option] = st.selectbox(
                game.option_labels.get(option, option.capitalize()),
                list(allowed),
                index=list(allowed).index(st.session_state[wkey]),
                key=wkey,
                format_func=functools.partial(_format_option, game.option_formats.get(option)),
            )
        configs: list[PlayerConfig] = []
        # the depth a side gets when a person hands it to an AI: the page's default AI's
        ai_depth = next(
            (c.depth for c in map(parse_player_spec, adapter.default_players) if not c.is_human),
            None,
        )
        with user_errors():
            for side, name in enumerate(game.player_names):
                default, link_changes = query_config(
                    names[side], stored_specs[side], notes, available_kinds(game)
                )
                st.markdown(f"**{name}**")
                configs.append(
                    player_controls(
                        game,
                        page.player_prefix(side),
                        name,
                        default,
                        notes=notes,
                        ai_depth=ai_depth,
                        link_changes=link_changes,
                    )
                )
        if len(configs) < 2:
            st.stop()
        st.markdown("**Display**")
        # each widget's default is its value (see lib.ui.common.current)
        show_legal = st.toggle(
            "Mark legal moves",
            value=current(page.SHOW_LEGAL, True),
            key=page.SHOW_LEGAL,
        )
        flipped = adapter.flippable and st.toggle(
            "Turn the board round", value=current(page.FLIP, False), key=page.FLIP
        )
        pixels = st.slider(
            "Board display size (pixels)",
            *BOARD_PIXEL_RANGE,
            value=current(page.BOARD_PIXELS, BOARD_PIXELS),
            step=20,
            key=page.BOARD_PIXELS,
            help=f"{BOARD_PIXELS} fits the whole board on a 1024×768 screen; "
            "larger suits a bigger screen.",
        )
        show_tree = st.toggle(
            f"Record the search tree (depth ≤ {game.tree_depth})",
            value=current(page.TREE, False),
            key=page.TREE,
        )
        exact_scores = st.toggle(
            "Exact score for every move (slower)",
            value=current(page.EXACT, False),
            key=page.EXACT,
            help="Otherwise alpha-beta only proves that the other moves are no better (≤ bounds).",
        )
    _sync_query_params(
        {
            **{option: str(value) for option, value in options.items()},
            **{names[side]: url_spec(configs[side]) for side in (0, 1)},
        }
    )
    page.specs = tuple(url_spec(config) for config in configs)
    return PageSettings(
        options, (configs[0], configs[1]), show_legal, flipped, pixels, show_tree, exact_scores
    )


def _hint_player(game: GameSpec, configs: tuple[PlayerConfig, PlayerConfig]) -> PlayerConfig:
    """Who hints: the game's exact solver if it has one, else the first AI's settings
    (a search or a Monte Carlo tree search)."""
    if game.solver_kind is not None:
        return PlayerConfig(kind=game.solver_kind)
    return next((c for c in configs if c.kind in (*SEARCH_KINDS, MCTS_KIND)), PlayerConfig())


def buttons_row(
    adapter: BoardAdapter, page: GamePageState, session: GameSession, settings: PageSettings
) -> tuple[bool, bool]:
    """New game, Undo, Hint, Pass or Step, Autoplay. Returns (step pressed, autoplay on)."""
    game = adapter.game
    state = session.state
    moves = state.legal_moves()
    human_sides = _acting_humans(session, settings)
    human_turn = bool(moves) and state.to_move in human_sides
    must_pass = human_turn and game.pass_move is not None and moves == [game.pass_move]
    hint_player = _hint_player(game, settings.configs)
    # one row at 1024 px with the sidebar open (about 560 px of main column): short labels
    with st.container(horizontal=True, vertical_alignment="center", gap="small", key=page.BUTTONS):
        new_game = st.button("New game", key=page.NEW_GAME, icon=":material/restart_alt:")
        st.button(
            "Undo",
            key=page.UNDO,
            disabled=not session.moves,
            icon=":material/undo:",
            on_click=_on_undo,
            args=(page, frozenset(human_sides), session.ply),
        )
        st.button(
            "Forward",
            key=page.FORWARD,
            disabled=not session.future,
            icon=":material/redo:",
            help="Play again the move taken back (the game as it went on).",
            on_click=_on_forward,
            args=(page, session.ply),
        )
        want_hint = st.button(
            "Hint",
            key=page.HINT,
            disabled=not human_turn,
            icon=":material/lightbulb:",
            help=f"What {escape_markdown(hint_player.label())} would play here, with the score "
            "of every move.",
        )
        step = False
        if must_pass:  # in the place of Step (a person is to move, so Step would be disabled)
            st.button(
                "Pass",
                key=page.PASS,
                type="primary",
                icon=":material/step_over:",
                help="No legal move: you must pass.",
                on_click=_on_pass,
                args=(page, game.pass_move, session.ply),
            )
        else:
            step = st.button(
                "Step",
                key=page.STEP,
                disabled=not moves or human_turn,
                icon=":material/skip_next:",
                help="Let the AI to move play one move.",
            )
        autoplay = st.toggle(
            "Autoplay",
            value=current(page.AUTOPLAY, False),
            key=page.AUTOPLAY,
            disabled=bool(human_sides),
            help="AI vs AI: play the AI moves one after another (when both sides are AI players).",
        )
    if new_game:
        page.session = GameSession.new(game, settings.options, session.seed + 1)
        page.drop_notes()
        st.rerun()
    if want_hint:
        ply = session.ply
        with st.spinner("Thinking about a hint…"), user_errors():
            decision = decide(
                state,
                hint_player,
                game,
                session.rng,
                default_time=DEFAULT_TIME,
                exact_root_scores=True,
            )
            # under the spinner: it may take a second (kept with the hint, asked once)
            proofs = adapter.move_insight(state) if adapter.move_insight else None
            if session.ply == ply:  # not for a position that has changed meanwhile
                session.hint = search.SearchResult(
                    decision.move, decision.value or 0.0, decision.stats
                )
                session.hint_ply, session.hint_proofs = ply, proofs
    return step, autoplay


def _on_undo(page: GamePageState, human_sides: frozenset[int], at_ply: int) -> None:
    """Undo pressed on the board with ``at_ply`` moves: dropped (and said) if it has changed."""
    if not page.session.undo(set(human_sides), at_ply=at_ply):
        page.session.message = STALE_MESSAGE
    page.stop_autoplay()


def _on_forward(page: GamePageState, at_ply: int) -> None:
    """Forward pressed on the board with ``at_ply`` moves: the next kept move, played again."""
    if not page.session.forward(at_ply=at_ply):
        page.session.message = STALE_MESSAGE
    page.stop_autoplay()


def _on_move_slider(page: GamePageState, at_ply: int) -> None:
    """The move slider let go: show the position after that many moves."""
    wanted = page.shown_ply
    if not page.session.go_to(at_ply if wanted is None else wanted, at_ply=at_ply):
        page.session.message = STALE_MESSAGE
    page.stop_autoplay()


def move_slider(page: GamePageState, session: GameSession) -> None:
    """A slider over the game's plies (a replay, or moves taken back that Forward replays)."""
    if not (session.replay or session.future) or session.total_plies < 1:
        return
    page.shown_ply = session.ply  # follows Undo, Forward and the board
    st.slider(
        "Move shown",
        0,
        session.total_plies,
        key=page.SHOWN_PLY,
        on_change=_on_move_slider,
        args=(page, session.ply),
        help="Step through the game: the later moves are kept until a different move is played.",
    )


def _on_pass(page: GamePageState, pass_move: Any, at_ply: int) -> None:
    """Pass pressed on the board with ``at_ply`` moves: dropped (and said) if it has changed."""
    if not page.session.play(pass_move, None, "human", at_ply=at_ply):
        page.session.message = STALE_MESSAGE


def _acting_humans(session: GameSession, settings: PageSettings) -> set[int]:
    # no AI plays on in a replay: both sides move by hand (or Undo)
    return {0, 1} if session.replay else settings.human_sides


def status_slot(
    adapter: BoardAdapter, page: GamePageState, session: GameSession, settings: PageSettings
) -> Callable[[str], None]:
    """The fixed-height line right above the board: whose turn or the result, and under it
    a click's message (for this run: it goes with the next move).

    Returns a function that replaces the turn line (the AI's "is thinking…" notice); a
    click's message stays under it.
    """
    state = session.state
    status = adapter.status(state) if adapter.status else ""
    # either fits in the fixed height without moving the board
    slot = st.container(height=STATUS_HEIGHT, border=False, key=page.MESSAGES)
    status_line = slot.empty()
    shown = session.message
    session.message = None
    said = f"  \n{shown}" if shown else ""
    if not state.legal_moves():
        line = f"Game over: **{_result(adapter.game, session)}**. {status}"
        if shown:
            status_line.warning(line + said, icon=":material/info:")
        else:
            status_line.success(line)
    elif shown:
        status_line.warning(_turn_line(adapter, session, settings) + said, icon=":material/info:")
    else:
        status_line.info(_turn_line(adapter, session, settings))

    def thinking(text: str) -> None:
        if shown:  # a refused click stays said while the AI thinks
            status_line.warning(f"{text} · {status}{said}", icon=":material/hourglass_top:")
        else:
            status_line.info(f"{text} · {status}", icon=":material/hourglass_top:")

    return thinking


def _turn_line(adapter: BoardAdapter, session: GameSession, settings: PageSettings) -> str:
    """Whose turn it is, who plays that side, what to do, and the game's status."""
    game = adapter.game
    state = session.state
    moves = state.legal_moves()
    status = adapter.status(state) if adapter.status else ""
    human_turn = bool(moves) and state.to_move in _acting_humans(session, settings)
    # a label may hold a typed formula ("1e6*1e6"): shown as typed, not as Markdown
    who = "replay" if session.replay else escape_markdown(settings.configs[state.to_move].label())
    prompt = ""
    if human_turn and game.pass_move is not None and moves == [game.pass_move]:
        prompt = ": no legal move, press **Pass**"
    elif human_turn and adapter.prompt:
        prompt = f": {adapter.prompt}"
    elif moves and session.future:
        prompt = ": **Forward** replays the game, **Step** lets the AI choose here"
    return f"**{game.player_names[state.to_move]}** to move ({who}){prompt} · {status}"


def _result(game: GameSpec, session: GameSession) -> str:
    """The finished game's result; in a replay, with who played the winning side."""
    winner = session.state.winner()
    result = "Draw" if winner is None else f"{game.player_names[winner]} wins"
    if session.replay and winner is not None:  # say who played the winning side
        played = {
            who
            for before, who in zip(session.states[:-1], session.players, strict=True)
            if before.to_move == winner
        }
        if len(played) == 1 and LINK_PLAYER not in played:
            result += f" ({escape_markdown(_player_label(played.pop()))})"
    return result


def board_view(
    session: GameSession, settings: PageSettings, human_sides: set[int], *, pixels: int
) -> BoardView:
    """What the board shows besides the position: the last move, the hint's scores, and the
    legal-move dots only when a person is to move (not while an AI is to move and thinks:
    they were the person's moves, not clickable then)."""
    state = session.state
    hint = session.hint if session.hint_ply == session.ply else None
    return BoardView(
        last_move=session.moves[-1] if session.moves else None,
        previous=session.states[-2] if len(session.states) > 1 else None,
        scores=hint.stats.root_scores if hint else None,
        bounds=hint.stats.root_bounds if hint else None,
        marked=hint.move if hint else None,
        pending=session.pending,
        show_legal=settings.show_legal and state.to_move in human_sides,
        flipped=settings.flipped,
        pixels=pixels,
    )


def play_area(
    adapter: BoardAdapter,
    page: GamePageState,
    session: GameSession,
    settings: PageSettings,
    description: str,
) -> None:
    """The board, with the verdict, the hint and how to play beside it (under it if narrow)."""
    game = adapter.game
    state = session.state
    hint = session.hint if session.hint_ply == session.ply else None
    human_sides = _acting_humans(session, settings)
    pixels = max(settings.pixels, PRESENTATION_BOARD_PIXELS) if presenting() else settings.pixels
    view = board_view(session, settings, human_sides, pixels=pixels)
    # (no key starting "{key}_board_": the tests find the board by that prefix)
    with st.container(horizontal=True, wrap=True, gap="small", key=page.PLAY_AREA):
        board_widget(adapter, page, view, human_sides)
        with st.container(width=SIDE_PANEL_WIDTH, key=page.SIDE_PANEL):
            notice = page.take_notice()  # once, on arrival
            if notice:
                st.info(escape_markdown(notice), icon=":material/tune:")
            # on arrival from the Arena, also a toast: a phone's narrow column puts this panel under
            # the board (not for a replay: its toast covered Step and Autoplay, and repeated
            # the banner below)
            if notice:
                st.toast(escape_markdown(notice), icon=":material/tune:", duration="long")
            if session.replay:  # here, not above: the board stays in view
                st.info(
                    f"{escape_markdown(session.replay)}. Undo and Forward step through it; "
                    "New game plays with the players in the sidebar.",
                    icon=":material/replay:",
                )
            if session.replay and session.replay_link:
                # an urlencoded Arena address: nothing in it can break the Markdown link
                st.markdown(f"[Link to share this replay]({session.replay_link})")
            if adapter.insight is not None:
                # shown only past half a second: the first solve after a fresh install
                # compiles the solver for seconds, which left the page grey and silent
                with st.spinner("Working out who wins from here…"):
                    insight = adapter.insight(state)
                st.markdown(insight)
            if hint and isinstance(hint.stats, MctsStats):
                st.caption(
                    f"Hint: **{game.format_move(hint.move)}** · the colours and numbers show how "
                    f"often each move was tried ({hint.stats.simulations:,} simulations)."
                )
            elif hint:
                st.caption(
                    f"Hint: **{game.format_move(hint.move)}** · the colours show the score of "
                    f"every move ({hint.stats.nodes:,} positions searched)."
                )
                if session.hint_proofs is not None:
                    st.markdown(
                        proved_moves_markdown(
                            hint.stats.root_scores,
                            hint.stats.root_bounds,
                            session.hint_proofs,
                            game.format_move,
                        )
                    )
            # under the verdict and the hint: they stay on a projector's first screen
            move_slider(page, session)
            if description:
                st.markdown(f"**How to play.** {description}")
    fallback_controls(adapter, page, human_sides)


def analysis_tabs(
    adapter: BoardAdapter, page: GamePageState, session: GameSession, settings: PageSettings
) -> None:
    """The AI's last search, the comparison of variants, the game record, the heuristics."""
    game = adapter.game
    # only the open tab is computed and sent (a first visit waited for all five in the
    # browser); the settings of a closed one are kept for when it opens again
    tabs = st.tabs(list(ANALYSIS_TABS), key=page.TABS, on_change="rerun")
    if not tabs[1].open:
        keep_widget_values([compare_depth_key(page.game)])
    if not tabs[4].open:
        keep_widget_values(step_widget_keys(page.game))
        drop_step_link()
    if not tabs[5].open:
        keep_widget_values(mcts_step_widget_keys(page.game))
        drop_mcts_link()
    if tabs[0].open:
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
                    key=page.LAST_SEARCH,
                    board=adapter.figure(
                        before,
                        BoardView(
                            scores=decision.stats.root_scores,
                            bounds=decision.stats.root_bounds,
                            show_legal=False,
                            title=search_plots.VISITS_TITLE
                            if isinstance(decision.stats, MctsStats)
                            else "Score of each move it considered",
                            pixels=400,
                            flipped=settings.flipped,
                        ),
                    ),
                    verdicts=_proved_by_search(adapter, before, decision.stats),
                )
    if tabs[1].open:
        with tabs[1]:
            compare_panel(adapter, page.game, session, _hint_player_for_compare(settings))
    if tabs[2].open:
        with tabs[2]:
            table = session.record_table(game)
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
            csv_download(
                table,
                f"{game.name}_game.csv",
                "Download game record (CSV)",
                key=page.RECORD_DOWNLOAD,
            )
    if tabs[3].open:
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
    if tabs[4].open:
        with tabs[4]:
            step_panel(adapter, page.game, settings.configs)
    if tabs[5].open:
        with tabs[5]:
            mcts_step_panel(adapter, page.game)


def _proved_by_search(
    adapter: BoardAdapter, state: Any, stats: Any
) -> Mapping[Move, tuple[str, str]] | None:
    """Each move's proved value for the last search's panel, when the AI's own search was
    settled by the game's exact solver: then the moves are within the solver's reach too,
    while asking on every early position would hold up each AI move by the whole budget."""
    if adapter.move_insight is None or not isinstance(stats, search.SearchStats):
        return None
    return adapter.move_insight(state) if stats.exact_endgame else None


def _hint_player_for_compare(settings: PageSettings) -> PlayerConfig:
    """The search settings the comparison uses: the first AI's (defaults if none)."""
    return next((c for c in settings.configs if c.kind in SEARCH_KINDS), PlayerConfig())


def ai_move(
    adapter: BoardAdapter,
    session: GameSession,
    settings: PageSettings,
    thinking: Callable[[str], None],
    run: int,
) -> None:
    """The AI to move searches and plays, unless the page moved on while it thought.

    Runs after everything else is drawn, so a person's own move is on screen first.
    Streamlit starts a new run of the page (Undo, Autoplay off, a click) while this
    one is still searching: then this run's reply is dropped (the new run decides
    what happens), and a reply is only ever played on the position it was searched on.
    """
    game = adapter.game
    state = session.state
    config = settings.configs[state.to_move]
    label = escape_markdown(config.label())  # a typed formula's text, shown as typed
    who = f"**{game.player_names[state.to_move]}** ({label}) **is thinking…**"
    thinking(who)

    def progress(stats: Any) -> None:
        # Redrawing the line is also where Streamlit stops this run when the visitor left
        # or asked for something else (Undo, Autoplay off, a click): the search ends there.
        thinking(f"{who} {stats.progress_text()}")

    ply = session.ply
    with user_errors():
        decision = decide(
            state,
            config,
            game,
            session.rng,
            default_time=DEFAULT_TIME,
            record_tree=settings.show_tree,
            exact_root_scores=settings.exact_scores,
            on_progress=progress,
        )
        # a Streamlit call is where a run that a newer one replaced stops (an Undo, a click,
        # Autoplay switched off while it searched): its reply is never played
        thinking(f"**{game.player_names[state.to_move]}** ({label}) has chosen.")
        # and should the newer run have started all the same, the session drops the reply
        if session.play_reply(decision.move, decision, config.label(), at_ply=ply, run=run):
            st.rerun()


def run_game_page(game: GameSpec, description: str = "") -> None:
    """Render a complete human-vs-AI / AI-vs-AI page for ``game`` (its board view from the spec).

    Layout: the title, the button row, the status slot, then the board with a panel
    beside it (under it in a narrow main column) holding the position's verdict, the
    hint and ``description`` (markdown: how to play), so that the whole board is in view
    on a 1024x768 projector; then the button-grid fallback and the tabs with the search
    statistics, the comparison, the game record and the explanation.
    """
    require_app_navigation()
    adapter = load_adapter(game)
    page = GamePageState(game.name)
    st.title(game.title)
    notes: list[str] = []  # problems with the link's settings, shown on the page
    settings = settings_sidebar(adapter, page, notes)

    if not page.has_session or page.session.options != settings.options:
        # a link's position is read once, into the session's first game
        from_link = not page.link_read
        seed = link_seed(notes) if from_link else None
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % (2**32))
        page.session = GameSession.new(game, settings.options, seed)
        if from_link:
            restore_from_link(game, page.session, notes)
            # the step-through's position may be the board's: read after its moves
            if read_step_link(adapter, page.game, settings.configs, notes):
                page.open_tab(ANALYSIS_TABS[4])
            if read_mcts_link(page.game, notes):
                page.open_tab(ANALYSIS_TABS[5])
    page.link_read = True
    session = page.session
    run = session.start_run()  # a newer run (a click, Undo, Autoplay off) makes this one stale

    # settings problems, on the page itself, not only in the sidebar; kept until New game (a
    # link's settings are read once: the AI's first move reruns the page without them)
    kept_notes = page.notes
    kept_notes.extend(note for note in notes if note not in kept_notes)
    for note in kept_notes:
        st.warning(note, icon=":material/warning:")

    step, autoplay = buttons_row(adapter, page, session, settings)
    thinking = status_slot(adapter, page, session, settings)
    play_area(adapter, page, session, settings, description)
    analysis_tabs(adapter, page, session, settings)
    write_game_link(game, session)

    state = session.state
    humans = _acting_humans(session, settings)
    ai_to_move = bool(state.legal_moves()) and state.to_move not in humans
    # on a position taken back, the AI waits for Step: replying on its own would drop the
    # kept moves that Forward and the move slider step through
    replies = len(humans) == 1 and not session.future
    if ai_to_move and (step or autoplay or replies):
        ai_move(adapter, session, settings, thinking, run)
