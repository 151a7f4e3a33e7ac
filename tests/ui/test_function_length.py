"""The game page's long UI functions are split into named steps (no function over 100
lines, the style rule of ``lib/``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPLIT = ("lib/ui/step_panel.py", "lib/ui/game_controls.py", "lib/ui/game_page.py")
MAX_LINES = 100


@pytest.mark.parametrize("path", SPLIT)
def test_no_function_is_over_100_lines(path):
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    long = [
        (node.name, node.end_lineno - node.lineno + 1)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno - node.lineno + 1 > MAX_LINES
    ]
    assert long == []
