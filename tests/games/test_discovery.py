"""Game discovery reads the package's modules and imports only those that declare a game."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import lib.games as games_package
from lib.games import core
from lib.games.core import GameSpec


def test_discovery_finds_the_same_games_as_importing_every_module():
    declared = {}
    for module_info in pkgutil.iter_modules(games_package.__path__):
        if not module_info.ispkg or module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"lib.games.{module_info.name}")
        if isinstance(getattr(module, "GAME", None), GameSpec):
            declared[module.GAME.name] = module.GAME
    core._games.cache_clear()
    try:
        assert core.available_games() == dict(
            sorted(declared.items(), key=lambda kv: (kv[1].order, kv[1].title))
        )
    finally:
        core._games.cache_clear()


def test_opening_the_app_imports_neither_the_arena_nor_scipy_stats():
    # every page's run imports the navigation (the list of pages, with the games' cards):
    # the Arena's modules, SciPy's statistics and the weight-evolving GA are left to the pages
    # that use them
    code = (
        "import sys, lib.ui.navigation\n"
        "heavy = [m for m in ('lib.games.arena', 'lib.games.arena.evolve', 'scipy.stats') "
        "if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout.strip() == ""
