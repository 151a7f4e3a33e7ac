"""Fixtures for every test."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _restore_main_module() -> Iterator[None]:
    """Put ``sys.modules["__main__"]`` back after each test.

    AppTest runs a page as ``__main__`` from a temporary file and leaves it
    there; a process pool started later in the same worker (forkserver or
    spawn) would then re-run that file in its children and fail. Restoring it
    keeps a test's outcome independent of which tests ran before it.
    """
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main
