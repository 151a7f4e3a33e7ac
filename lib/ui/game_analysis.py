"""The analysis tabs under the board: the last search, the comparison of search variants,
the game record, how the AI thinks, and the two step-through panels.

Only the open tab is computed and sent (a first visit waited for all of them in the
browser); the settings of a closed one are kept for when it opens again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from lib.games.core import Move
from lib.games.drawing import search_charts as search_plots
from lib.games.drawing.view import BoardAdapter, BoardView
from lib.games.search import fast as search
from lib.games.search.mcts import MctsStats
from lib.games.search.players import SEARCH_KINDS, PlayerConfig
from lib.games.session import GameSession
from lib.ui.common import csv_download, escape_markdown, keep_widget_values
from lib.ui.game_sidebar import PageSettings
from lib.ui.game_state import CompareKeys, GamePageState
from lib.ui.mcts_step_panel import (
    drop_mcts_link,
    mcts_step_panel,
    mcts_step_widget_keys,
    read_mcts_link,
)
from lib.ui.search_panels import compare_panel, search_stats_panel
from lib.ui.step_panel import drop_step_link, read_step_link, step_panel, step_widget_keys

ANALYSIS_TABS = (
    "Last search",
    "Pruning",
    "Game record",
    "How it thinks",
    "Step through",
    "MCTS steps",
)
"""The tabs under the board, in order (a test opens one by setting ``<game>_w_tabs``)."""
STEP_TAB, MCTS_STEP_TAB = ANALYSIS_TABS[4], ANALYSIS_TABS[5]
"""The tabs a link may open (it holds a step-through's settings)."""


def open_linked_tab(
    adapter: BoardAdapter, page: GamePageState, configs: Sequence[PlayerConfig], notes: list[str]
) -> None:
    """Read a link's step-through settings (once, on arrival) and open the tab they are for.

    The step-through's position may be the board's: call it after the link's moves are
    played. Problems with the settings go to ``notes``.
    """
    if read_step_link(adapter, page.game, configs, notes):
        page.open_tab(STEP_TAB)
    if read_mcts_link(page.game, notes):
        page.open_tab(MCTS_STEP_TAB)


def analysis_tabs(
    adapter: BoardAdapter, page: GamePageState, session: GameSession, settings: PageSettings
) -> None:
    """The AI's last search, the comparison of variants, the game record, the heuristics."""
    tabs = st.tabs(list(ANALYSIS_TABS), key=page.TABS, on_change="rerun")
    if not tabs[1].open:
        keep_widget_values([CompareKeys(page.game).DEPTH])
    if not tabs[4].open:
        keep_widget_values(step_widget_keys(page.game))
        drop_step_link()
    if not tabs[5].open:
        keep_widget_values(mcts_step_widget_keys(page.game))
        drop_mcts_link()
    if tabs[0].open:
        with tabs[0]:
            _last_search_tab(adapter, page, session, settings)
    if tabs[1].open:
        with tabs[1]:
            compare_panel(adapter, page.game, session, _hint_player_for_compare(settings))
    if tabs[2].open:
        with tabs[2]:
            _record_tab(adapter, page, session)
    if tabs[3].open:
        with tabs[3]:
            _about_tab(adapter)
    if tabs[4].open:
        with tabs[4]:
            step_panel(adapter, page.game, settings.configs)
    if tabs[5].open:
        with tabs[5]:
            mcts_step_panel(adapter, page.game)


def _last_search_tab(
    adapter: BoardAdapter, page: GamePageState, session: GameSession, settings: PageSettings
) -> None:
    """The statistics of the last AI move: who played what, and the search's panel."""
    game = adapter.game
    last = session.last_decision()
    if last is None:
        st.caption("Nothing searched yet: the statistics of each AI move appear here.")
        return
    index, decision = last
    before = session.states[index]
    st.markdown(
        f"**{game.player_names[before.to_move]}** "
        f"({escape_markdown(session.players[index])}) played "
        f"**{game.format_move(session.moves[index])}** "
        f"at move {index + 1}."
    )
    search_stats_panel(
        decision.stats,
        game.format_move,
        chosen=decision.move,
        key=page.LAST_SEARCH,
        board=adapter.figure(
            before,
            BoardView(
                scores=decision.stats.root_scores,
                bounds=decision.stats.root_bounds,
                show_legal=False,
                title=search_plots.VISITS_TITLE
                if isinstance(decision.stats, MctsStats)
                else "Score of each move it considered",
                pixels=400,
                flipped=settings.flipped,
            ),
        ),
        verdicts=_proved_by_search(adapter, before, decision.stats),
    )


def _record_tab(adapter: BoardAdapter, page: GamePageState, session: GameSession) -> None:
    """The game's moves in one line, its table, and the table's CSV download."""
    game = adapter.game
    table = session.record_table(game)
    if session.moves:
        # wrapped: a whole game (60 Othello moves) is read without scrolling sideways
        st.code(
            " ".join(game.format_move(m) for m in session.moves),
            language=None,
            wrap_lines=True,
        )
        st.dataframe(table, hide_index=True, height=min(300, 40 + 35 * len(table)))
    else:
        st.caption("No move yet.")
    csv_download(
        table,
        f"{game.name}_game.csv",
        "Download game record (CSV)",
        key=page.RECORD_DOWNLOAD,
    )


def _about_tab(adapter: BoardAdapter) -> None:
    """How the AI thinks about this game, and each heuristic with its default weights."""
    st.markdown(adapter.about or "")
    for heuristic in adapter.game.heuristics.values():
        weights = ", ".join(
            f"{n}={w:g}"
            for n, w in zip(heuristic.weight_names, heuristic.default_weights, strict=True)
        )
        st.markdown(
            f"- **{heuristic.name}**: {heuristic.description}"
            + (f" Default weights: {weights}." if weights else "")
        )


def _proved_by_search(
    adapter: BoardAdapter, state: Any, stats: Any
) -> Mapping[Move, tuple[str, str]] | None:
    """Each move's proved value for the last search's panel, when the AI's own search was
    settled by the game's exact solver: then the moves are within the solver's reach too,
    while asking on every early position would hold up each AI move by the whole budget."""
    if adapter.move_insight is None or not isinstance(stats, search.SearchStats):
        return None
    return adapter.move_insight(state) if stats.exact_endgame else None


def _hint_player_for_compare(settings: PageSettings) -> PlayerConfig:
    """The search settings the comparison uses: the first AI's (defaults if none)."""
    return next((c for c in settings.configs if c.kind in SEARCH_KINDS), PlayerConfig())
