"""The shared game page: every game's page is its spec handed to :func:`run_game_page`.

A game page file is a few lines::

    from lib.games.core import get_game
    from lib.ui.game_page import run_game_page

    run_game_page(get_game("othello"), description="Click a square ...")

Everything else is generic and names no game. This module lays the page out and lets the
AI move; each part the visitor sees is its own module: the sidebar's settings
(:mod:`lib.ui.game_sidebar`, with the players of :mod:`lib.ui.game_controls`), the button
row (:mod:`lib.ui.game_buttons`), the status line and the panel beside the board
(:mod:`lib.ui.game_play_area`), the clickable board and its keyboard fallback
(:mod:`lib.ui.game_board`), and the analysis tabs (:mod:`lib.ui.game_analysis`). The game
itself is a :class:`lib.games.session.GameSession` kept in the visitor's own
``st.session_state`` under the keys of :class:`lib.ui.game_state.GamePageState`; nothing
is kept in module globals.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import streamlit as st

from lib.games.core import GameSpec
from lib.games.drawing.view import BoardAdapter, load_adapter
from lib.games.move_pool import decide_anywhere
from lib.games.session import GameSession
from lib.ui.common import escape_markdown, user_errors
from lib.ui.game_analysis import analysis_tabs, open_linked_tab
from lib.ui.game_buttons import buttons_row
from lib.ui.game_controls import DEFAULT_TIME
from lib.ui.game_link import link_seed, restore_from_link, write_game_link
from lib.ui.game_play_area import play_area, status_slot
from lib.ui.game_sidebar import PageSettings, settings_sidebar
from lib.ui.game_state import GamePageState
from lib.ui.jobs import move_pool
from lib.ui.navigation import require_app_navigation


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
    _start_session(adapter, page, settings, notes)
    session = page.session
    run = session.start_run()  # a newer run (a click, Undo, Autoplay off) makes this one stale
    _show_notes(page, notes)

    step, autoplay = buttons_row(adapter, page, session, settings)
    thinking = status_slot(adapter, page, session, settings)
    play_area(adapter, page, session, settings, description)
    analysis_tabs(adapter, page, session, settings)
    write_game_link(game, session)

    state = session.state
    humans = settings.acting_humans(session)
    ai_to_move = bool(state.legal_moves()) and state.to_move not in humans
    # on a position taken back, the AI waits for Step: replying on its own would drop the
    # kept moves that Forward and the move slider step through
    replies = len(humans) == 1 and not session.future
    if ai_to_move and (step or autoplay or replies):
        ai_move(adapter, session, settings, thinking, run, paced=autoplay and not step)


def _start_session(
    adapter: BoardAdapter, page: GamePageState, settings: PageSettings, notes: list[str]
) -> None:
    """A new game when there is none or the sidebar changed the game's options; the first
    one plays the link's position (and opens a step-through the link names)."""
    if page.has_session and page.session.options == settings.options:
        page.link_read = True
        return
    game = adapter.game
    # a link's position is read once, into the session's first game
    from_link = not page.link_read
    seed = link_seed(notes) if from_link else None
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % (2**32))
    page.session = GameSession.new(game, settings.options, seed)
    if from_link:
        restore_from_link(game, page.session, notes)
        # the step-through's position may be the board's: read after its moves
        open_linked_tab(adapter, page, settings.configs, notes)
    page.link_read = True


def _show_notes(page: GamePageState, notes: list[str]) -> None:
    """Settings problems, on the page itself, not only in the sidebar; kept until New game
    (a link's settings are read once: the AI's first move reruns the page without them)."""
    kept_notes = page.notes
    kept_notes.extend(note for note in notes if note not in kept_notes)
    for note in kept_notes:
        st.warning(note, icon=":material/warning:")


AUTOPLAY_PACE = 0.5
"""Seconds an Autoplay move takes at least: a room follows a game of instant book moves,
and the page does not spin through a run per move as fast as the server can."""


def ai_move(
    adapter: BoardAdapter,
    session: GameSession,
    settings: PageSettings,
    thinking: Callable[[str], None],
    run: int,
    paced: bool = False,
) -> None:
    """The AI to move searches and plays, unless the page moved on while it thought.

    Runs after everything else is drawn, so a person's own move is on screen first.
    Streamlit starts a new run of the page (Undo, Autoplay off, a click) while this
    one is still searching: then this run's reply is dropped (the new run decides
    what happens), and a reply is only ever played on the position it was searched on.
    ``paced`` (Autoplay): a reply found sooner waits until :data:`AUTOPLAY_PACE` seconds
    after the search began.
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

    ply, started = session.ply, time.monotonic()
    with user_errors():
        decision = decide_anywhere(
            move_pool(),
            state,
            config,
            game,
            session.rng,
            default_time=DEFAULT_TIME,
            record_tree=settings.show_tree,
            exact_root_scores=settings.exact_scores,
            on_progress=progress,
        )
        if paced:
            time.sleep(max(0.0, AUTOPLAY_PACE - (time.monotonic() - started)))
        # a Streamlit call is where a run that a newer one replaced stops (an Undo, a click,
        # Autoplay switched off while it searched): its reply is never played
        thinking(f"**{game.player_names[state.to_move]}** ({label}) has chosen.")
        # and should the newer run have started all the same, the session drops the reply
        if session.play_reply(decision.move, decision, config.label(), at_ply=ply, run=run):
            st.rerun()
