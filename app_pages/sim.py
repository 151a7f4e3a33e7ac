"""The Game of Sim: colour lines without closing a triangle of your colour; a perfect player."""

from __future__ import annotations

import streamlit as st

from lib.ui.game_page import run_game_page
from lib.ui.sim_view import ADAPTER

DESCRIPTION = (
    "Six points, fifteen lines. Players take turns colouring a free line (click the marker "
    "in its middle); **whoever completes a triangle of their own colour loses**. Pick who "
    "starts and who plays each colour in the sidebar: a person, an AI searching with the "
    "course's heuristics, or the *perfect* player that solves the game exactly."
)

st.title("The Game of Sim")
run_game_page(ADAPTER, key="sim", description=DESCRIPTION)
