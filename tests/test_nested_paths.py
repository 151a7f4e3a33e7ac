"""A nested unknown path is redirected to one segment naming it whole (lib.nested_paths)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import unquote

from hypothesis import given
from hypothesis import strategies as st

from lib.nested_paths import STREAMLIT_SEGMENTS, NestedPathsToNotFound, single_segment

segment = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="/?#"), min_size=1
).filter(lambda s: s not in STREAMLIT_SEGMENTS and s not in (".", ".."))


@given(st.lists(segment, min_size=2, max_size=5))
def test_a_nested_path_becomes_one_segment_that_names_it_whole(parts):
    raw = "/" + "/".join(parts)
    target = single_segment(raw)
    assert target is not None and target.count("/") == 1  # one segment: Streamlit's road
    assert unquote(target[1:]) == raw[1:]
    assert single_segment(target) is None  # never redirected again


@given(segment)
def test_one_segment_and_streamlits_own_routes_are_left_alone(name):
    assert single_segment(f"/{name}") is None
    for own in STREAMLIT_SEGMENTS:
        assert single_segment(f"/{name}/{own}/health") is None


def call(middleware, scope):
    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request"}

    # a loop of its own in a thread of its own: the test process may be running one already
    # (Playwright's, when browser tests share this worker)
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, middleware(scope, receive, send)).result()
    return sent


def test_the_middleware_redirects_a_nested_get_and_passes_the_rest_on():
    passed = []

    async def inner(scope, receive, send):
        passed.append(scope["path"])

    middleware = NestedPathsToNotFound(inner)
    nested = {"type": "http", "method": "GET", "path": "/etc/passwd", "query_string": b"a=1"}
    sent = call(middleware, {**nested, "raw_path": b"/etc/passwd"})
    assert sent[0]["status"] == 302
    assert dict(sent[0]["headers"])[b"location"] == b"/etc%2Fpasswd?a=1"
    assert passed == []
    call(middleware, {**nested, "method": "POST"})
    call(middleware, {**nested, "path": "/othello"})
    call(middleware, {"type": "websocket", "path": "/a/_stcore/stream"})
    assert passed == ["/etc/passwd", "/othello", "/a/_stcore/stream"]


def test_under_a_base_url_path_a_page_is_left_alone_and_a_nested_path_is_redirected():
    passed = []

    async def inner(scope, receive, send):
        passed.append(scope["path"])

    middleware = NestedPathsToNotFound(inner, base=lambda: "lab/")
    page = {"type": "http", "method": "GET", "path": "/lab/othello", "raw_path": b"/lab/othello"}
    assert call(middleware, page) == [] and passed == ["/lab/othello"]
    nested = {**page, "path": "/lab/etc/passwd", "raw_path": b"/lab/etc/passwd"}
    sent = call(middleware, nested)
    assert dict(sent[0]["headers"])[b"location"] == b"/lab/etc%2Fpasswd"
