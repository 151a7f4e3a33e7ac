"""The game page's sidebar: the game's options, both players and the display settings.

Widget values vanish when the visitor opens another page; the game and the player specs
are kept under the page's own keys (:class:`lib.ui.game_state.GamePageState`), so coming
back restores both, and a setting in the page's link wins. The players' own widgets are
:func:`lib.ui.game_controls.player_controls`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st

from lib.games.core import GameSpec
from lib.games.drawing.view import BOARD_PIXELS, BoardAdapter
from lib.games.search.players import PlayerConfig, available_kinds, parse_player_spec
from lib.games.session import GameSession
from lib.ui.common import current, user_errors
from lib.ui.game_controls import (
    init_widget,
    player_controls,
    query_config,
    query_option,
    url_spec,
)
from lib.ui.game_state import GamePageState

BOARD_PIXEL_RANGE = (300, 640)
"""Board sizes the sidebar offers (pixels)."""


@dataclass(frozen=True)
class PageSettings:
    """What the sidebar chose: the game's options, both players and the display."""

    options: dict[str, Any]
    configs: tuple[PlayerConfig, PlayerConfig]
    show_legal: bool
    flipped: bool
    pixels: int
    show_tree: bool
    exact_scores: bool

    @property
    def human_sides(self) -> set[int]:
        """The sides a person plays."""
        return {side for side in (0, 1) if self.configs[side].is_human}

    def acting_humans(self, session: GameSession) -> set[int]:
        """The sides moved by hand in ``session``: both in a replay (no AI plays on there)."""
        return {0, 1} if session.replay else self.human_sides


def settings_sidebar(adapter: BoardAdapter, page: GamePageState, notes: list[str]) -> PageSettings:
    """The sidebar: game options and both players (seeded from the URL on first use), display.

    Widget values vanish when the visitor opens another page; the game and the
    player specs are kept under non-widget keys, so coming back restores both
    (a setting in the URL wins). Problems with the link's settings go to ``notes``.
    """
    game = adapter.game
    with st.sidebar:
        st.subheader(f"{game.title} settings")
        options = _option_selects(game, page, notes)
        configs = _player_settings(adapter, page, notes)
        if len(configs) < 2:
            st.stop()
        st.markdown("**Display**")
        display = _display_settings(adapter, page)
    names = [name.lower() for name in game.player_names]
    _sync_query_params(
        {
            **{option: str(value) for option, value in options.items()},
            **{names[side]: url_spec(configs[side]) for side in (0, 1)},
        }
    )
    page.specs = tuple(url_spec(config) for config in configs)
    return PageSettings(options, (configs[0], configs[1]), *display)


def _option_selects(game: GameSpec, page: GamePageState, notes: list[str]) -> dict[str, Any]:
    """A select per game option, seeded once: the link's value, else the kept game's."""
    previous = page.session if page.has_session else None
    options: dict[str, Any] = {}
    for option, allowed in game.options.items():
        wkey = page.option_key(option)
        if wkey not in st.session_state:
            kept = previous.options.get(option) if previous is not None else None
            in_url = option in st.query_params
            value = kept if kept in allowed and not in_url else None
            init_widget(
                wkey,
                query_option(option, tuple(allowed), notes) if value is None else value,
            )
        options[option] = st.selectbox(
            game.option_labels.get(option, option.capitalize()),
            list(allowed),
            index=list(allowed).index(st.session_state[wkey]),
            key=wkey,
            format_func=functools.partial(_format_option, game.option_formats.get(option)),
        )
    return options


def _player_settings(
    adapter: BoardAdapter, page: GamePageState, notes: list[str]
) -> list[PlayerConfig]:
    """Both players' widgets, seeded from the link, else from the specs kept for the page.

    Fewer than two configs back: a player could not be read (the error is shown).
    """
    game = adapter.game
    names = [name.lower() for name in game.player_names]
    stored_specs = page.specs or adapter.default_players
    # the depth a side gets when a person hands it to an AI: the page's default AI's
    ai_depth = next(
        (c.depth for c in map(parse_player_spec, adapter.default_players) if not c.is_human),
        None,
    )
    configs: list[PlayerConfig] = []
    with user_errors():
        for side, name in enumerate(game.player_names):
            default, link_changes = query_config(
                names[side], stored_specs[side], notes, available_kinds(game)
            )
            st.markdown(f"**{name}**")
            configs.append(
                player_controls(
                    game,
                    page.player(side),
                    name,
                    default,
                    notes=notes,
                    ai_depth=ai_depth,
                    link_changes=link_changes,
                )
            )
    return configs


def _display_settings(
    adapter: BoardAdapter, page: GamePageState
) -> tuple[bool, bool, int, bool, bool]:
    """Legal-move marks, the board turned round, its size, the search tree, exact scores."""
    # each widget's default is its value (see lib.ui.common.current)
    show_legal = st.toggle(
        "Mark legal moves",
        value=current(page.SHOW_LEGAL, True),
        key=page.SHOW_LEGAL,
    )
    flipped = adapter.flippable and st.toggle(
        "Turn the board round", value=current(page.FLIP, False), key=page.FLIP
    )
    pixels = st.slider(
        "Board display size (pixels)",
        *BOARD_PIXEL_RANGE,
        value=current(page.BOARD_PIXELS, BOARD_PIXELS),
        step=20,
        key=page.BOARD_PIXELS,
        help=f"{BOARD_PIXELS} fits the whole board on a 1024×768 screen; "
        "larger suits a bigger screen.",
    )
    show_tree = st.toggle(
        f"Record the search tree (depth ≤ {adapter.game.tree_depth})",
        value=current(page.TREE, False),
        key=page.TREE,
    )
    exact_scores = st.toggle(
        "Exact score for every move (slower)",
        value=current(page.EXACT, False),
        key=page.EXACT,
        help="Otherwise alpha-beta only proves that the other moves are no better (≤ bounds).",
    )
    return show_legal, flipped, pixels, show_tree, exact_scores


def _format_option(names: Mapping[Any, str] | None, value: Any) -> str:
    """How an option select shows ``value`` (``names`` from the spec's option_formats)."""
    return names.get(value, str(value)) if names else str(value)


def _sync_query_params(values: Mapping[str, str]) -> None:
    """Write each of ``values`` into the page's link, where it differs."""
    for name, value in values.items():
        if st.query_params.get(name) != value:
            st.query_params[name] = value
