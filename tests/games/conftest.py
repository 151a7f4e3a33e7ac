"""Every game, the test game of ``plugin/`` included: the fixture generic tests run on.

``tests/games/plugin/`` holds Nim with an extra turn, a game dropped into
``lib.games``' search path as a new contributor's folder would be. Generic tests
take the ``game`` fixture, so they run on every discovered game and on it, with
no list of names and no special case.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import lib.games as games_package
from lib.games import core

PLUGIN = Path(__file__).parent / "plugin"


@contextmanager
def plugin_on_path() -> Iterator[None]:
    """``lib.games`` with the plugin folder on its search path, discovery re-run."""
    original = list(games_package.__path__)
    games_package.__path__[:] = [*original, str(PLUGIN)]
    core._games.cache_clear()
    try:
        yield
    finally:
        games_package.__path__[:] = original
        core._games.cache_clear()


def every_game_name() -> list[str]:
    """The names of every discovered game and of the plugin's, in page order."""
    with plugin_on_path():
        return list(core.available_games())


@pytest.fixture(params=every_game_name())
def game(request: pytest.FixtureRequest) -> Iterator[core.GameSpec]:
    """Each game in turn (its spec), discovered with the plugin folder on the path."""
    with plugin_on_path():
        yield core.get_game(request.param)
