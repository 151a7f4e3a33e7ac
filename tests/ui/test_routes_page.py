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
