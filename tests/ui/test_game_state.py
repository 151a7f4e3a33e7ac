"""The game page's session keys: all spelled by GamePageState, under the game's prefix, apart
from one another and from every other game's, and the values typed as the page uses them."""

from __future__ import annotations

import itertools

from streamlit.testing.v1 import AppTest

from lib.games.core import available_games
from lib.ui.game_state import GamePageState, PlayerKeys


def _keys(page: GamePageState) -> dict[str, str]:
    """Every key the class spells for ``page`` (name -> key), options and cells included."""
    keys = {
        name: getattr(page, name)
        for name in dir(GamePageState)
        if name.isupper() and isinstance(getattr(page, name), str)
    }
    keys["option size"] = page.option_key("size")
    for side in (0, 1):
        player = page.player(side)
        keys |= {
            f"player {side} {name}": getattr(player, name)
            for name in dir(PlayerKeys)
            if name.isupper()
        }
        keys[f"player {side} weight"] = player.weight("h", "w")
    keys["cell 0 0"] = page.cell_key(0, 0)
    return keys


def test_every_key_is_under_the_game_prefix_and_no_two_are_the_same():
    for game in available_games():
        keys = _keys(GamePageState(game))
        assert len(keys) > 20
        assert all(key.startswith(f"{game}_") for key in keys.values()), keys
        assert len(set(keys.values())) == len(keys), keys


def test_no_key_of_one_game_is_a_key_of_another():
    # a shared key would carry one page's game or widget onto another page
    pages = [set(_keys(GamePageState(game)).values()) for game in available_games()]
    for first, second in itertools.combinations(pages, 2):
        assert not first & second


def test_widget_keys_and_the_page_own_keys_stay_apart():
    # a widget key equal to one of the page's own keys silently overwrites it
    page = GamePageState("othello")
    own = {page.SESSION, page.SPECS, page.LINK_READ, page.NOTES, page.NOTICE}
    widgets = {key for name, key in _keys(page).items() if "_w_" in key or name == "BOARD"}
    assert own.isdisjoint(widgets)
    assert not any("_w_" in key for key in own)
    # and the two players' widgets are apart from each other and from the page's own keys
    first, second = page.player(0).prefix, page.player(1).prefix
    assert not first.startswith(second) and not second.startswith(first)
    assert not any(key.startswith((first, second)) for key in own)


def _script() -> None:
    import streamlit as st

    from lib.games.core import get_game
    from lib.games.session import GameSession
    from lib.ui.game_state import GamePageState

    page = GamePageState("tictactoe")
    if not page.has_session:
        page.session = GameSession.new(get_game("tictactoe"), {}, 7)
        page.leave_notice("from the Arena")
        page.specs = ("human", "alphabeta:depth=3")
    st.write(f"notice={page.take_notice()}")
    page.notes.append("a note")
    st.write(f"notes={len(page.notes)} specs={page.specs} seed={page.session.seed}")
    st.write(f"autoplay={page.autoplay} ply={page.shown_ply} read={page.link_read}")
    page.link_read = True
    page.stop_autoplay()


def test_values_are_kept_in_the_visitor_session_and_a_notice_is_read_once():
    app = AppTest.from_function(_script, default_timeout=30).run()
    assert not app.exception
    assert [m.value for m in app.markdown] == [
        "notice=from the Arena",
        "notes=1 specs=('human', 'alphabeta:depth=3') seed=7",
        "autoplay=False ply=None read=False",
    ]
    app.session_state["tictactoe_w_autoplay"] = True
    app.session_state["tictactoe_w_ply"] = 2
    app.run()
    assert [m.value for m in app.markdown] == [
        "notice=None",
        "notes=2 specs=('human', 'alphabeta:depth=3') seed=7",
        "autoplay=True ply=2 read=True",
    ]
    assert "tictactoe_w_autoplay" not in app.session_state  # stopped by the run
