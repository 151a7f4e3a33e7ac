"""The Sim part of the game page: hexagon figure, click-a-line, status and perfect-play verdict.

The figure's click targets carry ``customdata = [a, b]``, which the generic
board widget reads as a ``(row, col)`` pair: here it is the line ``a-b``.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from lib.games import sim
from lib.games.drawing.view import BoardAdapter, BoardView, ClickOutcome
from lib.games.sim.plots import sim_figure


def figure(state: sim.SimState, view: BoardView) -> go.Figure:
    """The hexagon with both colours, the last line, move scores and the losing triangle."""
    return sim_figure(
        state,
        last_move=view.last_move if isinstance(view.last_move, tuple) else None,
        scores=view.scores,
        bounds=view.bounds,
        title=view.title,
        # the grid boards draw their labels in 40 px round ``pixels``: the same outer size
        pixels=view.pixels + 40,
        marked=view.marked if isinstance(view.marked, tuple) else None,
    )


def move_for_click(state: sim.SimState, square: tuple[int, int], pending: Any) -> ClickOutcome:
    """A click on the target of line ``(a, b)``: colour it if it is free."""
    line = (min(square), max(square))
    if line not in sim.LINE_INDEX:
        return ClickOutcome(message="Click the marker in the middle of a free (dashed) line.")
    index = sim.LINE_INDEX[line]
    if not state.free() >> index & 1:
        colour = "red" if state.red >> index & 1 else "blue"
        return ClickOutcome(
            message=f"Line {sim.format_move(line)} is already {colour}; pick a dashed line."
        )
    return ClickOutcome(move=line)


def status(state: sim.SimState) -> str:
    """Lines coloured, and how many free lines would close a triangle for each side."""
    return (
        f"{state.coloured()}/15 lines coloured · deadly free lines: "
        f"Red {sim.dead_lines(state, sim.RED)}, Blue {sim.dead_lines(state, sim.BLUE)}"
    )


def verdict(state: sim.SimState) -> str:
    """Who wins from here with perfect play (exact, by :func:`lib.games.sim.solve`)."""
    if state.is_terminal():
        loser = state.loser()
        closed = [
            "-".join(str(p) for p in triangle)
            for triangle in sim.triangles_in(state.red if loser == sim.RED else state.blue)
        ]
        which = (
            f"the triangle {closed[0]}"
            if len(closed) == 1
            else f"the triangles {', '.join(closed[:-1])} and {closed[-1]}"
        )
        return f"{sim.PLAYER_NAMES[loser]} completed {which} and lost."
    mover = state.to_move
    winner = mover if sim.solve(state) > 0 else 1 - mover
    lines = sum(1 for value in sim.move_values(state).values() if value > 0)
    free = state.free().bit_count()
    detail = (
        f"{lines} of the {free} free line{'s' if free != 1 else ''} "
        f"{'keeps' if lines == 1 else 'keep'} the win for "
        f"{sim.PLAYER_NAMES[mover]}"
        if winner == mover
        else f"every free line loses for {sim.PLAYER_NAMES[mover]} against perfect play"
    )
    return f"With perfect play from here **{sim.PLAYER_NAMES[winner]} wins** ({detail})."


ABOUT = """
**Rules.** Six points, fifteen lines. Red and Blue take turns colouring one free
line; whoever completes a triangle of **their own** colour loses. A draw is
impossible: colour all 15 lines with two colours and a one-colour triangle
always appears (Ramsey's R(3,3) = 6). With perfect play the **second player
wins**.

**Heuristics.** *threats* is the course's count: for every free line, −1 if it
would complete a triangle for you, +1 if it would for the opponent. *late loss*
adds the course's rule of losing as late as possible: when a side has only
deadly lines left it is lost, less badly the later that happens, so a fallible
opponent gets the most chances to blunder. The search itself also prefers
slower losses and faster wins.

**Perfect player.** Solves the position exactly: a memoised search over bitmask
states, with the positions near the start stored up to the 720 relabellings of
the points (the empty board takes a few hundredths of a second). In a lost
position it avoids completing its own triangle and keeps the threat count as
good as it can.
"""

ADAPTER = BoardAdapter(
    game=sim.GAME,
    figure=figure,
    click=move_for_click,
    status=status,
    about=ABOUT,
    insight=verdict,
    prompt="click the marker of a dashed line",
)
