"""The Portfolio page's local-search section under AppTest: three curves, distances to optimum."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from lib.ui import portfolio_local

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "portfolio.py")


def test_the_section_compares_the_three_at_one_budget_against_the_optimum():
    app = AppTest.from_file(PAGE, default_timeout=180)
    app.session_state[portfolio_local.OPEN_KEY] = True
    app.session_state["pf_w_local_generations"] = 30
    app.run()
    assert not app.exception and not app.error
    summary = next(
        frame.value for frame in app.dataframe if "distance to the optimum" in frame.value
    )
    assert list(summary["algorithm"]) == ["GA", "Hill climbing", "Simulated annealing"]
    assert (summary["evaluations"] <= 30 * 700).all()
    found = summary.dropna(subset=["best fitness"])
    assert len(found) >= 2  # at this small budget the GA and annealing reach feasibility
    assert (found["distance to the optimum"] >= -1e-9).all()
    assert any(
        c.proto.spec and "fitness evaluations" in c.proto.spec for c in app.get("plotly_chart")
    )
