"""Checkers: play English draughts against minimax / alpha-beta and see what the AI searched."""

from __future__ import annotations

from lib.games.core import get_game
from lib.ui.game_page import run_game_page

DESCRIPTION = (
    "Click one of your pieces, then the square to move it to (dots mark where it can go; "
    "for a multi-jump click the final square, or each landing square in turn). Captures are "
    "compulsory and a multi-jump is one move. **Draw rule:** after 40 moves by each side "
    "with no capture and no man move, the game is drawn. Choose who plays each colour in the "
    "sidebar: a person, or an AI with its own algorithm, depth, heuristic and weights."
)

run_game_page(get_game("checkers"), description=DESCRIPTION)
