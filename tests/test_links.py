"""Link settings: one typed schema per page, read and written the same way everywhere."""

from __future__ import annotations

import math
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games.core import available_games, get_game
from lib.links import (
    MAX_LINK_MOVES,
    MAX_MOVES_CHARS,
    SHOWN_LIMIT,
    LinkField,
    parse_bool,
    read_link,
    read_moves,
    shown,
    write_link,
    write_moves,
)
from lib.ui.common import escape_markdown

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


# -- a game's moves in a link -------------------------------------------------------

GAMES = list(available_games())


def _random_game(game, seed: int, plies: int) -> tuple[list, list]:
    """A random legal game of ``plies`` moves at most: (its moves, its states)."""
    rng = random.Random(seed)
    states, moves = [game.initial_state()], []
    for _ in range(plies):
        legal = states[-1].legal_moves()
        if not legal:
            break
        moves.append(rng.choice(legal))
        states.append(states[-1].play(moves[-1]))
    return moves, states


@pytest.mark.parametrize("name", GAMES)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 40))
@settings(max_examples=15, deadline=None)
def test_written_moves_read_back_to_the_same_game(name, seed, plies):
    game = get_game(name)
    moves, _ = _random_game(game, seed, plies)
    text = write_moves(moves, game.format_move)
    read, note = read_moves(text, game.initial_state(), game.parse_move)
    assert note is None
    assert read == moves


@pytest.mark.parametrize("name", GAMES)
@given(seed=st.integers(0, 10_000), plies=st.integers(1, 30), bad=st.text(max_size=12))
@settings(max_examples=25, deadline=None)
def test_a_bad_move_is_named_with_its_ply_and_the_legal_moves_before_it_are_kept(
    name, seed, plies, bad
):
    game = get_game(name)
    moves, states = _random_game(game, seed, plies)
    cut = seed % (len(moves) + 1)  # where the bad token goes
    tokens = [game.format_move(m) for m in moves]
    bad = re.sub(r"[\s,]", "", bad) or "?"  # one token (the reader splits at these)
    try:
        playable = game.parse_move(bad, states[cut]) in states[cut].legal_moves()
    except Exception:  # any refusal: the reader must refuse it too
        playable = False
    text = ",".join([*tokens[:cut], bad, *tokens[cut:]])
    read, note = read_moves(text, game.initial_state(), game.parse_move)
    if playable:
        return  # the token happens to be a legal move there: nothing to name
    assert read == moves[:cut]
    assert note is not None
    assert f"move {cut + 1} “{shown(bad)}”" in note
    rest = len(tokens) - cut
    assert (f"leaving out the {rest} after it" in note) == (rest > 0)


@given(text=st.text(max_size=300))
@settings(max_examples=200, deadline=None)
def test_any_text_as_moves_never_crashes_and_only_legal_moves_are_kept(text):
    for name in GAMES:
        game = get_game(name)
        read, note = read_moves(text, game.initial_state(), game.parse_move)
        state = game.initial_state()
        for move in read:
            assert move in state.legal_moves()
            state = state.play(move)
        tokens = [t for t in re.split(r"[\s,]+", text) if t]
        assert (note is None) == (len(read) == len(tokens))


def test_moves_past_the_end_of_the_game_and_over_the_caps_are_named():
    game = get_game("tictactoe")
    read, note = read_moves("a1 b1 a2 b2 a3 c3", game.initial_state(), game.parse_move)
    assert len(read) == 5  # X has three in a column: the game is over
    assert note == (
        "The link's moves= has move 6 “c3” that cannot be played (the game is already over "
        "there); keeping the 5 move(s) before it."
    )
    read, note = read_moves("x" * (MAX_MOVES_CHARS + 1), game.initial_state(), game.parse_move)
    assert read == [] and f"{MAX_MOVES_CHARS + 1:,} characters" in note
    connect = get_game("connect_four")
    many = " ".join(["a"] * (MAX_LINK_MOVES + 5))
    read, note = read_moves(many, connect.initial_state(), connect.parse_move)
    assert len(read) == 6  # column a is full after six discs
    assert "move 7 “a”" in note


def test_a_range_open_at_one_end_is_said_so():
    schema = (LinkField("step", int, 1, low=1), LinkField("dip", int, 0, high=-1))
    read, notes = read_link(schema, {"step": "0", "dip": "3"})
    assert read == {"step": 1, "dip": -1}
    assert notes == [
        "The link's step=0 is outside this page's range 1 or more; using 1.",
        "The link's dip=3 is outside this page's range -1 or less; using -1.",
    ]


@settings(max_examples=40, deadline=None)
@given(step=st.integers(0, 3000), anim=st.sampled_from(["A*", "BFS", "Uniform-cost", "IDA*"]))
def test_the_route_pages_step_and_algorithm_round_trip_through_its_link(step, anim):
    from lib.ui.routes_page import LINK

    fields = {field.name: field for field in LINK}
    schema = (fields["step"], fields["anim"])
    text = write_link(schema, {"step": step, "anim": anim})
    assert text == {"step": str(step), "anim": anim}
    assert read_link(schema, text) == ({"step": step, "anim": anim}, [])


def test_a_refused_value_whose_default_is_no_value_names_what_is_used_instead():
    from lib.ui.routes_page import LINK

    anim = next(field for field in LINK if field.name == "anim")
    values, notes = read_link((anim,), {"anim": "xx"})
    assert values == {"anim": ""}
    assert notes == [
        f"The link's anim=xx is not {anim.describe()}; using the first algorithm with a route."
    ]
    blank = LinkField("who", str, "", choices=("a", "b"))  # no words given: "the default"
    assert read_link((blank,), {"who": "c"})[1][0].endswith("; using the default.")


class _Endless:
    """A game state where one move, ``"m"``, is always legal: no link move is ever refused."""

    def legal_moves(self) -> list[str]:
        return ["m"]

    def play(self, move: str) -> _Endless:
        return self


def test_moves_over_the_cap_are_counted_as_given_and_said_to_be_cut():
    given = MAX_LINK_MOVES + 100
    read, note = read_moves(" ".join(["m"] * given), _Endless(), lambda text, state: text)
    assert len(read) == MAX_LINK_MOVES
    assert note == (
        f"The link's moves= has {given:,} moves given, the first {MAX_LINK_MOVES:,} kept "
        f"(a link plays at most {MAX_LINK_MOVES:,})."
    )
    connect = get_game("connect_four")
    read, note = read_moves(" ".join(["a"] * given), connect.initial_state(), connect.parse_move)
    assert len(read) == 6 and f"and leaving out the {given - 7:,} after it." in note


@pytest.mark.parametrize("digits", [400, 5_000])
def test_a_whole_number_with_hundreds_of_digits_is_called_too_large_with_the_range(digits):
    schema = (LinkField("step", int, 1, low=1), LinkField("depth", int, 3, low=1, high=8))
    huge = "9" * digits
    read, notes = read_link(schema, {"step": huge, "depth": "+" + huge})
    assert read == {"step": 1, "depth": 3}
    step, depth = notes
    assert step.startswith(f"The link's step={huge[:SHOWN_LIMIT]}… ({digits:,} characters)")
    assert step.endswith("is too large: this page's range is 1 or more; using 1.")
    assert depth.endswith("is too large: this page's range is 1–8; using 3.")
    assert "not a whole number" not in step + depth


def test_a_parser_s_reason_is_the_note_escaped_and_cut():
    def parse(text: str) -> int:
        raise InputError(f"Tile 1, {text[:5]!r}, is odd. " + "x" * 1_000)

    field = LinkField("board", str, "1 2 3", parse=parse)
    _, notes = read_link((field,), {"board": "[a](b)"}, quote=escape_markdown)
    (note,) = notes
    assert note.startswith("The link's board=\\[a\\]\\(b\\): Tile 1, '\\[a\\]\\(b', is odd")
    assert note.endswith("; using 1 2 3.") and len(note) < 400
