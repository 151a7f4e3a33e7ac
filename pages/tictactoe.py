"""Tic-tac-toe: play against minimax / alpha-beta and see the whole game tree searched."""

from __future__ import annotations

from lib.games.core import get_game
from lib.ui.game_page import run_game_page

DESCRIPTION = (
    "Click an empty square to place your mark. Choose who plays X and O in the sidebar: a "
    "person, or an AI with its own algorithm, depth and heuristic. The game tree is small "
    "enough for the AI to search to the end, so it never loses: after each AI move you see "
    "how many positions it searched, what alpha-beta pruned and the score of every square."
)

run_game_page(get_game("tictactoe"), description=DESCRIPTION)
