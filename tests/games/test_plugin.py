"""A new game is one file (and its view): dropped into lib.games, everything else finds it.

The fixture puts ``tests/games/plugin/`` (Nim: ``nim.py`` and ``nim_view.py``) on the
package's search path, as if the two files had been added to ``lib/games/``; no shared
file is edited. Then discovery, navigation, the session, the game page, the Arena and
its command line, and weight evolution all work with it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import lib.games as games_package
from lib.games import core
from lib.games.search.players import PlayerConfig
from lib.games.session import GameSession, decide

PLUGIN = Path(__file__).parent / "plugin"


@pytest.fixture
def nim(monkeypatch):
    monkeypatch.setattr(games_package, "__path__", [*games_package.__path__, str(PLUGIN)])
    core._games.cache_clear()
    yield core.get_game("nim")
    core._games.cache_clear()


def test_the_new_game_is_discovered_with_its_card(nim):
    from lib.ui.navigation import all_pages

    assert "nim" in core.available_games()
    assert list(core.available_games())[-1] == "nim"  # order=99: the last game
    page = next(p for p in all_pages() if p.file == "nim.py")
    assert (page.title, page.group, page.teaches) == ("Nim", "Games", nim.teaches)


def test_the_new_game_plays_through_the_session_and_the_search(nim):
    session = GameSession.new(nim, {"counters": 11}, seed=0)
    decision = decide(
        session.state, PlayerConfig(depth=6), nim, np.random.default_rng(0), default_time=5.0
    )
    assert decision.move == 3  # leave 8, a multiple of four
    assert session.play(decision.move, decision, "AI", at_ply=0)


def test_the_shared_game_page_runs_the_new_game(nim, tmp_path):
    script = tmp_path / "nim.py"
    script.write_text(
        "from lib.games.core import get_game\n"
        "from lib.ui.game_page import run_game_page\n"
        'run_game_page(get_game("nim"), description="Take counters.")\n'
    )
    app = AppTest.from_file(str(script), default_timeout=60)
    app.session_state["nim_w_fallback"] = True  # the button board, drawn only when open
    app.run()
    assert not app.exception
    assert app.title[0].value == "Nim"
    assert app.selectbox(key="nim_w_opt_counters").value == 11
    app.button(key="nim_w_cell_0_8").click().run()  # take 3: leave 8
    session = app.session_state["nim_session"]
    assert session.moves[0] == 3
    assert not app.exception
