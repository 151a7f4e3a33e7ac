"""An agent that uses its clock: alpha-beta, one ply deeper each round while time is left.

``seconds_left`` is the time left for this move. This agent keeps a safety margin,
searches depth 1, 2, 3 ... and plays the best move of the deepest search it finished:
an agent that answers late loses the game. Run it (local only):

    AI_SEARCH_LAB_LOCAL=1 python -m lib.games.arena --game connect_four \
        --players "agent:path=examples/timed_agent.py,time=0.5" greedy --games 4
"""

import time

from lib.games.core import game_of

WIN = 1e9


class OutOfTime(Exception):
    """The clock ran out in the middle of a search."""


def choose_move(state, seconds_left):
    """The best move of the deepest alpha-beta search finished before the deadline."""
    deadline = time.monotonic() + 0.6 * seconds_left  # the rest: a margin for the reply
    game = game_of(state)
    heuristic = game.heuristics[game.default_heuristic]
    me = state.to_move

    def value(node, depth, alpha, beta):
        """The node's minimax value for me, searched ``depth`` plies on."""
        if time.monotonic() > deadline:
            raise OutOfTime
        if node.is_terminal():
            return {None: 0.0, me: WIN}.get(node.winner(), -WIN)
        if depth == 0:
            return heuristic.evaluate(node, me)
        mine = node.to_move == me
        best = -WIN if mine else WIN
        for move in node.legal_moves():
            score = value(node.play(move), depth - 1, alpha, beta)
            best = max(best, score) if mine else min(best, score)
            alpha, beta = (max(alpha, best), beta) if mine else (alpha, min(beta, best))
            if alpha >= beta:
                break
        return best

    moves = state.legal_moves()
    best_move = moves[0]
    try:
        for depth in range(1, 64):
            best_move = max(moves, key=lambda m: value(state.play(m), depth - 1, -WIN, WIN))
    except OutOfTime:
        pass  # keep the deepest finished search's move
    return best_move
