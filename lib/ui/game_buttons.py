"""The button row above the board: New game, Undo, Forward, Hint, Pass or Step, Autoplay.

Undo, Forward and Pass act in their callbacks, on the position the visitor saw (a
press on a board that has changed since is dropped and explained); New game and Hint
act in the run they were pressed in; Step and Autoplay are handed back to the page,
which lets the AI move after everything is drawn.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from lib.games.core import GameSpec
from lib.games.drawing.view import BoardAdapter
from lib.games.move_pool import decide_anywhere
from lib.games.search import fast as search
from lib.games.search.players import MCTS_KIND, SEARCH_KINDS, PlayerConfig
from lib.games.session import STALE_MESSAGE, GameSession
from lib.ui.common import current, escape_markdown, user_errors
from lib.ui.game_controls import DEFAULT_TIME
from lib.ui.game_sidebar import PageSettings
from lib.ui.game_state import GamePageState
from lib.ui.jobs import move_pool


def buttons_row(
    adapter: BoardAdapter, page: GamePageState, session: GameSession, settings: PageSettings
) -> tuple[bool, bool]:
    """New game, Undo, Hint, Pass or Step, Autoplay. Returns (step pressed, autoplay on)."""
    game = adapter.game
    state = session.state
    moves = state.legal_moves()
    human_sides = settings.acting_humans(session)
    human_turn = bool(moves) and state.to_move in human_sides
    hint_player = _hint_player(game, settings.configs)
    # one row at 1024 px with the sidebar open (about 560 px of main column): short labels
    with st.container(horizontal=True, vertical_alignment="center", gap="small", key=page.BUTTONS):
        new_game = st.button("New game", key=page.NEW_GAME, icon=":material/restart_alt:")
        _history_buttons(page, session, human_sides)
        want_hint = st.button(
            "Hint",
            key=page.HINT,
            disabled=not human_turn,
            icon=":material/lightbulb:",
            help=f"What {escape_markdown(hint_player.label())} would play here, with the score "
            "of every move.",
        )
        step = _step_or_pass(game, page, session, human_turn)
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
        _hint(adapter, session, hint_player)
    return step, autoplay


def _history_buttons(page: GamePageState, session: GameSession, human_sides: set[int]) -> None:
    """Undo (back to the last person's move) and Forward (a move taken back, played again)."""
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


def _step_or_pass(
    game: GameSpec, page: GamePageState, session: GameSession, human_turn: bool
) -> bool:
    """Step (the AI to move plays one move), or Pass in its place when a person must pass.

    Returns whether Step was pressed.
    """
    moves = session.state.legal_moves()
    if human_turn and game.pass_move is not None and moves == [game.pass_move]:
        # in the place of Step (a person is to move, so Step would be disabled)
        st.button(
            "Pass",
            key=page.PASS,
            type="primary",
            icon=":material/step_over:",
            help="No legal move: you must pass.",
            on_click=_on_pass,
            args=(page, game.pass_move, session.ply),
        )
        return False
    return st.button(
        "Step",
        key=page.STEP,
        disabled=not moves or human_turn,
        icon=":material/skip_next:",
        help="Let the AI to move play one move.",
    )


def _hint_player(game: GameSpec, configs: tuple[PlayerConfig, PlayerConfig]) -> PlayerConfig:
    """Who hints: the game's exact solver if it has one, else the first AI's settings
    (a search or a Monte Carlo tree search)."""
    if game.solver_kind is not None:
        return PlayerConfig(kind=game.solver_kind)
    return next((c for c in configs if c.kind in (*SEARCH_KINDS, MCTS_KIND)), PlayerConfig())


def _hint(adapter: BoardAdapter, session: GameSession, hint_player: PlayerConfig) -> None:
    """Search the position for ``hint_player``'s move and every move's score; keep it with
    the session (for this position only)."""
    state = session.state
    ply = session.ply
    with st.spinner("Thinking about a hint…"), user_errors():
        decision = decide_anywhere(
            move_pool(),
            state,
            hint_player,
            adapter.game,
            session.rng,
            default_time=DEFAULT_TIME,
            exact_root_scores=True,
        )
        # under the spinner: it may take a second (kept with the hint, asked once)
        proofs = adapter.move_insight(state) if adapter.move_insight else None
        if session.ply == ply:  # not for a position that has changed meanwhile
            session.hint = search.SearchResult(decision.move, decision.value or 0.0, decision.stats)
            session.hint_ply, session.hint_proofs = ply, proofs


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


def _on_pass(page: GamePageState, pass_move: Any, at_ply: int) -> None:
    """Pass pressed on the board with ``at_ply`` moves: dropped (and said) if it has changed."""
    if not page.session.play(pass_move, None, "human", at_ply=at_ply):
        page.session.message = STALE_MESSAGE
