"""Step through Monte Carlo tree search in a real browser: Next names Selection, Expansion,
Roll-out and Back-up (one step per node on the way up) in turn, with the tree and the small
board drawn beside them."""

from __future__ import annotations

import re

import pytest

from lib.games.core import get_game
from lib.games.search.mcts_steps import PHASE_LABELS, traced_mcts
from tests.e2e.conftest import open_page, wait_idle, wait_rendered

TAB = "MCTS steps"


def _status(page, key: str) -> str:
    return page.locator(f'.st-key-{key}_mcts_status:not([data-stale="true"])').first.inner_text()


def _wait_step(page, key: str, step: int, phase: str) -> None:
    page.locator(f".st-key-{key}_mcts_status").get_by_text(
        re.compile(rf"^Step {step:,} of [\d,]+ · simulation \d+ of \d+ · {phase}$")
    ).first.wait_for(timeout=60_000)
    wait_idle(page)


@pytest.mark.parametrize("name", ["tictactoe", "connect_four"])
def test_an_mcts_step_through_advances_through_all_four_phases(page, name):
    open_page(page, name)
    page.get_by_role("tab", name=TAB).click()
    wait_rendered(page, f".st-key-{name}_mcts_status")
    # the page's defaults from the start position: 30 simulations, seed 0, the solver on
    trace = traced_mcts(get_game(name).initial_state())
    phases = [PHASE_LABELS[event.phase] for event in trace.events]
    assert phases[:5] == ["Selection", "Expansion", "Roll-out", "Back-up", "Back-up"]
    _wait_step(page, name, 1, "Selection")
    for step in range(2, 12):
        page.locator(f".st-key-{name}_mcts_step_w_next button").click()
        _wait_step(page, name, step, phases[step - 1])
        text = _status(page, name)
        if phases[step - 1] == "Roll-out":
            assert "Random moves from the node after " in text, text
        if phases[step - 1] == "Back-up":
            assert "counts one more visit" in text, text
    # the tree and the board at the step's node are drawn
    page.locator(f".st-key-{name}_mcts_tree .js-plotly-plot").first.wait_for(timeout=30_000)
    page.locator(f".st-key-{name}_mcts_board .js-plotly-plot").first.wait_for(timeout=30_000)
