"""The board: parsing (hypothesis), solvability against breadth-first search, moves, shuffles."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lib.errors import InputError
from lib.puzzles.board import (
    apply_moves,
    format_board,
    goal_board,
    inversions,
    moves_between,
    parse_board,
    random_board,
    shuffle,
    solvability,
    successors,
)
from lib.puzzles.fast import distance_table

permutations9 = st.permutations(list(range(9))).map(tuple)
permutations16 = st.permutations(list(range(16))).map(tuple)
separators = st.sampled_from([" ", ", ", "\n", "  ", ",", " / "])


@given(st.one_of(permutations9, permutations16), separators)
def test_a_typed_permutation_parses_to_itself_exactly_when_solvable(board, sep):
    text = sep.join(str(t) for t in board)
    if solvability(board).solvable:
        assert parse_board(text) == board
    else:
        with pytest.raises(InputError, match="cannot be solved") as error:
            parse_board(text)
        assert f"{inversions(board)} inversion" in str(error.value)
    assert parse_board(text, require_solvable=False) == board


@given(st.text(max_size=80))
def test_any_text_is_a_board_or_an_input_error(text):
    try:
        board = parse_board(text)
    except InputError as error:
        assert str(error)
    else:
        assert sorted(board) == list(range(len(board)))


@given(st.one_of(permutations9, permutations16), st.data())
def test_a_repeated_tile_is_named(board, data):
    i = data.draw(st.integers(0, len(board) - 1))
    j = data.draw(st.integers(0, len(board) - 1).filter(lambda k: k != i))
    tiles = list(board)
    tiles[j] = tiles[i]
    with pytest.raises(InputError, match=f"Tile {tiles[i]} appears twice"):
        parse_board(" ".join(map(str, tiles)))


@given(
    st.lists(st.integers(0, 20), min_size=1, max_size=25).filter(lambda t: len(t) not in (9, 16))
)
def test_a_wrong_number_of_tiles_is_named(tiles):
    with pytest.raises(InputError, match=f"has {len(tiles)} tiles"):
        parse_board(" ".join(map(str, tiles)))


def test_a_tile_out_of_range_and_a_word_are_named():
    with pytest.raises(InputError, match="Tile 9 of the board is 9"):
        parse_board("0 1 2 3 4 5 6 7 9")
    with pytest.raises(InputError, match="Tile 2 of the board, 'two'"):
        parse_board("1 two 3")
    with pytest.raises(InputError, match="empty"):
        parse_board("   ")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("-1 2 3 4 5 6 7 8 0", "Tile 1 of the board is -1, but the 8-puzzle has tiles 0 to 8"),
        ("1 2 3 4 5 6 7 8 +12", "Tile 9 of the board is 12, but the 8-puzzle has tiles 0 to 8"),
        ("1 " + "9" * 40 + " 3", "Tile 2 of the board, '99999999999999999999…', is too large"),
    ],
)
def test_a_whole_number_out_of_range_is_called_out_of_range_not_a_word(text, said):
    with pytest.raises(InputError, match=re.escape(said)):
        parse_board(text)


def test_solvability_matches_reachability_on_the_whole_8_puzzle():
    """Exactly the 181,440 boards a breadth-first search reaches from the goal are solvable."""
    boards, _ = distance_table()
    reached = {tuple(int(t) for t in row) for row in boards}
    assert len(reached) == 181_440
    for board in itertools.islice(itertools.permutations(range(9)), 0, None, 37):
        assert solvability(board).solvable == (board in reached)


@given(st.integers(0, 200), st.integers(0, 10**6), st.sampled_from([3, 4]))
def test_shuffles_are_solvable_and_parity_is_kept_by_every_move(steps, seed, width):
    board = shuffle(width, steps, seed)
    assert solvability(board).solvable
    for _, child in successors(board):
        assert solvability(child).solvable


@given(st.integers(0, 10**6), st.sampled_from([3, 4]))
def test_random_boards_are_solvable_and_seeded(seed, width):
    assert random_board(width, seed) == random_board(width, seed)
    assert solvability(random_board(width, seed)).solvable


def test_moves_and_their_names():
    board = parse_board("1 2 5 3 4 0 6 7 8")
    assert apply_moves(board, "ULL") == goal_board(3)
    path = [board]
    for m in "ULL":
        path.append(apply_moves(path[-1], m))
    assert moves_between(path) == "ULL"
    with pytest.raises(InputError, match="Move 1, 'R'"):
        apply_moves(board, "R")
    assert format_board(goal_board(3)) == "0 1 2 3 4 5 6 7 8"
    assert inversions(parse_board("0 2 1 3 4 5 6 7 8", require_solvable=False)) == 1


def test_the_15_puzzle_reason_names_the_blank_row():
    board = parse_board("1 2 3 4 0 5 6 7 8 9 10 11 12 13 14 15", require_solvable=False)
    verdict = solvability(board)
    assert (
        not verdict.solvable and "row 1" in verdict.reason and "0 + 1 = 1 is odd" in verdict.reason
    )
    assert solvability(parse_board("4 1 2 3 0 5 6 7 8 9 10 11 12 13 14 15")).solvable
