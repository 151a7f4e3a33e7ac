"""The Arena's links: the preset form's numbers read from and written to the URL, with a
warning naming any value the page could not use as given."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from lib.games.arena import spec_depth
from lib.ui import arena as arena_ui

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "app_pages" / "arena.py")
CAPS = arena_ui.HOSTED_CAPS


def _open(**params: str) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=120)
    for name, value in params.items():
        app.query_params[name] = value
    app.run()
    assert not app.exception, app.exception
    return app


def _param(app: AppTest, name: str) -> str:
    value = app.query_params[name]
    return value[0] if isinstance(value, list) else value


def test_games_above_the_cap_are_clamped_and_said_so():
    app = _open(games="99999")
    warnings = [w.value for w in app.warning]
    assert warnings == [
        f"The link's games=99999 is outside this page's range 1–{CAPS.max_games_per_match}; "
        f"using {CAPS.max_games_per_match}."
    ]
    assert app.number_input(key="arena_w_preset_games").value == CAPS.max_games_per_match
    assert _param(app, "games") == str(CAPS.max_games_per_match)
    # a link naming a study waits for Run study
    assert "arena_study" not in app.session_state


def test_each_bad_number_is_named_with_the_value_used():
    app = _open(games="abc", seed="-3", depth="99")
    warnings = " ".join(w.value for w in app.warning)
    assert "games=abc is not a whole number; using 20." in warnings
    assert f"seed=\\-3 is outside this page's range 0–{2**31 - 1}; using 0." in warnings
    assert f"depth=99 is outside this page's range 1–{CAPS.max_depth}; using {CAPS.max_depth}." in (
        warnings
    )
    assert app.number_input(key="arena_w_preset_games").value == 20
    assert app.number_input(key="arena_w_preset_seed").value == 0
    assert app.slider(key="arena_w_preset_depth").value == CAPS.max_depth
    # the warnings are said once: the next run (any click) does not repeat them
    app.run()
    assert not app.warning


def test_a_good_link_fills_the_form_and_its_study_uses_it():
    app = _open(preset="sim_pruning", games="3", seed="9", depth="3")
    assert not app.warning
    assert app.selectbox(key="arena_w_preset").value == "sim_pruning"
    next(b for b in app.button if b.label == "Run study").click()
    app.run()
    assert not app.exception, app.exception
    run = app.session_state["arena_study"]
    assert run.status == "done"
    assert {m.games for m in run.matches} == {3} and {m.seed for m in run.matches} == {9}
    assert all(m.game == "sim" for m in run.matches)
    depths = [spec_depth(spec) or 0 for m in run.matches for spec in m.players]
    assert max(depths) == 3  # the preset's deeper players are left out


def test_a_first_visit_writes_the_form_numbers_into_the_url():
    app = _open()
    assert (_param(app, "games"), _param(app, "seed"), _param(app, "depth")) == ("20", "1", "5")
    app.number_input(key="arena_w_preset_games").set_value(7)
    next(b for b in app.button if b.label == "Run study").click()
    app.run()
    assert _param(app, "games") == "7"
    assert len(app.session_state["arena_study"].records) == 7
