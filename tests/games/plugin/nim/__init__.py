"""Nim with an extra turn: one pile, take 1 to 3, taking exactly 2 moves again, last counter wins.

A test game dropped in as a folder: ``tests/games/test_plugin.py`` and the generic
tests put ``tests/games/plugin/`` on ``lib.games``' search path, proving that a new
game needs no change to any shared file. Its extra turn (a side moves twice in a
row, as in Kalah) proves that nothing assumes the players alternate.

>>> state = initial_state(5).play(2)  # an extra turn: the same player moves again
>>> (state.counters, state.to_move)
(3, 0)
>>> state.play(3).winner()
0
"""

from __future__ import annotations

from dataclasses import dataclass

from lib.errors import InputError
from lib.games.core import ArenaPreset, GameSpec, Heuristic

EXTRA_TURN_TAKE = 2
"""Taking exactly this many counters (and leaving some) gives the same player another move."""


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
        left = self.counters - move
        extra_turn = move == EXTRA_TURN_TAKE and left > 0
        return NimState(left, self.to_move if extra_turn else 1 - self.to_move)

    def is_terminal(self) -> bool:
        return self.counters == 0

    def winner(self) -> int | None:
        # the last move ended the game without an extra turn: its mover is not to move
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
    teaches="Take one to three counters (two: move again); whoever takes the last one wins.",
    order=99,
    presets=(
        ArenaPreset(
            "nim_depth",
            "Nim: alpha-beta depth 6 vs random",
            "Alpha-beta against a random player on a pile of eleven.",
            (("ab d6 vs random", "alphabeta:depth=6", "random"),),
            (("counters", 11),),
            games=4,
        ),
    ),
)
