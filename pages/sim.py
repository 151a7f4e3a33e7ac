"""The Game of Sim: colour lines without closing a triangle of your colour; a perfect player."""

from __future__ import annotations

from lib.games.core import get_game
from lib.ui.game_page import run_game_page

DESCRIPTION = (
    "Six points, fifteen lines. Players take turns colouring a free line (click the marker "
    "in its middle); **whoever completes a triangle of their own colour loses**. Pick who "
    "starts and who plays each colour in the sidebar: a person, an AI searching with the "
    "course's heuristics, or the *perfect* player that solves the game exactly."
)

run_game_page(get_game("sim"), description=DESCRIPTION)
