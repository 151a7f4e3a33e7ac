"""The textbook listing of the reference searches (lib/games/search/tracers.py): the tracer's
bookkeeping hidden from it, and every step's source line mapped to a row that is shown."""

from __future__ import annotations

import ast
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games.search.reference import SEARCHES
from lib.games.search.tracers import source_listing, textbook_listing


@pytest.mark.parametrize("algorithm", sorted(SEARCHES))
def test_the_textbook_listing_is_the_source_without_its_tracer_lines(algorithm):
    listing = source_listing(algorithm)
    source, textbook = listing.text.splitlines(), listing.textbook
    hidden = [n for n in range(1, len(source) + 1) if n not in textbook.source_lines]
    # what is hidden is tracer bookkeeping, and all of it
    assert hidden and all(source[n - 1].strip().startswith("tracer") for n in hidden)
    assert not any(row.strip().startswith("tracer") for row in textbook.rows)
    assert not any("# step" in row for row in textbook.rows)
    # every other line is kept, in order, as written (less its step comment)
    assert list(textbook.source_lines) == sorted(set(textbook.source_lines))
    for row, number in zip(textbook.rows, textbook.source_lines, strict=True):
        assert row == source[number - 1].split("  # step:")[0]
    # still one Python function, using its tracer nowhere but in its signature
    tree = ast.parse(textwrap.dedent(textbook.text))
    used = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "tracer"]
    assert used == []
    assert textbook.text.count("tracer") == 1  # the parameter, kept so the call still reads


@pytest.mark.parametrize("algorithm", sorted(SEARCHES))
def test_every_step_marker_is_shown_on_the_statement_it_reports(algorithm):
    listing = source_listing(algorithm)
    source, textbook = listing.text.splitlines(), listing.textbook
    for marker, line in listing.lines.items():
        row = textbook.row_of(line)
        shown = textbook.rows[row - 1]
        if line in textbook.source_lines:  # a shown line is its own row
            assert textbook.source_lines[row - 1] == line
        else:  # a hidden one is shown on the nearest shown line above it
            above = textbook.source_lines[row - 1]
            assert above < line
            assert all(n not in textbook.source_lines for n in range(above + 1, line))
        assert shown.strip() and not shown.strip().startswith("tracer"), marker
    entered = textbook.rows[textbook.row_of(listing.lines["enter"]) - 1]
    assert entered.strip().startswith("def value(")
    for line in range(1, len(source) + 1):  # every line of the source has a shown row
        assert textbook.row_of(line) in range(1, len(textbook.rows) + 1)
    for wrong in (0, len(source) + 1, True, "3"):
        with pytest.raises(InputError, match="not in the listing"):
            textbook.row_of(wrong)


rows_of_code = st.lists(
    st.sampled_from(["def f(tracer):", "  tracer.enter()", "  x = 1  # step: x", "", "tracer = t"]),
    max_size=12,
)


@given(rows=rows_of_code)
def test_any_listing_maps_each_line_to_the_last_shown_line_at_or_above_it(rows):
    text = "\n".join(rows)
    source = text.splitlines()
    shown = textbook_listing(text)
    kept = [n for n, row in enumerate(source, start=1) if not row.lstrip().startswith("tracer")]
    assert list(shown.source_lines) == kept and shown.source_length == len(source)
    assert not any("# step" in row for row in shown.rows)
    for line in range(1, len(source) + 1):
        if not kept:
            with pytest.raises(InputError, match="hidden"):
                shown.row_of(line)
            continue
        above = [n for n in kept if n <= line]
        assert shown.source_lines[shown.row_of(line) - 1] == (above[-1] if above else kept[0])
    with pytest.raises(InputError, match="not in the listing"):
        shown.row_of(len(source) + 1)
