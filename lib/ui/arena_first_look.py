"""The Arena's first look: the default preset's study, played once per server for everyone.

A first visit (:func:`lib.ui.arena_page.is_first_look`) shows its results without a
click; the server plays its seeded games ahead of that visit (:func:`warm_first_look`).
"""

from __future__ import annotations

import streamlit as st

from lib.games.arena import GameRecord, MatchConfig, open_executor, run_tournament
from lib.games.arena.limits import ArenaCaps, caps, leave_out_over_caps
from lib.games.core import available_games
from lib.ui.arena_controls import StudyRun
from lib.ui.arena_page import (
    ArenaContext,
    accept_study,
    first_preset,
    game_studies,
    preset_numbers,
)


# no spinner of its own: the server's warm-up calls it outside any page, where one warns
@st.cache_data(max_entries=4, show_spinner=False)
def first_look_records(matches: tuple[MatchConfig, ...]) -> list[GameRecord]:
    """The games of the first look's study: seeded, so the same for every visitor.

    Played once per server in this process (a few seconds; a first visit had each
    visitor play them again); each session gets its own copy (``st.cache_data``).
    """
    with open_executor("inline") as executor:
        return list(run_tournament(matches, executor).records)


def first_look_study(ctx: ArenaContext, matches: list[MatchConfig]) -> StudyRun | None:
    """The first look's study, kept in the session as if it had been run here."""
    run = accept_study(matches, ctx.limits)
    if run is not None:
        with st.spinner("Playing the first study's games…"):  # shown after 0.5 s, if ever
            run.records = first_look_records(run.matches)
        run.status = "done"
    return run


def first_look_matches(limits: ArenaCaps) -> tuple[MatchConfig, ...]:
    """The matches a first visit plays: the preset form's defaults on a server with
    ``limits`` (its first preset that fits them, players over them left out)."""
    studies = game_studies(available_games())
    preset = studies[first_preset(studies, limits)]
    numbers = {name: default for name, (default, _, _) in preset_numbers(limits).items()}
    chosen = preset.matches(numbers["games"], numbers["seed"], numbers["depth"])
    return tuple(leave_out_over_caps(chosen, limits)[0])


def warm_first_look() -> None:
    """Play the first look's games into the cache a first visit reads (this server's caps),
    ahead of any visit (:func:`lib.ui.server.shared_work_warmer`)."""
    first_look_records(first_look_matches(caps()))
