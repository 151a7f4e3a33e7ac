"""The one exception type for problems a user can fix (bad upload, bad parameter)."""

from __future__ import annotations


class InputError(ValueError):
    """A plain-language problem with user input.

    The message is meant to be shown to the user as is (pages render it with
    ``st.error``), so it names the file, row, column and value at fault and
    says what was expected.
    """
