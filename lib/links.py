"""Page settings in a shared link: one typed schema per page, read and written the same way.

A page lists its link settings as :class:`LinkField` values (URL name, type,
range or choices, default). :func:`read_link` turns the link's text into
values: a number outside its range is moved to the nearest bound, and any value
that cannot be used falls back to the default; either way one note names the
parameter, the value given (quoted short: a link may carry thousands of
characters) and the value used, in the same words on every page.
:func:`write_link` gives the text that reproduces the values.

>>> schema = (LinkField("depth", int, 4, low=1, high=8), LinkField("ordering", bool, True))
>>> values, notes = read_link(schema, {"depth": "20", "ordering": "no"})
>>> values
{'depth': 8, 'ordering': False}
>>> notes
["The link's depth=20 is outside this page's range 1–8; using 8."]
>>> write_link(schema, values)
{'depth': '8', 'ordering': 'false'}
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lib.errors import InputError

TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")
SHOWN_LIMIT = 40
MAX_WHOLE = 2**53
"""Largest whole number a link's number may be (beyond it a float is no longer exact)."""
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
"""Longest link value a note repeats whole."""


REASON_LIMIT = 300
"""Most characters of a parser's reason a note quotes (parsers quote the user's text short)."""


def shown(text: object) -> str:
    """A link value as a note quotes it: whole if short, else cut with its length said."""
    text = str(text)
    if len(text) <= SHOWN_LIMIT:
        return text
    return f"{text[:SHOWN_LIMIT]}… ({len(text):,} characters)"


def parse_bool(text: str) -> bool:
    """``yes/no``, ``true/false``, ``on/off``, ``1/0`` (any case) as a bool; else ValueError."""
    lowered = text.strip().lower()
    if lowered in TRUE_WORDS:
        return True
    if lowered in FALSE_WORDS:
        return False
    raise ValueError(text)


@dataclass(frozen=True)
class LinkField:
    """One setting a page keeps in its link.

    ``kind`` is ``int``, ``float``, ``bool`` or ``str``; numbers may have
    ``low``/``high`` bounds, text may be limited to ``choices``. ``parse``
    replaces the built-in reading for other values (lists, dates ...): it
    returns the value or raises ``ValueError``. ``expected`` says in words what
    a good value looks like (the note uses it), ``used_instead`` what the page
    uses when the link's value is refused, for a default that is not a value
    itself (an empty text standing for "the first algorithm with a route").
    """

    name: str
    kind: type
    default: Any
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] = ()
    parse: Callable[[str], Any] | None = None
    expected: str = ""
    digits: int | None = None  # numbers are rounded to this many decimals
    used_instead: str = ""

    def default_text(self) -> str:
        """What a note says the page uses instead of a refused value: the default."""
        if self.used_instead:
            return self.used_instead
        written = "" if self.default is None else self.write(self.default)
        return written or "the default"

    def describe(self) -> str:
        """What a good value looks like, e.g. "a whole number" or "one of rank, tournament"."""
        if self.expected:
            return self.expected
        if self.choices:
            return "one of " + ", ".join(map(str, self.choices))
        return {
            int: "a whole number",
            float: "a number",
            bool: "yes or no",
        }.get(self.kind, "a valid value")

    def read(self, text: str) -> tuple[Any, bool]:
        """The value of ``text`` and whether it was moved into range (ValueError: unusable)."""
        if self.parse is not None:
            return self.parse(text), False
        if self.kind is bool:
            return parse_bool(text), False
        if self.kind is str:
            value = text.strip()
            if self.choices and value not in map(str, self.choices):
                raise ValueError(text)
            return next((c for c in self.choices if str(c) == value), value), False
        number = float(text.strip())
        too_large = abs(number) > (MAX_WHOLE if self.kind is int else sys.float_info.max)
        if too_large and _NUMBER.fullmatch(text.strip()):
            raise OverflowError(text)  # a number, of too many digits to be used
        if not math.isfinite(number) or (self.kind is int and number != int(number)):
            raise ValueError(text)
        value = int(number) if self.kind is int else number
        if self.digits is not None:
            value = round(value, self.digits)
        fitted = value
        if self.low is not None:
            fitted = max(self.kind(self.low), fitted)
        if self.high is not None:
            fitted = min(self.kind(self.high), fitted)
        return fitted, fitted != value

    def write(self, value: Any) -> str:
        """The link text of ``value``."""
        if self.kind is bool:
            return "true" if value else "false"
        if isinstance(value, list | tuple):
            return ",".join(map(str, value))
        if isinstance(value, float) and value == int(value) and self.kind is float:
            return f"{value:g}"
        return str(value)

    def range_text(self) -> str:
        """This field's range in words, e.g. "1–8" (or "1 or more" without an upper bound)."""
        if self.low is None and self.high is None:
            return f"any {self.describe().removeprefix('a ')} up to {MAX_WHOLE:,}"
        if self.high is None:
            return f"{self.write(self.kind(self.low))} or more"
        if self.low is None:
            return f"{self.write(self.kind(self.high))} or less"
        return f"{self.write(self.kind(self.low))}–{self.write(self.kind(self.high))}"


def read_link(
    schema: Sequence[LinkField],
    params: Mapping[str, str],
    quote: Callable[[str], str] = str,
) -> tuple[dict[str, Any], list[str]]:
    """The schema's values from the link's ``params``, and one note per value not used as given.

    Fields the link leaves out take their defaults (no note). ``quote`` prepares
    the link's own text for the note (a page escapes it for Markdown).
    """
    values: dict[str, Any] = {}
    notes: list[str] = []
    for field in schema:
        raw = params.get(field.name)
        if raw is None:
            values[field.name] = field.default
            continue
        given = f"The link's {field.name}={quote(shown(raw))}"
        try:
            value, moved = field.read(str(raw))
        except OverflowError:
            values[field.name] = field.default
            notes.append(
                f"{given} is too large: this page's range is {field.range_text()}; "
                f"using {field.default_text()}."
            )
            continue
        except InputError as error:  # a parser that says why, in the user's words
            values[field.name] = field.default
            reason = quote(str(error).rstrip(".")[:REASON_LIMIT])
            notes.append(f"{given}: {reason}; using {field.default_text()}.")
            continue
        except (ValueError, TypeError):
            values[field.name] = field.default
            notes.append(f"{given} is not {field.describe()}; using {field.default_text()}.")
            continue
        values[field.name] = value
        if moved:
            notes.append(
                f"{given} is outside this page's range {field.range_text()}; "
                f"using {field.write(value)}."
            )
    return values, notes


def write_link(schema: Sequence[LinkField], values: Mapping[str, Any]) -> dict[str, str]:
    """The link parameters that reproduce ``values`` (fields missing from ``values`` left out)."""
    return {field.name: field.write(values[field.name]) for field in schema if field.name in values}


MAX_LINK_MOVES = 600
"""Most moves a link's ``moves=`` may carry (a long checkers game is about 200 plies)."""
MAX_MOVES_CHARS = 6_000
"""Longest ``moves=`` text read (longer text is refused whole, before any parsing)."""
_MOVE_SEPARATORS = re.compile(r"[\s,]+")
_REFUSED = (InputError, ValueError, LookupError, TypeError)


def read_moves(
    text: str,
    start: Any,
    parse_move: Callable[[str, Any], Any],
    quote: Callable[[str], str] = str,
    name: str = "moves",
) -> tuple[list[Any], str | None]:
    """The moves a link's ``moves=`` text plays from ``start``, and a note if not all of them.

    ``text`` is the game's own move notation (``parse_move``'s), the moves separated by
    commas or spaces. ``start`` is any game state (``legal_moves()``, ``play(move)``).
    The first move that cannot be read or is not legal where it falls is named in the
    note with its ply (counted from 1); the legal moves before it are kept and the ones
    after it are left out (they were meant for a position the link does not reach).

    >>> from lib.games.core import get_game
    >>> game = get_game("tictactoe")
    >>> moves, note = read_moves("b2, a1", game.initial_state(), game.parse_move)
    >>> write_moves(moves, game.format_move), note
    ('b2,a1', None)
    >>> read_moves("b2 b2 a1", game.initial_state(), game.parse_move)[1][:46]
    "The link's moves= has move 2 “b2” that cannot "
    """
    if len(text) > MAX_MOVES_CHARS:
        return [], (
            f"The link's {name}= has {len(text):,} characters, over the limit of "
            f"{MAX_MOVES_CHARS:,}; the game starts from the beginning."
        )
    tokens = [token for token in _MOVE_SEPARATORS.split(text) if token]
    given, note = len(tokens), None
    if given > MAX_LINK_MOVES:
        note = (
            f"The link's {name}= has {given:,} moves given, the first {MAX_LINK_MOVES:,} "
            f"kept (a link plays at most {MAX_LINK_MOVES:,})."
        )
    state, moves = start, []
    for ply, token in enumerate(tokens[:MAX_LINK_MOVES], start=1):
        try:
            legal = state.legal_moves()
            if not legal:
                raise InputError("the game is already over there")
            move = parse_move(token, state)
            if move not in legal:
                raise InputError("it is not legal in that position")
        except _REFUSED as error:
            rest = given - ply  # of all the moves given, the cap's too
            why = str(error).rstrip(".") or "it cannot be read"
            return moves, (
                f"The link's {name}= has move {ply} “{quote(shown(token))}” that cannot be "
                f"played ({quote(why[:200])}); keeping the {ply - 1} move(s) before it"
                + (f" and leaving out the {rest:,} after it." if rest else ".")
            )
        moves.append(move)
        state = state.play(move)
    return moves, note


def write_moves(moves: Sequence[Any], format_move: Callable[[Any], str]) -> str:
    """The ``moves=`` text of ``moves`` (read back by :func:`read_moves`)."""
    return ",".join(format_move(move) for move in moves)
