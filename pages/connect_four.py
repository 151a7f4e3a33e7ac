"""Connect Four: play against minimax / alpha-beta and see what the AI searched."""

from __future__ import annotations

from lib.games.core import get_game
from lib.ui.game_page import run_game_page

DESCRIPTION = (
    "Click anywhere in a column to drop a disc there (dots mark where the next disc of each "
    "column lands). Choose who plays Red and Yellow in the sidebar: a person, or an AI with "
    "its own algorithm, depth, heuristic and weights. After each AI move you see how many "
    "positions it searched, what it pruned and the score of every column."
)

run_game_page(get_game("connect_four"), description=DESCRIPTION)
