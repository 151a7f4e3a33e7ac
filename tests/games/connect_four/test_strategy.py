"""Red's opening strategy: the bundled file answers every Yellow reply down to its last ply and
its deepest moves keep the win (the solver proves them again), its file refuses what is not a
strategy, and the AI as Red plays it before any search."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games.connect_four import (
    COLUMNS,
    ConnectFourState,
    format_move,
    hook,
    initial_state,
    keys,
    solver,
    start,
    state_from_moves,
    strategy,
    view,
)
from lib.games.core import get_game
from lib.games.search.players import make_player, parse_player_spec

STRATEGY = strategy.bundled_strategy()
SMALL_TABLE = 1_048_573
"""A prime under ``2**20``: room enough for a proof this far on."""
SAMPLE = 4
"""Deepest entries proved again by the solver (about a second each)."""


def book_key(state: ConnectFourState) -> int:
    return keys.book_key(*keys.bitboards(state)[:2])


def walk(found: strategy.Strategy) -> dict[int, str]:
    """Every Red position the strategy reaches from the start (its moves at Red turns, every
    Yellow reply), down to its last ply: ``{book key: the moves reaching it}``. Fails naming
    the first position reached without an entry."""
    reached: dict[int, str] = {}
    frontier = {book_key(initial_state()): ""}
    while frontier:
        following: dict[int, str] = {}
        for key, moves in frontier.items():
            state = state_from_moves(moves)
            move = found.move(state)
            assert move is not None, f"no move after {moves or 'the start'}"
            assert move in state.legal_moves()
            reached[key] = moves
            after = state.play(move)
            if after.is_terminal() or state.occupied().bit_count() + 2 > found.plies:
                continue
            for reply in after.legal_moves():
                line = moves + format_move(move) + format_move(reply)
                child = after.play(reply)
                if not child.is_terminal():
                    following.setdefault(book_key(child), line)
        frontier = following
    return reached


@pytest.fixture(scope="module")
def reached() -> dict[int, str]:
    assert STRATEGY is not None, "data/connect_four_strategy.bin is missing"
    return walk(STRATEGY)


def test_the_strategy_opens_in_the_centre_the_only_first_move_the_start_proof_says_wins():
    assert STRATEGY is not None and STRATEGY.move(initial_state()) == 3
    proof = start.bundled_start_proof()
    assert proof is not None and proof.winning_columns() == [3]


def test_every_red_position_yellow_can_reach_has_a_move_and_no_entry_is_unreachable(reached):
    assert STRATEGY is not None and STRATEGY.plies >= 8
    assert set(reached) == set(STRATEGY.moves)
    assert max(len(moves) for moves in reached.values()) == STRATEGY.plies


def test_a_sample_of_the_deepest_moves_keeps_the_win_proved_again_by_the_solver(reached):
    assert STRATEGY is not None
    deepest = sorted(moves for moves in reached.values() if len(moves) == STRATEGY.plies)
    rng = np.random.default_rng(7)
    for index in rng.choice(len(deepest), size=SAMPLE, replace=False):
        moves = deepest[int(index)]
        move = STRATEGY.move(state_from_moves(moves))
        proved, _search = start.prove_first_move(move, SMALL_TABLE, moves)
        assert proved.outcome == 1, f"{moves} + {format_move(move)} does not keep Red's win"


def test_the_strategy_leaves_out_positions_it_never_reaches():
    assert STRATEGY is not None
    for moves in ("cd", "d", "dda", "ag"):  # Red opened elsewhere, or Yellow to move
        assert STRATEGY.move(state_from_moves(moves)) is None


# -- the file ---------------------------------------------------------------------------


def red_positions(lines: list[str]) -> dict[int, int]:
    """``{book key: a legal column}`` for the positions after ``lines`` (Red to move), each
    column legal in the stored orientation."""
    moves = {}
    for line in lines:
        key = book_key(state_from_moves(line))
        stored = keys.state_from_key(key)
        moves[key] = stored.legal_moves()[len(line) % len(stored.legal_moves())]
    return moves


def test_a_strategy_round_trips_and_plays_mirror_images_mirrored(tmp_path):
    made = red_positions(["", "ab", "gf", "dcde", "aaaa"])
    path = tmp_path / "strategy.bin"
    path.write_bytes(strategy.strategy_bytes(made))
    loaded = strategy.load_strategy(path)
    assert dict(loaded.moves) == made and len(loaded) == 4 and loaded.plies == 4  # ab = gf
    assert loaded.move(state_from_moves("ab")) == COLUMNS - 1 - loaded.move(state_from_moves("gf"))


def record(key: int, column: int) -> bytes:
    return key.to_bytes(7, "little") + bytes([column])


def key_of(moves: str) -> int:
    state = state_from_moves(moves)
    return sum(keys.bitboards(state)[:2])


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"C4BOOK1\n", "not a Connect Four strategy"),
        (strategy.MAGIC + record(key_of(""), 3)[:5], "not a multiple of 8"),
        (strategy.MAGIC + record(key_of("ab"), 0) + record(key_of(""), 3), "out of order"),
        (strategy.MAGIC + record(key_of(""), 3) * 2, "out of order or repeated"),
        (strategy.MAGIC + record(key_of("a"), 3), "Yellow to move"),
        (strategy.MAGIC + record(key_of("gf"), 3), "stored as the mirror image"),
        (strategy.MAGIC + record(key_of(""), 7), "move 7 is not a legal column"),
        (strategy.MAGIC + record(key_of("dddddd"), 3), "move 3 is not a legal column"),
        (strategy.MAGIC + record(0x7F, 3), "column 0 is overfull"),
        (strategy.MAGIC + record(0b10000111, 2), "0 Red and 4 Yellow discs"),
        (strategy.MAGIC + record(key_of("ababcbdb"), 4), "the game is already over"),
    ],
)
def test_a_malformed_file_is_refused_naming_what_is_wrong(tmp_path, data, message):
    path = tmp_path / "strategy.bin"
    path.write_bytes(data)
    with pytest.raises(InputError, match=message):
        strategy.load_strategy(path)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, (1 << 49) - 1), st.integers(0, 255)), max_size=6))
def test_any_records_are_read_as_a_strategy_or_refused_with_an_input_error(tmp_path_factory, rows):
    path = tmp_path_factory.mktemp("strategy") / "strategy.bin"
    path.write_bytes(strategy.MAGIC + b"".join(record(key, column) for key, column in rows))
    with contextlib.suppress(InputError):  # anything else is a failure
        loaded = strategy.load_strategy(path)
        for key, column in loaded.moves.items():  # what is read is a legal move of Red's
            state = keys.state_from_key(key)
            assert state.to_move == 0 and column in state.legal_moves()


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=64))
def test_bytes_after_the_magic_line_are_read_or_refused_with_an_input_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("strategy") / "strategy.bin"
    path.write_bytes(strategy.MAGIC + data)
    with contextlib.suppress(InputError):
        strategy.load_strategy(path)


@given(st.binary(max_size=64).filter(lambda data: not data.startswith(strategy.MAGIC)))
def test_bytes_without_the_magic_line_are_refused(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("strategy") / "strategy.bin"
    path.write_bytes(data)
    with pytest.raises(InputError):
        strategy.load_strategy(path)


# -- the AI plays it ---------------------------------------------------------------------


def default_player():
    game = get_game("connect_four")
    return make_player(parse_player_spec(game.default_player), game)


@pytest.mark.parametrize("reply", range(COLUMNS))
def test_the_default_ai_as_red_plays_the_book_move_without_searching(reply):
    assert STRATEGY is not None
    state = state_from_moves("d" + format_move(reply))
    decision = default_player().choose(state, np.random.default_rng(reply))
    assert decision.move == STRATEGY.move(state)
    assert decision.stats.by_solver and decision.stats.nodes == 0


def test_the_hook_answers_from_the_strategy_only_where_it_has_the_position():
    book = hook.exact_solution(initial_state(), time_limit=0.2)
    assert book is not None and book.source == solver.STRATEGY_SOURCE and book.best_move == 3
    assert book.describe() == "Red wins (book move, proved win)"
    assert hook.strategy_solution(state_from_moves("d")) is None  # Yellow's turn


def test_the_page_labels_the_book_move_when_the_solver_did_not_settle_it():
    start_state = initial_state()
    labelled = view.with_book_move(start_state, {})
    assert labelled == {3: ("book move, proved win", "d…")}
    settled = {3: ("wins in 41 plies", "d")}
    assert view.with_book_move(start_state, settled) == settled  # the solver's words kept
    beyond = state_from_moves("abcdefgabcde")  # 12 discs: in neither book
    assert view.with_book_move(beyond, {}) == {}
