"""The Game of Sim: 6 points, 15 lines, and whoever completes a triangle of their colour loses.

Six points sit on a circle; each of the 15 lines joining two of them starts
uncoloured. Red (player 0) and Blue (player 1) take turns colouring one free
line. A player who completes a triangle of their own colour (three of their
lines joining three of the points) loses at once. A draw is impossible: any
2-colouring of all 15 lines holds a one-colour triangle (Ramsey R(3,3) = 6).
With perfect play the second player wins.

Points are numbered 1–6; a move is the line ``(a, b)`` with ``a < b``,
written ``a-b``. Line ``i`` is bit ``i`` of a 15-bit mask; a state is the
red mask, the blue mask and the side to move, so the exact solver can
memoise over plain integers.

>>> state = initial_state()
>>> len(state.legal_moves()), len(TRIANGLES)
(15, 20)
>>> format_move(parse_move("2-5", state))
'2-5'
>>> solve(state)  # the side to move (the first player) loses with perfect play
-1
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

from lib.errors import InputError
from lib.games.core import ArenaPreset, GameSpec, Heuristic, pruning_pairs

Move = tuple[int, int]
"""A line ``(a, b)`` between points ``a < b`` of 1–6."""

RED, BLUE = 0, 1
RANDOM = "random"
"""The ``first`` option that lets a coin decide who starts."""
PLAYER_NAMES = ("Red", "Blue")
POINTS = 6
LINES: tuple[Move, ...] = tuple(itertools.combinations(range(1, POINTS + 1), 2))
"""The 15 lines, in bit order: line ``LINES[i]`` is bit ``i``."""
LINE_INDEX: dict[Move, int] = {line: i for i, line in enumerate(LINES)}
ALL_LINES = (1 << len(LINES)) - 1


def _line_bit(a: int, b: int) -> int:
    return 1 << LINE_INDEX[(min(a, b), max(a, b))]


TRIANGLES: tuple[int, ...] = tuple(
    _line_bit(a, b) | _line_bit(a, c) | _line_bit(b, c)
    for a, b, c in itertools.combinations(range(1, POINTS + 1), 3)
)
"""The 20 triangles, each the mask of its three lines."""

_CLOSING_PAIRS: tuple[tuple[int, ...], ...] = tuple(
    tuple(t & ~(1 << i) for t in TRIANGLES if t >> i & 1) for i in range(len(LINES))
)
"""Per line, the masks of the two other lines of each of its four triangles."""


def completes_triangle(mask: int, line: int) -> bool:
    """True when colouring line index ``line`` completes a triangle with the lines of ``mask``."""
    return any(mask & pair == pair for pair in _CLOSING_PAIRS[line])


def has_triangle(mask: int) -> bool:
    """True when the lines of ``mask`` contain a triangle."""
    return any(mask & t == t for t in TRIANGLES)


def triangles_in(mask: int) -> list[tuple[int, int, int]]:
    """The triangles (as point triples) whose three lines are all in ``mask``."""
    return [
        triple
        for triple, t in zip(
            itertools.combinations(range(1, POINTS + 1), 3), TRIANGLES, strict=True
        )
        if mask & t == t
    ]


def lines_of(mask: int) -> list[Move]:
    """The lines in ``mask``, in index order."""
    return [line for i, line in enumerate(LINES) if mask >> i & 1]


def mask_of(lines: Iterable[Move]) -> int:
    """The mask of the given lines ``(a, b)`` (either order)."""
    mask = 0
    for a, b in lines:
        if not (1 <= a <= POINTS and 1 <= b <= POINTS) or a == b:
            raise InputError(f"There is no line {a}-{b}: points are 1 to 6 and two different.")
        mask |= _line_bit(a, b)
    return mask


class SimState(NamedTuple):
    """A Sim position: the red and blue line masks and the side to move (0 red, 1 blue)."""

    red: int
    blue: int
    to_move: int = RED

    @property
    def key(self) -> tuple[int, int, int]:
        """The position itself (a compact tuple of integers)."""
        return tuple(self)  # type: ignore[return-value]

    def own_and_opponent(self, player: int | None = None) -> tuple[int, int]:
        """The line masks of ``player`` (default: the side to move) and of the other side."""
        player = self.to_move if player is None else player
        return (self.red, self.blue) if player == RED else (self.blue, self.red)

    def free(self) -> int:
        """Mask of the uncoloured lines."""
        return ALL_LINES & ~(self.red | self.blue)

    def loser(self) -> int | None:
        """The player who completed a triangle of their colour, or None."""
        if has_triangle(self.red):
            return RED
        if has_triangle(self.blue):
            return BLUE
        return None

    def legal_moves(self) -> list[Move]:
        """The free lines (none once somebody has completed a triangle)."""
        if self.loser() is not None:
            return []
        free = self.free()
        return [line for i, line in enumerate(LINES) if free >> i & 1]

    def play(self, move: Move) -> SimState:
        """The position after the side to move colours line ``move``."""
        bit = 1 << LINE_INDEX[move]
        if self.to_move == RED:
            return SimState(self.red | bit, self.blue, BLUE)
        return SimState(self.red, self.blue | bit, RED)

    def is_terminal(self) -> bool:
        """True once a one-colour triangle exists (this always happens by the 15th line)."""
        return self.loser() is not None

    def winner(self) -> int | None:
        """The player who did not complete a triangle; None while the game goes on."""
        loser = self.loser()
        return None if loser is None else 1 - loser

    def coloured(self) -> int:
        """The number of lines coloured so far."""
        return (self.red | self.blue).bit_count()

    def score(self, player: int) -> float:
        """For a finished game ±(1 + free lines): a quick win scores most, a late loss least badly.

        Zero while the game goes on.
        """
        winner = self.winner()
        if winner is None:
            return 0.0
        margin = 1.0 + len(LINES) - self.coloured()
        return margin if winner == player else -margin

    def __str__(self) -> str:
        red = " ".join(format_move(line) for line in lines_of(self.red)) or "-"
        blue = " ".join(format_move(line) for line in lines_of(self.blue)) or "-"
        return f"Red: {red}\nBlue: {blue}\n{PLAYER_NAMES[self.to_move]} to move"


def initial_state(first: int | str = RED, seed: int | None = None) -> SimState:
    """The empty board with ``first`` to move.

    ``first`` is a player number (0 Red, 1 Blue), a colour name (``"red"``,
    ``"blue"``) or ``"random"``, which tosses a coin with
    ``numpy.random.default_rng(seed)`` (the same seed gives the same first player).
    """
    if isinstance(first, str):
        names = {name.lower(): player for player, name in enumerate(PLAYER_NAMES)}
        if first.lower() == RANDOM:
            first = int(np.random.default_rng(seed).integers(2))
        elif first.lower() in names:
            first = names[first.lower()]
    if isinstance(first, bool) or first not in (RED, BLUE):
        raise InputError(f"The first player must be red, blue or random (or 0 / 1), got {first!r}.")
    return SimState(0, 0, int(first))


def position(red: Iterable[Move] = (), blue: Iterable[Move] = (), to_move: int = RED) -> SimState:
    """Set up a position from the lines of each colour."""
    red_mask, blue_mask = mask_of(red), mask_of(blue)
    if red_mask & blue_mask:
        line = lines_of(red_mask & blue_mask)[0]
        raise InputError(f"Line {format_move(line)} cannot be both red and blue.")
    if to_move not in (RED, BLUE):
        raise InputError(f"to_move must be 0 (Red) or 1 (Blue), got {to_move!r}.")
    return SimState(red_mask, blue_mask, to_move)


_MOVE_RE = re.compile(r"^\s*([1-6])\s*[-–\s]\s*([1-6])\s*$")


def format_move(move: Move) -> str:
    """``a-b`` for the line between points ``a`` and ``b``."""
    return f"{move[0]}-{move[1]}"


def parse_move(text: str, state: SimState) -> Move:
    """The free line written ``text`` (``2-5``; ``5-2`` means the same line)."""
    match = _MOVE_RE.match(str(text))
    if not match:
        raise InputError(
            f"Cannot read the line {text!r}: write two different points 1–6 joined by '-', "
            "for example 2-5."
        )
    a, b = int(match[1]), int(match[2])
    if a == b:
        raise InputError(f"{text!r} joins point {a} to itself; pick two different points.")
    line = (min(a, b), max(a, b))
    if state.is_terminal():
        raise InputError(f"The game is over; line {format_move(line)} cannot be coloured.")
    if state.free() >> LINE_INDEX[line] & 1 == 0:
        colour = "red" if state.red >> LINE_INDEX[line] & 1 else "blue"
        raise InputError(f"Line {format_move(line)} is already {colour}; pick a free line.")
    return line


# --------------------------------------------------------------------------- exact solution


def _dead_line_table() -> tuple[int, ...]:
    """Per 15-bit mask of one colour's lines, the mask of free lines that would close a triangle."""
    masks = np.arange(1 << len(LINES), dtype=np.int64)
    counts = np.zeros_like(masks)
    for i in range(len(LINES)):
        counts += (masks >> i) & 1
    dead = np.zeros_like(masks)
    for triangle in TRIANGLES:
        inside = masks & triangle
        two = np.zeros_like(masks)
        for i in range(len(LINES)):
            two += (inside >> i) & 1
        dead |= np.where(two == 2, triangle & ~masks, 0)
    return tuple(dead.tolist())


DEAD_LINES: tuple[int, ...] = _dead_line_table()
"""``DEAD_LINES[mask]``: lines (not in ``mask``) that complete a triangle with ``mask``'s lines."""

PERMUTATIONS: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(1, POINTS + 1)))
"""The 720 relabellings of the points; relabelling maps lines to lines."""


def _line_permutation_tables() -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Per point permutation, lookup tables mapping the low 8 and high 7 bits of a line mask."""
    images = np.array(
        [
            [LINE_INDEX[(min(p[a - 1], p[b - 1]), max(p[a - 1], p[b - 1]))] for a, b in LINES]
            for p in PERMUTATIONS
        ],
        dtype=np.int64,
    )
    tables = []
    for low, width in ((0, 8), (8, 7)):
        chunk = np.arange(1 << width, dtype=np.int64)
        mapped = np.zeros((len(PERMUTATIONS), 1 << width), dtype=np.int64)
        for i in range(width):
            mapped |= ((chunk >> i) & 1)[None, :] << images[:, low + i][:, None]
        tables.append(mapped.tolist())
    return tuple((tuple(lo), tuple(hi)) for lo, hi in zip(*tables, strict=True))


_PERM_TABLES = _line_permutation_tables()
_SYMMETRY_UP_TO = 4
"""Positions with at most this many coloured lines are memoised up to point permutations."""


def canonical_key(own: int, opp: int) -> int:
    """The smallest ``own << 15 | opp`` over the 720 point relabellings (a symmetry class key)."""
    own_lo, own_hi, opp_lo, opp_hi = own & 255, own >> 8, opp & 255, opp >> 8
    return min((lo[own_lo] | hi[own_hi]) << 15 | lo[opp_lo] | hi[opp_hi] for lo, hi in _PERM_TABLES)


def _solve(own: int, opp: int, memo: dict[int, int]) -> int:
    """+1 if the side to move (lines ``own``) wins against ``opp`` with perfect play, else -1.

    Near the empty board (few coloured lines) positions are memoised under a
    canonical key, so the 15 first lines, all alike, are solved once.
    """
    near_start = (own | opp).bit_count() <= _SYMMETRY_UP_TO
    key = canonical_key(own, opp) if near_start else own << 15 | opp
    known = memo.get(key)
    if known is not None:
        return known
    free = ALL_LINES & ~(own | opp)
    safe = free & ~DEAD_LINES[own]  # a dead line would complete our own triangle: never play it
    opp_dead = DEAD_LINES[opp]
    candidates = safe
    while candidates:  # a line after which every free line is deadly to the opponent wins now
        bit = candidates & -candidates
        candidates ^= bit
        if not (free ^ bit) & ~opp_dead:
            memo[key] = 1
            return 1
    result = -1
    while safe:
        bit = safe & -safe
        safe ^= bit
        if _solve(opp, own | bit, memo) < 0:
            result = 1
            break
    memo[key] = result
    return result


def solve(state: SimState, memo: dict[int, int] | None = None) -> int:
    """Exact value of ``state`` for the side to move: +1 win, -1 loss with perfect play.

    A finished game is scored for the side to move (who never completed the
    triangle, so +1). ``memo`` may be shared between calls on related positions
    (it maps position keys to values); by default each call starts afresh,
    so nothing is kept between sessions.
    """
    if state.is_terminal():
        return 1 if state.winner() == state.to_move else -1
    own, opp = state.own_and_opponent()
    return _solve(own, opp, {} if memo is None else memo)


def move_values(state: SimState, memo: dict[int, int] | None = None) -> dict[Move, int]:
    """Per free line: +1 if colouring it wins for the side to move with perfect play, else -1."""
    memo = {} if memo is None else memo
    values = {}
    for move in state.legal_moves():
        values[move] = -solve(state.play(move), memo)
    return values


# --------------------------------------------------------------------------- heuristics


def dead_lines(state: SimState, player: int) -> int:
    """Free lines that would complete a triangle of ``player``'s colour."""
    own, _ = state.own_and_opponent(player)
    return (state.free() & DEAD_LINES[own]).bit_count()


def _threats(state: SimState, player: int, weights: tuple[float, ...]) -> float:
    """The course's count: +1 per free line deadly to the opponent, −1 per line deadly to us."""
    (weight,) = weights
    return weight * (dead_lines(state, 1 - player) - dead_lines(state, player))


def _threats_late_loss(state: SimState, player: int, weights: tuple[float, ...]) -> float:
    """Threat count; a mover left with only deadly lines is lost, the later the better."""
    w_threat, w_doomed = weights
    value = _threats(state, player, (w_threat,))
    mover = state.to_move
    free = state.free()
    if free and dead_lines(state, mover) == free.bit_count():
        # the mover must complete a triangle now: a certain loss, better the later it comes
        doomed = w_doomed * (len(LINES) + 1 - state.coloured())
        value += -doomed if mover == player else doomed
    return value


HEURISTICS: dict[str, Heuristic] = {
    "threats": Heuristic(
        name="threats",
        description=(
            "The course's triangle-threat count: for every free line, −1 if it would "
            "complete a triangle of your colour, +1 if it would complete one of the "
            "opponent's."
        ),
        function=_threats,
        weight_names=("threat",),
        default_weights=(1.0,),
    ),
    "late loss": Heuristic(
        name="late loss",
        description=(
            "Threat count, plus the course's rule of losing as late as possible: a "
            "position where the side to move has only triangle-completing lines left is "
            "scored as lost, less badly the more lines are already coloured."
        ),
        function=_threats_late_loss,
        weight_names=("threat", "doomed"),
        default_weights=(1.0, 20.0),
    ),
}


# --------------------------------------------------------------------------- perfect player


def perfect_move(
    state: SimState, rng: np.random.Generator, memo: dict[int, int] | None = None
) -> tuple[Move, dict[Move, float]]:
    """A perfect-play move and the exact value (+1 win / −1 loss) of every free line.

    A winning line is chosen at random among the winning ones. In a lost
    position every line loses against perfect play, so the player holds out
    for a fallible opponent: it avoids completing its own triangle and, among
    the other lines, takes the best by the course's threat count after the
    move (the most lines left that are deadly to the opponent rather than to
    itself), breaking ties at random.
    """
    moves = state.legal_moves()
    if not moves:
        raise InputError("The game is over: there is no line left to colour.")
    memo = {} if memo is None else memo
    values = {move: float(-solve(state.play(move), memo)) for move in moves}
    winning = [move for move in moves if values[move] > 0]
    if winning:
        return winning[int(rng.integers(len(winning)))], values
    player = state.to_move
    own, _ = state.own_and_opponent()

    def holding_out(move: Move) -> float:
        if completes_triangle(own, LINE_INDEX[move]):
            return -math.inf
        return _threats(state.play(move), player, (1.0,))

    scores = {move: holding_out(move) for move in moves}
    best = max(scores.values())
    candidates = [move for move in moves if scores[move] == best]
    return candidates[int(rng.integers(len(candidates)))], values


GAME = GameSpec(
    name="sim",
    title="The Game of Sim",
    initial_state=initial_state,
    format_move=format_move,
    parse_move=parse_move,
    heuristics=HEURISTICS,
    default_heuristic="threats",
    state_type=SimState,
    player_names=PLAYER_NAMES,
    options={"first": ("red", "blue", RANDOM)},
    option_labels={"first": "Who starts"},
    option_formats={"first": {"red": "Red", "blue": "Blue", RANDOM: "Coin toss"}},
    players={"perfect": "lib.games.sim.player:make_perfect_player"},
    solver_kind="perfect",
    default_player="alphabeta:time=1",  # deepens while its second lasts
    view="lib.games.sim.view",
    features="lib.games.sim.features",
    icon=":material/change_history:",
    teaches="Colour lines on six points without closing a triangle: the course's "
    "triangle-threat heuristic against an exact solver that knows who wins from any position.",
    order=30,
    step_examples=(
        (
            "Seven lines left, Red to move (Blue wins)",
            ("1-2", "1-3", "2-3", "2-4", "5-6", "1-4", "3-4", "2-5"),
        ),
        (
            "Six lines left, Blue to move (Blue wins)",
            ("1-2", "1-3", "2-3", "2-4", "5-6", "1-4", "3-4", "2-5", "1-5"),
        ),
        (
            "Five lines left, Red to move (Blue wins)",
            ("1-2", "1-3", "2-3", "2-4", "5-6", "1-4", "3-4", "2-5", "1-5", "3-5"),
        ),
    ),
    presets=(
        ArenaPreset(
            "sim_pruning",
            "Sim: depths 1/3/5/7 with and without pruning vs random",
            "The Sim table: minimax and alpha-beta against random. Minimax at depth 7 "
            "(about 30 million nodes for the first move) is left out; run it from the "
            "command line if you have the hours.",
            pruning_pairs((1, 3, 5, 7), (1, 3, 5)),
        ),
    ),
)
