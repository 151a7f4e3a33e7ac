"""The one exception type for problems a user can fix (bad upload, bad parameter)."""

from __future__ import annotations


class InputError(ValueError):
    """A plain-language problem with user input.

    The message is meant to be shown to the user as is (pages render it with
    ``st.error``), so it names the file, row, column and value at fault and
    says what was expected.
    """


ECHO_LIMIT = 20
"""Characters of a user's own text a message repeats (a typed value may be megabytes)."""


def echo(text: object, limit: int = ECHO_LIMIT) -> str:
    """``text`` as a message repeats it: whole if short, else its start, "…" and its length.

    >>> echo("b2"), echo("9" * 500)
    ('b2', '99999999999999999999… (500 characters)')
    """
    text = str(text)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"
