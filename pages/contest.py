"""Class contest: students' evaluation functions play each other; polls; the projector's board."""

from __future__ import annotations

import streamlit as st

from lib.contest.contests import get_contest
from lib.errors import InputError
from lib.ui import contest_board as board
from lib.ui import contest_common as common
from lib.ui import contest_instructor as instructor
from lib.ui import contest_student as student
from lib.ui.common import user_errors
from lib.ui.navigation import require_app_navigation

require_app_navigation()

st.title("Class contest")
st.markdown(
    "Students join with the join code, enter an evaluation formula (or heuristic weights) "
    "with an algorithm, and the entries play each other on this server; the projector shows "
    "the leaderboard and the class's poll answers as they come in."
)
view = st.segmented_control("View", common.VIEWS, default=common.linked_view(), key="ct_w_view")
view = view or "Student"
if view != "Student":
    st.query_params["view"] = view.lower()
elif "view" in st.query_params:
    del st.query_params["view"]

with user_errors():
    store = common.contest_store()
    common.start_player()
    if view == "Instructor":
        instructor.show_instructor(store)
    elif view == "Projector":
        code = student.code_from_link() or st.text_input("Join code", key="ct_w_board_code")
        try:
            contest = get_contest(store, code) if code else None
        except InputError as error:
            st.error(str(error))
            contest = None
        if contest is not None:
            st.header(f"{contest.code} · join at this page with the code")
            board.show_leaderboard(store, contest)
            board.show_live_poll(store, contest)
    else:
        contest = student.show_join(store)
        if contest is not None:
            student.show_poll_answer(store, contest)
            student.show_entry(store, contest)
            st.subheader("Leaderboard")
            board.show_leaderboard(store, contest, live=False)
