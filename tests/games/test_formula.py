"""Student formulas: compiled safely, every bad input named, equal to the built-in heuristics."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games import core
from lib.games.formula import MAX_TEXT, compile_formula
from lib.games.search.fast import choose_move

NAMED = re.compile(r"^(Formula, at character \d+: |Formula: |.* has no named features)")

EQUAL_TO_BUILT_IN = [
    ("tictactoe", "lines", "10*twos + ones + 3*centre + corners"),
    ("tictactoe", "open lines", "lines"),
    (
        "othello",
        "table",
        "100*corners - 50*x_squares - 20*c_squares + 10*a_squares + 5*b_squares"
        " - 2*inner_ring - centre",
    ),
    ("checkers", "strong", "men + 1.5*kings + 0.2*back_row + 0.1*centre + 0.3*advancement"),
    ("checkers", "course", "pieces + mobility"),
    ("checkers", "material", "pieces"),
    ("connect_four", "threats", "5*open_threes + 2*open_twos + 3*centre"),
    ("connect_four", "open windows", "windows"),
    ("sim", "threats", "threats"),
    ("sim", "late loss", "threats + 20*doomed*(free + 1)"),
]


def positions(game: core.GameSpec, count: int, seed: int) -> list:
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(int(rng.integers(0, 40))):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            state = state.play(moves[int(rng.integers(len(moves)))])
        if not state.is_terminal():
            found.append(state)
    return found


def formula_games() -> list[str]:
    return [name for name, spec in core.available_games().items() if core.game_features(spec)]


@pytest.mark.parametrize(("name", "built_in", "text"), EQUAL_TO_BUILT_IN)
def test_a_formula_equal_to_a_built_in_heuristic_plays_its_moves(name, built_in, text):
    game = core.get_game(name)
    formula = compile_formula(game, text)
    heuristic = game.heuristics[built_in]
    states = positions(game, 200, seed=len(text))
    for state in states:
        for player in core.PLAYERS:
            assert formula.evaluate(state, player) == pytest.approx(
                heuristic.evaluate(state, player)
            )
    for state in states[:100]:
        mine = choose_move(state, depth=2, heuristic=formula, time_limit=None)
        theirs = choose_move(state, depth=2, heuristic=heuristic, time_limit=None)
        assert (mine.move, mine.value) == (theirs.move, pytest.approx(theirs.value))


@pytest.mark.parametrize("name", formula_games())
def test_every_feature_is_listed_with_its_meaning_and_keeps_the_contract(name):
    game = core.get_game(name)
    features = core.game_features(game)
    for feature in features.values():
        assert feature.meaning and "\n" not in feature.meaning
        for state in positions(game, 30, seed=3):
            mine, theirs = feature.function(state, 0), feature.function(state, 1)
            assert mine == (theirs if feature.symmetric else -theirs), feature.name


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ones + lnes", "character 8: unknown name 'lnes'; did you mean 'lines'?"),
        ("lines ** 2", "character 1: '**' (powers) is not allowed"),
        ("lines.__class__", "character 1: '.' (attribute access) is not allowed"),
        ("__import__('os')", "unknown function '__import__'"),
        ("lines +", "character 8: this is not a formula"),
        ("max(lines, 1e9)", "character 12: the number 1e9 is outside"),
        ("if(lines > 1, 2)", "if takes three parts"),
        ("'lines'", "is not a number or a feature"),
        ("-" * 30 + "lines", "nested more than 20 deep"),
        ("1 +" * 200 + "1", f"at most {MAX_TEXT}"),
    ],
)
def test_a_bad_formula_names_where_and_what(text, message):
    game = core.get_game("tictactoe")
    with pytest.raises(InputError) as error:
        compile_formula(game, text)
    assert message in str(error.value)


def test_phases_and_safe_arithmetic():
    game = core.get_game("othello")
    formula = compile_formula(game, "if(empties < 12, discs, 4*mobility + 10*corners) + 1/0")
    state = game.initial_state()
    assert formula.evaluate(state, 0) == 4 * 0 + 10 * 0  # the opening phase; 1/0 counts 0
    assert formula.evaluate(state.play(19), 0) == pytest.approx(
        4 * core.game_features(game)["mobility"].function(state.play(19), 0)
    )


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="lines+-*/()<>=!, 0123456789.eifmaxbsnotdr_'\"[]:", max_size=80))
def test_any_text_compiles_or_is_refused_with_a_named_message(text):
    # how quickly (goal: 0.1 s on any input) is measured by ``python -m bench.formula refusal``
    game = core.get_game("tictactoe")
    try:
        heuristic = compile_formula(game, text)
    except InputError as error:
        assert NAMED.match(str(error)), str(error)
    else:
        state = game.initial_state().play(4)
        value = heuristic.evaluate(state, 0)
        assert value == -heuristic.evaluate(state, 1)
        assert abs(value) < core.WIN_VALUE / 10


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=600))
def test_arbitrary_unicode_never_crashes(text):
    try:
        compile_formula(core.get_game("othello"), text)
    except InputError as error:
        assert NAMED.match(str(error)), str(error)


def test_connect_four_threats_are_the_empty_squares_completing_a_four():
    from lib.games.connect_four import BOARD, has_four
    from lib.games.connect_four.features import winning_squares

    game = core.get_game("connect_four")
    for state in positions(game, 150, seed=7):
        for discs in (state.red, state.yellow):
            empty = BOARD & ~(state.red | state.yellow)
            naive = {
                square
                for square in range(BOARD.bit_length())
                if empty >> square & 1 and has_four(discs | 1 << square)
            }
            found = winning_squares(discs, empty)
            assert {s for s in range(found.bit_length()) if found >> s & 1} == naive


_POSITIONS: dict[str, list] = {}


def _some_positions(name: str) -> list:
    if name not in _POSITIONS:
        _POSITIONS[name] = positions(core.get_game(name), 25, seed=11)
    return _POSITIONS[name]


@st.composite
def linear_formulas(draw) -> tuple[str, str]:
    name = draw(st.sampled_from(formula_games()))
    names = list(core.game_features(core.get_game(name)))
    chosen = draw(st.lists(st.sampled_from(names), min_size=1, max_size=6))
    weights = [draw(st.integers(-100, 100)) / draw(st.sampled_from([1, 4, 10])) for _ in chosen]
    constant = draw(st.integers(-5, 5))
    terms = " + ".join(f"({w!r})*{n}" for w, n in zip(weights, chosen, strict=True))
    return name, f"{terms} + {constant}"


@settings(max_examples=80, deadline=None)
@given(linear_formulas())
def test_a_linear_formula_scores_as_the_general_reading_of_it(case):
    # c1*f1 + c2*f2 + ... is compiled to one weighted sum (with a game's fused features);
    # wrapped in if(...) it is read from both sides term by term: the two must agree
    name, text = case
    game = core.get_game(name)
    fast = compile_formula(game, text)
    general = compile_formula(game, f"if(1 > 0, {text}, 0)")
    for state in _some_positions(name):
        for player in core.PLAYERS:
            value = fast.evaluate(state, player)
            assert value == pytest.approx(general.evaluate(state, player), abs=1e-9)
            assert value == -fast.evaluate(state, 1 - player)


def test_linear_forms():
    import ast

    from lib.games.formula import linear_form

    def form(text):
        return linear_form(ast.parse(text, mode="eval").body)

    assert form("2*(a - b/4) + 1") == ({"a": 2.0, "b": -0.5}, 1.0)
    assert form("a/0 + 3") == ({}, 3.0)
    assert form("-(a + 2) * 3") == ({"a": -3.0}, -6.0)
    assert form("a - a") == ({"a": 0.0}, 0.0)
    for nonlinear in ("a*b", "1/a", "max(a, 1)", "a < 1", "abs(a)", "IF(a, 1, 2)"):
        assert form(nonlinear) is None
