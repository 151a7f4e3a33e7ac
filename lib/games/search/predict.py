"""Predict, then reveal: what alpha-beta cuts and what minimax chooses, and scoring a guess.

Before stepping through a search a student guesses its outcome, then the page
reveals the truth and scores the guess:

* on a tree (a textbook tree or one the student typed), which branches
  alpha-beta cuts off (:func:`pruned_edges`) and the root's value
  (:func:`score_tree_prediction`);
* on a game position, which move minimax chooses at a depth
  (:func:`root_move_values`, :func:`score_move_prediction`; :func:`explain_move_choice`
  says why in words, for a class poll's reveal).

A branch (an edge) is named by the path of the node it leads to, a tuple of
moves from the root. The branches a cut-off skips are the ones the step-through
draws as grey stubs; what hangs below them is never reached either, so a guess
that names a branch below a guessed cut is not counted against the student.

>>> from lib.games import textbook_tree
>>> root = textbook_tree.initial_state(textbook_tree.AIMA_FIGURE_5_2)
>>> sorted(pruned_edges(root, 2, textbook_tree.leaf_value))
[(1, 1), (1, 2)]
>>> edge_name((1, 2), textbook_tree.format_move)
'M→M R'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from lib.errors import InputError
from lib.games.search.fast import choose_move
from lib.games.search.reference import NullTracer, alphabeta_search
from lib.games.search.stepthrough import OrderedState, UnwrapOrdered, value_text

Move = Hashable
Path = tuple[Move, ...]
EvaluateFunction = Callable[[Any, int], float]

CUT_QUESTION = "which branches will alpha-beta skip, and what will the root be worth?"
"""The question a guess of a tree's cut-offs answers (what :func:`score_tree_prediction` scores)."""

CUT_HELP = (
    "Pick every branch a cut-off skips: when a node stops early, each of its moves left "
    "unsearched is one branch (a MIN node that stops after one of its three moves skips "
    "the other two). Name a branch parent→child by the nodes' paths (L, M, R from the root); what "
    "hangs below a picked branch is skipped with it, so need not be picked. One mark per "
    "skipped branch picked and one for the root value; one off per picked branch that is "
    "searched."
)
"""How to answer :data:`CUT_QUESTION`: the textbook's notion (AIMA figure 5.5 crosses out
both leaves of the second MIN node left unexamined), which the scoring counts."""

VALUE_TOLERANCE = 1e-6
"""A guessed value this close to the true one is right (typed decimals are not exact)."""


class _CutTracer(NullTracer):
    """Collects the paths of the moves each cut-off skips."""

    def __init__(self) -> None:
        self.path: list[Move | None] = []
        self.cut: set[Path] = set()

    def enter(self, state: Any, ply: int, alpha: float, beta: float, move: Move | None) -> None:
        """Push the move that led here."""
        self.path.append(move)

    def cutoff(self, pruned_moves: Sequence[Move]) -> None:
        """Each skipped move of the node entered last is a cut branch."""
        here = tuple(self.path[1:])
        self.cut.update((*here, move) for move in pruned_moves)

    def exit(self, value: float) -> None:
        """Pop the node."""
        self.path.pop()


def pruned_edges(
    state: Any, depth: int, evaluate: EvaluateFunction, *, ordering: bool = False
) -> frozenset[Path]:
    """The branches the textbook alpha-beta cuts off searching ``state`` ``depth`` plies deep.

    Each is the path (moves from the root) of a child a cut-off skipped, as drawn by
    the step-through. With ``ordering`` the moves are searched best-first by a
    one-ply look (:class:`~lib.games.search.stepthrough.OrderedState`), as there.
    """
    root: Any = state
    if ordering:
        root, evaluate = OrderedState(state, evaluate), UnwrapOrdered(evaluate)
    tracer = _CutTracer()
    alphabeta_search(root, depth, evaluate, tracer)
    return frozenset(tracer.cut)


def tree_edges(tree: Any) -> list[Path]:
    """Every branch of a nested-tuple tree (its children's paths), depth-first, left to right."""
    edges: list[Path] = []
    stack: list[tuple[Any, Path]] = [(tree, ())]
    while stack:
        node, path = stack.pop()
        if path:
            edges.append(path)
        if isinstance(node, tuple):
            stack.extend((child, (*path, i)) for i, child in reversed(list(enumerate(node))))
    return edges


def edge_name(path: Sequence[Move], format_move: Callable[[Move], str]) -> str:
    """``parent→child`` with both nodes named by their paths, e.g. ``root→L`` or ``M→M R``."""
    names = [format_move(move) for move in path]
    parent = " ".join(names[:-1]) or "root"
    return f"{parent}→{' '.join(names)}"


def _below_another(path: Path, chosen: set[Path]) -> bool:
    return any(path[:i] in chosen for i in range(1, len(path)))


@dataclass(frozen=True)
class TreePredictionScore:
    """A guess of alpha-beta's cut-offs and the root value, against the search.

    ``right``, ``missed`` and ``extra`` are branch paths (guessed and cut, cut but
    not guessed, guessed but not cut), each sorted; ``value`` is the root's true
    value, ``guess`` the guessed one (None: no guess).
    """

    right: tuple[Path, ...]
    missed: tuple[Path, ...]
    extra: tuple[Path, ...]
    guess: float | None
    value: float

    @property
    def value_right(self) -> bool:
        """Whether the guessed root value is the true one."""
        return self.guess is not None and math.isclose(
            self.guess, self.value, rel_tol=0, abs_tol=VALUE_TOLERANCE
        )

    @property
    def marks(self) -> int:
        """One mark per cut branch guessed and one for the value; one off per extra branch."""
        return max(len(self.right) + int(self.value_right) - len(self.extra), 0)

    @property
    def out_of(self) -> int:
        """Full marks: every cut branch and the value."""
        return len(self.right) + len(self.missed) + 1

    @property
    def full_marks(self) -> bool:
        """Every cut branch, no extra one, and the value."""
        return not self.missed and not self.extra and self.value_right


def score_tree_prediction(
    guessed: Iterable[Path], guess: float | None, cut: Iterable[Path], value: float
) -> TreePredictionScore:
    """Score a guess of the branches cut (``guessed``) and of the root value (``guess``).

    ``cut`` and ``value`` are the truth (:func:`pruned_edges` and the search's value).
    A guessed branch below another guessed branch is dropped first: it hangs under a
    branch the student already says is skipped.
    """
    chosen = set(guessed)
    chosen = {path for path in chosen if not _below_another(path, chosen)}
    truth = set(cut)
    return TreePredictionScore(
        right=tuple(sorted(chosen & truth)),
        missed=tuple(sorted(truth - chosen)),
        extra=tuple(sorted(chosen - truth)),
        guess=guess,
        value=float(value),
    )


def root_move_values(state: Any, depth: int, evaluate: EvaluateFunction) -> dict[Move, float]:
    """The minimax value of every move of ``state`` searched ``depth`` plies deep, in move order.

    Exact values (alpha-beta with a full window for each root move, the same values
    as the textbook minimax), from the point of view of the player to move.

    Raises :class:`InputError` for a finished game or a depth out of range.
    """
    result = choose_move(
        state,
        algorithm="alphabeta",
        depth=depth,
        heuristic=evaluate,
        exact_root_scores=True,
        transposition=False,
    )
    scores = result.stats.root_scores
    return {move: scores[move] for move in state.legal_moves()}


def minimax_choice(values: dict[Move, float]) -> Move:
    """The move the textbook minimax picks: the first (in move order) of the highest value."""
    if not values:
        raise InputError("There is no move to choose from.")
    best = max(values.values())
    return next(move for move, value in values.items() if value == best)


@dataclass(frozen=True)
class MovePredictionScore:
    """A guess of minimax's move: ``guess``, the move ``chosen`` and every root move's value."""

    guess: Move
    chosen: Move
    values: dict[Move, float]

    @property
    def right(self) -> bool:
        """Whether the guessed move is minimax's, or as good as it (a tie)."""
        return self.values.get(self.guess) == self.values[self.chosen]

    @property
    def tie(self) -> bool:
        """A different move of the same value: as good, but not the one minimax returns."""
        return self.right and self.guess != self.chosen


def move_question(depth: int) -> str:
    """The question a guess of minimax's move answers, ``depth`` plies deep.

    >>> move_question(1)
    'Which move will minimax choose, 1 ply deep?'
    """
    return f"Which move will minimax choose, {depth} pl{'y' if depth == 1 else 'ies'} deep?"


def explain_move_choice(
    values: dict[Move, float], format_move: Callable[[Move], str], depth: int
) -> str:
    """Why minimax picks its move, in words: the move, every root move's value in move
    order (the single-student reveal's table), and the moves as good as it.

    >>> print(explain_move_choice({"a": 1.0, "b": 5.0, "c": 5.0}, str, 2))
    Minimax chooses b: its value, 2 plies deep for the player to move, is 5, the highest. \
Every move's value: a 1, b 5, c 5. c is as good (5 too); minimax keeps the first best move \
in move order.
    """
    chosen = minimax_choice(values)
    best = values[chosen]
    every = ", ".join(f"{format_move(m)} {value_text(v)}" for m, v in values.items())
    text = (
        f"Minimax chooses {format_move(chosen)}: its value, {depth} pl"
        f"{'y' if depth == 1 else 'ies'} deep for the player to move, is {value_text(best)}, "
        f"the highest. Every move's value: {every}."
    )
    ties = [format_move(m) for m, v in values.items() if v == best and m != chosen]
    if ties:
        verb = "is" if len(ties) == 1 else "are"
        text += (
            f" {', '.join(ties)} {verb} as good ({value_text(best)} too); minimax keeps the "
            "first best move in move order."
        )
    return text


def score_move_prediction(guess: Move, values: dict[Move, float]) -> MovePredictionScore:
    """Score the guessed move ``guess`` against the root moves' ``values``.

    Raises :class:`InputError` when ``guess`` is not one of the moves.
    """
    if guess not in values:
        raise InputError(f"The guessed move {guess!r} is not a move of this position.")
    return MovePredictionScore(guess, minimax_choice(values), dict(values))


def reveal_tree(
    state: Any,
    depth: int,
    evaluate: EvaluateFunction,
    guessed: Iterable[Path],
    guess: float | None,
    *,
    ordering: bool = False,
) -> TreePredictionScore:
    """Run alpha-beta on ``state`` and score the guess of its cut branches and root value."""
    cut = pruned_edges(state, depth, evaluate, ordering=ordering)
    value, _ = alphabeta_search(state, depth, evaluate)
    return score_tree_prediction(guessed, guess, cut, value)
