"""Compiled functions work whether or not numba's disk cache can be written."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from numba.core import caching

from lib.games.jit import njit

ROOT = Path(__file__).resolve().parents[2]


def _add(left: int, right: int) -> int:
    return left + right


def test_a_function_is_compiled_with_the_disk_cache_when_a_folder_takes_it() -> None:
    compiled = njit()(_add)
    assert compiled(2, 3) == 5
    assert compiled._cache.cache_path  # a folder numba writes the machine code to


def test_without_a_writable_cache_folder_the_function_still_compiles_and_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(caching.CacheImpl, "_locator_classes", [])
    with pytest.raises(RuntimeError, match="no locator"):  # what numba alone does here
        caching.FunctionCache(_add)
    compiled = njit(nogil=True)(_add)
    assert compiled(40, 2) == 42
    assert isinstance(compiled._cache, caching.NullCache)


def test_the_solvers_import_and_run_on_a_host_where_no_cache_folder_is_writable(
    tmp_path: Path,
) -> None:
    # every __pycache__ and the home cache are files, so numba can make no cache folder
    shutil.copytree(ROOT / "lib", tmp_path / "lib", ignore=shutil.ignore_patterns("__pycache__"))
    for folder in [tmp_path / "lib", *(tmp_path / "lib").rglob("*")]:
        if folder.is_dir():
            (folder / "__pycache__").touch()
    home = tmp_path / "home-is-a-file"
    home.touch()
    environment = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    environment.update(HOME=str(home), XDG_CACHE_HOME=str(home / "cache"))
    program = (
        "from lib.games.othello import endgame_kernels, endgame_search\n"
        "from lib.games.connect_four import compiled, solver\n"
        "import numpy as np\n"
        "print(compiled.popcount(np.uint64(0b1011)),"
        " endgame_kernels.highest_square(np.uint64(8)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["3", "3"]
