"""AIMA's n-queens figures, measured: the success rates against the book's, restarts against 1/p."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from lib.errors import InputError
from lib.local_search import aima


def test_steepest_ascent_success_rates_match_the_book():
    plain = aima.climbs(3_000, seed=1, max_sideways=0)
    sideways = aima.climbs(3_000, seed=2, max_sideways=100)
    # AIMA: 14 % and 94 %; 3,000 instances give a standard error under 0.7 points
    assert abs(100 * plain.rate - 14) <= 2.5
    assert abs(100 * sideways.rate - 94) <= 2
    assert 3.5 <= plain.steps_solved <= 4.5 and 2.5 <= plain.steps_stuck <= 3.5
    assert 15 <= sideways.steps_solved <= 25 and 50 <= sideways.steps_stuck <= 75


def test_random_restart_needs_about_one_over_p_climbs():
    p = aima.climbs(3_000, seed=3, max_sideways=0).rate
    runs = aima.restarts(600, seed=4, max_sideways=0)
    # the number of climbs is geometric with mean 1/p and standard deviation sqrt(1-p)/p
    spread = math.sqrt(1 - p) / p / math.sqrt(runs.runs)
    assert abs(runs.mean_climbs - 1 / p) <= 4 * spread


def test_the_table_names_the_book_and_our_figures():
    table = pd.DataFrame(aima.aima_figures(500, seed=1, restart_runs=100, queens=2_000))
    rates = table[table["Measure"] == "solved (%)"]
    assert list(rates["Book"]) == [14, 94]
    assert set(table["Within goal"]) <= {"yes", "no", ""}
    left = table[table["Measure"] == "attacking pairs left"]["Ours"].item()
    assert left == 0


def test_instances_are_capped():
    with pytest.raises(InputError, match="100,000"):
        aima.climbs(10**6, seed=1, max_sideways=0)


def test_the_figures_job_loads_no_pandas():
    # a pool worker holding the compiled code and pandas together passes its memory cap
    import subprocess
    import sys

    code = (
        "import sys; import lib.local_search.aima as a; "
        "a.aima_figures(1000, 1, 200, 1000); print('pandas' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
