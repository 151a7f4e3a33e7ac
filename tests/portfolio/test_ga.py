"""The vectorised GA: operator invariants, formulas, reproducibility, robustness."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from lib.errors import InputError
from lib.portfolio import ga, report
from lib.portfolio.data import hard_case_table, load_stock_table
from lib.portfolio.exact import solve_exact
from lib.portfolio.ga import GAConfig, run_ga

ROOT = Path(__file__).resolve().parents[2]
SMALL = GAConfig(population_size=120, elite_size=12, max_generations=150, seed=0)


@pytest.fixture(scope="module")
def sample() -> pd.DataFrame:
    return load_stock_table(ROOT / "data" / "sample_stocks.csv")


def assert_normalised(population: np.ndarray, divisor: float = 10.0) -> None:
    n = population.shape[1]
    assert (population >= 0).all()
    np.testing.assert_allclose(population.sum(axis=1), 1.0, atol=1e-12)
    held = population > 0
    assert held.any(axis=1).all()
    # every surviving weight is at least the threshold of the normalised row
    assert (population[held] >= 1.0 / (divisor * n) - 1e-15).all()


populations = st.integers(1, 12).flatmap(
    lambda rows: st.integers(1, 40).flatmap(
        lambda cols: arrays(np.float64, (rows, cols), elements=st.floats(0, 1e3))
    )
)


@given(populations)
@settings(max_examples=150, deadline=None)
def test_normalise_gives_non_negative_rows_summing_to_one(population):
    assert_normalised(ga.normalise(population.copy()))


@given(arrays(np.float64, (5, 9), elements=st.floats(-5, 5)))
@settings(max_examples=60, deadline=None)
def test_normalise_clips_negative_weights(population):
    assert_normalised(ga.normalise(population.copy()))


def test_normalise_zeroes_weights_under_the_threshold():
    row = np.array([[1.0, 1.0, 1.0, 0.02]])  # sum 3.02, threshold 3.02 / 40 = 0.0755
    out = ga.normalise(row.copy())
    np.testing.assert_allclose(out, [[1 / 3, 1 / 3, 1 / 3, 0.0]])


@given(
    st.integers(2, 30),
    st.integers(2, 20),
    st.sampled_from(ga.CROSSOVERS),
    st.floats(0, 1),
    st.floats(0, 1),
    st.integers(0, 2**32 - 1),
)
@settings(max_examples=120, deadline=None)
def test_every_operator_keeps_rows_normalised(rows, n, kind, p_cross, p_mut, seed):
    rng = np.random.default_rng(seed)
    config = GAConfig(crossover=kind, p_crossover=p_cross, p_mutation=p_mut, min_stocks=min(n, 3))
    first = ga.normalise(rng.random((rows, n)))
    second = ga.normalise(rng.random((rows, n)))
    child = ga.crossover(first.copy(), second.copy(), config, rng)
    assert (child >= 0).all()
    ga.mutate(child, config, rng)
    assert (child >= 0).all()
    ga.normalise(child)
    assert_normalised(child)
    ga.repair(child, config, rng)
    assert_normalised(child)
    assert (np.count_nonzero(child, axis=1) >= config.min_stocks).all()


@given(st.sampled_from(["one_point", "uniform"]), st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_crossover_is_aligned(kind, seed):
    rng = np.random.default_rng(seed)
    first, second = rng.random((8, 15)), rng.random((8, 15))
    child = ga.crossover(first.copy(), second.copy(), GAConfig(crossover=kind, p_crossover=1), rng)
    from_first = np.isclose(child, first)
    from_second = np.isclose(child, second)
    assert (from_first | from_second).all()
    if kind == "one_point":  # a prefix from the first parent, the rest from the second
        for row in range(8):
            cut = np.argmin(from_first[row]) if not from_first[row].all() else 15
            assert from_second[row, cut:].all()


def test_blend_is_a_convex_combination_per_row():
    rng = np.random.default_rng(1)
    first, second = rng.random((6, 10)), rng.random((6, 10))
    child = ga.crossover(
        first.copy(), second.copy(), GAConfig(crossover="blend", p_crossover=1), rng
    )
    alpha = (child - second) / (first - second)
    np.testing.assert_allclose(alpha, alpha[:, :1].repeat(10, axis=1), atol=1e-9)
    assert ((alpha >= 0) & (alpha <= 1)).all()


def test_no_crossover_copies_the_first_parent():
    rng = np.random.default_rng(2)
    first, second = rng.random((5, 7)), rng.random((5, 7))
    for kind in ga.CROSSOVERS:
        config = GAConfig(crossover=kind, p_crossover=0)
        np.testing.assert_allclose(ga.crossover(first.copy(), second, config, rng), first)


def test_mutation_resets_exactly_one_gene_of_a_mutant():
    rng = np.random.default_rng(3)
    children = np.full((50, 20), 0.05)
    before = children.copy()
    ga.mutate(children, GAConfig(p_mutation=1.0), rng)
    changed = (children != before).sum(axis=1)
    assert (changed <= 1).all() and changed.sum() >= 45  # a reset can hit 0.05 only by chance


# -- formulas on hand-made data ---------------------------------------------------------

HAND = pd.DataFrame(
    {"ticker": ["A", "B", "C"], "risk": [0.2, 0.8, 0.5], "return": [1.0, 12.0, 3.0]}
)


def test_objective_risk_return_count_and_feasibility_match_the_formulas():
    config = GAConfig(min_stocks=2, max_risk=0.6, min_return=5.0)
    problem = ga.make_problem(HAND, config)
    # value = return - risk - 5 max(risk - 0.6, 0)
    np.testing.assert_allclose(problem.value, [0.8, 12.0 - 0.8 - 1.0, 2.5])
    weights = np.array([[0.5, 0.5, 0.0], [0.2, 0.4, 0.4], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
    ret, risk, objective, count, feasible = ga.evaluate(weights, problem, config)
    np.testing.assert_allclose(ret, [6.5, 0.2 + 4.8 + 1.2, 3.0, 12.0])
    np.testing.assert_allclose(risk, [0.5, 0.04 + 0.32 + 0.2, 0.5, 0.8])
    np.testing.assert_allclose(objective, [0.5 * 0.8 + 0.5 * 10.2, 0.16 + 4.08 + 1.0, 2.5, 10.2])
    assert count.tolist() == [2, 3, 1, 1]
    # row 0 ok; row 1 ok (risk 0.56 < 0.6, return 6.2 > 5); row 2 too few and low return;
    # row 3 too few stocks and risky
    assert feasible.tolist() == [True, True, False, False]
    viol = ga.violation(ret, risk, count, config)
    assert (viol[feasible] == 0).all() and (viol[~feasible] > 0).all()


def test_course_fitness_is_clipped_at_zero():
    np.testing.assert_allclose(ga.course_fitness(np.array([-2.0, 0.0, 3.5])), [0, 0, 3.5])


def test_bounds_are_strict():
    config = GAConfig(min_stocks=1, max_risk=0.5, min_return=3.0)
    problem = ga.make_problem(HAND, config)
    on_bound = np.array([[0.0, 0.0, 1.0]])  # risk exactly 0.5, return exactly 3
    assert not ga.evaluate(on_bound, problem, config)[4][0]


def test_constrained_scores_rank_every_feasible_above_every_infeasible():
    config = GAConfig(min_stocks=2, max_risk=0.6, min_return=5.0)
    problem = ga.make_problem(HAND, config)
    weights = np.array([[0.5, 0.5, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.9, 0.05, 0.05]])
    stats = ga.evaluate(weights, problem, config)
    scores = ga.selection_scores(*stats, problem, config)
    feasible = stats[4]
    assert scores[feasible].min() > scores[~feasible].max()
    course = ga.selection_scores(*stats, problem, dataclasses.replace(config, fitness="course"))
    assert course[1] > course[0]  # the course prefers the infeasible all-in portfolio


def test_selection_picks_valid_indices_and_tournament_of_all_picks_the_best():
    rng = np.random.default_rng(0)
    scores = np.array([3.0, -1.0, 7.0, 0.5])
    for kind in ga.SELECTIONS:
        picks = ga.select_parents(scores, 1000, GAConfig(selection=kind), rng)
        assert picks.min() >= 0 and picks.max() < 4
    rank = ga.select_parents(scores, 20_000, GAConfig(selection="rank"), rng)
    frequency = np.bincount(rank, minlength=4) / 20_000
    np.testing.assert_allclose(frequency, np.array([3, 1, 4, 2]) / 10, atol=0.02)
    config = GAConfig(selection="tournament", tournament_size=200)
    assert (ga.select_parents(scores, 50, config, rng) == 2).all()


# -- runs -------------------------------------------------------------------------------


def test_a_seeded_run_is_reproducible(sample):
    config = dataclasses.replace(SMALL, stop_at_first_feasible=False, max_generations=40)
    first, again = run_ga(sample, config), run_ga(sample, config)
    np.testing.assert_array_equal(first.weights, again.weights)
    columns = [c for c in first.history.columns if c != "seconds"]
    pd.testing.assert_frame_equal(first.history[columns], again.history[columns])
    other = run_ga(sample, dataclasses.replace(config, seed=1))
    assert not np.array_equal(first.weights, other.weights)


def test_default_config_finds_a_feasible_portfolio_on_the_bundled_data(sample):
    result = run_ga(sample)
    assert result.feasible and result.stopped_by == "first_feasible"
    assert ga.is_feasible(result.weights, sample, GAConfig())
    assert result.weights.sum() == pytest.approx(1.0)
    assert result.n_stocks >= 30 and result.risk < 0.6 and result.ret > 10
    assert result.generations == len(result.history) == result.first_feasible_generation


def test_history_records_best_mean_feasible_and_best_portfolio(sample):
    config = dataclasses.replace(SMALL, stop_at_first_feasible=False, max_generations=80)
    result = run_ga(sample, config)
    history = result.history
    assert len(history) == 80 and history["generation"].tolist() == list(range(1, 81))
    assert result.feasible
    assert (history["best_fitness"] >= history["mean_fitness"] - 1e-12).all()
    assert history["n_feasible"].between(0, config.population_size).all()
    best_feasible = history["best_feasible_fitness"].dropna()
    assert best_feasible.is_monotonic_increasing
    assert result.fitness == pytest.approx(best_feasible.iloc[-1])


def test_callback_sees_every_generation_and_can_stop_the_run(sample):
    seen = []

    def callback(stats):
        seen.append(stats.generation)
        return stats.generation < 5

    result = run_ga(sample, dataclasses.replace(SMALL, stop_at_first_feasible=False), callback)
    assert seen == [1, 2, 3, 4, 5] and result.stopped_by == "callback"


def test_course_configuration_alone_still_works(sample):
    config = dataclasses.replace(SMALL, fitness="course", repair=False, crossover="one_point")
    result = run_ga(sample, config)
    assert result.feasible  # the bundled data is not a trap for the course's GA


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_course_fitness_fails_on_the_hard_case_but_the_default_does_not(seed):
    table = hard_case_table(400, seed=seed)
    exact = solve_exact(table, GAConfig())
    assert exact.feasible  # a feasible portfolio exists
    small = GAConfig(population_size=300, elite_size=30, max_generations=150, seed=seed)
    course = run_ga(table, dataclasses.replace(small, fitness="course", repair=False))
    assert not course.feasible
    robust = run_ga(table, small)
    assert robust.feasible and ga.is_feasible(robust.weights, table, small)
    assert robust.fitness <= exact.fitness + 1e-9


@pytest.mark.parametrize("seed", range(4))
def test_default_ga_finds_a_feasible_portfolio_whenever_the_milp_does(seed):
    """Random hard instances: high-return stocks are the risky ones."""
    rng = np.random.default_rng(100 + seed)
    n = 150
    risk = rng.uniform(0, 1, n)
    ret = np.where(risk > 0.7, rng.uniform(8, 14, n), rng.uniform(0, 9.8, n) * rng.random(n))
    table = pd.DataFrame({"ticker": [f"R{i}" for i in range(n)], "risk": risk, "return": ret})
    config = GAConfig(
        population_size=300, elite_size=30, max_generations=300, min_stocks=20, seed=seed
    )
    exact = solve_exact(table, config)
    result = run_ga(table, config)
    assert result.feasible == exact.feasible
    if exact.feasible:
        assert result.fitness <= exact.fitness + 1e-9


def test_time_limit_stops_the_run(sample):
    config = dataclasses.replace(SMALL, stop_at_first_feasible=False, max_generations=100_000)
    result = run_ga(sample, dataclasses.replace(config, time_limit=0.05))
    assert result.stopped_by == "time_limit" and result.generations < 100_000


def test_infeasible_constraints_return_the_best_ranked_portfolio(sample):
    config = dataclasses.replace(SMALL, min_return=100.0, max_generations=10)
    result = run_ga(sample, config)
    assert not result.feasible and result.first_feasible_generation is None
    assert result.weights.sum() == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"population_size": 1}, "population_size"),
        ({"elite_size": 700}, "elite_size"),
        ({"p_crossover": 1.5}, "p_crossover"),
        ({"p_mutation": -0.1}, "p_mutation"),
        ({"crossover": "two_point"}, "crossover"),
        ({"selection": "best"}, "selection"),
        ({"fitness": "other"}, "fitness"),
        ({"max_generations": 0}, "max_generations"),
        ({"max_risk": float("nan")}, "max_risk"),
    ],
)
def test_invalid_settings_raise_input_error(change, fragment):
    with pytest.raises(InputError, match=fragment):
        GAConfig(**change)


def test_bad_tables_raise_input_error():
    with pytest.raises(InputError, match="'return'"):
        run_ga(pd.DataFrame({"ticker": ["A"], "risk": [0.1]}))
    with pytest.raises(InputError, match="missing"):
        run_ga(pd.DataFrame({"ticker": ["A"], "risk": [np.nan], "return": [1.0]}))


def test_coefficient_table_puts_held_stocks_first():
    table = report.coefficient_table(HAND, np.array([0.0, 0.7, 0.3]))
    assert table["ticker"].tolist() == ["B", "C", "A"]
    assert list(table.columns) == ["ticker", "risk", "return", "coefficient"]
    both = report.coefficient_table(HAND, np.array([0.0, 0.7, 0.3]), np.array([1.0, 0.0, 0.0]))
    assert both["ticker"].tolist() == ["B", "C", "A"]  # still in the GA's order
    assert both["exact_coefficient"].tolist() == [0.0, 0.0, 1.0]  # aligned by stock


def test_parameter_study_reports_every_setting(sample):
    base = dataclasses.replace(SMALL, max_generations=60)
    grid = {"population_size": [60, 120], "p_mutation": [0.0, 0.1]}
    calls = []
    study = ga.parameter_study(
        sample, base, grid, repeats=2, on_progress=lambda d, t: calls.append((d, t))
    )
    assert study[["parameter", "value"]].values.tolist() == [
        ["population_size", 60],
        ["population_size", 120],
        ["p_mutation", 0.0],
        ["p_mutation", 0.1],
    ]
    assert study["success_rate"].between(0, 1).all()
    # population 120 and mutation 0.1 are both the base setting: run once, shown twice
    assert calls[-1] == (6, 6)
    same = study.iloc[[1, 3]].drop(columns=["parameter", "value"])
    assert same.iloc[0].tolist() == same.iloc[1].tolist()
    succeeded = study["success_rate"] > 0
    assert study.loc[succeeded, "mean_generations"].between(1, 60).all()
    with pytest.raises(InputError, match="cannot vary"):
        ga.parameter_study(sample, base, {"seed": [1]})


def test_the_course_study_runs_its_baseline_setting_once(sample, monkeypatch):
    base = GAConfig(max_generations=2, min_stocks=5)  # the course's 700 / 0.6 / 0.1
    configs = []
    real = ga.run_ga

    def counting(table, config):
        configs.append(dataclasses.replace(config, seed=0))
        return real(table, config)

    monkeypatch.setattr(ga, "run_ga", counting)
    study = ga.parameter_study(sample.head(60), base, repeats=2)
    assert len(study) == 9  # every value of the course's grid has its row
    assert len(configs) == 7 * 2  # ... but the baseline (named three times) ran once
    assert len(set(configs)) == 7
    baseline = study[
        ((study["parameter"] == "population_size") & (study["value"] == 700))
        | ((study["parameter"] == "p_crossover") & (study["value"] == 0.6))
        | ((study["parameter"] == "p_mutation") & (study["value"] == 0.1))
    ]
    assert len(baseline) == 3
    assert baseline.drop(columns=["parameter", "value"]).nunique().max() == 1


def test_best_feasible_so_far_never_falls(sample):
    config = GAConfig(
        population_size=100,
        elite_size=10,
        max_generations=120,
        stop_at_first_feasible=False,
        seed=3,
    )
    history = run_ga(sample, config).history
    so_far = history["best_feasible_fitness"].dropna().to_numpy()
    assert len(so_far) and (np.diff(so_far) >= 0).all()


def test_population_array_is_capped():
    table = pd.DataFrame({"ticker": [f"T{i}" for i in range(2000)], "risk": 0.5, "return": 1.0})
    with pytest.raises(InputError, match="too large"):
        run_ga(table, GAConfig(population_size=3000, min_stocks=1))


def test_parameter_study_stops_at_its_time_budget(sample):
    base = dataclasses.replace(SMALL, max_generations=20)
    study = ga.parameter_study(sample, base, {"p_mutation": [0.1, 0.0]}, repeats=3, time_limit=1e-9)
    assert study.attrs["stopped_early"]
    assert len(study) == 1 and study["runs"].tolist() == [1]  # one run, then the budget


def test_coefficients_csv_escapes_formula_like_tickers():
    import io

    from lib.common import safe_csv_bytes

    table = pd.DataFrame({"ticker": ["=A1", "+B", "-C", "@D", "OK"], "risk": 0.1, "return": -0.5})
    text = safe_csv_bytes(report.coefficient_table(table, np.full(5, 0.2))).decode()
    parsed = pd.read_csv(io.StringIO(text))
    assert sorted(parsed["ticker"]) == sorted(["'=A1", "'+B", "'-C", "'@D", "OK"])
    assert (parsed["return"] == -0.5).all()  # numbers are data, not escaped


# --- the population trace (the risk/return animation) -------------------------------------


def _direct(population: np.ndarray, table: pd.DataFrame, config: GAConfig):
    """Weighted risk, return and feasibility of every row, one Python sum per row."""
    risk, ret, feasible = [], [], []
    for row in population:
        r = sum(float(w) * float(k) for w, k in zip(row, table["risk"], strict=True))
        m = sum(float(w) * float(x) for w, x in zip(row, table["return"], strict=True))
        held = sum(1 for w in row if w > 0)
        risk.append(r)
        ret.append(m)
        feasible.append(held >= config.min_stocks and r < config.max_risk and m > config.min_return)
    return np.array(risk), np.array(ret), np.array(feasible)


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    size=st.integers(4, 60),
    generations=st.integers(1, 40),
    n=st.integers(3, 12),
)
def test_the_trace_holds_each_kept_generations_weighted_risk_and_return(seed, size, generations, n):
    rng = np.random.default_rng(seed)
    table = pd.DataFrame(
        {
            "ticker": [f"S{i}" for i in range(n)],
            "risk": rng.random(n),
            "return": rng.random(n) * 20,
        }
    )
    config = GAConfig(
        population_size=size,
        elite_size=size // 5,
        min_stocks=2,
        max_risk=0.5,
        min_return=8.0,
        max_generations=generations,
        stop_at_first_feasible=False,
        seed=seed,
    )
    seen: list[np.ndarray] = []  # the population of every generation, as the GA evaluates it
    real = ga.evaluate

    def spy(population, problem, cfg):
        seen.append(population.copy())
        return real(population, problem, cfg)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ga, "evaluate", spy)
        result = run_ga(table, config)
    trace = result.trace
    assert trace.generations[0] == 1 and trace.generations[-1] == result.generations
    for k, generation in enumerate(trace.generations):
        risk, ret, feasible = _direct(seen[generation - 1], table, config)
        np.testing.assert_allclose(trace.risk[k], risk, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(trace.ret[k], ret, rtol=1e-5, atol=1e-4)
        # feasibility as the GA judged it (float sums may differ on a bound by 1 ulp)
        near = (np.abs(risk - config.max_risk) < 1e-9) | (np.abs(ret - config.min_return) < 1e-9)
        assert (trace.feasible[k] == feasible)[~near].all()
        assert int(trace.feasible[k].sum()) == result.history["n_feasible"].iloc[generation - 1]


def test_the_trace_is_thinned_evenly_to_at_most_100_generations_and_keeps_the_last():
    table = hard_case_table(120, seed=0)
    config = GAConfig(
        population_size=30, elite_size=3, max_generations=437, stop_at_first_feasible=False
    )
    trace = run_ga(table, config).trace
    assert len(trace.generations) <= ga.TRACE_FRAMES
    assert len(trace.generations) > ga.TRACE_FRAMES // 2
    assert trace.generations[0] == 1 and trace.generations[-1] == 437
    steps = np.diff(trace.generations[:-1])
    assert (steps == trace.stride).all()  # evenly spaced (the last may come sooner)


def test_a_large_population_is_sampled_to_at_most_trace_points_per_generation(sample):
    config = GAConfig(
        population_size=1000, elite_size=100, max_generations=3, stop_at_first_feasible=False
    )
    trace = run_ga(sample, config).trace
    assert [len(r) for r in trace.risk] == [ga.TRACE_POINTS] * 3
    rows = trace.rows(1000)
    assert rows[0] == 0 and rows[-1] == 999 and len(set(rows)) == ga.TRACE_POINTS
    table = trace.table()
    assert list(table.columns) == ["generation", "risk", "return", "feasible"]
    assert len(table) == 3 * ga.TRACE_POINTS
