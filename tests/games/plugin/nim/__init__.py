"""Nim (one pile, take 1 to 3, whoever takes the last counter wins): a game in one file.

Used by ``tests/games/test_plugin.py`` to prove that a new game needs no change to
any shared file: the test puts this folder on ``lib.games``' search path.
"""

from __future__ import annotations

from dataclasses import dataclass

from lib.errors import InputError
from lib.games.core import ArenaPreset, GameSpec, Heuristic


@dataclass(frozen=True)
class NimState:
    """Counters left and the player to move."""

    counters: int = 11
    to_move: int = 0

    @property
    def key(self) -> tuple[int, int]:
        return (self.counters, self.to_move)

    def legal_moves(self) -> list[int]:
        return [take for take in (1, 2, 3) if take <= self.counters]

    def play(self, move: int) -> NimState:
        return NimState(self.counters - move, 1 - self.to_move)

    def is_terminal(self) -> bool:
        return self.counters == 0

    def winner(self) -> int | None:
        return 1 - self.to_move if self.counters == 0 else None

    def score(self, player: int) -> float:
        winner = self.winner()
        return 0.0 if winner is None else (1.0 if winner == player else -1.0)


def initial_state(counters: int = 11) -> NimState:
    return NimState(counters)


def format_move(move: int) -> str:
    return str(move)


def parse_move(text: str, state: NimState) -> int:
    if text.strip() not in {"1", "2", "3"} or int(text) not in state.legal_moves():
        raise InputError(f"Take 1 to {min(3, state.counters)} counters, not {text!r}.")
    return int(text)


def _multiple_of_four(state: NimState, player: int, weights: tuple[float, ...]) -> float:
    # the side to move loses when the pile is a multiple of four
    good_for_mover = 1.0 if state.counters % 4 else -1.0
    return weights[0] * (good_for_mover if state.to_move == player else -good_for_mover)


GAME = GameSpec(
    name="nim",
    title="Nim",
    initial_state=initial_state,
    format_move=format_move,
    parse_move=parse_move,
    heuristics={
        "fours": Heuristic("fours", "Leave a multiple of four.", _multiple_of_four, ("w",), (1.0,))
    },
    default_heuristic="fours",
    state_type=NimState,
    player_names=("First", "Second"),
    options={"counters": (7, 11)},
    option_labels={"counters": "Counters"},
    view="lib.games.nim.view",
    icon=":material/filter_3:",
    teaches="Take one to three counters; whoever takes the last one wins.",
    order=99,
    presets=(
        ArenaPreset(
            "nim_depth",
            "Nim: alpha-beta depth 6 vs random",
            "Perfect play from a pile that is not a multiple of four wins.",
            (("ab d6 vs random", "alphabeta:depth=6", "random"),),
            (("counters", 11),),
            games=4,
        ),
    ),
)
