"""Checkers rules: perft against the published table, an independent move generator, notation."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games import checkers
from lib.games.arena import MatchConfig, play_game
from lib.games.checkers import (
    BLACK,
    DRAW_PLIES,
    GAME,
    HEURISTICS,
    WHITE,
    continue_clicks,
    format_move,
    initial_state,
    parse_move,
    position,
    square_at,
    square_row_col,
)
from lib.games.core import WIN_VALUE, get_game, perft
from lib.games.search.fast import choose_move
from tests.games.naive import checkers as checkers_naive

# shared/REFERENCE.md: English draughts perft from the start position
PERFT = {1: 7, 2: 49, 3: 302, 4: 1469, 5: 7361, 6: 36768, 7: 179740, 8: 845931}


@pytest.mark.parametrize("depth", range(1, 8))
def test_perft_matches_published_table(depth):
    assert perft(initial_state(), depth) == PERFT[depth]


@pytest.mark.slow
def test_perft_depth_8():
    assert perft(initial_state(), 8) == PERFT[8]


# ---------------------------------------------------------------- the naive oracle


def naive_board(state: checkers.CheckersState) -> checkers_naive.Board:
    """The bitboard position as the naive engine's dict board."""
    board: checkers_naive.Board = {}
    for player in (BLACK, WHITE):
        men, kings = state.pieces(player)
        for square in men:
            board[checkers_naive.coordinates(square)] = (player, False)
        for square in kings:
            board[checkers_naive.coordinates(square)] = (player, True)
    return board


def reference_moves(state: checkers.CheckersState) -> set[tuple[int, ...]]:
    """Legal moves by the slow, coordinate-based generator written from the rules."""
    if state.quiet >= DRAW_PLIES:
        return set()
    return set(checkers_naive.legal_moves(naive_board(state), state.to_move))


def test_naive_engine_matches_published_perft_and_start_position():
    assert naive_board(initial_state()) == checkers_naive.initial_board()
    board = checkers_naive.initial_board()
    for depth in range(1, 5):
        assert checkers_naive.perft(board, BLACK, depth) == PERFT[depth]


def random_game(seed: int, max_plies: int = 200):
    """The states of a random game from the start (seeded)."""
    rng = random.Random(seed)
    state = initial_state()
    states = [state]
    while not state.is_terminal() and len(states) <= max_plies:
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


@pytest.mark.parametrize("seed", range(12))
def test_moves_agree_with_reference_generator_in_random_games(seed):
    for state in random_game(seed):
        moves = state.legal_moves()
        assert len(moves) == len(set(moves))
        assert set(moves) == reference_moves(state)
        assert state.is_terminal() == (not moves)
        assert state.count_moves() == len(moves)
        for move in moves[:3]:
            after = checkers_naive.play(naive_board(state), state.to_move, move)
            assert naive_board(state.play(move)) == after


@pytest.mark.parametrize("seed", range(12))
def test_invariants_under_random_play(seed):
    states = random_game(seed)
    for before, after in itertools.pairwise(states):
        mover = before.to_move
        move = next(m for m in before.legal_moves() if before.play(m) == after)
        # piece counts never grow
        assert after.black.bit_count() <= before.black.bit_count()
        assert after.white.bit_count() <= before.white.bit_count()
        # captures are forced: a non-capture is played only when no capture exists
        if not checkers.is_capture(move):
            assert not any(checkers.is_capture(m) for m in before.legal_moves())
        captured = (len(move) - 1) if checkers.is_capture(move) else 0
        opp_before = before.white if mover == BLACK else before.black
        opp_after = after.white if mover == BLACK else after.black
        assert opp_before.bit_count() - opp_after.bit_count() == captured
        # kings appear only by crowning: the moving man reaching the far row
        own_before = before.black if mover == BLACK else before.white
        own_after = after.black if mover == BLACK else after.white
        crowned = (own_after & after.kings).bit_count() - (own_before & before.kings).bit_count()
        was_man = not before.kings & (1 << (move[0] - 1))
        reaches_far_row = bool(checkers.CROWN_ROW[mover] & (1 << (move[-1] - 1)))
        assert crowned == (1 if was_man and reaches_far_row else 0)
        assert (opp_after & after.kings).bit_count() <= (opp_before & before.kings).bit_count()
        assert after.kings & ~(after.black | after.white) == 0
        assert after.to_move == 1 - mover


# ---------------------------------------------------------------- rules on set positions


def test_start_moves_in_notation():
    moves = {format_move(m) for m in initial_state().legal_moves()}
    assert moves == {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}


def test_multi_jump_is_one_move_written_with_x():
    state = position(white=[22], black=[18, 11], to_move=WHITE)
    assert state.legal_moves() == [(22, 15, 8)]
    after = state.play((22, 15, 8))
    assert after.black == 0
    assert format_move((22, 15, 8)) == "22x15x8"
    assert after.winner() == WHITE


def test_jump_must_continue_but_any_sequence_may_be_chosen():
    # from 6 a Black man can take 10 then 19, or 9 and stop (no maximum-capture rule)
    state = position(black=[6], white=[10, 19, 9], to_move=BLACK)
    assert set(state.legal_moves()) == {(6, 15, 24), (6, 13)}
    with pytest.raises(InputError, match="go on"):
        parse_move("6x15", state)


def test_crowning_ends_the_move():
    man = position(black=[22], white=[26, 27], to_move=BLACK)
    assert man.legal_moves() == [(22, 31)]
    assert man.play((22, 31)).kings == 1 << 30
    king = position(black_kings=[22], white=[26, 27], to_move=BLACK)
    assert (22, 31, 24) in king.legal_moves()


def test_king_moves_backwards_and_men_do_not():
    assert set(position(black_kings=[14], white=[32]).legal_moves()) == {
        (14, 9),
        (14, 10),
        (14, 17),
        (14, 18),
    }
    assert set(position(black=[14], white=[32]).legal_moves()) == {(14, 17), (14, 18)}


def test_blocked_player_loses():
    state = position(black=[25], white=[29, 30], to_move=BLACK)
    assert state.legal_moves() == []
    assert state.is_terminal()
    assert state.winner() == WHITE
    assert state.score(WHITE) > 0 > state.score(BLACK)


def test_no_pieces_loses():
    state = position(white=[20], to_move=BLACK)
    assert state.is_terminal() and state.winner() == WHITE


def test_forty_move_draw_rule():
    state = position(black_kings=[1], white_kings=[32], to_move=BLACK, quiet=DRAW_PLIES - 1)
    after = state.play((1, 5))
    assert after.quiet == DRAW_PLIES
    assert after.is_terminal() and after.is_drawn()
    assert after.winner() is None and after.score(BLACK) == 0
    # a man move resets the count
    mixed = position(black=[9], white_kings=[32], to_move=BLACK, quiet=DRAW_PLIES - 1)
    assert mixed.play((9, 13)).quiet == 0


def test_king_can_land_on_its_own_start_square_in_a_cycle():
    # king on 10 captures 14, 22, 23, 15 around the square and may come back to 10
    state = position(black_kings=[10], white=[14, 22, 23, 15], to_move=BLACK)
    moves = state.legal_moves()
    assert set(moves) == reference_moves(state)
    assert any(m[-1] == 10 and len(m) == 5 for m in moves)
    cycle = next(m for m in moves if m[-1] == 10)
    assert state.play(cycle).white == 0


def test_position_rejects_bad_setups():
    with pytest.raises(InputError, match="two pieces"):
        position(black=[1], white=[1])
    with pytest.raises(InputError, match="crowned"):
        position(black=[30])
    with pytest.raises(InputError, match="1 to 32"):
        position(black=[33])


# ---------------------------------------------------------------- notation


@pytest.mark.parametrize("seed", range(4))
def test_format_parse_round_trip(seed):
    for state in random_game(seed, max_plies=80):
        for move in state.legal_moves():
            assert parse_move(format_move(move), state) == move


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Cannot read"),
        ("11/15", "Cannot read"),
        ("hello", "Cannot read"),
        ("11-40", "1 to 32"),
        ("14-18", "no Black piece"),
        ("11-14", "can play"),
        ("21-17", "no Black piece"),
    ],
)
def test_parse_rejects_bad_moves_with_a_reason(text, message):
    with pytest.raises(InputError, match=message):
        parse_move(text, initial_state())


def test_non_capture_when_capture_is_forced_is_explained():
    state = initial_state().play((11, 15)).play((24, 19)).play((15, 24))
    # White must recapture: 28x19 or 27x20
    assert all(checkers.is_capture(m) for m in state.legal_moves())
    with pytest.raises(InputError, match="Captures are compulsory"):
        parse_move("22-18", state)


def test_short_jump_notation_and_ambiguity():
    state = position(white=[22], black=[18, 11], to_move=WHITE)
    assert parse_move("22x8", state) == (22, 15, 8)
    # a king going round a square of four men can do it either way: "10x10" is ambiguous
    king = position(black_kings=[10], white=[14, 22, 23, 15], to_move=BLACK)
    assert len(king.legal_moves()) == 2
    with pytest.raises(InputError, match="ambiguous"):
        parse_move("10x10", king)
    assert parse_move("10x17x26x19x10", king) == (10, 17, 26, 19, 10)
    # clicking the king then its own square is no move; the landing squares are offered
    assert continue_clicks(king, (10,)) == (None, {17, 19})


# ---------------------------------------------------------------- click input


def test_clicks_pick_a_simple_move():
    state = initial_state()
    move, targets = continue_clicks(state, ())
    assert move is None and targets == {9, 10, 11, 12}
    move, targets = continue_clicks(state, (11,))
    assert move is None and targets == {15, 16}
    assert continue_clicks(state, (11, 15)) == ((11, 15), set())
    assert continue_clicks(state, (11, 20)) == (None, set())


def test_clicks_pick_a_multi_jump_by_landing_squares_or_final_square():
    state = position(white=[22], black=[18, 11], to_move=WHITE)
    move, targets = continue_clicks(state, (22,))
    assert move is None and targets == {15, 8}
    assert continue_clicks(state, (22, 8)) == ((22, 15, 8), set())
    assert continue_clicks(state, (22, 15)) == (None, {8})
    assert continue_clicks(state, (22, 15, 8)) == ((22, 15, 8), set())


# ---------------------------------------------------------------- heuristics and spec


def test_game_spec_is_registered():
    game = get_game("checkers")
    assert game is GAME
    assert game.default_heuristic in game.heuristics
    assert game.parse_move("9-13", game.initial_state()) == (9, 13)


@pytest.mark.parametrize("name", sorted(HEURISTICS))
def test_heuristics_are_zero_at_the_start_and_antisymmetric(name):
    heuristic = HEURISTICS[name]
    assert heuristic.evaluate(initial_state(), BLACK) == 0
    for state in random_game(7, max_plies=60)[::5]:
        black = heuristic.evaluate(state, BLACK)
        assert black == pytest.approx(-heuristic.evaluate(state, WHITE))
        assert abs(black) < WIN_VALUE / 10


def test_course_heuristic_is_piece_plus_mobility_difference():
    state = position(black=[5, 9], white=[30], to_move=BLACK)
    # pieces 2 - 1; mobility: Black 9-13, 9-14, 5-... (5 -> 9 is blocked) = 2; White 30-25, 30-26
    assert checkers.mobility(state, BLACK) == 2
    assert checkers.mobility(state, WHITE) == 2
    course = HEURISTICS["course"]
    assert course.evaluate(state, BLACK) == 1
    assert course.evaluate(state, BLACK, (0.0, 1.0)) == 0
    assert course.bind({"pieces": 3.0})(state, BLACK) == 3


def test_mobility_counts_every_move_not_only_forced_captures():
    # Black 18 can jump 22 (18x25) and step 18-23; legal play allows only the jump
    state = position(black=[18], white=[22, 31], to_move=BLACK)
    assert state.legal_moves() == [(18, 25)]
    assert checkers.legal_mobility(state, BLACK) == 1
    assert checkers.mobility(state, BLACK) == 2
    # White may also capture (22x15) but has 22-17, 31-26, 31-27 as well
    assert checkers.legal_mobility(state, WHITE) == 1
    assert checkers.mobility(state, WHITE) == 4
    assert HEURISTICS["course"].evaluate(state, BLACK) == (1 - 2) + (2 - 4)


def test_strong_heuristic_values_kings_and_back_row():
    strong = HEURISTICS["strong"].bind((1.0, 2.0, 0.5, 0.0, 0.0))
    # Black: a king and a man on its back row; White: two men away from home
    state = position(black=[2], black_kings=[15], white=[17, 18])
    assert strong(state, BLACK) == pytest.approx((1 - 2) + 2 * 1 + 0.5 * 1)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60))
def test_state_is_hashable_and_play_does_not_mutate(seed, plies):
    states = random_game(seed, max_plies=plies)
    state = states[-1]
    copy = checkers.CheckersState(*state)
    assert hash(state) == hash(copy) and state.key == copy.key
    for move in state.legal_moves():
        state.play(move)
    assert state == copy
    if state.is_terminal() and state.winner() is not None:
        assert state.score(state.winner()) > 0


# ---------------------------------------------------------------- search on checkers


@pytest.mark.parametrize("seed", range(8))
def test_alpha_beta_equals_minimax_on_random_positions(seed):
    state = random_game(seed, max_plies=seed * 6 + 4)[-1]
    if state.is_terminal():
        state = random_game(seed, max_plies=4)[-1]
    for heuristic in ("course", "strong"):
        minimax = choose_move(state, algorithm="minimax", depth=3, heuristic=heuristic)
        for ordering in (False, True):
            alphabeta = choose_move(
                state, algorithm="alphabeta", depth=3, heuristic=heuristic, ordering=ordering
            )
            assert alphabeta.value == pytest.approx(minimax.value)
            assert alphabeta.stats.nodes <= minimax.stats.nodes


@pytest.mark.slow
def test_depth_4_alpha_beta_beats_random_play():
    """At least 95 of 100 games (the course's table: 5/5 at depths 3 and 4).

    The searcher moves first in the even-numbered games and second in the others.
    """
    match = MatchConfig(
        "checkers", ("alphabeta:depth=4,heuristic=course", "random"), games=100, seed=2024
    )
    wins = sum(play_game(match, index).result_a == 1.0 for index in range(match.games))
    assert wins >= 95


def test_square_numbering_is_the_standard_one():
    for square in range(1, 33):
        row, col = square_row_col(square)
        assert (row, col) == checkers_naive.coordinates(square)
        assert square_at(row, col) == square
        assert (row + col) % 2 == 1
    assert square_row_col(1) == (0, 1) and square_row_col(32) == (7, 6)
    assert square_at(0, 0) is None and square_at(8, 1) is None
    with pytest.raises(InputError):
        square_row_col(0)


@pytest.mark.parametrize("seed", range(6))
def test_mobility_counts_steps_and_jump_sequences(seed):
    for state in random_game(seed, max_plies=120)[::3]:
        for player in (BLACK, WHITE):
            own, opp, down, up, empty = checkers._movers(
                state.black, state.white, state.kings, player
            )
            steps = checkers._simple_moves(down, up, empty)
            jumps = checkers._captures(own, opp, state.kings, player, empty)
            assert checkers.mobility(state, player) == len(steps) + len(jumps)
