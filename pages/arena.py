"""Arena: AI-vs-AI studies (the course's tables), a strength ladder, GA-evolved weights."""

from __future__ import annotations

import streamlit as st

from lib.ui import arena_first_look
from lib.ui import arena_ladder as ladder
from lib.ui import arena_page as page
from lib.ui.navigation import require_app_navigation
from lib.ui.presentation import settings_block

require_app_navigation()

st.title("Arena")
with settings_block("arena_intro"):  # the presentation view shows the results alone
    st.markdown(page.INTRO)

ctx = page.setup()  # caps, games and (in the sidebar) where to run
study_tab, ladder_tab, evolve_tab = st.tabs(
    ["Experiments", ladder.LADDER_TAB, "Evolve weights"], default=ladder.link_tab()
)

with study_tab:
    page.shared_replay_section(ctx)  # a replay link's game, played again from its seed
    # the results first, on a projector's first screen; the study's settings under them
    results_area = st.container()
    first_look = page.is_first_look()  # a first visit shows the default preset's study
    with settings_block("arena_study"):
        matches = page.choose_study(ctx)  # a preset, a grid or free choice
    with results_area:
        if first_look and matches is not None:  # its seeded games played once, for everyone
            run = arena_first_look.first_look_study(ctx, matches)
        else:
            run = page.run_study_section(ctx, matches)  # progress, Cancel / Resume
        page.show_study_results(ctx, run)  # table, charts, downloads, replays

with ladder_tab:
    st.markdown(ladder.LADDER_INTRO)
    ladder_config = ladder.choose_ladder(ctx)  # game, players, time per move
    ladder_run = ladder.run_ladder_section(ctx, ladder_config)  # progress, Cancel / Resume
    ladder.show_ladder_results(ctx, ladder_run)  # ranked chart, table, downloads

with evolve_tab:
    st.markdown(page.EVOLUTION_INTRO)
    config = page.choose_evolution(ctx)
    evo = page.run_evolution_section(ctx, config)  # progress, Cancel
    page.show_evolution_results(ctx, evo)  # charts, best weights, downloads, use them
