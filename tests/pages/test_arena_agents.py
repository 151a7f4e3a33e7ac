"""The Arena page and agent files: no field and a refusal when hosted; on a local install an
agent plays a study and a ladder, and a crashing one loses with its reason in the table."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from lib.games.arena import limits as arena_limits
from lib.games.search.players import AGENT_LOCAL_ONLY
from lib.settings import LOCAL
from lib.ui import arena_controls as arena_ui
from lib.ui import arena_first_look, arena_page
from lib.ui.arena_ladder import LADDER_KEY
from lib.ui.common import escape_markdown

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "arena.py")
GREEDY = str(ROOT / "examples" / "greedy_agent.py")


def _app() -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=180)
    app.run()
    assert not app.exception, app.exception
    return app


def _click(app: AppTest, label: str) -> None:
    next(b for b in app.button if b.label == label).click()
    app.run()
    assert not app.exception, app.exception


def _free_choice(app: AppTest, players: str, agent: str | None = None) -> None:
    app.radio(key="arena_w_source").set_value("Free choice")
    app.run()
    app.text_area(key="arena_w_players").set_value(players)
    if agent is not None:
        app.text_input(key="arena_w_agent").set_value(agent)
    app.number_input(key="arena_w_free_games").set_value(2)


def _agent_fields(app: AppTest) -> list[str]:
    return [t.key for t in app.text_input if "agent" in (t.key or "")]


def test_a_hosted_page_offers_no_agent_and_refuses_a_typed_one(monkeypatch):
    monkeypatch.delenv(LOCAL, raising=False)
    app = _app()
    _free_choice(app, f"agent:path={GREEDY}")
    assert _agent_fields(app) == []  # neither the free choice's nor the ladder's field
    _click(app, "Run study")
    assert app.error[0].value == escape_markdown(AGENT_LOCAL_ONLY)
    assert all("agent" not in " ".join(m.players) for m in app.session_state["arena_study"].matches)


def test_a_local_page_plays_agents_and_shows_why_one_lost(monkeypatch, tmp_path):
    monkeypatch.setenv(LOCAL, "1")
    arena_first_look.first_look_records.clear()
    crash = tmp_path / "crash.py"
    crash.write_text("def choose_move(state, seconds_left):\n    return state.nope\n")
    app = _app()
    app.radio(key="arena_w_executor").set_value("inline")
    _free_choice(app, f"agent:path={crash}", agent=GREEDY)
    assert set(_agent_fields(app)) >= {"arena_w_agent", "arena_w_ladder_agent_tictactoe"}
    app.selectbox(key="arena_w_game").set_value("tictactoe")
    _click(app, "Run study")
    run = app.session_state["arena_study"]
    assert [m.players for m in run.matches] == [
        (f"agent:path={crash}", "random"),
        (f"agent:path={GREEDY}", "random"),
    ]
    assert run.status == "done" and len(run.records) == 4
    (warning,) = [w.value for w in app.warning if "forfeit" in w.value]
    assert warning.startswith("2 of 4 games lost by forfeit")
    app.session_state[arena_page.GAMES_OPEN_KEY] = True
    app.run()
    (games,) = [f.value for f in app.dataframe if "forfeit" in f.value.columns]
    reasons = list(games.sort_values(["match", "game"])["forfeit"])
    expected = "A: crash: AttributeError: 'TicTacToeState' object has no attribute 'nope' (line 2)"
    assert reasons == [expected, expected, "", ""]
    # a replay hands the game page a person where the agent sat: agents play only here
    record = run.records[-1]
    handed = arena_ui.replay_state(record, run.matches[record.match])["tictactoe_specs"]
    assert handed == (("human", "random") if record.a_first else ("random", "human"))
    arena_first_look.first_look_records.clear()


def test_a_local_ladder_takes_an_agent_at_its_time_per_move(monkeypatch):
    monkeypatch.setenv(LOCAL, "1")
    arena_first_look.first_look_records.clear()
    app = _app()
    app.radio(key="arena_w_executor").set_value("inline")
    app.selectbox(key="arena_w_ladder_game").set_value("tictactoe")
    app.run()
    app.multiselect(key="arena_w_ladder_players_tictactoe").set_value(["Random"])
    app.text_input(key="arena_w_ladder_agent_tictactoe").set_value(GREEDY)
    app.number_input(key="arena_w_ladder_time").set_value(0.3)
    _click(app, "Run ladder")
    run = app.session_state[LADDER_KEY]
    assert run.config.players == ("random", f"agent:path={GREEDY},time=0.3")
    assert run.status == "done" and all(r.forfeit == "" for r in run.records)
    assert arena_limits.caps() is arena_limits.LOCAL_CAPS
    arena_first_look.first_look_records.clear()
