"""The "MCTS steps" tab of the game pages (AppTest): Next walks through selection,
expansion, roll-out and back-up; the UCB1 table follows the formula; a forced win is proven
and backed up; the simulations, c and MCTS-Solver controls change the trace."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from lib.games import tictactoe
from lib.games.search.mcts_steps import PHASE_LABELS, traced_mcts, ucb1
from lib.ui.mcts_step_panel import MCTS_LINK_PARAMS
from tests.pages.game_app import (
    MCTS_STEP_TAB,
    RECORD_TAB,
    ROOT,
    open_game_page,
    open_panels,
    session,
    shared_game_page,
)

TAB = "MCTS steps"
FORCED_WIN = ("a1", "c1", "a2", "c3", "b3", "b1")


def status(app: AppTest) -> str:
    """The line naming the step, the simulation and the phase."""
    return next(m.value for m in app.markdown if m.value.startswith("**Step "))


def step_of(app: AppTest) -> tuple[int, int, str]:
    """(step, steps, phase) from the status line."""
    found = re.match(
        r"\*\*Step ([\d,]+) of ([\d,]+)\*\* · simulation \d+ of \d+ · \*\*(.+)\*\*", status(app)
    )
    return (
        int(found.group(1).replace(",", "")),
        int(found.group(2).replace(",", "")),
        found.group(3),
    )


def said(app: AppTest) -> str:
    """The sentence under the status line: what the step does."""
    texts = [m.value for m in app.markdown]
    return texts[texts.index(status(app)) + 1]


def play(app: AppTest, squares) -> AppTest:
    """The tic-tac-toe page after ``squares`` are played on its board."""
    game = session(app, "tictactoe")
    for square in squares:
        game.play(tictactoe.parse_move(square, game.state), None, "human", at_ply=game.ply)
    return app.run()


def traced(app: AppTest, name: str):
    """The trace the page steps through: its position and its settings, traced here."""
    return traced_mcts(
        session(app, name).state,
        simulations=app.number_input(key=f"{name}_mcts_w_simulations").value,
        exploration=app.number_input(key=f"{name}_mcts_w_exploration").value,
        seed=app.number_input(key=f"{name}_mcts_w_seed").value,
        solver=app.toggle(key=f"{name}_mcts_w_solver").value,
    )


def first_step(trace, simulation: int, phase: str) -> int:
    """The step number (from 1) of ``phase`` in ``simulation``."""
    return 1 + next(
        i for i, e in enumerate(trace.events) if e.simulation == simulation and e.phase == phase
    )


def test_every_game_page_has_the_tab_from_the_board_position(game, tmp_path):
    app = open_panels(shared_game_page(game, tmp_path), game.name, tab=MCTS_STEP_TAB).run()
    assert not app.exception
    assert TAB in [tab.label for tab in app.tabs]
    step, steps, phase = step_of(app)
    assert (step, steps, phase) == (1, traced(app, game.name).steps, "Selection")
    assert app.toggle(key=f"{game.name}_mcts_w_solver").value is True


@pytest.mark.parametrize("name", ["tictactoe", "connect_four"])
def test_next_walks_through_the_four_phases(name):
    app = open_game_page(name, tab=MCTS_STEP_TAB)
    assert not app.exception
    trace = traced(app, name)
    _, steps, _ = step_of(app)
    assert steps == trace.steps and trace.simulations == 30  # the default simulations
    seen = [step_of(app)[2]]
    for step in range(2, 12):
        app.button(key=f"{name}_mcts_step_w_next").click().run()
        assert not app.exception
        assert step_of(app)[0] == step
        seen.append(step_of(app)[2])
    assert seen == [PHASE_LABELS[e.phase] for e in trace.events[:11]]
    # from the root: selection, expansion, roll-out, and the back-up's two nodes
    assert seen[:6] == ["Selection", "Expansion", "Roll-out", "Back-up", "Back-up", "Selection"]
    # Prev, First and Last move along the same steps
    app.button(key=f"{name}_mcts_step_w_prev").click().run()
    assert step_of(app)[0] == 10 and step_of(app)[2] == PHASE_LABELS[trace.events[9].phase]
    app.button(key=f"{name}_mcts_step_w_last").click().run()
    assert step_of(app)[:2] == (steps, steps)
    app.button(key=f"{name}_mcts_step_w_first").click().run()
    assert step_of(app)[0] == 1


@pytest.mark.parametrize("name", ["tictactoe", "connect_four"])
def test_the_selection_table_shows_ucb1_by_the_formula(name):
    app = open_game_page(name, tab=MCTS_STEP_TAB)
    c = app.number_input(key=f"{name}_mcts_w_exploration").value
    # simulation 12 selects among the root's children (each tried once or more)
    step = first_step(traced(app, name), 12, "selection")
    app.slider(key=f"{name}_mcts_step_w_step").set_value(step).run()
    assert step_of(app)[2] == "Selection"
    table = app.dataframe[0].value
    parent_visits = 11
    for row in table.itertuples():
        assert float(row.UCB1) == pytest.approx(
            ucb1(row.Wins, row.Visits, parent_visits, c), abs=1e-3
        )
    chosen = table[table.Chosen == "◀"]
    assert len(chosen) == 1
    assert float(chosen.UCB1.iloc[0]) == max(float(v) for v in table.UCB1)
    assert "has the highest UCB1" in said(app)
    # a larger c raises every value
    app.number_input(key=f"{name}_mcts_w_exploration").set_value(3.0).run()
    step = first_step(traced(app, name), 12, "selection")
    app.slider(key=f"{name}_mcts_step_w_step").set_value(step).run()
    bigger = app.dataframe[0].value
    for row in bigger.itertuples():
        assert float(row.UCB1) == pytest.approx(
            ucb1(row.Wins, row.Visits, parent_visits, 3.0), abs=1e-3
        )


def test_the_backup_table_grows_one_node_a_step_up_to_the_root():
    app = open_game_page("connect_four", tab=MCTS_STEP_TAB)
    trace = traced(app, "connect_four")
    first = first_step(trace, 20, "backup")
    depth = len(trace.events[first - 1].path)
    for rows, step in enumerate(range(first, first + depth + 1), start=1):
        app.slider(key="connect_four_mcts_step_w_step").set_value(step).run()
        assert step_of(app)[2] == "Back-up"
        table = app.dataframe[0].value
        assert len(table) == rows  # the nodes updated so far, the bottom one first
        assert f"node {rows} of {depth + 1} on the way up" in said(app)
    assert list(table.Node)[-1] == "the root" and list(table.Visits)[-1] == 20
    visits = list(table.Visits)
    assert visits == sorted(visits)  # a parent was visited at least as often as its child


def test_a_forced_win_is_proven_and_the_proof_moves_up():
    app = open_game_page("tictactoe", tab=MCTS_STEP_TAB)
    app = play(app, FORCED_WIN)
    assert not app.exception
    app.button(key="tictactoe_mcts_step_w_last").click().run()
    step, steps, phase = step_of(app)
    trace = traced(app, "tictactoe")
    assert phase == "Back-up" and step == steps == trace.steps
    assert trace.simulations < 30  # stopped once the root was proven
    assert (
        "The proof moves up: the node after a3 proven (X wins), then the root proven (X wins)"
        in said(app).replace("\\", "")
    )
    table = app.dataframe[0].value
    assert list(table.Proven) == ["X wins", "X wins (now)"]
    assert any("plays a3" in c.value and "X wins" in c.value for c in app.caption)
    # off: the textbook UCT runs every simulation and proves nothing
    app.toggle(key="tictactoe_mcts_w_solver").set_value(False).run()
    app.button(key="tictactoe_mcts_step_w_last").click().run()
    step, steps, _ = step_of(app)
    assert steps == traced(app, "tictactoe").steps
    assert "simulation 30 of 30" in status(app)
    assert "proof" not in said(app) and set(app.dataframe[0].value.Proven) == {""}


def test_the_simulation_count_sets_the_steps_and_a_finished_game_is_explained():
    app = open_game_page("tictactoe", tab=MCTS_STEP_TAB)
    app.number_input(key="tictactoe_mcts_w_simulations").set_value(7).run()
    # from the empty board each of the 7 simulations adds a child of the root: 5 steps each
    assert step_of(app)[1] == 7 * 5 == traced(app, "tictactoe").steps
    app.number_input(key="tictactoe_mcts_w_simulations").set_value(300).run()
    assert step_of(app)[1] == traced(app, "tictactoe").steps > 300 * 5
    app = play(app, ("a1", "a2", "b1", "b2", "c1"))  # X wins along the top row
    assert not app.exception
    assert any("game is over" in i.value for i in app.info)


def test_play_and_pause():
    app = open_game_page("tictactoe", tab=MCTS_STEP_TAB)
    app.button(key="tictactoe_mcts_step_w_play").click().run()
    assert app.session_state["tictactoe_mcts_step_playing"] is True
    assert app.button(key="tictactoe_mcts_step_w_play").label == "Pause"
    app.button(key="tictactoe_mcts_step_w_play").click().run()
    assert app.session_state["tictactoe_mcts_step_playing"] is False


def test_the_settings_and_the_step_are_kept_while_another_tab_is_open():
    app = open_game_page("tictactoe", tab=MCTS_STEP_TAB)
    app.number_input(key="tictactoe_mcts_w_simulations").set_value(9).run()
    app.toggle(key="tictactoe_mcts_w_solver").set_value(False).run()
    app.slider(key="tictactoe_mcts_step_w_step").set_value(7).run()
    open_panels(app, "tictactoe", tab=RECORD_TAB).run()
    app.run()
    open_panels(app, "tictactoe", tab=MCTS_STEP_TAB).run()
    assert not app.exception and not app.warning
    assert app.number_input(key="tictactoe_mcts_w_simulations").value == 9
    assert app.toggle(key="tictactoe_mcts_w_solver").value is False
    assert step_of(app) == (7, 9 * 5, "Expansion")  # 5 steps a simulation from the root


def linked_page(**params: str) -> AppTest:
    """The tic-tac-toe page opened from a link with ``params`` (no tab chosen: the link opens
    the MCTS tab when it names any of its settings)."""
    app = AppTest.from_file(str(ROOT / "pages" / "tictactoe.py"), default_timeout=60)
    for name, value in params.items():
        app.query_params[name] = value
    return app.run()


def test_the_settings_and_the_step_are_written_to_the_link():
    app = open_game_page("tictactoe", tab=MCTS_STEP_TAB)
    app.number_input(key="tictactoe_mcts_w_simulations").set_value(12).run()
    app.number_input(key="tictactoe_mcts_w_exploration").set_value(0.7).run()
    app.number_input(key="tictactoe_mcts_w_seed").set_value(5).run()
    app.toggle(key="tictactoe_mcts_w_solver").set_value(False).run()
    app.slider(key="tictactoe_mcts_step_w_step").set_value(8).run()
    params = {name: app.query_params[name] for name in MCTS_LINK_PARAMS}
    assert params == {
        "mcts_sims": "12",
        "mcts_c": "0.7",
        "mcts_seed": "5",
        "mcts_solver": "false",
        "mcts_step": "8",
    }
    # another tab: the page drops them (as the linked page below does)
    linked = open_panels(linked_page(), "tictactoe", tab=MCTS_STEP_TAB).run()
    assert all(name in linked.query_params for name in MCTS_LINK_PARAMS)
    open_panels(linked, "tictactoe", tab=RECORD_TAB).run()
    assert not any(name in linked.query_params for name in MCTS_LINK_PARAMS)


def test_a_link_restores_the_settings_and_the_step():
    app = linked_page(
        mcts_sims="12", mcts_c="0.7", mcts_seed="5", mcts_solver="false", mcts_step="8"
    )
    assert not app.exception and not app.warning
    assert app.number_input(key="tictactoe_mcts_w_simulations").value == 12
    assert app.number_input(key="tictactoe_mcts_w_exploration").value == pytest.approx(0.7)
    assert app.number_input(key="tictactoe_mcts_w_seed").value == 5
    assert app.toggle(key="tictactoe_mcts_w_solver").value is False
    trace = traced(app, "tictactoe")
    assert step_of(app) == (8, trace.steps, PHASE_LABELS[trace.events[7].phase])
    assert trace.simulations == 12 and trace.seed == 5 and not trace.solver


def test_bad_link_values_are_named_in_the_warning_and_a_step_past_the_end_shows_the_last():
    app = linked_page(
        mcts_sims="lots",
        mcts_c="9",
        mcts_seed="-1",
        mcts_solver="perhaps",
        mcts_step="999",
    )
    assert not app.exception
    warnings = " ".join(w.value for w in app.warning)
    for name, value in (("mcts_sims", "lots"), ("mcts_c", "9"), ("mcts_seed", "-1")):
        assert name in warnings and value in warnings, (name, warnings)
    assert "mcts_solver" in warnings and "perhaps" in warnings
    assert "mcts_step=999" in warnings  # past the last step: the last is shown
    assert app.number_input(key="tictactoe_mcts_w_simulations").value == 30  # the default
    assert app.number_input(key="tictactoe_mcts_w_exploration").value <= 5.0
    _, steps, _ = step_of(app)
    assert step_of(app)[0] == steps


@settings(max_examples=15, deadline=None)
@given(st.dictionaries(st.sampled_from(MCTS_LINK_PARAMS), st.text(max_size=12), min_size=1))
def test_any_link_text_gives_settings_in_range_and_notes_not_errors(params):
    from lib.links import read_link
    from lib.ui.mcts_step_panel import MCTS_LINK_SCHEMA

    values, notes = read_link(MCTS_LINK_SCHEMA, params)
    for field in MCTS_LINK_SCHEMA:
        value = values[field.name]
        if field.low is not None:
            assert value >= field.low
        if field.high is not None:
            assert value <= field.high
    assert all(isinstance(note, str) for note in notes)


def test_too_few_simulations_are_said_under_the_choice():
    """X must block at a3; 10 simulations without the solver play b3 (3 visits, like a3):
    the caption under the choice says the count is too few to mean much; 300 do not."""
    app = play(open_game_page("tictactoe", tab=MCTS_STEP_TAB), ("a1", "b2", "c3", "c1"))
    app.toggle(key="tictactoe_mcts_w_solver").set_value(False).run()
    app.number_input(key="tictactoe_mcts_w_seed").set_value(2).run()
    app.number_input(key="tictactoe_mcts_w_simulations").set_value(10).run()
    assert not app.exception
    captions = [c.value.replace("\\", "") for c in app.caption]
    assert any("the search plays b3 (most visited)" in c for c in captions)
    (note,) = [c for c in captions if "Too few simulations" in c]
    assert "b3 has 3 visits, a3 3" in note
    app.number_input(key="tictactoe_mcts_w_simulations").set_value(300).run()
    captions = [c.value.replace("\\", "") for c in app.caption]
    assert any("the search plays a3 (most visited)" in c for c in captions)
    assert not [c for c in captions if "Too few simulations" in c]
