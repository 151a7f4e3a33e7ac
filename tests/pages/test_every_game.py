"""Every discovered game has its page; the shared game page runs every game (the plugin's too)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lib.games import core
from tests.pages.game_app import shared_game_page

PAGES = Path(__file__).resolve().parents[2] / "pages"


@pytest.mark.parametrize("name", list(core.available_games()))
def test_every_discovered_game_has_a_page_calling_the_shared_game_page(name):
    source = (PAGES / f"{name}.py").read_text(encoding="utf-8")
    assert f'run_game_page(get_game("{name}")' in source, name


def test_the_shared_game_page_opens_every_game_with_its_options(game, tmp_path):
    app = shared_game_page(game, tmp_path).run()
    assert not app.exception
    assert app.title[0].value == game.title
    for option, values in game.options.items():
        assert app.selectbox(key=f"{game.name}_w_opt_{option}").value in values


SOLVED = [name for name, game in core.available_games().items() if game.exact_solver]
"""The games with an exact solver (one test each, so ``-k <game>`` selects it)."""


def test_some_game_has_an_exact_solver():
    assert SOLVED


@pytest.mark.parametrize("name", SOLVED)
def test_a_game_whose_ai_hands_positions_to_an_exact_solver_explains_it(name, tmp_path):
    # the last search can say "the game's exact solver chose the move": the game's own
    # explanation (the How it thinks tab) must have told the reader what that solver is
    from tests.pages.game_app import ABOUT_TAB, open_panels

    game = core.get_game(name)
    app = open_panels(shared_game_page(game, tmp_path), game.name, tab=ABOUT_TAB).run()
    assert not app.exception
    about = " ".join(m.value for m in app.markdown)
    assert "exact solver" in about, game.name
