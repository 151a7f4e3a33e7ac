"""The formula benchmark runs end to end on a few positions: one row per case, three timings."""

from __future__ import annotations

from bench import formula as bench


def test_cost_times_every_case_against_its_built_in(capsys, monkeypatch):
    monkeypatch.setattr(bench, "POSITIONS", 10)
    monkeypatch.setattr(bench, "REPEATS", 1)
    bench.cost()
    rows = capsys.readouterr().out.splitlines()[2:]
    assert [row.split()[:2] for row in rows] == [
        [game, built_in] for game, built_in, _ in bench.CASES
    ]
    for row in rows:
        numbers = [float(x) for x in row.split()[2:]]
        assert len(numbers) == 5 and all(x > 0 for x in numbers)
