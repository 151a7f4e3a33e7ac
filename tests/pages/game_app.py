"""Helpers for AppTest tests of the game pages (checkers, Sim; any page built on run_game_page)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from lib.games.core import GameSpec
from lib.games.session import GameSession
from lib.ui.game_analysis import ANALYSIS_TABS

LAST_SEARCH_TAB, COMPARE_TAB, RECORD_TAB, ABOUT_TAB, STEP_TAB, MCTS_STEP_TAB = ANALYSIS_TABS

ROOT = Path(__file__).resolve().parents[2]


def open_game_page(
    name: str, *, tab: str | None = None, buttons: bool = False, **params: str
) -> AppTest:
    """Run ``pages/<name>.py`` with the given URL query parameters.

    ``tab`` (one of ``ANALYSIS_TABS``) and ``buttons`` (the keyboard-friendly board)
    are opened from the first run on: the page draws them only while they are open.
    """
    app = AppTest.from_file(str(ROOT / "pages" / f"{name}.py"), default_timeout=60)
    for key, value in params.items():
        app.query_params[key] = value
    return open_panels(app, name, tab=tab, buttons=buttons).run()


def shared_game_page(game: GameSpec, folder: Path) -> AppTest:
    """An AppTest of the shared game page for ``game``, as its ``pages/<name>.py`` is written.

    Works for a game without a page file too (the plugin's test game), from a script
    written to ``folder``; not run yet.
    """
    script = folder / f"{game.name}.py"
    script.write_text(
        "from lib.games.core import get_game\n"
        "from lib.ui.game_page import run_game_page\n"
        f"run_game_page(get_game({game.name!r}), description='')\n"
    )
    return AppTest.from_file(str(script), default_timeout=60)


def open_panels(
    app: AppTest, key: str, *, tab: str | None = None, buttons: bool = False
) -> AppTest:
    """Open the tab ``tab`` and, with ``buttons``, the button board for the next run.

    As a visitor's click on the tab or the expander would (both are widgets that rerun
    the page); call ``.run()`` after it.
    """
    if tab is not None:
        app.session_state[f"{key}_w_tabs"] = tab
    if buttons:
        app.session_state[f"{key}_w_fallback"] = True
    return app


def session(app: AppTest, key: str) -> GameSession:
    """The page's game session (``run_game_page(..., key=key)``)."""
    return app.session_state[f"{key}_session"]


def record(app: AppTest) -> list[str]:
    """The moves of the game record, in the game's notation."""
    return app.code[0].value.split() if len(app.code) else []


def board(app: AppTest, key: str) -> tuple[object, dict]:
    """The game board's element (an ``UnknownElement`` under AppTest) and its drawing."""
    (element,) = [
        e for e in app.get("bidi_component") if re.search(rf"-{key}_board_live$", e.proto.id)
    ]
    return element, json.loads(element.proto.json)


def click_board(app: AppTest, key: str, target: list) -> AppTest:
    """Run ``app`` as the browser does after a click on the board's target ``target``
    (a click target's ``customdata``, e.g. ``[row, col]``): its trigger ``click``."""
    from streamlit.components.v2.bidi_component.main import _make_trigger_id

    element, _ = board(app, key)
    states = app._tree.get_widget_states()  # the other widgets as they are
    trigger = states.widgets.add()
    trigger.id = _make_trigger_id(element.proto.id, "events")
    trigger.json_trigger_value = json.dumps([{"event": "click", "value": target}])
    return app._run(states)
