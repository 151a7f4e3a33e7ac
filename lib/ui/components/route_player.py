"""The route search player: a canvas that plays a whole search in the browser.

Beside the map it shows the code that ran (when the data has ``code``:
:func:`lib.routes.explain.code_view`), the line of the step shown marked, so the
marked line follows the animation without the server.

The same component draws the clickable route map (:func:`route_map`): the drawing
without a search, the routes found, and a click on a place sent back as a trigger.

Its JavaScript and CSS ship beside this file (``route_player.js``, ``route_player.css``)
and are registered inline with ``st.components.v2.component``: nothing is built and
nothing is fetched from the network. It draws what :func:`lib.routes.animation.player_data`
builds: the roads once, then at each frame only the places whose look changed. Place
names (which may come from an uploaded file) are drawn as canvas text or set with
``textContent``, never as HTML.

Streamlit traps met here (1.67):

- The component's JavaScript function runs again with the new ``data`` each time the
  data changes, on the same ``parentElement``, and the cleanup function an earlier run
  returned is *not* called then (only the last one, when the element goes away). The
  player therefore keeps itself per ``parentElement`` and stops its own timer first.
- With ``isolate_styles`` (the default) ``parentElement`` is a shadow root: it has no
  size of its own, so the player measures a ``div`` of its own inside it. Playwright's
  CSS selectors reach into it (open shadow root); ``document.querySelector`` in page
  scripts does not (pass the element handle instead).
- The JavaScript is loaded as a module from a ``blob:`` URL (cached by a hash of its
  text): module-level state is shared by every player in the tab, hence the ``WeakMap``.
- ``data`` that is a dict goes as JSON (numpy arrays inside it would go as Arrow
  tables). The frontend keeps the decoded data as long as the JSON text is the same
  (read in its bundle, ``BidiComponent``), so a rerun that sends the same data does not
  call the function again.
- AppTest shows the element as an ``UnknownElement``: ``app.get("bidi_component")``,
  its data in ``proto.json``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import streamlit as st

from lib.ui.presentation import CHART_TEXT_PX, presenting

_HERE = Path(__file__).parent
_PLAYER = st.components.v2.component(
    "ai_search_lab.route_player",
    css=(_HERE / "route_player.css").read_text(encoding="utf-8"),
    js=(_HERE / "route_player.js").read_text(encoding="utf-8"),
)


#: The map's texts in the presentation view: place names and cell costs, roads' lengths (px).
PRESENT_PLACE_FONT, PRESENT_ROAD_FONT = CHART_TEXT_PX + 4, CHART_TEXT_PX + 2


def projected(data: dict, present: bool) -> dict:
    """``data`` drawn for the presentation view when ``present``: larger names and lengths.

    The digest changes with it, so a player already shown is drawn again at the new size.
    """
    if not present or "style" not in data:
        return data
    style = dict(data["style"])
    style["placeFont"] = max(style["placeFont"], PRESENT_PLACE_FONT)
    style["roadFont"] = max(style["roadFont"], PRESENT_ROAD_FONT)
    return {**data, "style": style, "present": True, "digest": f"{data.get('digest', '')}:p"}


def route_player(data: dict, *, key: str, on_step: Callable[[], None]) -> None:
    """Show the player for ``data`` (:func:`lib.routes.animation.player_data`) under ``key``.

    When the player's own step rests (its slider let go, Pause, the end of a play) on a
    step other than ``data["step"]``, ``on_step`` is called with that step in
    ``st.session_state[key]["step"]`` (a trigger value, there for that one run).
    """
    _PLAYER(data=projected(data, presenting()), key=key, height="content", on_step_change=on_step)


def route_map(
    data: dict,
    *,
    key: str,
    on_click: Callable[[], None],
    on_edit: Callable[[], None] | None = None,
    on_move: Callable[[], None] | None = None,
) -> None:
    """Show the clickable route map (:func:`lib.routes.animation.route_map_data`) under ``key``.

    A click on a place calls ``on_click``, with the place's index in
    ``st.session_state[key]["click"]`` (a trigger value: it is there for that one run,
    so the same place can be clicked again under the same key). A stroke of a paint
    tool calls ``on_edit`` (``...[key]["edit"]``: ``{"tool", "cells"}``) and a start
    or goal dragged elsewhere calls ``on_move`` (``...[key]["move"]``: ``{"end", "place"}``).
    """
    events = {"on_edit_change": on_edit, "on_move_change": on_move}
    _PLAYER(
        data=projected(data, presenting()),
        key=key,
        height="content",
        on_click_change=on_click,
        **{name: callback for name, callback in events.items() if callback is not None},
    )


def route_race(data: dict, *, key: str, on_speed: Callable[[], None] | None = None) -> None:
    """Show a race of algorithms (:func:`lib.routes.race.race_data`) under ``key``.

    It plays in the browser (one Play / Pause / Step and a speed control for all the
    racers, starting at ``data["speed"]`` if given). A speed chosen there calls
    ``on_speed``, with the speed in ``st.session_state[key]["speed"]`` (a trigger value).
    """
    events = {"on_speed_change": on_speed} if on_speed is not None else {}
    _PLAYER(data=projected(data, presenting()), key=key, height="content", **events)
