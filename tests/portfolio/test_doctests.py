"""The examples in the portfolio modules' docstrings run and give what they show."""

from __future__ import annotations

import doctest

import pytest

from lib.portfolio import data, exact, ga, plots, report


@pytest.mark.parametrize("module", [data, ga, exact, plots, report], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if module is not exact:
        assert result.attempted > 0
