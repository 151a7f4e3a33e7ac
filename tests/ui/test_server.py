"""The entry script tunes the allocator and starts one memory releaser per server, whichever
page is visited."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from lib.ui import server

ROOT = Path(__file__).resolve().parents[2]


def test_visitors_share_one_releaser_started_by_the_first(monkeypatch):
    started, tuned = [], []

    class Recording:
        def __init__(self) -> None:
            started.append(self)

    monkeypatch.setattr(server, "MemoryReleaser", Recording)
    monkeypatch.setattr(server, "tune_allocator", lambda: tuned.append(len(started)))
    server.memory_releaser.clear()
    try:
        for page in ("home", "sim"):  # two visitors, two pages
            app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=60)
            app.switch_page(f"pages/{page}.py").run()
            assert not app.exception, app.exception
        assert len(started) == 1
        assert tuned == [0]  # once, before the releaser started
    finally:
        server.memory_releaser.clear()
