"""The race's link parser (:func:`lib.ui.routes_common.parse_racers`): 2 to 4 known, different
algorithm names joined by ``|``; anything else is refused, never crashes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lib.links import read_link
from lib.routes import race, search
from lib.ui.routes_common import DEFAULT_RACERS, RACE_LINK, parse_racers

NAMES = list(search.ALGORITHMS)


@given(
    st.lists(
        st.sampled_from(NAMES), min_size=race.MIN_RACERS, max_size=race.MAX_RACERS, unique=True
    )
)
def test_known_racers_read_back_in_their_order(names):
    assert parse_racers("|".join(names)) == names


@given(st.text(max_size=200))
def test_any_text_is_read_or_refused_with_a_note_naming_it(text):
    values, notes = read_link(RACE_LINK, {"race": text})
    names = text.split("|")
    good = (
        race.MIN_RACERS <= len(names) <= race.MAX_RACERS
        and len(set(names)) == len(names)
        and all(name in NAMES for name in names)
    )
    assert values["race"] == (names if good else list(DEFAULT_RACERS))
    assert (notes == []) == good
    if notes:
        assert notes[0].startswith("The link's race=")


@pytest.mark.parametrize("text", ["A*", "A*|A*", "A*|BFS|DFS|IDA*|Uniform-cost", "A*|bfs", ""])
def test_too_few_too_many_repeated_or_unknown_racers_are_refused(text):
    with pytest.raises(ValueError):
        parse_racers(text)
