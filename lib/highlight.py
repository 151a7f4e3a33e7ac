"""Python source as coloured spans, for code panels drawn without a syntax-highlighting library.

The route page's code panel lives inside its canvas player (so the marked line follows the
animation in the browser); Streamlit's own code block would load a 1.5 MB highlighter for it.
This is the small part of that job the panel needs: Python's own tokenizer, and one kind
per span. The texts are plain text; whoever draws them sets them as text, never as HTML.
"""

from __future__ import annotations

import builtins
import io
import keyword
import tokenize

#: The kinds a span can be ("" is everything else: names, operators, spaces).
KINDS = ("keyword", "builtin", "definition", "string", "number", "comment")

_BUILTINS = frozenset(name for name in dir(builtins) if not name.startswith("_"))
_STRING_TOKENS = {tokenize.STRING} | {
    getattr(tokenize, name)
    for name in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END")  # Python 3.12+
    if hasattr(tokenize, name)
}


def python_spans(source: str) -> list[list[tuple[str, str]]]:
    """``source`` line by line, each line as ``(kind, text)`` spans (kinds: :data:`KINDS`).

    A line's texts joined give the line back exactly. Text the tokenizer cannot read
    (it is not Python) comes back as one plain span per line.
    """
    lines = source.splitlines()
    kinds = [[""] * len(line) for line in lines]
    try:
        previous = None
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            kind = _kind(token, previous)
            if token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT):
                previous = token
            if kind:
                _mark(kinds, token.start, token.end, kind)
    except (tokenize.TokenError, SyntaxError):
        return [[("", line)] if line else [] for line in lines]
    return [_runs(line, line_kinds) for line, line_kinds in zip(lines, kinds, strict=True)]


def _kind(token: tokenize.TokenInfo, previous: tokenize.TokenInfo | None) -> str:
    if token.type in _STRING_TOKENS:
        return "string"
    if token.type == tokenize.NUMBER:
        return "number"
    if token.type == tokenize.COMMENT:
        return "comment"
    if token.type != tokenize.NAME:
        return ""
    if previous is not None and previous.string in ("def", "class"):
        return "definition"
    if keyword.iskeyword(token.string):
        return "keyword"
    return "builtin" if token.string in _BUILTINS else ""


def _mark(kinds: list[list[str]], start: tuple[int, int], end: tuple[int, int], kind: str) -> None:
    """Give the characters from ``start`` to ``end`` (tokenize's (row, column)) ``kind``."""
    (first_row, first_col), (last_row, last_col) = start, end
    for row in range(first_row, last_row + 1):
        line = kinds[row - 1]
        begin = first_col if row == first_row else 0
        stop = last_col if row == last_row else len(line)
        line[begin:stop] = [kind] * (stop - begin)


def _runs(line: str, kinds: list[str]) -> list[tuple[str, str]]:
    """``line`` cut where its characters' kinds change."""
    spans: list[tuple[str, str]] = []
    begin = 0
    for i in range(1, len(line) + 1):
        if i == len(line) or kinds[i] != kinds[begin]:
            spans.append((kinds[begin], line[begin:i]))
            begin = i
    return spans
