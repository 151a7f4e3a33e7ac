"""Route search: algorithms on maps, step-by-step animation, all-pairs comparison."""

from __future__ import annotations

import streamlit as st

from lib.ui import routes_common
from lib.ui import routes_lab as lab
from lib.ui import routes_page as page
from lib.ui import routes_quiz as quiz
from lib.ui import routes_steps as steps
from lib.ui.navigation import require_app_navigation

require_app_navigation()

st.title("Route search")
st.markdown(
    "Click a start and a goal on the map (or choose them in the sidebar) to compare the routes "
    "the classic search algorithms find. Below: one search step by step, every pair of places, "
    "and the heuristic checked."
)

first_visit = page.load_link_settings()
source, generated, generated_key = page.choose_map()
# the map as this visitor edited it (walls, costs): its own key, so that searches follow
G, graph_key = lab.edited_map(generated, generated_key, first_visit)
question = page.choose_question(G, generated_key, first_visit)  # the ends stay across edits
# the map and its edits rerun on their own first (a fragment), then the whole page
results = lab.show_map(generated, generated_key, G, question)

st.header("Watch one search step by step")
steps.show_animation(G, graph_key, question, results)

# Below the fold, each computed only while open: a first visit waited for an all-pairs
# comparison, its charts and tables, and the heuristic check before seeing anything.
LAZY_SECTIONS = (
    (
        "Race the algorithms",
        "Race 2 to 4 algorithms on this map, one expansion per tick each",
        routes_common.RACE_OPEN_KEY,
        lab.show_race,
    ),
    (
        "You be the algorithm",
        "Pick the place the search expands next, step by step, and be scored",
        quiz.OPEN_KEY,
        quiz.show_quiz,
    ),
    (
        "Every pair of places",
        "Compare the algorithms on every pair: table, charts, the course's B* checked",
        page.COMPARISON_OPEN_KEY,
        page.show_comparison,
    ),
    (
        "Is the heuristic admissible?",
        "Check the heuristic against the shortest routes and the roads",
        page.CHECK_OPEN_KEY,
        page.show_heuristic_report,
    ),
)
for header, label, open_key, show in LAZY_SECTIONS:
    st.header(header)
    section = st.expander(label, key=open_key, on_change="rerun")
    if section.open:
        with section:
            show(G, graph_key, question)

page.share_link(source, question)
