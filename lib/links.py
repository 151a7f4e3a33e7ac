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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")
SHOWN_LIMIT = 40
"""Longest link value a note repeats whole."""


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
    a good value looks like (the note uses it).
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
        """This field's range in words, e.g. "1–8"."""
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
        except (ValueError, TypeError, OverflowError):
            values[field.name] = field.default
            used = "the default" if field.default is None else field.write(field.default)
            notes.append(f"{given} is not {field.describe()}; using {used}.")
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
