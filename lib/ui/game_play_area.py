"""What surrounds the board: the status line above it and the panel beside it (the Arena's
notice, a replay's banner, the position's verdict, the hint, the move slider, how to play).

Laid out so that the whole board, the verdict and the hint are on a 1024x768 projector's
first screen: the status line has a fixed height (a message under it does not move the
board), and the panel sits beside the board (under it in a narrow main column).
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from lib.errors import InputError
from lib.games.core import GameSpec
from lib.games.drawing.view import BoardAdapter
from lib.games.search.mcts import MctsStats
from lib.games.search.players import parse_player_spec
from lib.games.session import STALE_MESSAGE, GameSession
from lib.ui.common import escape_markdown
from lib.ui.game_board import board_view, board_widget, fallback_controls
from lib.ui.game_link import LINK_PLAYER
from lib.ui.game_sidebar import PageSettings
from lib.ui.game_state import GamePageState
from lib.ui.presentation import presenting
from lib.ui.search_panels import proved_moves_markdown

STATUS_HEIGHT = 108
"""Pixels of the status slot right above the board: three lines of an alert. The turn line (two
lines at 1024 px for checkers) and a click's message under it fit without moving the board
(a projector's 768 pixels leave no room for the board to jump)."""
SIDE_PANEL_WIDTH = 250
"""Pixel width of the panel beside the board (the position's verdict, the hint, a replay's
banner, how to play): with the default board it fits beside it on a 1024x768 projector with
the sidebar open (676 px of main column), so the hint and the verdict are on the first screen."""
PRESENTATION_BOARD_PIXELS = 440
"""Board size in the presentation view (unless the sidebar asks for more): the largest that
keeps the board and its panel side by side, and the board whole, on a 1024x768 projector."""


# -- the status line -------------------------------------------------------------------


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
    human_turn = bool(moves) and state.to_move in settings.acting_humans(session)
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


def _player_label(spec: str) -> str:
    """A recorded player spec as people read it ("alphabeta:depth=3" -> "Alpha-beta d3")."""
    try:
        return parse_player_spec(spec).label()
    except InputError:
        return spec


# -- the board and the panel beside it --------------------------------------------------


def play_area(
    adapter: BoardAdapter,
    page: GamePageState,
    session: GameSession,
    settings: PageSettings,
    description: str,
) -> None:
    """The board, with the verdict, the hint and how to play beside it (under it if narrow)."""
    human_sides = settings.acting_humans(session)
    pixels = max(settings.pixels, PRESENTATION_BOARD_PIXELS) if presenting() else settings.pixels
    view = board_view(session, settings, human_sides, pixels=pixels)
    # (no key starting "{key}_board_": the tests find the board by that prefix)
    with st.container(horizontal=True, wrap=True, gap="small", key=page.PLAY_AREA):
        board_widget(adapter, page, view, human_sides)
        with st.container(width=SIDE_PANEL_WIDTH, key=page.SIDE_PANEL):
            _side_panel(adapter, page, session, description)
    fallback_controls(adapter, page, human_sides)


def _side_panel(
    adapter: BoardAdapter, page: GamePageState, session: GameSession, description: str
) -> None:
    """The panel beside the board, top down: the Arena's notice, a replay's banner and link,
    the position's verdict, the hint, the move slider, how to play."""
    notice = page.take_notice()  # once, on arrival
    if notice:
        st.info(escape_markdown(notice), icon=":material/tune:")
        # on arrival from the Arena, also a toast: a phone's narrow column puts this panel under
        # the board (not for a replay: its toast covered Step and Autoplay, and repeated
        # the banner below)
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
            insight = adapter.insight(session.state)
        st.markdown(insight)
    _hint_caption(adapter.game, session)
    # under the verdict and the hint: they stay on a projector's first screen
    move_slider(page, session)
    if description:
        st.markdown(f"**How to play.** {description}")


def _hint_caption(game: GameSpec, session: GameSession) -> None:
    """The hint for the position shown, if one was asked: its move, what the board's colours
    mean, and the moves the game's solver proved."""
    hint = session.hint if session.hint_ply == session.ply else None
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


def _on_move_slider(page: GamePageState, at_ply: int) -> None:
    """The move slider let go: show the position after that many moves."""
    wanted = page.shown_ply
    if not page.session.go_to(at_ply if wanted is None else wanted, at_ply=at_ply):
        page.session.message = STALE_MESSAGE
    page.stop_autoplay()
