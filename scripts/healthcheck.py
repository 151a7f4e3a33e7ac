"""Exit 0 when the Streamlit server in this container answers its health check, else 1.

The container's ``HEALTHCHECK``: fetches ``/_stcore/health`` on the port and base URL
path the server uses (``STREAMLIT_SERVER_PORT``, ``STREAMLIT_SERVER_BASE_URL_PATH``).
Plain Python, since slim images have no curl.
"""

from __future__ import annotations

import os
import sys
import urllib.request


def health_url(environ: dict[str, str] | os._Environ[str]) -> str:
    """The health URL of a server started with ``environ``'s Streamlit settings."""
    port = environ.get("STREAMLIT_SERVER_PORT") or "8501"
    base = (environ.get("STREAMLIT_SERVER_BASE_URL_PATH") or "").strip("/")
    return f"http://127.0.0.1:{port}/{base + '/' if base else ''}_stcore/health"


def main() -> int:
    """Fetch the health URL; 0 if it answers ``ok``."""
    try:
        with urllib.request.urlopen(health_url(os.environ), timeout=4) as response:
            return 0 if response.read().strip() == b"ok" else 1
    except OSError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
