"""Every benchmark module imports: a move or rename in lib/ cannot leave a bench behind."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.mark.parametrize("name", sorted(p.stem for p in BENCH.glob("*.py") if p.stem != "__init__"))
def test_the_bench_module_imports(name):
    module = importlib.import_module(f"bench.{name}")
    assert module.__doc__
