"""Route search: algorithms on maps, step-by-step animation, all-pairs comparison."""

from __future__ import annotations

import streamlit as st

from lib.ui import routes_page as page
from lib.ui import routes_steps as steps
from lib.ui.navigation import require_app_navigation

require_app_navigation()

st.title("Route search")
st.markdown(
    "Pick a start and a goal (click two places on the map, or use the selects) and "
    "compare how the classic search algorithms find a route: the route each one returns, "
    "its length and how many places it had to expand. Below, watch one search step by "
    "step, compare the algorithms on every pair of places, and check the heuristic."
)

first_visit = page.load_link_settings()
source, G, graph_key = page.choose_map()
question = page.choose_question(G, graph_key, first_visit)
results = page.show_routes(G, question)

st.header("Watch one search step by step")
steps.show_animation(G, graph_key, question, results)

st.header("Every pair of places")
page.show_comparison(G, graph_key, question)

st.header("Is the heuristic admissible?")
page.show_heuristic_report(G, graph_key, question)

page.share_link(source, question)
