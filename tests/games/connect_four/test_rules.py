"""Connect Four: perft and position counts, the bitboard engine against a naive grid engine,
wins in every direction, the search finding wins and blocks, alpha-beta = minimax, notation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games import connect_four, core
from lib.games.arena import MatchConfig
from lib.games.connect_four import (
    GAME,
    HEURISTICS,
    RED,
    YELLOW,
    format_move,
    initial_state,
    parse_move,
    state_from_moves,
    state_from_text,
)
from lib.games.search.fast import choose_move
from tests.games.naive import connect_four as connect_four_naive
from tests.games.naive import perft_positions

# OEIS A212693 (John Tromp): legal 7x6 positions after n plies, a finished game not continued
POSITIONS_AFTER = (1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275)


def to_grid(state: connect_four.ConnectFourState) -> connect_four_naive.Grid:
    """The bitboard position as the naive engine's grid (row 0 at the bottom)."""
    return [[state.cell(col, row) for col in range(7)] for row in range(6)]


def naive_perft(state: connect_four.ConnectFourState, depth: int) -> int:
    return perft_positions(
        connect_four_naive.legal_moves,
        connect_four_naive.play,
        to_grid(state),
        state.to_move,
        depth,
    )


def random_state(seed: int, plies: int) -> connect_four.ConnectFourState:
    """The position after up to ``plies`` random moves (fewer if the game ends)."""
    rng = np.random.default_rng(seed)
    state = initial_state()
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        state = state.play(moves[int(rng.integers(len(moves)))])
    return state


@pytest.mark.parametrize("depth", range(1, 8))
def test_perft_from_the_empty_board(depth):
    # No game can end before ply 7 and a column fills only after 6 discs, so every sequence
    # of up to 6 moves is legal (7**d). At depth 7 the only sequences missing are the 7
    # that fill one column with the first 6 discs and then have only 6 columns left.
    expected = 7**depth if depth <= 6 else 7**7 - 7
    assert core.perft(initial_state(), depth) == expected


@pytest.mark.parametrize("depth", range(1, 6))
def test_perft_matches_the_naive_engine_from_the_start(depth):
    assert naive_perft(initial_state(), depth) == core.perft(initial_state(), depth)


@pytest.mark.parametrize("seed", range(8))
def test_perft_matches_the_naive_engine_in_the_middle_game(seed):
    # after 10 to 24 random plies wins and full columns happen inside the counted tree
    state = random_state(seed, 10 + 2 * seed)
    assert naive_perft(state, 4) == core.perft(state, 4)


def test_positions_after_n_plies_match_oeis_a212693():
    level = {initial_state()}
    counts = [1]
    for _ in range(len(POSITIONS_AFTER) - 1):
        level = {state.play(move) for state in level for move in state.legal_moves()}
        counts.append(len(level))
    assert tuple(counts) == POSITIONS_AFTER


@settings(max_examples=60, deadline=None)
@given(picks=st.lists(st.integers(0, 6), min_size=1, max_size=42))
def test_random_playouts_agree_with_the_naive_engine_at_every_ply(picks):
    state = initial_state()
    grid = connect_four_naive.initial_grid()
    for pick in picks:
        player = state.to_move
        moves = state.legal_moves()
        assert moves == connect_four_naive.legal_moves(grid, player)
        assert state.winner() == connect_four_naive.winner(grid)
        assert state.is_terminal() == (not moves)
        assert state.count_moves() == len(moves)
        assert to_grid(state) == grid
        if not moves:
            break
        move = moves[pick % len(moves)]
        state = state.play(move)
        grid = connect_four_naive.play(grid, player, move)


def test_a_long_random_game_reaches_the_end_the_same_way_in_both_engines():
    for seed in range(20):
        state = random_state(seed, 42)
        assert state.is_terminal()
        grid = to_grid(state)
        assert state.winner() == connect_four_naive.winner(grid)
        if state.winner() is None:
            assert connect_four_naive.is_full(grid)


@pytest.mark.parametrize(
    ("moves", "winner", "direction"),
    [
        ("abababa", RED, "vertical"),
        ("aabbccd", RED, "horizontal"),
        ("abbccdcddgd", RED, "diagonal /"),
        ("gffeededdad", RED, "diagonal \\"),
        ("gabacada", YELLOW, "vertical (Yellow)"),
    ],
)
def test_four_in_a_row_in_every_direction(moves, winner, direction):
    state = state_from_moves(moves)
    assert state.is_terminal(), direction
    assert state.winner() == winner
    assert state.score(winner) == 1 + 42 - len(moves)
    assert state.score(1 - winner) == -state.score(winner)
    assert state.legal_moves() == []
    assert connect_four_naive.winner(to_grid(state)) == winner
    assert len(state.winning_squares()) >= 4
    # one move earlier the game was still on
    assert not state_from_moves(moves[:-1]).is_terminal()


def test_no_wrap_around_between_columns():
    # Red has a5, a6 (bits 4, 5) and b1, b2 (bits 7, 8): a run of four but for the spare
    # bit 6 at the top of column a, and no line on the board
    state = state_from_text("R......\nR......\nY......\nY......\nRR.....\nYRY...Y")
    assert not state.is_terminal()
    assert connect_four_naive.winner(to_grid(state)) is None


def test_full_board_draw():
    # the end of a random game (seed 344) that filled the board without a four
    rows = ["YYRYRYR", "YRRRYRR", "YRYRYRY", "RYRYYYR", "RYYYRRY", "RRYRYRY"]
    state = state_from_text("\n".join(rows))
    assert state.is_terminal() and state.winner() is None and state.legal_moves() == []
    assert state.score(RED) == 0
    assert connect_four_naive.is_full(to_grid(state))
    assert connect_four_naive.winner(to_grid(state)) is None


def test_depth_one_alphabeta_finds_a_win_in_one():
    # Red has c, d, e on the bottom row: b or f wins at once
    state = state_from_moves("cceedd")
    result = choose_move(state, algorithm="alphabeta", depth=1)
    assert result.move in (1, 5)
    assert result.value > core.WIN_VALUE
    assert state.play(result.move).winner() == RED


def test_depth_two_alphabeta_blocks_a_win_in_one():
    # Red has c1 d1 e1, Yellow b1 g1: Red wins at f1 unless Yellow takes it now
    state = state_from_moves("cbdge")
    assert state.to_move == YELLOW
    result = choose_move(state, algorithm="alphabeta", depth=2)
    assert format_move(result.move) == "f"


@pytest.mark.parametrize("seed", range(30))
def test_alphabeta_equals_minimax_on_random_positions(seed):
    state = random_state(seed, seed % 25)
    if state.is_terminal():
        state = random_state(seed, 6)
    heuristic = list(HEURISTICS)[seed % len(HEURISTICS)]
    depth = 1 + seed % 3
    expected = choose_move(state, algorithm="minimax", depth=depth, heuristic=heuristic).value
    for ordering in (False, True):
        for table in (False, True):
            result = choose_move(
                state,
                algorithm="alphabeta",
                depth=depth,
                heuristic=heuristic,
                ordering=ordering,
                transposition=table,
            )
            assert result.value == expected


def test_notation_round_trips_and_reads_numbers():
    state = initial_state()
    for column in range(7):
        assert parse_move(format_move(column), state) == column
        assert parse_move(str(column + 1), state) == column
    assert "".join(format_move(c) for c in range(7)) == "abcdefg"
    assert parse_move(" D ", state) == 3


@pytest.mark.parametrize("text", ["h", "0", "8", "", "d4", "dd", "-1"])
def test_bad_columns_are_refused(text):
    with pytest.raises(InputError, match="not a column"):
        parse_move(text, initial_state())


def test_full_column_and_finished_game_are_refused():
    state = state_from_moves("aaaaaa")
    assert 0 not in state.legal_moves()
    with pytest.raises(InputError, match="full"):
        parse_move("a", state)
    with pytest.raises(InputError, match="full"):
        state.play(0)
    with pytest.raises(InputError, match="no column"):
        state.play(7)
    won = state_from_moves("abababa")
    with pytest.raises(InputError, match="over"):
        parse_move("c", won)


def test_state_from_text_checks_the_board():
    assert state_from_text("\n".join(["......."] * 5 + ["...R..."])) == initial_state().play(3)
    with pytest.raises(InputError, match="six rows"):
        state_from_text(".......")
    with pytest.raises(InputError, match="rest on"):
        state_from_text("\n".join(["......."] * 4 + ["...R...", "......Y"]))
    with pytest.raises(InputError, match="Red moves first"):
        state_from_text("\n".join(["......."] * 5 + ["YY....."]))
    with pytest.raises(InputError, match="unknown symbol"):
        state_from_text("\n".join(["......."] * 5 + ["X......"]))


def test_threat_heuristic_by_hand():
    # Red c1 d1 e1, Yellow c2 d2. Red's open windows along the bottom row: a1-d1 and d1-g1
    # hold two discs, b1-e1 and c1-f1 three; its other windows are blocked or hold one.
    # Yellow's open twos: a2-d2, b2-e2, c2-f2.
    state = state_from_moves("ccdde")
    assert connect_four.window_counts(state, RED) == (2, 2, 0, 3)
    assert connect_four.window_counts(state, YELLOW) == (0, 3, 2, 2)
    threats = HEURISTICS["threats"]
    # 5·(2 − 0) + 2·(2 − 3) + 3·(one centre disc each: 0)
    assert threats.evaluate(state, RED) == 8
    assert threats.evaluate(state, YELLOW) == -8
    assert threats.bind({"three": 1, "two": 0, "centre": 0})(state, RED) == 2
    # open windows: 69 minus those holding a Yellow disc, minus those holding a Red one
    open_windows = HEURISTICS["open windows"].evaluate(state, RED)
    red = sum(1 for w in connect_four.WINDOWS if not w & state.yellow)
    yellow = sum(1 for w in connect_four.WINDOWS if not w & state.red)
    assert open_windows == red - yellow


@settings(max_examples=200, deadline=None)
@given(picks=st.lists(st.integers(0, 6), max_size=42))
def test_the_bit_parallel_window_count_equals_the_loop(picks):
    state = initial_state()
    for pick in picks:
        moves = state.legal_moves()
        if not moves:
            break
        state = state.play(moves[pick % len(moves)])
    for player in (RED, YELLOW):
        assert connect_four.window_counts_fast(state, player) == connect_four.window_counts(
            state, player
        )


def test_window_starts_cover_the_69_windows():
    assert len(connect_four.WINDOWS) == 69
    per_direction = {shift: starts.bit_count() for shift, starts in connect_four.WINDOW_STARTS}
    # vertical 7 columns x 3, horizontal 4 x 6, each diagonal 4 x 3
    assert per_direction == {1: 21, 7: 24, 6: 12, 8: 12}


def test_game_spec():
    assert core.get_game("connect_four") is GAME
    assert GAME.order == 15
    keys = [preset.key for preset in GAME.presets]
    for preset in GAME.presets:  # every player spec of the presets is valid for this game
        for _, spec_a, spec_b in preset.pairs:
            match = MatchConfig(GAME.name, (spec_a, spec_b), options=dict(preset.options))
            match.validate()
    assert len(set(keys)) == len(keys) and all(k.startswith("connect_four_") for k in keys)
    state = random_state(3, 20)
    for heuristic in GAME.heuristics.values():
        assert abs(heuristic.evaluate(state, RED)) < core.WIN_VALUE / 10


def good_threats_by_trying(state: connect_four.ConnectFourState, player: int) -> int:
    """The player's empty squares that would complete a four, on the player's parity rows
    (odd rows for Red, even for Yellow), found by dropping a disc there and looking."""
    discs = state.red if player == RED else state.yellow
    rows = (0, 2, 4) if player == RED else (1, 3, 5)
    found = 0
    for column in range(connect_four.COLUMNS):
        for height in rows:
            square = connect_four.bit(column, height)
            if not square & state.occupied() and connect_four.has_four(discs | square):
                found += 1
    return found


@settings(max_examples=150, deadline=None)
@given(picks=st.lists(st.integers(0, 6), max_size=42))
def test_threat_parity_adds_each_sides_good_threats_to_the_threats_heuristic(picks):
    state = initial_state()  # a game in progress: the search scores no finished game
    for pick in picks:
        moves = state.legal_moves()
        after = state.play(moves[pick % len(moves)])
        if after.is_terminal():
            break
        state = after
    parity = HEURISTICS["threat parity"]
    good = good_threats_by_trying(state, RED) - good_threats_by_trying(state, YELLOW)
    for player, sign in ((RED, 1), (YELLOW, -1)):
        assert parity.bind({"parity": 0})(state, player) == HEURISTICS["threats"].evaluate(
            state, player
        )
        only = parity.bind({"three": 0, "two": 0, "centre": 0, "parity": 1})(state, player)
        assert only == sign * good


def test_threat_parity_by_hand():
    # Red d1 d2 d3 (d4 completes it, row 4: even, Yellow's parity) and Yellow a1 b1.
    state = state_from_moves("dadbd")
    parity = HEURISTICS["threat parity"]
    assert parity.bind({"three": 0, "two": 0, "centre": 0, "parity": 1})(state, RED) == 0
    # Red c1 d1 e1 with Yellow on c2 d2: b1 and f1 (row 1, Red's parity) both complete it
    state = state_from_moves("ccdde")
    assert parity.bind({"three": 0, "two": 0, "centre": 0, "parity": 1})(state, RED) == 2
    assert parity.evaluate(state, RED) == HEURISTICS["threats"].evaluate(state, RED) + 4 * 2
