"""Othello: play against minimax / alpha-beta / expectimax and see what the AI searched."""

from __future__ import annotations

from lib.games.core import get_game
from lib.ui.game_page import run_game_page

DESCRIPTION = (
    "Click a square to place a disc (dots mark the legal moves). Choose who plays each "
    "colour in the sidebar: a person, or an AI with its own algorithm, depth, heuristic and "
    "weights. After each AI move you see how many positions it searched, what it pruned and "
    "the score of every move it considered."
)

run_game_page(get_game("othello"), description=DESCRIPTION)
