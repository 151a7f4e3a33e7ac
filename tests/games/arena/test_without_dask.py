"""Without Dask (a plain install): the page and the command line do not offer the cluster,
say how to install it, and a run asked for on one fails with that message, not a traceback.

The missing module is simulated: ``sys.modules`` maps ``dask`` and ``distributed`` to None,
so importing them raises ImportError as on a machine without them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from lib.errors import InputError
from lib.games.arena.__main__ import build_parser, main
from lib.games.arena.executors import (
    DASK_INSTALL,
    EXECUTOR_KINDS,
    available_executors,
    dask_available,
    open_executor,
)
from lib.games.arena.limits import LOCAL_ENV
from lib.games.arena.preset import presets
from lib.games.core import available_games
from lib.ui.arena_controls import EXECUTOR_LABELS

ROOT = Path(__file__).resolve().parents[3]
PAGE = str(ROOT / "pages" / "arena.py")


@pytest.fixture
def no_dask(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``import dask`` and ``import distributed`` fail as if they were not installed."""
    for name in ("dask", "distributed", "dask.distributed"):
        monkeypatch.setitem(sys.modules, name, None)


def test_the_cluster_install_adds_dask_to_the_runtime_requirements() -> None:
    lines = (ROOT / "requirements-cluster.txt").read_text(encoding="utf-8").splitlines()
    requirements = [line.split("#")[0].strip() for line in lines if line.split("#")[0].strip()]
    assert requirements[0] == "-r requirements.txt"
    assert any(r.startswith("dask[distributed]>=") for r in requirements)
    assert DASK_INSTALL == "pip install -r requirements-cluster.txt"


def test_dask_is_offered_only_when_it_imports(no_dask: None) -> None:
    assert not dask_available()
    assert available_executors() == ("inline", "process")
    assert available_executors(("inline",)) == ("inline",)


def test_with_dask_installed_every_executor_is_offered() -> None:
    pytest.importorskip("dask.distributed")
    assert dask_available()
    assert available_executors() == EXECUTOR_KINDS


def test_a_dask_run_without_dask_says_how_to_install_it(no_dask: None) -> None:
    with (
        pytest.raises(InputError, match=r"pip install -r requirements-cluster\.txt"),
        open_executor("dask", scheduler="tcp://127.0.0.1:8786"),
    ):
        pass


def test_the_command_line_names_the_install_in_its_help_and_its_error(
    no_dask: None, capsys: pytest.CaptureFixture[str]
) -> None:
    help_text = build_parser(available_games(), None, presets()).format_help()
    assert f"(needs Dask, not installed here: {DASK_INSTALL})" in " ".join(help_text.split())
    status = main(["--preset", "tictactoe_pruning", "--games", "1", "--scheduler", "tcp://x:1"])
    assert status == 2
    error = capsys.readouterr().err
    assert error.startswith("error: The Dask executor needs Dask") and DASK_INSTALL in error


def test_the_help_names_no_install_when_dask_is_there() -> None:
    pytest.importorskip("dask.distributed")
    help_text = build_parser(available_games(), None, presets()).format_help()
    assert "not installed here" not in help_text


def test_the_page_in_local_mode_offers_no_cluster_and_says_how_to_install_it(
    no_dask: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LOCAL_ENV, "1")
    app = AppTest.from_file(PAGE, default_timeout=120)
    app.run()
    assert not app.exception, app.exception
    options = app.radio(key="arena_w_executor").options
    assert EXECUTOR_LABELS["process"] in options
    assert EXECUTOR_LABELS["dask"] not in options
    assert any(DASK_INSTALL in c.value for c in app.caption)


def test_the_page_in_local_mode_offers_the_cluster_when_dask_imports(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("dask.distributed")
    monkeypatch.setenv(LOCAL_ENV, "1")
    app = AppTest.from_file(PAGE, default_timeout=120)
    app.run()
    assert not app.exception, app.exception
    assert EXECUTOR_LABELS["dask"] in app.radio(key="arena_w_executor").options
    assert not any(DASK_INSTALL in c.value for c in app.caption)
