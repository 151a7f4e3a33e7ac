"""Markdown escaping of user text and the error box of user_errors()."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from lib.ui.common import WORD_JOINER, escape_markdown

SPECIAL = set("\\`*_{}[]()#+-.!|<>~$:&=^@")


def _shown(escaped: str) -> str:
    """What CommonMark displays for ``escaped``: a backslash before punctuation is dropped."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", escaped).replace(WORD_JOINER, "")


def test_link_and_image_syntax_is_neutralised():
    escaped = escape_markdown("![x](http://attacker/img) [click](javascript:alert(1))")
    assert "](" not in escaped
    assert escaped.startswith(f"\\!\\[x\\]\\(http{WORD_JOINER}\\://attacker/img\\)")
    assert "\\[click\\]\\(javascript\\:" in escaped


def test_html_directives_and_latex_are_neutralised():
    assert escape_markdown("<img src=x>") == "\\<img src\\=x\\>"
    assert escape_markdown(":red[big] :material/home:") == "\\:red\\[big\\] \\:material/home\\:"
    assert escape_markdown("$x^2$") == "\\$x\\^2\\$"


def test_bare_urls_and_addresses_are_kept_from_becoming_links():
    # GFM links these after reading the backslashes; a word joiner breaks the pattern
    escaped = escape_markdown("see http://a.example, HTTPS://b.example, www.c.example, d@e.org")
    for linkable in ("http\\:", "HTTPS\\:", "www\\.", "@e"):
        assert linkable not in escaped
    assert _shown(escaped) == "see http://a.example, HTTPS://b.example, www.c.example, d@e.org"


def test_plain_names_are_unchanged_and_lines_joined():
    assert escape_markdown("Rimnicu Vilcea") == "Rimnicu Vilcea"
    assert escape_markdown("0,0") == "0,0"
    assert escape_markdown("a\nb\r\n# c") == "a b \\# c"
    assert escape_markdown(42) == "42"


@given(st.text(st.characters(blacklist_characters=WORD_JOINER)))
def test_every_special_character_is_escaped_and_the_text_survives(text):
    escaped = escape_markdown(text)
    flat = re.sub(r"[\r\n]+", " ", text)
    assert "\n" not in escaped and "\r" not in escaped
    assert _shown(escaped) == flat
    # Read left to right, no special character is left without its backslash.
    i = 0
    while i < len(escaped):
        if escaped[i] == "\\":
            assert escaped[i + 1] in SPECIAL
            i += 2
            continue
        assert escaped[i] not in SPECIAL
        i += 1


def _error_app(message: str) -> None:
    from lib.errors import InputError
    from lib.ui.common import user_errors

    with user_errors():
        raise InputError(message)


def test_user_errors_shows_the_message_escaped():
    message = "edges.csv, line 2: place '![x](http://attacker/img)' is unknown."
    app = AppTest.from_function(_error_app, args=(message,)).run()
    assert not app.exception
    assert app.error[0].value == escape_markdown(message)
    assert _shown(app.error[0].value) == message


def _download_app() -> None:
    import pandas as pd

    from lib.ui.common import csv_download

    csv_download(pd.DataFrame({"name": ["=SUM(1)"]}), "t.csv", "Download t.csv", "dl")


def test_a_csv_download_does_not_rerun_the_page():
    app = AppTest.from_function(_download_app).run()
    (button,) = app.get("download_button")
    assert button.proto.label == "Download t.csv"
    assert button.proto.ignore_rerun  # the browser downloads without a new run of the page


def test_docstring_examples_hold():
    import doctest

    import lib.common
    import lib.ui.common

    for module in (lib.common, lib.ui.common):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0
