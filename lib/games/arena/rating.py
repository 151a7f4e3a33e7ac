"""Ratings from game results: a Bradley–Terry fit on the Elo scale, with confidence intervals.

The model (Bradley and Terry 1952; Elo's expected score): each player *i* has
a rating :math:`R_i` and

.. math:: P(i \\text{ beats } j) = \\frac{1}{1 + 10^{(R_j - R_i)/400}},

so 400 points more means odds of 10 to 1. A draw counts as half a win for
each side (the expected-score reading of Elo): a game scores ``s`` = 1, ½ or 0
for *i* and adds ``s·log P + (1 − s)·log(1 − P)`` to the log-likelihood.

Choices made here, and why:

* **Prior.** Maximum likelihood has no finite answer when a player wins (or
  loses) every game, which a ladder with a random player always has. Each
  rating gets an independent Gaussian prior ``N(0, prior_sd²)`` (default
  :data:`PRIOR_SD` = 1000 Elo) and the fit is its maximum a posteriori
  estimate: perfect records get large but finite ratings, and the shrinkage of
  an ordinary result is small (7–3 between two players: 146 Elo instead of 147).
  ``prior_sd=None`` gives the plain maximum likelihood fit, refused (an
  :class:`~lib.errors.InputError`) when it does not exist.
* **Anchor.** Only differences are identified. Ratings are shifted so that the
  ``anchor`` player is at 0, or so that their mean is 0 without one (the
  ladder's default: a random player that loses every game is a poor anchor,
  its own rating being the least certain of all).
* **Interval.** From the curvature of the log-posterior at its maximum (the
  observed Fisher information plus the prior's precision; a Laplace / Wald
  interval): ``R ± z·sd`` with the standard deviation of each anchored rating
  (of its difference to the anchor, so the anchor's own interval is 0 wide).
  For perfect records the true uncertainty is one-sided; the interval is then
  only a rough width.

:func:`fit_ratings` is the reference written as the formulas read (Newton's
method on the log-posterior); the tests check it against a direct
``scipy.optimize`` fit and the two-player closed form
``R_A − R_B = 400·log10(p / (1 − p))``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import expit
from scipy.stats import norm

from lib.errors import InputError

ELO_PER_NAT = 400 / math.log(10)
"""Elo points per unit of log-odds (natural log): 400 Elo = odds of 10 to 1."""

PRIOR_SD = 1000.0
"""Default standard deviation (Elo) of the Gaussian prior on each rating."""

MAX_PLAIN_ELO = 5000.0
"""Without a prior, a fit whose ratings spread further than this is taken as diverging."""


@dataclass(frozen=True)
class Ratings:
    """Fitted ratings (Elo scale) of ``players``, in the order given, with their intervals.

    ``elo[i]`` is anchored (see the module docstring); ``low`` / ``high`` are
    the ``confidence`` interval; ``covariance`` is that of the anchored ratings
    (Elo²); ``iterations`` are Newton steps taken.
    """

    players: tuple[str, ...]
    elo: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    covariance: np.ndarray
    anchor: str | None
    prior_sd: float | None
    confidence: float
    iterations: int

    def rating(self, player: str) -> float:
        """The rating of ``player``."""
        return self.elo[self.players.index(player)]


def expected_score(elo_a: float, elo_b: float) -> float:
    """Elo's expected score of A against B: ``1 / (1 + 10 ** ((elo_b - elo_a) / 400))``.

    >>> round(expected_score(400, 0), 4)
    0.9091
    """
    return 1.0 / (1.0 + 10.0 ** ((elo_b - elo_a) / 400.0))


def score_matrices(
    players: Sequence[str], results: Iterable[tuple[str, str, float]]
) -> tuple[np.ndarray, np.ndarray]:
    """``(games, score)``: ``games[i, j]`` played between i and j, ``score[i, j]`` i's points.

    ``results`` are ``(player A, player B, A's score)`` with the score 1, 0.5 or 0.
    """
    index = {name: i for i, name in enumerate(players)}
    if len(index) != len(players):
        raise InputError("Each player may appear only once in a rating.")
    n = len(players)
    games = np.zeros((n, n))
    score = np.zeros((n, n))
    for a, b, result in results:
        if a not in index or b not in index:
            unknown = a if a not in index else b
            raise InputError(f"A result names {unknown!r}, who is not among the rated players.")
        if a == b:
            raise InputError(f"A player cannot play itself ({a!r}) in a rating.")
        if result not in (0, 0.5, 1):
            raise InputError(f"A game's score must be 1, 0.5 or 0, not {result!r}.")
        i, j = index[a], index[b]
        games[i, j] += 1
        games[j, i] += 1
        score[i, j] += result
        score[j, i] += 1 - result
    return games, score


def log_posterior(theta: np.ndarray, games: np.ndarray, score: np.ndarray, prior_var: float | None):
    """The log-posterior (log-likelihood plus log-prior, up to a constant) at ``theta`` (nats)."""
    p = expit(theta[:, None] - theta[None, :])  # p[i, j] = P(i beats j)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_p = np.where(score > 0, score * np.log(p), 0.0)
    value = float(log_p.sum())  # every game counted once from each side: s·log p + (1−s)·log(1−p)
    if prior_var is not None:
        value -= float(theta @ theta) / (2 * prior_var)
    return value


def _check_fit(
    players: tuple[str, ...], anchor: str | None, prior_sd: float | None, confidence: float
) -> None:
    """Refuse a fit that cannot be made (:func:`fit_ratings`' settings), naming why."""
    if not players:
        raise InputError("There is no player to rate.")
    if anchor is not None and anchor not in players:
        raise InputError(f"The anchor {anchor!r} is not among the rated players.")
    if not 0 < confidence < 1:
        raise InputError(f"Confidence must be between 0 and 1, got {confidence}.")
    if prior_sd is not None and not prior_sd > 0:
        raise InputError(f"The prior's standard deviation must be positive, got {prior_sd}.")


def _information(theta: np.ndarray, games: np.ndarray, prior_var: float | None) -> np.ndarray:
    """Minus the Hessian of the log-posterior at ``theta``: the graph Laplacian of
    games·p·(1 − p), plus the prior's precision."""
    precision = 0.0 if prior_var is None else 1.0 / prior_var
    p = expit(theta[:, None] - theta[None, :])
    weight = games * p * (1 - p)
    return np.diag(weight.sum(axis=1)) - weight + precision * np.eye(len(theta))


def _newton(
    games: np.ndarray, score: np.ndarray, prior_var: float | None, max_iterations: int
) -> tuple[np.ndarray, int]:
    """The log-posterior's maximum (ratings in nats) by Newton's method, and the iterations."""
    precision = 0.0 if prior_var is None else 1.0 / prior_var
    theta = np.zeros(len(games))
    current = log_posterior(theta, games, score, prior_var)
    iterations = 0
    for iterations in range(1, max_iterations + 1):  # noqa: B007 (returned)
        p = expit(theta[:, None] - theta[None, :])
        gradient = (score - games * p).sum(axis=1) - precision * theta
        # without a prior the information is singular along (1, ..., 1), the direction
        # that moves every rating alike: the pseudo-inverse steps orthogonally to it
        step = np.linalg.pinv(_information(theta, games, prior_var)) @ gradient
        # Newton's step, halved until the log-posterior does not fall (it is concave)
        for _ in range(60):
            candidate = log_posterior(theta + step, games, score, prior_var)
            if candidate >= current - 1e-12:
                break
            step = step / 2
        theta, current = theta + step, candidate
        if prior_var is None and np.ptp(theta) * ELO_PER_NAT > MAX_PLAIN_ELO:
            raise InputError(
                "These results have no finite maximum-likelihood ratings (a player, or a group "
                "of players, won or lost every game against the others); fit with a prior."
            )
        if np.max(np.abs(step)) < 1e-10:
            break
    return theta, iterations


def _anchored(
    players: tuple[str, ...], theta: np.ndarray, covariance_nats: np.ndarray, anchor: str | None
) -> tuple[np.ndarray, np.ndarray]:
    """Ratings on the Elo scale with ``anchor`` at 0 (None: their mean at 0), and their
    covariance: a linear map R = A·theta with A's rows e_i − e_anchor (or e_i − mean), so
    the covariance is A·C·Aᵀ."""
    n = len(players)
    shift = np.zeros((n, n))
    if anchor is not None:
        shift[:, players.index(anchor)] = 1.0
    else:
        shift[:] = 1.0 / n
    to_anchored = np.eye(n) - shift
    elo = ELO_PER_NAT * (to_anchored @ theta)
    covariance = ELO_PER_NAT**2 * (to_anchored @ covariance_nats @ to_anchored.T)
    return elo, covariance


def fit_ratings(
    players: Sequence[str],
    results: Iterable[tuple[str, str, float]],
    *,
    anchor: str | None = None,
    prior_sd: float | None = PRIOR_SD,
    confidence: float = 0.95,
    max_iterations: int = 200,
) -> Ratings:
    """Fit Bradley–Terry ratings (Elo scale) to ``results`` by Newton's method.

    ``results`` are ``(player A, player B, A's score)`` (1 win, 0.5 draw, 0
    loss). ``anchor`` names the player rated 0 (None: the mean is 0);
    ``prior_sd`` is the Gaussian prior's standard deviation in Elo (None:
    plain maximum likelihood). See the module docstring for the model.

    >>> fitted = fit_ratings(["A", "B"], [("A", "B", 1)] * 3 + [("A", "B", 0)], anchor="B",
    ...                      prior_sd=None)
    >>> round(fitted.rating("A"), 1)  # 3 wins in 4: 400·log10(3)
    190.8

    Raises
    ------
    InputError
        For a result naming an unknown player, a bad score or ``confidence``,
        an unknown ``anchor``, or (without a prior) ratings that have no finite
        maximum likelihood estimate.
    """
    players = tuple(players)
    _check_fit(players, anchor, prior_sd, confidence)
    games, score = score_matrices(players, results)
    prior_var = None if prior_sd is None else (prior_sd / ELO_PER_NAT) ** 2
    theta, iterations = _newton(games, score, prior_var, max_iterations)
    covariance_nats = np.linalg.pinv(_information(theta, games, prior_var))
    elo, covariance = _anchored(players, theta, covariance_nats, anchor)
    half_width = norm.ppf(0.5 + confidence / 2) * np.sqrt(np.clip(np.diag(covariance), 0, None))
    return Ratings(
        players=players,
        elo=tuple(float(x) for x in elo),
        low=tuple(float(x) for x in elo - half_width),
        high=tuple(float(x) for x in elo + half_width),
        covariance=covariance,
        anchor=anchor,
        prior_sd=prior_sd,
        confidence=confidence,
        iterations=iterations,
    )
