"""Connect Four: play against minimax / alpha-beta and see what the AI searched."""

from __future__ import annotations

import streamlit as st

from lib.ui.connect_four_view import ADAPTER
from lib.ui.game_page import run_game_page

DESCRIPTION = (
    "Click anywhere in a column to drop a disc there (dots mark where the next disc of each "
    "column lands). Choose who plays Red and Yellow in the sidebar: a person, or an AI with "
    "its own algorithm, depth, heuristic and weights. After each AI move you see how many "
    "positions it searched, what it pruned and the score of every column."
)

st.title("Connect Four")
run_game_page(ADAPTER, key="connect_four", description=DESCRIPTION)
