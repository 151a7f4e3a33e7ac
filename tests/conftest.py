"""Fixtures for every test."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from hypothesis import settings

from lib.games.core import GameSpec, get_game
from tests.games.plugin import every_game_name, plugin_on_path

# Speed is measured in bench/, not here: on a busy shared machine one example can outlast
# hypothesis's 200 ms default deadline, which would then fail a correct property.
settings.register_profile("lab", deadline=None)
settings.load_profile("lab")


@pytest.fixture(autouse=True)
def _study_journals_in_a_test_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Arena's study journals (``lib.games.arena.journal``) go to a folder of the test
    run, not the machine's temporary folder (a test may set its own)."""
    monkeypatch.setenv("AI_SEARCH_LAB_DATA_DIR", str(tmp_path_factory.getbasetemp() / "data"))


@pytest.fixture(autouse=True)
def _restore_main_module() -> Iterator[None]:
    """Put ``sys.modules["__main__"]`` back after each test.

    AppTest runs a page as ``__main__`` from a temporary file and leaves it
    there; a process pool started later in the same worker (forkserver or
    spawn) would then re-run that file in its children and fail. Restoring it
    keeps a test's outcome independent of which tests ran before it.
    """
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main


@pytest.fixture(autouse=True)
def _app_navigation_in_apptest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run AppTest scripts the way the server runs every session after its first run.

    With a ``pages/`` folder beside the entry script Streamlit starts a server in
    its old multipage mode until the entry script's ``st.navigation`` turns it
    off (``lib.ui.navigation.require_app_navigation``); AppTest re-enters that
    mode before every run, so a switch to another page would run the page file
    alone. Tests of the app's pages see the app's own navigation, as a browser
    does; the fresh-server case itself is tested in the browser
    (``tests/e2e/test_shell.py``).
    """
    from streamlit.runtime.pages_manager import PagesManager

    create = PagesManager.__init__

    def create_with_app_navigation(self, *args, **kwargs) -> None:
        create(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", create_with_app_navigation)


@pytest.fixture(params=every_game_name())
def game(request: pytest.FixtureRequest) -> Iterator[GameSpec]:
    """Each game in turn (its spec): every discovered game and the plugin's test game."""
    with plugin_on_path():
        yield get_game(request.param)
