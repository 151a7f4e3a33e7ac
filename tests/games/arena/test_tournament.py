"""Arena matches on real games: reproducibility on every executor, colours, presets, CLI."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games import othello, sim
from lib.games.arena import (
    InlineExecutor,
    MatchConfig,
    games_table,
    grid_matches,
    open_executor,
    pair_matches,
    partition_matches,
    play_game,
    player_pairs,
    presets,
    replay_label,
    run_tournament,
    spec_depth,
    start_state,
)
from lib.games.arena.__main__ import main
from lib.games.core import get_game
from lib.games.search.players import parse_player_spec

MATCHES = [
    MatchConfig("othello", ("alphabeta:depth=2", "random"), games=4, seed=7, options={"size": 6}),
    MatchConfig("othello", ("random", "greedy"), games=3, seed=7, options={"size": 6}),
]


def reproducible(result):
    return [r.reproducible() for r in result.records]


@pytest.fixture(scope="module")
def inline_result():
    return run_tournament(MATCHES, InlineExecutor())


def test_same_seed_same_games_in_process(inline_result):
    again = run_tournament(MATCHES)
    assert reproducible(again) == reproducible(inline_result)
    other_seed = run_tournament([MatchConfig(**{**vars(MATCHES[0]), "seed": 8})])
    assert reproducible(other_seed) != reproducible(inline_result)[:4]


def test_same_seed_same_games_in_a_process_pool(inline_result):
    with open_executor("process", workers=2) as pool:
        pooled = run_tournament(MATCHES, pool)
    assert not pooled.cancelled
    assert reproducible(pooled) == reproducible(inline_result)


def test_same_seed_same_games_on_a_dask_local_cluster(inline_result):
    distributed = pytest.importorskip("dask.distributed")
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=40,
        ) as cluster,
        open_executor("dask", scheduler=cluster.scheduler_address) as executor,
    ):
        on_dask = run_tournament(MATCHES, executor)
    assert reproducible(on_dask) == reproducible(inline_result)


def test_records_replay_to_the_recorded_result(inline_result):
    spec = get_game("othello")
    for record in inline_result.records:
        state = othello.initial_state(6)
        for text in record.moves.split():
            state = state.play(spec.parse_move(text, state))
        assert state.is_terminal()
        assert len(record.moves.split()) == record.plies
        a_colour = 0 if record.a_first else 1
        assert record.margin == state.score(a_colour)
        expected = {None: "draw", a_colour: "A", 1 - a_colour: "B"}[state.winner()]
        assert record.winner == expected
        # each player moved on its own turns; only searching players count nodes
        assert record.moves_a + record.moves_b == record.plies


def test_sim_coin_toss_is_part_of_the_seeded_game_and_recorded():
    match = MatchConfig("sim", ("alphabeta:depth=2", "random"), games=12, seed=3,
                        options={"first": sim.RANDOM})  # fmt: skip
    records = run_tournament([match]).records
    assert [r.reproducible() for r in run_tournament([match]).records] == [
        r.reproducible() for r in records
    ]
    starts = [r.first_player for r in records]
    assert set(starts) == {sim.RED, sim.BLUE}  # the coin decides, game by game
    for record in records:
        state = start_state(match, record.game)
        assert state.to_move == record.first_player
        for text in record.moves.split():  # the recorded moves replay to the recorded result
            state = state.play(sim.parse_move(text, state))
        a_colour = 0 if record.a_first else 1
        assert state.is_terminal()
        assert record.winner == ("A" if state.winner() == a_colour else "B")


@pytest.mark.parametrize(("first", "player"), [("red", sim.RED), ("blue", sim.BLUE)])
def test_a_fixed_first_player_starts_every_game(first, player):
    match = MatchConfig("sim", ("random", "random"), games=3, options={"first": first})
    assert [r.first_player for r in run_tournament([match]).records] == [player] * 3


def test_colours_alternate_and_random_has_no_search_stats(inline_result):
    first = [r for r in inline_result.records if r.match == 0]
    assert [r.a_first for r in first] == [True, False, True, False]
    assert [r.first_player for r in first] == [0, 0, 0, 0]  # Black always moves first
    assert all(r.nodes_a > 0 and r.ebf_a is not None for r in first)
    assert all(r.nodes_b == 0 and r.ebf_b is None for r in first)


def test_progress_cancel_and_resume():
    seen = []
    result = run_tournament(
        MATCHES,
        on_game=lambda record, done, total: seen.append((done, total)),
        should_stop=lambda: len(seen) >= 3,
    )
    assert result.cancelled and len(result.records) == 3
    assert seen == [(1, 7), (2, 7), (3, 7)]
    # tasks interleave the matches, so a partial run has games of both
    assert {r.match for r in result.records} == {0, 1}
    resumed = run_tournament(MATCHES, previous=result.records)
    assert not resumed.cancelled and len(resumed.records) == 7
    assert reproducible(resumed) == reproducible(run_tournament(MATCHES))


class _Left(Exception):
    """Raised by a move callback to stop a run in the middle of a game (as a page does)."""


def test_a_move_callback_follows_games_played_here_and_can_stop_one_midway(inline_result):
    seen: list[tuple[int, str]] = []
    first_game = inline_result.records[0].moves.split()

    def on_move(plies: int, move: str) -> None:
        seen.append((plies, move))
        if plies == 5:
            raise _Left

    with pytest.raises(_Left):
        run_tournament(MATCHES, InlineExecutor(), on_move=on_move)
    assert seen == list(enumerate(first_game[:5], start=1))
    # the callback changes nothing in the games
    watched = run_tournament(MATCHES, InlineExecutor(), on_move=lambda plies, move: None)
    assert reproducible(watched) == reproducible(inline_result)


def test_ply_limit_truncates_as_a_draw():
    match = MatchConfig("othello", ("random", "random"), games=1, options={"size": 6}, max_plies=5)
    record = play_game(match, 0)
    assert record.truncated and record.plies == 5 and record.winner == "draw"


def test_bad_matches_raise_input_errors():
    bad = [
        MatchConfig("othello", ("alphabeta:depth=2", "random"), options={"size": 5}),
        MatchConfig("othello", ("alphabeta:depth=2", "random"), options={"colour": 1}),
        MatchConfig("othello", ("alphabeta:depht=2", "random")),
        MatchConfig("othello", ("human", "random")),
        MatchConfig("chess", ("random", "random")),
    ]
    for match in bad:
        with pytest.raises(InputError):
            run_tournament([match])
    with pytest.raises(InputError):
        run_tournament([])
    with pytest.raises(InputError), open_executor("dask"):
        pass


def test_presets_build_valid_matches_and_respect_the_depth_cap():
    for preset in presets().values():
        matches = preset.matches(games=2, seed=3)
        assert matches and all(m.games == 2 and m.seed == 3 for m in matches)
        for match in matches:
            match.validate()
    capped = presets()["othello_pruning"].matches(max_depth=3)
    assert [m.label for m in capped] == [
        "minimax d1 vs random",
        "alpha-beta d1 vs random",
        "minimax d3 vs random",
        "alpha-beta d3 vs random",
    ]


def test_pruning_finds_the_same_moves_with_fewer_nodes():
    # minimax and plain alpha-beta at equal depth play the same game against the same
    # random opponent (same seed), but alpha-beta searches fewer nodes
    minimax = MatchConfig("othello", ("minimax:depth=3", "random"), games=2, options={"size": 6})
    pruned = MatchConfig(
        "othello",
        ("alphabeta:depth=3,ordering=false,tt=false", "random"),
        games=2,
        options={"size": 6},
    )
    a, b = run_tournament([minimax, pruned]).records[:2], run_tournament([pruned]).records
    for m, p in zip(a, b, strict=True):
        assert m.moves == p.moves and m.winner == p.winner
        assert p.nodes_a < m.nodes_a


def test_cli_writes_the_same_csv_for_any_worker_count(tmp_path, capsys):
    args = ["--game", "othello", "--size", "6", "--players", "alphabeta:depth=2", "random"]
    args += ["--games", "4", "--seed", "1", "--quiet"]
    assert main([*args, "--csv", str(tmp_path / "one.csv")]) == 0
    printed = capsys.readouterr().out
    assert "alphabeta:depth=2 vs random" in printed and "win_pct" in printed
    assert main([*args, "--workers", "2", "--csv", str(tmp_path / "two.csv")]) == 0
    assert (tmp_path / "one.csv").read_bytes() == (tmp_path / "two.csv").read_bytes()
    table = pd.read_csv(tmp_path / "one.csv")
    assert len(table) == 4 and "seconds_a" not in table
    assert main(["--players", "nonsense", "random", "--quiet"]) == 2
    assert "Unknown player kind" in capsys.readouterr().err


def test_cli_sim_coin_toss_matches_the_library(tmp_path, capsys):
    args = ["--game", "sim", "--first", "random", "--players", "alphabeta:depth=1", "random"]
    assert (
        main([*args, "--games", "8", "--seed", "3", "--quiet", "--csv", str(tmp_path / "s.csv")])
        == 0
    )
    table = pd.read_csv(tmp_path / "s.csv")
    match = MatchConfig("sim", ("alphabeta:depth=1", "random"), games=8, seed=3,
                        options={"first": sim.RANDOM})  # fmt: skip
    assert list(table["first_player"]) == [start_state(match, g).to_move for g in range(8)]
    assert set(table["first_player"]) == {sim.RED, sim.BLUE}
    assert main(["--game", "sim", "--first", "green", "--players", "random", "random"]) == 2
    assert "green" in capsys.readouterr().err


def test_grid_covers_every_combination_once():
    matches = grid_matches(
        "othello",
        depths=[1, 2],
        algorithms=["minimax", "alphabeta"],
        orderings=[False, True],
        heuristics=[None, "discs"],
        options={"size": 6},
        games=1,
    )
    # per depth and heuristic: one minimax, two alpha-beta (ordering off / on)
    assert len(matches) == 2 * 2 * 3
    assert len({m.players for m in matches}) == len(matches)
    configs = [parse_player_spec(m.players[0]) for m in matches]
    assert all(m.players[1] == "random" for m in matches)
    assert all(not c.transposition for c in configs if c.kind == "alphabeta")
    assert {(c.kind, c.ordering) for c in configs if c.kind == "alphabeta"} == {
        ("alphabeta", False),
        ("alphabeta", True),
    }
    assert {c.heuristic for c in configs} == {None, "discs"}
    for match in matches:
        match.validate()
    with pytest.raises(InputError):
        grid_matches("othello", depths=[])


def test_player_pairs():
    assert player_pairs([" a ", "", "b"], "r") == [("a", "r"), ("b", "r")]
    assert player_pairs(["a", "b", "c"], round_robin=True) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert player_pairs(["a", "b"], "r", round_robin=True) == [("a", "b"), ("a", "r"), ("b", "r")]
    with pytest.raises(InputError):
        player_pairs(["a"], None)


def test_options_tuple_is_sorted_and_hashable_for_dicts_and_keeps_pairs():
    from lib.games.arena import options_tuple

    assert options_tuple({"size": 6, "a": 1}) == (("a", 1), ("size", 6))
    assert options_tuple([["size", 8]]) == (("size", 8),)
    assert hash(options_tuple({"size": 6})) == hash((("size", 6),))


# -- study building and naming helpers (moved out of the Arena page) ----------------------


def test_pair_matches_gives_each_pair_the_same_settings():
    pairs = player_pairs(["alphabeta:depth=1", "greedy"], "random", round_robin=True)
    matches = pair_matches("othello", pairs, games=3, seed=5, options={"size": 6}, max_plies=60)
    assert [m.players for m in matches] == pairs
    assert all(
        (m.game, m.games, m.seed, m.option_dict, m.max_plies) == ("othello", 3, 5, {"size": 6}, 60)
        for m in matches
    )
    # the same study as building each match by hand: the same games are played
    by_hand = [
        MatchConfig("othello", p, games=3, seed=5, options={"size": 6}, max_plies=60) for p in pairs
    ]
    assert reproducible(run_tournament(matches)) == reproducible(run_tournament(by_hand))
    assert pair_matches("othello", []) == []


@given(st.lists(st.integers(1, 9), max_size=12), st.integers(1, 9))
def test_partition_matches_keeps_order_and_loses_nothing(depths, cap):
    matches = [MatchConfig("othello", (f"alphabeta:depth={d}", "random")) for d in depths]
    kept, left_out = partition_matches(matches, lambda m: spec_depth(m.players[0]) <= cap)
    assert kept == [m for m in matches if spec_depth(m.players[0]) <= cap]
    assert left_out == [m for m in matches if spec_depth(m.players[0]) > cap]
    assert sorted(map(id, kept + left_out)) == sorted(map(id, matches))


def test_replay_labels_name_the_match_the_game_number_and_the_winner(inline_result):
    labels = [replay_label(r) for r in inline_result.records]
    assert len(set(labels)) == len(labels)  # every game can be told apart
    for record, label in zip(inline_result.records, labels, strict=True):
        match = MATCHES[record.match]
        # numbered from 0 as in the per-game table (games_table's "game" column)
        assert label == f"{match.label} · game {record.game} · winner {record.winner}"
    numbers = games_table(inline_result.records)["game"].tolist()
    assert [int(label.split(" · game ")[1].split(" ")[0]) for label in labels] == numbers
