"""The examples in the routes modules' docstrings run and give what they show."""

from __future__ import annotations

import doctest

import pytest

from lib.routes import compare, graphs, search


@pytest.mark.parametrize("module", [graphs, search, compare], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
