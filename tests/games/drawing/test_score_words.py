"""Search scores reach a student in words: a forced win is "a forced win", never 1e+06,
on every board's hover, the score bars, the search tree and the hint's proved-moves list."""

from __future__ import annotations

import re

import pytest

from lib.games import checkers, connect_four, othello, sim, tictactoe
from lib.games.checkers.plots import checkers_figure
from lib.games.connect_four.plots import connect_four_figure
from lib.games.core import WIN_VALUE
from lib.games.drawing import figures as plots
from lib.games.othello.plots import othello_figure
from lib.games.search.fast import choose_move
from lib.games.sim.plots import sim_figure
from lib.games.tictactoe.plots import tictactoe_figure
from lib.ui.search_panels import proved_moves_markdown

RAW_WIN = re.compile(r"e\+0\d|\d{6,}")
"""How a forced result's raw score would show: 1e+06, 1000002 ..."""

BOARDS = {
    "tictactoe": (tictactoe.initial_state, tictactoe_figure),
    "connect_four": (connect_four.initial_state, connect_four_figure),
    "othello": (othello.initial_state, othello_figure),
    "checkers": (checkers.initial_state, checkers_figure),
    "sim": (sim.initial_state, sim_figure),
}


def _strings(value) -> list[str]:
    """Every string inside a figure's dictionary."""
    if isinstance(value, str):
        return [] if value.startswith(("#", "rgb")) else [value]  # colours are not text
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def _forced_scores(moves: list) -> tuple[dict, dict]:
    """A forced win, a forced loss (an alpha-beta bound) and plain scores for the rest."""
    scores = {move: 0.25 for move in moves}
    scores[moves[0]] = WIN_VALUE + 2
    scores[moves[1]] = -(WIN_VALUE + 5)
    return scores, {moves[1]: "upper"}


def test_score_words():
    assert plots.score_words(WIN_VALUE + 2) == "a forced win"
    assert plots.score_words(-(WIN_VALUE + 9), "upper") == "at most a forced loss"
    assert plots.score_words(0.4213, "lower") == "at least +0.4213"
    assert plots.score_words(-3.0) == "-3" and plots.score_words(0.0) == "0"


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_board_hovers_say_forced_results_in_words(name):
    initial, figure = BOARDS[name]
    state = initial()
    scores, bounds = _forced_scores(list(state.legal_moves()))
    texts = _strings(figure(state, scores=scores, bounds=bounds).to_dict())
    assert not [t for t in texts if RAW_WIN.search(t)]
    assert any("a forced win" in t for t in texts)


def test_score_bars_and_search_tree_hovers_say_forced_results_in_words():
    scores, bounds = _forced_scores(["a", "b", "c"])
    bars = plots.root_scores_figure(scores, str, bounds, chosen="a")
    texts = _strings(bars.to_dict())
    assert not [t for t in texts if RAW_WIN.search(t)] and any("forced win" in t for t in texts)
    # a tic-tac-toe search that sees the end of the game: wins and losses in the tree
    state = tictactoe.initial_state()
    for move in (4, 0, 8):
        state = state.play(move)
    result = choose_move(state, algorithm="alphabeta", depth=4, record_tree=True)
    tree = plots.search_tree_figure(result.stats.tree, tictactoe.format_move)
    texts = _strings(tree.to_dict())
    assert any("forced" in t for t in texts)
    assert not [t for t in texts if RAW_WIN.search(t)]


def test_the_hints_unproved_moves_keep_the_search_s_words():
    """Connect Four's hint lists the solver's verdicts; a move it did not settle says what
    the search found, in words (the board says WIN there: the list must not say 1e+06)."""
    scores = {3: WIN_VALUE + 2, 4: WIN_VALUE + 2, 0: -(WIN_VALUE + 8), 5: 0.5}
    verdicts = {3: ("wins in 27 plies", "deec")}
    text = proved_moves_markdown(scores, {0: "upper"}, verdicts, connect_four.format_move)
    lines = dict(line.split(" ", 2)[1:] for line in text.splitlines())
    assert lines["**d**"] == "wins in 27 plies, line deec"
    assert lines["**e**"] == "not proved by the solver; the search finds a forced win"
    assert lines["**a**"] == "not proved by the solver; the search finds at most a forced loss"
    assert lines["**f**"] == "not proved by the solver; the search scores it +0.5"
    assert not RAW_WIN.search(text)
