"""The entry script and home page under AppTest."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from lib.ui.navigation import PAGES, url_path

ROOT = Path(__file__).resolve().parents[2]


def test_home_page_runs_and_describes_every_page():
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30).run()
    assert not app.exception
    assert app.title[0].value == "AI Search Lab"
    captions = " ".join(c.value for c in app.caption)
    for info in PAGES:
        assert info.teaches in captions


def test_every_registered_page_file_exists_and_url_matches_file():
    for info in PAGES:
        assert (ROOT / "pages" / info.file).is_file(), info.file
        assert url_path(info) == Path(info.file).stem
