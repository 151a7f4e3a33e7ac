"""Durations in words: milliseconds below a second, seconds above, read back to the value."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lib.durations import duration_text


@pytest.mark.parametrize(
    ("seconds", "expected"),
    [(0.0, "0.0 ms"), (0.000196, "0.2 ms"), (0.0015, "1.5 ms"), (0.00996, "10 ms"),
     (0.32, "320 ms"), (0.9994, "999 ms"), (1.0, "1.00 s"), (2.345, "2.35 s")],
)  # fmt: skip
def test_durations_below_a_second_are_said_in_milliseconds(seconds, expected):
    # the caption said "0.00 s here (median; worst 0.01 s)" for solves of a few milliseconds
    assert duration_text(seconds) == expected


@given(st.floats(0, 10, allow_nan=False))
def test_a_longer_duration_never_reads_as_a_shorter_one(seconds):
    def back(text: str) -> float:
        number, unit = text.split()
        return float(number) / (1000 if unit == "ms" else 1)

    assert back(duration_text(seconds)) == pytest.approx(seconds, abs=0.005, rel=0.01)
