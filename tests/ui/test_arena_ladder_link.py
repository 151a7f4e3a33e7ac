"""The ladder link's player list (:func:`lib.ui.arena_ladder.player_names_parser`): names from the
roster joined by ``|``, read back in the roster's order; any other text is refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lib.games.arena.ladder import DEFAULT_TIME, ladder_players, player_labels
from lib.ui.arena_ladder import player_names_parser

LABELS = player_labels("othello", ladder_players("othello", DEFAULT_TIME, 5))
parse = player_names_parser(LABELS)


@given(st.lists(st.sampled_from(LABELS), min_size=1, unique=True))
def test_chosen_players_read_back_in_the_rosters_order(chosen):
    assert parse("|".join(chosen)) == [label for label in LABELS if label in chosen]


@given(st.text(max_size=200))
def test_any_text_is_read_as_roster_names_or_refused(text):
    try:
        read = parse(text)
    except ValueError:
        assert any(name not in LABELS for name in text.split("|"))
    else:
        assert read and set(read) == set(text.split("|")) <= set(LABELS)


@pytest.mark.parametrize("text", ["", "Random|", "Random|Nobody", "random"])
def test_an_unknown_or_empty_name_is_refused(text):
    with pytest.raises(ValueError):
        parse(text)
