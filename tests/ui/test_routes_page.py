"""The route page's sections on their own (the whole page runs in tests/pages/test_routes.py)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _report_script(heuristic_name: str) -> None:
    """Run the heuristic-report section on Romania for ``heuristic_name``."""
    from lib.routes import compare, graphs
    from lib.ui import routes_page

    G = graphs.romania()
    scale = graphs.admissible_scale(G) if heuristic_name == graphs.SCALED else None
    heuristic = graphs.make_heuristic(G, heuristic_name, scale=scale)
    roads = compare.road_checks(G, heuristic)
    question = routes_page.Question(
        "Sibiu",
        "Mehadia",
        ["A*"],
        heuristic_name,
        heuristic,
        1.5,
        graphs.heuristic_choices(G),
        roads,
        roads[roads["excess"] > compare.TOLERANCE * roads["road"]],
    )
    routes_page.show_heuristic_report(G, "romania", question)


def _markdown(app: AppTest) -> str:
    return "\n".join(m.value for m in app.markdown)


def test_heuristic_report_course_straight_line_is_not_admissible():
    from lib.routes import graphs

    app = AppTest.from_function(_report_script, args=(graphs.STRAIGHT,)).run(timeout=60)
    assert not app.exception
    text = _markdown(app)
    assert "**NOT admissible**, **NOT consistent**" in text
    assert "longer than the road on 3 road(s)" in text
    assert {b.key for b in app.get("download_button")} >= {"rt_w_dl_adm", "rt_w_dl_con"}


def test_heuristic_report_scaled_straight_line_is_admissible_and_consistent():
    from lib.routes import graphs

    app = AppTest.from_function(_report_script, args=(graphs.SCALED,)).run(timeout=60)
    assert not app.exception
    text = _markdown(app)
    assert "**admissible**, **consistent**" in text
    assert "never overestimates" in text
    assert "rt_w_dl_adm" not in {b.key for b in app.get("download_button")}


def _routes_script() -> None:
    """The route map of A* on a 5x6 grid, for the start and ``w`` kept in session state."""
    import streamlit as st

    from lib.routes import graphs
    from lib.ui import routes_common, routes_page

    G = graphs.grid(5, 6, obstacles=0.0, seed=0, corridor=True)
    start = graphs.find_node(G, st.session_state.get("test_start", "4,0"))
    heuristic = graphs.make_heuristic(G, graphs.MANHATTAN)
    question = routes_page.Question(
        start, (4, 5), ["A*"], graphs.MANHATTAN, heuristic,
        st.session_state.get("test_w", 1.5), graphs.heuristic_choices(G), None, None,
    )  # fmt: skip
    routes_common.put("start", graphs.node_label(start))
    results = routes_page.show_routes(G, question, graph_key="grid")
    st.text(f"cost {results['A*'].cost:g}")


def _kept_search(app: AppTest) -> object:
    from lib.ui import routes_page

    return app.session_state[routes_page.ROUTES_KEY][1]["A*"]


def test_the_route_map_searches_again_only_when_the_question_changes():
    app = AppTest.from_function(_routes_script, default_timeout=30).run()
    assert not app.exception and app.text[0].value == "cost 5"
    first = _kept_search(app)
    app.run()  # the same question: the searches of the run before are drawn again
    assert _kept_search(app) is first and app.text[0].value == "cost 5"
    app.session_state["test_start"] = "0,0"
    app.run()
    assert _kept_search(app) is not first and app.text[0].value == "cost 9"
    moved = _kept_search(app)
    app.session_state["test_w"] = 2.0  # any part of the question counts
    app.run()
    assert _kept_search(app) is not moved


def _on_map_script() -> None:
    """``on_map`` of a question on a 3x3 grid walled in the middle, on that grid and opened."""
    import numpy as np
    import streamlit as st

    from lib.routes import graphs, search
    from lib.ui import routes_common, routes_page

    terrain = np.ones((3, 3), dtype=np.uint8)
    terrain[1, 1] = 0
    G = graphs.grid_from_terrain(terrain)
    heuristic = graphs.make_heuristic(G, graphs.MANHATTAN)
    q = routes_page.Question(
        (0, 0), (2, 2), ["A*"], graphs.MANHATTAN, heuristic, 1.0,
        graphs.heuristic_choices(G), None, None,
    )  # fmt: skip
    routes_common.put("start", st.session_state.get("test_start", "0,0"))
    routes_common.put("goal", "2,2")
    same = routes_page.on_map(q, G, same_map=True)
    st.text(f"same {same is not None and same.heuristic is heuristic} {same and same.start}")
    opened = graphs.grid_from_terrain(np.ones((3, 3), dtype=np.uint8))
    asked = routes_page.on_map(q, opened, same_map=False)
    if asked is None:
        st.text("none")
        return
    # the middle cell is a place of the opened grid only: the new heuristic knows it
    h = asked.heuristic((1, 1), asked.goal)
    cost = search.run("A*", opened, asked.start, asked.goal, asked.heuristic).cost
    st.text(f"opened {asked.start} {h:g} {cost:g} {asked.heuristic is heuristic}")


def test_on_map_reads_the_ends_chosen_now_and_makes_the_heuristic_for_another_map():
    app = AppTest.from_function(_on_map_script, default_timeout=30).run()
    assert not app.exception
    assert app.text[0].value == "same True (0, 0)"
    assert app.text[1].value == "opened (0, 0) 2 4 False"
    app.session_state["test_start"] = "1,1"  # a drag onto the cell that is a wall on G
    app.run()
    assert app.text[0].value == "same False None"  # not on G: None
    assert app.text[1].value == "opened (1, 1) 2 2 False"
