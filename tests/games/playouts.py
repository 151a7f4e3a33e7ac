"""Seeded random games on every option value of a game, for the tests that sample positions."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import numpy as np

from lib.games import core


def seeded_playouts(
    spec: core.GameSpec, rng: np.random.Generator, max_plies: int
) -> Iterator[list[Any]]:
    """Endless random games (each a list of states, at most ``max_plies + 1`` long), cycling
    through the start without options and then each option value (a game whose start takes a
    ``seed``, e.g. Sim's coin toss for who moves first, gets one from ``rng``)."""
    option_sets = [{}] + [{name: v} for name, values in spec.options.items() for v in values]
    takes_seed = "seed" in inspect.signature(spec.initial_state).parameters
    index = 0
    while True:
        options = dict(option_sets[index % len(option_sets)])
        if takes_seed:
            options["seed"] = int(rng.integers(1000))
        state = spec.initial_state(**options)
        states = [state]
        while not state.is_terminal() and len(states) <= max_plies:
            moves = state.legal_moves()
            state = state.play(moves[int(rng.integers(len(moves)))])
            states.append(state)
        yield states
        index += 1
