"""The step section's one step control: the player's resting step becomes the page's."""

from __future__ import annotations

import pytest
import streamlit as st

from lib.ui import routes_common, routes_steps


@pytest.fixture
def state(monkeypatch) -> dict:
    """A plain dict as the session state the callback reads and writes."""
    session: dict = {}
    monkeypatch.setattr(st, "session_state", session)
    return session


def test_the_step_the_player_rests_on_becomes_the_page_s_step(state):
    state[routes_steps.PLAYER_KEY] = {"step": 7}
    routes_steps._follow_player(17)
    assert routes_common.get("step") == 7


@pytest.mark.parametrize("sent", [-1, 18, True, 2.0, "3", None, [1]])
def test_a_step_outside_the_trace_or_not_a_whole_number_is_ignored(state, sent):
    routes_common.put("step", 4)
    state[routes_steps.PLAYER_KEY] = {"step": sent}
    routes_steps._follow_player(17)
    assert routes_common.get("step") == 4
