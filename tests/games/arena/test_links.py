"""Replay links: a finished game is reproduced from its players, seed and number alone."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import pytest

from lib.errors import InputError
from lib.games.arena import (
    MatchConfig,
    play_game,
    replay_from_link,
    replay_link_params,
    run_tournament,
)

STUDY = [
    MatchConfig(
        "othello",
        ("alphabeta:depth=2", "random"),
        games=3,
        seed=11,
        options={"size": 6},
        label="ab d2 & co",
    ),
    MatchConfig("sim", ("random", "greedy"), games=4, seed=5, options={"first": "random"}),
    MatchConfig("checkers", ("greedy", "random"), games=2, seed=3, max_plies=40),
]


def _through_url(params: dict[str, str]) -> dict[str, str]:
    """The parameters as a browser gives them back after a round trip through a URL."""
    return dict(parse_qsl(urlencode(params)))


def test_every_game_of_a_study_is_reproduced_from_its_link():
    result = run_tournament(STUDY)
    assert len(result.records) == sum(m.games for m in STUDY)
    for record in result.records:
        params = _through_url(replay_link_params(record, STUDY[record.match]))
        assert not any(value == record.moves for value in params.values())  # no moves stored
        match, number, starts = replay_from_link(params)
        assert (number, starts) == (record.game, record.first_player)
        replayed = play_game(match, number, record.match)
        assert replayed.reproducible() == record.reproducible()


def test_sim_coin_toss_differs_between_games_and_is_recorded_in_the_link():
    records = run_tournament(STUDY[1:2]).records
    starts = {replay_link_params(r, STUDY[1])["r_first"] for r in records}
    assert starts == {"0", "1"}  # the seeded toss gives both starts over these four games


def _link(**changes: str | None) -> dict[str, str]:
    record = run_tournament(STUDY[:1]).records[1]
    params = replay_link_params(record, STUDY[0])
    params.update(changes)
    return {k: v for k, v in params.items() if v is not None}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"replay": "chess"}, "game 'chess' is not one of"),
        ({"r_a": None}, "lacks r_a"),
        ({"r_seed": "x1"}, "r_seed='x1' is not a whole number"),
        ({"r_game": "-1"}, "r_game=-1 is outside"),
        ({"r_first": "2"}, "r_first=2 is outside 0–1"),
        ({"o_size": "7"}, "o_size='7' is not one of 6, 8"),
        ({"r_b": "human"}, "'human' cannot play here"),
        ({"r_b": "alphabeta:depth=x"}, "depth must be a whole number"),
        ({"r_b": "alphabeta:depth=3,time=1"}, "time budget"),
    ],
)
def test_a_bad_link_names_what_is_wrong(changes, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        replay_from_link(_link(**changes))


def test_a_match_with_a_time_budget_gives_no_link():
    match = MatchConfig("othello", ("alphabeta:depth=2,time=0.5", "random"), options={"size": 6})
    record = run_tournament(STUDY[:1]).records[0]
    with pytest.raises(InputError, match="time budget"):
        replay_link_params(record, match)


def test_play_game_reports_each_move_as_it_is_played():
    seen: list[tuple[int, str]] = []
    record = play_game(STUDY[2], 1, on_move=lambda plies, move: seen.append((plies, move)))
    assert seen == list(enumerate(record.moves.split(), start=1))
    assert record.reproducible() == play_game(STUDY[2], 1).reproducible()
