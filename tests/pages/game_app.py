"""Helpers for AppTest tests of the game pages (checkers, Sim; any page built on run_game_page)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from lib.games.session import GameSession

ROOT = Path(__file__).resolve().parents[2]


def open_game_page(name: str, **params: str) -> AppTest:
    """Run ``pages/<name>.py`` with the given URL query parameters."""
    app = AppTest.from_file(str(ROOT / "pages" / f"{name}.py"), default_timeout=60)
    for key, value in params.items():
        app.query_params[key] = value
    return app.run()


def session(app: AppTest, key: str) -> GameSession:
    """The page's game session (``run_game_page(..., key=key)``)."""
    return app.session_state[f"{key}_session"]


def record(app: AppTest) -> list[str]:
    """The moves of the game record, in the game's notation."""
    return app.code[0].value.split() if len(app.code) else []
