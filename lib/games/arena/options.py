"""Game options in the Arena: their hashable form, their defaults, and reading them from text.

A game declares its options in its :class:`~lib.games.core.GameSpec`
(``options``: name -> allowed values, ``option_labels``, ``option_formats``);
nothing here knows any game's options.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from typing import Any

from lib.errors import InputError
from lib.games.core import GameSpec, get_game


def options_tuple(options: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> tuple:
    """Game options as a tuple of ``(name, value)`` pairs, sorted when given as a dict.

    A hashable form for frozen configs: ``{"size": 6}`` -> ``(("size", 6),)``.
    """
    if isinstance(options, Mapping):
        options = tuple(sorted(options.items()))
    return tuple(tuple(pair) for pair in options)


def check_options(spec: GameSpec, options: Iterable[tuple[str, Any]]) -> None:
    """Raise :class:`InputError` for an option ``spec`` lacks or a value it does not allow."""
    for name, value in options:
        allowed = spec.options.get(name)
        if allowed is None:
            raise InputError(
                f"{spec.title} has no option {name!r}; "
                f"its options are {', '.join(spec.options) or 'none'}."
            )
        if value not in allowed:
            raise InputError(
                f"{spec.title} option {name}={value!r} is not allowed; "
                f"choose one of {', '.join(map(str, allowed))}."
            )


def option_label(spec: GameSpec, name: str) -> str:
    """The title of option ``name`` (the spec's ``option_labels``, else the name made readable)."""
    return spec.option_labels.get(name) or name.replace("_", " ").capitalize()


def format_option_value(spec: GameSpec, name: str, value: Any) -> str:
    """How ``value`` of option ``name`` is shown (the spec's ``option_formats``, else ``str``)."""
    return spec.option_formats.get(name, {}).get(value, str(value))


def option_from_text(spec: GameSpec, name: str, text: str, where: str = "") -> Any:
    """The allowed value of option ``name`` written as ``text`` (``"6"`` -> ``6``).

    Values are matched by their text form, so integers and strings both come
    back with their own type. ``where`` names the source in the message
    (``"The replay link's o_size"``). Raises :class:`InputError` for a value
    the game does not allow.
    """
    allowed = spec.options.get(name)
    if allowed is None:
        raise InputError(
            f"{spec.title} has no option {name!r}; "
            f"its options are {', '.join(spec.options) or 'none'}."
        )
    for value in allowed:
        if str(value) == text:
            return value
    raise InputError(
        f"{where or f'{spec.title} option {name}'}={text!r} is not one of "
        f"{', '.join(map(str, allowed))}."
    )


def initial_option_defaults(game: str) -> dict[str, Any]:
    """Defaults of the game's ``initial_state`` keyword options that the spec lists.

    E.g. ``{"size": 8}`` for a game whose ``initial_state(size=8)`` offers sizes.
    """
    spec = get_game(game)
    parameters = inspect.signature(spec.initial_state).parameters
    return {
        name: parameters[name].default
        for name in spec.options
        if name in parameters and parameters[name].default is not inspect.Parameter.empty
    }


def page_options(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` written as the game page's option selects write them.

    A library default is not always among the page's choices (e.g. an
    ``initial_state`` whose ``first`` defaults to ``0`` while the page offers
    ``"red"`` / ``"blue"`` / ``"random"``); a value the page does not offer becomes
    the choice that gives the same starting position, so a replayed game's options
    equal the page's and the page keeps the game instead of starting a new one.
    """
    spec = get_game(game)
    start = spec.initial_state(**options)
    result = dict(options)
    for name, allowed in spec.options.items():
        value = options.get(name)
        if value in allowed:
            continue
        same = [a for a in allowed if str(a) == str(value)]
        for choice in allowed:
            if same:
                break
            try:
                if spec.initial_state(**{**options, name: choice}) == start:
                    same = [choice]
            except InputError:
                continue
        if not same:
            raise InputError(f"{spec.title} option {name}={value!r} has no choice on its page.")
        result[name] = same[0]
    return result
