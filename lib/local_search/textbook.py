"""The local searches of AIMA chapter 4 and min-conflicts (6.4) on n-queens, as the book has them.

Each function is the book's pseudocode over a :class:`~lib.local_search.queens.Board`
(``h`` = attacking pairs, lower is better: the book's "value" is ``-h``), takes
every random choice from a :class:`~lib.local_search.randomness.Uniforms` stream
and reports each step to a :class:`~lib.local_search.trace.Tracer`. They return
the board they end on. The fast paths (:mod:`lib.local_search.fast`) make the
same choices from the same stream; the tests check they end on the same board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from lib.errors import InputError
from lib.local_search.queens import Board, max_pairs
from lib.local_search.randomness import Uniforms
from lib.local_search.trace import Tracer

SCHEDULES = ("exponential", "linear")
GREEDY_TRIES = 200
"""Free rows the greedy first assignment tries per column (a million queens: ~12 pairs left)."""


def best_neighbours(board: Board) -> tuple[int, list[tuple[int, int]]]:
    """The lowest ``h`` of all neighbours and the moves reaching it (:meth:`Board.moves` order)."""
    best, moves = math.inf, []
    for column, row in board.moves():
        h = board.h_after(column, row)
        if h < best:
            best, moves = h, [(column, row)]
        elif h == best:
            moves.append((column, row))
    return int(best), moves


def hill_climbing(board: Board, rand: Uniforms, tracer: Tracer, max_sideways: int = 0) -> Board:
    """Steepest-ascent hill climbing (AIMA Figure 4.2), ``max_sideways`` sideways moves in a row."""
    sideways = 0
    while board.h > 0:
        best_h, moves = best_neighbours(board)
        if best_h > board.h:
            break  # a local minimum: every neighbour is worse
        if best_h == board.h:
            if sideways == max_sideways:
                break  # a plateau or shoulder, and no sideways move left
            sideways += 1
        else:
            sideways = 0
        note = "sideways" if best_h == board.h else "uphill"
        move = rand.choice(moves)  # ties between the best neighbours broken at random
        board.move(*move)
        tracer.step(board.rows, board.h, move, note)
    return board


def random_restart(
    n: int, rand: Uniforms, tracer: Tracer, max_sideways: int = 0, max_restarts: int = 1_000
) -> Board:
    """Random-restart hill climbing: climb from fresh random states until one reaches a goal."""
    board = Board.random(n, rand)
    tracer.start(board.rows, board.h)
    hill_climbing(board, rand, tracer, max_sideways)
    while board.h > 0 and tracer.restarts < max_restarts:
        tracer.restart()
        board = Board.random(n, rand)
        tracer.start(board.rows, board.h, "restart")
        hill_climbing(board, rand, tracer, max_sideways)
    return board


def first_choice(board: Board, rand: Uniforms, tracer: Tracer, max_tries: int) -> Board:
    """First-choice hill climbing: random neighbours until one is better; ``max_tries`` at most."""
    while board.h > 0:
        for _ in range(max_tries):
            move = board.random_move(rand)
            if board.h_after(*move) < board.h:
                board.move(*move)
                tracer.step(board.rows, board.h, move, "uphill")
                break
        else:
            break  # no better neighbour found in max_tries draws
    return board


def stochastic_hill_climbing(board: Board, rand: Uniforms, tracer: Tracer) -> Board:
    """Stochastic hill climbing: a random uphill move, more likely the steeper it is."""
    while board.h > 0:
        uphill = [move for move in board.moves() if board.h_after(*move) < board.h]
        if not uphill:
            break  # a local minimum
        steepness = [board.h - board.h_after(*move) for move in uphill]
        move = rand.weighted(uphill, steepness)
        board.move(*move)
        tracer.step(board.rows, board.h, move, "uphill")
    return board


@dataclass(frozen=True)
class Schedule:
    """Temperature by time for simulated annealing: ``T(t)``, 0 from ``limit`` on.

    ``exponential``: ``T0 * exp(-rate * t)`` (AIMA's ``exp_schedule``);
    ``linear``: ``T0 * (1 - t / limit)``.
    """

    kind: str = "exponential"
    t0: float = 2.0
    rate: float = 0.005
    limit: int = 2_000

    def __post_init__(self) -> None:
        if self.kind not in SCHEDULES:
            raise InputError(f"Schedule {self.kind!r} is not one of {', '.join(SCHEDULES)}.")
        if not (math.isfinite(self.t0) and self.t0 > 0):
            raise InputError(f"The starting temperature must be above 0; got {self.t0!r}.")
        if not (math.isfinite(self.rate) and self.rate >= 0):
            raise InputError(f"The cooling rate must be 0 or more; got {self.rate!r}.")
        if not 1 <= self.limit <= 10_000_000:
            raise InputError(f"The step limit must be from 1 to 10,000,000; got {self.limit!r}.")

    def __call__(self, t: int) -> float:
        """The temperature at time ``t`` (0 once ``t >= limit``)."""
        if t >= self.limit:
            return 0.0
        if self.kind == "linear":
            return self.t0 * (1 - t / self.limit)
        return self.t0 * math.exp(-self.rate * t)


def simulated_annealing(board: Board, rand: Uniforms, tracer: Tracer, schedule: Schedule) -> Board:
    """Simulated annealing (AIMA Figure 4.5): a worse neighbour is taken with chance e^(ΔE/T)."""
    t = 0
    while board.h > 0:
        t += 1
        temperature = schedule(t)
        if temperature == 0:
            break
        move = board.random_move(rand)
        delta_e = board.h - board.h_after(*move)  # value(next) - value(current), value = -h
        if delta_e > 0 or rand.uniform() < math.exp(delta_e / temperature):
            board.move(*move)
            tracer.step(board.rows, board.h, move, "uphill" if delta_e > 0 else "accepted")
        else:
            tracer.step(board.rows, board.h, None, "rejected")
    return board


def local_beam_search(
    n: int, rand: Uniforms, tracer: Tracer, k: int = 10, max_steps: int = 200
) -> Board:
    """Local beam search: keep the ``k`` best of all the beam's neighbours (AIMA Section 4.1.3).

    The tracer follows the beam's best state. Ties between equally good
    neighbours are broken at random (the list is shuffled, then sorted by ``h``).
    """
    beam = [Board.random(n, rand) for _ in range(k)]
    best = min(beam, key=lambda board: board.h)
    tracer.start(best.rows, best.h)
    for _ in range(max_steps):
        if best.h == 0:
            break
        successors = [
            (board.h_after(*move), i, move)
            for i, board in enumerate(beam)
            for move in board.moves()
        ]
        rand.shuffle(successors)
        successors.sort(key=lambda successor: successor[0])
        chosen = []
        for _, i, move in successors[:k]:
            board = beam[i].copy()
            board.move(*move)
            chosen.append(board)
        beam = chosen
        best = beam[0]
        tracer.step(best.rows, best.h, None, f"beam of {k}: h {beam[0].h}–{beam[-1].h}")
    return best


def genetic_algorithm(
    n: int,
    rand: Uniforms,
    tracer: Tracer,
    population_size: int = 50,
    p_mutation: float = 0.1,
    max_generations: int = 500,
) -> Board:
    """The genetic algorithm of AIMA Figure 4.8 (fitness: non-attacking pairs; one-point crossover).

    The tracer follows the population's best state, one step per generation.
    """
    population = [Board.random(n, rand) for _ in range(population_size)]
    best = min(population, key=lambda board: board.h)
    tracer.start(best.rows, best.h)
    for _ in range(max_generations):
        if best.h == 0:
            break
        fitness = [max_pairs(n) - board.h for board in population]
        children = []
        for _ in range(population_size):
            x = rand.weighted(population, fitness)
            y = rand.weighted(population, fitness)
            child = reproduce(x, y, rand)
            if rand.uniform() < p_mutation:
                child.move(rand.below(n), rand.below(n))
            children.append(child)
        population = children
        best = min(population, key=lambda board: board.h)
        tracer.step(best.rows, best.h, None, "best of the generation")
    return best


def reproduce(x: Board, y: Board, rand: Uniforms) -> Board:
    """A child: ``x``'s queens up to a random crossover point, ``y``'s after it."""
    c = 1 + rand.below(x.n - 1)
    return Board(x.rows[:c] + y.rows[c:])


def greedy_start(n: int, rand: Uniforms, tries: int = GREEDY_TRIES) -> Board:
    """A greedy min-conflicts first assignment (Minton et al. 1992), sampled.

    Column by column, the queen goes on the row with the fewest conflicts with the
    queens already placed, among up to ``tries`` random rows not used yet (the first
    conflict-free one is taken): rows are never shared, few diagonals are.
    """
    board = Board([-1] * n)
    free = list(range(n))  # free[column:] are the rows not used yet
    for column in range(n):
        best = None
        for _ in range(min(tries, n - column)):
            j = column + rand.below(n - column)
            conflicts = board.attacks(column, free[j])
            if best is None or conflicts < best[0]:
                best = (conflicts, j)
            if conflicts == 0:
                break
        j = best[1]
        free[column], free[j] = free[j], free[column]
        board.place(column, free[column])
    return board


def min_conflicts(board: Board, rand: Uniforms, tracer: Tracer, max_steps: int) -> Board:
    """Min-conflicts (AIMA Figure 6.8): a random conflicted queen goes to its least-attacked row."""
    for _ in range(max_steps):
        if board.h == 0:
            break
        conflicted = [c for c in range(board.n) if board.attacks(c, board.rows[c]) > 0]
        column = rand.choice(conflicted)
        fewest = min(board.attacks(column, row) for row in range(board.n))
        rows = [row for row in range(board.n) if board.attacks(column, row) == fewest]
        row = rand.choice(rows)
        board.move(column, row)
        tracer.step(board.rows, board.h, (column, row), f"{fewest} conflicts")
    return board
