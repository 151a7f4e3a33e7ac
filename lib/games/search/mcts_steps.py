"""MCTS step by step: a traced textbook UCT whose four steps are recorded as events for the UI.

:func:`traced_mcts` runs the same search as :func:`lib.games.search.mcts.mcts_search`
with random roll-outs (the same random draws in the same order, so with the same seed
and number of simulations both grow the same tree), written to be read beside the
page that replays it. Each simulation is recorded as :class:`MctsEvent` s in four phases:

1. **selection**: at each node on the way down, every child's UCB1 value
   ``wins / visits + c * sqrt(ln(parent visits) / visits)`` and the child chosen
   (the highest; ties go to the child expanded first);
2. **expansion**: the node added for one untried move (none at a finished game or a
   proven node);
3. **roll-out**: the random moves played from the new node to the end of the game;
4. **back-up**, one step per node from the bottom up: every node on the path counts one
   more visit and, for the player who made the move into it, the roll-out's reward (1 a
   win, ½ a draw); with the MCTS-Solver a proof found at the bottom is carried up as
   far as it proves each parent.

:func:`tree_at` replays the events to the tree as it stood at any step. The number of
simulations traced is capped at :data:`MAX_TRACED_SIMULATIONS`.

>>> from lib.games import tictactoe
>>> state = tictactoe.initial_state()
>>> for square in ("a1", "c1", "a2", "c3", "b3", "b1"):
...     state = state.play(tictactoe.parse_move(square, state))
>>> trace = traced_mcts(state, simulations=50, seed=1)
>>> tictactoe.format_move(trace.move), trace.root_proven
('a3', (1.0, 0.0))
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from lib.errors import InputError
from lib.games.search.mcts import (
    DEFAULT_EXPLORATION,
    MAX_ROLLOUT_PLIES,
    Node,
    Rewards,
    best_proven_child,
    chosen_child,
    rewards_of,
)

Move = Hashable
Path = tuple[Move, ...]

MAX_TRACED_SIMULATIONS = 300
"""At most this many simulations are traced (a few thousand steps): a step-through, not a strong
search."""

DEFAULT_TRACED_SIMULATIONS = 30
"""Simulations traced by default: a tree small enough to label every node."""

PHASES = ("selection", "expansion", "rollout", "backup")
PHASE_LABELS = {
    "selection": "Selection",
    "expansion": "Expansion",
    "rollout": "Roll-out",
    "backup": "Back-up",
}
"""Phase -> the name the page shows."""


@dataclass(frozen=True)
class ChildScore:
    """One child as selection saw it: its counts and UCB1 value (None: a proven loss for the
    player choosing, which the MCTS-Solver never follows)."""

    move: Move
    visits: int
    wins: float
    ucb1: float | None


@dataclass(frozen=True)
class Choice:
    """One node on the selection path: the UCB1 of each child and the move chosen."""

    path: Path
    visits: int
    children: tuple[ChildScore, ...]
    chosen: Move


@dataclass(frozen=True)
class NodeCounts:
    """A node's counts: ``wins`` are for ``mover`` (who made the move into it); ``proven`` is
    the result with perfect play (rewards of players 0 and 1) once the solver proved it."""

    visits: int = 0
    wins: float = 0.0
    mover: int | None = None
    proven: Rewards | None = None


@dataclass(frozen=True)
class Update:
    """A node's counts after the back-up passed it; ``newly_proven``: this back-up proved it."""

    path: Path
    counts: NodeCounts
    newly_proven: bool = False


@dataclass(frozen=True)
class MctsEvent:
    """One step: a phase of simulation ``simulation`` (from 1).

    ``path`` is the node selection reached, the node expansion added (or the one it
    could not expand), where the roll-out started, or the node the back-up started
    from: the back-up takes one step per node on the way up to the root.
    """

    simulation: int
    phase: str
    path: Path
    choices: tuple[Choice, ...] = ()  # selection
    added: NodeCounts | None = None  # expansion: the new node (None: nothing to expand)
    rollout: tuple[Move, ...] = ()  # roll-out: the random moves played
    rewards: Rewards | None = None  # roll-out and back-up: the result
    from_proof: bool = False  # roll-out: no moves, the node's result is known
    # back-up: the nodes updated so far, from the bottom up (the last: this step's)
    updates: tuple[Update, ...] = ()

    @property
    def focus(self) -> Path:
        """The node the step is about: ``path``, or in the back-up the node being updated."""
        return self.updates[-1].path if self.updates else self.path


@dataclass(frozen=True)
class MctsTrace:
    """A traced search: the events, what it chose and the root's counts."""

    state: Any
    events: tuple[MctsEvent, ...]
    simulations: int
    requested: int
    exploration: float
    solver: bool
    seed: int
    move: Move
    root_visits: dict[Move, int]
    root_proven: Rewards | None
    move_proven: Rewards | None = None
    """The chosen move's proven result when the solver played it for its proof."""

    @property
    def steps(self) -> int:
        """How many steps the trace has (three per simulation, and one per node backed up)."""
        return len(self.events)


def traced_mcts(
    state: Any,
    *,
    simulations: int = DEFAULT_TRACED_SIMULATIONS,
    exploration: float = DEFAULT_EXPLORATION,
    seed: int = 0,
    solver: bool = True,
) -> MctsTrace:
    """UCT from ``state``, every step recorded (see the module docstring).

    Equal to ``mcts_search(state, simulations=simulations, exploration=exploration,
    rng=np.random.default_rng(seed), solver=solver)``: the same tree, so the same visits
    per root move and the same move. With ``solver`` the search stops once the root is
    proven, so fewer simulations than asked may run.

    Raises
    ------
    InputError
        For a finished game or settings out of range.
    """
    _check(state, simulations, exploration, seed)
    draw = random.Random(int(np.random.default_rng(seed).integers(2**63)))
    root = _new_node(state, None, None, draw, solver)
    events: list[MctsEvent] = []
    run = 0
    while run < simulations and root.proven is None:
        run += 1
        leaf, choices = select(root, exploration, solver)
        events.append(MctsEvent(run, "selection", path_of(leaf), choices=choices))
        child = expand(leaf, draw, solver)
        added = _counts(child) if child is not leaf else None
        events.append(MctsEvent(run, "expansion", path_of(child), added=added))
        if child.proven is not None:
            moves, rewards = (), child.proven
        else:
            moves, rewards = rollout(child.state, draw)
        known = child.proven is not None or not moves
        events.append(
            MctsEvent(
                run, "rollout", path_of(child), rollout=moves, rewards=rewards, from_proof=known
            )
        )
        updates = backup(child, rewards, solver)
        for level in range(1, len(updates) + 1):  # one step per node on the way up
            events.append(
                MctsEvent(run, "backup", path_of(child), rewards=rewards, updates=updates[:level])
            )
    best = chosen_child(root, solver)
    visits = {node.move: node.visits for node in root.children}
    return MctsTrace(
        state,
        tuple(events),
        run,
        simulations,
        exploration,
        solver,
        seed,
        best.move,
        visits,
        root.proven,
        best.proven if solver else None,
    )


def _new_node(
    state: Any, parent: Node | None, move: Move | None, draw: random.Random, solver: bool
) -> Node:
    """A node for ``state``, its untried moves in a random order (so ties break at random); a
    finished game is proven at once with the solver."""
    moves = list(state.legal_moves())
    draw.shuffle(moves)
    mover = None if parent is None else parent.state.to_move
    node = Node(state, parent, move, mover, untried=moves)
    if solver and not moves:
        node.proven = rewards_of(state)
    return node


def select(root: Node, c: float, solver: bool) -> tuple[Node, tuple[Choice, ...]]:
    """Follow the highest UCB1 down while every move has a child; each choice recorded.

    The MCTS-Solver never follows a child proven lost for the player choosing, and stops
    at a proven node.
    """
    node, choices = root, []
    while not node.untried and node.children and node.proven is None:
        player = node.state.to_move
        scores = tuple(
            ChildScore(
                child.move,
                child.visits,
                child.wins,
                None
                if solver and child.proven is not None and child.proven[player] == 0.0
                else child.ucb1(c),
            )
            for child in node.children
        )
        best = max((s for s in scores if s.ucb1 is not None), key=lambda s: s.ucb1)
        choices.append(Choice(path_of(node), node.visits, scores, best.move))
        node = next(child for child in node.children if child.move == best.move)
    return node, tuple(choices)


def expand(node: Node, draw: random.Random, solver: bool) -> Node:
    """Add a child for the last untried move (a finished or proven node is returned as is)."""
    if not node.untried or node.proven is not None:
        return node
    move = node.untried.pop()
    child = _new_node(node.state.play(move), node, move, draw, solver)
    node.children.append(child)
    return child


def rollout(state: Any, draw: random.Random) -> tuple[tuple[Move, ...], Rewards]:
    """Random moves to the end of the game: the moves and the rewards (a draw past the guard)."""
    moves: list[Move] = []
    for _ in range(MAX_ROLLOUT_PLIES):
        legal = state.legal_moves()
        if not legal:
            return tuple(moves), rewards_of(state)
        move = draw.choice(legal)
        moves.append(move)
        state = state.play(move)
    return tuple(moves), (0.5, 0.5)


def backup(node: Node | None, rewards: Rewards, solver: bool) -> tuple[Update, ...]:
    """One more visit and the mover's reward on every node up to the root; with the solver, a
    proof at the bottom proves each parent it can."""
    updates = []
    proving = solver and node is not None and node.proven is not None
    while node is not None:
        node.visits += 1
        if node.mover is not None:
            node.wins += rewards[node.mover]
        newly = False
        if proving and node.proven is None:
            proving = newly = prove(node)
        updates.append(Update(path_of(node), _counts(node), newly))
        node = node.parent
    return tuple(updates)


def prove(node: Node) -> bool:
    """Mark ``node`` proven when its children allow it (True if they do).

    The player to move wins if a child is a proven win for them; otherwise, once every
    move has a child and all are proven, the node is worth the best of them.
    """
    player = node.state.to_move
    child = best_proven_child(node, player)
    if child is None:
        return False
    undecided = node.untried or any(other.proven is None for other in node.children)
    if child.proven[player] < 1.0 and undecided:
        return False
    node.proven, node.proof_plies = child.proven, child.proof_plies + 1
    return True


def path_of(node: Node) -> Path:
    """The moves from the root to ``node``."""
    moves = []
    while node.parent is not None:
        moves.append(node.move)
        node = node.parent
    return tuple(reversed(moves))


def _counts(node: Node) -> NodeCounts:
    return NodeCounts(node.visits, node.wins, node.mover, node.proven)


def _check(state: Any, simulations: Any, exploration: Any, seed: Any) -> None:
    """Raise InputError for a request that cannot be traced."""
    if (
        isinstance(simulations, bool)
        or not isinstance(simulations, int | np.integer)
        or not 1 <= simulations <= MAX_TRACED_SIMULATIONS
    ):
        raise InputError(
            f"Simulations must be a whole number from 1 to {MAX_TRACED_SIMULATIONS}, "
            f"not {simulations}."
        )
    if not (isinstance(exploration, int | float) and math.isfinite(exploration)) or exploration < 0:
        raise InputError(f"The exploration constant must be 0 or more, not {exploration}.")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise InputError(f"The seed must be a whole number of 0 or more, not {seed}.")
    if state.is_terminal():
        raise InputError("The game is over: there is no search to step through.")


def tree_at(trace: MctsTrace, step: int) -> dict[Path, NodeCounts]:
    """Every node of the tree after step ``step`` (from 0) and its counts, in expansion order."""
    nodes: dict[Path, NodeCounts] = {(): NodeCounts()}
    for event in trace.events[: step + 1]:
        if event.phase == "expansion" and event.added is not None:
            nodes[event.path] = event.added
        for update in event.updates:
            nodes[update.path] = update.counts
    return nodes


def ucb1(wins: float, visits: int, parent_visits: int, c: float) -> float:
    """UCB1 as the page writes it: win rate plus ``c * sqrt(ln(parent visits) / visits)``."""
    return wins / visits + c * math.sqrt(math.log(parent_visits) / visits)


def result_text(rewards: Rewards, players: Sequence[str]) -> str:
    """``X wins`` or ``a draw``."""
    if rewards[0] == rewards[1]:
        return "a draw"
    return f"{players[0 if rewards[0] > rewards[1] else 1]} wins"


def chosen_text(
    trace: MctsTrace, format_move: Callable[[Move], str], players: Sequence[str]
) -> str:
    """``c2 (most visited)``, ``c2 (proven win)`` or ``c2 (proven: a draw)``: the move
    played and why it was chosen."""
    move = format_move(trace.move)
    proof = trace.move_proven
    if proof is None:
        return f"{move} (most visited)"
    if proof[trace.state.to_move] == 1.0:
        return f"{move} (proven win)"
    return f"{move} (proven: {result_text(proof, players)})"


MIN_SIMULATIONS_PER_MOVE = 10
"""Fewer simulations than this per root move are too few for the most visited move to mean much."""

SEPARATION_SIGMAS = 2.0
"""The most visited move must lead the runner-up by more than this many standard deviations
of a fair split of their visits (``sqrt(n1 + n2)``) for its lead to be more than chance."""


def too_few_note(trace: MctsTrace, format_move: Callable[[Move], str]) -> str:
    """A caption when the move was chosen on too little evidence, else ``""``.

    A proven move needs none. A move chosen by visits is weak when the search ran
    fewer than :data:`MIN_SIMULATIONS_PER_MOVE` simulations per root move, or when
    its lead over the runner-up is within :data:`SEPARATION_SIGMAS` standard
    deviations of a fair split (``n1 - n2 <= 2 * sqrt(n1 + n2)``): a coin tossed
    between the two moves would often lead by as much.
    """
    moves = len(trace.state.legal_moves())
    if trace.move_proven is not None or trace.root_proven is not None or moves < 2:
        return ""
    first = trace.root_visits.get(trace.move, 0)
    others = {move: n for move, n in trace.root_visits.items() if move != trace.move}
    runner = max(others, key=lambda move: others[move], default=None)
    second = others.get(runner, 0) if runner is not None else 0
    few = trace.simulations < MIN_SIMULATIONS_PER_MOVE * moves
    chance = SEPARATION_SIGMAS * math.sqrt(first + second)
    close = first - second <= chance
    if not (few or close):
        return ""
    visits = f"{format_move(trace.move)} has {first} visit{'' if first == 1 else 's'}"
    if runner is not None:
        visits += f", {format_move(runner)} {second}"
    why = []
    if few:
        why.append(
            f"{trace.simulations} simulations for {moves} moves (fewer than "
            f"{MIN_SIMULATIONS_PER_MOVE} a move)"
        )
    if close:
        why.append(f"a lead of {first - second}, within chance (about {chance:.0f} or less)")
    return (
        f"Too few simulations for this choice to mean much: {visits}; "
        f"{' and '.join(why)}. More simulations, or the solver, would settle it."
    )


def node_name(path: Path, format_move: Callable[[Move], str]) -> str:
    """``the root`` or ``the node after a1 b2``."""
    return "the node after " + " ".join(format_move(m) for m in path) if path else "the root"


def describe(
    event: MctsEvent, format_move: Callable[[Move], str], players: Sequence[str], c: float
) -> str:
    """What the step does, in a sentence or two (markdown-free plain text)."""
    where = node_name(event.path, format_move)
    if event.phase == "selection":
        if not event.choices:
            return "The root still has untried moves, so selection stops at the root."
        picks = "; ".join(
            f"at {node_name(choice.path, format_move)}, {format_move(choice.chosen)} has the "
            f"highest UCB1 ({_chosen_score(choice, c)})"
            for choice in event.choices
        )
        return f"Follow the highest UCB1 (c = {c:g}) down: {picks}. Stop at {where}."
    if event.phase == "expansion":
        if event.added is not None:
            return f"Add a node for the untried move {format_move(event.path[-1])}: {where}."
        return f"Nothing to add at {where}: the game is over or the node is proven."
    if event.phase == "rollout":
        verdict = result_text(event.rewards, players)
        if event.from_proof:
            return f"No roll-out from {where}: the result is known, {verdict}."
        moves = " ".join(format_move(m) for m in event.rollout)
        return f"Random moves from {where}: {moves}. Result: {verdict}."
    return _describe_backup(event, format_move, players)


REWARD_WORDS = {1.0: "a win", 0.5: "half a win (a draw)", 0.0: "no win"}


def _describe_backup(
    event: MctsEvent, format_move: Callable[[Move], str], players: Sequence[str]
) -> str:
    """One node of the back-up: its new counts, and the proof when one moves up."""
    update = event.updates[-1]
    counts = update.counts
    where = node_name(update.path, format_move)
    level = f"node {len(event.updates)} of {len(event.path) + 1} on the way up"
    result = result_text(event.rewards, players)
    text = f"Back-up of the result ({result}): {level}: {where} counts one more visit"
    if counts.mover is None:
        text += f": {counts.visits} visit{'' if counts.visits == 1 else 's'} now."
    else:
        reward = REWARD_WORDS.get(event.rewards[counts.mover], "a part of a win")
        text += (
            f" and {reward} for {players[counts.mover]}, who moved into it: "
            f"{counts.wins:g} wins out of {counts.visits} now."
        )
    proofs = [u for u in event.updates if u.newly_proven]
    start = event.updates[0]
    if start.counts.proven is not None and not start.newly_proven:
        proofs.insert(0, start)  # proven before: a finished game, or an earlier proof
    if update.newly_proven:
        said = ", then ".join(
            f"{node_name(u.path, format_move)} proven ({result_text(u.counts.proven, players)})"
            for u in proofs
        )
        text += f" The proof moves up: {said}."
    elif len(event.updates) == 1 and counts.proven is not None:
        text += f" It is proven: {result_text(counts.proven, players)}."
    return text


def _chosen_score(choice: Choice, c: float) -> str:
    """``0.83 = 0.50 + 0.33``: the chosen child's UCB1, its win rate and exploration bonus."""
    child = next(s for s in choice.children if s.move == choice.chosen)
    rate = child.wins / child.visits
    return f"{child.ucb1:.2f} = {rate:.2f} + {child.ucb1 - rate:.2f}"
