"""The code panel's highlighter: Python's tokenizer, one kind per span, the text kept exactly."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from lib.highlight import KINDS, python_spans
from lib.routes import explain


def _kinds(spans: list[tuple[str, str]]) -> dict[str, str]:
    return {text: kind for kind, text in spans if kind}


def test_each_kind_of_token_gets_its_kind():
    source = 'def f(x, n=2):  # a comment\n    return len(f"{x}") + 1.5 if x else "no"\n'
    first, second = python_spans(source)
    assert _kinds(first) == {"def": "keyword", "f": "definition", "2": "number"} | {
        "# a comment": "comment"
    }
    assert _kinds(second)["return"] == "keyword" and _kinds(second)["len"] == "builtin"
    assert _kinds(second)["1.5"] == "number" and _kinds(second)['"no"'] == "string"
    assert "x" not in _kinds(second)  # a plain name


def test_a_string_over_several_lines_is_a_string_on_each():
    spans = python_spans('text = """one\ntwo"""\n')
    assert spans[0][-1] == ("string", '"""one') and spans[1] == [("string", 'two"""')]


def test_every_algorithm_s_code_comes_back_exactly():
    for name, function in explain.CODE.items():
        source, _ = explain.pseudocode(function)
        spans = python_spans(source)
        assert ["".join(text for _, text in line) for line in spans] == source.splitlines(), name
        assert {kind for line in spans for kind, _ in line} <= {"", *KINDS}


@given(st.text(alphabet=st.sampled_from("ab (){}\"'#\\\n\r\x0c\t:=01.")))
def test_any_text_comes_back_exactly_and_never_raises(text):
    spans = python_spans(text)
    assert ["".join(part for _, part in line) for line in spans] == text.splitlines()
    assert all(part for line in spans for _, part in line)  # no empty spans
