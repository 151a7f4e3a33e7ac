"""A test game folder, Nim with an extra turn, and the helper that drops it into ``lib.games``.

This folder holds ``nim/``, a game written as a new contributor's folder would be.
:func:`plugin_on_path` puts this folder on ``lib.games``' search path; the ``game``
fixture of ``tests/conftest.py`` runs generic tests on every discovered game and on
Nim, with no list of names and no special case.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import lib.games as games_package
from lib.games import core

PLUGIN = Path(__file__).parent


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
