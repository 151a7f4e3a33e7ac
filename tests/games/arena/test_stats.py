"""Arena plumbing that needs no game: Wilson intervals, summaries, task running, cancelling."""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games.arena import (
    GameRecord,
    InlineExecutor,
    MatchConfig,
    games_table,
    run_tasks,
    summarize,
    tournament_tasks,
    wilson_interval,
)

# Newcombe (1998), "Two-sided confidence intervals for the single proportion: comparison
# of seven methods", Statistics in Medicine 17:857-872, Table II, method 3 (Wilson score)
NEWCOMBE_WILSON = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize(("successes", "n", "low", "high"), NEWCOMBE_WILSON)
def test_wilson_matches_the_published_values(successes, n, low, high):
    got = wilson_interval(successes, n)
    assert got == pytest.approx((low, high), abs=5e-5)  # published to 4 decimals


def textbook_wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson's score interval from its closed form: the independent oracle."""
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 2000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_matches_its_closed_form(pair):
    successes, n = pair
    expected = textbook_wilson(successes, n)
    low, high = wilson_interval(successes, n)
    assert low == pytest.approx(expected[0], abs=1e-12)
    assert high == pytest.approx(expected[1], abs=1e-12)
    assert 0 <= low <= successes / n <= high <= 1


def test_wilson_other_confidence_and_edges():
    z90 = 1.6448536269514722  # the standard normal's 95th percentile
    assert wilson_interval(3, 20, 0.9) == pytest.approx(textbook_wilson(3, 20, z90), abs=1e-12)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    narrow, wide = wilson_interval(50, 100), wilson_interval(5, 10)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]
    with pytest.raises(InputError):
        wilson_interval(5, 3)


def record(match, game, winner, *, nodes_a=0, seconds_a=0.0, moves_a=1, ebf_a=None, margin=0.0):
    """A hand-made game record (only the fields the summary reads matter)."""
    return GameRecord(
        match=match,
        label=f"m{match}",
        game=game,
        seed=0,
        a_first=game % 2 == 0,
        winner=winner,
        result_a={"A": 1.0, "draw": 0.5, "B": 0.0}[winner],
        margin=margin,
        plies=2 * moves_a,
        truncated=False,
        nodes_a=nodes_a,
        nodes_b=0,
        cutoffs_a=0,
        cutoffs_b=0,
        moves_a=moves_a,
        moves_b=moves_a,
        seconds_a=seconds_a,
        seconds_b=0.5,
        ebf_a=ebf_a,
        ebf_b=None,
        moves="",
    )


def test_summary_on_hand_made_results():
    records = [
        record(0, 0, "A", nodes_a=100, seconds_a=1.0, moves_a=10, ebf_a=3.0, margin=8),
        record(0, 1, "A", nodes_a=300, seconds_a=3.0, moves_a=10, ebf_a=5.0, margin=4),
        record(0, 2, "draw", nodes_a=200, seconds_a=2.0, moves_a=20, ebf_a=None, margin=0),
        record(0, 3, "B", nodes_a=400, seconds_a=2.0, moves_a=10, ebf_a=4.0, margin=-6),
        record(1, 0, "B", nodes_a=7, seconds_a=0.0, moves_a=5),
    ]
    matches = [
        MatchConfig("othello", ("alphabeta:depth=3", "random"), games=4),
        MatchConfig("othello", ("random", "random"), games=1),
    ]
    summary = summarize(records[::-1], matches).set_index("match")
    first = summary.loc[0]
    assert (first.games, first.wins, first.draws, first.losses) == (4, 2, 1, 1)
    assert first.win_pct == 50 and first.draw_pct == 25 and first.loss_pct == 25
    assert first.score_pct == pytest.approx(62.5)
    low, high = wilson_interval(2, 4)
    assert (first.win_ci_low, first.win_ci_high) == pytest.approx((100 * low, 100 * high))
    assert first.nodes_per_game == 250
    assert first.seconds_per_game == 2.0
    assert first.seconds_per_move == pytest.approx(8.0 / 50)
    assert first.ebf == pytest.approx(4.0)  # the game without an EBF is left out
    assert first.mean_margin == pytest.approx(1.5)
    assert first.player_a == "alphabeta:depth=3"
    second = summary.loc[1]
    assert (second.wins, second.losses, second.win_pct) == (0, 1, 0)
    assert math.isnan(second.ebf) and math.isnan(second.b_ebf)


def test_games_table_sorted_and_timings_optional():
    records = [record(1, 0, "A"), record(0, 1, "B"), record(0, 0, "draw")]
    table = games_table(records)
    assert list(zip(table["match"], table["game"], strict=True)) == [(0, 0), (0, 1), (1, 0)]
    assert "seconds_a" in table
    assert "seconds_a" not in games_table(records, timings=False)


def test_match_config_validates_and_is_hashable():
    match = MatchConfig("othello", ["a", "b"], games=3, options={"size": 6})
    assert match.options == (("size", 6),) and hash(match)
    assert match.label == "a vs b"
    for bad in ({"games": 0}, {"seed": -1}, {"max_plies": 0}):
        with pytest.raises(InputError):
            MatchConfig("othello", ("a", "b"), **bad)
    with pytest.raises(InputError):
        MatchConfig("othello", ("a", "b", "c"))


def test_tournament_tasks_interleave_and_skip_done():
    matches = [MatchConfig("x", ("a", "b"), games=3), MatchConfig("x", ("c", "d"), games=1)]
    tasks = tournament_tasks(matches)
    assert [(t[2], t[1]) for t in tasks] == [(0, 0), (1, 0), (0, 1), (0, 2)]
    rest = tournament_tasks(matches, done={(0, 0), (0, 2)})
    assert [(t[2], t[1]) for t in rest] == [(1, 0), (0, 1)]


def _square(x: int) -> int:
    return x * x


@pytest.mark.parametrize("executor_kind", ["inline", "threads"])
def test_run_tasks_reports_each_result_and_can_stop(executor_kind):
    executor = InlineExecutor() if executor_kind == "inline" else ThreadPoolExecutor(2)
    with executor:
        seen = []
        results, completed = run_tasks(
            _square, [(i,) for i in range(10)], executor, on_result=lambda i, r: seen.append(i)
        )
        assert completed and results == {i: i * i for i in range(10)}
        assert sorted(seen) == list(range(10))

        seen.clear()
        results, completed = run_tasks(
            _square,
            [(i,) for i in range(50)],
            executor,
            on_result=lambda i, r: seen.append(i),
            should_stop=lambda: len(seen) >= 5,
            max_in_flight=2,
        )
        assert not completed
        assert 5 <= len(results) <= 7  # at most the in-flight tasks finish after the stop
        assert all(results[i] == i * i for i in results)


def test_run_tasks_interrupted_by_callback_keeps_partial_results():
    seen = {}

    def on_result(index, value):
        seen[index] = value
        if len(seen) == 3:
            raise KeyboardInterrupt  # e.g. Streamlit stopping the script on a cancel click

    with pytest.raises(KeyboardInterrupt):
        run_tasks(_square, [(i,) for i in range(10)], InlineExecutor(), on_result=on_result)
    assert seen == {0: 0, 1: 1, 2: 4}


def test_inline_executor_passes_exceptions_to_the_future():
    future = InlineExecutor().submit(_square, "x")
    with pytest.raises(TypeError):
        future.result()
