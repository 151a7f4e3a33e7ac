"""Statistics of a tournament: the per-game table and the per-match summary.

:func:`summarize` gives player A's win/draw/loss rates with a 95 % Wilson
interval on the win rate (:func:`wilson_interval`), and per-game means of the
search statistics (nodes, time, effective branching factor) of both players.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, fields

import numpy as np
import pandas as pd
from scipy.stats import binomtest

from lib.errors import InputError
from lib.games.arena.match import TIMING_FIELDS, GameRecord, MatchConfig


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion ``successes / n``.

    Better than the normal approximation for small ``n`` and for rates near 0
    or 1 (it never leaves [0, 1]). Computed by SciPy
    (``binomtest(...).proportion_ci(method="wilson")``); ``(0, 1)`` when ``n == 0``.

    >>> tuple(round(x, 4) for x in wilson_interval(8, 10))
    (0.4902, 0.9433)
    """
    if n < 0 or successes < 0 or successes > n:
        raise InputError(f"Need 0 <= successes <= n, got {successes} of {n}.")
    if not 0 < confidence < 1:
        raise InputError(f"Confidence must be between 0 and 1, got {confidence}.")
    if n == 0:
        return 0.0, 1.0
    interval = binomtest(successes, n).proportion_ci(confidence_level=confidence, method="wilson")
    return float(interval.low), float(interval.high)


GAME_COLUMNS = [f.name for f in fields(GameRecord)]

SUMMARY_COLUMNS = [
    "match",
    "label",
    "player_a",
    "player_b",
    "games",
    "wins",
    "draws",
    "losses",
    "win_pct",
    "win_ci_low",
    "win_ci_high",
    "draw_pct",
    "loss_pct",
    "score_pct",
    "mean_margin",
    "plies_per_game",
    "nodes_per_game",
    "seconds_per_game",
    "seconds_per_move",
    "ebf",
    "b_nodes_per_game",
    "b_seconds_per_move",
    "b_ebf",
]
"""Columns of :func:`summarize`; statistics without a suffix are player A's."""


def games_table(records: Iterable[GameRecord], timings: bool = True) -> pd.DataFrame:
    """The per-game records as a table, one row per game, sorted by (match, game).

    With ``timings=False`` the wall-clock columns are left out, so the table
    (and its CSV) is identical for the same seeds on every executor.
    """
    rows = sorted((asdict(r) for r in records), key=lambda row: (row["match"], row["game"]))
    table = pd.DataFrame(rows, columns=GAME_COLUMNS)
    if not timings:
        table = table.drop(columns=list(TIMING_FIELDS))
    return table


def _mean(values: Sequence[float | None]) -> float:
    present = [v for v in values if v is not None and not math.isnan(v)]
    return float(np.mean(present)) if present else math.nan


def summarize(
    records: Iterable[GameRecord], matches: Sequence[MatchConfig] | None = None
) -> pd.DataFrame:
    """One row per match: win/draw/loss % of player A with a 95 % Wilson interval on wins.

    Per-game means (``nodes_per_game``, ``seconds_per_game``, ``plies_per_game``,
    ``mean_margin``) average over the games; ``seconds_per_move`` is A's total
    thinking time over A's total moves; ``ebf`` averages the per-game mean EBF
    of A (NaN for players that do not search). The ``b_`` columns are the same
    for player B. Percentages are 0–100. Matches without games are left out.
    """
    by_match: dict[int, list[GameRecord]] = {}
    for record in records:
        by_match.setdefault(record.match, []).append(record)
    rows = []
    for index in sorted(by_match):
        games = by_match[index]
        n = len(games)
        wins = sum(g.winner == "A" for g in games)
        draws = sum(g.winner == "draw" for g in games)
        losses = n - wins - draws
        low, high = wilson_interval(wins, n)
        match = matches[index] if matches is not None else None
        player_a, player_b = match.players if match else (None, None)
        moves_a = sum(g.moves_a for g in games)
        moves_b = sum(g.moves_b for g in games)
        rows.append(
            {
                "match": index,
                "label": games[0].label,
                "player_a": player_a,
                "player_b": player_b,
                "games": n,
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "win_pct": 100 * wins / n,
                "win_ci_low": 100 * low,
                "win_ci_high": 100 * high,
                "draw_pct": 100 * draws / n,
                "loss_pct": 100 * losses / n,
                "score_pct": 100 * (wins + 0.5 * draws) / n,
                "mean_margin": float(np.mean([g.margin for g in games])),
                "plies_per_game": float(np.mean([g.plies for g in games])),
                "nodes_per_game": float(np.mean([g.nodes_a for g in games])),
                "seconds_per_game": float(np.mean([g.seconds_a for g in games])),
                "seconds_per_move": (
                    sum(g.seconds_a for g in games) / moves_a if moves_a else math.nan
                ),
                "ebf": _mean([g.ebf_a for g in games]),
                "b_nodes_per_game": float(np.mean([g.nodes_b for g in games])),
                "b_seconds_per_move": (
                    sum(g.seconds_b for g in games) / moves_b if moves_b else math.nan
                ),
                "b_ebf": _mean([g.ebf_b for g in games]),
            }
        )
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)
