"""Sliding-tile puzzles: the 8- and 15-puzzle by the textbook searches, AIMA's table, Korf's 100."""

from __future__ import annotations

import streamlit as st

from lib.ui import puzzles_page as page
from lib.ui import puzzles_sections as sections
from lib.ui import puzzles_steps as steps
from lib.ui.navigation import require_app_navigation

require_app_navigation()

st.title("Sliding-tile puzzles")
st.markdown(
    "Set a start board (click a tile beside the blank, type one, or shuffle) and watch a search "
    "solve it. Below: every algorithm on this board, AIMA's table of search costs reproduced, "
    "and Korf's 100 hard 15-puzzles solved optimally."
)

page.load_link_settings()
board = page.choose_board()
left, right = st.columns([5, 6])
with left:
    page.show_start_board(board)
with right:
    page.show_run(board)

SECTIONS = (
    ("Compare the algorithms", "Every algorithm and heuristic on this board", "pz_open_compare",
     lambda: sections.show_comparison(board)),
    ("Step through the search", "The code, the frontier and the search tree, step by step",
     "pz_open_steps", lambda: steps.show_steps(board)),
    ("You be the algorithm", "Pick the board the search expands next, and be scored",
     "pz_open_quiz", lambda: steps.show_quiz(board)),
    ("The code", "The textbook code of the chosen algorithm", "pz_open_code",
     lambda: sections.show_code(st.session_state.get("pz_w_algo", "astar"))),
    ("AIMA's table, reproduced", "Search cost and effective branching factor (Figure 3.29)",
     "pz_open_aima", sections.show_aima_table),
    ("Korf's 100 15-puzzles", "Solve any of them optimally with IDA* and a pattern database",
     "pz_open_korf", sections.show_korf),
)  # fmt: skip
for header, label, open_key, show in SECTIONS:
    st.header(header)
    section = st.expander(label, key=open_key, on_change="rerun")
    if section.open:
        with section:
            show()

page.share_link()
