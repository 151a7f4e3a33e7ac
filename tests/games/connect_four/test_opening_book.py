"""Yellow's opening book: the bundled file answers every Red move down to its depths, its
outcomes agree with each other, with Red's strategy and with the solver, its file refuses
what is not a book, and the AI as Yellow plays it before any search."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

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
    opening_book,
    solver,
    state_from_moves,
    strategy,
    view,
)
from lib.games.core import get_game
from lib.games.search.players import make_player, parse_player_spec

BOOK = opening_book.bundled_opening_book()
WIN, DRAW, LOSS = 1, 0, -1


def book_key(state: ConnectFourState) -> int:
    return keys.book_key(*keys.bitboards(state)[:2])


def discs(state: ConnectFourState) -> int:
    return state.occupied().bit_count()


def depths(book: opening_book.OpeningBook) -> tuple[int, int]:
    """The walk's depths: discs of its deepest positions not won, and of its deepest won."""
    unwon = [keys.key_discs(key) for key, (_c, outcome) in book.entries.items() if outcome < WIN]
    return max(unwon), book.plies


def walk(book: opening_book.OpeningBook) -> dict[int, tuple[str, int]]:
    """Every Yellow position the book reaches from the start (every Red move, the book's
    Yellow move) down to its depths: ``{book key: (the moves reaching it, its outcome)}``.
    Fails naming the first position reached without an entry, or whose outcome its parent's
    proof rules out (after a winning move every Red reply leaves Yellow a win; after a
    drawing one, at least a draw)."""
    plies, win_plies = depths(book)
    reached: dict[int, tuple[str, int]] = {}
    frontier = {book_key(initial_state().play(red)): (format_move(red), LOSS) for red in range(7)}
    while frontier:
        following: dict[int, tuple[str, int]] = {}
        for key, (moves, least) in frontier.items():
            state = state_from_moves(moves)
            found = book.entry(state)
            assert found is not None, f"no move after {moves}"
            column, outcome = found
            assert column in state.legal_moves(), f"{moves}: move {column} is not legal"
            assert outcome >= least, f"{moves}: outcome {outcome}, its parent proved {least}"
            reached[key] = (moves, outcome)
            after = state.play(column)
            if after.is_terminal() or discs(after) + 1 > (win_plies if outcome == WIN else plies):
                continue
            for red in after.legal_moves():
                child = after.play(red)
                if not child.is_terminal():  # reached twice: the stronger bound holds
                    line = moves + format_move(column) + format_move(red)
                    known = following.get(book_key(child), (line, LOSS))
                    following[book_key(child)] = (known[0], max(known[1], outcome))
        frontier = following
    return reached


@pytest.fixture(scope="module")
def reached() -> dict[int, tuple[str, int]]:
    assert BOOK is not None, "data/connect_four_yellow_book.bin is missing"
    return walk(BOOK)


def test_every_yellow_position_red_can_reach_has_a_move_and_no_entry_is_unreachable(reached):
    assert BOOK is not None
    assert depths(BOOK) == (13, 13)  # as docs/games.md says, with its 31,568 positions
    assert len(BOOK) == 31_568
    assert set(reached) == set(BOOK.entries)
    assert {outcome for _moves, outcome in reached.values()} == {WIN, DRAW, LOSS}


def red_moves_into(state: ConnectFourState) -> Iterator[tuple[ConnectFourState, int]]:
    """``(the position before, the column)`` of every Red move that could have led to
    ``state`` (Yellow to move): each column whose top disc is Red's, taken back."""
    for column in range(COLUMNS):
        lane = state.occupied() & (((1 << keys.STRIDE) - 1) << (keys.STRIDE * column))
        top = 1 << (lane.bit_length() - 1) if lane else 0
        if top & state.red:
            yield ConnectFourState(red=state.red & ~top, yellow=state.yellow), column


def test_where_red_plays_its_strategy_every_yellow_move_loses(reached):
    red = strategy.bundled_strategy()
    assert red is not None and BOOK is not None
    checked = 0
    for moves, outcome in reached.values():
        state = state_from_moves(moves)
        for before, column in red_moves_into(state):
            if red.move(before) == column:  # Red's proved winning move led here
                assert outcome == LOSS, f"{moves}: Red's strategy wins here, the book: {outcome}"
                checked += 1
    lost = sum(outcome == LOSS for _moves, outcome in reached.values())
    assert checked >= (depths(BOOK)[0] + 1) // 2 and checked <= lost


def test_red_giving_its_win_away_at_once_hands_yellow_a_proved_win():
    assert BOOK is not None
    # the start proof: only d wins for Red; c and e draw; a, b, f and g lose
    outcomes = {red: BOOK.entry(state_from_moves(red))[1] for red in "abcdefg"}
    assert outcomes == {"a": WIN, "b": WIN, "c": DRAW, "d": LOSS, "e": DRAW, "f": WIN, "g": WIN}


@pytest.mark.parametrize("outcome", [WIN, DRAW, LOSS])
def test_a_sample_of_the_deepest_outcomes_is_proved_again_by_the_solver(reached, outcome):
    assert BOOK is not None
    plies, win_plies = depths(BOOK)
    deepest = sorted(
        moves
        for moves, found in reached.values()
        if found == outcome and len(moves) == (win_plies if outcome == WIN else plies)
    )
    moves = deepest[int(np.random.default_rng(outcome + 7).integers(len(deepest)))]
    state = state_from_moves(moves)
    column, _outcome = BOOK.entry(state)
    after = state.play(column)
    red = solver.score(after, time_limit=120.0) if not after.is_terminal() else -1
    assert red is not None, f"{moves}: not settled in time"
    if outcome == WIN:
        assert red < 0, f"{moves} + {format_move(column)}: Red scores {red}, not a loss"
    elif outcome == DRAW:
        assert red == 0 and solver.win_solution(state, 120.0) is None, moves
    else:
        scores = solver.move_scores(state, time_limit=120.0)
        assert scores is not None and max(scores.values()) < 0, f"{moves}: {scores}"


# -- the file ---------------------------------------------------------------------------


def record(key: int, column: int, outcome: int) -> bytes:
    return key.to_bytes(7, "little") + bytes([column | (outcome + 1) << 3])


def key_of(moves: str) -> int:
    return sum(keys.bitboards(state_from_moves(moves))[:2])


def test_a_book_round_trips_and_plays_mirror_images_mirrored(tmp_path):
    rows = (("a", 1, WIN), ("c", 2, DRAW), ("d", 3, LOSS), ("dcd", 0, LOSS))
    made = {book_key(state_from_moves(moves)): (column, outcome) for moves, column, outcome in rows}
    path = tmp_path / "book.bin"
    path.write_bytes(opening_book.book_bytes(made))
    loaded = opening_book.load_opening_book(path)
    assert dict(loaded.entries) == made and len(loaded) == 4 and loaded.plies == 3
    assert loaded.entry(state_from_moves("a")) == (1, WIN)
    assert loaded.entry(state_from_moves("g")) == (5, WIN)  # a's mirror image, b mirrored
    assert loaded.entry(state_from_moves("b")) is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (strategy.MAGIC, "not a Connect Four opening book"),
        (opening_book.MAGIC + record(key_of("a"), 3, WIN)[:5], "not a multiple of 8"),
        (opening_book.MAGIC + record(key_of("b"), 3, 0) + record(key_of("a"), 3, 0), "order"),
        (opening_book.MAGIC + record(key_of("a"), 3, WIN) * 2, "out of order or repeated"),
        (opening_book.MAGIC + record(key_of("g"), 3, WIN), "stored as the mirror image"),
        (opening_book.MAGIC + record(key_of("a"), 7, WIN), "move 7 is not a legal column"),
        (opening_book.MAGIC + record(key_of("ddddddc"), 3, LOSS), "move 3 is not a legal"),
        (opening_book.MAGIC + record(key_of("dc"), 3, LOSS), "Yellow to move has one fewer"),
        (opening_book.MAGIC + record(key_of("a"), 3, 2), "outcome 2 is not -1, 0 or 1"),
        (opening_book.MAGIC + record(0x7F, 3, WIN), "column 0 is overfull"),
        (opening_book.MAGIC + record(0b10000111, 2, WIN), "0 Red and 4 Yellow discs"),
        (opening_book.MAGIC + record(key_of("abababa"), 4, WIN), "the game is already over"),
    ],
)
def test_a_malformed_file_is_refused_naming_what_is_wrong(tmp_path, data, message):
    path = tmp_path / "book.bin"
    path.write_bytes(data)
    with pytest.raises(InputError, match=message):
        opening_book.load_opening_book(path)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, (1 << 49) - 1), st.integers(0, 255)), max_size=6))
def test_any_records_are_read_as_a_book_or_refused_with_an_input_error(tmp_path_factory, rows):
    path = tmp_path_factory.mktemp("book") / "book.bin"
    body = b"".join(key.to_bytes(7, "little") + bytes([move]) for key, move in rows)
    path.write_bytes(opening_book.MAGIC + body)
    with contextlib.suppress(InputError):  # anything else is a failure
        loaded = opening_book.load_opening_book(path)
        for key, (column, outcome) in loaded.entries.items():  # a legal move, a known outcome
            assert column in keys.state_from_key(key).legal_moves() and outcome in (-1, 0, 1)


@given(st.binary(max_size=64).filter(lambda data: not data.startswith(opening_book.MAGIC)))
def test_bytes_without_the_magic_line_are_refused(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("book") / "book.bin"
    path.write_bytes(data)
    with pytest.raises(InputError):
        opening_book.load_opening_book(path)


# -- the AI plays it ---------------------------------------------------------------------


@pytest.mark.parametrize("red", range(COLUMNS))
def test_the_default_ai_as_yellow_plays_the_book_move_without_searching(red):
    assert BOOK is not None
    game = get_game("connect_four")
    state = state_from_moves(format_move(red))
    decision = make_player(parse_player_spec(game.default_player), game).choose(
        state, np.random.default_rng(red)
    )
    assert decision.move == BOOK.entry(state)[0]
    assert decision.stats.by_solver and decision.stats.nodes == 0


@pytest.fixture
def broken_bundled_files(tmp_path, monkeypatch):
    """Every bundled Connect Four file (both books, Red's strategy) cut short, as a broken
    deployment might leave them; the files are read again before and after the test."""
    broken = tmp_path / "broken.bin"
    broken.write_bytes(b"C4")
    for module, name in [
        (opening_book, "BOOK_PATH"),
        (strategy, "STRATEGY_PATH"),
        (solver, "BOOK_PATH"),
    ]:
        monkeypatch.setattr(module, name, broken)
    loaders = [opening_book.bundled_opening_book, strategy.bundled_strategy, solver.bundled_book]
    for loader in loaders:
        loader.cache_clear()
    yield
    for loader in loaders:
        loader.cache_clear()


def test_with_every_bundled_file_broken_the_ai_still_plays_by_its_search(
    broken_bundled_files, caplog
):
    game = get_game("connect_four")
    player = make_player(parse_player_spec(game.default_player), game)
    with caplog.at_level("WARNING"):
        for moves in ["", "d"]:  # Red's first move, Yellow's reply
            state = state_from_moves(moves)
            decision = player.choose(state, np.random.default_rng(0))
            assert decision.move in state.legal_moves() and decision.stats.nodes > 0
        assert view.verdict(state)  # the page's verdict, without the solver's book
    for what in ["Red's opening strategy", "Yellow's opening book", "The solver's opening book"]:
        assert f"{what} is not used: broken.bin" in caplog.text


def test_the_hook_and_the_page_say_what_the_book_proved():
    won = hook.exact_solution(state_from_moves("a"), time_limit=0.2)
    assert won is not None and won.source == solver.YELLOW_BOOK_SOURCE and won.score == WIN
    assert won.describe() == "Yellow wins (book move, proved win)"
    drawn = hook.exact_solution(state_from_moves("c"), time_limit=0.2)
    assert drawn is not None and drawn.describe() == "draw (book move, proved draw)"
    lost = hook.exact_solution(state_from_moves("d"), time_limit=0.2)
    assert lost is not None and lost.describe() == "Red wins (book move, every move loses)"
    column = format_move(lost.best_move)
    assert view.with_book_move(state_from_moves("d"), {}) == {
        lost.best_move: ("book move, every move loses", column + "…")
    }


@pytest.mark.parametrize("outcome", [WIN, DRAW, LOSS])
def test_the_walk_labels_a_deepest_position_as_the_book_has_it(reached, outcome):
    from scripts.make_connect_four_yellow_book import label

    assert BOOK is not None
    deepest = max(len(moves) for moves, found in reached.values() if found == outcome)
    moves = min(m for m, found in reached.values() if found == outcome and len(m) == deepest)
    key = book_key(state_from_moves(moves))
    stored = keys.state_from_key(key)  # the orientation the walk labelled
    search = solver._CompiledSearch(None, None, None, solver.SMALL_TABLE_SIZE)
    assert label(search, stored, cap=120.0, loss_depth=10) == BOOK.entries[key]


def test_the_warm_up_reads_both_books_so_no_move_pays_for_them():
    opening_book.bundled_opening_book.cache_clear()
    strategy.bundled_strategy.cache_clear()
    hook.load_compiled()  # what the server's warm-up calls (lib.games.compiled_code)
    assert opening_book.bundled_opening_book.cache_info().currsize == 1
    assert strategy.bundled_strategy.cache_info().currsize == 1
