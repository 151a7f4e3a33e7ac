"""Streamlit helpers shared by every page: errors, downloads, page set-up."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pandas as pd
import streamlit as st

from lib.common import safe_csv_bytes
from lib.errors import InputError


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Show an :class:`InputError` as ``st.error`` instead of a traceback.

    Use it around code that validates user input; other exceptions propagate
    (they are bugs and must fail the tests).
    """
    try:
        yield
    except InputError as error:
        st.error(str(error))


def csv_download(table: pd.DataFrame, file_name: str, label: str, key: str) -> None:
    """A download button for ``table`` as a spreadsheet-safe CSV."""
    st.download_button(
        label,
        data=safe_csv_bytes(table),
        file_name=file_name,
        mime="text/csv",
        key=key,
    )
