"""The game board component: a board drawn as SVG in the page, without plotly.js.

It draws :func:`lib.games.drawing.board_drawing.drawing` of a game's board figure; a click on a
click target (a point with ``customdata``, e.g. a square) calls ``on_click`` with the
target's ``customdata`` in ``st.session_state[key]["click"]`` (a trigger value: there
for that one run). Its JavaScript and CSS ship beside this file, registered inline with
``st.components.v2.component`` (nothing is built or fetched from the network; see
:mod:`lib.ui.components.route_player` for the Streamlit traps met there).

``isolate_styles=False``: the board is drawn in the page's own DOM, not in a shadow
root, so the page's scripts (and the browser tests') find it like any other element.
Its CSS only names its own classes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import streamlit as st

_HERE = Path(__file__).parent
_BOARD = st.components.v2.component(
    "ai_search_lab.game_board",
    css=(_HERE / "game_board.css").read_text(encoding="utf-8"),
    js=(_HERE / "game_board.js").read_text(encoding="utf-8"),
    isolate_styles=False,
)


def game_board(data: dict, *, key: str, on_click: Callable[[], None], revision: int = 0) -> None:
    """Show the board ``data`` (:func:`lib.games.drawing.board_drawing.drawing`) under ``key``.

    ``revision`` is set on the board as ``data-revision`` (e.g. the clicks handled so far).
    """
    _BOARD(data={**data, "revision": revision}, key=key, height="content", on_click_change=on_click)
