"""Link settings: one typed schema per page, read and written the same way everywhere."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lib.links import LinkField, parse_bool, read_link, shown, write_link

SCHEMA = (
    LinkField("pop", int, 700, low=20, high=3000),
    LinkField("pc", float, 0.6, low=0.0, high=1.0),
    LinkField("sel", str, "rank", choices=("rank", "tournament", "roulette")),
    LinkField("repair", bool, True),
    LinkField("algos", str, ("astar",), parse=lambda t: tuple(t.split("|")), expected="names"),
)


@given(
    pop=st.integers(20, 3000),
    pc=st.floats(0.0, 1.0, allow_nan=False),
    sel=st.sampled_from(["rank", "tournament", "roulette"]),
    repair=st.booleans(),
)
def test_written_values_read_back_unchanged_and_without_notes(pop, pc, sel, repair):
    values = {"pop": pop, "pc": pc, "sel": sel, "repair": repair}
    text = write_link(SCHEMA, values)
    read, notes = read_link(SCHEMA, text)
    assert notes == []
    assert read["pop"] == pop and read["sel"] == sel and read["repair"] is repair
    assert math.isclose(read["pc"], pc, rel_tol=1e-5, abs_tol=1e-12)


@given(pop=st.integers(-(10**9), 10**9))
def test_a_number_outside_its_range_is_moved_to_the_nearest_bound_and_said(pop):
    read, notes = read_link(SCHEMA, {"pop": str(pop)})
    assert read["pop"] == min(3000, max(20, pop))
    assert (notes == []) == (20 <= pop <= 3000)
    if notes:
        assert notes[0] == (
            f"The link's pop={pop} is outside this page's range 20–3000; using {read['pop']}."
        )


@pytest.mark.parametrize(
    ("name", "raw", "expected"),
    [
        ("pop", "2.5", "is not a whole number; using 700."),
        ("pop", "nan", "is not a whole number; using 700."),
        ("pc", "inf", "is not a number; using 0.6."),
        ("sel", "best", "is not one of rank, tournament, roulette; using rank."),
        ("repair", "maybe", "is not yes or no; using true."),
    ],
)
def test_an_unusable_value_falls_back_to_the_default_and_is_named(name, raw, expected):
    read, notes = read_link(SCHEMA, {name: raw})
    assert read[name] == next(f.default for f in SCHEMA if f.name == name)
    assert notes == [f"The link's {name}={raw} {expected}"]


def test_a_huge_value_is_quoted_short_and_custom_parsers_are_used():
    read, notes = read_link(SCHEMA, {"pop": "9" * 16_000, "algos": "astar|bfs"})
    assert read["algos"] == ("astar", "bfs")
    assert len(notes) == 1 and "16,000 characters" in notes[0] and len(notes[0]) < 200
    assert shown("x" * 10) == "x" * 10


@pytest.mark.parametrize("word", ["yes", "TRUE", "on", "1", " no ", "False", "off", "0"])
def test_one_boolean_reader_for_every_page(word):
    assert parse_bool(word) is (word.strip().lower() in ("yes", "true", "on", "1"))
    with pytest.raises(ValueError):
        parse_bool("perhaps")
