"""Send a nested URL path the app has no page for to Streamlit's "Page not found".

Streamlit serves its page for any path, with its scripts and styles linked relative
to it (``./static/…``). For a path of one segment (``/nosuch``) they resolve to the
app's root: the page loads, says "Page not found" and opens Home. For a nested one
(``/etc/passwd``) they resolve under ``/etc/``, where the server answers each with the
page again instead of the script, and the visitor sees a blank page. This ASGI
middleware (the entry script's ``st.App`` runs it before Streamlit's own handlers)
redirects such a path to one segment that names it whole (``/etc%2Fpasswd``), which
takes the one-segment road: the page loads and says the page does not exist.

Paths of Streamlit's own routes (``_stcore``, ``static``, ``media``, ``component``:
anywhere in the path, since the page itself probes ``<path>/_stcore/health``) and any
method other than GET and HEAD are passed on untouched.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import quote

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

STREAMLIT_SEGMENTS = frozenset({"_stcore", "static", "media", "component", "app"})
"""Path segments of Streamlit's own routes: never redirected."""


def single_segment(path: str, root: str = "") -> str | None:
    """The one-segment path that names nested ``path`` whole, or None to leave it be.

    ``path`` is the request's raw path (percent-encoded, as the browser sent it);
    ``root`` the app's mount path (a base URL path such as ``/lab``).

    >>> single_segment("/etc/passwd")
    '/etc%2Fpasswd'
    >>> single_segment("/lab/a/b/", "/lab")
    '/lab/a%2Fb'
    >>> [single_segment(p) for p in ("/", "/othello", "/x/_stcore/health", "/etc%2Fpasswd")]
    [None, None, None, None]
    """
    root = root.rstrip("/")
    if root and not (path == root or path.startswith(root + "/")):
        return None
    parts = [part for part in path[len(root) :].split("/") if part]
    if len(parts) < 2 or STREAMLIT_SEGMENTS.intersection(parts):
        return None
    return f"{root}/{quote('/'.join(parts), safe='%')}"


class NestedPathsToNotFound:
    """ASGI middleware: a GET or HEAD of a nested path the app has no page for is
    redirected (302) to :func:`single_segment`'s path, its query string kept.

    ``base`` returns the app's base URL path (Streamlit's ``server.baseUrlPath``, e.g.
    ``lab`` behind a proxy that serves it at ``/lab/``), read at each request.
    """

    def __init__(self, app: ASGIApp, base: Callable[[], str | None] = lambda: "") -> None:
        self.app = app
        self.base = base

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method") in ("GET", "HEAD"):
            raw = scope.get("raw_path") or scope.get("path", "").encode()
            root = "/".join(
                part for part in (scope.get("root_path", ""), self.base() or "") if part.strip("/")
            )
            root = "/" + "/".join(p for p in root.split("/") if p) if root else ""
            target = single_segment(raw.decode("latin-1"), root)
            if target is not None:
                query = scope.get("query_string", b"")
                location = target + ("?" + query.decode("latin-1") if query else "")
                await send(
                    {
                        "type": "http.response.start",
                        "status": 302,
                        "headers": [
                            (b"location", location.encode("latin-1")),
                            (b"cache-control", b"no-cache"),
                            (b"content-length", b"0"),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": b""})
                return
        await self.app(scope, receive, send)
