"""Streamlit helpers shared by every page: errors, downloads, page set-up."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from lib.common import safe_csv_bytes
from lib.errors import InputError
from lib.links import LinkField, read_link, write_link

# Characters with a meaning in Streamlit's Markdown: links and images ([ ] ( ) !), HTML and
# autolinks (< > & :), emphasis, headings, lists, tables, code, LaTeX ($) and Streamlit's
# directives (:red[...], :material/icon:). A backslash before any of them shows it as is.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&=^@])")
# GFM turns bare URLs and e-mail addresses into links after the backslashes are read, so
# an invisible word joiner (U+2060) goes where it breaks them: after "http", "www", "@".
_AUTOLINK = re.compile(r"(?i)(https?(?=:)|ftp(?=:)|mailto(?=:)|www(?=\.)|@)")
WORD_JOINER = "\u2060"


def escape_markdown(text: object) -> str:
    r"""``text`` made to show literally when rendered as Markdown (st.markdown, st.error...).

    Use it for anything a user supplied (file names, uploaded place names and
    tickers, URL parameters, error messages quoting them), so that a name like
    ``![x](http://host/img)`` is shown as text instead of loading an image.
    Line breaks become spaces (a user value stays on one line), and an
    invisible word joiner keeps bare URLs and e-mail addresses from becoming
    links (GFM links them whatever the backslashes).

    >>> print(escape_markdown("[click](javascript:alert)"))
    \[click\]\(javascript\:alert\)
    >>> escape_markdown("Rimnicu Vilcea, 0,0")
    'Rimnicu Vilcea, 0,0'
    """
    flat = re.sub(r"[\r\n]+", " ", str(text))
    unlinked = _AUTOLINK.sub(lambda m: m.group(1) + WORD_JOINER, flat)
    return _MARKDOWN_SPECIAL.sub(r"\\\1", unlinked)


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Show an :class:`InputError` as ``st.error`` instead of a traceback.

    Use it around code that validates user input; other exceptions propagate
    (they are bugs and must fail the tests). The message is escaped for
    Markdown: it often quotes user values (file names, cells, URL settings).
    """
    try:
        yield
    except InputError as error:
        st.error(escape_markdown(error))


def current(key: str, default: Any) -> Any:
    """The widget ``key``'s value (``default`` before it has one), for its own default.

    Pass it as the widget's ``value=`` (``index=`` of it for a select or radio) whenever
    the page seeds the widget through ``st.session_state`` (a link's settings, a preset).
    Seeded that way alone, the widget sends the browser its minimum or first choice as
    its default, and a busy browser that first draws the widget from a later run than
    the seeding one starts it there: a link's depth 8 came back as 1 mid-game.
    """
    return st.session_state.get(key, default)


KEPT_WIDGETS = "_kept_widgets"
"""The session's set of widget keys whose values every run keeps (:func:`keep_widget_values`)."""


def keep_widget_values(keys: Iterable[str]) -> None:
    """Keep the values of the widgets ``keys`` through runs that do not draw them.

    Streamlit forgets a widget's value after a run that does not draw it: a tab or an
    expander whose contents are computed only while it is open, or another page of the
    app. Writing the value back as the page's own state at the start of the run keeps it
    (Streamlit's documented way to interrupt the widget clean-up). The keys are also
    noted in the session, and the entry script's :func:`keep_noted_widget_values` keeps
    them in every run, whichever page it draws: a visitor who goes to another page and
    comes back finds the settings as left. Not for buttons, whose value cannot be set.
    """
    keys = tuple(keys)
    noted = st.session_state.setdefault(KEPT_WIDGETS, set())
    noted.update(keys)
    for key in keys:
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def keep_noted_widget_values() -> None:
    """Keep the values of every widget a page of this session asked to keep
    (:func:`keep_widget_values`): called by the entry script at the start of each run."""
    keep_widget_values(sorted(st.session_state.get(KEPT_WIDGETS, ())))


def csv_download(table: pd.DataFrame, file_name: str, label: str, key: str) -> None:
    """A download button for ``table`` as a spreadsheet-safe CSV.

    Downloading does not rerun the page (``on_click="ignore"``): the file is already
    made, and a rerun would redraw every board and chart for nothing (a click made
    meanwhile on a board being redrawn could be lost).
    """
    st.download_button(
        label,
        data=safe_csv_bytes(table),
        file_name=file_name,
        mime="text/csv",
        key=key,
        on_click="ignore",
    )


def read_query(schema: Sequence[LinkField]) -> tuple[dict[str, Any], list[str]]:
    """The page's link settings (:func:`lib.links.read_link` on ``st.query_params``).

    The link's text in the notes is escaped for Markdown, for the page to show with
    ``st.warning``.
    """
    params = {f.name: st.query_params[f.name] for f in schema if f.name in st.query_params}
    return read_link(schema, params, quote=escape_markdown)


def write_query(schema: Sequence[LinkField], values: Mapping[str, Any]) -> None:
    """Mirror ``values`` in the URL (only parameters whose text changed are written)."""
    for name, text in write_link(schema, values).items():
        if st.query_params.get(name) != text:
            st.query_params[name] = text


def query_int(name: str, default: int, low: int, high: int) -> tuple[int, str | None]:
    """The whole number in URL parameter ``name``, kept within ``low..high``.

    Returns ``(value, note)``: ``note`` is None when the link's value was used
    as is (or the link has no ``name``), otherwise a short sentence naming the
    parameter, the value given and the value used instead (``default`` for a
    value that is not a whole number, the nearest bound for one out of range),
    escaped for Markdown, for the page to show with ``st.warning``.
    """
    values, notes = read_query((LinkField(name, int, default, low=low, high=high),))
    return values[name], (notes[0] if notes else None)
