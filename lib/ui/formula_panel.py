"""The "Your formula…" controls: a box for a student's evaluation formula and the features.

:func:`formula_controls` draws the text box and the feature list for one
player and returns the formula when it compiles (its error, naming the
character, is shown otherwise and the text stays in the box);
:func:`ladder_formula_player` adds one formula player to the Arena's ladder.
Nothing here names a game.
"""

from __future__ import annotations

import re

import streamlit as st

from lib.errors import InputError
from lib.games.core import GameSpec, game_features
from lib.games.formula import FUNCTIONS, MAX_TEXT, compile_formula
from lib.games.search.players import PlayerConfig
from lib.ui.common import escape_markdown

FORMULA_CHOICE = "Your formula…"
"""The heuristic choice that reveals the formula box."""

_AT_CHARACTER = re.compile(r"at character (\d+)")


def heuristic_names(game: GameSpec) -> list[str]:
    """The game's heuristics, then :data:`FORMULA_CHOICE` when it has features to write with."""
    names = list(game.heuristics)
    return [*names, FORMULA_CHOICE] if game_features(game) else names


def starting_formula(game: GameSpec) -> str:
    """The formula the box starts with: the game's first two features, e.g. ``lines + centre``."""
    return " + ".join(list(game_features(game))[:2])


def feature_list(game: GameSpec) -> str:
    """The game's features as a Markdown list: **name**: meaning."""
    lines = [
        f"- **{name}**: {escape_markdown(feature.meaning)}"
        for name, feature in game_features(game).items()
    ]
    return "\n".join(lines)


def formula_error(game: GameSpec, text: str) -> str | None:
    """Why ``text`` is not a formula for ``game`` (None when it compiles)."""
    try:
        compile_formula(game, text)
    except InputError as error:
        return str(error)
    return None


def pointed(text: str, message: str) -> str | None:
    """``text`` with a ``^`` under the character ``message`` names (None if it names none)."""
    found = _AT_CHARACTER.search(message)
    if found is None:
        return None
    column = min(int(found.group(1)), len(text) + 1)
    return f"{text}\n{' ' * (column - 1)}^"


def formula_controls(game: GameSpec, key: str, label: str, seed: str | None) -> str | None:
    """The formula box of one player (widget key ``key``) and the feature list beside it.

    ``seed`` (a link's formula) fills the box on first use. Returns the
    formula when it compiles; otherwise shows the error (and where it stands)
    and returns None, leaving the text in the box to be fixed.
    """
    if key not in st.session_state:
        st.session_state[key] = seed if seed is not None else starting_formula(game)
    text = st.text_input(
        f"{label}: your formula",
        key=key,
        max_chars=MAX_TEXT,
        help="Numbers, the features below, + - * /, brackets, comparisons, and/or/not, "
        f"{', '.join(FUNCTIONS[:-1])} and if(condition, a, b). Write it from your side: "
        "it is read from the other side too, so mine-minus-theirs is kept.",
    )
    with st.expander(f"{label}: features you can use", expanded=True):
        st.markdown(feature_list(game))
    problem = formula_error(game, text)
    if problem is None:
        return text
    st.error(
        escape_markdown(problem)
        + f" {label} plays with the '{escape_markdown(game.default_heuristic)}' heuristic "
        "until the formula is fixed."
    )
    where = pointed(text, problem)
    if where is not None:
        st.code(where, language=None)
    return None


def ladder_formula_player(game: GameSpec, text: str, seconds: float, depth: int) -> tuple[str, ...]:
    """The ladder's extra roster entry for ``text``: none for an empty box, else one spec.

    Raises :class:`InputError` (naming the character) for a formula that does not compile.
    """
    if not text.strip():
        return ()
    compile_formula(game, text)
    config = PlayerConfig(kind="alphabeta", depth=depth, time_limit=seconds, formula=text)
    return (config.to_spec(),)


def ladder_formula_box(game: GameSpec, key: str) -> str:
    """An optional formula box for the ladder form (empty when the game has no features)."""
    if not game_features(game):
        return ""
    text = st.text_input(
        "Add your formula player (optional)",
        key=key,
        max_chars=MAX_TEXT,
        placeholder=f"e.g. {starting_formula(game)}",
        help="Alpha-beta with your evaluation formula joins the roster, on the same clock.",
    )
    with st.expander("Features you can use"):
        st.markdown(feature_list(game))
    return text
