"""Bradley–Terry ratings against oracles: the two-player closed form, a direct scipy fit of
the same posterior written per game, and invariants (order, monotonicity, relabelling)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize
from scipy.stats import norm

from lib.errors import InputError
from lib.games.arena.rating import ELO_PER_NAT, PRIOR_SD, expected_score, fit_ratings

NAMES = ("a", "b", "c", "d", "e")


def scipy_fit(players, results, prior_sd):
    """The oracle: maximise the log-posterior summed game by game, in Elo, with scipy.

    Player 0 is fixed at 0 when there is no prior (only differences are identified)."""
    index = {p: i for i, p in enumerate(players)}
    rows = np.array([(index[a], index[b], s) for a, b, s in results], dtype=float)
    i, j, s = rows[:, 0].astype(int), rows[:, 1].astype(int), rows[:, 2]

    # the unknowns in hundreds of Elo: gradients of order one, which BFGS's numerical
    # gradient resolves to a small fraction of an Elo point with any scipy version
    def negative(free):
        free = 100.0 * free
        elo = free if prior_sd is not None else np.concatenate([[0.0], free])
        p = 1 / (1 + 10 ** ((elo[j] - elo[i]) / 400))
        value = -(s * np.log(p) + (1 - s) * np.log(1 - p)).sum()
        if prior_sd is not None:
            value += (elo @ elo) / (2 * prior_sd**2)
        return value

    size = len(players) if prior_sd is not None else len(players) - 1
    found = minimize(negative, np.zeros(size), method="BFGS", options={"gtol": 1e-9})
    elo = 100.0 * found.x if prior_sd is not None else np.concatenate([[0.0], 100.0 * found.x])
    return elo - elo.mean()


@pytest.mark.parametrize("wins,losses", [(3, 1), (7, 3), (1, 9), (5, 5), (12, 20)])
def test_two_players_match_the_closed_form(wins, losses):
    results = [("A", "B", 1)] * wins + [("A", "B", 0)] * losses
    fitted = fit_ratings(["A", "B"], results, anchor="B", prior_sd=None)
    p = wins / (wins + losses)
    assert fitted.rating("A") == pytest.approx(400 * math.log10(p / (1 - p)), abs=1e-6)
    assert fitted.rating("B") == 0
    # the interval: the Fisher information of the log-odds of n games is n·p·(1 − p)
    sd = ELO_PER_NAT / math.sqrt((wins + losses) * p * (1 - p))
    assert fitted.high[0] - fitted.rating("A") == pytest.approx(norm.ppf(0.975) * sd, rel=1e-6)
    assert fitted.low[1] == fitted.high[1] == 0  # the anchor is exactly 0


def test_draws_count_half_a_win_each():
    # 2 wins, 2 draws, 1 loss is a score of 3 out of 5: as 3 wins and 2 losses
    with_draws = [("A", "B", 1)] * 2 + [("A", "B", 0.5)] * 2 + [("A", "B", 0)]
    fitted = fit_ratings(["A", "B"], with_draws, anchor="B", prior_sd=None)
    assert fitted.rating("A") == pytest.approx(400 * math.log10(3 / 2), abs=1e-6)
    all_draws = fit_ratings(["A", "B", "C"], [("A", "B", 0.5), ("B", "C", 0.5), ("C", "A", 0.5)])
    assert all_draws.elo == pytest.approx((0, 0, 0), abs=1e-9)


def test_expected_score_is_elos_formula():
    assert expected_score(0, 0) == 0.5
    assert expected_score(400, 0) == pytest.approx(10 / 11)
    assert expected_score(0, 400) + expected_score(400, 0) == pytest.approx(1)


results_strategy = st.lists(
    st.tuples(
        st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from([0.0, 0.5, 1.0])
    ).filter(lambda r: r[0] != r[1]),
    min_size=1,
    max_size=40,
)


@settings(max_examples=40, deadline=None)
@given(results_strategy)
def test_the_fit_equals_a_direct_scipy_fit_of_the_same_posterior(results):
    fitted = fit_ratings(NAMES, results)  # default prior: always a finite answer
    oracle = scipy_fit(NAMES, results, PRIOR_SD)
    assert np.allclose(fitted.elo, oracle, atol=0.05)
    assert sum(fitted.elo) == pytest.approx(0, abs=1e-6)  # no anchor: mean 0


def test_the_plain_fit_equals_scipy_when_it_exists():
    # a cycle of wins and losses: every group of players lost and won somewhere
    results = [("a", "b", 1), ("b", "c", 1), ("c", "a", 1), ("a", "b", 0), ("a", "c", 0.5)]
    results += [("b", "c", 0.5), ("c", "a", 1), ("a", "b", 1)]
    fitted = fit_ratings(["a", "b", "c"], results, prior_sd=None)
    assert np.allclose(fitted.elo, scipy_fit(["a", "b", "c"], results, None), atol=0.05)


@settings(max_examples=30, deadline=None)
@given(results_strategy, st.permutations(NAMES))
def test_relabelling_the_players_relabels_the_ratings(results, order):
    fitted = fit_ratings(NAMES, results)
    renamed = dict(zip(NAMES, order, strict=True))
    relabelled = fit_ratings(NAMES, [(renamed[a], renamed[b], s) for a, b, s in results])
    for name in NAMES:
        assert relabelled.rating(renamed[name]) == pytest.approx(fitted.rating(name), abs=1e-6)


@settings(max_examples=30, deadline=None)
@given(results_strategy, st.data())
def test_a_better_result_never_lowers_a_rating(results, data):
    # turn one of player A's results into a better one: A's rating may only go up
    index = data.draw(st.integers(0, len(results) - 1))
    a, b, score = results[index]
    better = data.draw(st.sampled_from([s for s in (0.5, 1.0) if s > score] or [score]))
    improved = [*results[:index], (a, b, better), *results[index + 1 :]]
    before = fit_ratings(NAMES, results, anchor=b).rating(a)
    after = fit_ratings(NAMES, improved, anchor=b).rating(a)
    assert after >= before - 1e-9


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=10, max_size=10), st.integers(1, 3))
def test_in_a_balanced_round_robin_the_order_of_ratings_is_the_order_of_scores(scores, n):
    # every pair of 5 players plays n games with the same score for the first named
    pairs = [(a, b) for i, a in enumerate(NAMES) for b in NAMES[i + 1 :]]
    results = [(a, b, s) for (a, b), s in zip(pairs, scores, strict=True) for _ in range(n)]
    fitted = fit_ratings(NAMES, results)
    total = dict.fromkeys(NAMES, 0.0)
    for a, b, s in results:
        total[a] += s
        total[b] += 1 - s
    for x in NAMES:
        for y in NAMES:
            if total[x] > total[y]:
                assert fitted.rating(x) > fitted.rating(y)
            if total[x] == total[y]:
                assert fitted.rating(x) == pytest.approx(fitted.rating(y), abs=1e-6)


def test_perfect_records_get_finite_ratings_with_the_prior_and_none_without():
    results = [("strong", "middle", 1)] * 6 + [("middle", "weak", 1)] * 6
    fitted = fit_ratings(["strong", "middle", "weak"], results, anchor="weak")
    assert fitted.rating("strong") > fitted.rating("middle") > 0
    assert all(math.isfinite(x) for x in fitted.low + fitted.high)
    for i in (0, 1):  # the anchor's interval is 0 wide
        assert fitted.low[i] < fitted.elo[i] < fitted.high[i]
    with pytest.raises(InputError, match="no finite maximum-likelihood"):
        fit_ratings(["strong", "middle", "weak"], results, prior_sd=None)


def test_a_stronger_prior_shrinks_more_and_a_weak_one_tends_to_the_plain_fit():
    results = [("A", "B", 1)] * 7 + [("A", "B", 0)] * 3
    plain = fit_ratings(["A", "B"], results, anchor="B", prior_sd=None).rating("A")
    ratings = [
        fit_ratings(["A", "B"], results, anchor="B", prior_sd=sd).rating("A")
        for sd in (100, 400, 1000, 1e6)
    ]
    assert ratings == sorted(ratings) and ratings[-1] == pytest.approx(plain, abs=1e-3)


def test_mean_anchored_intervals_contain_the_ratings_and_widen_with_fewer_games():
    few = [("a", "b", 1), ("b", "c", 1), ("c", "a", 0), ("a", "c", 0.5)]
    many = few * 10
    narrow, wide = fit_ratings("abc", many), fit_ratings("abc", few)
    for fitted in (narrow, wide):
        for i in range(3):
            assert fitted.low[i] < fitted.elo[i] < fitted.high[i]
    widths = [(h - lo) for lo, h in zip(narrow.low, narrow.high, strict=True)]
    assert all(w < h - lo for w, lo, h in zip(widths, wide.low, wide.high, strict=True))


@pytest.mark.parametrize(
    "players,results,kwargs,message",
    [
        ([], [], {}, "no player"),
        (["a", "a"], [], {}, "only once"),
        (["a", "b"], [("a", "c", 1)], {}, "'c'"),
        (["a", "b"], [("a", "a", 1)], {}, "itself"),
        (["a", "b"], [("a", "b", 2)], {}, "1, 0.5 or 0"),
        (["a", "b"], [("a", "b", 1)], {"anchor": "z"}, "anchor"),
        (["a", "b"], [("a", "b", 1)], {"confidence": 1.5}, "Confidence"),
        (["a", "b"], [("a", "b", 1)], {"prior_sd": -1}, "positive"),
    ],
)
def test_bad_input_is_refused_plainly(players, results, kwargs, message):
    with pytest.raises(InputError, match=message):
        fit_ratings(players, results, **kwargs)
