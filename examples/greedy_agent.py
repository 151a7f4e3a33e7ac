"""A greedy agent: play the move after which the game's own heuristic likes the board best.

Run it (local only) against the random player, 4 games of Othello:

    AI_SEARCH_LAB_LOCAL=1 python -m lib.games.arena --game othello \
        --players agent:path=examples/greedy_agent.py random --games 4
"""

from lib.games.core import game_of


def choose_move(state, seconds_left):
    """One ply of lookahead: a win first, else the best score of the default heuristic."""
    game = game_of(state)  # the game's spec: its heuristics, how to write a move ...
    heuristic = game.heuristics[game.default_heuristic]
    me = state.to_move

    def score(move):
        after = state.play(move)
        if after.is_terminal():
            return {None: 0.0, me: 1e9}.get(after.winner(), -1e9)
        return heuristic.evaluate(after, me)

    return max(state.legal_moves(), key=score)
