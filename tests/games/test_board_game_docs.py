"""The examples in the tic-tac-toe and Connect Four docstrings run and give what they show."""

from __future__ import annotations

import doctest

import pytest

from lib.games import connect_four, tictactoe


@pytest.mark.parametrize("module", [tictactoe, connect_four], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
