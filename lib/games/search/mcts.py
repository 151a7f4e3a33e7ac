"""Monte Carlo tree search (UCT), generic over the game interface of :mod:`lib.games.core`.

Minimax needs a heuristic to judge the positions where it stops; Monte Carlo tree
search judges a position by *playing it out*. It grows a tree from the root one
simulation at a time, each simulation in four steps (AIMA, section 5.4):

1. **selection**: from the root, follow the child with the highest UCB1 value
   ``wins / visits + c * sqrt(ln(parent visits) / visits)`` while every move of
   the node has a child: the first term exploits the moves that won, the second
   explores the moves tried least;
2. **expansion**: add a child for one move not tried yet;
3. **simulation** (rollout): play on from that child to the end of the game with
   random moves, and note who won;
4. **backpropagation**: on the way back to the root, every node counts one more
   visit and, for the player who made the move into it, one more win (a draw is
   half a win).

When the budget (simulations or seconds) is spent, the move played is the root's
most-visited child: visits are where the search kept coming back, a steadier
choice than the best average of a rarely tried move.

Rollouts, one of :data:`ROLLOUTS`:

* ``"random"``: uniformly random moves to the end of the game (the textbook's);
* ``"heuristic"``: random moves for at most :data:`HEURISTIC_ROLLOUT_PLIES` plies;
  a game not over by then is scored by the sign of the game's heuristic, as a win
  for the side it favours (a draw when it says 0). Why this and not heuristic
  move choice: picking every rollout move greedily costs one evaluation per legal
  move per ply and still plays Othello or checkers rollouts to the end (60 to 100+
  plies); a cut-off rollout costs one evaluation and a few random plies, so the
  same time buys many more simulations. Only the sign is used, because
  heuristics of different games have unrelated scales, while "who is ahead" means
  the same everywhere.

**MCTS-Solver** (Winands, Björnsson and Saito, 2008; ``solver=True``): averages
only estimate, but a position whose game is decided can be *proven*. A finished
game is proven at once; on the way back up, a node whose player to move has a
child proven a win for them is a proven win (the fastest such child is its proof),
and a node all of whose moves have children, all proven, is worth the best of them
(a draw before a loss, a loss as late as possible), as OpenSpiel's MCTS with
``solve=True``. Selection never follows a child proven lost for the player
choosing; a proven win is played (the faster of two), and the search stops once
the root is proven. Off, the search is the textbook UCT.

Any game works unchanged: a forced pass is a move like any other, and whose win a
node counts is read from ``state.to_move`` of its parent, never assumed to
alternate. A finished game at the root raises :class:`lib.errors.InputError`;
a finished game inside the tree is its own rollout.

All randomness comes from the ``rng`` argument (the same generator state gives
the same move when the budget is a number of simulations).

>>> from lib.games import tictactoe
>>> # X (to move) has a and b on the top row: c1 wins at once
>>> state = tictactoe.initial_state()
>>> for square in ("a1", "a2", "b1", "b2"):
...     state = state.play(tictactoe.parse_move(square, state))
>>> result = mcts_search(state, simulations=300, rng=np.random.default_rng(1))
>>> tictactoe.format_move(result.move)
'c1'
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from lib.errors import InputError
from lib.games.search.fast import PROGRESS_EVERY

Move = Hashable
EvaluateFunction = Callable[[Any, int], float]

ROLLOUTS: dict[str, str] = {
    "random": "Random moves to the end",
    "heuristic": "Random moves, then the heuristic's verdict",
}
"""Rollout policy name -> label shown to users."""

DEFAULT_EXPLORATION = 1.4
"""The exploration constant c of UCB1 (about sqrt(2), the value of the UCB1 analysis)."""

DEFAULT_SIMULATIONS = 1000
"""Simulations run when neither a number of simulations nor a time budget is given."""

HEURISTIC_ROLLOUT_PLIES = 8
"""Random plies a heuristic rollout plays before the heuristic judges the position."""

MAX_ROLLOUT_PLIES = 1000
"""A rollout still running after this many plies is scored a draw (a guard, not a rule)."""

Rewards = tuple[float, float]
"""What a finished simulation is worth to player 0 and to player 1: 1 win, 0.5 draw, 0 loss."""


@dataclass(eq=False)
class Node:
    """One position of the search tree.

    ``wins`` are counted for ``mover``, the player who made ``move`` (the player
    to move at the parent): the parent picks among its children by their wins.
    """

    state: Any
    parent: Node | None = None
    move: Move | None = None
    mover: int | None = None
    untried: list[Move] = field(default_factory=list)
    children: list[Node] = field(default_factory=list)
    visits: int = 0
    wins: float = 0.0
    # MCTS-Solver: the game's result with perfect play once proven (rewards of players 0
    # and 1), and in how many plies the proof ends the game
    proven: Rewards | None = None
    proof_plies: int = 0

    def ucb1(self, c: float) -> float:
        """Mean reward plus the exploration bonus (the node has been visited)."""
        return self.wins / self.visits + c * math.sqrt(math.log(self.parent.visits) / self.visits)


@dataclass
class MctsStats:
    """What a Monte Carlo tree search did.

    ``root_visits`` and ``root_values`` (the mean reward, i.e. the win rate of
    each root move for the player to move, a draw counting half) describe the
    root's children; ``principal_variation`` is the chosen line, the
    most-visited child followed from the root down. ``nodes`` counts every
    position the simulations went through (tree descents and rollout plies), as
    :class:`lib.games.search.fast.SearchStats` counts the positions a search visits.

    The generic parts of the app read ``root_scores`` (here the visit counts:
    the board's heat map shows them in place of scores), ``root_bounds``
    (none), ``depth_reached`` and ``seconds``.
    """

    algorithm: str = "mcts"
    simulations: int = 0
    nodes: int = 0
    tree_nodes: int = 0
    max_tree_depth: int = 0
    rollout_plies: int = 0
    seconds: float = 0.0
    exploration: float = DEFAULT_EXPLORATION
    rollout: str = "random"
    timed_out: bool = False  # the time budget ended the search before its simulations
    root_visits: dict[Move, int] = field(default_factory=dict)
    root_values: dict[Move, float] = field(default_factory=dict)
    principal_variation: list[Move] = field(default_factory=list)
    solver: bool = False  # MCTS-Solver: proven wins and losses backed up
    proven_nodes: int = 0  # positions the solver proved (finished games included)
    # root moves proven, with their value for the player to move (1 win, 0.5 draw, 0 loss)
    root_proven: dict[Move, float] = field(default_factory=dict)
    proven_value: float | None = None  # the root's proven value for the player to move
    proof_plies: int = 0  # plies to the end of the game along the root's proof

    def progress_text(self) -> str:
        """How far a running search has got, for a page's "is thinking" line."""
        return f"{self.simulations:,} simulations"

    @property
    def root_scores(self) -> dict[Move, float]:
        """Visit counts of the root moves, for the views that draw a score per move."""
        return {move: float(visits) for move, visits in self.root_visits.items()}

    @property
    def root_bounds(self) -> dict[Move, str]:
        """No bounds: every number is a count."""
        return {}

    @property
    def depth_reached(self) -> int:
        """The deepest tree node below the root (plies)."""
        return self.max_tree_depth


@dataclass(frozen=True)
class MctsResult:
    """The chosen move, its win rate for the player to move, and the statistics."""

    move: Move
    value: float
    stats: MctsStats


def rewards_of(state: Any) -> Rewards:
    """The rewards of a finished game: the winner 1 and the loser 0, or 0.5 each for a draw."""
    winner = state.winner()
    if winner is None:
        return (0.5, 0.5)
    return (1.0, 0.0) if winner == 0 else (0.0, 1.0)


def mcts_search(
    state: Any,
    *,
    simulations: int | None = None,
    time_limit: float | None = None,
    exploration: float = DEFAULT_EXPLORATION,
    rollout: str = "random",
    evaluate: EvaluateFunction | None = None,
    rng: np.random.Generator | None = None,
    on_progress: Callable[[MctsStats], None] | None = None,
    solver: bool = False,
) -> MctsResult:
    """UCT from ``state``: the root's most-visited move after the budget is spent.

    Parameters
    ----------
    simulations:
        How many simulations to run (with ``time_limit``, whichever ends first).
        Neither given: :data:`DEFAULT_SIMULATIONS`.
    time_limit:
        Seconds; the search stops after the simulation that passes it (at least one runs).
    exploration:
        UCB1's constant c (0: always the best win rate so far).
    rollout:
        ``"random"`` or ``"heuristic"`` (see the module docstring).
    evaluate:
        ``evaluate(state, player) -> float``, needed by heuristic rollouts.
    rng:
        Every random choice (move order of expansion, rollout moves) comes from it.
    on_progress:
        Called with the statistics so far about every
        :data:`lib.games.search.fast.PROGRESS_EVERY` seconds; an exception it raises
        abandons the search (as in :func:`lib.games.search.fast.choose_move`).
    solver:
        MCTS-Solver: back up proven wins and losses (see the module docstring); a
        proven win is played (the fastest), a proven loss is never chosen while
        another move is not one, and the search ends once the root is proven.
        Off: the textbook UCT.

    Raises
    ------
    InputError
        For a finished game or out-of-range settings.
    """
    _check_request(state, simulations, time_limit, exploration, rollout, evaluate)
    started = time.perf_counter()
    if simulations is None and time_limit is None:
        simulations = DEFAULT_SIMULATIONS
    deadline = None if time_limit is None else started + time_limit
    # one seeded Python generator: its choice() is far cheaper per rollout ply than numpy's
    generator = np.random.default_rng() if rng is None else rng
    tree = _Tree(
        random.Random(int(generator.integers(2**63))),
        MctsStats(exploration=exploration, rollout=rollout, solver=solver),
        exploration,
        rollout,
        evaluate,
        solver,
    )
    root = tree.new_node(state, None, None)
    tree.run(root, simulations, deadline, on_progress)
    return tree.result(root, started)


class _Tree:
    """One search: the random source, the statistics and the four steps of a simulation."""

    def __init__(
        self,
        random_source: random.Random,
        stats: MctsStats,
        exploration: float,
        rollout: str,
        evaluate: EvaluateFunction | None,
        solver: bool,
    ) -> None:
        self.random = random_source
        self.stats = stats
        self.exploration = exploration
        self.rollout = rollout
        self.evaluate = evaluate
        self.solver = solver

    def run(
        self,
        root: Node,
        simulations: int | None,
        deadline: float | None,
        on_progress: Callable[[MctsStats], None] | None,
    ) -> None:
        """Simulate until the budget is spent (or, with the solver, the root is proven)."""
        stats = self.stats
        next_report = 0.0  # the first report comes after the first simulation
        while stats.simulations < (simulations or math.inf):
            if deadline is not None and stats.simulations and time.perf_counter() > deadline:
                stats.timed_out = simulations is not None
                break
            if root.proven is not None:
                break
            leaf = self.expand(self.select(root))
            rewards = leaf.proven if leaf.proven is not None else self.simulate(leaf.state)
            self.backpropagate(leaf, rewards)
            stats.simulations += 1
            if on_progress is not None and time.perf_counter() >= next_report:
                next_report = time.perf_counter() + PROGRESS_EVERY
                on_progress(stats)

    def new_node(self, state: Any, parent: Node | None, move: Move | None) -> Node:
        """A tree node for ``state`` (a finished game is proven at once with the solver)."""
        moves = list(state.legal_moves())
        self.random.shuffle(moves)  # expansion order, so ties break at random
        mover = None if parent is None else parent.state.to_move
        self.stats.tree_nodes += 1
        node = Node(state, parent, move, mover, untried=moves)
        if self.solver and not moves:
            node.proven, node.proof_plies = rewards_of(state), 0
            self.stats.proven_nodes += 1
        return node

    def select(self, node: Node) -> Node:
        """Follow UCB1 down while every move of the node has a child (and it is not proven).

        With the solver a child proven lost for the player choosing is never followed.
        """
        c = self.exploration
        while not node.untried and node.children and node.proven is None:
            children = node.children
            if self.solver:
                player = node.state.to_move
                children = [
                    child
                    for child in children
                    if child.proven is None or child.proven[player] > 0.0
                ]
            node = max(children, key=lambda child: child.ucb1(c))
            self.stats.nodes += 1
        return node

    def expand(self, node: Node) -> Node:
        """Add a child for one untried move (a finished or proven node is returned as it is)."""
        if not node.untried or node.proven is not None:
            return node
        move = node.untried.pop()
        child = self.new_node(node.state.play(move), node, move)
        node.children.append(child)
        self.stats.nodes += 1
        return child

    def simulate(self, state: Any) -> Rewards:
        """Play on from ``state`` (random moves; a heuristic rollout stops early)."""
        stats, choice = self.stats, self.random.choice
        for ply in range(MAX_ROLLOUT_PLIES):
            if self.rollout == "heuristic" and ply == HEURISTIC_ROLLOUT_PLIES:
                return self.heuristic_verdict(state)
            moves = state.legal_moves()
            if not moves:
                return rewards_of(state)
            state = state.play(choice(moves))
            stats.rollout_plies += 1
        return (0.5, 0.5)

    def heuristic_verdict(self, state: Any) -> Rewards:
        """A win for the side the heuristic favours (a draw when it says 0)."""
        if state.is_terminal():
            return rewards_of(state)
        ahead = self.evaluate(state, 0)
        if ahead == 0:
            return (0.5, 0.5)
        return (1.0, 0.0) if ahead > 0 else (0.0, 1.0)

    def backpropagate(self, node: Node | None, rewards: Rewards) -> None:
        """Count the visit and the mover's reward up to the root; with the solver, a proof
        found below is carried up as far as it proves each parent."""
        proving = node is not None and node.proven is not None
        while node is not None:
            node.visits += 1
            if node.mover is not None:
                node.wins += rewards[node.mover]
            if proving and node.proven is None:
                proving = self.prove(node)
            node = node.parent

    def prove(self, node: Node) -> bool:
        """Mark ``node`` proven when its children allow it; True if it is now proven.

        The player to move wins if one child is a proven win for them (the fastest such
        child is the proof); otherwise, once every move has a child and all are proven,
        the node is worth the best of them (a draw before a loss, a loss as late as
        possible), as OpenSpiel's MCTS with ``solve=True``.
        """
        player = node.state.to_move
        child = best_proven_child(node, player)
        if child is None:
            return False
        if child.proven[player] < 1.0 and (
            node.untried or any(other.proven is None for other in node.children)
        ):
            return False
        node.proven, node.proof_plies = child.proven, child.proof_plies + 1
        self.stats.proven_nodes += 1
        return True

    def result(self, root: Node, started: float) -> MctsResult:
        """The move to play and the statistics of the finished search."""
        stats = self.stats
        stats.nodes += stats.rollout_plies + 1  # the root, once
        best = chosen_child(root, self.solver)
        player = root.state.to_move
        stats.root_visits = {child.move: child.visits for child in root.children}
        stats.root_values = {child.move: child.wins / child.visits for child in root.children}
        stats.root_proven = {
            child.move: child.proven[player] for child in root.children if child.proven is not None
        }
        if root.proven is not None:
            stats.proven_value, stats.proof_plies = root.proven[player], root.proof_plies
        stats.principal_variation = chosen_line(root, self.solver)
        stats.max_tree_depth = tree_depth(root)
        stats.seconds = time.perf_counter() - started
        value = best.proven[player] if best.proven is not None else best.wins / best.visits
        return MctsResult(best.move, value, stats)


def best_proven_child(node: Node, player: int) -> Node | None:
    """The proven child best for ``player``: a win, the fastest; else a draw; else the
    slowest loss. None when no child is proven."""
    proven = [child for child in node.children if child.proven is not None]
    if not proven:
        return None

    def merit(child: Node) -> tuple[float, int]:
        value = child.proven[player]
        return (value, -child.proof_plies if value == 1.0 else child.proof_plies)

    return max(proven, key=merit)


def chosen_child(node: Node, solver: bool = False) -> Node:
    """The child to play: the most-visited; with the solver, a proven win (the fastest) is
    played, a proven node's proof is followed, and proven losses are avoided while
    another child is not one."""
    if not solver:
        return most_visited(node)
    player = node.state.to_move
    proof = best_proven_child(node, player)
    if proof is not None and (proof.proven[player] == 1.0 or node.proven is not None):
        return proof
    open_children = [c for c in node.children if c.proven is None or c.proven[player] > 0.0]
    if not open_children:
        return most_visited(node)
    return max(open_children, key=lambda child: (child.visits, child.wins / child.visits))


def most_visited(node: Node) -> Node:
    """The child visited most (ties: the better win rate, then the first expanded)."""
    return max(node.children, key=lambda child: (child.visits, child.wins / child.visits))


def chosen_line(root: Node, solver: bool = False) -> list[Move]:
    """The moves of the chosen path from ``root`` (stopping where nothing was expanded): the
    most-visited child each time (with the solver, :func:`chosen_child`)."""
    line, node = [], root
    while node.children:
        node = chosen_child(node, solver)
        line.append(node.move)
    return line


def tree_depth(root: Node) -> int:
    """Plies from ``root`` to its deepest descendant."""
    deepest, frontier = 0, [(root, 0)]
    while frontier:
        node, depth = frontier.pop()
        deepest = max(deepest, depth)
        frontier.extend((child, depth + 1) for child in node.children)
    return deepest


def _check_request(
    state: Any,
    simulations: Any,
    time_limit: Any,
    exploration: Any,
    rollout: str,
    evaluate: EvaluateFunction | None,
) -> None:
    """Raise InputError for a request that cannot be searched."""
    if simulations is not None and (
        isinstance(simulations, bool)
        or not isinstance(simulations, int | np.integer)
        or simulations < 1
    ):
        raise InputError(f"Simulations must be a whole number of at least 1, not {simulations}.")
    if time_limit is not None and not time_limit > 0:
        raise InputError(f"The time budget must be positive seconds, not {time_limit}.")
    if not (isinstance(exploration, int | float) and math.isfinite(exploration)) or exploration < 0:
        raise InputError(f"The exploration constant must be 0 or more, not {exploration}.")
    if rollout not in ROLLOUTS:
        raise InputError(f"Unknown rollout {rollout!r}; choose one of {', '.join(ROLLOUTS)}.")
    if rollout == "heuristic" and evaluate is None:
        raise InputError("Heuristic rollouts need a heuristic to judge the positions.")
    if state.is_terminal():
        raise InputError("The game is over: there is no move to choose.")
